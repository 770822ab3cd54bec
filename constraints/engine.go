package constraints

import (
	"fmt"
	"slices"

	"github.com/go-air/gini/z"
)

// engine is a unit-propagation engine for the search: clauses, a trail of
// assignments with one level per assumption, and explanations of conflicts
// in terms of assumptions. It does no learning and no decisions of its own;
// the search makes the decisions. Propagation counts false literals per
// clause over static occurrence lists, so it allocates nothing after
// construction.
type engine struct {
	start []int32 // clause c is lits[start[c]:start[c+1]]
	lits  []z.Lit

	occStart []int32 // literal m occurs in clauses occ[occStart[m]:occStart[m+1]]
	occ      []int32

	nfalse []int32  // per clause: literals that are false and propagated
	val    []int8   // per literal: 1 true, -1 false, 0 unassigned
	reason []int32  // per variable: implying clause, or -1 for an assumption
	trail  []z.Lit  // assigned literals in order
	lim    []int32  // per level: trail length when it began
	qhead  int      // trail[:qhead] is propagated
	seen   []uint32 // per variable: stamp of the last explanation visiting it
	stamp  uint32
	stack  []z.Var
}

// add appends a clause (during encoding).
func (e *engine) add(ms []z.Lit) {
	if e.start == nil {
		e.start = append(e.start, 0)
	}
	e.lits = append(e.lits, ms...)
	e.start = append(e.start, int32(len(e.lits)))
}

// init builds the occurrence lists for variables 1..top and propagates the
// unit clauses at level 0. It reports false when that fails: the clauses
// are unsatisfiable.
func (e *engine) init(top z.Var) bool {
	if e.start == nil {
		e.start = append(e.start, 0)
	}
	nlit := 2 * int(top+1)
	e.occStart = make([]int32, nlit+1)
	for _, m := range e.lits {
		e.occStart[m+1]++
	}
	for i := 1; i <= nlit; i++ {
		e.occStart[i] += e.occStart[i-1]
	}
	e.occ = make([]int32, len(e.lits))
	fill := make([]int32, nlit)
	copy(fill, e.occStart[:nlit])
	nc := len(e.start) - 1
	for c := range nc {
		for _, m := range e.lits[e.start[c]:e.start[c+1]] {
			e.occ[fill[m]] = int32(c)
			fill[m]++
		}
	}
	e.nfalse = make([]int32, nc)
	e.val = make([]int8, nlit)
	e.reason = make([]int32, top+1)
	e.seen = make([]uint32, top+1)
	e.trail = make([]z.Lit, 0, top)
	for c := range nc {
		ms := e.lits[e.start[c]:e.start[c+1]]
		switch len(ms) {
		case 0:
			return false
		case 1:
			switch e.val[ms[0]] {
			case -1:
				return false
			case 0:
				e.assign(ms[0], int32(c))
			}
		}
	}
	return e.propagate() < 0
}

func (e *engine) assign(m z.Lit, reason int32) {
	e.val[m] = 1
	e.val[m.Not()] = -1
	e.reason[m.Var()] = reason
	e.trail = append(e.trail, m)
}

// propagate runs unit propagation and returns a falsified clause, or -1.
func (e *engine) propagate() int32 {
	for e.qhead < len(e.trail) {
		f := e.trail[e.qhead].Not() // became false
		e.qhead++
		occ := e.occ[e.occStart[f]:e.occStart[f+1]]
		for i, c := range occ {
			e.nfalse[c]++
			lo, hi := e.start[c], e.start[c+1]
			if e.nfalse[c] < hi-lo-1 {
				continue
			}
			unit, sat := z.LitNull, false
			for _, m := range e.lits[lo:hi] {
				switch e.val[m] {
				case 1:
					sat = true
				case 0:
					unit = m
				}
				if sat {
					break
				}
			}
			if sat {
				continue
			}
			if unit == z.LitNull {
				// Conflict: finish counting f's occurrences so that
				// undo stays exact.
				for _, d := range occ[i+1:] {
					e.nfalse[d]++
				}
				return c
			}
			if e.nfalse[c] == hi-lo-1 {
				e.assign(unit, c)
			}
		}
	}
	return -1
}

// test opens a level assuming m and propagates. On conflict it returns the
// falsified clause, or -2 when m itself was already false; otherwise -1.
func (e *engine) test(m z.Lit) int32 {
	e.lim = append(e.lim, int32(len(e.trail)))
	switch e.val[m] {
	case -1:
		return -2
	case 0:
		e.assign(m, -1)
	}
	return e.propagate()
}

// untest undoes the last level.
func (e *engine) untest() {
	l := int(e.lim[len(e.lim)-1])
	e.lim = e.lim[:len(e.lim)-1]
	for i := len(e.trail) - 1; i >= l; i-- {
		m := e.trail[i]
		if i < e.qhead {
			f := m.Not()
			for _, c := range e.occ[e.occStart[f]:e.occStart[f+1]] {
				e.nfalse[c]--
			}
		}
		e.val[m] = 0
		e.val[m.Not()] = 0
	}
	e.trail = e.trail[:l]
	e.qhead = min(e.qhead, l)
}

// explain calls f on every assumed variable that the conflict of the last
// test depends on: clause c (from test), or the assumption m that was
// already false (c == -2).
func (e *engine) explain(c int32, m z.Lit, f func(z.Var)) {
	e.stamp++
	e.stack = e.stack[:0]
	visit := func(v z.Var) {
		if e.seen[v] != e.stamp {
			e.seen[v] = e.stamp
			e.stack = append(e.stack, v)
		}
	}
	if c == -2 {
		visit(m.Var())
	} else {
		for _, n := range e.lits[e.start[c]:e.start[c+1]] {
			visit(n.Var())
		}
	}
	for len(e.stack) > 0 {
		v := e.stack[len(e.stack)-1]
		e.stack = e.stack[:len(e.stack)-1]
		r := e.reason[v]
		if r < 0 {
			f(v)
			continue
		}
		for _, n := range e.lits[e.start[r]:e.start[r+1]] {
			if n.Var() != v {
				visit(n.Var())
			}
		}
	}
}

// fallbackAfter is the base number of backjumps after which searchFast
// hands over to gini (a variable so that tests can force the fallback).
var fallbackAfter = 1000

// searchFast is search (see there) with the engine instead of gini: every
// dead end is explained by propagation alone, by a conflict set of stack
// entries (the failed tests of the choice's candidates, the entry that
// queued it, and the conflict sets that refuted the candidates rejected
// before), so no complete SAT call is ever needed. This is
// conflict-directed backjumping: at a dead end, the latest entry k of the
// conflict set is refuted by the others (their assumptions and k's cannot
// all hold), so every path through k fails and the search resumes at k with
// its next candidate, remembering the rest of the set as the reason k's
// candidate was rejected. It
// returns errFallback after too many backjumps: without clause learning,
// depth-first search can take exponentially long on hard problems, and
// gini's search then takes over.
//
// anchors are extra mandatory variables, as if Mandatory constraints on
// them followed the problem's constraints: each is assumed below the search
// (like a unit clause) and gets its choice after the problem's mandatory
// ones. After searchFast returns without an error, reset makes the solver
// ready for another search.
func (s *solver[V, R]) searchFast(anchors []int32) (bool, error) {
	p, e := s.p, s.e
	if !s.ready {
		s.ready = true
		s.broken = !e.init(s.top)
	}
	if s.broken {
		return false, nil // the constraints fail at level 0
	}
	for _, a := range anchors {
		s.based++
		if e.test(s.lit(a)) != -1 {
			return false, nil
		}
	}
	nq := len(anchors)
	for j := range p.cons {
		if p.cons[j].kind == KindMandatory {
			nq++
		}
	}
	if s.q == nil {
		s.q = make([]choice, 0, max(nq*4, 64))
		s.stack = make([]entry, 0, cap(s.q))
	}
	for j := range p.cons {
		if c := &p.cons[j]; c.kind == KindMandatory {
			s.q = append(s.q, choice{kind: cVars, a: c.lo, b: c.hi, by: -1})
		}
	}
	for _, a := range anchors {
		s.q = append(s.q, choice{kind: cOne, a: a, by: -1})
	}
	budget := fallbackAfter + len(p.cons)
	note := func(v z.Var) {
		if l := s.level[v]; l >= 0 {
			s.eset = append(s.eset, l)
		}
	}
	for {
		if s.done != nil {
			if s.steps++; s.steps&63 == 0 {
				select {
				case <-s.done:
					return false, s.interrupted()
				default:
				}
			}
		}
		if s.qh == int32(len(s.q)) {
			return true, nil // see search: the chosen set is a model
		}
		c := s.q[s.qh]
		if s.satisfied(c) {
			s.push(c, -1, 0)
			continue
		}
		accepted := false
		for i, n := c.next, s.ncand(c); i < n; i++ {
			v := s.cand(c, i)
			if e.test(v.Pos()) != -1 {
				e.untest()
				continue
			}
			s.push(c, i, v)
			accepted = true
			break
		}
		if accepted {
			continue
		}
		// The conflict set of this choice: the entry that queued it,
		// the entries its earlier rejected candidates depend on, and
		// those of each candidate's failed test (tested again, now
		// that they are needed: propagation gives the same result).
		s.eset = append(s.eset[:0], s.sets[c.blo:c.bhi]...)
		if c.by >= 0 {
			s.eset = append(s.eset, c.by)
		}
		for i, n := c.next, s.ncand(c); i < n; i++ {
			v := s.cand(c, i)
			r := e.test(v.Pos())
			if r == -1 {
				return false, fmt.Errorf("%w: a failed test succeeds when repeated", errInternal)
			}
			e.explain(r, v.Pos(), note)
			e.untest()
		}
		// Dead end: the entries of the conflict set cannot all stay, so
		// the latest one, k, is refuted by the others; every path
		// between them fails too.
		if len(s.eset) == 0 {
			return false, nil
		}
		if budget--; budget < 0 || len(s.sets) > 1<<22 {
			return false, errFallback
		}
		slices.Sort(s.eset)
		s.eset = slices.Compact(s.eset)
		k := s.eset[len(s.eset)-1]
		rest := s.eset[:len(s.eset)-1]
		s.resetHead()
		for int32(len(s.stack)) > k+1 {
			s.pop(false)
		}
		s.pop(true)
		h := &s.q[s.qh]
		lo := int32(len(s.sets))
		s.sets = append(s.sets, s.sets[h.blo:h.bhi]...)
		s.sets = append(s.sets, rest...)
		h.blo, h.bhi = lo, int32(len(s.sets))
	}
}

// reset undoes a finished engine search so that the solver can search
// again (with other anchors).
func (s *solver[V, R]) reset() {
	for len(s.stack) > 0 {
		s.pop(false)
	}
	for ; s.based > 0; s.based-- {
		s.e.untest()
	}
	s.q, s.qh, s.sets = s.q[:0], 0, s.sets[:0]
}
