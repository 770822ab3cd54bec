package openshift

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

// lift computes the gates at hop i's From on st, lifts every blocker with
// the catalogs of From, and returns the state after the lifts.
func (e *engine) lift(ctx context.Context, hp *HopPlan, i int, from *Catalogs, st *cluster.State, when string) (*cluster.State, error) {
	release := e.release(i, hp.From)
	need := hp.To
	if i == 0 || slices.Contains(e.path.Stops, hp.From) {
		need = e.nextStop(hp.From)
	}
	before := Minor{need.Major, need.Minor - 1}.Version()
	hp.Gates = append(hp.Gates, GateV0(release, st.CSVs))
	v0 := hp.Gates[0].Blockers
	if need != hp.To {
		for _, b := range GateV0(before, st.CSVs).Blockers {
			if !slices.ContainsFunc(v0, func(x Blocker) bool { return x.Namespace == b.Namespace && x.Name == b.Name }) {
				hp.Ahead = append(hp.Ahead, b)
				v0 = append(v0, b)
			}
		}
	}
	var v1 []Blocker
	if len(st.ClusterExtensions) > 0 && from.V1 != nil {
		g := GateV1(release, extensionsOf(from, st))
		hp.Gates = append(hp.Gates, g)
		v1 = g.Blockers
		if need != hp.To {
			for _, b := range GateV1(before, extensionsOf(from, st)).Blockers {
				if !slices.ContainsFunc(v1, func(x Blocker) bool { return x.Name == b.Name }) {
					hp.Ahead = append(hp.Ahead, b)
					v1 = append(v1, b)
				}
			}
		}
	}
	for _, b := range v0 {
		l, next, err := e.liftV0(ctx, from, st, b, need, hp.To)
		if err != nil {
			return nil, err
		}
		hp.Lifts = append(hp.Lifts, l)
		st = next
		e.liftAction(when, hp, l)
	}
	for _, b := range v1 {
		l, next := e.liftV1(from, st, b, need, hp.To)
		hp.Lifts = append(hp.Lifts, l)
		st = next
		e.liftAction(when, hp, l)
	}
	hp.Open = GateV0(release, st.CSVs).Open() && (from.V1 == nil || len(st.ClusterExtensions) == 0 || GateV1(release, extensionsOf(from, st)).Open())
	return st, nil
}

// compatible reports whether CSV name of namespace ns in st supports minor
// need: no olm.maxOpenShiftVersion, or a valid one at least need. It
// returns the value ("" for none).
func compatible(st *cluster.State, ns, name string, need Minor) (max string, ok bool) {
	c := st.CSV(ns, name)
	if c == nil {
		return "", false
	}
	m := c.Properties.Typed().MaxOpenShiftVersion
	switch {
	case m == nil:
		return "", true
	case m.Err != nil:
		return m.Text, false
	}
	return m.Text, m.Version.GTE(need.Version())
}

// subscriptionOf returns the subscription of namespace ns that installed
// CSV csv, or nil.
func subscriptionOf(st *cluster.State, ns, csv string) *cluster.Subscription {
	for i := range st.Subscriptions {
		s := &st.Subscriptions[i]
		if s.Namespace == ns && (s.InstalledCSV == csv || s.CurrentCSV == csv) {
			return s
		}
	}
	return nil
}

// liftV0 lifts v0 blocker b: the rounds of its namespace's rollout (every
// InstallPlan approved) up to the first that leaves its subscription's CSV
// compatible with need (else with to: the gate then blocks again at the
// next minor); else a switch to another channel whose head is compatible;
// else nothing.
func (e *engine) liftV0(ctx context.Context, c *Catalogs, st *cluster.State, b Blocker, need, to Minor) (Lift, *cluster.State, error) {
	l := Lift{Blocker: b, Need: need, Namespace: b.Namespace, Kind: LiftNone}
	sub := subscriptionOf(st, b.Namespace, b.Name)
	if sub == nil {
		l.Why = fmt.Sprintf("no subscription of namespace %s manages %s, so OLM never upgrades it; removing the CSV opens the gate", b.Namespace, b.Name)
		return l, st, nil
	}
	l.Subscription, l.Package = sub.Name, sub.Package
	for _, want := range []Minor{need, to} {
		if r, next, ok, err := e.rollTo(ctx, c, st, sub.Name, b.Namespace, want); err != nil {
			return l, st, err
		} else if ok {
			l.Kind, l.Need = LiftUpgrade, want
			l.fill(r, next, b.Namespace, sub.Name)
			return l, next, nil
		}
		for _, ch := range e.channelsFor(c, sub, want) {
			alt := st.Clone()
			alt.Subscription(sub.Namespace, sub.Name).Channel = ch
			if r, next, ok, err := e.rollTo(ctx, c, alt, sub.Name, b.Namespace, want); err != nil {
				return l, st, err
			} else if ok {
				l.Kind, l.Need, l.Channel = LiftChannel, want, ch
				l.fill(r, next, b.Namespace, sub.Name)
				return l, next, nil
			}
		}
		if want == to {
			break
		}
	}
	why, err := e.noLift(ctx, c, st, sub, need)
	if err != nil {
		return l, st, err
	}
	l.Why = why
	return l, st, nil
}

// fill records the rounds of a lift and where it ends.
func (l *Lift) fill(rounds []resolver.Round, st *cluster.State, ns, sub string) {
	for _, rd := range rounds {
		l.Rounds = append(l.Rounds, Round{Steps: rd.Plan.Steps, Approve: rd.Approved})
		if rd.Approved {
			l.Approvals++
		}
	}
	if s := st.Subscription(ns, sub); s != nil {
		l.To = s.InstalledCSV
		l.Max, _ = compatible(st, ns, s.InstalledCSV, Minor{})
	}
}

// rollTo rolls namespace ns out with every InstallPlan approved and
// returns the rounds up to the first state where subscription sub's CSV
// supports need.
func (e *engine) rollTo(ctx context.Context, c *Catalogs, st *cluster.State, sub, ns string, need Minor) ([]resolver.Round, *cluster.State, bool, error) {
	ro, err := c.Resolver.Rollout(ctx, ns, st, resolver.RolloutOptions{MaxRounds: e.opts.MaxRounds, Approve: true})
	if err != nil && errCtx(ctx, err) {
		return nil, nil, false, err
	}
	// A rollout that fails at some round still has its rounds before it:
	// one of them may reach a compatible CSV.
	for i, rd := range ro.Rounds {
		s := rd.State.Subscription(ns, sub)
		if s == nil {
			continue
		}
		if _, ok := compatible(rd.State, ns, s.InstalledCSV, need); ok {
			return ro.Rounds[:i+1], rd.State, true, nil
		}
	}
	return nil, nil, false, nil
}

// channelsFor returns the channels of sub's package, in its catalog at c,
// other than its own, whose head supports need: the default channel
// first, then by name.
func (e *engine) channelsFor(c *Catalogs, sub *cluster.Subscription, need Minor) []string {
	var out []string
	for _, p := range packagesOf(c, sub) {
		chans := slices.Clone(p.Channels)
		slices.SortStableFunc(chans, func(a, b *graph.Channel) int {
			return cmp.Or(-cmp.Compare(boolInt(a.Name == p.DefaultChannel), boolInt(b.Name == p.DefaultChannel)), cmp.Compare(a.Name, b.Name))
		})
		for _, ch := range chans {
			head, ok := ch.Head()
			if !ok || ch.Name == sub.Channel || (sub.Channel == "" && ch.Name == p.DefaultChannel) || slices.Contains(out, ch.Name) {
				continue
			}
			if b := p.Bundle(head); b != nil && bundleSupports(b, need) {
				out = append(out, ch.Name)
			}
		}
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// bundleSupports reports whether catalog bundle b supports minor need.
func bundleSupports(b *graph.Bundle, need Minor) bool {
	m := b.MaxOpenShiftVersion
	return m == nil || (m.Err == nil && m.Version.GTE(need.Version()))
}

// packagesOf returns sub's package in each catalog of c it may take
// bundles from.
func packagesOf(c *Catalogs, sub *cluster.Subscription) []*graph.Package {
	key, named := resolver.SubscriptionCatalog(sub)
	var out []*graph.Package
	for _, cat := range c.Catalogs {
		if named && cat.Key != key {
			continue
		}
		if p := cat.Catalog.Package(sub.Package); p != nil {
			out = append(out, p)
		}
	}
	return out
}

// noLift says why nothing lifts a blocker of sub's package.
// The error is ctx's, when it ended.
func (e *engine) noLift(ctx context.Context, c *Catalogs, st *cluster.State, sub *cluster.Subscription, need Minor) (string, error) {
	var newest *graph.Bundle
	for _, p := range packagesOf(c, sub) {
		for _, b := range p.Bundles {
			if newest == nil || b.Version.GT(newest.Version) {
				newest = b
			}
		}
	}
	why := fmt.Sprintf("no upgrade of subscription %s reaches a version of %s that supports OpenShift %s", sub.Name, sub.Package, need)
	if newest != nil {
		if m := newest.MaxOpenShiftVersion; m != nil {
			why += fmt.Sprintf(" (the newest in its catalogs at %s, %s, declares olm.maxOpenShiftVersion %s)", c.Minor, newest.Name, m.Text)
		} else {
			why += fmt.Sprintf(" (the newest in its catalogs at %s is %s)", c.Minor, newest.Name)
		}
	}
	alt := st.Clone()
	removeOperator(alt, sub.Namespace, sub.Name)
	switch _, err := c.Resolver.Resolve(ctx, sub.Namespace, alt); {
	case err != nil && errCtx(ctx, err):
		return "", err
	case err == nil:
		why += fmt.Sprintf("; uninstalling it (subscription %s and its CSV) opens the gate, and namespace %s still resolves", sub.Name, sub.Namespace)
	default:
		why += fmt.Sprintf("; uninstalling it opens the gate, but namespace %s then does not resolve: %v", sub.Namespace, err)
	}
	return why, nil
}

// removeOperator removes subscription sub of namespace ns and its CSVs
// from st.
func removeOperator(st *cluster.State, ns, sub string) {
	s := st.Subscription(ns, sub)
	if s == nil {
		return
	}
	csvs := []string{s.InstalledCSV, s.CurrentCSV}
	st.Subscriptions = slices.DeleteFunc(st.Subscriptions, func(x cluster.Subscription) bool { return x.Namespace == ns && x.Name == sub })
	st.CSVs = slices.DeleteFunc(st.CSVs, func(c cluster.CSV) bool { return c.Namespace == ns && c.Name != "" && slices.Contains(csvs, c.Name) })
}

// liftAction adds the actions of lift l.
func (e *engine) liftAction(when string, hp *HopPlan, l Lift) {
	who := l.Blocker.Name
	if l.Blocker.Namespace != "" {
		who = l.Blocker.Namespace + "/" + l.Blocker.Name
	}
	pause := ""
	if l.Need != e.nextStop(hp.From) && l.Need == hp.To && hp.ControlPlaneOnly {
		pause = fmt.Sprintf("; it supports only up to %s: the next lift is made at %s, before the update to %s", l.Max, hp.To, hp.To.Next())
	}
	if l.Kind != LiftNone && !slices.Contains(e.path.Stops, hp.From) {
		// A lift at a minor passed as a Control Plane Only update takes
		// that minor's catalogs: it is done there, between the two
		// updates, the control plane and OLM at that minor.
		when = fmt.Sprintf("at %s, before %s -> %s (the control plane and OLM at %s, worker pools paused)", hp.From, hp.From, hp.To, hp.From)
		defer e.setTime(e.tMinor, e.tPhase)
		e.setTime(hp.From, phaseBefore)
	}
	switch l.Kind {
	case LiftUpgrade, LiftChannel:
		if l.Kind == LiftChannel {
			e.act(Action{When: when, Kind: ActionSwitchChannel, Text: fmt.Sprintf("switch subscription %s/%s to channel %s, so that %s can reach a version supporting OpenShift %s", l.Namespace, l.Subscription, l.Channel, who, l.Need)})
		}
		switch {
		case l.Approvals == 0:
			e.act(Action{When: when, Kind: ActionApprove, Text: fmt.Sprintf("namespace %s: let OLM upgrade %s to %s (automatic, %s)%s", l.Namespace, who, l.To, countWord(len(l.Rounds), "InstallPlan"), pause)})
		case l.Approvals == 1 && len(l.Rounds) == 1:
			e.act(Action{When: when, Kind: ActionApprove, Text: fmt.Sprintf("namespace %s: approve the InstallPlan %s%s", l.Namespace, stepsText(l.Rounds[0].Steps), pause)})
		default:
			e.act(Action{When: when, Kind: ActionApprove, Text: fmt.Sprintf("namespace %s: approve %s in turn (each waits for the one before), %s up to %s (the steps are listed under the hop)%s", l.Namespace, countWord(l.Approvals, "InstallPlan"), who, l.To, pause)})
		}
	case LiftV1Version:
		supports := fmt.Sprintf(", which supports OpenShift %s", l.Need)
		if pause != "" {
			supports = pause
		}
		e.act(Action{When: when, Kind: ActionSetVersion, Text: fmt.Sprintf("set ClusterExtension %s's spec.source.catalog.version to %s (and no channels): OLM v1 then installs %s%s", l.Extension, l.Version, l.To, supports)})
	case LiftV1Upgrade:
		e.act(Action{When: when, Kind: ActionApprove, Text: fmt.Sprintf("let OLM v1 upgrade ClusterExtension %s to %s (automatic)%s", l.Extension, l.To, pause)})
	case LiftNone:
		e.decide("blocker/"+who, Action{When: when, Text: fmt.Sprintf("%s blocks the update to %s (%s): %s", who, hp.To, l.Blocker.Message, l.Why)})
	}
}

// extensionsOf returns the ClusterExtensions of st with an installed
// bundle, each with the properties its bundle has in c's v1 catalogs.
func extensionsOf(c *Catalogs, st *cluster.State) []Extension {
	var out []Extension
	for _, ext := range st.ClusterExtensions {
		if ext.Installed == nil {
			continue
		}
		x := Extension{Name: ext.Name, Bundle: ext.Installed.Name}
		if b := v1Bundle(c, ext.Package, ext.Installed.Name); b != nil {
			x.Properties = b.Properties
		}
		out = append(out, x)
	}
	return out
}

// v1Bundle returns bundle name of package pkg in c's v1 catalogs, or nil.
func v1Bundle(c *Catalogs, pkg, name string) *graph.Bundle {
	if c.V1 == nil {
		return nil
	}
	for _, cat := range c.V1.Catalogs() {
		if cat.Content == nil {
			continue
		}
		if p := cat.Content.Package(pkg); p != nil {
			if b := p.Bundle(name); b != nil {
				return b
			}
		}
	}
	return nil
}

// v1Compatible reports whether bundle b supports minor need by v1's rule
// (its maxOpenShiftVersion above the minor before need).
func v1Compatible(b *graph.Bundle, need Minor) bool {
	g := GateV1(Minor{need.Major, need.Minor - 1}.Version(), []Extension{{Name: "x", Bundle: b.Name, Properties: b.Properties}})
	return g.Open()
}

// liftV1 lifts v1 blocker b: the upgrades OLM v1 makes by itself with c's
// catalogs, else a version that makes it install a compatible bundle.
func (e *engine) liftV1(c *Catalogs, st *cluster.State, b Blocker, need, to Minor) (Lift, *cluster.State) {
	l := Lift{Blocker: b, Need: need, Extension: b.Name, Kind: LiftNone}
	ext := st.ClusterExtension(b.Name)
	if ext == nil || ext.Installed == nil {
		l.Why = "the ClusterExtension has no installed bundle"
		return l, st
	}
	l.Package = ext.Package
	for _, want := range []Minor{need, to} {
		installed := ext.Installed
		for hop := 0; hop < 20; hop++ {
			bundle, _, err := c.V1.Choose(ext, installed)
			if err != nil || bundle.Name == installed.Name {
				break
			}
			installed = &cluster.InstalledBundle{Name: bundle.Name, Version: bundle.VersionText}
			if v1Compatible(bundle, want) {
				next := st.Clone()
				next.ClusterExtension(ext.Name).Installed = installed
				l.Kind, l.Need, l.To = LiftV1Upgrade, want, bundle.Name
				if bundle.MaxOpenShiftVersion != nil {
					l.Max = bundle.MaxOpenShiftVersion.Text
				}
				return l, next
			}
		}
		var cands []*graph.Bundle
		for _, cat := range c.V1.Catalogs() {
			if cat.Content == nil {
				continue
			}
			if p := cat.Content.Package(ext.Package); p != nil {
				for _, bb := range p.Bundles {
					if v1Compatible(bb, want) && bb.Version.GT(mustVersion(ext.Installed.Version)) {
						cands = append(cands, bb)
					}
				}
			}
		}
		slices.SortStableFunc(cands, func(x, y *graph.Bundle) int { return x.Version.Compare(y.Version) })
		for _, cand := range cands {
			// The range of the candidate's minor first (later patches
			// welcome), else its version alone.
			for _, version := range []string{fmt.Sprintf("~%d.%d", cand.Version.Major, cand.Version.Minor), cand.VersionText} {
				alt := *ext
				alt.Version, alt.Channels = version, nil
				bundle, _, err := c.V1.Choose(&alt, ext.Installed)
				if err != nil || !v1Compatible(bundle, want) {
					continue
				}
				next := st.Clone()
				x := next.ClusterExtension(ext.Name)
				x.Version, x.Channels = version, nil
				x.Installed = &cluster.InstalledBundle{Name: bundle.Name, Version: bundle.VersionText}
				l.Kind, l.Need, l.To, l.Version = LiftV1Version, want, bundle.Name, version
				if bundle.MaxOpenShiftVersion != nil {
					l.Max = bundle.MaxOpenShiftVersion.Text
				}
				return l, next
			}
		}
		if want == to {
			break
		}
	}
	l.Why = fmt.Sprintf("no bundle of %s that OLM v1 can install from %s supports OpenShift %s; deleting the ClusterExtension opens the gate", ext.Package, ext.Installed.Name, need)
	return l, st
}

func mustVersion(s string) semver.Version {
	v, _ := semver.ParseTolerant(s)
	return v
}

// v1Moves applies what OLM v1 does by itself with c's catalogs: each
// extension upgrades hop by hop (one per catalog poll) until it stays.
func (e *engine) v1Moves(c *Catalogs, st *cluster.State) (*cluster.State, []ExtensionMove) {
	next := st.Clone()
	var out []ExtensionMove
	for i := range next.ClusterExtensions {
		ext := &next.ClusterExtensions[i]
		m := ExtensionMove{Name: ext.Name}
		if ext.Installed != nil {
			m.From = ext.Installed.Name
		}
		for hop := 0; hop < 20; hop++ {
			bundle, _, err := c.V1.Choose(ext, ext.Installed)
			if err != nil {
				m.Error = err.Error()
				break
			}
			if ext.Installed != nil && bundle.Name == ext.Installed.Name {
				break
			}
			ext.Installed = &cluster.InstalledBundle{Name: bundle.Name, Version: bundle.VersionText}
			m.To, m.Hops = bundle.Name, m.Hops+1
		}
		if m.To != "" || m.Error != "" {
			out = append(out, m)
		}
	}
	return next, out
}
