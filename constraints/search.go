package constraints

import (
	"fmt"
	"time"

	"github.com/go-air/gini/z"
)

// The preference-ordered search: its choices, its stack, and the search
// with gini's complete calls (the engine's own search is in engine.go).

// Choice kinds.
const (
	cVars uint8 = iota // candidates are variables Problem.ints[a:b]
	cOne               // the single candidate is variable a
)

// choice is an entry of the FIFO queue of choices.
type choice struct {
	kind uint8
	a, b int32
	next int32 // first candidate not yet rejected
	by   int32 // stack entry whose assumption enqueued the choice, -1 for Mandatory
	// blo:bhi index solver.sets: the stack entries that the rejection of
	// the candidates before next depends on (engine search only).
	blo, bhi int32
}

// entry is one processed choice on the search stack.
type entry struct {
	qpos int32 // position of the choice in the queue
	cand int32 // accepted candidate, or -1 when the choice was already satisfied
	v    z.Var // assumed variable (0 when nothing was assumed)
	kids int32 // number of choices enqueued when v was assumed
}

// ncand returns the number of candidates of c.
func (s *solver[V, R]) ncand(c choice) int32 {
	switch c.kind {
	case cVars:
		return c.b - c.a
	}
	return 1
}

// cand returns the solver variable of candidate i of c.
func (s *solver[V, R]) cand(c choice, i int32) z.Var {
	switch c.kind {
	case cVars:
		return z.Var(s.p.ints[c.a+i] + 1)
	}
	return z.Var(c.a + 1)
}

// accept pushes the first candidate of c, from c.next on, that test lets
// stand, and reports whether there was one. test assumes a candidate and
// reports whether it stands (undoing the assumption itself when it does
// not); stop ends the scan with no candidate accepted.
func (s *solver[V, R]) accept(c choice, test func(v z.Var) (ok, stop bool)) (accepted, stopped bool) {
	for i, n := c.next, s.ncand(c); i < n; i++ {
		v := s.cand(c, i)
		ok, stop := test(v)
		if stop {
			return false, true
		}
		if ok {
			s.push(c, i, v)
			return true, false
		}
	}
	return false, false
}

// satisfied reports whether some candidate of c is already chosen.
func (s *solver[V, R]) satisfied(c choice) bool {
	if c.kind == cOne {
		return s.chosen[c.a]
	}
	for _, v := range s.p.ints[c.a:c.b] {
		if s.chosen[v] {
			return true
		}
	}
	return false
}

// push records the processing of the choice at the queue head: candidate
// i (variable v, already assumed and tested) or, with i < 0, nothing.
func (s *solver[V, R]) push(c choice, i int32, v z.Var) {
	e := entry{qpos: s.qh, cand: i, v: v}
	by := int32(len(s.stack))
	s.qh++
	if i < 0 {
		s.stack = append(s.stack, e)
		return
	}
	s.level[v] = int32(len(s.stack))
	before := len(s.q)
	x := int32(v - 1)
	s.chosen[x] = true
	for _, j := range s.adj[s.adjOff[x]:s.adjOff[x+1]] {
		cj := &s.p.cons[j]
		s.q = append(s.q, choice{kind: cVars, a: cj.lo, b: cj.hi, by: by})
	}
	e.kids = int32(len(s.q) - before)
	s.stack = append(s.stack, e)
}

// pop undoes the top stack entry and puts its choice back at the queue
// head, resuming after the popped candidate when advance is set and from
// its first candidate otherwise. It returns gini's Untest result (-1 when
// the remaining assumptions are now inconsistent under propagation).
func (s *solver[V, R]) pop(advance bool) int {
	e := s.stack[len(s.stack)-1]
	s.stack = s.stack[:len(s.stack)-1]
	r := 0
	if e.v != 0 {
		if s.e != nil {
			s.e.untest()
		} else {
			r = s.g.Untest()
		}
		s.level[e.v] = -1
		if int32(e.v) <= s.nv {
			s.chosen[e.v-1] = false
		}
		s.q = s.q[:len(s.q)-int(e.kids)]
	}
	s.qh--
	if s.qh != e.qpos {
		panic("constraints: internal error: queue out of step with the search stack")
	}
	if advance && e.cand >= 0 {
		s.q[s.qh].next = e.cand + 1
	} else {
		s.q[s.qh].next, s.q[s.qh].blo, s.q[s.qh].bhi = 0, 0, 0
	}
	return r
}

// resetHead forgets the rejected candidates of the choice at the queue head
// (if it was resumed after a backjump and failed again): once the search
// moves further back, it starts afresh.
func (s *solver[V, R]) resetHead() {
	if s.qh < int32(len(s.q)) {
		s.q[s.qh].next, s.q[s.qh].blo, s.q[s.qh].bhi = 0, 0, 0
	}
}

// whyLevel returns the latest stack entry among gini's failed assumptions
// of the last unsatisfiable call, or -1 when no guess is involved.
func (s *solver[V, R]) whyLevel() int32 {
	s.buf = s.g.Why(s.buf[:0])
	k := int32(-1)
	for _, m := range s.buf {
		if l := s.level[m.Var()]; l > k {
			k = l
		}
	}
	return k
}

// backjump undoes the search down to stack entry k, whose guess is known to
// fail, and retries its choice with the next candidate. It reports false
// when the constraints alone turn out to be unsatisfiable.
func (s *solver[V, R]) backjump(k int32) bool {
	s.resetHead()
	for k >= 0 {
		for int32(len(s.stack)) > k+1 {
			s.pop(false)
		}
		if s.pop(true) == 0 {
			return true
		}
		// Learned clauses make the remaining path inconsistent under
		// propagation: gini recorded the conflict.
		k = s.whyLevel()
	}
	return false
}

// explain returns the latest stack entry that the failure of choice c
// depends on, when every candidate of c failed unit propagation: the entry
// that enqueued c (its assumption implies some candidate holds) and the
// failed assumptions of each candidate's test. ok is false when a test no
// longer fails (then the caller asks the complete solver).
func (s *solver[V, R]) explain(c choice) (k int32, ok bool) {
	k = c.by
	for i, n := int32(0), s.ncand(c); i < n; i++ {
		s.g.Assume(s.cand(c, i).Pos())
		r, _ := s.g.Test(nil)
		if r != -1 {
			s.g.Untest()
			return 0, false
		}
		k = max(k, s.whyLevel())
		if s.g.Untest() == -1 {
			return s.whyLevel(), true
		}
	}
	return k, true
}

// mandatory returns the choices of the Mandatory constraints, in insertion
// order: the start of every search's queue. They are computed once per
// solver.
func (s *solver[V, R]) mandatory() []choice {
	if s.mand == nil {
		s.mand = make([]choice, 0, 8)
		for j := range s.p.cons {
			if c := &s.p.cons[j]; c.kind == KindMandatory {
				s.mand = append(s.mand, choice{kind: cVars, a: c.lo, b: c.hi, by: -1})
			}
		}
	}
	return s.mand
}

// full runs a complete SAT call under the tested assumptions plus assume,
// in slices of bounded time when the context can end.
func (s *solver[V, R]) full(assume []z.Lit) (int, error) {
	if s.done == nil {
		s.g.Assume(assume...)
		return s.g.Try(1 << 62), nil
	}
	for {
		select {
		case <-s.done:
			return 0, s.interrupted()
		default:
		}
		d := slice
		if dl, ok := s.ctx.Deadline(); ok {
			if left := time.Until(dl) + time.Millisecond; left < d {
				d = max(left, time.Microsecond)
			}
		}
		s.g.Assume(assume...)
		if r := s.g.Try(d); r != 0 {
			return r, nil
		}
	}
}

// search runs the preference-ordered search (see doc.go) with gini and
// reports whether the constraints are satisfiable; on true, s.chosen is the
// solution. It is the fallback of searchFast (engine.go), which follows the
// same plan with its own propagation; gini adds clause learning, so hard
// problems with much backtracking get its complete calls.
//
// The definition asks, for every choice, for the first candidate c such
// that constraints + assumptions + c is satisfiable. Rather than one
// complete SAT call per choice, search assumes the first candidate that
// survives unit propagation (gini's Test) and goes on: depth-first search in
// the order of the definition. Two facts make this exact:
//
//   - When the queue empties and every assumption survived propagation, the
//     chosen set is a model, so no complete call is needed. A chosen set
//     that breaks a constraint is always caught by propagation: a
//     prohibited or conflicting pair of chosen variables falsifies a
//     clause outright, the sequential counter of AtMost propagates to a
//     conflict as soon as n+1 of its variables are true, and the
//     encodings of None derive their violation bottom-up from the chosen
//     variables; dependencies and requirements of chosen variables are
//     satisfied by their choices.
//   - When no candidate of a choice survives propagation, the path so far is
//     unsatisfiable. The failed assumptions of each candidate's test, plus
//     the assumption that queued the choice, form an explanation (every
//     model of the queuing assumption selects a candidate, and each
//     candidate is refuted); when a candidate was refuted earlier by a
//     complete call, a complete call gives the explanation instead. Every
//     path below the latest guess in the explanation fails too, so the
//     search resumes at that guess with its next candidate
//     (conflict-directed backjumping). A guess whose path is satisfiable
//     always completes (see doc.go), a guess whose path is not never does,
//     so the first completed path is the one of the definition.
func (s *solver[V, R]) search() (bool, error) {
	g := s.g
	s.buf = make([]z.Lit, 0, 16)
	g.Assume(s.act(0))
	if r, _ := g.Test(nil); r == -1 {
		return false, nil
	}
	mand := s.mandatory()
	s.q = make([]choice, 0, max(len(mand)*4, 64))
	s.stack = make([]entry, 0, cap(s.q))
	s.q = append(s.q, mand...)
	for {
		if s.cancelled() {
			return false, s.interrupted()
		}
		if s.qh == int32(len(s.q)) {
			// Every assumption passed unit propagation, so the chosen set
			// is a model (see doc.go): no complete call is needed.
			return true, nil
		}
		c := s.q[s.qh]
		if s.satisfied(c) {
			s.push(c, -1, 0)
			continue
		}
		accepted, broken := s.accept(c, func(v z.Var) (ok, stop bool) {
			g.Assume(v.Pos())
			if r, _ := g.Test(nil); r == -1 {
				// When Untest fails, what gini learned from the failed
				// test shows the path itself inconsistent.
				return false, g.Untest() == -1
			}
			return true, false
		})
		if accepted {
			continue
		}
		// No candidate survives: the path so far is unsatisfiable. Find
		// the latest guess it depends on, without a complete call when
		// propagation explains it.
		var k int32
		ok := false
		switch {
		case broken:
			k, ok = s.whyLevel(), true
		case c.next == 0:
			k, ok = s.explain(c)
		}
		if !ok {
			r, err := s.full(nil)
			if err != nil {
				return false, err
			}
			if r == 1 {
				return false, fmt.Errorf("%w: a choice has no candidate on a satisfiable path", errInternal)
			}
			k = s.whyLevel()
		}
		if !s.backjump(k) {
			return false, nil
		}
	}
}
