package sextant

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/resolver"
)

// namespaces returns the namespaces to resolve: every namespace
// resolution concerns (resolver.Namespaces) with Input.AllNamespaces; the
// one asked for, which must be one of them (unless an application is
// resolved: its namespace may hold nothing yet); else the one the
// subscriptions share, else the one the installed CSVs share, else the
// application's.
func (l *loader) namespaces(state *cluster.State, app []cluster.Object) ([]string, error) {
	if l.in.AllNamespaces {
		return resolver.Namespaces(state), nil
	}
	asked := l.in.Namespace
	application := len(l.in.For) > 0 || len(l.in.Application) > 0
	if application {
		appNS, err := appNamespace(app)
		switch {
		case asked == "" && err != nil:
			return nil, err
		case asked == "" && appNS != "":
			return []string{appNS}, nil
		case asked != "" && appNS != "" && appNS != asked:
			l.notef(NoteAppNamespace, "the application's objects are in namespace %s; resolving namespace %s", appNS, asked)
		}
	}
	present := resolver.Namespaces(state)
	if asked != "" {
		if application || slices.Contains(present, asked) {
			return []string{asked}, nil
		}
		return nil, &NamespaceError{Asked: asked, Namespaces: present}
	}
	var nss []string
	for _, s := range state.Subscriptions {
		nss = append(nss, s.Namespace)
	}
	what := "subscriptions"
	if len(nss) == 0 {
		what = "installed CSVs"
		for _, c := range state.CSVs {
			if !c.Copied {
				nss = append(nss, c.Namespace)
			}
		}
	}
	slices.Sort(nss)
	nss = slices.Compact(nss)
	if len(nss) != 1 {
		return nil, &NamespaceError{Namespaces: nss, What: what}
	}
	return nss, nil
}

// operatorGroups says where the OperatorGroup of each namespace of nss
// comes from; when the manifests list none, it reads those the CSVs'
// annotations name (cluster.State.InferOperatorGroups) into state, and
// notes, once each, which namespace's group was read from them, whose
// CSVs disagree, and which is assumed plain because nothing says
// anything (DESIGN §1 OperatorGroup).
func (l *loader) operatorGroups(state *cluster.State, nss []string) []OperatorGroupFact {
	var facts []OperatorGroupFact
	if state.ListsOperatorGroups() {
		for _, ns := range nss {
			facts = append(facts, OperatorGroupFact{Namespace: ns, From: GroupListed})
		}
		return facts
	}
	disagree := map[string]*cluster.GroupDisagreement{}
	ds := state.InferOperatorGroups()
	for i := range ds {
		disagree[ds[i].Namespace] = &ds[i]
	}
	var assumed []string
	for _, ns := range nss {
		groups := state.OperatorGroupsIn(ns)
		switch {
		case len(groups) > 0:
			g := groups[0]
			facts = append(facts, OperatorGroupFact{Namespace: ns, From: GroupFromCSVs, Group: g})
			targets := strings.Join(g.StatusNamespaces, ", ")
			if targets == "" {
				targets = "all namespaces"
			}
			l.note(Note{Code: NoteOperatorGroupFromCSVs, Object: cluster.Ref{Kind: cluster.KindOperatorGroup, Namespace: g.Namespace, Name: g.Name},
				Text: fmt.Sprintf("no OperatorGroup in the manifests: read OperatorGroup %s/%s, targeting %s, from the annotations OLM put on the CSVs of %s (olm.operatorGroup, olm.targetNamespaces); install modes and API conflicts are checked against it", g.Namespace, g.Name, targets, ns)})
		case disagree[ns] != nil:
			facts = append(facts, OperatorGroupFact{Namespace: ns, From: GroupsDisagree, Disagreement: disagree[ns]})
			assumed = append(assumed, ns)
		default:
			facts = append(facts, OperatorGroupFact{Namespace: ns, From: GroupAssumed})
			assumed = append(assumed, ns)
		}
	}
	for _, ns := range nss {
		if d := disagree[ns]; d != nil {
			l.note(Note{Code: NoteOperatorGroupsDisagree, Text: d.String()})
		}
	}
	if len(assumed) == 0 {
		return facts
	}
	which := "namespace " + assumed[0] + " has"
	if len(assumed) > 1 {
		which = "namespaces " + strings.Join(assumed, ", ") + " have"
	}
	l.notef(NoteOperatorGroupAssumed, "no OperatorGroup in the manifests: assuming %s one plain OperatorGroup, as OLM needs exactly one; its target namespaces are unknown, so install modes and API conflicts between OperatorGroups are not checked (list them with kubectl get ...,og)", which)
	return facts
}

// globalNamespace returns the global catalog namespace: the one asked
// for, else the one namespace the manifests point to for catalogs
// (cluster.State.CatalogNamespaces), noted, else the default.
func (l *loader) globalNamespace(state *cluster.State) string {
	if l.in.GlobalNamespace != "" {
		return l.in.GlobalNamespace
	}
	def := resolver.DefaultGlobalNamespace
	nss := state.CatalogNamespaces()
	switch {
	case len(nss) == 1 && nss[0] != def:
		l.note(Note{Code: NoteGlobalNamespace, Catalog: resolver.CatalogKey{Namespace: nss[0]},
			Text: fmt.Sprintf("global catalog namespace: %s, where the manifests' CatalogSources and subscriptions point", nss[0])})
		return nss[0]
	case len(nss) > 1 && !slices.Contains(nss, def):
		l.notef(NoteGlobalNamespaceKept, "the manifests point to catalogs in %d namespaces (%s): the global catalog namespace stays %s", len(nss), strings.Join(nss, ", "), def)
	}
	return def
}

// place gives each catalog its identity and priority, for the namespaces
// nss: a CatalogSource of its name gives them (the one in the namespace
// resolved when there are several); with none, the namespace the
// subscriptions naming the catalog agree on, else the global namespace,
// and priority 0. A catalog given a namespace keeps it.
func (l *loader) place(state *cluster.State, nss []string, global string, cats []*catalogSpec) error {
	ns := ""
	if len(nss) == 1 && !l.in.AllNamespaces {
		ns = nss[0]
	}
	var errs []error
	for _, c := range cats {
		if c.in.Namespace != "" {
			c.key = resolver.CatalogKey{Namespace: c.in.Namespace, Name: c.name}
			if i := slices.IndexFunc(state.CatalogSources, func(cs cluster.CatalogSource) bool {
				return cs.Name == c.name && cs.Namespace == c.in.Namespace
			}); i >= 0 {
				c.priority = state.CatalogSources[i].Priority
			}
			continue
		}
		key, prio, err := l.identity(c.name, ns, global, state)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		c.key, c.priority = key, prio
	}
	return errors.Join(errs...)
}

// identity returns the identity and priority of the catalog named name
// (see place).
func (l *loader) identity(name, ns, global string, state *cluster.State) (resolver.CatalogKey, int, error) {
	var found []cluster.CatalogSource
	for _, cs := range state.CatalogSources {
		if cs.Name == name {
			found = append(found, cs)
		}
	}
	if len(found) > 1 {
		i := slices.IndexFunc(found, func(cs cluster.CatalogSource) bool { return cs.Namespace == ns })
		if i < 0 {
			e := &AmbiguousCatalogError{Name: name}
			for _, cs := range found {
				ref := cluster.Ref{Kind: cluster.KindCatalogSource, Namespace: cs.Namespace, Name: cs.Name}
				e.Sources, e.Files = append(e.Sources, ref), append(e.Files, l.files[ref])
			}
			return resolver.CatalogKey{}, 0, e
		}
		found = found[i : i+1]
	}
	if len(found) == 1 {
		return resolver.CatalogKey{Namespace: found[0].Namespace, Name: name}, found[0].Priority, nil
	}
	var nss []string
	for _, sub := range state.Subscriptions {
		if key, ok := resolver.SubscriptionCatalog(&sub); ok && (ns == "" || sub.Namespace == ns) && key.Name == name && key.Namespace != "" {
			nss = append(nss, key.Namespace)
		}
	}
	slices.Sort(nss)
	if nss = slices.Compact(nss); len(nss) == 1 {
		return resolver.CatalogKey{Namespace: nss[0], Name: name}, 0, nil
	}
	return resolver.CatalogKey{Namespace: global, Name: name}, 0, nil
}
