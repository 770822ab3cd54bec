package resolver

import (
	"fmt"
	"maps"
	"slices"

	"github.com/sextantdev/sextant/internal/suggest"
)

// nearNames says which name the subscription of s most likely meant when
// its package (FactNoPackage) or channel (FactNoChannel) matches nothing
// in the catalogs it may use: `did you mean package "cert-manager"?`; nil
// when no name is close.
func (res *resolution) nearNames(s *subNode, kind FactKind) []string {
	catalogs := res.visible
	if !s.catalog.IsZero() {
		catalogs = nil
		if ci := res.r.byKey[s.catalog]; ci != nil {
			catalogs = append(catalogs, ci)
		}
	}
	var names []string
	what, asked := "package", s.sub.Package
	switch kind {
	case FactNoPackage:
		for _, ci := range catalogs {
			if pi := ci.pkgs[s.sub.Package]; pi != nil && len(pi.pkg.Bundles) > 0 && len(pi.invalid()) > 0 {
				return []string{fmt.Sprintf("catalog %s has package %s, but it was left out as invalid", ci.key, s.sub.Package)}
			}
		}
		for _, ci := range catalogs {
			names = append(names, slices.Sorted(maps.Keys(ci.pkgs))...)
		}
	case FactNoChannel:
		what, asked = "channel", s.sub.Channel
		for _, ci := range catalogs {
			if pi := ci.pkgs[s.sub.Package]; pi != nil {
				for _, ch := range pi.pkg.Channels {
					names = append(names, ch.Name)
				}
			}
		}
	default:
		return nil
	}
	if near := suggest.Nearest(asked, names); near != "" {
		return []string{fmt.Sprintf("did you mean %s %q?", what, near)}
	}
	return nil
}
