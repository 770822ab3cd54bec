package confirm_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sextantdev/sextant/internal/confirm"
)

var errNoPlan = errors.New("no plan")

// TestRun checks the rule: the candidates tried, the kept count and the
// error, for each bound and each way the context ends.
func TestRun(t *testing.T) {
	tests := []struct {
		name string
		b    confirm.Budget
		// keep reports whether candidate c is kept; fail whether its try
		// has no answer; cancelAt cancels the context during the try of
		// that candidate (-1: never; -2: before Run).
		keep, fail func(c int) bool
		cancelAt   int
		wantTried  []int
		wantKept   int
		wantErr    error
		reason     string
	}{
		{name: "no bound", wantTried: []int{0, 1, 2, 3, 4, 5}, wantKept: 3, cancelAt: -1, reason: "the zero Budget tries every candidate"},
		{name: "max", b: confirm.Budget{Max: 2}, wantTried: []int{0, 1, 2}, wantKept: 2, cancelAt: -1, reason: "stops once two are kept"},
		{name: "tries", b: confirm.Budget{Tries: 3}, wantTried: []int{0, 1, 2}, wantKept: 2, cancelAt: -1},
		{name: "negative is no limit", b: confirm.Budget{Max: -1, Tries: -1}, wantTried: []int{0, 1, 2, 3, 4, 5}, wantKept: 3, cancelAt: -1},
		{name: "failed tries passed over", fail: func(c int) bool { return c < 2 }, wantTried: []int{0, 1, 2, 3, 4, 5}, wantKept: 2, cancelAt: -1, reason: "a candidate without a plan is not kept and does not stop the run"},
		{name: "cancelled before", cancelAt: -2, wantKept: 0, wantErr: context.Canceled},
		{name: "cancelled during a try", cancelAt: 3, wantTried: []int{0, 1, 2, 3}, wantKept: 2, wantErr: context.Canceled, reason: "what was kept before stays kept"},
		{name: "cancelled during the last try", cancelAt: 5, wantTried: []int{0, 1, 2, 3, 4, 5}, wantKept: 3, wantErr: context.Canceled, reason: "a try failed by the context is not a candidate without a plan"},
		{name: "cancelled during a kept try", cancelAt: 4, keep: func(c int) bool { return true }, wantTried: []int{0, 1, 2, 3, 4}, wantKept: 5, wantErr: context.Canceled, reason: "the try answered before it saw the end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			keep := tt.keep
			if keep == nil {
				keep = func(c int) bool { return c%2 == 0 }
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancelAt == -2 {
				cancel()
			}
			var tried []int
			kept, err := confirm.Run(ctx, tt.b, []int{0, 1, 2, 3, 4, 5}, func(ctx context.Context, c int) (bool, error) {
				tried = append(tried, c)
				if c == tt.cancelAt {
					cancel()
					if !keep(c) {
						return false, ctx.Err()
					}
				}
				if tt.fail != nil && tt.fail(c) {
					return false, errNoPlan
				}
				return keep(c), nil
			})
			if !slices.Equal(tried, tt.wantTried) || kept != tt.wantKept || !errors.Is(err, tt.wantErr) || (err != nil) != (tt.wantErr != nil) {
				t.Errorf("tried %v, kept %d, error %v; want %v, %d, %v (%s)", tried, kept, err, tt.wantTried, tt.wantKept, tt.wantErr, tt.reason)
			}
		})
	}
}

// TestRunTime checks the time bound: the try's context ends with it, the
// run stops, and that is not an error.
func TestRunTime(t *testing.T) {
	var tried []int
	kept, err := confirm.Run(context.Background(), confirm.Budget{Time: 10 * time.Millisecond}, []int{0, 1, 2}, func(ctx context.Context, c int) (bool, error) {
		tried = append(tried, c)
		<-ctx.Done() // a re-solve that outlasts the budget
		return false, ctx.Err()
	})
	if err != nil || kept != 0 || !slices.Equal(tried, []int{0}) {
		t.Errorf("tried %v, kept %d, error %v; want [0], 0, nil", tried, kept, err)
	}
}

// TestPipelinedIsRun holds Pipelined to Run's rule: for random candidate
// lists, budgets and worker counts, keep sees the candidates Run's try
// would see, in the same order, and the count and error are Run's.
func TestPipelinedIsRun(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 41))
	for round := range 500 {
		n := rng.IntN(9)
		keepIt := make([]bool, n)
		failIt := make([]bool, n)
		for i := range n {
			keepIt[i], failIt[i] = rng.IntN(2) == 0, rng.IntN(4) == 0
		}
		b := confirm.Budget{Max: rng.IntN(4) - 1, Tries: rng.IntN(6) - 1}
		cands := make([]int, n)
		for i := range cands {
			cands[i] = i
		}
		var want []int
		wantKept, wantErr := confirm.Run(context.Background(), b, cands, func(_ context.Context, c int) (bool, error) {
			if failIt[c] {
				return false, errNoPlan
			}
			want = append(want, c)
			return keepIt[c], nil
		})
		workers := 1 + rng.IntN(4)
		var got []int
		gotKept, gotErr := confirm.Pipelined(context.Background(), b, workers, cands,
			func(_ context.Context, c int) (int, error) {
				if failIt[c] {
					return 0, errNoPlan
				}
				return c * 10, nil
			},
			func(c, r int) bool {
				if r != c*10 {
					t.Errorf("round %d: keep(%d) got solve's result %d", round, c, r)
				}
				got = append(got, c)
				return keepIt[c]
			})
		if gotKept != wantKept || !errors.Is(gotErr, wantErr) || !slices.Equal(got, want) {
			t.Fatalf("round %d (budget %+v, %d workers, keep %v, fail %v): Pipelined kept %d %v err %v, Run kept %d %v err %v",
				round, b, workers, keepIt, failIt, gotKept, got, gotErr, wantKept, want, wantErr)
		}
	}
}

// TestPipelinedCancelled: when the caller's context ends, Pipelined
// returns its error and leaves no solve running.
func TestPipelinedCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var running atomic.Int32
	kept, err := confirm.Pipelined(ctx, confirm.Budget{}, 3, []int{0, 1, 2, 3, 4, 5},
		func(ctx context.Context, c int) (int, error) {
			running.Add(1)
			defer running.Add(-1)
			if c == 2 {
				cancel()
			}
			<-ctx.Done()
			return 0, ctx.Err()
		},
		func(c, r int) bool { return true })
	if kept != 0 || !errors.Is(err, context.Canceled) {
		t.Errorf("kept %d, err %v; want 0, context.Canceled", kept, err)
	}
	if n := running.Load(); n != 0 {
		t.Errorf("%d solves still running after Pipelined returned", n)
	}
}
