package predict

import (
	"fmt"
	"slices"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/words"
)

// GroupKey identifies an OperatorGroup.
type GroupKey struct{ Namespace, Name string }

// Planned holds, per OperatorGroup, the APIs that the plans of namespaces
// resolved before install (resolver.ResolveAll): a Predictor counts them
// as provided by the group. Each list is sorted without repeats. A nil
// Planned holds nothing; Add needs a non-nil one.
type Planned map[GroupKey][]graph.GVK

// Add records that the plan pr predicted for installs apis (in any order)
// in pr's namespace. It does nothing when the namespace has no single
// OperatorGroup.
func (pl Planned) Add(pr *Predictor, apis []graph.GVK) {
	if pr == nil || pr.own == nil || len(apis) == 0 {
		return
	}
	k := pr.own.key()
	pl[k] = unionGVKs(pl[k], apis)
}

// groupSurface is an OperatorGroup as OLM's API intersection check sees
// it: its target namespaces (its own namespace added) and the APIs its
// operators provide.
type groupSurface struct {
	g       *cluster.OperatorGroup
	targets Targets
	// apis is the olm.providedAPIs annotation, or, without one, the APIs
	// of the installed CSVs of its namespace; sorted, no duplicates.
	apis []graph.GVK
	// fromCSVs reports that apis come from the installed CSVs.
	fromCSVs bool
}

func (s *groupSurface) key() GroupKey { return GroupKey{s.g.Namespace, s.g.Name} }

// name returns "namespace/name".
func (s *groupSurface) name() string { return s.g.Namespace + "/" + s.g.Name }

// intersects reports whether the target namespaces of a and b intersect
// (all namespaces intersect everything), as OLM compares them: each
// group's own namespace counts among its targets.
func (a *groupSurface) intersects(b *groupSurface) bool {
	if !a.targets.Known || !b.targets.Known {
		return false
	}
	if a.targets.All() || b.targets.All() {
		return true
	}
	in := func(ns string, s *groupSurface) bool {
		return ns == s.g.Namespace || slices.Contains(s.targets.Namespaces, ns)
	}
	if in(a.g.Namespace, b) {
		return true
	}
	for _, ns := range a.targets.Namespaces {
		if in(ns, b) {
			return true
		}
	}
	return false
}

// apiPrediction predicts OLM's API intersection check for a CSV name that
// provides apis (sorted), in the group own, beside the other groups (in a
// fixed order): nil when OLM lets it through.
func apiPrediction(name string, apis []graph.GVK, own *groupSurface, others []*groupSurface) *Prediction {
	if len(apis) == 0 {
		return nil
	}
	var clash []graph.GVK
	var with []string
	for _, o := range others {
		if o == own || !own.intersects(o) {
			continue
		}
		hit := intersectGVKs(apis, o.apis)
		if len(hit) == 0 {
			continue
		}
		with = append(with, fmt.Sprintf("OperatorGroup %s (%s)", o.name(), o.targets.Words(o.g.Namespace)))
		clash = append(clash, hit...)
	}
	slices.SortFunc(clash, graph.GVK.Compare)
	clash = slices.Compact(clash)
	subset := subsetGVKs(apis, own.apis)
	switch {
	case len(clash) > 0 && !(subset && own.g.StaticProvidedAPIs):
		// OLM: the CSV's APIs meet an intersecting group's; when its own
		// group lists them too, OLM removes them from it first, then fails
		// the CSV the same way.
		return &Prediction{Reason: ReasonInterOperatorGroupOwnerConflict, Severity: SeverityFailure, OperatorGroup: own.name(),
			Message: fmt.Sprintf("OperatorGroup %s (%s) intersects %s, whose operators already provide %s, which %s provides too; OLM lets only one of intersecting OperatorGroups provide an API",
				own.name(), own.targets.Words(own.g.Namespace), words.Join(with, "and"), apiWords(clash), name)}
	case len(clash) > 0:
		return &Prediction{Reason: ReasonCannotModifyStaticOperatorGroupProvidedAPIs, Severity: SeverityFailure, OperatorGroup: own.name(),
			Message: fmt.Sprintf("OperatorGroup %s has spec.staticProvidedAPIs and lists %s, which intersecting %s provides too: OLM would have to remove them from its %s annotation", own.name(), apiWords(clash), words.Join(with, "and"), cluster.ProvidedAPIsAnnotation)}
	case !subset && own.g.StaticProvidedAPIs:
		return &Prediction{Reason: ReasonCannotModifyStaticOperatorGroupProvidedAPIs, Severity: SeverityFailure, OperatorGroup: own.name(),
			Message: fmt.Sprintf("OperatorGroup %s has spec.staticProvidedAPIs, and its %s annotation lacks %s, which %s provides", own.name(), cluster.ProvidedAPIsAnnotation, apiWords(differenceGVKs(apis, own.apis)), name)}
	}
	return nil
}

// apiWords names APIs, at most three: "API a, API b and 2 more".
func apiWords(apis []graph.GVK) string {
	const show = 3
	s := make([]string, 0, show+1)
	for i, g := range apis {
		if i == show {
			s = append(s, fmt.Sprintf("%d more", len(apis)-show))
			break
		}
		s = append(s, g.String())
	}
	if len(apis) == 1 {
		return "API " + s[0]
	}
	return "APIs " + words.Join(s, "and")
}

// intersectGVKs returns the APIs in both sorted lists, sorted.
func intersectGVKs(a, b []graph.GVK) []graph.GVK {
	var out []graph.GVK
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch c := a[i].Compare(b[j]); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

// differenceGVKs returns the APIs of sorted a missing from sorted b.
func differenceGVKs(a, b []graph.GVK) []graph.GVK {
	var out []graph.GVK
	for _, g := range a {
		if _, ok := slices.BinarySearchFunc(b, g, graph.GVK.Compare); !ok {
			out = append(out, g)
		}
	}
	return out
}

// subsetGVKs reports whether every API of sorted a is in sorted b.
func subsetGVKs(a, b []graph.GVK) bool {
	for _, g := range a {
		if _, ok := slices.BinarySearchFunc(b, g, graph.GVK.Compare); !ok {
			return false
		}
	}
	return true
}

// sortedSet sorts apis in place and drops repeats; the caller owns apis.
func sortedSet(apis []graph.GVK) []graph.GVK {
	slices.SortFunc(apis, graph.GVK.Compare)
	return slices.Compact(apis)
}

// unionGVKs returns the sorted union of two lists, without duplicates.
func unionGVKs(a, b []graph.GVK) []graph.GVK {
	return sortedSet(slices.Concat(a, b))
}
