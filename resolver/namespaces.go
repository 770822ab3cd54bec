package resolver

import (
	"context"
	"errors"
	"slices"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/resolver/predict"
)

// NamespaceResult is the outcome of one namespace in ResolveAll: its plan,
// or the error Resolve returned for it (a *ConflictError when there is no
// plan).
type NamespaceResult struct {
	Namespace string
	Plan      *Plan
	Err       error
	// Fixes is for the caller to fill (Resolver.Fixes); ResolveAll leaves
	// it empty.
	Fixes []Suggestion
}

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
// OperatorGroup, and returns one result per namespace in that order. The
// other namespaces serve as context, as in Resolve; besides, the APIs that
// a namespace's plan installs (its steps not predicted to fail) count, for
// the namespaces after it, as provided by its OperatorGroup, as OLM records
// them in the group's olm.providedAPIs once the CSVs install. So of two new
// operators in intersecting OperatorGroups that provide one API, the one in
// the namespace later by name is predicted to fail with
// InterOperatorGroupOwnerConflict (OLM fails whichever it reconciles
// second). A namespace's error is in its result; ResolveAll itself returns
// an error only when ctx ends (with the results so far).
func (r *Resolver) ResolveAll(ctx context.Context, state *cluster.State) ([]NamespaceResult, error) {
	if state == nil {
		state = &cluster.State{}
	}
	var out []NamespaceResult
	planned := predict.Planned{}
	for _, ns := range Namespaces(state) {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		plan, res, err := r.resolve(ctx, ns, state, planned)
		if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return out, err
		}
		out = append(out, NamespaceResult{Namespace: ns, Plan: plan, Err: err})
		if res != nil {
			planned.Add(res.pred, res.installs)
		}
	}
	return out, nil
}
