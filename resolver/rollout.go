package resolver

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

// ErrRoundLimit is wrapped by the error Rollout returns when the cluster has
// not settled within the round limit.
var ErrRoundLimit = errors.New("rollout did not settle within the round limit")

// Round is one resolution of a rollout: its plan and the cluster state
// after the plan is applied.
type Round struct {
	Plan  *Plan
	State *cluster.State
	// Approved reports that the plan waited for approval (Plan.Waits) and
	// was approved because RolloutOptions.Approve is set: one approval a
	// person gives in a real cluster.
	Approved bool
	// Waiting reports that the plan waits for approval and was not
	// applied: the rollout stops here and State is the state it waits in.
	// Only the last round can be waiting.
	Waiting bool
}

// RolloutOptions tunes a rollout. The zero value simulates no round and
// approves nothing.
type RolloutOptions struct {
	// MaxRounds is the most plans applied.
	MaxRounds int
	// Approve approves every plan that waits for approval (an InstallPlan
	// that is Manual because a subscription of the namespace is Manual),
	// as a person approving each one would.
	Approve bool
	// Stop, if not nil, is asked before each plan that changes something
	// is applied, with the state it applies to (the caller must not
	// modify either): true ends the rollout there, the plan not applied,
	// with the outcome RolloutStopped and a nil error. A caller stops a
	// rollout that leaves the versions it follows, or that comes back to
	// a state it was in (a subscription without a channel can hop between
	// channels for ever, as OLM does).
	Stop func(state *cluster.State, plan *Plan) bool
}

// RolloutOutcome is how a rollout ends.
type RolloutOutcome string

// The outcomes of a rollout.
const (
	// RolloutSettled: a plan has nothing left to do.
	RolloutSettled RolloutOutcome = "settled"
	// RolloutWaiting: a plan waits for a person's approval
	// (RolloutOptions.Approve is not set).
	RolloutWaiting RolloutOutcome = "waiting"
	// RolloutFailed: a round has no plan, or the rounds ran out
	// (Rollout.Err says which).
	RolloutFailed RolloutOutcome = "failed"
	// RolloutStopped: RolloutOptions.Stop ended it before a plan.
	RolloutStopped RolloutOutcome = "stopped"
)

// Rollout is what a namespace goes through until it settles (see
// Resolver.Rollout): the rounds that changed something, how it ended, and
// the resolution of its last state, which answers the follow-ups (Last).
type Rollout struct {
	// Namespace is the namespace rolled out.
	Namespace string
	// Rounds are the rounds that changed something, in order, and a last
	// Waiting round when the rollout waits for approval.
	Rounds []Round
	// Outcome is how it ended.
	Outcome RolloutOutcome
	// MaxRounds is the round limit it ran with.
	MaxRounds int
	err       error
	last      *Resolution // of the final state; nil when the limit was reached
	final     *cluster.State
}

// Err returns why a failed rollout failed (the round's *ConflictError,
// *StuckError, …, or an error wrapping ErrRoundLimit), or nil.
func (ro *Rollout) Err() error { return ro.err }

// Last returns the resolution of the last state the rollout reached: the
// settled namespace's (with nothing to do), the plan that waits for
// approval, the plan a Stop ended it before, or the round without a plan
// (Explain it). It is nil when the
// round limit was reached.
func (ro *Rollout) Last() *Resolution { return ro.last }

// State returns a copy of the last state the rollout reached: the state of
// the last round that changed something, the input state when none did.
func (ro *Rollout) State() *cluster.State { return ro.final.Clone() }

// Approvals counts the rounds that were approved (RolloutOptions.Approve).
func (ro *Rollout) Approvals() int {
	n := 0
	for _, r := range ro.Rounds {
		if r.Approved {
			n++
		}
	}
	return n
}

// Stops says where a settled rollout leaves subscriptions below their
// channels' heads, and why (Resolution.Stops of its last state); nil when
// it did not settle.
func (ro *Rollout) Stops(ctx context.Context, opts HeldBackOptions) ([]Stop, error) {
	if ro.Outcome != RolloutSettled || ro.last == nil {
		return nil, nil
	}
	return ro.last.Stops(ctx, opts)
}

// Rollout simulates what the cluster will go through: it resolves
// namespace, applies the plan as OLM would (see [Resolution.Apply]) and
// repeats until a plan changes nothing (no steps, nothing in flight to
// finish) or opts.MaxRounds plans were applied. Its Rounds are the rounds
// that changed something, in order (none when the state is already
// settled). A plan that waits for approval stops the rollout unless
// opts.Approve is set: it is the last round, Waiting, and the outcome is
// RolloutWaiting with a nil error — a cluster waiting for a person is a
// state, not a failure. When a resolution fails, or the limit is reached
// first (at once when MaxRounds <= 0 and there is something to do), the
// outcome is RolloutFailed and Rollout returns the rollout so far and that
// error (wrapping ErrRoundLimit for the limit). When ctx ends first it
// returns a nil Rollout and an error e with errors.Is(e, ctx.Err()).
// Rollout copies state: the caller may change it afterwards.
func (r *Resolver) Rollout(ctx context.Context, namespace string, state *cluster.State, opts RolloutOptions) (*Rollout, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cur, err := snapshot(ctx, state)
	if err != nil {
		return nil, err
	}
	ro := &Rollout{Namespace: namespace, MaxRounds: opts.MaxRounds, final: cur}
	fail := func(err error) (*Rollout, error) {
		if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
			return nil, err
		}
		ro.Outcome, ro.err = RolloutFailed, err
		ro.own()
		return ro, err
	}
	for {
		s, err := r.solve(ctx, namespace, cur, nil)
		if err != nil {
			ro.last = s // the round without a plan, to explain
			return fail(err)
		}
		ro.last = s
		plan := s.plan
		if !changes(plan) {
			ro.Outcome = RolloutSettled
			ro.own()
			return ro, nil
		}
		if opts.Stop != nil && opts.Stop(cur, plan) {
			ro.Outcome = RolloutStopped
			ro.own()
			return ro, nil
		}
		waits := plan.Waits()
		if waits && !opts.Approve {
			ro.Rounds = append(ro.Rounds, Round{Plan: plan.Clone(), State: cur.Clone(), Waiting: true})
			ro.Outcome = RolloutWaiting
			return ro, nil
		}
		if len(ro.Rounds) >= opts.MaxRounds {
			ro.last = nil
			return fail(fmt.Errorf("namespace %q: %w (%d)", namespace, ErrRoundLimit, opts.MaxRounds))
		}
		next, err := r.apply(cur, plan)
		if err != nil {
			return fail(err)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// The rounds' plans and states are the caller's: only the last
		// state is kept by a Resolution (Last), and it is copied below.
		ro.Rounds = append(ro.Rounds, Round{Plan: plan, State: next, Approved: waits})
		cur = next
		ro.final = cur
	}
}

// own gives the caller a last round of its own: its state is the one the
// last Resolution keeps.
func (ro *Rollout) own() {
	if n := len(ro.Rounds); n > 0 && !ro.Rounds[n-1].Waiting {
		ro.Rounds[n-1].State = ro.Rounds[n-1].State.Clone()
	}
}

// changes reports whether applying plan changes the state: it has steps,
// or something in flight finishes.
func changes(plan *Plan) bool {
	if len(plan.Steps) > 0 {
		return true
	}
	for _, e := range plan.InFlight {
		switch e.Kind {
		case InFlightReplaced, InFlightInstalling, InFlightCurrentCSV:
			return true
		case InFlightInstallPlan:
			// A plan waiting for approval with none of this plan's steps
			// does not run by itself.
			if !e.Waiting {
				return true
			}
		}
	}
	return false
}

// Apply returns a copy of the state resolved with the plan applied as OLM
// would apply it:
// each step's bundle becomes an installed CSV (phase Succeeded, carrying the
// bundle's properties in the operatorframework.io/properties annotation)
// that takes the place of the CSV it replaces; the subscriptions that asked
// for it get it as installedCSV and currentCSV (state AtLatestKnown); a
// dependency step gets a subscription named as OLM names it
// ("package-channel-catalog-namespace") with the bundle as startingCSV and
// installPlanApproval Automatic. What the plan found in flight finishes
// first: replaced CSVs are deleted, CSVs being installed succeed, a
// subscription's existing currentCSV becomes its installedCSV, and
// InstallPlans not finished complete. Apply approves: it is what happens
// once the plan's InstallPlan runs. It returns an error for a namespace
// without a plan.
func (s *Resolution) Apply() (*cluster.State, error) {
	if s.plan == nil {
		return nil, s.noPlan("apply plan")
	}
	return s.r.apply(s.state, s.plan)
}

// apply returns a copy of state with plan, a plan of r, applied.
func (r *Resolver) apply(state *cluster.State, plan *Plan) (*cluster.State, error) {
	next := state.Clone()
	ns := plan.Namespace
	finish(next, plan)
	// The namespace's subscriptions by name, installed CSV and package, so
	// that each step finds its own without a scan: Apply is linear in the
	// plan and the state.
	byName, byInstalled, byPackage := map[string][]int{}, map[string][]int{}, map[string][]int{}
	for i := range next.Subscriptions {
		s := &next.Subscriptions[i]
		if s.Namespace != ns {
			continue
		}
		byName[s.Name] = append(byName[s.Name], i)
		byInstalled[s.InstalledCSV] = append(byInstalled[s.InstalledCSV], i)
		byPackage[s.Package] = append(byPackage[s.Package], i)
	}
	stamp := make([]int, len(next.Subscriptions)) // stamp[i] == step+1: seen
	drop := map[string]bool{}                     // CSVs of ns replaced or installed anew
	var added []cluster.CSV
	var deps []cluster.Subscription
	for si, st := range plan.Steps {
		b, err := r.stepBundle(&st)
		if err != nil {
			return nil, fmt.Errorf("apply plan: %w", err)
		}
		csv := installedCSV(ns, b, st.Replaces)
		if st.Replaces != "" {
			drop[st.Replaces] = true
		}
		drop[b.Name] = true
		added = append(added, csv)
		matched := false
		var cands [][]int
		cands = append(cands, byName[st.Reason.Subscription], byPackage[st.Package])
		if st.Replaces != "" {
			cands = append(cands, byInstalled[st.Replaces])
		}
		for _, list := range cands {
			for _, i := range list {
				if stamp[i] == si+1 {
					continue
				}
				stamp[i] = si + 1
				s := &next.Subscriptions[i]
				mine := s.Name == st.Reason.Subscription ||
					(st.Replaces != "" && s.InstalledCSV == st.Replaces) ||
					(s.Package == st.Package && (s.Channel == "" || s.Channel == st.Channel) &&
						takesFrom(s, st.Catalog))
				if !mine {
					continue
				}
				matched = true
				s.InstalledCSV, s.CurrentCSV = b.Name, b.Name
				s.State = cluster.StateAtLatestKnown
			}
		}
		if !matched && st.Dependency {
			dep := dependencySubscription(ns, st)
			dep.InstalledCSV, dep.CurrentCSV, dep.State = b.Name, b.Name, cluster.StateAtLatestKnown
			deps = append(deps, dep)
		}
	}
	next.CSVs = slices.DeleteFunc(next.CSVs, func(c cluster.CSV) bool { return c.Namespace == ns && drop[c.Name] })
	next.CSVs = append(next.CSVs, added...)
	next.Subscriptions = append(next.Subscriptions, deps...)
	next.Sort()
	return next, nil
}

// installedCSV is bundle b installed in namespace ns as OLM installs it:
// phase Succeeded, its properties in the operatorframework.io/properties
// annotation, replacing the CSV replaces.
func installedCSV(ns string, b *graph.Bundle, replaces string) cluster.CSV {
	return cluster.CSV{
		Name:        b.Name,
		Namespace:   ns,
		Version:     b.Version,
		VersionText: b.VersionText,
		Provides:    slices.Clone(b.Provides),
		Requires:    slices.Clone(b.RequiresGVK),
		Properties:  cluster.PropertiesOf(b),
		Phase:       cluster.CSVPhaseSucceeded,
		Replaces:    replaces,
	}
}

// finish completes in state what plan found in flight, as OLM goes on
// from it: a replaced CSV is deleted and its replacement succeeds, a CSV
// being installed succeeds, a subscription's currentCSV becomes its
// installedCSV, and an InstallPlan not finished completes (approved).
func finish(state *cluster.State, plan *Plan) {
	if len(plan.InFlight) == 0 {
		return
	}
	ns := plan.Namespace
	// The namespace's CSVs by name, so that finishing is linear.
	csvs := map[string]int{}
	for i, c := range state.CSVs {
		if c.Namespace == ns && !c.Copied {
			csvs[c.Name] = i
		}
	}
	succeed := func(name string) {
		if i, ok := csvs[name]; ok && state.CSVs[i].Phase != cluster.CSVPhaseFailed {
			state.CSVs[i].Phase = cluster.CSVPhaseSucceeded
		}
	}
	subs, plans := map[string]int{}, map[string]int{}
	for i, x := range state.Subscriptions {
		if x.Namespace == ns {
			subs[x.Name] = i
		}
	}
	for i, p := range state.InstallPlans {
		if p.Namespace == ns {
			plans[p.Name] = i
		}
	}
	gone := map[string]bool{}
	for _, e := range plan.InFlight {
		switch e.Kind {
		case InFlightReplaced:
			gone[e.CSV] = true
			succeed(e.ReplacedBy)
		case InFlightInstalling:
			succeed(e.CSV)
		case InFlightCurrentCSV:
			if i, ok := subs[e.Subscription]; ok {
				state.Subscriptions[i].InstalledCSV, state.Subscriptions[i].State = e.CSV, cluster.StateAtLatestKnown
			}
			succeed(e.CSV)
		case InFlightInstallPlan:
			if i, ok := plans[e.InstallPlan]; ok {
				state.InstallPlans[i].Approved, state.InstallPlans[i].Phase = true, cluster.PhaseComplete
			}
		}
	}
	if len(gone) > 0 {
		state.CSVs = slices.DeleteFunc(state.CSVs, func(c cluster.CSV) bool {
			return c.Namespace == ns && !c.Copied && gone[c.Name]
		})
	}
}
