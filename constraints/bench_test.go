package constraints_test

import (
	"context"
	"errors"
	"fmt"
	mrand "math/rand"
	"math/rand/v2"
	"testing"

	"github.com/sextantdev/sextant/constraints"
)

// olmVar is one variable of OLM's benchmark input with its constraints.
type olmVar struct {
	mandatory bool
	deps      []int // one dependency, nil if none
	conflicts []int
}

// olmInput reproduces the generator of OLM v0.28's solver benchmark
// (pkg/controller/registry/resolver/solver/bench_test.go): 256 variables,
// seed 9, P(mandatory) = 0.10, P(dependency) = 0.15 with 1–5 candidates,
// P(conflict) = 0.05 with 1–2 targets, drawn in the same sequence from the
// same math/rand source, so it is the same instance.
var olmInput = func() []olmVar {
	const (
		length      = 256
		seed        = 9
		pMandatory  = .1
		pDependency = .15
		nDependency = 6
		pConflict   = .05
		nConflict   = 3
	)
	rnd := mrand.New(mrand.NewSource(seed))
	other := func(i int) int {
		y := i
		for y == i {
			y = rnd.Intn(length)
		}
		return y
	}
	out := make([]olmVar, length)
	for i := range out {
		v := &out[i]
		v.mandatory = rnd.Float64() < pMandatory
		if rnd.Float64() < pDependency {
			n := rnd.Intn(nDependency-1) + 1
			for range n {
				v.deps = append(v.deps, other(i))
			}
		}
		if rnd.Float64() < pConflict {
			n := rnd.Intn(nConflict-1) + 1
			for range n {
				v.conflicts = append(v.conflicts, other(i))
			}
		}
	}
	return out
}()

// olmProblem builds the constraints of OLM's benchmark input: variables are
// declared in input order, then each variable's constraints in order.
func olmProblem(in []olmVar) *constraints.Problem[int, string] {
	var p constraints.Problem[int, string]
	p.Grow(len(in), len(in)/2)
	for i := range in {
		p.Var(i)
	}
	for i, v := range in {
		if v.mandatory {
			p.Mandatory("mandatory", i)
		}
		if v.deps != nil {
			p.Dependency("dependency", i, v.deps...)
		}
		for _, c := range v.conflicts {
			p.Conflict("conflict", i, c)
		}
	}
	return &p
}

// BenchmarkOLM builds and solves OLM's own benchmark instance (OLM v0.28
// on this machine: 0.28–0.49 ms/op, 226 KB/op, 1,492 allocs/op).
func BenchmarkOLM(b *testing.B) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		p := olmProblem(olmInput)
		if _, err := constraints.Solve(ctx, p); err != nil {
			var ue *constraints.UnsatError[int, string]
			if !errors.As(err, &ue) {
				b.Fatal(err)
			}
		}
	}
}

// bundle identifies a variable of a catalog-shaped problem.
type bundle struct {
	pkg, version int32
}

// catalogProblem builds a catalog-shaped problem of about n variables:
// packages with chains of 10 versions (newest preferred), at most one
// bundle per package, every bundle depending on up to 3 other packages
// through a version range (newest first), a shared API with at most one
// provider among a few packages, and subscriptions (mandatory anchors,
// each depending on the bundles of one package) on 1% of the packages. With
// unsat, two subscriptions want disjoint ranges of the same package through
// chains of dependencies.
func catalogProblem(n int, seed uint64, unsat bool) *constraints.Problem[bundle, string] {
	return buildCatalog(n, seed, true, unsat)
}

// buildCatalog builds catalogProblem, with or without its subscriptions.
func buildCatalog(n int, seed uint64, subs, unsat bool) *constraints.Problem[bundle, string] {
	const versions = 10
	r := rand.New(rand.NewPCG(seed, 1))
	pkgs := int32(n / versions)
	var p constraints.Problem[bundle, string]
	chain := func(pkg, lo, hi int32) []bundle {
		vs := make([]bundle, 0, hi-lo)
		for v := hi - 1; v >= lo; v-- {
			vs = append(vs, bundle{pkg, v})
		}
		return vs
	}
	for pkg := range pkgs {
		p.AtMost("one bundle per package", 1, chain(pkg, 0, versions)...)
	}
	for pkg := range pkgs {
		for v := int32(0); v < versions; v++ {
			for range r.IntN(4) {
				dep := int32(r.IntN(int(pkgs)))
				if dep == pkg {
					continue
				}
				lo := int32(r.IntN(versions / 2))
				hi := lo + 1 + int32(r.IntN(versions-int(lo)))
				p.Dependency("requires package", bundle{pkg, v}, chain(dep, lo, hi)...)
			}
		}
	}
	// An API provided by the newest bundle of a handful of packages.
	var providers []bundle
	for range 5 {
		providers = append(providers, bundle{int32(r.IntN(int(pkgs))), versions - 1})
	}
	p.AtMost("one provider per API", 1, providers...)
	for i := range max(1, pkgs/100) {
		if !subs {
			break
		}
		sub := bundle{-1 - i, 0}
		p.Mandatory("subscription", sub)
		p.Dependency("subscription channel", sub, chain(int32(r.IntN(int(pkgs))), 0, versions)...)
	}
	if unsat {
		target := int32(r.IntN(int(pkgs)))
		a, b := bundle{-1000000, 0}, bundle{-1000001, 0}
		p.Mandatory("subscription a", a)
		p.Mandatory("subscription b", b)
		// Each reaches target through a chain of 3 intermediate packages.
		for i, sub := range []bundle{a, b} {
			prev := sub
			for step := range 3 {
				mid := bundle{-2000000 - int32(i*10+step), 0}
				p.Dependency("chain", prev, mid)
				prev = mid
			}
			if i == 0 {
				p.Dependency("wants old", prev, chain(target, 0, 4)...)
			} else {
				p.Dependency("wants new", prev, chain(target, 6, versions)...)
			}
		}
	}
	return &p
}

func BenchmarkCatalog(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ctx := context.Background()
			p := catalogProblem(n, 1, false)
			if _, err := constraints.Solve(ctx, p); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := constraints.Solve(ctx, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCatalogBuild measures building the 100k-variable problem alone.
func BenchmarkCatalogBuild(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		catalogProblem(100_000, 1, false)
	}
}

// BenchmarkUnsatCore solves an unsatisfiable 10k-variable catalog problem,
// including shrinking the core to a minimal one.
func BenchmarkUnsatCore(b *testing.B) {
	ctx := context.Background()
	p := catalogProblem(10_000, 1, true)
	_, err := constraints.Solve(ctx, p)
	var ue *constraints.UnsatError[bundle, string]
	if !errors.As(err, &ue) {
		b.Fatalf("want an unsat error, got %v", err)
	}
	b.Logf("core: %v", ue)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := constraints.Solve(ctx, p); !errors.As(err, &ue) {
			b.Fatal(err)
		}
	}
}

// BenchmarkOLMSolve solves OLM's benchmark instance, built once.
func BenchmarkOLMSolve(b *testing.B) {
	ctx := context.Background()
	p := olmProblem(olmInput)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := constraints.Solve(ctx, p); err != nil {
			var ue *constraints.UnsatError[int, string]
			if !errors.As(err, &ue) {
				b.Fatal(err)
			}
		}
	}
}
