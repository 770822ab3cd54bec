// Package mirror computes the smallest set of catalog bundles with which a
// disconnected cluster does everything it would do with the full catalogs:
// install each subscription, take every upgrade hop from each installed
// version to its channel's head, and install every dependency at every
// version the resolver picks on the way (DESIGN §14).
//
// [Compute] rolls out every namespace of the cluster (and every package
// asked for a cluster yet to be built) with the resolver, hop by hop, as
// OLM would with the full catalogs, and keeps the bundle of every step of
// every round. It then adds what the filtered catalog needs to be valid
// with the channels' edges unchanged — the entries between two kept
// entries of a replacement chain, an entry that skips a kept entry, the
// head of a package's default channel — and checks the result: the
// filtered catalogs pass the structural check, and the same rollouts
// against them take the same rounds, step for step.
//
// The [Set] it returns answers the rest: the filtered catalogs
// ([Set.Catalog], [Set.WriteFBC]), an oc-mirror ImageSetConfiguration
// ([Set.ImageSet]), the images to mirror ([Set.Images]), and a report of
// every kept bundle and why ([Set.WriteText]); its JSON form is the report
// as data.
package mirror

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

// DefaultMaxRounds is the most rounds of a rollout when Options.MaxRounds
// is 0.
const DefaultMaxRounds = 100

// Options tunes Compute. The zero value rolls out with DefaultMaxRounds.
type Options struct {
	// MaxRounds is the most rounds of each rollout; 0 means
	// DefaultMaxRounds.
	MaxRounds int
}

// Compute returns the mirror set of the world w — every namespace of
// w.Namespaces with a subscription or an installed CSV, rolled out with
// the world's resolver — and of the packages of req, against the world's
// catalogs: see the package documentation. The filtered catalogs are
// resolved with the world's resolver options. A namespace or package
// whose rollout has no plan at some round (a conflict, a package no
// catalog has) or does not settle within the round limit has no mirror
// set: Compute returns a *RolloutError for each such rollout, joined,
// together with the set of the other rollouts (nil when there is none).
// A rollout that comes back to a state it was in (a subscription with no
// channel can hop between channels forever) is not an error: it is cut
// at the first repeat, its rounds up to it kept, and Rollout.Cycles says
// so. A set that fails its own check is a *CheckError (a bug to report).
// An error matching errors.Is(err, ctx.Err()) means ctx ended. The
// catalogs are not modified; the Set keeps them.
func Compute(ctx context.Context, w *sextant.World, req Request, opts Options) (*Set, error) {
	if opts.MaxRounds == 0 {
		opts.MaxRounds = DefaultMaxRounds
	}
	r := w.Resolver
	if r == nil {
		return nil, errors.New("mirror: the world has no OLM v0 resolver (its manifests hold only OLM v1 objects)")
	}
	catalogs := w.ResolverCatalogs()
	s := &Set{full: catalogs, opts: opts, resolverOpts: w.ResolverOptions(), kept: map[resolver.CatalogKey]map[graph.BundleRef]*kept{}}
	scens, err := scenarios(catalogs, w, req)
	if err != nil {
		return nil, err
	}
	var errs []error
	for _, sc := range scens {
		rounds, cycle, err := sc.run(ctx, r, opts.MaxRounds)
		if err != nil {
			if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
				return nil, err
			}
			errs = append(errs, &RolloutError{Rollout: sc.name, Rounds: len(rounds), Err: err})
			continue
		}
		pr, err := printRounds(sc.ns, rounds)
		if err != nil {
			return nil, err
		}
		s.scens = append(s.scens, sc)
		s.prints = append(s.prints, rolloutPrint{rounds: pr})
		s.record(sc, rounds, cycle)
	}
	failed := errors.Join(errs...)
	if len(s.scens) == 0 && failed != nil {
		return nil, failed
	}
	s.close()
	if err := s.Check(ctx, s.Keeps); err != nil {
		return nil, err
	}
	if err := s.prune(ctx); err != nil {
		return nil, err
	}
	s.relabel()
	s.summarise()
	return s, failed
}

// RolloutError is a rollout that the full catalogs cannot carry through: a
// round with no plan (Err is then the resolver's error, a
// *resolver.ConflictError when the request conflicts) or one past the
// round limit (Err wraps resolver.ErrRoundLimit).
type RolloutError struct {
	// Rollout names it: "namespace operators" or "package cert-manager".
	Rollout string
	// Rounds is the number of rounds applied before it failed.
	Rounds int
	Err    error
}

func (e *RolloutError) Error() string {
	if errors.Is(e.Err, resolver.ErrRoundLimit) {
		return fmt.Sprintf("%s: no mirror set: with the full catalogs, the rollout does not settle: %v", e.Rollout, e.Err)
	}
	return fmt.Sprintf("%s: no mirror set: with the full catalogs, round %d has no plan: %v", e.Rollout, e.Rounds+1, e.Err)
}

func (e *RolloutError) Unwrap() error { return e.Err }

// scenario is one rollout to simulate: a namespace of the cluster, or a
// package request at one starting version.
type scenario struct {
	name  string
	ns    string
	state *cluster.State
	// For a package request with a range: the subscription whose steps
	// must stay in rng; the rollout stops before a round that leaves it.
	sub string
	rng graph.Range
}

// scenarios lists the rollouts: one per namespace of the world with a
// subscription or an installed CSV, then, per package request of req,
// one (a new subscription) or one per entry in its range (a subscription
// starting there).
func scenarios(catalogs []resolver.Catalog, w *sextant.World, req Request) ([]scenario, error) {
	var out []scenario
	for _, ns := range w.Namespaces {
		if !hasOperators(w.State, ns) {
			continue
		}
		out = append(out, scenario{name: "namespace " + ns, ns: ns, state: w.State})
	}
	var errs []error
	for _, p := range req.Packages {
		sub := cluster.Subscription{Name: p.Package, Namespace: p.Package, Package: p.Package, Channel: p.Channel}
		name := "package " + p.String()
		if !p.Range.Valid() {
			out = append(out, scenario{name: name, ns: sub.Namespace, state: &cluster.State{Subscriptions: []cluster.Subscription{sub}}})
			continue
		}
		starts, err := startsInRange(catalogs, p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, b := range starts {
			s := sub
			s.StartingCSV = b
			out = append(out, scenario{name: name + " from " + b, ns: s.Namespace, state: &cluster.State{Subscriptions: []cluster.Subscription{s}}, sub: s.Name, rng: p.Range})
		}
	}
	return out, errors.Join(errs...)
}

// hasOperators reports whether namespace ns of state has a subscription or
// an installed CSV that is not a copy: something a rollout moves or keeps.
func hasOperators(state *cluster.State, ns string) bool {
	for _, s := range state.Subscriptions {
		if s.Namespace == ns {
			return true
		}
	}
	for _, c := range state.CSVs {
		if c.Namespace == ns && !c.Copied {
			return true
		}
	}
	return false
}

// startsInRange returns the bundles of p's channel, in every catalog that
// has the package, whose version is in p's range, by name.
func startsInRange(catalogs []resolver.Catalog, p PackageRequest) ([]string, error) {
	var out []string
	found := false
	for _, c := range catalogs {
		pkg := c.Catalog.Package(p.Package)
		if pkg == nil {
			continue
		}
		found = true
		ch := pkg.Channel(cmpOr(p.Channel, pkg.DefaultChannel))
		if ch == nil {
			continue
		}
		for _, e := range ch.Entries {
			if b := pkg.Bundle(e.Name); b != nil {
				if v, ok := b.ValidVersion(); ok && p.Range.Contains(v) {
					out = append(out, b.Name)
				}
			}
		}
	}
	if !found {
		return nil, fmt.Errorf("package %s: no catalog has package %q", p, p.Package)
	}
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) == 0 {
		return nil, fmt.Errorf("package %s: no bundle of channel %q has a version in range %q", p, cmpOr(p.Channel, "(the default)"), p.Range)
	}
	return out, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// run rolls the scenario out with r: Resolver.Rollout, approving every
// plan (a mirror must serve each approval a person may give), stopped
// before a round that comes back to a state the namespace was in —
// returned as cycle, the number of rounds kept (0: none) — or, for a
// package request with a range, before a round that would take the
// subscription out of the range.
func (sc *scenario) run(ctx context.Context, r *resolver.Resolver, maxRounds int) (rounds []resolver.Round, cycle int, err error) {
	seen := map[string]bool{}
	cycled := false
	stop := func(state *cluster.State, plan *resolver.Plan) bool {
		if sc.rng.Valid() && sc.leavesRange(plan) {
			return true
		}
		k := string(stateOf(sc.ns, state))
		if seen[k] {
			cycled = true
			return true
		}
		seen[k] = true
		return false
	}
	ro, err := r.Rollout(ctx, sc.ns, sc.state, resolver.RolloutOptions{MaxRounds: maxRounds, Approve: true, Stop: stop})
	if err != nil && ro == nil {
		return nil, 0, err
	}
	if cycled {
		cycle = len(ro.Rounds)
	}
	return ro.Rounds, cycle, err
}

// leavesRange reports whether a step of plan moves the scenario's
// subscription to a version outside its range.
func (sc *scenario) leavesRange(plan *resolver.Plan) bool {
	for _, st := range plan.Steps {
		if st.Reason.Subscription != sc.sub {
			continue
		}
		v, err := graph.ParseVersion(st.Version)
		if err != nil || !sc.rng.Contains(v) {
			return true
		}
	}
	return false
}

// record keeps the bundle of every step of rounds, with its reason, and
// notes the subscriptions of the namespace in each state of the rollout:
// each needs its channel in the filtered catalog (see follow).
func (s *Set) record(sc scenario, rounds []resolver.Round, cycle int) {
	s.Rollouts = append(s.Rollouts, Rollout{Name: sc.name, Rounds: len(rounds), Cycles: cycle > 0})
	states := []*cluster.State{sc.state}
	for _, rd := range rounds {
		states = append(states, rd.State)
	}
	for _, st := range states {
		for _, sub := range st.Subscriptions {
			if sub.Namespace == sc.ns && !slices.Contains(s.subs, sub) {
				s.subs = append(s.subs, sub)
			}
		}
	}
	for _, rd := range rounds {
		s.Rollouts[len(s.Rollouts)-1].Steps += len(rd.Plan.Steps)
		for _, st := range rd.Plan.Steps {
			rs := Reason{Namespace: sc.ns, Subscription: st.Reason.Subscription}
			switch {
			case st.Reason.Subscription == "":
				rs.Kind, rs.Subscription = ReasonDependency, ""
				rs.RequiredBy, rs.Requirement = st.Reason.RequiredBy, st.Reason.Requirement
			case st.Action == resolver.ActionUpgrade:
				rs.Kind, rs.From = ReasonHop, st.Replaces
			default:
				rs.Kind = ReasonInstall
			}
			s.keep(st.Catalog, graph.BundleRef{Package: st.Package, Name: st.Bundle}, rs)
		}
	}
}

// keep adds a bundle to the set with a reason; it reports whether the
// bundle is new.
func (s *Set) keep(cat resolver.CatalogKey, ref graph.BundleRef, rs Reason) bool {
	m := s.kept[cat]
	if m == nil {
		m = map[graph.BundleRef]*kept{}
		s.kept[cat] = m
	}
	k := m[ref]
	isNew := k == nil
	if isNew {
		k = &kept{}
		m[ref] = k
	}
	if !slices.Contains(k.reasons, rs) {
		k.reasons = append(k.reasons, rs)
	}
	return isNew
}

// Keeps reports whether the set keeps bundle b of catalog cat: the keep
// function of the filtered catalogs.
func (s *Set) Keeps(cat resolver.CatalogKey, b *graph.Bundle) bool {
	_, ok := s.kept[cat][b.Ref()]
	return ok
}

// close adds, to a fixed point, what the filtered catalogs need to be
// valid with the kept entries' edges unchanged: in every channel a kept
// bundle sits in, the chain entries between two kept ones, and an entry
// that skips a kept entry the full channel skips (so that it stays out of
// the candidates); in every package, the head of the default channel when
// that channel would keep no entry.
func (s *Set) close() {
	for _, sub := range s.subs {
		s.follow(sub)
	}
	for _, c := range s.full {
		m := s.kept[c.Key]
		if len(m) == 0 {
			continue
		}
		for _, name := range packagesOf(m) {
			p := c.Catalog.Package(name)
			for s.closePackage(c.Key, p) {
			}
		}
	}
}

// follow makes sure that subscription sub finds its package and channel
// in the filtered catalogs, as it does in the full ones: a subscription
// that keeps its installed CSV (at the head, or with no upgrade) has no
// step, yet without its channel it would have no candidates at all. When
// no catalog it may use keeps an entry of its channel (of any channel of
// the package when it names none), the first such catalog keeps the
// installed CSV's bundle, when the channel lists it, else the channel's
// head.
func (s *Set) follow(sub cluster.Subscription) {
	var first *resolver.Catalog
	for i := range s.full {
		c := &s.full[i]
		if named, ok := resolver.SubscriptionCatalog(&sub); ok && c.Key != named {
			continue
		}
		p := c.Catalog.Package(sub.Package)
		if p == nil {
			continue
		}
		chans := p.Channels
		if sub.Channel != "" {
			chans = nil
			if ch := p.Channel(sub.Channel); ch != nil {
				chans = []*graph.Channel{ch}
			}
		}
		for _, ch := range chans {
			for _, e := range ch.Entries {
				if _, ok := s.kept[c.Key][graph.BundleRef{Package: p.Name, Name: e.Name}]; ok {
					return
				}
			}
		}
		if first == nil && len(chans) > 0 {
			first = c
		}
	}
	if first == nil {
		return // the full catalogs have no candidate either
	}
	p := first.Catalog.Package(sub.Package)
	ch := p.Default()
	if sub.Channel != "" || ch == nil {
		ch = p.Channel(cmpOr(sub.Channel, p.Channels[0].Name))
	}
	rs := Reason{Namespace: sub.Namespace, Subscription: sub.Name, Channel: ch.Name}
	if _, ok := ch.Entry(sub.InstalledCSV); ok && p.Bundle(sub.InstalledCSV) != nil {
		rs.Kind = ReasonInstalled
		s.keep(first.Key, graph.BundleRef{Package: p.Name, Name: sub.InstalledCSV}, rs)
		return
	}
	if head, ok := ch.Head(); ok {
		rs.Kind = ReasonHead
		s.keep(first.Key, graph.BundleRef{Package: p.Name, Name: head}, rs)
	}
}

// packagesOf returns the packages of the kept bundles m, sorted.
func packagesOf(m map[graph.BundleRef]*kept) []string {
	var out []string
	for ref := range m {
		out = append(out, ref.Package)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// closePackage makes one pass of close over package p; it reports whether
// it added a bundle.
func (s *Set) closePackage(cat resolver.CatalogKey, p *graph.Package) bool {
	m := s.kept[cat]
	has := func(name string) bool { _, ok := m[graph.BundleRef{Package: p.Name, Name: name}]; return ok }
	added := false
	add := func(name string, rs Reason) {
		if p.Bundle(name) != nil && s.keep(cat, graph.BundleRef{Package: p.Name, Name: name}, rs) {
			added = true
		}
	}
	for _, ch := range p.Channels {
		chain := ch.Chain()
		lo, hi := chainSpan(ch, chain, has)
		for i := lo + 1; lo >= 0 && i < hi; i++ {
			if !has(chain[i]) {
				add(chain[i], Reason{Kind: ReasonChain, Channel: ch.Name, Above: chain[lo], Below: chain[hi]})
			}
		}
		for _, e := range ch.Entries {
			if !has(e.Name) || !ch.IsSkipped(e.Name) || skippedByKept(ch, e.Name, has) {
				continue
			}
			if by := skipper(ch, e.Name); by != "" {
				add(by, Reason{Kind: ReasonSkips, Channel: ch.Name, Skipped: e.Name})
			}
		}
	}
	if d := p.Default(); d != nil {
		keepsOne := false
		for _, e := range d.Entries {
			keepsOne = keepsOne || has(e.Name)
		}
		if head, ok := d.Head(); ok && !keepsOne {
			add(head, Reason{Kind: ReasonDefaultChannel, Channel: d.Name})
		}
	}
	return added
}

// prune drops, to a fixed point, each bundle that close added (no step of
// a rollout installs it) and that the set can do without: the filtered
// catalogs still pass Check without it. close adds what one channel
// needs, and a bundle that sits in several channels can make another
// addition redundant (the head of a default channel that a chain filled
// in another channel already keeps). Candidates are tried package by
// package, each package's from its channels' heads down, so that one
// pass drops a run of them.
func (s *Set) prune(ctx context.Context) error {
	type cand struct {
		cat resolver.CatalogKey
		ref graph.BundleRef
		pos int
	}
	var cands []cand
	for _, c := range s.full {
		for ref, k := range s.kept[c.Key] {
			if !k.added() {
				continue
			}
			b := c.Catalog.Bundle(ref)
			pos := 0
			for _, ch := range b.Channels {
				pos = max(pos, c.Catalog.Package(ref.Package).Channel(ch).Position(ref.Name))
			}
			cands = append(cands, cand{c.Key, ref, pos})
		}
	}
	slices.SortFunc(cands, func(a, b cand) int {
		return cmp.Or(cmp.Compare(a.cat.Namespace, b.cat.Namespace), cmp.Compare(a.cat.Name, b.cat.Name),
			cmp.Compare(a.ref.Package, b.ref.Package), cmp.Compare(a.pos, b.pos), cmp.Compare(a.ref.Name, b.ref.Name))
	})
	for dropped := true; dropped; {
		dropped = false
		for _, c := range cands {
			if err := ctx.Err(); err != nil {
				return err
			}
			k := s.kept[c.cat][c.ref]
			if k == nil {
				continue
			}
			delete(s.kept[c.cat], c.ref)
			if !s.packageValid(c.cat, c.ref.Package) {
				s.kept[c.cat][c.ref] = k
				continue
			}
			err := s.Check(ctx, s.Keeps)
			var ce *CheckError
			switch {
			case err == nil:
				dropped = true
				continue
			case !errors.As(err, &ce):
				return err
			}
			s.kept[c.cat][c.ref] = k
		}
	}
	return nil
}

// relabel words again, after prune, why each bundle that close added is
// kept: the chain it fills between the kept entries that remain, the kept
// entry it skips, the default channel it alone keeps.
func (s *Set) relabel() {
	for _, c := range s.full {
		m := s.kept[c.Key]
		for _, name := range packagesOf(m) {
			p := c.Catalog.Package(name)
			has := func(n string) bool { _, ok := m[graph.BundleRef{Package: p.Name, Name: n}]; return ok }
			fresh := map[string][]Reason{}
			for _, ch := range p.Channels {
				chain := ch.Chain()
				lo, hi := chainSpan(ch, chain, has)
				for i := lo + 1; lo >= 0 && i < hi; i++ {
					fresh[chain[i]] = append(fresh[chain[i]], Reason{Kind: ReasonChain, Channel: ch.Name, Above: chain[lo], Below: chain[hi]})
				}
				for _, e := range ch.Entries {
					if !has(e.Name) {
						continue
					}
					for _, sk := range e.Skips {
						if has(sk) && ch.IsSkipped(sk) {
							fresh[e.Name] = append(fresh[e.Name], Reason{Kind: ReasonSkips, Channel: ch.Name, Skipped: sk})
						}
					}
				}
			}
			if d := p.Default(); d != nil {
				var only []string
				for _, e := range d.Entries {
					if has(e.Name) {
						only = append(only, e.Name)
					}
				}
				if len(only) == 1 {
					fresh[only[0]] = append(fresh[only[0]], Reason{Kind: ReasonDefaultChannel, Channel: d.Name})
				}
			}
			for ref, k := range m {
				if ref.Package != p.Name || !k.added() || len(fresh[ref.Name]) == 0 {
					continue
				}
				k.reasons = slices.DeleteFunc(k.reasons, func(r Reason) bool {
					return r.Kind == ReasonChain || r.Kind == ReasonSkips || r.Kind == ReasonDefaultChannel
				})
				k.reasons = append(k.reasons, fresh[ref.Name]...)
			}
		}
	}
}

// packageValid reports whether package pkg of catalog cat, filtered to
// the kept bundles, passes the structural check: the cheap half of Check,
// for one package.
func (s *Set) packageValid(cat resolver.CatalogKey, pkg string) bool {
	for _, c := range s.full {
		if c.Key != cat {
			continue
		}
		fc, err := c.Catalog.Filter(func(b *graph.Bundle) bool { return b.Package == pkg && s.Keeps(cat, b) })
		if err != nil {
			return false
		}
		for _, f := range fc.Validate() {
			if f.Severity == graph.SeverityError {
				return false
			}
		}
	}
	return true
}

// added reports whether close added the bundle: no step of a rollout
// installs it.
func (k *kept) added() bool {
	for _, r := range k.reasons {
		if r.Kind == ReasonInstall || r.Kind == ReasonHop || r.Kind == ReasonDependency {
			return false
		}
	}
	return true
}

// chainSpan returns the positions in chain of the topmost kept entry and
// of the lowest kept entry that the channel does not skip (-1 when there
// is none): the span the kept entries need whole. A skipped entry is
// reached through its skipper, not the chain.
func chainSpan(ch *graph.Channel, chain []string, has func(string) bool) (lo, hi int) {
	lo, hi = -1, -1
	for i, name := range chain {
		if has(name) {
			if lo < 0 {
				lo = i
			}
			if !ch.IsSkipped(name) {
				hi = i
			}
		}
	}
	return lo, hi
}

// skippedByKept reports whether a kept entry of ch lists name in its skips.
func skippedByKept(ch *graph.Channel, name string, has func(string) bool) bool {
	for _, e := range ch.Entries {
		if has(e.Name) && slices.Contains(e.Skips, name) {
			return true
		}
	}
	return false
}

// skipper returns the entry of ch that skips name and comes last in the
// channel's order (the nearest above it), or "".
func skipper(ch *graph.Channel, name string) string {
	best, pos := "", -1
	for _, e := range ch.Entries {
		if slices.Contains(e.Skips, name) {
			if p := ch.Position(e.Name); p > pos {
				best, pos = e.Name, p
			}
		}
	}
	return best
}

// CheckError says how a keep set fails the mirror's properties: the
// structural findings of the filtered catalogs (errors only), and the
// rollouts whose rounds differ from the full catalogs'.
type CheckError struct {
	Findings []graph.Finding
	// Differs names each rollout that differs, with the first round that
	// does ("namespace operators: round 2 differs").
	Differs []string
}

func (e *CheckError) Error() string {
	var parts []string
	for _, f := range e.Findings {
		parts = append(parts, "invalid filtered catalog: "+f.String())
	}
	parts = append(parts, e.Differs...)
	return "mirror set check failed: " + strings.Join(parts, "; ")
}
