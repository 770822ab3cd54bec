package openshift

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/mirror"
	"github.com/sextantdev/sextant/olmv1"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolver/predict"
)

// Catalogs is what OLM sees at one minor: the catalogs (a default
// CatalogSource's at that minor's index, the others as they are), what
// became of each CatalogSource, and the resolvers built from them.
type Catalogs struct {
	Minor    Minor
	Catalogs []resolver.Catalog
	Sources  []Source
	// Resolver resolves OLM v0's subscriptions with the catalogs; V1
	// OLM v1's ClusterExtensions (nil when the cluster has none).
	Resolver *resolver.Resolver
	V1       *olmv1.Resolver
	// Options are the options Resolver was built with.
	Options resolver.Options
	// Images names the catalog images the cluster's CatalogSources and
	// ClusterCatalogs pull at the minor (what a disconnected cluster
	// mirrors), whatever file or image stood in for their content.
	Images []string
}

// CatalogsFunc returns the catalogs OLM sees at minor m for a cluster in
// state (whose CatalogSources are those of the current minor).
type CatalogsFunc func(ctx context.Context, m Minor, state *cluster.State) (*Catalogs, error)

// Options asks for a plan. Target is required.
type Options struct {
	// Target is the minor to reach.
	Target Minor
	// Via are the minors passed as Control Plane Only updates (see
	// NewPath).
	Via []Minor
	// Version is the cluster's release; "" reads it from the
	// ClusterVersion of the state (status.desired.version).
	Version string
	// Mirror computes, for each hop, the images a disconnected cluster
	// needs at the next minor (package mirror's set).
	Mirror bool
	// MaxRounds bounds each rollout; 0 means 100.
	MaxRounds int
}

// VersionError says why the cluster's version is unknown: no ClusterVersion
// in the manifests and none given, or a version that does not parse.
type VersionError struct {
	// Missing is true when nothing says the version.
	Missing bool
	Err     error
}

func (e *VersionError) Error() string {
	if e.Missing {
		return "the cluster's OpenShift version is unknown: the manifests hold no ClusterVersion named \"version\" with status.desired.version"
	}
	return "the cluster's OpenShift version: " + e.Err.Error()
}

func (e *VersionError) Unwrap() error { return e.Err }

// ClusterRelease returns the cluster's release and where it was read: the
// version given, else the ClusterVersion "version"'s
// status.desired.version. The notes say what the plan assumed.
func ClusterRelease(state *cluster.State, given string) (v semver.Version, from string, notes []string, err error) {
	if given != "" {
		v, err := ParseRelease(given)
		if err != nil {
			return v, "", nil, &VersionError{Err: err}
		}
		return v, "given", nil, nil
	}
	cv := state.ClusterVersion("version")
	if cv == nil || cv.Desired == "" {
		return semver.Version{}, "", nil, &VersionError{Missing: true}
	}
	v, err = ParseRelease(cv.Desired)
	if err != nil {
		return v, "", nil, &VersionError{Err: fmt.Errorf("ClusterVersion %q status.desired.version: %w", cv.Name, err)}
	}
	if cv.Updating() {
		notes = append(notes, fmt.Sprintf("the cluster is updating to %s (status.history: Partial): the plan starts from %s, as OLM does once it runs there", cv.Desired, cv.Desired))
	}
	return v, "ClusterVersion version status.desired.version", notes, nil
}

// engine makes one plan.
type engine struct {
	// said keeps the decisions listed, so that one problem that lasts
	// over several hops is one decision.
	said map[string]bool
	// tMinor and tPhase are when the actions being listed are taken.
	tMinor Minor
	tPhase int
	opts   Options
	path   *Path
	at     CatalogsFunc
	cache  map[Minor]*Catalogs
	plan   *Plan
}

// Make plans the cluster's upgrade from state to opts.Target: at is asked
// for each minor's catalogs (once per minor). See the package
// documentation for what a plan holds. When ctx ends the error matches
// errors.Is(err, ctx.Err()).
func Make(ctx context.Context, state *cluster.State, opts Options, at CatalogsFunc) (*Plan, error) {
	release, from, notes, err := ClusterRelease(state, opts.Version)
	if err != nil {
		return nil, err
	}
	path, err := NewPath(release, opts.Target, opts.Via)
	if err != nil {
		return nil, err
	}
	if opts.MaxRounds == 0 {
		opts.MaxRounds = 100
	}
	e := &engine{opts: opts, path: path, at: at, cache: map[Minor]*Catalogs{}, said: map[string]bool{}}
	e.plan = &Plan{Current: release.String(), CurrentFrom: from, Path: path, Now: MinorOf(release), Notes: notes, Hops: []HopPlan{}, Actions: []Action{}}
	base := state
	cur, err := e.catalogs(ctx, MinorOf(release), base)
	if err != nil {
		return nil, err
	}
	st, now, err := e.after(ctx, cur, state.Clone())
	if err != nil {
		return nil, err
	}
	e.plan.At = now
	e.setTime(cur.Minor, phaseAt)
	e.notesNow(cur.Minor, now)
	if cur.V1 != nil {
		st, e.plan.Extensions = e.v1Moves(cur, st)
	}
	for i, hop := range path.Hops {
		hp, next, err := e.hop(ctx, i, hop, base, st)
		if err != nil {
			return nil, err
		}
		e.plan.Hops = append(e.plan.Hops, *hp)
		st = next
	}
	e.dropLifted()
	slices.SortStableFunc(e.plan.Actions, func(a, b Action) int {
		return cmp.Or(a.at.Compare(b.at), cmp.Compare(a.phase, b.phase))
	})
	return e.plan, nil
}

// catalogs returns the catalogs of minor m, asking for them once.
func (e *engine) catalogs(ctx context.Context, m Minor, base *cluster.State) (*Catalogs, error) {
	if c := e.cache[m]; c != nil {
		return c, nil
	}
	c, err := e.at(ctx, m, base)
	if err != nil {
		return nil, err
	}
	e.cache[m] = c
	return c, nil
}

// release returns the release the cluster runs at hop i's From: the
// cluster's own at the first hop, the minor's .0 after.
func (e *engine) release(i int, m Minor) semver.Version {
	if i == 0 {
		return e.path.Current
	}
	return m.Version()
}

// nextStop returns the stop after minor m.
func (e *engine) nextStop(m Minor) Minor { return e.path.StopAfter(m.Next()) }

// hop plans hop i from state st: the gates at From and their lifts, then
// what OLM does at To. It returns the state after the hop.
func (e *engine) hop(ctx context.Context, i int, hop Hop, base, st *cluster.State) (*HopPlan, *cluster.State, error) {
	kube, _ := KubernetesMinor(hop.To)
	hp := &HopPlan{Hop: hop, Kubernetes: kube}
	from, err := e.catalogs(ctx, hop.From, base)
	if err != nil {
		return nil, nil, err
	}
	to, err := e.catalogs(ctx, hop.To, base)
	if err != nil {
		return nil, nil, err
	}
	hp.Sources = to.Sources
	when := e.before(i, hop)
	e.setTime(e.stopBefore(i, hop), phaseBefore)
	st, err = e.lift(ctx, hp, i, from, st, when)
	if err != nil {
		return nil, nil, err
	}
	next, after, err := e.after(ctx, to, st)
	if err != nil {
		return nil, nil, err
	}
	hp.After = after
	if e.opts.Mirror {
		if hp.Mirror, err = e.mirror(ctx, to, st, after); err != nil {
			return nil, nil, err
		}
		if hp.Mirror != nil && len(hp.Mirror.Catalogs)+len(hp.Mirror.Images) > 0 {
			e.act(Action{When: when, Kind: ActionMirror, Text: fmt.Sprintf("mirror the %s and %s the cluster needs at %s (mirror set)", countWord(len(hp.Mirror.Catalogs), "catalog image"), countWord(len(hp.Mirror.Images), "operator image"), hop.To)})
		}
	}
	e.strandedActions(when, hop.To, after)
	update := fmt.Sprintf("update the cluster to %s", hop.To)
	if hop.ControlPlaneOnly {
		update += fmt.Sprintf(" (Control Plane Only: worker pools stay paused until %s)", e.path.StopAfter(hop.To))
	}
	e.setTime(hop.From, phaseUpdate)
	e.act(Action{When: fmt.Sprintf("%s -> %s", hop.From, hop.To), Kind: ActionUpdate, Text: update})
	e.setTime(e.path.StopAfter(hop.To), phaseAt)
	at := fmt.Sprintf("at %s", hop.To)
	if hop.ControlPlaneOnly {
		at = fmt.Sprintf("at %s (seen at %s, passed without stopping)", e.path.StopAfter(hop.To), hop.To)
	}
	e.actionsAfter(at, after)
	if to.V1 != nil {
		next, hp.Extensions = e.v1Moves(to, next)
	}
	return hp, next, nil
}

// before says when an action before hop i is taken: before the hop, or,
// when the cluster passes hop.From without stopping, before it leaves the
// stop before.
func (e *engine) before(i int, hop Hop) string {
	stop := e.stopBefore(i, hop)
	if stop == hop.From {
		return fmt.Sprintf("before %s -> %s", hop.From, hop.To)
	}
	return fmt.Sprintf("before %s -> %s (for %s -> %s, passed without stopping)", stop, stop.Next(), hop.From, hop.To)
}

// act appends an action to the plan, at the time set last (setTime).
func (e *engine) act(a Action) {
	a.at, a.phase = e.tMinor, e.tPhase
	e.plan.Actions = append(e.plan.Actions, a)
}

// The phases of the actions at a minor.
const (
	phaseAt     = iota // what is seen once the cluster is at the minor
	phaseBefore        // what a person does there before leaving it
	phaseUpdate        // the update from it
)

// setTime sets when the next actions are taken.
func (e *engine) setTime(m Minor, phase int) { e.tMinor, e.tPhase = m, phase }

// stopBefore returns the stop the cluster leaves for hop i: hop.From, or
// the stop before it when the cluster passes hop.From without stopping.
func (e *engine) stopBefore(i int, hop Hop) Minor {
	if i == 0 || slices.Contains(e.path.Stops, hop.From) {
		return hop.From
	}
	stop := e.path.Stops[0]
	for _, s := range e.path.Stops {
		if s.Compare(hop.From) < 0 {
			stop = s
		}
	}
	return stop
}

// decide appends decision a unless the problem key was decided before.
func (e *engine) decide(key string, a Action) {
	if e.said[key] {
		return
	}
	e.said[key] = true
	a.Kind, a.Decision = ActionDecide, true
	e.act(a)
}

// after rolls out every namespace of st with c's catalogs, as OLM does by
// itself (no approval given): what moves, what waits, what fails. It
// returns the state OLM leaves.
func (e *engine) after(ctx context.Context, c *Catalogs, st *cluster.State) (*cluster.State, []Namespace, error) {
	var out []Namespace
	for _, ns := range resolver.Namespaces(st) {
		n, next, err := e.namespace(ctx, c, st, ns)
		if err != nil {
			return nil, nil, err
		}
		if n.Failed != nil && len(n.Stranded) > 0 {
			// What the namespace does once the stranded subscriptions are
			// dealt with: the first fix every one of them has, deleting
			// the subscription, is assumed from here on.
			alt := st.Clone()
			var names []string
			for _, s := range n.Stranded {
				names = append(names, s.Subscription)
				alt.Subscriptions = slices.DeleteFunc(alt.Subscriptions, func(x cluster.Subscription) bool { return x.Namespace == ns && x.Name == s.Subscription })
			}
			then, thenState, err := e.namespace(ctx, c, alt, ns)
			if err != nil {
				return nil, nil, err
			}
			if then.Failed == nil {
				then.Assuming = fmt.Sprintf("subscription %s deleted (the operator keeps running, no longer upgraded)", joinNames(names))
				if len(names) > 1 {
					then.Assuming = fmt.Sprintf("subscriptions %s deleted (the operators keep running, no longer upgraded)", joinNames(names))
				}
				n.Then, next = &then, thenState
				e.plan.Notes = appendOnce(e.plan.Notes, fmt.Sprintf("from %s on, the plan goes on in namespace %s with %s, the fix that changes least; the decision is yours", c.Minor, ns, then.Assuming))
			}
		}
		st = next
		if !n.empty() {
			out = append(out, n)
		}
	}
	return st, out, nil
}

// namespace rolls namespace ns out with c's catalogs, as OLM does by itself.
func (e *engine) namespace(ctx context.Context, c *Catalogs, st *cluster.State, ns string) (Namespace, *cluster.State, error) {
	n := Namespace{Namespace: ns}
	n.Stranded = e.stranded(c, st, ns)
	for i := range n.Stranded {
		// Each fix is tried with the namespace's other stranded
		// subscriptions out of the way, as if dealt with.
		others := st.Clone()
		for j, o := range n.Stranded {
			if j != i {
				others.Subscriptions = slices.DeleteFunc(others.Subscriptions, func(x cluster.Subscription) bool { return x.Namespace == ns && x.Name == o.Subscription })
			}
		}
		fixes, err := e.fixes(ctx, c, others, ns, &n.Stranded[i])
		if err != nil {
			return n, nil, err
		}
		n.Stranded[i].Fixes = fixes
	}
	ro, err := c.Resolver.Rollout(ctx, ns, st, resolver.RolloutOptions{MaxRounds: e.opts.MaxRounds})
	if err != nil && errCtx(ctx, err) {
		return n, nil, err
	}
	// A rollout that fails (err set) has its rounds before the failure.
	for _, rd := range ro.Rounds {
		if rd.Waiting {
			n.Waiting = rd.Plan.Steps
			continue
		}
		n.Automatic = append(n.Automatic, Round{Steps: rd.Plan.Steps})
	}
	n.Failures = e.failures(c, ro)
	if err != nil {
		n.Failed = e.failed(st, ns, n.Stranded, err)
	} else if ro.Outcome == resolver.RolloutSettled {
		stops, err := ro.Stops(ctx, resolver.HeldBackOptions{})
		if err != nil && errCtx(ctx, err) {
			return n, nil, err
		}
		for _, s := range stops {
			k := Stuck{Subscription: s.Subscription, Installed: s.CSV, Version: s.Version, Channel: s.Channel, Head: s.Head, HeadVersion: s.HeadVersion, Why: s.Reason}
			if k.Fixes, err = e.stuckFixes(ctx, c, ro.State(), ns, &k); err != nil {
				return n, nil, err
			}
			n.Stuck = append(n.Stuck, k)
		}
	}
	return n, ro.State(), nil
}

// stuckFixes returns the channels that move subscription k on from its
// installed CSV, each confirmed by rolling the namespace out with it.
func (e *engine) stuckFixes(ctx context.Context, c *Catalogs, st *cluster.State, ns string, k *Stuck) ([]Fix, error) {
	sub := st.Subscription(ns, k.Subscription)
	installed := st.CSV(ns, k.Installed)
	if sub == nil || installed == nil {
		return nil, nil
	}
	var out []Fix
	for _, p := range packagesOf(c, sub) {
		for _, ch := range p.Channels {
			if ch.Name == k.Channel || len(ch.Successors(installed.Name, installed.Version)) == 0 {
				continue
			}
			alt := st.Clone()
			alt.Subscription(ns, sub.Name).Channel = ch.Name
			ro, err := c.Resolver.Rollout(ctx, ns, alt, resolver.RolloutOptions{MaxRounds: e.opts.MaxRounds, Approve: true})
			if err != nil {
				if errCtx(ctx, err) {
					return nil, err
				}
				continue
			}
			if to := ro.State().Subscription(ns, sub.Name); to != nil && to.InstalledCSV != k.Installed {
				out = append(out, Fix{Kind: FixChannel, Channel: ch.Name, Text: fmt.Sprintf("switch subscription %s to channel %s: it upgrades to %s", sub.Name, ch.Name, to.InstalledCSV)})
			}
		}
	}
	return out, nil
}

// appendOnce appends s to list unless it holds it.
func appendOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// failures returns the failures predicted for the steps of ro's rounds and
// the CSVs that stay in its last state, once per CSV and reason, with the
// minKubeVersion of each against the minor's Kubernetes.
func (e *engine) failures(c *Catalogs, ro *resolver.Rollout) []Failure {
	var out []Failure
	seen := map[[2]string]bool{}
	add := func(csv string, p predict.Prediction) {
		k := [2]string{csv, string(p.Reason)}
		if !seen[k] {
			seen[k] = true
			out = append(out, Failure{CSV: csv, Prediction: p})
		}
	}
	kube, _ := KubernetesMinor(c.Minor)
	for _, rd := range ro.Rounds {
		for _, s := range rd.Plan.Steps {
			for _, p := range s.Predictions {
				add(s.Bundle, p)
			}
			if b := bundleOf(c, s); b != nil && b.CSVMetadata != nil {
				if p := minKube(s.Bundle, b.CSVMetadata.MinKubeVersion, c.Minor, kube); p != nil {
					add(s.Bundle, *p)
				}
			}
		}
	}
	if last := ro.Last(); last != nil && last.Plan() != nil {
		for _, u := range last.Plan().Unchanged {
			for _, p := range u.Predictions {
				add(u.CSV, p)
			}
		}
	}
	for _, csv := range ro.State().CSVs {
		if csv.Namespace == ro.Namespace && !csv.Copied {
			if p := minKube(csv.Name, csv.MinKubeVersion, c.Minor, kube); p != nil {
				add(csv.Name, *p)
			}
		}
	}
	return out
}

// minKube predicts OLM's requirement check of minKubeVersion on a server
// of Kubernetes minor kube, the one OpenShift minor ocp ships: the minor's
// first release (.0) is checked, and a minKubeVersion in the same minor
// but a later patch is said to depend on ocp's z-stream.
func minKube(name, min string, ocp, kube Minor) *predict.Prediction {
	p := predict.MinKube(name, min, kube.Version())
	if p == nil {
		return nil
	}
	if v, err := graph.ParseKubeVersion(min, false); err == nil && MinorOf(v) == kube {
		q := *p
		q.Severity = predict.SeverityWarning
		q.Message = fmt.Sprintf("%s needs Kubernetes %s: OpenShift %s ships Kubernetes %s, and its z-stream decides whether the server version meets minKubeVersion", name, min, ocp, kube)
		return &q
	}
	return p
}

// bundleOf returns the catalog bundle of step s, or nil.
func bundleOf(c *Catalogs, s resolver.Step) *graph.Bundle {
	for _, cat := range c.Catalogs {
		if cat.Key == s.Catalog {
			return cat.Catalog.Bundle(graph.BundleRef{Package: s.Package, Name: s.Bundle})
		}
	}
	return nil
}

// stranded returns the subscriptions of namespace ns that c's catalogs no
// longer serve, with OLM's reason.
func (e *engine) stranded(c *Catalogs, st *cluster.State, ns string) []Stranded {
	var out []Stranded
	for _, sub := range st.Subscriptions {
		if sub.Namespace != ns {
			continue
		}
		if s, ok := strandedSub(c, &sub); ok {
			out = append(out, s)
		}
	}
	return out
}

// strandedSub checks one subscription against c's catalogs, at the levels
// OLM checks them (resolver.go getSubscriptionVariables): its catalog, the
// package, the channel, and, when nothing is installed, the startingCSV.
func strandedSub(c *Catalogs, sub *cluster.Subscription) (Stranded, bool) {
	s := Stranded{Subscription: sub.Name, Package: sub.Package, Channel: sub.Channel, Installed: sub.InstalledCSV}
	key, named := resolver.SubscriptionCatalog(sub)
	var cats []*graph.Catalog
	for _, cat := range c.Catalogs {
		if !named || cat.Key == key {
			cats = append(cats, cat.Catalog)
		}
	}
	if named {
		s.Catalog = key.String()
	}
	var pkgs []*graph.Package
	for _, cat := range cats {
		if p := cat.Package(sub.Package); p != nil {
			pkgs = append(pkgs, p)
		}
	}
	hasChannel := sub.Channel == ""
	hasStart := sub.StartingCSV == "" || sub.InstalledCSV != ""
	for _, p := range pkgs {
		ch := p.Channel(sub.Channel)
		if sub.Channel == "" {
			ch = p.Default()
		}
		if ch != nil {
			hasChannel = true
			if _, ok := ch.Entry(sub.StartingCSV); ok {
				hasStart = true
			}
		}
	}
	switch {
	case named && len(cats) == 0:
		s.Kind = StrandedCatalog
		s.OLM = fmt.Sprintf("no operators found from catalog %s in namespace %s referenced by subscription %s", key.Name, key.Namespace, sub.Name)
	case len(pkgs) == 0:
		s.Kind = StrandedPackage
		s.OLM = fmt.Sprintf("no operators found in package %s in the catalog referenced by subscription %s", sub.Package, sub.Name)
	case !hasChannel:
		s.Kind = StrandedChannel
		s.OLM = fmt.Sprintf("no operators found in channel %s of package %s in the catalog referenced by subscription %s", sub.Channel, sub.Package, sub.Name)
	case !hasStart:
		s.Kind = StrandedStartingCSV
		s.OLM = fmt.Sprintf("no operators found with name %s in channel %s of package %s in the catalog referenced by subscription %s", sub.StartingCSV, sub.Channel, sub.Package, sub.Name)
	default:
		return s, false
	}
	return s, true
}

// failed describes a namespace whose resolution fails with err.
func (e *engine) failed(st *cluster.State, ns string, stranded []Stranded, err error) *Failed {
	f := &Failed{Explanation: err.Error(), BlastRadius: subscriptionsOf(st, ns)}
	if len(stranded) > 0 {
		f.OLM = fmt.Sprintf("constraints not satisfiable: %s, subscription %s exists", stranded[0].OLM, stranded[0].Subscription)
	}
	return f
}

// actionsAfter lists the approvals that wait at a minor (each once over
// the plan), and a decision for each failure and each subscription left
// below its head.
func (e *engine) actionsAfter(when string, nss []Namespace) {
	for _, n := range nss {
		if len(n.Waiting) > 0 {
			key := "wait/" + n.Namespace + "/" + stepsText(n.Waiting)
			if !e.said[key] {
				e.said[key] = true
				e.act(Action{When: when, Kind: ActionApproveAfter, Text: fmt.Sprintf("namespace %s: an InstallPlan waits for approval: %s (not needed for the cluster's update)", n.Namespace, stepsText(n.Waiting)), waits: n.Namespace + "/" + stepsText(n.Waiting)})
			}
		}
		for _, f := range n.Failures {
			if f.Prediction.Severity != predict.SeverityFailure {
				continue
			}
			e.decide("fail/"+n.Namespace+"/"+f.CSV+"/"+string(f.Prediction.Reason), Action{When: when, Text: fmt.Sprintf("namespace %s: OLM will fail %s: %s: %s", n.Namespace, f.CSV, f.Prediction.Reason, f.Prediction.Message)})
		}
		for _, s := range n.Stuck {
			a := Action{When: when, Text: fmt.Sprintf("namespace %s: %s", n.Namespace, s.words())}
			for _, f := range s.Fixes {
				a.Options = append(a.Options, f.Text)
			}
			e.decide("stuck/"+n.Namespace+"/"+s.Subscription+"/"+s.Installed, a)
		}
		if n.Then != nil {
			e.actionsAfter(when, []Namespace{*n.Then})
		}
	}
}

// stepsText names the steps of a plan: "cert-manager.v1.16.1 ->
// cert-manager.v1.16.5, install x.v1".
func stepsText(steps []resolver.Step) string {
	var b []byte
	for i, s := range steps {
		if i > 0 {
			b = append(b, ", "...)
		}
		if s.Replaces != "" {
			b = append(b, s.Replaces+" -> "+s.Bundle...)
		} else {
			b = append(b, "install "+s.Bundle...)
		}
	}
	return string(b)
}

// mirror computes the mirror set of state with the catalogs of c, on the
// state the plan goes on from: the stranded subscriptions of a namespace
// that resolves without them (after) deleted, as Mirror.Assuming says. An
// incomplete set says why in Mirror.Error; the error returned is ctx's.
func (e *engine) mirror(ctx context.Context, c *Catalogs, st *cluster.State, after []Namespace) (*Mirror, error) {
	m := &Mirror{Catalogs: slices.Clone(c.Images), Images: []string{}}
	var assumed []string
	for _, n := range after {
		if n.Then == nil {
			continue
		}
		if len(assumed) == 0 {
			st = st.Clone()
		}
		for _, s := range n.Stranded {
			assumed = append(assumed, n.Namespace+"/"+s.Subscription)
			st.Subscriptions = slices.DeleteFunc(st.Subscriptions, func(x cluster.Subscription) bool {
				return x.Namespace == n.Namespace && x.Name == s.Subscription
			})
		}
	}
	switch len(assumed) {
	case 0:
	case 1:
		m.Assuming = fmt.Sprintf("subscription %s deleted, as the plan goes on", assumed[0])
	default:
		m.Assuming = fmt.Sprintf("subscriptions %s deleted, as the plan goes on", joinNames(assumed))
	}
	set, err := mirrorSet(ctx, c, st, e.opts.MaxRounds)
	if err != nil {
		if errCtx(ctx, err) {
			return nil, err
		}
		// The set of the rollouts that did not fail comes with the error.
		m.Error = err.Error()
	}
	if set != nil {
		m.Images = set.Images()
	}
	return m, nil
}

// mirrorSet is mirror.Compute of the world of state st with the catalogs
// of c, every namespace rolled out.
func mirrorSet(ctx context.Context, c *Catalogs, st *cluster.State, maxRounds int) (*mirror.Set, error) {
	in := sextant.Input{State: st, AllNamespaces: true, GlobalNamespace: c.Options.GlobalNamespace}
	for _, cat := range c.Catalogs {
		in.Catalogs = append(in.Catalogs, sextant.CatalogInput{Name: cat.Key.Name, Namespace: cat.Key.Namespace, Catalog: cat.Catalog})
	}
	o := c.Options
	w, err := sextant.Load(ctx, in, sextant.Options{CEL: o.CEL, KubeVersion: o.KubeVersion, OpenShiftVersion: o.OpenShiftVersion,
		SemverUpgrades: o.SemverUpgrades, SemverAllowMajor: o.SemverAllowMajor, AllowInvalid: o.AllowInvalid, Tracer: o.Tracer})
	if err != nil {
		return nil, err
	}
	return mirror.Compute(ctx, w, mirror.Request{}, mirror.Options{MaxRounds: maxRounds})
}

// resolverOptions returns the options c's resolver was built with.
func resolverOptions(c *Catalogs) resolver.Options { return c.Options }

// errCtx reports an error that is ctx's.
func errCtx(ctx context.Context, err error) bool {
	return ctx.Err() != nil && errors.Is(err, ctx.Err())
}

// dropLifted drops the approvals said to wait that a lift approves
// anyway (an InstallPlan waiting now or at a minor, that a lift's rounds
// carry out).
func (e *engine) dropLifted() {
	approved := map[string]bool{}
	for _, h := range e.plan.Hops {
		for _, l := range h.Lifts {
			for _, rd := range l.Rounds {
				approved[l.Namespace+"/"+stepsText(rd.Steps)] = true
			}
		}
	}
	e.plan.Actions = slices.DeleteFunc(e.plan.Actions, func(a Action) bool {
		return a.Kind == ActionApproveAfter && approved[a.waits]
	})
}

// notesNow records what is wrong already with the catalogs the cluster has
// now: it does not block the update, and is said as a note; approvals
// waiting now are listed as actions.
func (e *engine) notesNow(m Minor, nss []Namespace) {
	for _, n := range nss {
		if len(n.Waiting) > 0 {
			e.act(Action{When: fmt.Sprintf("now, at %s", m), Kind: ActionApproveAfter, Text: fmt.Sprintf("namespace %s: an InstallPlan waits for approval: %s (not needed for the cluster's update)", n.Namespace, stepsText(n.Waiting)), waits: n.Namespace + "/" + stepsText(n.Waiting)})
		}
		for _, f := range n.Failures {
			e.plan.Notes = append(e.plan.Notes, fmt.Sprintf("now, at %s: namespace %s: OLM fails %s: %s", m, n.Namespace, f.CSV, f.Prediction.Message))
		}
		for _, s := range n.Stranded {
			e.plan.Notes = append(e.plan.Notes, fmt.Sprintf("now, at %s: namespace %s: subscription %s: %s", m, n.Namespace, s.Subscription, s.OLM))
		}
		for _, s := range n.Stuck {
			e.plan.Notes = append(e.plan.Notes, fmt.Sprintf("now, at %s: namespace %s: %s", m, n.Namespace, s.words()))
		}
	}
}

// strandedActions lists, before a hop, a decision for each subscription
// the next minor's catalogs strand, with its confirmed fixes.
func (e *engine) strandedActions(when string, to Minor, nss []Namespace) {
	for _, n := range nss {
		for _, s := range n.Stranded {
			text := fmt.Sprintf("namespace %s: subscription %s: %s at %s (OLM: %q)", n.Namespace, s.Subscription, strandedWords(s), to, s.OLM)
			if n.Failed != nil && len(n.Failed.BlastRadius) > 1 {
				text += fmt.Sprintf("; every subscription of the namespace stops resolving: %s", joinNames(n.Failed.BlastRadius))
			}
			a := Action{When: when, Text: text}
			for _, f := range s.Fixes {
				a.Options = append(a.Options, f.Text)
			}
			e.decide("stranded/"+n.Namespace+"/"+s.Subscription+"/"+string(s.Kind), a)
		}
	}
}

// strandedWords says what a stranded subscription lost.
func strandedWords(s Stranded) string {
	switch s.Kind {
	case StrandedCatalog:
		return fmt.Sprintf("its catalog %s serves nothing", s.Catalog)
	case StrandedPackage:
		return fmt.Sprintf("package %s is gone from its catalog", s.Package)
	case StrandedChannel:
		return fmt.Sprintf("channel %s is gone from package %s", s.Channel, s.Package)
	default:
		return "its startingCSV is gone from its channel"
	}
}

func joinNames(names []string) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}

// fixes returns the changes that let namespace ns resolve again despite
// stranded subscription s, each confirmed by resolving with c's catalogs:
// another channel of its package that holds its installed CSV or an
// upgrade of it, another catalog that has the package, removing the
// subscription (the operator stays, no longer upgraded), uninstalling it.
func (e *engine) fixes(ctx context.Context, c *Catalogs, st *cluster.State, ns string, s *Stranded) ([]Fix, error) {
	sub := st.Subscription(ns, s.Subscription)
	var out []Fix
	try := func(f Fix, change func(*cluster.State)) error {
		alt := st.Clone()
		change(alt)
		_, err := c.Resolver.Resolve(ctx, ns, alt)
		if errCtx(ctx, err) {
			return err
		}
		if err == nil {
			out = append(out, f)
		}
		return nil
	}
	installed := st.CSV(ns, sub.InstalledCSV)
	for _, p := range packagesOf(c, sub) {
		for _, ch := range p.Channels {
			if ch.Name == sub.Channel {
				continue
			}
			if installed != nil {
				if _, in := ch.Entry(installed.Name); !in && len(ch.Successors(installed.Name, installed.Version)) == 0 {
					continue
				}
			}
			f := Fix{Kind: FixChannel, Channel: ch.Name, Text: fmt.Sprintf("switch subscription %s to channel %s", sub.Name, ch.Name)}
			if err := try(f, func(a *cluster.State) { a.Subscription(ns, sub.Name).Channel = ch.Name }); err != nil {
				return nil, err
			}
		}
	}
	key, _ := resolver.SubscriptionCatalog(sub)
	for _, cat := range c.Catalogs {
		if cat.Key == key || cat.Catalog.Package(sub.Package) == nil {
			continue
		}
		f := Fix{Kind: FixResource, Catalog: cat.Key.String(), Text: fmt.Sprintf("re-source subscription %s to catalog %s (spec.source %s, spec.sourceNamespace %s)", sub.Name, cat.Key, cat.Key.Name, cat.Key.Namespace)}
		if err := try(f, func(a *cluster.State) {
			x := a.Subscription(ns, sub.Name)
			x.Source, x.SourceNamespace = cat.Key.Name, cat.Key.Namespace
		}); err != nil {
			return nil, err
		}
	}
	if sub.InstalledCSV != "" {
		f := Fix{Kind: FixUnmanage, Text: fmt.Sprintf("delete subscription %s: %s keeps running, no longer upgraded", sub.Name, sub.InstalledCSV)}
		if err := try(f, func(a *cluster.State) {
			a.Subscriptions = slices.DeleteFunc(a.Subscriptions, func(x cluster.Subscription) bool { return x.Namespace == ns && x.Name == sub.Name })
		}); err != nil {
			return nil, err
		}
	}
	f := Fix{Kind: FixUninstall, Text: fmt.Sprintf("uninstall %s: delete subscription %s and its CSV", sub.Package, sub.Name)}
	if err := try(f, func(a *cluster.State) { removeOperator(a, ns, sub.Name) }); err != nil {
		return nil, err
	}
	return out, nil
}
