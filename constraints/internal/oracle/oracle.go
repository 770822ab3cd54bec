// Package oracle is a brute-force reference implementation of the
// semantics of package constraints, for tiny problems: it enumerates every
// assignment of the variables, so it is exponential in their number and
// refuses more than MaxVars.
//
// It implements the definition in the constraints package documentation
// literally: the FIFO queue of choices, and for every choice the first
// candidate such that the constraints, everything assumed so far and that
// candidate have a model (checked by enumeration). It also checks the two
// facts the solver relies on, and reports an error when either fails: a
// choice always has an acceptable candidate while the assumptions have a
// model, and the set of chosen variables is itself a model.
package oracle

import (
	"fmt"
	"math/bits"

	"github.com/sextantdev/sextant/constraints"
)

// MaxVars is the largest number of variables the oracle accepts.
const MaxVars = 16

type problem[V comparable, R any] struct {
	index map[V]int
	cs    []constraints.Constraint[V, R]
	cc    []ccon
}

// ccon and cexpr are constraints and expressions compiled to bit masks.
type ccon struct {
	kind constraints.Kind
	subj uint64 // subject bit (Conflict: first)
	mask uint64 // candidates / set / Conflict's second
	n    int
	e    *cexpr
}

type cexpr struct {
	op   constraints.ExprOp
	mask uint64 // OneOf
	kids []*cexpr
}

func newProblem[V comparable, R any](vars []V, cs []constraints.Constraint[V, R]) (*problem[V, R], error) {
	if len(vars) > MaxVars {
		return nil, fmt.Errorf("oracle: %d variables, at most %d", len(vars), MaxVars)
	}
	p := &problem[V, R]{index: make(map[V]int, len(vars)), cs: cs}
	for i, v := range vars {
		p.index[v] = i
	}
	var err error
	bit := func(v V) uint64 {
		i, ok := p.index[v]
		if !ok && err == nil {
			err = fmt.Errorf("oracle: variable %v not declared", v)
		}
		return 1 << i
	}
	var compile func(e constraints.Expr[V]) *cexpr
	compile = func(e constraints.Expr[V]) *cexpr {
		c := &cexpr{op: e.Op()}
		for _, v := range e.Vars() {
			c.mask |= bit(v)
		}
		for _, k := range e.Children() {
			c.kids = append(c.kids, compile(k))
		}
		return c
	}
	for _, c := range cs {
		cc := ccon{kind: c.Kind, n: c.N}
		if c.Kind != constraints.KindAtMost {
			cc.subj = bit(c.Subject)
		}
		for _, v := range c.Vars {
			cc.mask |= bit(v)
		}
		if c.Kind == constraints.KindRequires {
			cc.e = compile(c.Expr)
		}
		p.cc = append(p.cc, cc)
	}
	return p, err
}

func (p *problem[V, R]) bit(v V) uint64 { return 1 << p.index[v] }

// holds reports whether assignment m (bit i = variable i) satisfies c.
func holds(c *ccon, m uint64) bool {
	switch c.kind {
	case constraints.KindMandatory:
		return m&c.subj != 0
	case constraints.KindProhibited:
		return m&c.subj == 0
	case constraints.KindDependency:
		return m&c.subj == 0 || m&c.mask != 0
	case constraints.KindConflict:
		return m&c.subj == 0 || m&c.mask == 0
	case constraints.KindAtMost:
		return bits.OnesCount64(m&c.mask) <= c.n
	case constraints.KindRequires:
		return m&c.subj == 0 || eval(c.e, m)
	}
	panic(fmt.Sprintf("oracle: unknown kind %v", c.kind))
}

func (p *problem[V, R]) holdsAll(m uint64) bool {
	for i := range p.cc {
		if !holds(&p.cc[i], m) {
			return false
		}
	}
	return true
}

// eval is the Boolean meaning of e under assignment m.
func eval(e *cexpr, m uint64) bool {
	switch e.op {
	case constraints.OpOneOf:
		return m&e.mask != 0
	case constraints.OpAll:
		for _, k := range e.kids {
			if !eval(k, m) {
				return false
			}
		}
		return true
	case constraints.OpAny:
		for _, k := range e.kids {
			if eval(k, m) {
				return true
			}
		}
		return false
	case constraints.OpNone:
		for _, k := range e.kids {
			if eval(k, m) {
				return false
			}
		}
		return true
	}
	panic("oracle: unknown operator")
}

// settled: the definition of "already satisfied by the chosen set" for the
// children of an Any (None is never settled).
func settled(e *cexpr, chosen uint64) bool {
	switch e.op {
	case constraints.OpOneOf:
		return chosen&e.mask != 0
	case constraints.OpAll:
		for _, k := range e.kids {
			if !settled(k, chosen) {
				return false
			}
		}
		return true
	case constraints.OpAny:
		for _, k := range e.kids {
			if settled(k, chosen) {
				return true
			}
		}
		return false
	}
	return false
}

func (p *problem[V, R]) models(n int) []uint64 {
	var out []uint64
	for m := uint64(0); m < 1<<n; m++ {
		if p.holdsAll(m) {
			out = append(out, m)
		}
	}
	return out
}

// choice is either a list of candidate variables or an Any expression.
type choice[V comparable] struct {
	vars []V
	any  *cexpr
}

// Solve returns the preferred solution of the problem made of vars (in
// variable order) and cs (in insertion order), or sat == false. err reports
// bad input or a violated invariant (a bug in the definition or the oracle).
func Solve[V comparable, R any](vars []V, cs []constraints.Constraint[V, R]) (selected []V, sat bool, err error) {
	p, err := newProblem(vars, cs)
	if err != nil {
		return nil, false, err
	}
	live := p.models(len(vars))
	if len(live) == 0 {
		return nil, false, nil
	}
	var chosen uint64
	var queue []choice[V]
	var enqueue func(e *cexpr, orig constraints.Expr[V])
	enqueue = func(e *cexpr, orig constraints.Expr[V]) {
		switch e.op {
		case constraints.OpOneOf:
			queue = append(queue, choice[V]{vars: orig.Vars()})
		case constraints.OpAll:
			for i, k := range orig.Children() {
				enqueue(e.kids[i], k)
			}
		case constraints.OpAny:
			queue = append(queue, choice[V]{any: e})
		}
	}
	// Any choices carry only the compiled form; keep the originals of
	// their children to enqueue OneOf candidates in order.
	origs := map[*cexpr]constraints.Expr[V]{}
	var record func(e *cexpr, orig constraints.Expr[V])
	record = func(e *cexpr, orig constraints.Expr[V]) {
		origs[e] = orig
		for i, k := range orig.Children() {
			record(e.kids[i], k)
		}
	}
	for i, c := range cs {
		if c.Kind == constraints.KindRequires {
			record(p.cc[i].e, c.Expr)
		}
	}
	for _, c := range cs {
		if c.Kind == constraints.KindMandatory {
			queue = append(queue, choice[V]{vars: []V{c.Subject}})
		}
	}
	filter := func(keep func(uint64) bool) []uint64 {
		var out []uint64
		for _, m := range live {
			if keep(m) {
				out = append(out, m)
			}
		}
		return out
	}
	for head := 0; head < len(queue); head++ {
		ch := queue[head]
		if ch.any == nil {
			done := false
			for _, v := range ch.vars {
				if chosen&p.bit(v) != 0 {
					done = true
				}
			}
			if done {
				continue
			}
			found := false
			for _, v := range ch.vars {
				b := p.bit(v)
				if next := filter(func(m uint64) bool { return m&b != 0 }); len(next) > 0 {
					live, found = next, true
					chosen |= b
					for i, c := range cs {
						if c.Kind == constraints.KindAtMost || c.Subject != v {
							continue
						}
						switch c.Kind {
						case constraints.KindDependency:
							queue = append(queue, choice[V]{vars: c.Vars})
						case constraints.KindRequires:
							enqueue(p.cc[i].e, c.Expr)
						}
					}
					break
				}
			}
			if !found {
				return nil, false, fmt.Errorf("oracle: invariant violated: choice %v has no acceptable candidate on a satisfiable path", ch.vars)
			}
			continue
		}
		done := false
		for _, k := range ch.any.kids {
			if settled(k, chosen) {
				done = true
			}
		}
		if done {
			continue
		}
		found := false
		for _, k := range ch.any.kids {
			if next := filter(func(m uint64) bool { return eval(k, m) }); len(next) > 0 {
				live, found = next, true
				enqueue(k, origs[k])
				break
			}
		}
		if !found {
			return nil, false, fmt.Errorf("oracle: invariant violated: choice %v has no acceptable child on a satisfiable path", origs[ch.any])
		}
	}
	if !p.holdsAll(chosen) {
		return nil, false, fmt.Errorf("oracle: invariant violated: the chosen set %b is not a model", chosen)
	}
	for i, v := range vars {
		if chosen&(1<<i) != 0 {
			selected = append(selected, v)
		}
	}
	return selected, true, nil
}

// Satisfiable reports whether the constraints cs over vars have a model.
func Satisfiable[V comparable, R any](vars []V, cs []constraints.Constraint[V, R]) (bool, error) {
	p, err := newProblem(vars, cs)
	if err != nil {
		return false, err
	}
	for m := uint64(0); m < 1<<len(vars); m++ {
		if p.holdsAll(m) {
			return true, nil
		}
	}
	return false, nil
}

// CheckCore returns an error unless core is unsatisfiable and every subset
// of it missing one constraint is satisfiable.
func CheckCore[V comparable, R any](vars []V, core []constraints.Constraint[V, R]) error {
	sat, err := Satisfiable(vars, core)
	if err != nil {
		return err
	}
	if sat {
		return fmt.Errorf("oracle: core is satisfiable: %v", core)
	}
	rest := make([]constraints.Constraint[V, R], 0, len(core))
	for i := range core {
		rest = append(rest[:0], core[:i]...)
		rest = append(rest, core[i+1:]...)
		sat, err := Satisfiable(vars, rest)
		if err != nil {
			return err
		}
		if !sat {
			return fmt.Errorf("oracle: core is not minimal: without %v it is still unsatisfiable", core[i])
		}
	}
	return nil
}

// IsModel reports whether selecting exactly selected satisfies cs.
func IsModel[V comparable, R any](vars []V, cs []constraints.Constraint[V, R], selected []V) (bool, error) {
	p, err := newProblem(vars, cs)
	if err != nil {
		return false, err
	}
	var m uint64
	for _, v := range selected {
		m |= p.bit(v)
	}
	return p.holdsAll(m), nil
}
