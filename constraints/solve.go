package constraints

import (
	"context"
	"errors"
	"fmt"
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

// solver is the state of one search (or core); Solve makes a fresh one
// for each search and core, so none is shared between goroutines.
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
	switch {
	case only != nil:
		s.numberSubset()
	case acts:
		s.top += z.Var(nc)
	case mode == modeGini:
		s.top++ // the single activation literal
	}
	s.initBackend(mode)
	s.mark = make([]uint32, nv)
	s.clause = make([]z.Lit, 0, 16)
	if acts {
		return s
	}
	s.initSearch()
	return s
}

// numberSubset gives the subset of constraints s.only its own dense
// numbering: activation literals first, then the variables it mentions.
func (s *solver[V, R]) numberSubset() {
	p := s.p
	s.nc = int32(len(s.only))
	s.actBase = 1
	s.vmap = make([]int32, s.nv)
	s.top = z.Var(s.nc)
	see := func(v int32) {
		if s.vmap[v] == 0 {
			s.top++
			s.vmap[v] = int32(s.top)
		}
	}
	for _, j := range s.only {
		c := &p.cons[j]
		if c.kind == KindDependency {
			see(c.subj)
		}
		for _, v := range p.ints[c.lo:c.hi] {
			see(v)
		}
	}
}

// initBackend makes the engine (modeEngine) or gini, sized once from an
// estimate of the auxiliary variables and literals the constraints need.
func (s *solver[V, R]) initBackend(mode int) {
	p := s.p
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
	if mode == modeEngine {
		s.e = &engine{
			start: make([]int32, 1, len(p.cons)+aux+1),
			lits:  make([]z.Lit, 0, lits),
		}
		return
	}
	// gini preallocates per-literal watch lists up to its capacity hint
	// but grows lazily beyond it: start small and grow once to the
	// largest variable with a tautology (which gini drops).
	s.g = gini.NewVc(0, lits/4+16) // gini reserves 5 literals per unit of hint
	maxVar := (s.top + z.Var(aux) + 1).Pos()
	s.g.Add(maxVar)
	s.g.Add(maxVar.Not())
	s.g.Add(z.LitNull)
}

// initSearch builds the search structures: the Dependency constraints by
// subject (adjacency), and the choice per variable.
func (s *solver[V, R]) initSearch() {
	p, nv := s.p, s.nv
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
