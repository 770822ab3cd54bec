package constraints

import (
	"github.com/go-air/gini/z"
)

// The encoding of a Problem as clauses, for gini and for the engine.

// lit returns the literal of variable v.
func (s *solver[V, R]) lit(v int32) z.Lit {
	if s.vmap != nil {
		return z.Var(s.vmap[v]).Pos()
	}
	return z.Var(v + 1).Pos()
}

// act returns the activation literal of the constraint at position pos (of
// s.only, or of the problem).
func (s *solver[V, R]) act(pos int) z.Lit { return (s.actBase + z.Var(pos)).Pos() }

// index returns the constraint at position pos.
func (s *solver[V, R]) index(pos int32) int32 {
	if s.only != nil {
		return s.only[pos]
	}
	return pos
}

// head starts the clause of constraint j: its negated activation literal
// when the solver has them.
func (s *solver[V, R]) head(j int) []z.Lit {
	switch {
	case s.acts:
		return append(s.clause[:0], s.act(j).Not())
	case s.e == nil:
		return append(s.clause[:0], s.act(0).Not())
	}
	return s.clause[:0]
}

// flush adds s.clause to gini.
func (s *solver[V, R]) flush() {
	if s.e != nil {
		s.e.add(s.clause)
		return
	}
	for _, m := range s.clause {
		s.g.Add(m)
	}
	s.g.Add(z.LitNull)
}

// encode adds the clauses of every constraint, each guarded by its
// activation literal: a constraint holds exactly when its activation
// literal is assumed true. Auxiliary variables (counter registers,
// selectors, negation tags) are existentially quantified: every clause that
// mentions them can be satisfied by some choice of their values whatever
// the real variables are, unless the constraint is active.
func (s *solver[V, R]) encode() {
	p := s.p
	for pos := range int(s.nc) {
		c := &p.cons[s.index(int32(pos))]
		j := pos
		switch c.kind {
		case KindMandatory:
			s.clause = append(s.head(j), s.lit(p.ints[c.lo]))
			s.flush()
		case KindProhibited:
			s.clause = append(s.head(j), s.lit(p.ints[c.lo]).Not())
			s.flush()
		case KindDependency:
			s.clause = append(s.head(j), s.lit(c.subj).Not())
			for _, v := range p.ints[c.lo:c.hi] {
				s.clause = append(s.clause, s.lit(v))
			}
			s.flush()
		case KindConflict:
			s.clause = append(s.head(j), s.lit(p.ints[c.lo]).Not(), s.lit(p.ints[c.lo+1]).Not())
			s.flush()
		case KindAtMost:
			s.atMost(j, c.n, p.ints[c.lo:c.hi])
		}
	}
	s.level = make([]int32, s.top+1)
	for i := range s.level {
		s.level[i] = -1
	}
}

// atMost encodes "at most n of vs" with a sequential counter (Sinz 2005),
// whose registers are implied upward by the variables, and whose overflow
// clauses alone carry the activation literal. Unit propagation enforces the
// bound as soon as n variables are true.
func (s *solver[V, R]) atMost(j int, n int, vs []int32) {
	s.stamp++
	u := s.uniq[:0]
	for _, v := range vs {
		if s.mark[v] != s.stamp {
			s.mark[v] = s.stamp
			u = append(u, v)
		}
	}
	s.uniq = u
	k := len(u)
	switch {
	case n < 0:
		s.clause = s.head(j)
		s.flush()
		return
	case n >= k:
		return
	case n == 0:
		for _, v := range u {
			s.clause = append(s.head(j), s.lit(v).Not())
			s.flush()
		}
		return
	case n == 1 && k <= 5:
		for i := range k {
			for l := i + 1; l < k; l++ {
				s.clause = append(s.head(j), s.lit(u[i]).Not(), s.lit(u[l]).Not())
				s.flush()
			}
		}
		return
	}
	// r(i, j): "at least j+1 of u[0..i] are true" (implied upward).
	var prev z.Var // first register of row i-1
	for i := range k {
		x := s.lit(u[i])
		if i > 0 {
			s.clause = append(s.head(j), x.Not(), (prev + z.Var(n-1)).Pos().Not())
			s.flush()
		}
		if i == k-1 {
			break
		}
		cur := s.top + 1
		s.top += z.Var(n)
		s.clause = append(s.clause[:0], x.Not(), cur.Pos())
		s.flush()
		for b := range n {
			r := (cur + z.Var(b)).Pos()
			if i == 0 {
				if b > 0 {
					s.clause = append(s.head(j), r.Not())
					s.flush()
				}
				continue
			}
			s.clause = append(s.clause[:0], (prev + z.Var(b)).Pos().Not(), r)
			s.flush()
			if b > 0 {
				s.clause = append(s.clause[:0], x.Not(), (prev + z.Var(b-1)).Pos().Not(), r)
				s.flush()
			}
		}
		prev = cur
	}
}
