package constraints

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/go-air/gini"
	"github.com/go-air/gini/z"
)

// errFallback makes the engine search hand over to gini.
var errFallback = errors.New("constraints: fallback")

// errInternal marks a broken solver invariant; it is a bug if ever seen.
var errInternal = errors.New("constraints: internal error")

// slice bounds one uninterrupted SAT call when the context can be cancelled,
// so that cancellation is noticed well within 50 ms.
const slice = 20 * time.Millisecond

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

// solver is the state of one search (or core) at a time; a Solver reuses
// one for many searches, never concurrently.
type solver[V comparable, R any] struct {
	p  *Problem[V, R]
	g  *gini.Gini
	nv int32 // real variables: solver variables 1..nv
	nc int32 // constraints: activation variables nv+1..nv+nc when acts

	acts bool    // clauses carry activation literals (for cores)
	e    *engine // the propagation engine, or nil when gini searches
	// ready: the engine is initialised; broken: its initial propagation
	// failed.
	ready, broken bool

	actBase z.Var   // first activation variable
	only    []int32 // the constraints encoded, nil for all
	vmap    []int32 // with only: variable → solver variable
	top     z.Var   // highest solver variable allocated
	adjOff  []int32 // per variable: range in adj
	adj     []int32 // Dependency constraints by subject, insertion order
	chosen  []bool  // per real variable: assumed on the current search path
	level   []int32 // per solver variable: index of the stack entry assuming it, or -1

	mand  []choice // the choices of the Mandatory constraints (engine search)
	q     []choice
	qh    int32
	stack []entry

	clause []z.Lit
	buf    []z.Lit
	sets   []int32 // arena of conflict sets (engine search)
	eset   []int32 // the conflict set of the current dead end
	mark   []uint32
	stamp  uint32
	uniq   []int32

	ctx   context.Context
	done  <-chan struct{}
	steps int
}

func solve[V comparable, R any](ctx context.Context, p *Problem[V, R]) (*Solution[V], error) {
	if err := ctx.Err(); err != nil {
		return nil, notStarted(err)
	}
	s := newSolver(ctx, p, modeEngine, nil)
	s.encode()
	sat, err := s.searchFast()
	if err == errFallback {
		// Too much backtracking for plain propagation: let gini's
		// clause learning search the same tree.
		s = newSolver(ctx, p, modeGini, nil)
		s.encode()
		sat, err = s.search()
	}
	if err != nil {
		return nil, err
	}
	if sat {
		return s.solution(), nil
	}
	// Cores need activation literals; satisfiable problems, the common
	// case, are cheaper without them.
	s = newSolver(ctx, p, modeActs, nil)
	s.encode()
	core, err := s.core()
	if err != nil {
		return nil, err
	}
	e := &UnsatError[V, R]{Core: make([]Constraint[V, R], len(core))}
	for i, j := range core {
		e.Core[i] = p.constraint(int(j))
	}
	return nil, e
}

// Solver modes.
const (
	modeEngine = iota // search with the engine
	modeGini          // search with gini (fallback)
	modeActs          // gini with one activation literal per constraint (cores)
)

// solution returns the chosen set.
func (s *solver[V, R]) solution() *Solution[V] {
	n := 0
	for _, c := range s.chosen {
		if c {
			n++
		}
	}
	sel := make([]V, 0, n)
	for i, c := range s.chosen {
		if c {
			sel = append(sel, s.p.vars[i])
		}
	}
	return &Solution[V]{selected: sel}
}

func newSolver[V comparable, R any](ctx context.Context, p *Problem[V, R], mode int, only []int32) *solver[V, R] {
	acts := mode == modeActs
	nv, nc := int32(len(p.vars)), int32(len(p.cons))
	s := &solver[V, R]{
		p:    p,
		nv:   nv,
		nc:   nc,
		top:  z.Var(nv),
		acts: acts,
		only: only,
		ctx:  ctx,
		done: ctx.Done(),
	}
	s.actBase = z.Var(nv + 1)
	if only != nil {
		// A subset gets its own dense numbering: activation literals
		// first, then the variables it mentions.
		s.nc = int32(len(only))
		s.actBase = 1
		s.vmap = make([]int32, nv)
		s.top = z.Var(s.nc)
		see := func(v int32) {
			if s.vmap[v] == 0 {
				s.top++
				s.vmap[v] = int32(s.top)
			}
		}
		for _, j := range only {
			c := &p.cons[j]
			if c.kind == KindDependency {
				see(c.subj)
			}
			for _, v := range p.ints[c.lo:c.hi] {
				see(v)
			}
		}
	} else if acts {
		s.top += z.Var(nc)
	} else if mode == modeGini {
		s.top++ // the single activation literal
	}
	// Estimate auxiliary variables and literals to size gini once.
	aux, lits := 0, 0
	for pos := range s.nc {
		c := &p.cons[s.index(pos)]
		k := int(c.hi - c.lo)
		switch c.kind {
		case KindAtMost:
			if c.n > 0 && c.n < k {
				aux += (k - 1) * c.n
				lits += 3 * 2 * (k - 1) * c.n
			}
		}
		lits += k + 3
	}
	// gini preallocates per-literal watch lists up to its capacity hint
	// but grows lazily beyond it: start small and grow once to the
	// largest variable with a tautology (which gini drops).
	if mode == modeEngine {
		s.e = &engine{
			start: make([]int32, 1, len(p.cons)+aux+1),
			lits:  make([]z.Lit, 0, lits),
		}
	} else {
		s.g = gini.NewVc(0, lits/4+16) // gini reserves 5 literals per unit of hint
		maxVar := (s.top + z.Var(aux) + 1).Pos()
		s.g.Add(maxVar)
		s.g.Add(maxVar.Not())
		s.g.Add(z.LitNull)
	}
	s.mark = make([]uint32, nv)
	s.clause = make([]z.Lit, 0, 16)
	if acts {
		return s
	}
	// Search structures. Adjacency of Dependency constraints by subject.
	s.adjOff = make([]int32, nv+1)
	for j := range p.cons {
		if c := &p.cons[j]; c.kind == KindDependency {
			s.adjOff[c.subj+1]++
		}
	}
	for i := int32(1); i <= nv; i++ {
		s.adjOff[i] += s.adjOff[i-1]
	}
	s.adj = make([]int32, s.adjOff[nv])
	fill := make([]int32, nv)
	copy(fill, s.adjOff[:nv])
	for j := range p.cons {
		if c := &p.cons[j]; c.kind == KindDependency {
			s.adj[fill[c.subj]] = int32(j)
			fill[c.subj]++
		}
	}
	s.chosen = make([]bool, nv)
	return s
}

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

func (s *solver[V, R]) fresh() z.Var {
	s.top++
	return s.top
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

// cancelled reports, every 64 search steps, whether the context has ended;
// it costs nothing when the context cannot end.
func (s *solver[V, R]) cancelled() bool {
	if s.done == nil {
		return false
	}
	if s.steps++; s.steps&63 != 0 {
		return false
	}
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

func notStarted(err error) error {
	return fmt.Errorf("constraints: solve not started: %w", err)
}

func (s *solver[V, R]) interrupted() error {
	return fmt.Errorf("constraints: solve interrupted: %w", s.ctx.Err())
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
		accepted, broken := false, false
		for i, n := c.next, s.ncand(c); i < n; i++ {
			v := s.cand(c, i)
			g.Assume(v.Pos())
			r, _ := g.Test(nil)
			if r == -1 {
				if g.Untest() == -1 {
					// What gini learned from the failed test shows the
					// path itself inconsistent.
					broken = true
					break
				}
				continue
			}
			s.push(c, i, v)
			accepted = true
			break
		}
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
