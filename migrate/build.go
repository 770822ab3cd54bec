package migrate

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/words"
	"github.com/sextantdev/sextant/olmv1"
	"github.com/sextantdev/sextant/registryv1"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolver/predict"
)

// builder holds what Build reads while it answers for each subscription.
type builder struct {
	ctx      context.Context // bounds the reading of bundle contents
	state    *cluster.State
	catalogs []resolver.Catalog
	crds     cluster.CRDIndex
	v1       *olmv1.Resolver
	// featureSet is operator-controller's: only its experimental CRDs
	// have spec.config.
	featureSet cluster.FeatureSet

	ccByKey map[resolver.CatalogKey]cluster.ClusterCatalog
	// steps holds v0's step for each subscription that has one; v0Errs
	// v0's error for each namespace that has no plan.
	steps  map[subKey]resolver.Step
	v0Errs map[string]string
	// byPackage lists the subscriptions of each package; owners the
	// subscriptions whose installed CSV provides each CRD's group and
	// kind; extNames counts the subscriptions of each name.
	byPackage map[string][]*cluster.Subscription
	owners    map[groupKind][]*cluster.Subscription
	extNames  map[string]int
	notes     []string
	// unknownModes names the subscriptions whose operator's install
	// modes are not known.
	unknownModes []string
	// crdCache parses the CRDs of the bundles installers are derived
	// from, once per digest.
	crdCache registryv1.CRDCache
	// unchecked is what v1's CRD upgrade safety preflight could not
	// compare.
	unchecked []olmv1.Unchecked
}

type subKey struct{ namespace, name string }

type groupKind struct{ group, kind string }

// clusterCatalogs makes the ClusterCatalog of each catalog: named after
// its CatalogSource (namespace-name when two share a name), with the
// CatalogSource's image and priority.
func (b *builder) clusterCatalogs() {
	names := map[string]int{}
	for _, c := range b.catalogs {
		names[c.Key.Name]++
	}
	b.ccByKey = make(map[resolver.CatalogKey]cluster.ClusterCatalog, len(b.catalogs))
	for _, c := range b.catalogs {
		name := c.Key.Name
		if names[name] > 1 {
			name = c.Key.Namespace + "-" + c.Key.Name
		}
		cc := cluster.ClusterCatalog{Name: name, Labels: map[string]string{cluster.MetadataNameLabel: name}, Priority: int32(c.Priority)}
		for _, cs := range b.state.CatalogSources {
			if cs.Namespace == c.Key.Namespace && cs.Name == c.Key.Name {
				cc.Image = cs.Image
			}
		}
		if cc.Image == "" {
			b.note(fmt.Sprintf("catalog %s has no CatalogSource with spec.image: its ClusterCatalog %s needs spec.source.image.ref written by hand", c.Key, name))
		}
		b.ccByKey[c.Key] = cc
	}
}

// usedCatalogs returns the ClusterCatalogs of the catalogs a subscription
// names, highest priority first, then by name.
func (b *builder) usedCatalogs() []cluster.ClusterCatalog {
	var out []cluster.ClusterCatalog
	for _, c := range b.catalogs {
		used := slices.ContainsFunc(b.state.Subscriptions, func(s cluster.Subscription) bool {
			return b.sourceKey(&s) == c.Key
		})
		if used {
			out = append(out, b.ccByKey[c.Key])
		}
	}
	slices.SortFunc(out, func(a, b cluster.ClusterCatalog) int {
		return cmp.Or(cmp.Compare(b.Priority, a.Priority), cmp.Compare(a.Name, b.Name))
	})
	return out
}

// sourceKey returns the catalog a subscription names; a subscription that
// names none gets the catalog its installed CSV's step or v0's plan uses,
// else the zero key.
func (b *builder) sourceKey(s *cluster.Subscription) resolver.CatalogKey {
	if named, ok := resolver.SubscriptionCatalog(s); ok {
		return named
	}
	for _, c := range b.catalogs {
		if c.Catalog.Package(s.Package) != nil {
			return c.Key
		}
	}
	return resolver.CatalogKey{}
}

// catalog returns the catalog of key, or nil.
func (b *builder) catalog(key resolver.CatalogKey) *graph.Catalog {
	for _, c := range b.catalogs {
		if c.Key == key {
			return c.Catalog
		}
	}
	return nil
}

// v0Plans keeps, from v0's resolution of every namespace, each
// subscription's step and each namespace's error.
func (b *builder) v0Plans(results []*resolver.Resolution) {
	b.steps = map[subKey]resolver.Step{}
	b.v0Errs = map[string]string{}
	for _, r := range results {
		if err := r.Err(); err != nil {
			b.v0Errs[r.Namespace()] = err.Error()
			continue
		}
		for _, st := range r.Plan().Steps {
			if st.Reason.Subscription != "" {
				b.steps[subKey{r.Namespace(), st.Reason.Subscription}] = st
			}
		}
	}
}

// index finds the packages installed in several namespaces and the CRDs
// owned by several operators.
func (b *builder) index() {
	b.byPackage = map[string][]*cluster.Subscription{}
	b.owners = map[groupKind][]*cluster.Subscription{}
	b.extNames = map[string]int{}
	for i := range b.state.Subscriptions {
		s := &b.state.Subscriptions[i]
		b.byPackage[s.Package] = append(b.byPackage[s.Package], s)
		b.extNames[s.Name]++
		c := b.state.CSV(s.Namespace, s.InstalledCSV)
		if c == nil {
			continue
		}
		var seen []groupKind
		for _, g := range c.Provides {
			if _, svc := slices.BinarySearchFunc(c.APIServices, g, graph.GVK.Compare); svc {
				continue
			}
			k := groupKind{g.Group, g.Kind}
			if !slices.Contains(seen, k) {
				seen = append(seen, k)
				b.owners[k] = append(b.owners[k], s)
			}
		}
	}
}

func (b *builder) note(s string) {
	if !slices.Contains(b.notes, s) {
		b.notes = append(b.notes, s)
	}
}

// entry answers for one subscription.
func (b *builder) entry(s *cluster.Subscription) Entry {
	key := b.sourceKey(s)
	e := Entry{Namespace: s.Namespace, Name: s.Name, Package: s.Package, Channel: s.Channel, Installed: s.InstalledCSV}
	if !key.IsZero() {
		e.Source = key.String()
	}
	cat := b.catalog(key)
	csv := b.state.CSV(s.Namespace, s.InstalledCSV)
	inst := bundleIn(cat, s.Package, s.InstalledCSV)
	switch {
	case csv != nil:
		e.InstalledVersion = csv.VersionText
	case inst != nil:
		e.InstalledVersion = inst.VersionText
	}
	e.V0Next = b.v0Next(s)
	ext := b.extension(s, key, inst, &e)
	e.ClusterExtension = ext
	b.blocks(&e, s, csv, inst)
	ext = e.ClusterExtension // blocks may configure its watchNamespace
	b.choose(&e, &ext, cat, inst)
	b.losses(&e, s, csv, inst)
	slices.SortStableFunc(e.Blocks, func(x, y Block) int { return cmp.Compare(blockOrder(x.Kind), blockOrder(y.Kind)) })
	e.Verdict = e.verdict()
	return e
}

// blockOrder is the position of a block kind among the constants.
func blockOrder(k BlockKind) int {
	return slices.Index([]BlockKind{BlockDependencies, BlockInstallModes, BlockAPIServices, BlockSeveralNamespaces,
		BlockSharedCRD, BlockDependencySubscription, BlockNoBundle, BlockV1Refuses}, k)
}

// v0Next returns v0's next step for s: its plan's step, or v0's error.
func (b *builder) v0Next(s *cluster.Subscription) Pick {
	if err, ok := b.v0Errs[s.Namespace]; ok {
		return Pick{Error: err}
	}
	st, ok := b.steps[subKey{s.Namespace, s.Name}]
	if !ok {
		return Pick{}
	}
	p := Pick{Bundle: st.Bundle, Version: st.Version, Catalog: st.Catalog.String(), Channel: st.Channel}
	for _, pr := range st.Predictions {
		if pr.Severity == predict.SeverityFailure {
			p.Failures = append(p.Failures, pr.String())
		}
	}
	return p
}

// extension returns the ClusterExtension s becomes: its package and
// channel, a version range from the installed version (the installed
// version itself for a Manual subscription), its catalog pinned by name and
// its namespace. It names no service account: operator-controller v1.11.0
// ignores spec.serviceAccount (see ServiceAccountNote).
func (b *builder) extension(s *cluster.Subscription, key resolver.CatalogKey, inst *graph.Bundle, e *Entry) cluster.ClusterExtension {
	name := s.Name
	if b.extNames[name] > 1 {
		name = s.Name + "-" + s.Namespace
	}
	ext := cluster.ClusterExtension{Name: name, Namespace: s.Namespace, SourceType: "Catalog", Package: s.Package}
	if s.Channel != "" {
		ext.Channels = []string{s.Channel}
	}
	if cc, ok := b.ccByKey[key]; ok {
		ext.Selector = &cluster.LabelSelector{MatchLabels: map[string]string{cluster.MetadataNameLabel: cc.Name}}
	}
	if v, ok := installedVersion(inst, e.InstalledVersion); ok {
		if s.Manual() {
			ext.Version = v.String()
			e.Changes = append(e.Changes, Change{Kind: ChangeVersionPin,
				Message: fmt.Sprintf("version pinned to the installed %s: raise spec.source.catalog.version by hand to upgrade, as approving an InstallPlan did", v)})
		} else {
			ext.Version = ">=" + v.String()
		}
	}
	return ext
}

// blocks adds the blocks of s, with csv and inst its installed CSV and
// catalog bundle (either may be nil).
func (b *builder) blocks(e *Entry, s *cluster.Subscription, csv *cluster.CSV, inst *graph.Bundle) {
	if inst != nil {
		b.dependencies(e, inst, "the installed bundle")
	}
	var rec graph.CSVRecord // what the catalog records of the installed bundle's CSV
	name := s.InstalledCSV
	if inst != nil {
		rec, _ = inst.CSVRecord() // a manifest that does not decode is olmv1's prediction to report
	} else if csv == nil {
		// Nothing installed: the install modes are those of v1's choice.
		if bd, _, err := b.v1.Choose(&e.ClusterExtension, nil); err == nil {
			rec, _ = bd.CSVRecord()
			name = bd.Name
		}
	}
	b.installModes(e, s, csv, rec, name)
	if name, apis := ownedAPIServices(s, csv, rec); len(apis) > 0 {
		e.Blocks = append(e.Blocks, Block{Kind: BlockAPIServices,
			Message:  fmt.Sprintf("%s owns API services (%s): v1 installs no aggregated API server", name, gvkWords(apis)),
			V1Reason: "unsupported bundle: apiServiceDefintions are not supported"})
	}
	if others := othersOf(b.byPackage[s.Package], s); len(others) > 0 {
		e.Blocks = append(e.Blocks, Block{Kind: BlockSeveralNamespaces,
			Message: fmt.Sprintf("package %s is installed in %s too: a ClusterExtension is cluster-wide, and v1 lets one ClusterExtension own the package's CRDs", s.Package, subWords(others))})
	}
	b.sharedCRDs(e, s, csv)
	if s.GeneratedBy != "" {
		e.Blocks = append(e.Blocks, Block{Kind: BlockDependencySubscription, Message: b.dependencySubscription(s)})
	}
}

// ownedAPIServices returns the API services the installed operator owns,
// with the name of what says so: the installed CSV's
// spec.apiservicedefinitions.owned, else rec, what the catalog records of
// its bundle's CSV.
func ownedAPIServices(s *cluster.Subscription, csv *cluster.CSV, rec graph.CSVRecord) (string, []graph.GVK) {
	if csv != nil && len(csv.APIServices) > 0 {
		return csv.Name, csv.APIServices
	}
	var apis []graph.GVK
	for _, d := range rec.OwnedAPIServices {
		apis = append(apis, d.GVK())
	}
	slices.SortFunc(apis, graph.GVK.Compare)
	return s.InstalledCSV, slices.Compact(apis)
}

// dependencies adds a block when bundle bd (what describes it) declares
// dependencies, with v1's own refusal.
func (b *builder) dependencies(e *Entry, bd *graph.Bundle, what string) {
	var deps []string
	for _, r := range bd.RequiresPackage {
		deps = append(deps, fmt.Sprintf("package %s %s", r.Package, r.Range))
	}
	for _, g := range bd.RequiresGVK {
		deps = append(deps, "API "+g.String())
	}
	if len(bd.Constraints) > 0 {
		deps = append(deps, fmt.Sprintf("%d olm.constraint", len(bd.Constraints)))
	}
	if len(deps) == 0 || slices.ContainsFunc(e.Blocks, func(x Block) bool { return x.Kind == BlockDependencies }) {
		return
	}
	e.Blocks = append(e.Blocks, Block{Kind: BlockDependencies,
		Message:  fmt.Sprintf("%s %s needs %s: v1 resolves no dependencies, so they must be installed first, as ClusterExtensions of their own", what, bd.Name, strings.Join(deps, ", ")),
		V1Reason: fmt.Sprintf("bundle %q has a dependency declared via property %q which is currently not supported", bd.Name, firstDependencyProperty(bd))})
}

// firstDependencyProperty returns the type of bd's first dependency
// property in property order, as v1 names the first one it meets.
func firstDependencyProperty(bd *graph.Bundle) string {
	for _, p := range bd.Properties {
		switch p.Type {
		case graph.TypePackageRequired, graph.TypeGVKRequired, graph.TypeConstraint:
			return p.Type
		}
	}
	return ""
}

// installModes adds a block when the operator lacks AllNamespaces and v1
// cannot install it for the namespace it watches, or a change when v1
// widens its scope; name names the operator (its installed CSV, else v1's
// choice). An operator that watches one namespace keeps it through
// spec.config.inline.watchNamespace — a field of operator-controller's
// experimental CRDs — when its bundle supports that namespace's install
// mode (OwnNamespace for its own, SingleNamespace for another):
// operator-controller honours a configuration whenever one is given, and
// a bundle without AllNamespaces installs so only with the
// SingleOwnNamespaceInstallSupport gate on.
func (b *builder) installModes(e *Entry, s *cluster.Subscription, csv *cluster.CSV, rec graph.CSVRecord, name string) {
	var modes graph.InstallModeSet
	switch {
	case rec.ModesKnown:
		modes = graph.ReadInstallModes(rec.InstallModes)
	case csv != nil && csv.InstallModes != nil:
		modes = graph.ReadInstallModes(csv.InstallModes)
	default:
		b.unknownModes = append(b.unknownModes, s.Namespace+"/"+s.Name)
		return
	}
	g, _, err := b.state.NamespaceOperatorGroup(s.Namespace)
	t := predict.AllNamespaces("")
	if err == nil && g != nil {
		t = predict.TargetsOf(g)
	}
	configurable := b.featureSet == cluster.FeatureSetExperimental
	if modes.Supports(graph.InstallModeAllNamespaces) {
		ns, kept := keptScope(t, s.Namespace, modes)
		if kept && configurable {
			watchNamespace(&e.ClusterExtension, ns)
			return
		}
		if t.Known && !t.All() {
			msg := fmt.Sprintf("v1 installs it for all namespaces; under OperatorGroup %s/%s it watches %s", g.Namespace, g.Name, t.Words(s.Namespace))
			if kept {
				msg += fmt.Sprintf(" (spec.config.inline.watchNamespace: %s would keep that scope, a field only operator-controller's experimental CRDs have)", ns)
			}
			e.Changes = append(e.Changes, Change{Kind: ChangeScope, Message: msg})
		}
		return
	}
	blk := Block{Kind: BlockInstallModes, V1Reason: "unsupported bundle: bundle does not support AllNamespaces install mode"}
	supported := modes.SupportedWords()
	switch {
	case !t.Known:
		blk.Message = fmt.Sprintf("%s supports %s, not AllNamespaces, and the namespaces its OperatorGroup targets are not known: %s", name, supported, t.Why)
	case len(t.Namespaces) == 1 && t.Namespaces[0] == s.Namespace && modes.Supports(graph.InstallModeOwnNamespace),
		len(t.Namespaces) == 1 && !t.All() && modes.Supports(graph.InstallModeSingleNamespace):
		ns := t.Namespaces[0]
		gate := b.v1.Options().SingleOwnNamespace
		if gate && configurable {
			watchNamespace(&e.ClusterExtension, ns)
			return
		}
		blk.WatchNamespace = ns
		blk.Message = fmt.Sprintf("%s supports %s, not AllNamespaces: v1 installs it only with its SingleOwnNamespaceInstallSupport feature gate on (%s here) and spec.config.inline.watchNamespace: %s, a field of operator-controller's experimental CRDs (%s here)",
			name, supported, onOff(gate, "on", "off"), ns, onOff(configurable, "in use", "not in use"))
	case len(t.Namespaces) > 1:
		blk.Message = fmt.Sprintf("%s watches %s (MultiNamespace) and supports %s, not AllNamespaces: v1 never installs for several namespaces", name, t.Words(s.Namespace), supported)
	default:
		blk.Message = fmt.Sprintf("%s supports %s, not AllNamespaces, which v1 needs", name, supported)
	}
	e.Blocks = append(e.Blocks, blk)
}

func onOff(on bool, yes, no string) string {
	if on {
		return yes
	}
	return no
}

// keptScope returns the one namespace an operator watches under v0 when
// v1 can keep that scope for a bundle with modes: the operator's own
// namespace with OwnNamespace, another with SingleNamespace.
func keptScope(t predict.Targets, installNS string, modes graph.InstallModeSet) (string, bool) {
	if !t.Known || t.All() || len(t.Namespaces) != 1 {
		return "", false
	}
	ns := t.Namespaces[0]
	if ns == installNS {
		return ns, modes.Supports(graph.InstallModeOwnNamespace)
	}
	return ns, modes.Supports(graph.InstallModeSingleNamespace)
}

// watchNamespace sets ext's spec.config.inline to {"watchNamespace": ns}.
func watchNamespace(ext *cluster.ClusterExtension, ns string) {
	cfg, _ := json.Marshal(map[string]string{"watchNamespace": ns}) // a map of strings always marshals
	ext.Config, ext.WatchNamespace = cfg, ns
}

// sharedCRDs adds a block when another operator's installed CSV, of
// another package, provides a CRD (group and kind) this one provides.
func (b *builder) sharedCRDs(e *Entry, s *cluster.Subscription, csv *cluster.CSV) {
	if csv == nil {
		return
	}
	var crds []string
	var with []*cluster.Subscription
	for _, g := range csv.Provides {
		for _, o := range b.owners[groupKind{g.Group, g.Kind}] {
			if o.Package == s.Package {
				continue
			}
			if c := g.Kind + "." + g.Group; !slices.Contains(crds, c) {
				crds = append(crds, c)
			}
			if !slices.Contains(with, o) {
				with = append(with, o)
			}
		}
	}
	if len(crds) == 0 {
		return
	}
	e.Blocks = append(e.Blocks, Block{Kind: BlockSharedCRD,
		Message: fmt.Sprintf("%s of %s is owned by %s too: v1 lets one ClusterExtension own each CRD", words.Join(crds, "and"), s.InstalledCSV, subWords(with))})
}

// dependencySubscription says which operator pulled in the dependency
// subscription s: the subscriptions of its namespace that the same
// InstallPlan installed and that no InstallPlan generated.
func (b *builder) dependencySubscription(s *cluster.Subscription) string {
	ip := b.state.InstallPlan(s.Namespace, s.GeneratedBy)
	var by []*cluster.Subscription
	if ip != nil {
		for i := range b.state.Subscriptions {
			o := &b.state.Subscriptions[i]
			if o.Namespace == s.Namespace && o != s && o.GeneratedBy == "" &&
				(slices.Contains(ip.CSVNames, o.InstalledCSV) || slices.Contains(ip.CSVNames, o.CurrentCSV)) {
				by = append(by, o)
			}
		}
	}
	if len(by) == 0 {
		return fmt.Sprintf("OLM created it for a dependency (olm.generated-by: %s), and no operator of the input pulled it in: move it with the operator that needs it", s.GeneratedBy)
	}
	return fmt.Sprintf("OLM created it for a dependency of %s (olm.generated-by: %s): it moves with %s, which v1 cannot take over while it has dependencies", subWords(by), s.GeneratedBy, pronoun(by))
}

func pronoun(subs []*cluster.Subscription) string {
	if len(subs) == 1 {
		return "it"
	}
	return "them"
}

// othersOf returns the subscriptions of subs but s, in other namespaces.
func othersOf(subs []*cluster.Subscription, s *cluster.Subscription) []*cluster.Subscription {
	var out []*cluster.Subscription
	for _, o := range subs {
		if o.Namespace != s.Namespace {
			out = append(out, o)
		}
	}
	return out
}

// subWords names subscriptions: "subscription ns/name and ...".
func subWords(subs []*cluster.Subscription) string {
	names := make([]string, len(subs))
	for i, s := range subs {
		names[i] = s.Namespace + "/" + s.Name
	}
	slices.Sort(names)
	if len(names) == 1 {
		return "subscription " + names[0]
	}
	return "subscriptions " + words.Join(names, "and")
}

// gvkWords names APIs: "custom.metrics.k8s.io/v1beta1 MetricValueList".
func gvkWords(gvks []graph.GVK) string {
	s := make([]string, len(gvks))
	for i, g := range gvks {
		s[i] = g.String()
	}
	return words.Join(s, "and")
}
