package constraints

import (
	"fmt"
	"slices"

	"github.com/go-air/gini/z"
)

// Minimal conflict cores.

// core returns a minimal unsatisfiable subset of the constraints, as
// constraint indices in insertion order. It starts from gini's failed
// activation literals and removes constraints one at a time in insertion
// order, keeping a removal whenever the rest stays unsatisfiable (and then
// narrowing to the new failed set). A constraint that is kept stays
// necessary when the set shrinks later (a subset of a satisfiable set of
// clauses is satisfiable), so the result is minimal; every step depends
// only on the problem, so the core is the same on every call.
func (s *solver[V, R]) core() ([]int32, error) {
	all := make([]z.Lit, s.nc)
	for j := range all {
		all[j] = s.act(j)
	}
	r, err := s.full(all)
	if err != nil {
		return nil, err
	}
	if r != -1 {
		return nil, fmt.Errorf("%w: core of a satisfiable problem", errInternal)
	}
	set := s.failed(nil)
	if s.only == nil && len(set) < int(s.nc) {
		// Shrink within the failed constraints only, in a solver that
		// knows nothing else: each call is then tiny.
		sub := newSolver(s.ctx, s.p, modeActs, set)
		sub.encode()
		return sub.core()
	}
	assume := all[:0]
	for i := 0; i < len(set); i++ {
		assume = assume[:0]
		for k, j := range set {
			if k != i {
				assume = append(assume, s.act(int(j)))
			}
		}
		r, err := s.full(assume)
		if err != nil {
			return nil, err
		}
		if r == 1 {
			continue // set[i] is necessary
		}
		drop := set[i]
		set = s.failed(set[:0])
		// Keep i pointing at the first constraint after drop.
		i, _ = slices.BinarySearch(set, drop)
		i--
	}
	for i, pos := range set {
		set[i] = s.index(pos)
	}
	return set, nil
}

// failed appends to dst the constraints whose activation literals are in
// gini's failed assumptions, sorted.
func (s *solver[V, R]) failed(dst []int32) []int32 {
	s.buf = s.g.Why(s.buf[:0])
	for _, m := range s.buf {
		j := int32(m.Var()) - int32(s.actBase)
		if j >= 0 && j < s.nc && m.IsPos() {
			dst = append(dst, j)
		}
	}
	slices.Sort(dst)
	return slices.Compact(dst)
}
