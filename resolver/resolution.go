package resolver

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/constraints"
	"github.com/sextantdev/sextant/resolver/predict"
)

// Resolution is one namespace resolved: the plan or why there is none, and
// everything needed to answer the questions that follow — the explanation
// and suggestions of a conflict (Explain), why what stays below its first
// preference is held back (HeldBack), why a name is or is not in the plan
// (Why), fixes of the predicted failures (Fixes), the InstallPlan OLM
// creates (InstallPlan), the state once the plan is applied (Apply) and
// where each subscription stops short of its channel's head (Stops).
//
// A Resolution keeps a private copy of the cluster state it was resolved
// from, and the solved problem: a caller that changes its state afterwards
// changes no answer, and a follow-up reuses the solution rather than
// resolving again. Its methods are safe for concurrent use.
type Resolution struct {
	r     *Resolver
	ns    string
	state *cluster.State // the Resolution's own; never modified
	// planned are the APIs namespaces resolved before install, per
	// OperatorGroup (ResolveAll): the context of the plan's predictions.
	planned predict.Planned
	plan    *Plan // nil when err is set
	err     error

	// mu guards the solved problem, which follow-ups read and extend
	// (caches), and the answers kept.
	mu  sync.Mutex
	res *resolution
	sol *constraints.Solution[variable]
	// held are the choices below their first preference; heldDone says
	// they were listed.
	held     []heldItem
	heldDone bool
	// heldPlan is the plan with its held-back reasons, for heldTries.
	heldPlan  *Plan
	heldTries int
}

// Resolve resolves namespace from state: its installed CSVs and
// subscriptions (objects of other namespaces, and copied CSVs, are ignored)
// and the CatalogSources' priorities. Catalogs of namespace and of the
// global namespace are visible, unless the namespace's OperatorGroup
// excludes the global ones.
//
// The Resolution holds the plan (Resolution.Plan) or the reason there is
// none (Resolution.Err), which Resolve also returns as its error: a
// *cluster.OperatorGroupError when state holds OperatorGroups and the
// namespace has subscriptions but not exactly one OperatorGroup (OLM does
// not resolve it), a *ConflictError when the subscriptions and installed
// CSVs cannot be satisfied together (Resolution.Explain explains it), a
// *StuckError when an upgrade failed, an error wrapping ErrNoCEL (and
// errors.ErrUnsupported) for an olm.constraint cel rule it would have to
// evaluate without Options.CEL, an error for a cel rule that does not
// compile (as OLM), errors (*InvalidPackageError, one per finding) for a
// package it reaches that opm serve would refuse — a bundle without
// olm.package, a channel with no single head, … — unless
// Options.AllowInvalid leaves such packages out (Plan.Excluded says which).
// When ctx ends first it returns a nil Resolution and an error e with
// errors.Is(e, ctx.Err()). (The package documentation, "Errors first",
// says once which calls return a value with an error.)
//
// Resolve copies state: the caller may change it afterwards.
func (r *Resolver) Resolve(ctx context.Context, namespace string, state *cluster.State) (*Resolution, error) {
	snap, err := snapshot(ctx, state)
	if err != nil {
		return nil, err
	}
	return r.solve(ctx, namespace, snap, nil)
}

// snapshot returns a deep copy of state (cluster.State.CloneContext: it
// stops soon after ctx ends), an empty state for nil.
func snapshot(ctx context.Context, state *cluster.State) (*cluster.State, error) {
	if state == nil {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return &cluster.State{}, nil
	}
	return state.CloneContext(ctx)
}

// solve is Resolve of a state the resolver owns (a copy no caller holds),
// with the APIs planned in namespaces resolved before (ResolveAll).
func (r *Resolver) solve(ctx context.Context, namespace string, state *cluster.State, planned predict.Planned) (*Resolution, error) {
	if state == nil {
		state = &cluster.State{}
	}
	s := &Resolution{r: r, ns: namespace, state: state, planned: planned}
	s.plan, s.res, s.sol, s.err = r.resolve(ctx, namespace, state, planned)
	if s.err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(s.err, ctxErr) {
			return nil, s.err
		}
		s.res, s.sol = nil, nil
		return s, s.err
	}
	return s, nil
}

// Namespace returns the namespace resolved.
func (s *Resolution) Namespace() string { return s.ns }

// Err returns why the namespace has no plan (see Resolver.Resolve), or nil.
func (s *Resolution) Err() error { return s.err }

// Conflict returns the conflict that leaves the namespace without a plan,
// or nil.
func (s *Resolution) Conflict() *ConflictError {
	var c *ConflictError
	if errors.As(s.err, &c) {
		return c
	}
	return nil
}

// Plan returns a copy of the plan, which the caller owns, or nil when the
// namespace has none (Err says why). A nil Resolution has no plan.
func (s *Resolution) Plan() *Plan {
	if s == nil {
		return nil
	}
	return s.plan.Clone()
}

// State returns a copy of the cluster state resolved, which the caller
// owns.
func (s *Resolution) State() *cluster.State { return s.state.Clone() }

// use locks the solved problem for a follow-up asked with ctx; the caller
// unlocks s.mu.
func (s *Resolution) use(ctx context.Context) {
	s.mu.Lock()
	if s.res != nil {
		s.res.ctx = ctx
	}
}

// noPlan is the error of a follow-up that needs a plan.
func (s *Resolution) noPlan(what string) error {
	return fmt.Errorf("%s: namespace %q has no plan: %w", what, s.ns, s.err)
}

// Clone returns a copy of p whose slices (and the slices of its steps and
// unchanged entries) are its own. Held-back reasons and suggestions are
// shared: they are not changed once made.
func (p *Plan) Clone() *Plan {
	if p == nil {
		return nil
	}
	c := *p
	c.Steps = slices.Clone(p.Steps)
	for i := range c.Steps {
		st := &c.Steps[i]
		st.Warnings = slices.Clone(st.Warnings)
		st.Predictions = slices.Clone(st.Predictions)
	}
	c.Unchanged = slices.Clone(p.Unchanged)
	for i := range c.Unchanged {
		u := &c.Unchanged[i]
		u.Deprecations = slices.Clone(u.Deprecations)
		u.Predictions = slices.Clone(u.Predictions)
	}
	c.Approval.Subscriptions = slices.Clone(p.Approval.Subscriptions)
	c.InFlight = slices.Clone(p.InFlight)
	c.Notes = slices.Clone(p.Notes)
	c.Excluded = slices.Clone(p.Excluded)
	c.Fixes = slices.Clone(p.Fixes)
	return &c
}

// snapshotPlanned returns a copy of planned that later namespaces of a
// ResolveAll do not change.
func snapshotPlanned(planned predict.Planned) predict.Planned {
	if len(planned) == 0 {
		return nil
	}
	return maps.Clone(planned)
}

// solvePlan resolves a state the resolver owns and returns its plan: a
// re-solve of a follow-up, whose resolution is not kept.
func (r *Resolver) solvePlan(ctx context.Context, namespace string, state *cluster.State, planned predict.Planned) (*Plan, error) {
	plan, _, _, err := r.resolve(ctx, namespace, state, planned)
	return plan, err
}
