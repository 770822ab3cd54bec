// Package constraints is a small constraint model over identified boolean
// variables, solved with preference-ordered search.
//
// CONTRACT FILE: the signatures below are the API the resolver builds on.
// Bodies marked "not implemented" are filled in by the constraints work;
// signatures and documented semantics must stay (adding is fine).
package constraints

import "context"

// Problem is a set of constraints over variables identified by values of
// type V; every constraint carries a caller-supplied reason of type R that
// conflict cores return. The zero value is an empty problem ready to use.
// A Problem is not safe for concurrent mutation; Solve does not modify it.
//
// Variables are ordered by first mention (in Var or any constraint); that
// order is the order in which mandatory variables anchor the search.
type Problem[V comparable, R any] struct{}

// Var declares v (a no-op if already known).
func (p *Problem[V, R]) Var(v V) { panic("not implemented") }

// Mandatory: v must be selected.
func (p *Problem[V, R]) Mandatory(reason R, v V) { panic("not implemented") }

// Prohibited: v must not be selected.
func (p *Problem[V, R]) Prohibited(reason R, v V) { panic("not implemented") }

// Dependency: if subject is selected, at least one of candidates is; the
// order of candidates is the preference, most preferred first. With no
// candidates, subject cannot be selected.
func (p *Problem[V, R]) Dependency(reason R, subject V, candidates ...V) { panic("not implemented") }

// Conflict: a and b are not both selected.
func (p *Problem[V, R]) Conflict(reason R, a, b V) { panic("not implemented") }

// AtMost: at most n of vs are selected.
func (p *Problem[V, R]) AtMost(reason R, n int, vs ...V) { panic("not implemented") }

// Requires: if subject is selected, e holds. See Expr.
func (p *Problem[V, R]) Requires(reason R, subject V, e Expr[V]) { panic("not implemented") }

// Expr is a compound requirement over sets of candidates, built with OneOf,
// All, Any and None.
type Expr[V comparable] struct{}

// OneOf holds when at least one of vs is selected (preference order).
func OneOf[V comparable](vs ...V) Expr[V] { panic("not implemented") }

// All holds when every child holds.
func All[V comparable](es ...Expr[V]) Expr[V] { panic("not implemented") }

// Any holds when at least one child holds; children are tried in order.
func Any[V comparable](es ...Expr[V]) Expr[V] { panic("not implemented") }

// None holds when no child holds.
func None[V comparable](es ...Expr[V]) Expr[V] { panic("not implemented") }

// Solution is a satisfying selection.
type Solution[V comparable] struct{}

// Selected returns the selected variables in variable order (first mention).
// The caller owns the slice.
func (s *Solution[V]) Selected() []V { panic("not implemented") }

// IsSelected reports whether v is selected.
func (s *Solution[V]) IsSelected(v V) bool { panic("not implemented") }

// Solve finds the preferred solution of p (see the package documentation),
// or returns an *UnsatError[V, R] holding a minimal conflict core. When ctx
// ends first it returns an error e with errors.Is(e, ctx.Err()).
func Solve[V comparable, R any](ctx context.Context, p *Problem[V, R]) (*Solution[V], error) {
	panic("not implemented")
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
	KindRequires
)

// Constraint is one constraint as the caller added it.
type Constraint[V comparable, R any] struct {
	Kind    Kind
	Reason  R
	Subject V   // Mandatory, Prohibited, Dependency, Requires; Conflict's first
	Vars    []V // Dependency's candidates; Conflict's second; AtMost's set
	N       int // AtMost
	Expr    Expr[V]
}

// UnsatError reports an unsatisfiable problem. Core is a minimal
// unsatisfiable subset of the problem's constraints — dropping any one makes
// the rest satisfiable — in the order they were added.
type UnsatError[V comparable, R any] struct {
	Core []Constraint[V, R]
}

func (e *UnsatError[V, R]) Error() string { panic("not implemented") }
