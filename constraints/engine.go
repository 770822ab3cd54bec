package constraints

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/go-air/gini/z"
)

// engine is a unit-propagation engine for the search: clauses, a trail of
// assignments with one level per assumption, and explanations of conflicts
// in terms of assumptions. It does no learning and no decisions of its own;
// the search makes the decisions. Propagation uses two watched literals per
// clause kept in intrusive linked lists, so it allocates nothing after
// construction and undoing a level only unassigns.
type engine struct {
	start []int32 // clause c is lits[start[c]:start[c+1]]
	lits  []z.Lit

	// Clause c of two literals or more watches the literals at positions
	// 0 and 1 of its slice, through the watch nodes 2c and 2c+1. head[m]
	// starts the list of the nodes watching literal m, next links them.
	head []int32
	next []int32

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

// init builds the watch lists for variables 1..top and propagates the unit
// clauses at level 0. It reports false when that fails: the clauses are
// unsatisfiable.
func (e *engine) init(top z.Var) bool {
	if e.start == nil {
		e.start = append(e.start, 0)
	}
	nlit := 2 * int(top+1)
	nc := len(e.start) - 1
	e.head = make([]int32, nlit)
	for i := range e.head {
		e.head[i] = -1
	}
	e.next = make([]int32, 2*nc)
	e.val = make([]int8, nlit)
	e.reason = make([]int32, top+1)
	e.seen = make([]uint32, top+1)
	e.trail = make([]z.Lit, 0, top)
	for c := range nc {
		lo, hi := e.start[c], e.start[c+1]
		if hi-lo >= 2 {
			for slot := range int32(2) {
				node := 2*int32(c) + slot
				m := e.lits[lo+slot]
				e.next[node] = e.head[m]
				e.head[m] = node
			}
		}
	}
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
		prev := int32(-1)
		for node := e.head[f]; node >= 0; {
			nxt := e.next[node]
			c, slot := node>>1, node&1
			lo, hi := e.start[c], e.start[c+1]
			other := e.lits[lo+1-slot]
			if e.val[other] == 1 {
				prev, node = node, nxt
				continue
			}
			// Look for another literal to watch.
			moved := false
			for k := lo + 2; k < hi; k++ {
				if m := e.lits[k]; e.val[m] != -1 {
					e.lits[k], e.lits[lo+slot] = f, m
					if prev < 0 {
						e.head[f] = nxt
					} else {
						e.next[prev] = nxt
					}
					e.next[node] = e.head[m]
					e.head[m] = node
					moved = true
					break
				}
			}
			if moved {
				node = nxt
				continue
			}
			switch e.val[other] {
			case -1:
				return c
			case 0:
				e.assign(other, c)
			}
			prev, node = node, nxt
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
	for _, m := range e.trail[l:] {
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

// defaultFallbackAfter is the base number of backjumps after which
// searchFast hands over to gini (Problem.fallbackAfter).
const defaultFallbackAfter = 1000

// searchFast is search (see there) with the engine instead of gini: every
// dead end is explained by propagation alone, by a conflict set of stack
// entries (the failed tests of the choice's candidates, the entry that
// queued it, and the conflict sets that refuted the candidates rejected
// before), so no complete SAT call is ever needed. This is
// conflict-directed backjumping: at a dead end, the latest entry k of the
// conflict set is refuted by the others (their assumptions and k's cannot
// all hold), so every path through k fails and the search resumes at k with
// its next candidate, remembering the rest of the set as the reason k's
// candidate was rejected. It returns errFallback after too many backjumps:
// without clause learning, depth-first search can take exponentially long
// on hard problems, and gini's search then takes over.
func (s *solver[V, R]) searchFast() (bool, error) {
	p, e := s.p, s.e
	if !s.ready {
		s.ready = true
		s.broken = !e.init(s.top)
	}
	if s.broken {
		return false, nil // the constraints fail at level 0
	}
	mand := s.mandatory()
	if s.q == nil {
		s.q = make([]choice, 0, max(4*len(mand), 64))
		s.stack = make([]entry, 0, cap(s.q))
	}
	s.q = append(s.q, mand...)
	budget := cmp.Or(p.fallbackAfter, defaultFallbackAfter) + len(p.cons)
	note := func(v z.Var) {
		if l := s.level[v]; l >= 0 {
			s.eset = append(s.eset, l)
		}
	}
	for {
		if s.cancelled() {
			return false, s.interrupted()
		}
		if s.qh == int32(len(s.q)) {
			return true, nil // see search: the chosen set is a model
		}
		c := s.q[s.qh]
		if s.satisfied(c) {
			s.push(c, -1, 0)
			continue
		}
		accepted, _ := s.accept(c, func(v z.Var) (ok, stop bool) {
			if e.test(v.Pos()) != -1 {
				e.untest()
				return false, false
			}
			return true, false
		})
		if accepted {
			continue
		}
		if err := s.conflictSet(c, note); err != nil {
			return false, err
		}
		// Dead end: the entries of the conflict set cannot all stay.
		if len(s.eset) == 0 {
			return false, nil
		}
		if budget--; budget < 0 || len(s.sets) > 1<<22 {
			return false, errFallback
		}
		s.leaveDeadEnd()
	}
}

// conflictSet puts in s.eset the conflict set of choice c, none of whose
// candidates is accepted: the entry that queued it, the entries its
// earlier rejected candidates depend on, and those of each candidate's
// failed test (tested again, now that they are needed: propagation gives
// the same result), which note adds.
func (s *solver[V, R]) conflictSet(c choice, note func(z.Var)) error {
	e := s.e
	s.eset = append(s.eset[:0], s.sets[c.blo:c.bhi]...)
	if c.by >= 0 {
		s.eset = append(s.eset, c.by)
	}
	for i, n := c.next, s.ncand(c); i < n; i++ {
		v := s.cand(c, i)
		r := e.test(v.Pos())
		if r == -1 {
			return fmt.Errorf("%w: a failed test succeeds when repeated", errInternal)
		}
		e.explain(r, v.Pos(), note)
		e.untest()
	}
	return nil
}

// leaveDeadEnd leaves a dead end whose conflict set s.eset is not empty: the
// latest entry of the set, k, is refuted by the others, so every path
// between them fails too; the search resumes at k with its next
// candidate, the rest of the set kept as the reason k's candidate was
// rejected.
func (s *solver[V, R]) leaveDeadEnd() {
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
