package cluster

import (
	"cmp"
	"slices"
	"strings"
)

// CustomResource is an object of a kind a CustomResourceDefinition
// defines (a Memcached of cache.example.com, say), as the manifests give
// it: OLM v0 validates every one of a CRD against the new CRD's schema
// before it replaces the CRD (DESIGN §12). Decode keeps as a candidate
// every object of an API group with a dot that it does not otherwise read
// and that has a name; [State.ClaimCustomResources] keeps those whose
// kind a CRD of the state or an installed CSV defines.
type CustomResource struct {
	// Group, Version and Kind are the object's apiVersion and kind.
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
	// Namespace is "" for a cluster-scoped object.
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	// File and Line say where the object was read.
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	// Object is the object as decoded (objects map[string]any, lists
	// []any, numbers json.Number, int64 or float64); it is shared, never
	// changed.
	Object map[string]any `json:"-"`
	// Claimed is set once ClaimCustomResources found its CRD.
	Claimed bool `json:"-"`
}

// APIVersion returns the object's apiVersion, "group/version".
func (c *CustomResource) APIVersion() string { return c.Group + "/" + c.Version }

// Key returns the object's key as the API server stores it and lists
// objects in that order: "namespace/name", or the name of a
// cluster-scoped object.
func (c *CustomResource) Key() string {
	if c.Namespace == "" {
		return c.Name
	}
	return c.Namespace + "/" + c.Name
}

// customResource keeps the object m of group, version and kind as a
// candidate custom resource when its group has a dot (as every CRD's
// does) and it has a name; it reports whether it did. It is counted in
// Ignored all the same, until claimed.
func (d *decoder) customResource(o *object, m map[string]any, group, version, kind string) bool {
	if !strings.Contains(group, ".") || version == "" || kind == "" {
		return false
	}
	meta, _ := m["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	ns, _ := meta["namespace"].(string)
	if name == "" {
		return false
	}
	d.state.CustomResources = append(d.state.CustomResources, CustomResource{Group: group, Version: version, Kind: kind,
		Namespace: ns, Name: name, File: d.file, Line: o.line, Object: m})
	return true
}

// ClaimCustomResources keeps, of the candidate custom resources of s,
// those whose group and kind a CRD of s defines or a CSV of s owns (its
// spec.customresourcedefinitions.owned, or its properties' olm.gvk),
// no longer counted in s.Ignored, and drops the others, which stay
// counted there: an object of a kind no CRD defines is ignored as
// before. It returns how many s holds. Claiming again changes nothing.
func (s *State) ClaimCustomResources() int {
	if len(s.CustomResources) == 0 {
		return 0
	}
	defined := map[groupKind]bool{}
	for _, c := range s.CRDs {
		defined[groupKind{c.Group, c.Kind}] = true
	}
	for i := range s.CSVs {
		for _, g := range s.CSVs[i].Provides {
			defined[groupKind{g.Group, g.Kind}] = true
		}
		for _, g := range s.CSVs[i].Properties.Typed().Provides {
			defined[groupKind{g.Group, g.Kind}] = true
		}
	}
	kept := s.CustomResources[:0]
	for _, c := range s.CustomResources {
		if !defined[groupKind{c.Group, c.Kind}] {
			continue
		}
		if !c.Claimed {
			c.Claimed = true
			s.unignore(c.Group, c.Kind)
		}
		kept = append(kept, c)
	}
	clear(s.CustomResources[len(kept):])
	s.CustomResources = kept
	slices.SortStableFunc(s.CustomResources, compareCustomResources)
	return len(s.CustomResources)
}

// compareCustomResources orders custom resources by group, kind, then
// key (the order the API server lists them in).
func compareCustomResources(a, b CustomResource) int {
	return cmp.Or(cmp.Compare(a.Group, b.Group), cmp.Compare(a.Kind, b.Kind), strings.Compare(a.Key(), b.Key()))
}

// unignore takes one object of group and kind off s.Ignored.
func (s *State) unignore(group, kind string) {
	i, found := slices.BinarySearchFunc(s.Ignored, Ignored{Group: group, Kind: kind}, compareIgnored)
	if !found {
		return
	}
	if s.Ignored[i].Count--; s.Ignored[i].Count <= 0 {
		s.Ignored = slices.Delete(s.Ignored, i, i+1)
	}
}

// CustomResourcesOf returns the claimed custom resources of s of group
// and kind, in the order of s.CustomResources (ClaimCustomResources
// sorts them as the API server lists them: by key). The caller owns the
// slice; its objects are shared.
func (s *State) CustomResourcesOf(group, kind string) []CustomResource {
	var out []CustomResource
	for _, c := range s.CustomResources {
		if c.Claimed && c.Group == group && c.Kind == kind {
			out = append(out, c)
		}
	}
	return out
}
