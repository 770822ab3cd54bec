package constraints_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"testing"

	"github.com/sextantdev/sextant/constraints"
	"github.com/sextantdev/sextant/constraints/internal/oracle"
	"github.com/sextantdev/sextant/internal/testcatalog"
)

// source produces the decisions of a random problem; the random tests read
// it from math/rand, the fuzz target from the fuzz input.
type source interface {
	IntN(n int) int
}

// bytesSource reads decisions from fuzz bytes, then zeros.
type bytesSource struct{ next func() int }

func (s bytesSource) IntN(n int) int { return s.next() % n }

func randomVars(r source, n, lo, hi int) []int {
	k := lo + r.IntN(hi-lo+1)
	vs := make([]int, k)
	for i := range vs {
		vs[i] = r.IntN(n)
	}
	return vs
}

// layeredProblem builds a problem whose mandatory roots depend on layers of
// alternatives with conflicts further down, so that unit propagation alone
// cannot tell which candidates work: the search must backtrack.
func layeredProblem(r source) *constraints.Problem[int, int] {
	var p constraints.Problem[int, int]
	var layers [][]int
	n := 0
	for l := range 3 + r.IntN(3) {
		k := 1 + r.IntN(2)
		if l > 0 {
			k = 2 + r.IntN(2)
		}
		if n+k > 12 {
			break
		}
		layer := make([]int, k)
		for i := range layer {
			layer[i] = n
			n++
		}
		layers = append(layers, layer)
	}
	reason := 0
	next := func() int { reason++; return reason - 1 }
	pick := func(layer []int) []int {
		vs := slices.Clone(layer)
		for i := len(vs) - 1; i > 0; i-- {
			j := r.IntN(i + 1)
			vs[i], vs[j] = vs[j], vs[i]
		}
		return vs[:1+r.IntN(len(vs))]
	}
	for _, v := range layers[0] {
		p.Mandatory(next(), v)
	}
	for l := 0; l+1 < len(layers); l++ {
		for _, v := range layers[l] {
			switch r.IntN(6) {
			case 0:
				// Two dependencies: both must be met.
				p.Dependency(next(), v, pick(layers[l+1])...)
				p.Dependency(next(), v, pick(layers[l+1])...)
			case 1:
			default:
				p.Dependency(next(), v, pick(layers[l+1])...)
			}
		}
	}
	for range 1 + r.IntN(n) {
		l := 1 + r.IntN(len(layers)-1)
		m := 1 + r.IntN(len(layers)-1)
		a, b := layers[l][r.IntN(len(layers[l]))], layers[m][r.IntN(len(layers[m]))]
		switch r.IntN(5) {
		case 0:
			p.AtMost(next(), 1, pick(layers[l])...)
		case 1:
			p.Prohibited(next(), a)
		default:
			if a != b {
				p.Conflict(next(), a, b)
			}
		}
	}
	return &p
}

// coloringProblem builds graph colouring: mandatory nodes each choose a
// colour variable in a random order, adjacent nodes conflict on equal
// colours, with an occasional extra limit or requirement. Propagation sees
// a conflict only once a node has no colour left, so the search backjumps
// often, and not only to the previous choice.
func coloringProblem(r source) *constraints.Problem[int, int] {
	var p constraints.Problem[int, int]
	nodes, colors := 3, 3
	if r.IntN(2) == 0 {
		nodes, colors = 4, 2
	}
	color := func(n, c int) int { return nodes + n*colors + c }
	reason := 0
	next := func() int { reason++; return reason - 1 }
	for n := range nodes {
		p.Mandatory(next(), n)
		cs := make([]int, colors)
		for c := range cs {
			cs[c] = color(n, c)
		}
		for i := len(cs) - 1; i > 0; i-- {
			j := r.IntN(i + 1)
			cs[i], cs[j] = cs[j], cs[i]
		}
		p.Dependency(next(), n, cs...)
	}
	for a := range nodes {
		for b := a + 1; b < nodes; b++ {
			if r.IntN(4) == 0 {
				continue
			}
			for c := range colors {
				p.Conflict(next(), color(a, c), color(b, c))
			}
		}
	}
	switch r.IntN(4) {
	case 0:
		c := r.IntN(colors)
		var vs []int
		for n := range nodes {
			vs = append(vs, color(n, c))
		}
		p.AtMost(next(), 1, vs...)
	case 1:
		p.Prohibited(next(), color(r.IntN(nodes), r.IntN(colors)))
	}
	return &p
}

// randomProblem builds a problem over at most 12 variables mixing every
// constraint kind; reasons are the constraint positions.
func randomProblem(r source) *constraints.Problem[int, int] {
	n := 1 + r.IntN(8)
	if r.IntN(8) == 0 {
		n = 9 + r.IntN(4)
	}
	var p constraints.Problem[int, int]
	if r.IntN(3) == 0 {
		for i := range n {
			p.Var((i * 7) % n)
		}
	}
	m := 1 + r.IntN(2*n+4)
	// Cumulative weights (out of 20) of mandatory, prohibited, dependency,
	// conflict and at-most; the rest is requires. The second style makes
	// deeper, mostly satisfiable searches.
	w := [5]int{4, 5, 12, 15, 17}
	if r.IntN(2) == 0 {
		w = [5]int{2, 2, 12, 13, 15}
	}
	for i := range m {
		switch k := r.IntN(20); {
		case k < w[0]:
			p.Mandatory(i, r.IntN(n))
		case k < w[1]:
			p.Prohibited(i, r.IntN(n))
		case k < w[2]:
			lo := 1
			if r.IntN(20) == 0 {
				lo = 0
			}
			p.Dependency(i, r.IntN(n), randomVars(r, n, lo, 4)...)
		case k < w[3]:
			a, b := r.IntN(n), r.IntN(n)
			if a == b && r.IntN(4) != 0 {
				b = (a + 1) % n
			}
			p.Conflict(i, a, b)
		case k < w[4]:
			k := r.IntN(3)
			if r.IntN(12) == 0 {
				k = -1
			}
			p.AtMost(i, k, randomVars(r, n, 1, 6)...)
		default:
			p.Dependency(i, r.IntN(n), randomVars(r, n, 0, 4)...)
		}
	}
	if r.IntN(2) == 0 {
		p.Mandatory(m, r.IntN(n))
	}
	return &p
}

// check compares Solve with the oracle on p.
func check(p *constraints.Problem[int, int]) error {
	vars, cs := p.Vars(), p.Constraints()
	want, sat, err := oracle.Solve(vars, cs)
	if err != nil {
		return err
	}
	got, err := constraints.Solve(context.Background(), p)
	if sat {
		if err != nil {
			return fmt.Errorf("solver: %v; oracle: satisfiable with %v", err, want)
		}
		if g := got.Selected(); !slices.Equal(g, want) {
			return fmt.Errorf("solver selected %v; oracle %v", g, want)
		}
		for _, v := range vars {
			if got.IsSelected(v) != slices.Contains(want, v) {
				return fmt.Errorf("IsSelected(%d) = %v, selected %v", v, got.IsSelected(v), want)
			}
		}
		return nil
	}
	var ue *constraints.UnsatError[int, int]
	if !errors.As(err, &ue) {
		return fmt.Errorf("solver: %v, %v; oracle: unsatisfiable", got, err)
	}
	last := -1
	for _, c := range ue.Core {
		if c.Reason <= last {
			return fmt.Errorf("core not in insertion order: %v", ue.Core)
		}
		last = c.Reason
		if !reflect.DeepEqual(c, cs[c.Reason]) {
			return fmt.Errorf("core constraint %v differs from the problem's %v", c, cs[c.Reason])
		}
	}
	if err := oracle.CheckCore(vars, ue.Core); err != nil {
		return fmt.Errorf("%v (core %v)", err, ue.Core)
	}
	return nil
}

func describe(p *constraints.Problem[int, int]) string {
	s := fmt.Sprintf("vars %v\n", p.Vars())
	for _, c := range p.Constraints() {
		s += fmt.Sprintf("  %v\n", c)
	}
	return s
}

// checkSeed compares the solver with the oracle on the problem that
// shapes[seed%len(shapes)] generates from the random stream (seed, stream).
func checkSeed(t *testing.T, seed int, stream uint64, shapes ...func(source) *constraints.Problem[int, int]) {
	t.Helper()
	r := rand.New(rand.NewPCG(uint64(seed), stream))
	p := shapes[seed%len(shapes)](r)
	if err := check(p); err != nil {
		t.Fatalf("seed %d: %v\n%s", seed, err, describe(p))
	}
}

// TestAgainstOracle compares the solver with the brute-force oracle on
// 100,000 seeded random problems (2,000 with -short).
func TestAgainstOracle(t *testing.T) {
	total := 100_000
	if testing.Short() {
		total = 2_000
	}
	workers := max(1, runtime.GOMAXPROCS(0))
	for w := range workers {
		t.Run(fmt.Sprintf("worker%d", w), func(t *testing.T) {
			t.Parallel()
			for seed := w; seed < total; seed += workers {
				checkSeed(t, seed, 3, randomProblem, randomProblem, layeredProblem, coloringProblem)
			}
		})
	}
}

// TestAgainstOracleFallback runs part of the comparison with the engine
// handing over to gini at the first dead end, to check that path too.
func TestAgainstOracleFallback(t *testing.T) {
	total := 20_000
	if testing.Short() {
		total = 1_000
	}
	atOnce := func(shape func(source) *constraints.Problem[int, int]) func(source) *constraints.Problem[int, int] {
		return func(r source) *constraints.Problem[int, int] {
			p := shape(r)
			constraints.SetFallbackAfter(p, -1<<30)
			return p
		}
	}
	for seed := range total {
		checkSeed(t, seed, 5, atOnce(layeredProblem), atOnce(coloringProblem), atOnce(randomProblem))
	}
}

// FuzzSolve decodes a problem from the fuzz input and compares the solver
// with the oracle.
func FuzzSolve(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{3, 1, 2, 0, 0, 5, 7, 1, 2, 3, 4})
	f.Add([]byte{8, 0, 200, 17, 3, 3, 9, 1, 0, 0, 15, 2, 2, 1, 19, 1, 2, 2, 0, 1})
	for seed := range 20 {
		r := rand.New(rand.NewPCG(uint64(seed), 9))
		b := make([]byte, 40)
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		p := randomProblem(bytesSource{testcatalog.FuzzBytes(b)})
		if err := check(p); err != nil {
			t.Fatalf("%v\n%s", err, describe(p))
		}
	})
}
