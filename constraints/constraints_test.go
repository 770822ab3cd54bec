package constraints_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/sextantdev/sextant/constraints"
	"github.com/sextantdev/sextant/constraints/internal/oracle"
)

type (
	problem = constraints.Problem[string, string]
	unsat   = constraints.UnsatError[string, string]
)

func TestSolve(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		build  func(p *problem)
		want   []string // selected, in variable order
		core   []string // reasons of the core when unsatisfiable
	}{
		{
			name:  "no constraints",
			build: func(p *problem) {},
		},
		{
			name:  "an unconstrained variable is not selected",
			build: func(p *problem) { p.Var("a") },
		},
		{
			name:  "a mandatory variable is selected",
			build: func(p *problem) { p.Mandatory("m", "a") },
			want:  []string{"a"},
		},
		{
			name: "mandatory and prohibited",
			build: func(p *problem) {
				p.Mandatory("m", "a")
				p.Prohibited("p", "a")
			},
			core: []string{"m", "p"},
		},
		{
			name: "a dependency is selected",
			build: func(p *problem) {
				p.Var("a")
				p.Mandatory("m", "b")
				p.Dependency("d", "b", "a")
			},
			want: []string{"a", "b"},
		},
		{
			name: "a transitive dependency is selected",
			build: func(p *problem) {
				p.Var("a")
				p.Dependency("d1", "b", "a")
				p.Mandatory("m", "c")
				p.Dependency("d2", "c", "b")
			},
			want: []string{"a", "b", "c"},
		},
		{
			name: "both dependencies are selected",
			build: func(p *problem) {
				p.Mandatory("m", "c")
				p.Dependency("d1", "c", "a")
				p.Dependency("d2", "c", "b")
			},
			want: []string{"c", "a", "b"},
		},
		{
			name: "the first candidate of a dependency is chosen",
			build: func(p *problem) {
				p.Var("a")
				p.Conflict("x", "b", "a")
				p.Mandatory("m", "c")
				p.Dependency("d", "c", "a", "b")
			},
			want: []string{"a", "c"},
		},
		{
			name: "only the first candidate is selected",
			build: func(p *problem) {
				p.Var("a")
				p.Var("b")
				p.Mandatory("m", "c")
				p.Dependency("d", "c", "a", "b")
			},
			want: []string{"a", "c"},
		},
		{
			name: "the first candidate of a dependency is chosen (reverse)",
			build: func(p *problem) {
				p.Var("a")
				p.Conflict("x", "b", "a")
				p.Mandatory("m", "c")
				p.Dependency("d", "c", "b", "a")
			},
			want: []string{"b", "c"},
		},
		{
			name: "two mandatory conflicting variables",
			build: func(p *problem) {
				p.Mandatory("ma", "a")
				p.Mandatory("mb", "b")
				p.Conflict("x", "b", "a")
			},
			core: []string{"ma", "mb", "x"},
		},
		{
			name:   "irrelevant dependencies don't change the search order",
			reason: "a is never selected, so its preference for x is never consulted",
			build: func(p *problem) {
				p.Dependency("da", "a", "x", "y")
				p.Mandatory("m", "b")
				p.Dependency("db", "b", "y", "x")
			},
			want: []string{"y", "b"},
		},
		{
			name: "a cardinality limit prevents resolution",
			build: func(p *problem) {
				p.Mandatory("ma", "a")
				p.Dependency("d", "a", "x", "y")
				p.AtMost("one", 1, "x", "y")
				p.Mandatory("mx", "x")
				p.Mandatory("my", "y")
			},
			core: []string{"one", "mx", "my"},
		},
		{
			name:   "a cardinality limit forces the alternative",
			reason: "b needs y, so a must give up its preferred x",
			build: func(p *problem) {
				p.Mandatory("ma", "a")
				p.Dependency("da", "a", "x", "y")
				p.AtMost("one", 1, "x", "y")
				p.Mandatory("mb", "b")
				p.Dependency("db", "b", "y")
			},
			want: []string{"a", "y", "b"},
		},
		{
			name: "two dependencies satisfied by one variable",
			build: func(p *problem) {
				p.Mandatory("ma", "a")
				p.Dependency("da", "a", "y")
				p.Mandatory("mb", "b")
				p.Dependency("db", "b", "x", "y")
			},
			want: []string{"a", "y", "b"},
		},
		{
			name:   "preference wins over minimality",
			reason: "{a, b, y} is smaller, but a prefers x and gets it",
			build: func(p *problem) {
				p.Mandatory("ma", "a")
				p.Dependency("da", "a", "x", "y")
				p.Mandatory("mb", "b")
				p.Dependency("db", "b", "y")
			},
			want: []string{"a", "x", "y", "b"},
		},
		{
			name: "only the least preferred choice is acceptable",
			build: func(p *problem) {
				p.Mandatory("ma", "a")
				p.Dependency("da", "a", "a1", "a2")
				p.Conflict("a1c1", "a1", "c1")
				p.Conflict("a1c2", "a1", "c2")
				p.Conflict("a2c1", "a2", "c1")
				p.Mandatory("mb", "b")
				p.Dependency("db", "b", "b1", "b2")
				p.Conflict("b1c1", "b1", "c1")
				p.Conflict("b1c2", "b1", "c2")
				p.Conflict("b2c1", "b2", "c1")
				p.Mandatory("mc", "c")
				p.Dependency("dc", "c", "c1", "c2")
			},
			want: []string{"a", "a2", "c2", "b", "b2", "c"},
		},
		{
			name: "preferences with several dependencies of one variable",
			build: func(p *problem) {
				p.Mandatory("m", "a")
				p.Dependency("dx", "a", "x1", "x2")
				p.Dependency("dy", "a", "y1", "y2")
			},
			want: []string{"a", "x1", "y1"},
		},
		{
			name: "a dependency without candidates forbids its subject",
			build: func(p *problem) {
				p.Dependency("d", "a")
				p.Mandatory("m", "b")
				p.Dependency("db", "b", "a", "c")
			},
			want: []string{"b", "c"},
		},
		{
			name: "a mandatory variable with an empty dependency",
			build: func(p *problem) {
				p.Mandatory("m", "a")
				p.Dependency("d", "a")
			},
			core: []string{"m", "d"},
		},
		{
			name: "a conflict with itself prohibits",
			build: func(p *problem) {
				p.Conflict("x", "a", "a")
				p.Mandatory("m", "b")
				p.Dependency("d", "b", "a", "c")
			},
			want: []string{"b", "c"},
		},
		{
			name: "at most zero",
			build: func(p *problem) {
				p.AtMost("zero", 0, "a", "b")
				p.Mandatory("m", "c")
				p.Dependency("d", "c", "a", "b", "e")
			},
			want: []string{"c", "e"},
		},
		{
			name:  "at most a negative number is unsatisfiable",
			build: func(p *problem) { p.AtMost("never", -1) },
			core:  []string{"never"},
		},
		{
			name:   "at most counts a repeated variable once",
			reason: "a listed twice is still one selected variable",
			build: func(p *problem) {
				p.AtMost("one", 1, "a", "a", "b")
				p.Mandatory("m", "a")
			},
			want: []string{"a"},
		},
		{
			name: "at most two of three mandatory",
			build: func(p *problem) {
				p.Var("z")
				p.Mandatory("ma", "a")
				p.Mandatory("mb", "b")
				p.AtMost("two", 2, "a", "b", "c", "d", "e", "f", "g")
				p.Mandatory("mc", "c")
			},
			core: []string{"ma", "mb", "two", "mc"},
		},
		{
			name:   "selected variables come in first-mention order",
			reason: "z is declared first",
			build: func(p *problem) {
				p.Var("z")
				p.Mandatory("m", "a")
				p.Dependency("d", "a", "z")
			},
			want: []string{"z", "a"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p problem
			tt.build(&p)
			want := tt.want
			sol, err := constraints.Solve(context.Background(), &p)
			// The oracle must agree with the hand-written answer too.
			osel, osat, oerr := oracle.Solve(p.Vars(), p.Constraints())
			if oerr != nil || osat != (tt.core == nil) || (osat && !slices.Equal(osel, want)) {
				t.Errorf("oracle: %v, %v, %v", osel, osat, oerr)
			}
			if tt.core != nil {
				var ue *unsat
				if !errors.As(err, &ue) {
					t.Fatalf("Solve = %v, %v; want an unsat error (%s)", sol, err, tt.reason)
				}
				var got []string
				for _, c := range ue.Core {
					got = append(got, c.Reason)
				}
				if !slices.Equal(got, tt.core) {
					t.Fatalf("core = %v, want %v (%s)", got, tt.core, tt.reason)
				}
				if err := oracle.CheckCore(p.Vars(), ue.Core); err != nil {
					t.Error(err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Solve: %v (%s)", err, tt.reason)
			}
			if got := sol.Selected(); !slices.Equal(got, want) {
				t.Fatalf("selected %v, want %v (%s)", got, want, tt.reason)
			}
		})
	}
}

func TestUnsatErrorText(t *testing.T) {
	var p problem
	p.Mandatory("subscription a", "a")
	p.Mandatory("subscription b", "b")
	p.Conflict("a conflicts with b", "a", "b")
	_, err := constraints.Solve(context.Background(), &p)
	want := "unsatisfiable: subscription a; subscription b; a conflicts with b"
	if err == nil || err.Error() != want {
		t.Fatalf("error = %v, want %q", err, want)
	}
}

func TestConstraintsRoundTrip(t *testing.T) {
	var p problem
	p.Var("v")
	p.Mandatory("1", "a")
	p.Prohibited("2", "b")
	p.Dependency("3", "a", "c", "d")
	p.Conflict("4", "c", "d")
	p.AtMost("5", 1, "c", "d", "e")
	want := []constraints.Constraint[string, string]{
		{Kind: constraints.KindMandatory, Reason: "1", Subject: "a"},
		{Kind: constraints.KindProhibited, Reason: "2", Subject: "b"},
		{Kind: constraints.KindDependency, Reason: "3", Subject: "a", Vars: []string{"c", "d"}},
		{Kind: constraints.KindConflict, Reason: "4", Subject: "c", Vars: []string{"d"}},
		{Kind: constraints.KindAtMost, Reason: "5", Vars: []string{"c", "d", "e"}, N: 1},
	}
	if got := p.Constraints(); !reflect.DeepEqual(got, want) {
		t.Errorf("Constraints() = %v\nwant %v", got, want)
	}
	if got, want := p.Vars(), []string{"v", "a", "b", "c", "d", "e"}; !slices.Equal(got, want) {
		t.Errorf("Vars() = %v, want %v", got, want)
	}
	var byIndex []string
	for i := range p.NumVars() {
		byIndex = append(byIndex, p.VarAt(i))
	}
	if want := p.Vars(); !slices.Equal(byIndex, want) {
		t.Errorf("VarAt(0..NumVars()) = %v, want Vars() %v", byIndex, want)
	}
}

// TestConcurrentSolve solves one problem from several goroutines (run with
// -race) and checks every answer is the same and the problem unchanged.
func TestConcurrentSolve(t *testing.T) {
	p := catalogProblem(2_000, 7, false)
	before := fmt.Sprint(p.Constraints())
	first, err := constraints.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := constraints.Solve(context.Background(), p)
			if err == nil && !slices.Equal(s.Selected(), first.Selected()) {
				err = fmt.Errorf("goroutine %d selected a different set", i)
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(p.Constraints()) != before {
		t.Fatal("Solve modified the problem")
	}
	q := catalogProblem(2_000, 7, true)
	_, e1 := constraints.Solve(context.Background(), q)
	_, e2 := constraints.Solve(context.Background(), q)
	if e1 == nil || e2 == nil || e1.Error() != e2.Error() {
		t.Fatalf("cores differ between runs: %v / %v", e1, e2)
	}
}

// pigeons builds the pigeonhole problem of n+1 pigeons and n holes: each
// pigeon must sit in a hole, each hole holds at most one pigeon. It is
// unsatisfiable and hard for resolution.
func pigeons(n int) *constraints.Problem[[2]int, string] {
	var p constraints.Problem[[2]int, string]
	for i := range n + 1 {
		pigeon := [2]int{i, -1}
		p.Mandatory("pigeon", pigeon)
		var holes [][2]int
		for h := range n {
			holes = append(holes, [2]int{i, h})
		}
		p.Dependency("sits", pigeon, holes...)
	}
	for h := range n {
		var in [][2]int
		for i := range n + 1 {
			in = append(in, [2]int{i, h})
		}
		p.AtMost("one per hole", 1, in...)
	}
	return &p
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var p problem
	p.Mandatory("m", "a")
	_, err := constraints.Solve(ctx, &p)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Solve with a cancelled context = %v", err)
	}
}

// TestDeadline stops a hard problem at its deadline. The bound checked is
// loose (the machine may be busy); the slices of SAT work are 20 ms.
func TestDeadline(t *testing.T) {
	p := pigeons(13)
	for _, d := range []time.Duration{time.Millisecond, 60 * time.Millisecond} {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		start := time.Now()
		_, err := constraints.Solve(ctx, p)
		late := time.Since(start) - d
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Solve = %v, want the deadline error", err)
		}
		if late > time.Second {
			t.Errorf("Solve returned %v after its deadline", late)
		}
	}
}

func TestCancelDuringSolve(t *testing.T) {
	p := pigeons(13)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(30 * time.Millisecond)
		cancel()
	}()
	_, err := constraints.Solve(ctx, p)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Solve = %v, want the cancellation error", err)
	}
}

// TestDropConstraints: a problem that dropped its constraints keeps its
// variables, and can be built on and solved again.
func TestDropConstraints(t *testing.T) {
	var p constraints.Problem[string, string]
	p.Mandatory("a is needed", "a")
	p.Dependency("a needs b", "a", "b")
	p.DropConstraints()
	if p.Len() != 0 || p.NumVars() != 2 || p.VarAt(0) != "a" || p.VarAt(1) != "b" {
		t.Fatalf("after DropConstraints: %d constraints, %d variables", p.Len(), p.NumVars())
	}
	p.Mandatory("b is needed", "b")
	p.Var("c")
	if p.NumVars() != 3 {
		t.Fatalf("%d variables after adding b again and c, want 3", p.NumVars())
	}
	sol, err := constraints.Solve(context.Background(), &p)
	if err != nil || !sol.IsSelected("b") || sol.IsSelected("a") {
		t.Fatalf("solve after DropConstraints: %v, %v", sol, err)
	}
}
