package constraints

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Problem is a set of constraints over variables identified by values of
// type V; every constraint carries a caller-supplied reason of type R that
// conflict cores return. The zero value is an empty problem ready to use.
// A Problem is not safe for concurrent mutation; Solve does not modify it,
// so any number of goroutines may call Solve on the same Problem at once as
// long as none of them mutates it.
//
// Variables are ordered by first mention (in Var or any constraint); that
// order is the order in which mandatory variables anchor the search.
type Problem[V comparable, R any] struct {
	index map[V]int32 // variable → dense index
	vars  []V         // dense index → variable, in first-mention order
	cons  []con[V, R] // constraints in insertion order
	ints  []int32     // arena of variable lists referenced by cons
	// fallbackAfter is the base number of backjumps after which the
	// engine's search hands over to gini; 0 means defaultFallbackAfter
	// (tests set it, negative, to take the fallback at once).
	fallbackAfter int
}

// con is the internal form of one constraint.
type con[V comparable, R any] struct {
	kind   Kind
	n      int   // AtMost
	subj   int32 // subject (Dependency) or -1
	lo, hi int32 // variable list in Problem.ints
	reason R
}

func (p *Problem[V, R]) id(v V) int32 {
	if i, ok := p.index[v]; ok {
		return i
	}
	if p.index == nil {
		p.index = make(map[V]int32, len(p.vars))
		for i, v := range p.vars { // after DropConstraints
			p.index[v] = int32(i)
		}
		if i, ok := p.index[v]; ok {
			return i
		}
	}
	i := int32(len(p.vars))
	p.index[v] = i
	p.vars = append(p.vars, v)
	return i
}

func (p *Problem[V, R]) list(vs []V) (lo, hi int32) {
	lo = int32(len(p.ints))
	for _, v := range vs {
		p.ints = append(p.ints, p.id(v))
	}
	return lo, int32(len(p.ints))
}

func (p *Problem[V, R]) add(c con[V, R]) {
	p.cons = append(p.cons, c)
}

// Grow reserves room for about vars more variables and constraints more
// constraints, so that adding them does not reallocate. It is only an
// optimisation: callers that know the size of their problem save the
// repeated growth of the variable index.
func (p *Problem[V, R]) Grow(vars, constraints int) {
	if vars > 0 {
		if len(p.index) == 0 {
			p.index = make(map[V]int32, vars)
		}
		p.vars = slices.Grow(p.vars, vars)
	}
	if constraints > 0 {
		p.cons = slices.Grow(p.cons, constraints)
		p.ints = slices.Grow(p.ints, 2*constraints)
	}
}

// Var declares v (a no-op if already known).
func (p *Problem[V, R]) Var(v V) { p.id(v) }

// Mandatory: v must be selected.
func (p *Problem[V, R]) Mandatory(reason R, v V) {
	lo, hi := p.list([]V{v})
	p.add(con[V, R]{kind: KindMandatory, subj: -1, lo: lo, hi: hi, reason: reason})
}

// Prohibited: v must not be selected.
func (p *Problem[V, R]) Prohibited(reason R, v V) {
	lo, hi := p.list([]V{v})
	p.add(con[V, R]{kind: KindProhibited, subj: -1, lo: lo, hi: hi, reason: reason})
}

// Dependency: if subject is selected, at least one of candidates is; the
// order of candidates is the preference, most preferred first. With no
// candidates, subject cannot be selected. Repeated candidates count once,
// at their first position. The candidates slice is copied.
func (p *Problem[V, R]) Dependency(reason R, subject V, candidates ...V) {
	s := p.id(subject)
	lo, hi := p.list(candidates)
	p.add(con[V, R]{kind: KindDependency, subj: s, lo: lo, hi: hi, reason: reason})
}

// Conflict: a and b are not both selected. Conflict(r, a, a) prohibits a.
func (p *Problem[V, R]) Conflict(reason R, a, b V) {
	lo, hi := p.list([]V{a, b})
	p.add(con[V, R]{kind: KindConflict, subj: -1, lo: lo, hi: hi, reason: reason})
}

// AtMost: at most n of vs are selected. vs is a set: a variable listed twice
// counts once. With n < 0 the constraint cannot be satisfied. The vs slice
// is copied.
func (p *Problem[V, R]) AtMost(reason R, n int, vs ...V) {
	lo, hi := p.list(vs)
	p.add(con[V, R]{kind: KindAtMost, n: n, subj: -1, lo: lo, hi: hi, reason: reason})
}

// Vars returns the variables of p in variable order (first mention). The
// caller owns the slice.
func (p *Problem[V, R]) Vars() []V {
	return append([]V(nil), p.vars...)
}

// NumVars returns the number of variables of p: those declared with Var or
// mentioned by a constraint. They are numbered from 0 in order of first
// mention, the order of Vars; VarAt returns one without copying them all.
func (p *Problem[V, R]) NumVars() int { return len(p.vars) }

// VarAt returns the variable numbered i (see NumVars). It panics when i is
// not in [0, NumVars()).
func (p *Problem[V, R]) VarAt(i int) V { return p.vars[i] }

// Len returns the number of constraints added to p.
func (p *Problem[V, R]) Len() int { return len(p.cons) }

// DropConstraints lets go of p's constraints and of its index of
// variables, keeping the variables themselves (NumVars, VarAt): what a
// caller that holds a large solved problem, to read its Solution, no
// longer needs. p stays usable: Len is then 0, and variables and
// constraints may be added again.
func (p *Problem[V, R]) DropConstraints() {
	p.cons, p.ints, p.index = nil, nil, nil
}

// Constraints returns the constraints of p in the order they were added.
// The caller owns the slice and the Vars slices inside it (Expr values are
// shared and immutable).
func (p *Problem[V, R]) Constraints() []Constraint[V, R] {
	out := make([]Constraint[V, R], len(p.cons))
	for i := range p.cons {
		out[i] = p.constraint(i)
	}
	return out
}

func (p *Problem[V, R]) constraint(i int) Constraint[V, R] {
	c := &p.cons[i]
	out := Constraint[V, R]{Kind: c.kind, Reason: c.reason}
	vs := make([]V, 0, c.hi-c.lo)
	for _, x := range p.ints[c.lo:c.hi] {
		vs = append(vs, p.vars[x])
	}
	switch c.kind {
	case KindMandatory, KindProhibited:
		out.Subject = vs[0]
	case KindConflict:
		out.Subject, out.Vars = vs[0], vs[1:]
	case KindDependency:
		out.Subject, out.Vars = p.vars[c.subj], vs
	case KindAtMost:
		out.Vars, out.N = vs, c.n
	}
	return out
}

// Solution is a satisfying selection. The zero value selects nothing. A
// Solution is immutable and safe for concurrent use.
type Solution[V comparable] struct {
	selected []V
	once     sync.Once
	set      map[V]struct{}
}

// Selected returns the selected variables in variable order (first mention).
// The caller owns the slice.
func (s *Solution[V]) Selected() []V {
	return append([]V(nil), s.selected...)
}

// Len returns the number of selected variables.
func (s *Solution[V]) Len() int { return len(s.selected) }

// IsSelected reports whether v is selected.
func (s *Solution[V]) IsSelected(v V) bool {
	s.once.Do(func() {
		s.set = make(map[V]struct{}, len(s.selected))
		for _, x := range s.selected {
			s.set[x] = struct{}{}
		}
	})
	_, ok := s.set[v]
	return ok
}

// Solve finds the preferred solution of p (see the package documentation),
// or returns an *UnsatError[V, R] holding a minimal conflict core. When ctx
// ends first it returns an error e with errors.Is(e, ctx.Err()).
//
// Solve does not modify p and builds fresh solver state on every call, so
// concurrent calls on the same unmodified Problem are safe. The answer
// depends only on p: the same problem always gives the same solution or the
// same core.
func Solve[V comparable, R any](ctx context.Context, p *Problem[V, R]) (*Solution[V], error) {
	return solve(ctx, p)
}

// Kind is the kind of a constraint.
type Kind uint8

// Constraint kinds.
const (
	KindMandatory Kind = iota + 1
	KindProhibited
	KindDependency
	KindConflict
	KindAtMost
)

// String returns the kind in words: mandatory, prohibited, dependency,
// conflict or at most.
func (k Kind) String() string {
	switch k {
	case KindMandatory:
		return "mandatory"
	case KindProhibited:
		return "prohibited"
	case KindDependency:
		return "dependency"
	case KindConflict:
		return "conflict"
	case KindAtMost:
		return "at most"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Constraint is one constraint as the caller added it.
type Constraint[V comparable, R any] struct {
	Kind    Kind
	Reason  R
	Subject V   // Mandatory, Prohibited, Dependency; Conflict's first
	Vars    []V // Dependency's candidates; Conflict's second; AtMost's set
	N       int // AtMost
}

// String renders c as, for example, "dependency a -> [b c] (reason)".
func (c Constraint[V, R]) String() string {
	switch c.Kind {
	case KindMandatory, KindProhibited:
		return fmt.Sprintf("%v %v (%v)", c.Kind, c.Subject, c.Reason)
	case KindDependency:
		return fmt.Sprintf("dependency %v -> %v (%v)", c.Subject, c.Vars, c.Reason)
	case KindConflict:
		return fmt.Sprintf("conflict %v %v (%v)", c.Subject, c.Vars[0], c.Reason)
	case KindAtMost:
		return fmt.Sprintf("at most %d of %v (%v)", c.N, c.Vars, c.Reason)
	}
	return fmt.Sprintf("%v (%v)", c.Kind, c.Reason)
}

// UnsatError reports an unsatisfiable problem. Core is a minimal
// unsatisfiable subset of the problem's constraints — dropping any one makes
// the rest satisfiable — in the order they were added.
type UnsatError[V comparable, R any] struct {
	Core []Constraint[V, R]
}

// Error lists the reasons of the core, formatted with %v, in core order:
// "unsatisfiable: r1; r2; r3".
func (e *UnsatError[V, R]) Error() string {
	var b strings.Builder
	b.WriteString("unsatisfiable: ")
	for i, c := range e.Core {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprint(&b, c.Reason)
	}
	return b.String()
}
