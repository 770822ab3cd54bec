package resolver

import (
	"context"
	"slices"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/resolver/predict"
)

// Namespaces returns the namespaces of state that resolution concerns —
// those with a subscription, an installed CSV that is not a copy, or an
// OperatorGroup — sorted, without repeats. The caller owns the slice.
func Namespaces(state *cluster.State) []string {
	if state == nil {
		return nil
	}
	var out []string
	for _, s := range state.Subscriptions {
		out = append(out, s.Namespace)
	}
	for _, c := range state.CSVs {
		if !c.Copied {
			out = append(out, c.Namespace)
		}
	}
	for _, g := range state.OperatorGroups {
		out = append(out, g.Namespace)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// ResolveAll resolves every namespace of Namespaces(state), one after
// another in name order, as OLM's catalog operator does, each with its own
// OperatorGroup, and returns one Resolution per namespace in that order
// (its Err says why a namespace has no plan). The other namespaces serve as
// context, as in Resolve; besides, the APIs that a namespace's plan
// installs (its steps not predicted to fail) count, for the namespaces
// after it, as provided by its OperatorGroup, as OLM records them in the
// group's olm.providedAPIs once the CSVs install. So of two new operators
// in intersecting OperatorGroups that provide one API, the one in the
// namespace later by name is predicted to fail with
// InterOperatorGroupOwnerConflict (OLM fails whichever it reconciles
// second). Each Resolution's follow-ups (Fixes) re-solve in that context.
// ResolveAll itself returns an error only when ctx ends (with the
// resolutions so far). It copies state once: the caller may change it
// afterwards.
func (r *Resolver) ResolveAll(ctx context.Context, state *cluster.State) ([]*Resolution, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	state, err := snapshot(ctx, state)
	if err != nil {
		return nil, err
	}
	var out []*Resolution
	planned := predict.Planned{}
	for _, ns := range Namespaces(state) {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		s, err := r.solve(ctx, ns, state, snapshotPlanned(planned))
		if err != nil && s == nil {
			return out, err
		}
		out = append(out, s)
		if s.res != nil {
			planned.Add(s.res.pred, s.res.installs)
		}
	}
	return out, nil
}
