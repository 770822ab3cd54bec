package resolver

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

// KindSource says what serves one API of an application (DESIGN §10).
type KindSource string

// What can serve an application's API.
const (
	// SourceBuiltIn: Kubernetes itself (the core group, apps, batch,
	// networking.k8s.io, …); nothing needs installing.
	SourceBuiltIn KindSource = "built-in"
	// SourceOLM: OLM's own APIs (operators.coreos.com); nothing needs
	// installing.
	SourceOLM KindSource = "olm"
	// SourceInstalled: an installed CSV of the namespace provides it.
	SourceInstalled KindSource = "installed"
	// SourceSubscribed: a package that a subscription of the namespace
	// already asks for provides it.
	SourceSubscribed KindSource = "subscribed"
	// SourceCatalog: a catalog package provides it, through a subscription
	// to create.
	SourceCatalog KindSource = "catalog"
	// SourceNone: nothing the namespace can see provides it.
	SourceNone KindSource = "none"
)

// Provider is one channel of a catalog package whose head provides an API.
type Provider struct {
	Catalog CatalogKey `json:"catalog"`
	Package string     `json:"package"`
	Channel string     `json:"channel"`
	// DefaultChannel reports that Channel is the package's default channel.
	DefaultChannel bool `json:"defaultChannel,omitempty"`
	// Bundle and Version are the channel's head.
	Bundle  string `json:"bundle"`
	Version string `json:"version"`
}

// String returns "package (channel C, catalog NS/NAME)".
func (p Provider) String() string {
	return fmt.Sprintf("%s (channel %s, catalog %s)", p.Package, p.Channel, p.Catalog)
}

// AppKind is one API an application uses and what serves it.
type AppKind struct {
	API graph.GVK `json:"api"`
	// Objects names the application's objects of this API
	// ("namespace/name", or the name alone), in input order.
	Objects []string   `json:"objects,omitempty"`
	Source  KindSource `json:"source"`
	// CSV is the installed CSV that serves it (SourceInstalled).
	CSV string `json:"csv,omitempty"`
	// Subscription names the subscription that serves it: an existing one
	// (SourceSubscribed) or the one to create (SourceCatalog).
	Subscription string `json:"subscription,omitempty"`
	// Provider is the chosen provider (SourceSubscribed, SourceCatalog),
	// Why the preference rule that chose it over the first alternative,
	// and Alternatives the other providers, most preferred first.
	Provider     *Provider  `json:"provider,omitempty"`
	Why          string     `json:"why,omitempty"`
	Alternatives []Provider `json:"alternatives,omitempty"`
	// NearMisses says, for SourceNone, what comes close: the same kind in
	// another group or version, other kinds of the same group, providers
	// the namespace cannot see, older or deprecated bundles only.
	NearMisses []string `json:"nearMisses,omitempty"`
	// Warnings says what may still go wrong: the bundle the plan installs
	// for the chosen package does not provide the API.
	Warnings []string `json:"warnings,omitempty"`
}

// Application is what an application needs in one namespace: for each API
// its objects use, what serves it; the subscriptions to create; and the plan
// that resolving them with the namespace's state gives.
type Application struct {
	Namespace string `json:"namespace"`
	// Kinds is sorted by API (group, version, kind).
	Kinds []AppKind `json:"kinds"`
	// Subscriptions are the subscriptions to create, sorted by name: the
	// package, the channel of the chosen provider (the default channel
	// when its head provides the API) and the catalog, as a person would
	// create them.
	Subscriptions []cluster.Subscription `json:"subscriptions"`
	// State is the state resolved: the given one with Subscriptions added.
	State *cluster.State `json:"-"`
	// Resolution is the resolution of State, which answers the follow-ups
	// (Explain a conflict, HeldBack, Fixes, …); nil when an API has no
	// provider.
	Resolution *Resolution `json:"-"`
	// Plan is the plan of State; nil when an API has no provider or the
	// resolution failed.
	Plan *Plan `json:"plan,omitempty"`
}

// UnservedError reports the APIs of an application that nothing the
// namespace can see provides.
type UnservedError struct {
	Namespace string
	Kinds     []AppKind // the unserved ones, SourceNone
}

// Error returns "namespace demo: nothing provides API x/v1 A, y/v1 B".
func (e *UnservedError) Error() string {
	names := make([]string, len(e.Kinds))
	for i, k := range e.Kinds {
		names[i] = k.API.String()
	}
	return fmt.Sprintf("namespace %s: nothing provides %s", e.Namespace, strings.Join(names, ", "))
}

// builtInGroups are the API groups a Kubernetes API server serves itself.
var builtInGroups = map[string]bool{
	"": true, "apps": true, "batch": true, "autoscaling": true, "policy": true, "extensions": true,
	"admissionregistration.k8s.io": true, "apiextensions.k8s.io": true, "apiregistration.k8s.io": true,
	"authentication.k8s.io": true, "authorization.k8s.io": true, "certificates.k8s.io": true,
	"coordination.k8s.io": true, "discovery.k8s.io": true, "events.k8s.io": true,
	"flowcontrol.apiserver.k8s.io": true, "internal.apiserver.k8s.io": true, "networking.k8s.io": true,
	"node.k8s.io": true, "rbac.authorization.k8s.io": true, "resource.k8s.io": true,
	"scheduling.k8s.io": true, "storage.k8s.io": true, "storagemigration.k8s.io": true,
}

// olmGroups are the API groups OLM serves itself.
var olmGroups = map[string]bool{cluster.APIGroupV0: true, "packages." + cluster.APIGroupV0: true}

// BuiltInSource reports whether Kubernetes (SourceBuiltIn) or OLM
// (SourceOLM) serves the API g itself, by its group; otherwise "".
// gateway.networking.k8s.io and other CRD-based groups are not built in.
func BuiltInSource(g graph.GVK) KindSource {
	switch {
	case builtInGroups[g.Group]:
		return SourceBuiltIn
	case olmGroups[g.Group]:
		return SourceOLM
	}
	return ""
}

// ResolveFor resolves what an application needs in namespace: for every API
// its objects use (see [cluster.DecodeObjects]) that Kubernetes or OLM does
// not serve itself, an installed CSV of the namespace that provides it, else
// a package an existing subscription asks for, else the catalog package
// whose channel head provides it, chosen in the order OLM prefers a
// dependency's providers (catalog priority, the namespace's catalogs before
// the global ones, catalog name; the default channel; package name; channel
// name) among the heads that are not deprecated. It creates one subscription
// per chosen package (named after it, unless that name is taken), resolves
// them with state and returns the application with its plan.
//
// When an API has no provider it returns the application (without a plan)
// and an *UnservedError; when the resolution fails, the application and the
// error of Resolve (a *ConflictError can be explained against
// Application.State). state is not modified.
func (r *Resolver) ResolveFor(ctx context.Context, namespace string, state *cluster.State, objects []cluster.Object) (*Application, error) {
	byAPI := map[graph.GVK][]string{}
	var apis []graph.GVK
	for _, o := range objects {
		g := o.GVK()
		if _, ok := byAPI[g]; !ok {
			apis = append(apis, g)
		}
		name := o.Name
		if o.Namespace != "" {
			name = o.Namespace + "/" + name
		}
		byAPI[g] = append(byAPI[g], name)
	}
	app, err := r.resolveAPIs(ctx, namespace, state, apis)
	if err != nil && app == nil {
		return nil, err
	}
	for i := range app.Kinds {
		app.Kinds[i].Objects = byAPI[app.Kinds[i].API]
	}
	return app, err
}

// ResolveForAPIs is ResolveFor for a set of APIs rather than objects.
func (r *Resolver) ResolveForAPIs(ctx context.Context, namespace string, state *cluster.State, apis []graph.GVK) (*Application, error) {
	return r.resolveAPIs(ctx, namespace, state, apis)
}

func (r *Resolver) resolveAPIs(ctx context.Context, namespace string, state *cluster.State, apis []graph.GVK) (*Application, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if state == nil {
		state = &cluster.State{}
	}
	apis = slices.Clone(apis)
	slices.SortFunc(apis, graph.GVK.Compare)
	apis = slices.Compact(apis)

	res := &resolution{r: r, ctx: ctx, ns: namespace, cache: make(map[reqKey][]variable), state: state}
	// The OperatorGroup decides which catalogs the namespace sees; a
	// namespace without a usable one is Resolve's to report, below.
	_ = res.operatorGroup(state)
	res.catalogOrder(state)
	if err := res.readState(state); err != nil {
		return nil, err
	}
	app := &Application{Namespace: namespace, Kinds: make([]AppKind, 0, len(apis)), Subscriptions: []cluster.Subscription{}}
	subByPkg := map[string]string{} // package → the subscription serving it
	taken := map[string]bool{}
	for _, s := range res.subs {
		taken[s.sub.Name] = true
	}
	var unserved []AppKind
	for _, g := range apis {
		k := AppKind{API: g}
		if src := BuiltInSource(g); src != "" {
			k.Source = src
			app.Kinds = append(app.Kinds, k)
			continue
		}
		if err := res.serve(&k, subByPkg, taken, app); err != nil {
			return nil, err
		}
		if k.Source == SourceNone {
			unserved = append(unserved, k)
		}
		app.Kinds = append(app.Kinds, k)
	}
	slices.SortFunc(app.Subscriptions, func(a, b cluster.Subscription) int { return cmp.Compare(a.Name, b.Name) })
	app.State = state.Clone()
	app.State.Subscriptions = append(app.State.Subscriptions, app.Subscriptions...)
	app.State.Sort()
	if len(unserved) > 0 {
		return app, &UnservedError{Namespace: namespace, Kinds: unserved}
	}
	s, err := r.solve(ctx, namespace, app.State.Clone(), nil)
	if err != nil {
		app.Resolution = s // its Err, to explain; nil when ctx ended
		return app, err
	}
	app.Resolution = s
	app.Plan = s.Plan()
	r.checkServed(app)
	return app, nil
}

// serve fills k with what serves its API.
func (res *resolution) serve(k *AppKind, subByPkg map[string]string, taken map[string]bool, app *Application) error {
	q := &requirement{Kind: graph.RequireGVK, Property: graph.RequiredGVKProperty(k.API), GVK: k.API}
	cands, err := res.candidates(q, nil, variable{})
	if err != nil {
		return err
	}
	provs := res.servers(k, cands)
	switch {
	case k.Source == SourceInstalled:
		return nil
	case len(provs) == 0:
		k.Source = SourceNone
		k.NearMisses = res.nearMissesFor(k.API, cands)
		return nil
	}
	p := res.chooseServer(k, provs)
	if k.Source == SourceSubscribed {
		return nil
	}
	k.Source = SourceCatalog
	if name, ok := subByPkg[p.Package]; ok {
		k.Subscription = name
		return nil
	}
	k.Subscription = app.subscribe(res.ns, p, subByPkg, taken)
	return nil
}

// servers returns the candidates of k's API that may serve it, a head of
// its channel not deprecated, one per package and catalog (of its most
// preferred channel); or, when an installed CSV provides it, records that
// in k (Source installed) and returns nil.
func (res *resolution) servers(k *AppKind, cands []variable) []variable {
	var heads []variable
	for _, v := range cands {
		switch v.kind {
		case varInstalled:
			if k.Source == "" {
				k.Source, k.CSV = SourceInstalled, res.installed[v.idx].csv.Name
			}
		case varBundle:
			if v.idx == 0 && !v.b.Deprecated && len(deprecationWarnings(v)) == 0 {
				heads = append(heads, v)
			}
		}
	}
	if k.Source == SourceInstalled {
		return nil
	}
	type pc struct {
		pkg string
		cat CatalogKey
	}
	seen := map[pc]bool{}
	var provs []variable
	for _, v := range heads {
		key := pc{v.b.Package, v.ch.pkg.cat.key}
		if !seen[key] {
			seen[key] = true
			provs = append(provs, v)
		}
	}
	return provs
}

// chooseServer records in k which of provs serves its API, the others as
// alternatives, and why: a package a subscription of the namespace
// already asks for first (Source subscribed), else the most preferred.
func (res *resolution) chooseServer(k *AppKind, provs []variable) Provider {
	chosen := 0
	for i, v := range provs {
		if s := res.subscriptionFor(v); s != "" {
			chosen = i
			k.Source, k.Subscription = SourceSubscribed, s
			break
		}
	}
	v := provs[chosen]
	p := provider(v)
	k.Provider = &p
	for i, w := range provs {
		if i != chosen {
			k.Alternatives = append(k.Alternatives, provider(w))
		}
	}
	if len(k.Alternatives) > 0 {
		if k.Source == SourceSubscribed {
			k.Why = fmt.Sprintf("subscription %s already asks for package %s", k.Subscription, p.Package)
		} else {
			k.Why = res.preference(v, provs[1])
		}
	}
	return p
}

// subscribe adds to app a subscription of namespace ns to p, named after
// its package (with a number when the name is taken), and returns its
// name.
func (app *Application) subscribe(ns string, p Provider, subByPkg map[string]string, taken map[string]bool) string {
	name := p.Package
	for n := 2; taken[name]; n++ {
		name = fmt.Sprintf("%s-%d", p.Package, n)
	}
	taken[name] = true
	subByPkg[p.Package] = name
	app.Subscriptions = append(app.Subscriptions, cluster.Subscription{
		Name: name, Namespace: ns, Package: p.Package, Channel: p.Channel,
		Source: p.Catalog.Name, SourceNamespace: p.Catalog.Namespace,
	})
	return name
}

func provider(v variable) Provider {
	return Provider{
		Catalog: v.ch.pkg.cat.key, Package: v.b.Package, Channel: v.ch.ch.Name,
		DefaultChannel: v.ch.isDefault, Bundle: v.b.Name, Version: v.b.VersionText,
	}
}

// subscriptionFor returns the name of the first subscription of the
// namespace that asks for v's package (and its catalog, if it names one).
func (res *resolution) subscriptionFor(v variable) string {
	for _, s := range res.subs {
		sub := s.sub
		if sub.Package != v.b.Package {
			continue
		}
		if !takesFrom(sub, v.ch.pkg.cat.key) {
			continue
		}
		return sub.Name
	}
	return ""
}

// preference says which of OLM's preference rules puts a before b.
func (res *resolution) preference(a, b variable) string {
	ca, cb := a.ch.pkg.cat, b.ch.pkg.cat
	alt := provider(b).String()
	if ca != cb {
		pa, pb := res.priority(ca), res.priority(cb)
		switch {
		case pa != pb:
			return fmt.Sprintf("preferred to %s: catalog %s has priority %d, higher than %d of catalog %s", alt, ca.key, pa, pb, cb.key)
		case ca.key.Namespace == res.ns && cb.key.Namespace != res.ns:
			return fmt.Sprintf("preferred to %s: catalog %s is in the namespace itself, catalog %s in the global namespace", alt, ca.key, cb.key)
		}
		return fmt.Sprintf("preferred to %s: catalogs of equal priority are taken in name order (%s before %s)", alt, ca.key, cb.key)
	}
	if a.ch.isDefault && !b.ch.isDefault {
		return fmt.Sprintf("preferred to %s: channel %s is the default channel of package %s", alt, a.ch.ch.Name, a.b.Package)
	}
	if a.b.Package != b.b.Package {
		return fmt.Sprintf("preferred to %s: within a catalog, providers are taken in package name order (%s before %s), as OLM orders a dependency's candidates", alt, a.b.Package, b.b.Package)
	}
	return fmt.Sprintf("preferred to %s: channel name order", alt)
}

// priority is a visible catalog's priority, as the state's CatalogSources
// set it.
func (res *resolution) priority(ci *catalogIndex) int {
	return res.prio[ci.ord]
}

// nearMissesFor says what comes close to providing g when nothing visible
// does. cands are g's candidates among the visible catalogs.
func (res *resolution) nearMissesFor(g graph.GVK, cands []variable) []string {
	var out []string
	// Visible bundles that provide it, but no non-deprecated head does.
	type pc struct {
		pkg string
		cat CatalogKey
	}
	var order []pc
	olderOf := map[pc][]string{}
	deprecatedOf := map[pc]bool{}
	for _, v := range cands {
		if v.kind != varBundle {
			continue
		}
		key := pc{v.b.Package, v.ch.pkg.cat.key}
		if _, ok := olderOf[key]; !ok {
			order = append(order, key)
			olderOf[key] = nil
		}
		if v.idx == 0 {
			deprecatedOf[key] = true
			continue
		}
		if !slices.Contains(olderOf[key], v.b.VersionText) {
			olderOf[key] = append(olderOf[key], v.b.VersionText)
		}
	}
	for _, key := range order {
		if deprecatedOf[key] {
			out = append(out, fmt.Sprintf("package %s (catalog %s) provides it only in deprecated bundles or channels", key.pkg, key.cat))
		} else if vs := olderOf[key]; len(vs) > 0 {
			out = append(out, fmt.Sprintf("older bundles of package %s (catalog %s) provide it (%s), but no channel head does", key.pkg, key.cat, strings.Join(limit(vs, 5), ", ")))
		}
	}
	// Catalogs the namespace cannot see.
	for _, ci := range res.r.catalogs {
		if res.rank[ci.ord] >= 0 {
			continue
		}
		bs := ci.cat.Providers(g)
		switch {
		case len(bs) == 0:
		case res.excludedBy != nil && ci.key.Namespace == res.r.global:
			out = append(out, fmt.Sprintf("catalog %s provides it (package %s), but the %s", ci.key, bs[0].Package, res.exclusionText()))
		default:
			out = append(out, fmt.Sprintf("catalog %s provides it (package %s), but namespace %s cannot see that catalog: only its own namespace's catalogs and those of the global namespace %s serve it", ci.key, bs[0].Package, res.ns, res.r.global))
		}
	}
	// The same kind in another group or version; other kinds of the group.
	var sameKind, sameGroup []string
	for _, h := range res.r.gvks {
		if h == g {
			continue
		}
		switch {
		case strings.EqualFold(h.Kind, g.Kind):
			sameKind = append(sameKind, h.String()+" ("+res.providerPackages(h)+")")
		case h.Group == g.Group && g.Group != "":
			sameGroup = append(sameGroup, h.Kind)
		}
	}
	slices.Sort(sameKind)
	if len(sameKind) > 0 {
		out = append(out, "the same kind is provided as "+strings.Join(limit(slices.Compact(sameKind), 5), ", "))
	}
	slices.Sort(sameGroup)
	if sameGroup = slices.Compact(sameGroup); len(sameGroup) > 0 {
		out = append(out, fmt.Sprintf("group %s is provided with other kinds: %s", g.Group, strings.Join(limit(sameGroup, 8), ", ")))
	}
	if len(out) == 0 {
		out = append(out, "no catalog given provides an API of this kind or group")
	}
	return out
}

// providerPackages names the packages of the visible catalogs that provide
// g, or says that only invisible catalogs do.
func (res *resolution) providerPackages(g graph.GVK) string {
	var pkgs []string
	hidden := false
	for _, ci := range res.r.catalogs {
		for _, b := range ci.cat.Providers(g) {
			if res.rank[ci.ord] < 0 {
				hidden = true
				continue
			}
			pkgs = append(pkgs, b.Package)
		}
	}
	slices.Sort(pkgs)
	pkgs = slices.Compact(pkgs)
	if len(pkgs) == 0 && hidden {
		return "only in catalogs the namespace cannot see"
	}
	return "package " + strings.Join(limit(pkgs, 3), ", ")
}

// limit returns at most n items of s, with "…" for the rest.
func limit(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return append(slices.Clone(s[:n]), fmt.Sprintf("… (%d more)", len(s)-n))
}

// checkServed warns about the kinds whose chosen package the plan does not
// install at a bundle that provides them.
func (r *Resolver) checkServed(app *Application) {
	for i := range app.Kinds {
		k := &app.Kinds[i]
		if k.Provider == nil {
			continue
		}
		for _, st := range app.Plan.Steps {
			if st.Package != k.Provider.Package || st.Catalog != k.Provider.Catalog {
				continue
			}
			if b, err := r.stepBundle(&st); err == nil && !slices.Contains(b.Provides, k.API) {
				k.Warnings = append(k.Warnings, fmt.Sprintf("the plan installs %s, which does not provide %s", st.Bundle, k.API.String()))
			}
		}
	}
}

// String renders the application: WriteText, then its plan (Plan.String).
// (`sextant resolve --for` prints the root package's ForAnswer, whose plan
// has its held-back reasons and fixes too.)
func (a *Application) String() string {
	var b strings.Builder
	a.writeText(&b)
	if a.Plan != nil {
		b.WriteString(a.Plan.String())
	}
	return b.String()
}

// String renders one API: "group/version Kind: what serves it", then
// indented lines for the reason, alternatives, near misses and warnings.
func (k AppKind) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s", k.API.String())
	if n := len(k.Objects); n > 0 {
		fmt.Fprintf(&b, " (%d object(s))", n)
	}
	b.WriteString(": ")
	switch k.Source {
	case SourceBuiltIn:
		b.WriteString("built into Kubernetes, needs nothing")
	case SourceOLM:
		b.WriteString("served by OLM itself, needs nothing")
	case SourceInstalled:
		fmt.Fprintf(&b, "already served by installed CSV %s", k.CSV)
	case SourceSubscribed:
		fmt.Fprintf(&b, "served by package %s through existing subscription %s", k.Provider, k.Subscription)
	case SourceCatalog:
		fmt.Fprintf(&b, "package %s; subscription %s to create", k.Provider, k.Subscription)
	case SourceNone:
		b.WriteString("nothing provides it")
	}
	b.WriteString("\n")
	if k.Why != "" {
		fmt.Fprintf(&b, "   %s\n", k.Why)
	}
	if len(k.Alternatives) > 0 {
		alts := make([]string, len(k.Alternatives))
		for i, p := range k.Alternatives {
			alts[i] = p.String()
		}
		fmt.Fprintf(&b, "   also provided by: %s\n", strings.Join(limit(alts, 5), "; "))
	}
	for _, m := range k.NearMisses {
		fmt.Fprintf(&b, "   near miss: %s\n", m)
	}
	for _, w := range k.Warnings {
		fmt.Fprintf(&b, "   warning: %s\n", w)
	}
	return b.String()
}
