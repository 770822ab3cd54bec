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

// ccon is a constraint compiled to bit masks.
type ccon struct {
	kind constraints.Kind
	subj uint64 // subject bit (Conflict: first)
	mask uint64 // candidates / set / Conflict's second
	n    int
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
	for _, c := range cs {
		cc := ccon{kind: c.Kind, n: c.N}
		if c.Kind != constraints.KindAtMost {
			cc.subj = bit(c.Subject)
		}
		for _, v := range c.Vars {
			cc.mask |= bit(v)
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

func (p *problem[V, R]) models(n int) []uint64 {
	var out []uint64
	for m := uint64(0); m < 1<<n; m++ {
		if p.holdsAll(m) {
			out = append(out, m)
		}
	}
	return out
}

// choice is a list of candidate variables, in preference order.
type choice[V comparable] struct {
	vars []V
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
				for _, c := range cs {
					if c.Kind == constraints.KindDependency && c.Subject == v {
						queue = append(queue, choice[V]{vars: c.Vars})
					}
				}
				break
			}
		}
		if !found {
			return nil, false, fmt.Errorf("oracle: invariant violated: choice %v has no acceptable candidate on a satisfiable path", ch.vars)
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
