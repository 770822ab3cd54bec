package resolver

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/sextantdev/sextant/cluster"
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
}

// Rollout is RolloutWith with MaxRounds maxRounds, approving nothing.
func (r *Resolver) Rollout(ctx context.Context, namespace string, state *cluster.State, maxRounds int) ([]Round, error) {
	return r.RolloutWith(ctx, namespace, state, RolloutOptions{MaxRounds: maxRounds})
}

// RolloutWith simulates what the cluster will go through: it resolves
// namespace, applies the plan as OLM would (see [Resolver.Apply]) and
// repeats until a plan changes nothing (no steps, nothing in flight to
// finish) or opts.MaxRounds plans were applied. It returns the rounds that
// changed something, in order (none when the state is already settled).
// A plan that waits for approval stops the rollout unless opts.Approve is
// set: it is returned as the last round, Waiting, with a nil error — a
// cluster waiting for a person is a state, not a failure. When a
// resolution fails, RolloutWith returns the rounds so far and that error;
// when the limit is reached first (at once when MaxRounds <= 0 and there is
// something to do), the rounds and an error wrapping ErrRoundLimit. state
// is not modified; the caller owns the rounds.
func (r *Resolver) RolloutWith(ctx context.Context, namespace string, state *cluster.State, opts RolloutOptions) ([]Round, error) {
	if state == nil {
		state = &cluster.State{}
	}
	var rounds []Round
	cur := state
	for {
		plan, err := r.Resolve(ctx, namespace, cur)
		if err != nil {
			return rounds, err
		}
		if !changes(plan) {
			return rounds, nil
		}
		waits := plan.Waits()
		if waits && !opts.Approve {
			return append(rounds, Round{Plan: plan, State: cur, Waiting: true}), nil
		}
		if len(rounds) >= opts.MaxRounds {
			return rounds, fmt.Errorf("namespace %q: %w (%d)", namespace, ErrRoundLimit, opts.MaxRounds)
		}
		next, err := r.Apply(cur, plan)
		if err != nil {
			return rounds, err
		}
		if err := ctx.Err(); err != nil {
			return rounds, err
		}
		rounds = append(rounds, Round{Plan: plan, State: next, Approved: waits})
		cur = next
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

// Apply returns a copy of state with plan applied as OLM would apply it:
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
// once the plan's InstallPlan runs. The plan must come from this resolver.
// state is not modified.
func (r *Resolver) Apply(state *cluster.State, plan *Plan) (*cluster.State, error) {
	if plan == nil {
		return nil, errors.New("apply plan: no plan")
	}
	next := state.Clone()
	if next == nil {
		next = &cluster.State{}
	}
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
		csv := cluster.CSV{
			Name:        b.Name,
			Namespace:   ns,
			Version:     b.Version,
			VersionText: b.VersionText,
			Provides:    slices.Clone(b.Provides),
			Requires:    slices.Clone(b.RequiresGVK),
			Properties:  cluster.PropertiesOf(b),
			Phase:       "Succeeded",
			Replaces:    st.Replaces,
		}
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
						(s.Source == "" || (CatalogKey{Namespace: s.SourceNamespace, Name: s.Source}) == st.Catalog))
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
		if i, ok := csvs[name]; ok && state.CSVs[i].Phase != "Failed" {
			state.CSVs[i].Phase = "Succeeded"
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
