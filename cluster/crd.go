package cluster

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/crd"
	"github.com/sextantdev/sextant/graph"
)

// KindCRD is the kind of a CustomResourceDefinition (apiextensions.k8s.io/v1).
const KindCRD = "CustomResourceDefinition"

// crdAPIGroup is the API group of CustomResourceDefinitions.
const crdAPIGroup = "apiextensions.k8s.io"

// CRD is a CustomResourceDefinition as the cluster holds it: the API it
// defines and the versions its objects have been stored in. Resolution
// reads it to predict OLM's refusal to update a CRD when the new bundle
// drops a version that objects may still be stored in (DESIGN §12). The
// zero value is a CRD with no name.
type CRD struct {
	// Name is metadata.name, "<plural>.<group>".
	Name string `json:"name"`
	// Group is spec.group, Kind spec.names.kind.
	Group string `json:"group"`
	Kind  string `json:"kind"`
	// Versions is spec.versions in the order written.
	Versions []CRDVersion `json:"versions"`
	// StoredVersions is status.storedVersions in the order written: every
	// version objects of the CRD have been stored in since the list was
	// last trimmed (nil when absent).
	StoredVersions []string `json:"storedVersions,omitempty"`
	// Definition is the CRD read whole by package crd (its versions'
	// schemas, its conversion strategy): what OLM v1's CRD upgrade safety
	// preflight compares a new bundle's CRD with. nil when the manifest
	// cannot be read whole (DefinitionErr says why: a version without a
	// schema, as manifests cut short for an example have; the API server
	// requires one).
	Definition *crd.Definition `json:"-"`
	// DefinitionErr is why Definition is nil (crd.Decode's error).
	DefinitionErr error `json:"-"`
}

// CRDVersion is one entry of a CRD's spec.versions.
type CRDVersion struct {
	Name string `json:"name"`
	// Served and Storage are the entry's served and storage flags.
	Served  bool `json:"served"`
	Storage bool `json:"storage"`
}

// CRD returns the CRD of s named name ("<plural>.<group>"), or nil. The
// result points into s.
func (s *State) CRD(name string) *CRD {
	return find(s.CRDs, crdKey, "", name)
}

// crdKey is the key of a CRD: no namespace (CRDs are cluster-scoped) and
// its name.
func crdKey(c CRD) (string, string) { return "", c.Name }

// The fields of a CustomResourceDefinition (apiextensions.k8s.io/v1), for
// the check of unknown fields.
var (
	crdSpecFields    = []string{"group", "names", "scope", "versions", "conversion", "preserveUnknownFields"}
	crdNamesFields   = []string{"kind", "listKind", "plural", "singular", "shortNames", "categories"}
	crdVersionFields = []string{"name", "served", "storage", "schema", "subresources", "additionalPrinterColumns",
		"deprecated", "deprecationWarning", "selectableFields"}
	crdStatusFields = []string{"acceptedNames", "conditions", "storedVersions"}
)

// crd reads a CustomResourceDefinition of apiVersion, strictly (unknown
// fields refused, as the API server refuses them).
func (d *decoder) crd(o *object, apiVersion string, m map[string]any, line int) {
	o.kind = KindCRD
	if meta, ok := m["metadata"].(map[string]any); ok {
		o.name, _ = meta["name"].(string)
	}
	if apiVersion != "" && apiVersion != crdAPIGroup+"/v1" {
		o.errorf("apiVersion", "is %q, want %q (kubectl get crd prints that version; v1beta1 is not served since Kubernetes 1.22)", apiVersion, crdAPIGroup+"/v1")
		return
	}
	n := d.nerrs()
	o.fields(m, "", "apiVersion", "kind", "metadata", "spec", "status")
	meta, ok := o.obj(m, "metadata", "metadata")
	if !ok {
		if _, present := m["metadata"]; !present {
			o.errorf("metadata", "missing")
		}
		return
	}
	o.fields(meta, "metadata", v1MetaFields...)
	o.name, _ = o.str(meta, "name", "metadata.name")
	if o.name == "" {
		o.errorf("metadata.name", "missing")
	}
	if ns, _ := o.str(meta, "namespace", "metadata.namespace"); ns != "" {
		o.errorf("metadata.namespace", "is %q, want none: a CustomResourceDefinition is cluster-scoped", ns)
	}
	if d.nerrs() > n || !d.define(o, objectKey{KindCRD, "", o.name}, line) {
		return
	}
	spec, _ := o.obj(m, "spec", "spec")
	status, _ := o.obj(m, "status", "status")
	o.fields(spec, "spec", crdSpecFields...)
	o.fields(status, "status", crdStatusFields...)
	c := CRD{Name: o.name}
	c.Group, _ = o.str(spec, "group", "spec.group")
	var plural string
	if names, ok := o.obj(spec, "names", "spec.names"); ok {
		o.fields(names, "spec.names", crdNamesFields...)
		c.Kind, _ = o.str(names, "kind", "spec.names.kind")
		plural, _ = o.str(names, "plural", "spec.names.plural")
	}
	c.Versions = o.crdVersions(spec)
	stored, _ := o.arr(status, "storedVersions", "status.storedVersions")
	for i, raw := range stored {
		if v, ok := as[string](o, raw, fmt.Sprintf("status.storedVersions[%d]", i)); ok {
			c.StoredVersions = append(c.StoredVersions, v)
		}
	}
	if d.nerrs() > n {
		return
	}
	switch {
	case c.Group == "":
		o.errorf("spec.group", "missing")
	case c.Kind == "":
		o.errorf("spec.names.kind", "missing")
	case plural != "" && o.name != plural+"."+c.Group:
		o.errorf("metadata.name", "is not %q (spec.names.plural, a dot, spec.group), as the API server requires", plural+"."+c.Group)
	case len(c.Versions) == 0:
		o.errorf("spec.versions", "missing: a CRD defines at least one version")
	}
	if d.nerrs() > n {
		return
	}
	var dec crd.Decoded
	c.Definition, dec, c.DefinitionErr = crd.Decode(m)
	for _, f := range dec.Unknown {
		// The levels above are checked where they are read; crd.Decode
		// reads the schemas and the conversion too.
		if strings.Contains(f, ".schema.") || strings.HasPrefix(f, "spec.conversion.") {
			o.errorf(f, "unknown field")
		}
	}
	if d.nerrs() == n {
		d.state.CRDs = append(d.state.CRDs, c)
	}
}

// crdVersions reads spec.versions: each {name, served, storage}; the names
// must be distinct and exactly one version the storage version, as the API
// server requires.
func (o *object) crdVersions(spec map[string]any) []CRDVersion {
	items, _ := o.arr(spec, "versions", "spec.versions")
	out := make([]CRDVersion, 0, len(items))
	storage := 0
	for i, raw := range items {
		f := fmt.Sprintf("spec.versions[%d]", i)
		m, ok := as[map[string]any](o, raw, f)
		if !ok {
			continue
		}
		o.fields(m, f, crdVersionFields...)
		v := CRDVersion{}
		v.Name, _ = o.str(m, "name", f+".name")
		v.Served, _ = o.boolean(m, "served", f+".served")
		v.Storage, _ = o.boolean(m, "storage", f+".storage")
		switch {
		case v.Name == "":
			o.errorf(f+".name", "missing")
			continue
		case slices.ContainsFunc(out, func(w CRDVersion) bool { return w.Name == v.Name }):
			o.errorf(f+".name", "version %q is listed twice", v.Name)
			continue
		}
		if v.Storage {
			storage++
		}
		out = append(out, v)
	}
	if len(out) > 0 && storage != 1 {
		o.errorf("spec.versions", "%d versions have storage: true, want exactly one (as the API server requires)", storage)
	}
	return out
}

// boolean returns the boolean field key of m (absent or null: false).
func (o *object) boolean(m map[string]any, key, field string) (bool, bool) {
	raw, present := m[key]
	if !present || raw == nil {
		return false, true
	}
	return as[bool](o, raw, field)
}

// StoredVersionsDropped returns the versions of c.StoredVersions that are
// not in versions (the versions of the CRD a new bundle provides), in the
// order of c.StoredVersions: OLM v0 refuses to update the CRD then, and
// OLM v1's upgrade check too, since objects stored in such a version could
// no longer be read. nil when none is dropped.
func (c *CRD) StoredVersionsDropped(versions []string) []string {
	var out []string
	for _, v := range c.StoredVersions {
		if !slices.Contains(versions, v) && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// CRDIndex finds the CRDs of a state by the group and kind they define.
// The zero value finds none; an index is safe for concurrent use.
type CRDIndex struct {
	byGroupKind map[groupKind]*CRD
}

type groupKind struct{ group, kind string }

// IndexCRDs indexes crds by group and kind; the index points into crds,
// which must not change while it is used. Of two CRDs defining one group
// and kind (the API server forbids it), the first is kept.
func IndexCRDs(crds []CRD) CRDIndex {
	if len(crds) == 0 {
		return CRDIndex{}
	}
	x := CRDIndex{byGroupKind: make(map[groupKind]*CRD, len(crds))}
	for i := range crds {
		k := groupKind{crds[i].Group, crds[i].Kind}
		if _, ok := x.byGroupKind[k]; !ok {
			x.byGroupKind[k] = &crds[i]
		}
	}
	return x
}

// StoredVersionLoss is a CRD of the cluster that a new bundle would update
// while dropping versions objects may still be stored in.
type StoredVersionLoss struct {
	CRD *CRD
	// Provided lists the versions of the CRD the new bundle provides, in
	// the order of its olm.gvk properties; Dropped the versions of
	// CRD.StoredVersions among them, in that list's order.
	Provided []string
	Dropped  []string
}

// StoredVersionLosses returns, for the APIs a new bundle provides (its
// olm.gvk properties, which list every version of every CRD of the bundle),
// every CRD of the index whose group and kind the bundle provides and one
// of whose stored versions (status.storedVersions) it no longer provides:
// OLM v0 fails the InstallPlan that would update such a CRD ("risk of data
// loss"), and OLM v1's upgrade check refuses it. The result is in the
// order of provides, one entry per CRD; nil when there is none.
func (x CRDIndex) StoredVersionLosses(provides []graph.GVK) []StoredVersionLoss {
	if len(x.byGroupKind) == 0 {
		return nil
	}
	var out []StoredVersionLoss
	var seen []*CRD
	for _, g := range provides {
		c := x.byGroupKind[groupKind{g.Group, g.Kind}]
		if c == nil || slices.Contains(seen, c) {
			continue
		}
		seen = append(seen, c)
		var versions []string
		for _, h := range provides {
			if h.Group == g.Group && h.Kind == g.Kind && !slices.Contains(versions, h.Version) {
				versions = append(versions, h.Version)
			}
		}
		if dropped := c.StoredVersionsDropped(versions); len(dropped) > 0 {
			out = append(out, StoredVersionLoss{CRD: c, Provided: versions, Dropped: dropped})
		}
	}
	return out
}

// Find returns the CRD of the index that defines group and kind, or nil.
func (x CRDIndex) Find(group, kind string) *CRD {
	return x.byGroupKind[groupKind{group, kind}]
}
