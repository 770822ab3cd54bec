package resolver

import (
	"fmt"

	"github.com/sextantdev/sextant/cluster"
)

// operatorGroup applies the namespace's OperatorGroup as OLM's catalog
// operator does before it resolves: a namespace with subscriptions needs
// exactly one OperatorGroup when the state holds any (see
// cluster.State.NamespaceOperatorGroup); with the exclusion annotation the
// global namespace's catalogs are not visible.
func (res *resolution) operatorGroup(state *cluster.State) error {
	g, assumed, err := state.NamespaceOperatorGroup(res.ns)
	if err != nil {
		for i := range state.Subscriptions {
			if state.Subscriptions[i].Namespace == res.ns {
				return err
			}
		}
		// No subscription: OLM's catalog operator has nothing to resolve
		// and does not look at the OperatorGroups; neither does Sextant.
		return nil
	}
	if !assumed && g.ExcludesGlobalCatalogs() && res.ns != res.r.global {
		res.excludedBy = g
	}
	return nil
}

// exclusionText says why the global namespace's catalogs are not visible.
func (res *resolution) exclusionText() string {
	return fmt.Sprintf("OperatorGroup %s of namespace %s sets %s: \"true\", which leaves the catalogs of the global namespace %s out of its resolution",
		res.excludedBy.Name, res.ns, cluster.ExcludeGlobalCatalogsAnnotation, res.r.global)
}

// exclusionNotes says, for a subscription that finds no catalog or no
// package, what an excluded global catalog would have offered.
func (res *resolution) exclusionNotes(s *subNode, kind FactKind) []string {
	if res.excludedBy == nil {
		return nil
	}
	sub := s.sub
	switch kind {
	case FactNoCatalog:
		if !s.catalog.IsZero() {
			if ci := res.r.byKey[s.catalog]; ci != nil && ci.key.Namespace == res.r.global {
				return []string{fmt.Sprintf("catalog %s exists, but the %s", ci.key, res.exclusionText())}
			}
			return nil
		}
		if len(res.excluded) > 0 {
			return []string{"the " + res.exclusionText()}
		}
	case FactNoPackage, FactNoChannel:
		for _, ci := range res.excluded {
			if pi := ci.pkgs[sub.Package]; pi != nil && len(pi.pkg.Bundles) > 0 {
				return []string{fmt.Sprintf("catalog %s has package %s, but the %s", ci.key, sub.Package, res.exclusionText())}
			}
		}
	}
	return nil
}

// excludedMisses says which bundles of excluded global catalogs would
// satisfy requirement q.
func (res *resolution) excludedMisses(q *requirement) []string {
	var notes []string
	for _, ci := range res.excluded {
		for _, b := range res.generate(ci, q) {
			if res.matchBundle(q, b) {
				notes = append(notes, fmt.Sprintf("%s (catalog %s) would satisfy it, but the %s", b.Name, ci.key, res.exclusionText()))
				break
			}
		}
	}
	return notes
}
