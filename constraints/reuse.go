package constraints

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sync"
)

// Solver solves one Problem many times, each time with some extra mandatory
// variables (anchors), reusing the encoding of the problem between calls:
// asking "can each of these be selected?" of one catalog costs one search
// per question instead of one encoding and one search.
//
// The Problem must not change after NewSolver. A Solver is safe for
// concurrent use; it keeps one prepared search per concurrent caller.
type Solver[V comparable, R any] struct {
	p    *Problem[V, R]
	pool sync.Pool // of *solver[V, R], prepared and reset
}

// NewSolver returns a Solver for p. The encoding is prepared on first use.
func NewSolver[V comparable, R any](p *Problem[V, R]) *Solver[V, R] {
	return &Solver[V, R]{p: p}
}

// Solve returns exactly what the package-level Solve returns for the
// problem with one constraint Mandatory(reason, v) added for each v of
// anchors, in order, after all its constraints: the same solution, or an
// *UnsatError whose core may include those added constraints.
func (s *Solver[V, R]) Solve(ctx context.Context, reason R, anchors ...V) (*Solution[V], error) {
	p := s.p
	if err := p.check(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, notStarted(err)
	}
	idx := make([]int32, len(anchors))
	for i, v := range anchors {
		x, ok := p.index[v]
		if !ok {
			return s.slow(ctx, reason, anchors)
		}
		idx[i] = x
	}
	sv, _ := s.pool.Get().(*solver[V, R])
	if sv == nil {
		sv = newSolver(ctx, p, modeEngine, nil)
		sv.encode()
	}
	sv.ctx, sv.done = ctx, ctx.Done()
	sat, err := sv.searchFast(idx)
	if err != nil {
		// The search state is abandoned mid-way: drop this solver.
		if errors.Is(err, errFallback) {
			return s.slow(ctx, reason, anchors)
		}
		return nil, err
	}
	var sol *Solution[V]
	if sat {
		sol = sv.solution()
	}
	sv.reset()
	s.pool.Put(sv)
	if !sat {
		// Cores are rare and need the full machinery.
		return s.slow(ctx, reason, anchors)
	}
	return sol, nil
}

// slow solves a copy of the problem with the anchors added.
func (s *Solver[V, R]) slow(ctx context.Context, reason R, anchors []V) (*Solution[V], error) {
	q := s.p.clone()
	for _, v := range anchors {
		q.Mandatory(reason, v)
	}
	return Solve(ctx, q)
}

// clone returns a deep copy of p (expressions are immutable and shared).
func (p *Problem[V, R]) clone() *Problem[V, R] {
	return &Problem[V, R]{
		index: maps.Clone(p.index),
		vars:  slices.Clone(p.vars),
		cons:  slices.Clone(p.cons),
		ints:  slices.Clone(p.ints),
		nodes: slices.Clone(p.nodes),
		kids:  slices.Clone(p.kids),
		exprs: maps.Clone(p.exprs),
	}
}
