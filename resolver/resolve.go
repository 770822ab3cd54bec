package resolver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/constraints"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver/predict"
)

// subNode is a subscription of the namespace being resolved.
type subNode struct {
	idx     int32
	sub     *cluster.Subscription
	current *instNode
	cands   []variable // catalog candidates, most preferred first
	missing FactKind   // the no-candidate level, or ""
	catalog CatalogKey // the catalog the subscription names, if any
}

// instNode is an installed CSV of the namespace, with the properties
// resolution reads (the annotation's, or those derived as OLM does).
type instNode struct {
	idx        int32
	csv        *cluster.CSV
	pkg        string
	versions   []semver.Version // spec.version, and the olm.package version
	provides   []graph.GVK
	typed      *graph.Bundle // the annotation's typed properties, if any
	labels     []string
	reqs       []requirement
	deprecated bool
	subscribed bool
	owner      string // the first subscription (by name) owning it
	// celProps are the properties cel rules see, built on first use.
	celProps []graph.Property
	celDone  bool
}

// resolution is the state of one Resolve call.
type resolution struct {
	r         *Resolver
	ctx       context.Context
	ns        string
	visible   []*catalogIndex // in base preference order
	rank      []int           // per catalog ord: base rank, -1 when invisible
	prio      []int           // per catalog ord: priority, as the state's CatalogSources set it
	subs      []*subNode
	subsByPkg map[string][]*subNode // subs by package, built on first use
	installed []*instNode           // sorted by name
	instOrder []*instNode           // by package, then name: candidate order
	byName    map[string]*instNode
	// p's variables are the subscriptions' (the first len(subs)), then the
	// installed and bundle variables in creation order: see variables.
	p constraints.Problem[variable, reason]
	// flight is what is in flight in the namespace (readState).
	flight *flight
	deps   []dependency
	cache  map[reqKey][]variable
	// cel holds the compiled cel rules reached so far, by rule text.
	cel map[string]CELRule
	// excludedBy is the namespace's OperatorGroup when it excludes the
	// global namespace's catalogs, which are then in excluded (sorted by
	// key) rather than visible.
	excludedBy *cluster.OperatorGroup
	excluded   []*catalogIndex
	// forced are variables made mandatory after the subscriptions (see
	// prepare); their constraints carry the reason kind factForced.
	forced []variable
	// state is the cluster state resolved; planned the APIs that plans of
	// namespaces resolved before install, per OperatorGroup (ResolveAll).
	state   *cluster.State
	planned predict.Planned
	// invalidLeftOut are the invalid packages reached and left out
	// (Options.AllowInvalid).
	invalidLeftOut map[*pkgIndex]bool
	// pred is the predictor of the plan (see plan); installs the APIs
	// its steps that are not predicted to fail install, in no order.
	pred     *predict.Predictor
	installs []graph.GVK
	// chosen is chosenBy's map for the solution chosenFor.
	chosen    map[variable]*subNode
	chosenFor *constraints.Solution[variable]
}

// resolve resolves namespace from state with the APIs planned in
// namespaces resolved before (ResolveAll); it returns the plan, the
// resolution and its solution.
func (r *Resolver) resolve(ctx context.Context, namespace string, state *cluster.State, planned predict.Planned) (*Plan, *resolution, *constraints.Solution[variable], error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	res, err := r.prepare(ctx, namespace, state, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	res.planned = planned
	r.trace(Event{Kind: EventProblem, Namespace: namespace, Count: res.p.NumVars(), Constraints: res.p.Len()})
	sol, err := constraints.Solve(ctx, &res.p)
	if err != nil {
		var unsat *constraints.UnsatError[variable, reason]
		if errors.As(err, &unsat) {
			ce := res.conflict(unsat.Core)
			ce.Excluded = res.excludedList()
			if res.flight != nil {
				ce.InFlight = slices.Clone(res.flight.notes)
			}
			if r.opts.Tracer != nil {
				r.trace(Event{Kind: EventSolved, Namespace: namespace, Message: ce.Error()})
			}
			return nil, nil, nil, ce
		}
		if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
			return nil, nil, nil, fmt.Errorf("resolve namespace %q: %w", namespace, errors.Join(ctxErr, err))
		}
		return nil, nil, nil, fmt.Errorf("resolve namespace %q: %w", namespace, err)
	}
	// The plan needs the variables and the solution, not the constraints:
	// on a large namespace they are a tenth of what the plan's building
	// keeps alive.
	res.p.DropConstraints()
	plan := res.plan(sol)
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err // plan stops early when cancelled
	}
	plan.Excluded = res.excludedList()
	r.trace(Event{Kind: EventSolved, Namespace: namespace, Count: len(plan.Steps)})
	return plan, res, sol, nil
}

// prepare reads state and builds the solver input of namespace, with the
// variables of forced made mandatory (none for Resolve; held-back reasons
// force the candidate a choice passed over).
func (r *Resolver) prepare(ctx context.Context, namespace string, state *cluster.State, forced []variable) (*resolution, error) {
	if state == nil {
		state = &cluster.State{}
	}
	res := &resolution{
		r: r, ctx: ctx, ns: namespace,
		cache:  make(map[reqKey][]variable),
		forced: forced,
		state:  state,
	}
	if err := res.operatorGroup(state); err != nil {
		return nil, err
	}
	res.catalogOrder(state)
	if err := res.readState(state); err != nil {
		return nil, err
	}
	if err := res.build(); err != nil {
		return nil, err
	}
	r.size.Store(packSize(res.p.NumVars(), res.p.Len()))
	return res, nil
}

// packSize packs a problem's numbers of variables and constraints into
// one word for Resolver.size (each capped at 2³¹−1).
func packSize(vars, cons int) uint64 {
	return uint64(min(vars, 1<<31-1))<<32 | uint64(min(cons, 1<<31-1))
}

// catalogOrder computes the visible catalogs and their base preference:
// higher priority, then the resolution namespace before the global one, then
// name.
func (res *resolution) catalogOrder(state *cluster.State) {
	r := res.r
	res.rank = make([]int, len(r.catalogs))
	prio := make([]int, len(r.catalogs))
	for i, ci := range r.catalogs {
		res.rank[i] = -1
		prio[i] = ci.priority
		switch {
		case ci.key.Namespace == res.ns:
			res.visible = append(res.visible, ci)
		case ci.key.Namespace == r.global && res.excludedBy != nil:
			res.excluded = append(res.excluded, ci)
		case ci.key.Namespace == r.global:
			res.visible = append(res.visible, ci)
		}
	}
	for _, cs := range state.CatalogSources {
		if ci := r.byKey[CatalogKey{Namespace: cs.Namespace, Name: cs.Name}]; ci != nil {
			prio[ci.ord] = cs.Priority
		}
	}
	res.prio = prio
	slices.SortStableFunc(res.visible, func(a, b *catalogIndex) int {
		if c := cmp.Compare(prio[b.ord], prio[a.ord]); c != 0 {
			return c
		}
		if ain, bin := a.key.Namespace == res.ns, b.key.Namespace == res.ns; ain != bin {
			if ain {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(a.key.Name, b.key.Name), cmp.Compare(a.key.Namespace, b.key.Namespace))
	})
	for i, ci := range res.visible {
		res.rank[ci.ord] = i
	}
}

// readState reads the namespace's subscriptions and installed CSVs.
func (res *resolution) readState(state *cluster.State) error {
	if err := unnamed(res.ns, state); err != nil {
		return err
	}
	var subs []*cluster.Subscription
	for i := range state.Subscriptions {
		if s := &state.Subscriptions[i]; s.Namespace == res.ns {
			subs = append(subs, s)
		}
	}
	slices.SortStableFunc(subs, func(a, b *cluster.Subscription) int { return cmp.Compare(a.Name, b.Name) })
	var errs []error
	for i, s := range subs {
		if i > 0 && subs[i-1].Name == s.Name {
			errs = append(errs, fmt.Errorf("subscription %q in namespace %q appears twice", s.Name, res.ns))
		}
		if (s.Source == "") != (s.SourceNamespace == "") {
			errs = append(errs, fmt.Errorf("subscription %q in namespace %q: spec.source %q and spec.sourceNamespace %q must be both set or both empty", s.Name, res.ns, s.Source, s.SourceNamespace))
		}
		if s.Package == "" {
			errs = append(errs, fmt.Errorf("subscription %q in namespace %q names no package (spec.name)", s.Name, res.ns))
		}
		res.subs = append(res.subs, &subNode{idx: int32(i), sub: s})
	}
	var csvs []*cluster.CSV
	for i := range state.CSVs {
		if c := &state.CSVs[i]; c.Namespace == res.ns && !c.Copied {
			csvs = append(csvs, c)
		}
	}
	slices.SortStableFunc(csvs, func(a, b *cluster.CSV) int { return cmp.Compare(a.Name, b.Name) })
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	f, err := readFlight(res.ns, state, subs, csvs)
	if err != nil {
		return err
	}
	res.flight = f
	res.byName = make(map[string]*instNode, len(csvs))
	subsOf := make(map[string][]int, len(subs)) // installed CSV → its subscriptions
	for i, name := range f.installed {
		if name != "" {
			subsOf[name] = append(subsOf[name], i)
		}
	}
	for i, c := range csvs {
		if err := res.poll(i); err != nil {
			return err
		}
		if i > 0 && csvs[i-1].Name == c.Name {
			errs = append(errs, fmt.Errorf("CSV %q in namespace %q appears twice", c.Name, res.ns))
			continue
		}
		if f.gone[c.Name] {
			continue
		}
		n, err := res.installedNode(int32(len(res.installed)), c, subs, subsOf[c.Name])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		res.installed = append(res.installed, n)
		res.byName[c.Name] = n
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	res.instOrder = slices.Clone(res.installed)
	slices.SortStableFunc(res.instOrder, func(a, b *instNode) int {
		return cmp.Or(cmp.Compare(a.pkg, b.pkg), cmp.Compare(a.csv.Name, b.csv.Name))
	})
	for i, s := range res.subs {
		if name := f.installed[i]; name != "" {
			s.current = res.byName[name]
		}
	}
	return nil
}

// installedNode reads an installed CSV as OLM does: the properties
// annotation when present, otherwise the APIs of its CRD and API service
// definitions and the package of the one subscription that owns it. owners
// are the indexes in subs of the subscriptions whose installed CSV it is.
func (res *resolution) installedNode(idx int32, c *cluster.CSV, subs []*cluster.Subscription, owners []int) (*instNode, error) {
	n := &instNode{idx: idx, csv: c}
	if c.VersionText != "" || !c.Version.Equals(semver.Version{}) {
		n.versions = []semver.Version{c.Version}
	}
	pkgs := map[string]bool{}
	for _, i := range owners {
		s := subs[i]
		if !n.subscribed {
			n.owner = s.Name
		}
		n.subscribed = true
		if s.Package != "" {
			pkgs[s.Package] = true
		}
	}
	if c.Properties == nil {
		n.provides = c.Provides
		for _, g := range c.Requires {
			n.reqs = append(n.reqs, requirement{Kind: graph.RequireGVK, Property: graph.RequiredGVKProperty(g), GVK: g})
		}
		if len(pkgs) == 1 {
			for p := range pkgs {
				n.pkg = p
			}
		}
		return n, nil
	}
	// The annotation's properties replace the derived ones, read by
	// cluster as graph reads a catalog's: the olm.package version
	// tolerantly.
	bd := c.Properties.Typed()
	if err := c.Properties.Err(); err != nil {
		return nil, fmt.Errorf("installed CSV %q in namespace %q: bundle %q of package %q: %w", c.Name, res.ns, c.Name, bd.DeclaredPackage, err)
	}
	n.pkg = bd.DeclaredPackage
	if v, ok := bd.ValidVersion(); ok && !slices.ContainsFunc(n.versions, v.Equals) {
		n.versions = append(n.versions, v)
	}
	n.provides = bd.Provides
	n.typed = bd
	n.labels = bd.Labels
	n.deprecated = bd.Deprecated
	n.reqs = bd.Requirements()
	return n, nil
}

// build turns the request into constraints: subscriptions, installed CSVs,
// and the transitive closure of their requirements.
func (res *resolution) build() error {
	p := &res.p
	// About a subscription, a candidate or two and an installed CSV each,
	// and as many constraints, or as many as the resolver's last problem
	// had (the re-solves that confirm changes build nearly the same
	// problem): reserved once rather than grown by doubling.
	last := res.r.size.Load()
	p.Grow(max(3*len(res.subs)+len(res.installed), int(last>>32)), max(3*len(res.subs)+2*len(res.installed), int(last&(1<<32-1))))
	for _, s := range res.subs {
		v := variable{kind: varSubscription, idx: s.idx}
		p.Mandatory(reason{kind: FactSubscription, sub: s}, v)
	}
	for _, v := range res.forced {
		p.Mandatory(reason{kind: factForced, subject: v}, v)
	}
	for _, n := range res.installed {
		v := variable{kind: varInstalled, idx: n.idx}
		p.Var(v)
		if !n.subscribed {
			p.Mandatory(reason{kind: FactInstalled, subject: v}, v)
		}
	}
	for i, s := range res.subs {
		if err := res.poll(i); err != nil {
			return err
		}
		if err := res.subscription(s); err != nil {
			return err
		}
		v := variable{kind: varSubscription, idx: s.idx}
		if s.missing != "" {
			p.Prohibited(reason{kind: s.missing, sub: s}, v)
			continue
		}
		cands := s.cands
		if s.current != nil {
			cur := variable{kind: varInstalled, idx: s.current.idx}
			cands = append(slices.Clip(cands), cur)
		}
		p.Dependency(reason{kind: FactSubscriptionCandidates, sub: s}, v, cands...)
		if s.current != nil {
			cur := variable{kind: varInstalled, idx: s.current.idx}
			for _, c := range s.cands {
				p.Conflict(reason{kind: FactReplacement, sub: s, subject: c}, c, cur)
			}
		}
	}
	// The problem's variables are also the queue of variables to expand:
	// a constraint that mentions a new candidate declares it, once.
	for i := len(res.subs); i < p.NumVars(); i++ {
		if (i-len(res.subs))%256 == 0 {
			if err := res.ctx.Err(); err != nil {
				return err
			}
		}
		if err := res.expand(p.VarAt(i)); err != nil {
			return err
		}
	}
	if err := res.ctx.Err(); err != nil {
		return err
	}
	res.uniqueness()
	return res.ctx.Err()
}

// poll returns the context's error on every 256th call (i counts them), so
// that long loops stop soon after a cancellation at little cost.
func (res *resolution) poll(i int) error {
	if i%256 != 0 {
		return nil
	}
	return res.ctx.Err()
}

// variables yields the installed and bundle variables, in creation order:
// the problem's variables after the subscriptions'.
func (res *resolution) variables() iter.Seq[variable] {
	return func(yield func(variable) bool) {
		for i := len(res.subs); i < res.p.NumVars(); i++ {
			if !yield(res.p.VarAt(i)) {
				return
			}
		}
	}
}

// expand adds the requirements of v (or, for a deprecated bundle, its
// prohibition).
func (res *resolution) expand(v variable) error {
	var reqs []requirement
	var cat *catalogIndex
	deprecated := false
	switch v.kind {
	case varInstalled:
		n := res.installed[v.idx]
		reqs, deprecated = n.reqs, n.deprecated
	case varBundle:
		if v.idx >= 0 {
			reqs = v.ch.reqs[v.idx]
		} else {
			reqs = v.b.Requirements()
		}
		cat, deprecated = v.ch.pkg.cat, v.b.Deprecated
	}
	if deprecated {
		// Never selected. Its requirements are expanded all the same, as
		// OLM expands them: what they reach is compiled and checked (an
		// invalid cel rule fails the resolution in OLM too), and the
		// prohibition makes their constraints hold trivially.
		res.p.Prohibited(reason{kind: FactDeprecated, subject: v}, v)
	}
	for i := range reqs {
		q := &reqs[i]
		cands, err := res.candidates(q, cat, v)
		if err != nil {
			return err
		}
		res.p.Dependency(reason{kind: FactRequirement, subject: v, req: q}, v, cands...)
		res.deps = append(res.deps, dependency{subject: v, req: q, cands: cands})
	}
	return nil
}

// uniqueness adds at most one bundle per package, and one provider per API,
// over every variable built, in sorted key order. An API whose providers
// all belong to one package needs no constraint of its own: the package's
// already allows only one of them. (Its lists and the numbering stay in
// this function: in a value of their own they would move to the heap.)
func (res *resolution) uniqueness() {
	// APIs are numbered: the resolver's numbers, then those only installed
	// CSVs provide (nums).
	installedAPIs, oneByOne := 0, 0
	for _, in := range res.installed {
		installedAPIs += len(in.provides)
		if in.typed == nil || len(in.provides) < manyAPIs {
			oneByOne += len(in.provides)
		}
	}
	nums := newAPINumbers(res.r)
	// The lists of the pass come from the Resolver's pool and go back to it.
	l, _ := res.r.lists.Get().(*uniqueLists)
	if l == nil {
		l = new(uniqueLists)
	}
	scratch := l.scratch[:0]
	inRun := false // whether idsOf's last result came from a run (cheap again)
	// idsOf returns the numbers of the APIs v provides; the result is only
	// valid until the next call and must not be modified.
	idsOf := func(v variable) []int32 {
		inRun = false
		if v.kind == varBundle && v.idx >= 0 {
			return v.ch.apis[v.idx]
		}
		buf := scratch[:0]
		if v.kind == varInstalled {
			if n := res.installed[v.idx]; n.typed != nil && len(n.provides) >= manyAPIs {
				// A long annotation: its numbers are the Resolver's, its
				// other APIs one run of this resolution's.
				p := res.r.providedAPIs(n.typed)
				if start, ok := nums.block(p, n.provides); ok {
					inRun = true
					buf = slices.Grow(buf, len(p.ids))
					for _, id := range p.ids {
						if id < 0 {
							id = start - 1 - id
						}
						buf = append(buf, id)
					}
					scratch = buf
					return buf
				}
			}
		}
		for _, g := range res.providesOf(v) {
			buf = append(buf, nums.id(g, oneByOne))
		}
		scratch = buf
		return buf
	}
	n := len(res.r.gvks) + installedAPIs
	first := slices.Grow(l.first[:0], n) // per API: the first provider's package, numbered in pkgNums
	state := slices.Grow(l.state[:0], n) // per API: 0 none, 1 one package, 2 several
	defer func() {
		l.first, l.state, l.scratch = first[:0], state[:0], scratch[:0]
		res.r.lists.Put(l)
	}()
	byPkg := map[string][]variable{}
	pkgNums := map[string]int32{}
	multi := 0
	// The numbers of the installed CSVs' APIs, kept for the second pass: an
	// installed CSV may provide very many APIs (its properties annotation),
	// each numbered through maps (unless numbered as a run: see idsOf).
	var installedIDs [][]int32
	for v := range res.variables() {
		pkg := res.pkgOf(v)
		num := int32(-1)
		if pkg != "" {
			byPkg[pkg] = append(byPkg[pkg], v)
			var ok bool
			if num, ok = pkgNums[pkg]; !ok {
				num = int32(len(pkgNums))
				pkgNums[pkg] = num
			}
		}
		ids := idsOf(v)
		if v.kind == varInstalled && len(ids) > 0 && !inRun {
			if installedIDs == nil {
				installedIDs = make([][]int32, len(res.installed))
			}
			installedIDs[v.idx] = slices.Clone(ids)
		}
		for _, id := range ids {
			if int(id) >= len(state) {
				first = append(first, make([]int32, int(id)+1-len(first))...)
				state = append(state, make([]uint8, int(id)+1-len(state))...)
			}
			switch state[id] {
			case 0:
				state[id], first[id] = 1, num
				if num < 0 {
					state[id] = 2
					multi++
				}
			case 1:
				if num < 0 || num != first[id] {
					state[id] = 2
					multi++
				}
			}
		}
	}
	res.onePerPackage(byPkg)
	if multi == 0 {
		return
	}
	groups := map[int32][]variable{}
	for v := range res.variables() {
		ids := []int32(nil)
		if v.kind == varInstalled && installedIDs != nil && installedIDs[v.idx] != nil {
			ids = installedIDs[v.idx]
		} else {
			ids = idsOf(v)
		}
		for _, id := range ids {
			if state[id] == 2 {
				groups[id] = append(groups[id], v)
			}
		}
	}
	res.onePerAPI(groups, nums)
}

// uniqueLists are the per-API lists of a resolution's uniqueness pass,
// kept from one resolution to the next (Resolver.lists): for an annotation
// of 600,000 APIs they take megabytes, which, new each time, cost their
// page faults again in every resolution.
type uniqueLists struct {
	first   []int32
	state   []uint8
	scratch []int32
}

// onePerPackage adds at most one bundle of each package with more than one
// variable, in package order.
func (res *resolution) onePerPackage(byPkg map[string][]variable) {
	pkgs := make([]string, 0, len(byPkg))
	for k, vs := range byPkg {
		if len(vs) > 1 {
			pkgs = append(pkgs, k)
		}
	}
	slices.Sort(pkgs)
	for _, k := range pkgs {
		res.p.AtMost(reason{kind: FactOnePerPackage, pkg: k}, 1, byPkg[k]...)
	}
}

// onePerAPI adds at most one provider of each API of groups (its providers
// by API number; nums names the APIs numbered after the resolver's), in
// API order.
func (res *resolution) onePerAPI(groups map[int32][]variable, nums *apiNumbers) {
	gvkOf := nums.gvk
	ids := make([]int32, 0, len(groups))
	for id := range groups {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b int32) int { return gvkOf(a).Compare(*gvkOf(b)) })
	for _, id := range ids {
		res.p.AtMost(reason{kind: FactOnePerAPI, gvk: gvkOf(id)}, 1, groups[id]...)
	}
}

func (res *resolution) pkgOf(v variable) string {
	switch v.kind {
	case varInstalled:
		return res.installed[v.idx].pkg
	case varBundle:
		return v.b.Package
	}
	return ""
}

func (res *resolution) providesOf(v variable) []graph.GVK {
	switch v.kind {
	case varInstalled:
		return res.installed[v.idx].provides
	case varBundle:
		return v.b.Provides
	}
	return nil
}

// subscription finds a subscription's candidates, or the level at which it
// has none.
func (res *resolution) subscription(s *subNode) error {
	sub := s.sub
	catalogs := res.visible
	if named, ok := SubscriptionCatalog(sub); ok {
		s.catalog = named
		ci := res.r.byKey[s.catalog]
		if ci == nil || res.rank[ci.ord] < 0 || len(ci.pkgs) == 0 {
			return res.noCandidates(s, FactNoCatalog)
		}
		catalogs = []*catalogIndex{ci}
	}
	if len(catalogs) == 0 {
		return res.noCandidates(s, FactNoCatalog)
	}
	var channels []*chanIndex
	foundPkg := false
	for _, ci := range catalogs {
		pi := ci.pkgs[sub.Package]
		if pi == nil || len(pi.pkg.Bundles) == 0 {
			continue
		}
		if ok, err := res.usable(pi, func() string { return fmt.Sprintf("subscription %q in namespace %q", sub.Name, res.ns) }); err != nil {
			return err
		} else if !ok {
			continue
		}
		foundPkg = true
		if sub.Channel == "" {
			channels = append(channels, pi.chans()...)
		} else if x := pi.channel(sub.Channel); x != nil && len(x.ch.Entries) > 0 {
			channels = append(channels, x)
		}
	}
	switch {
	case !foundPkg:
		return res.noCandidates(s, FactNoPackage)
	case len(channels) == 0:
		return res.noCandidates(s, FactNoChannel)
	}
	if s.current == nil && sub.StartingCSV != "" {
		for _, x := range channels {
			if _, ok := x.ch.Entry(sub.StartingCSV); !ok {
				continue
			}
			if b := x.pkg.pkg.Bundle(sub.StartingCSV); b != nil {
				s.cands = append(s.cands, variable{kind: varBundle, idx: int32(x.position(b.Name)), ch: x, b: b})
			}
		}
		if len(s.cands) == 0 {
			return res.noCandidates(s, FactNoStartingCSV)
		}
		res.traceCandidates(s)
		return nil
	}
	for _, x := range channels {
		if x.err != nil {
			return fmt.Errorf("subscription %q in namespace %q: %w", sub.Name, res.ns, x.err)
		}
		if s.current == nil {
			for i, b := range x.cands {
				s.cands = append(s.cands, variable{kind: varBundle, idx: int32(i), ch: x, b: b})
			}
			continue
		}
		s.cands = res.successors(s.cands, x, s.current)
	}
	res.traceCandidates(s)
	return nil
}

// successors appends the candidates of channel x that upgrade the installed
// CSV n, in channel order.
func (res *resolution) successors(dst []variable, x *chanIndex, n *instNode) []variable {
	mark := make([]bool, len(x.cands))
	any := false
	for _, name := range x.ch.Successors(n.csv.Name, n.csv.Version) {
		if p := x.position(name); p >= 0 {
			mark[p], any = true, true
		}
	}
	if o := res.r.opts; o.SemverUpgrades {
		cur := n.csv.Version
		for i, b := range x.cands {
			if v, ok := b.ValidVersion(); ok && b.Name != n.csv.Name && v.GT(cur) && (o.SemverAllowMajor || v.Major == cur.Major) {
				mark[i], any = true, true
			}
		}
	}
	if !any {
		return dst
	}
	for i, b := range x.cands {
		if mark[i] {
			dst = append(dst, variable{kind: varBundle, idx: int32(i), ch: x, b: b})
		}
	}
	return dst
}

func (res *resolution) noCandidates(s *subNode, kind FactKind) error {
	s.missing = kind
	res.r.trace(Event{Kind: EventCandidates, Namespace: res.ns, Subscription: s.sub.Name, Message: (&Fact{Kind: kind, Subscription: s.sub.Name, Package: s.sub.Package, Channel: s.sub.Channel, Bundle: s.sub.StartingCSV, Catalog: s.catalog}).String()})
	return nil
}

func (res *resolution) traceCandidates(s *subNode) {
	if res.r.opts.Tracer != nil {
		res.r.trace(Event{Kind: EventCandidates, Namespace: res.ns, Subscription: s.sub.Name, Count: len(s.cands)})
	}
}

// describe names a variable for errors.
func (res *resolution) describe(v variable) string {
	switch v.kind {
	case varInstalled:
		return fmt.Sprintf("installed CSV %q in namespace %q", res.installed[v.idx].csv.Name, res.ns)
	case varBundle:
		return fmt.Sprintf("bundle %q (package %q, catalog %s)", v.b.Name, v.b.Package, v.ch.pkg.cat.key)
	}
	return ""
}

// unnamed reports the namespace to resolve when it is empty, and every
// subscription and CSV of state without a namespace or a name: such an
// object belongs to no namespace, and leaving it out would change the plan
// without a word (a subscription built in code without Namespace).
func unnamed(ns string, state *cluster.State) error {
	var errs []error
	if ns == "" {
		errs = append(errs, errors.New("no namespace to resolve: the namespace is empty"))
	}
	for i := range state.Subscriptions {
		if s := &state.Subscriptions[i]; s.Namespace == "" || s.Name == "" {
			errs = append(errs, fmt.Errorf("subscription %d (name %q, package %q) has no namespace or no name: set both", i, s.Name, s.Package))
		}
	}
	for i := range state.CSVs {
		if c := &state.CSVs[i]; c.Namespace == "" || c.Name == "" {
			errs = append(errs, fmt.Errorf("CSV %d (name %q) has no namespace or no name: set both", i, c.Name))
		}
	}
	return errors.Join(errs...)
}
