package testcatalog

import (
	"context"
	"errors"
	"testing"
	"time"
)

// CancelBudget is how soon after its context is cancelled a long call must
// return in a unit test. The goal is 50 ms (BenchmarkCancel in resolver
// measures it on a quiet machine). A unit test cannot time that reliably on
// a loaded 2-core CI machine, so it fails only at an order of magnitude
// more: work that ignores the context (seconds on the tests' inputs) still
// fails it.
const CancelBudget = time.Second

// CancelAfter calls run with a context that is cancelled after the given
// time (before run is called when after is 0) and returns run's error and
// how long after the cancellation run returned; late is negative when run
// returned before the cancellation. CancelAfter returns only once the
// context is cancelled.
func CancelAfter(after time.Duration, run func(ctx context.Context) error) (late time.Duration, err error) {
	ctx, cancel := context.WithCancel(context.Background())
	var cancelAt time.Time
	if after == 0 {
		cancelAt = time.Now()
		cancel()
	} else {
		go func() { time.Sleep(after); cancelAt = time.Now(); cancel() }()
	}
	err = run(ctx)
	returned := time.Now()
	<-ctx.Done() // cancelAt is set
	return returned.Sub(cancelAt), err
}

// CheckCancel calls run as CancelAfter does and checks that it returns
// context.Canceled no later than budget after the cancellation. It skips
// the test when run returned before a delayed cancellation (after > 0),
// whatever its error (a mirror set of packages some of which have no plan
// ends in an error of its own), and fails it at once when the error is
// not context.Canceled. A run that returns its own answer within justDone
// of the cancellation had done its work before it could see it.
func CheckCancel(t testing.TB, after, budget time.Duration, run func(ctx context.Context) error) {
	t.Helper()
	late, err := CancelAfter(after, run)
	if after > 0 && (late < 0 || late < justDone && !errors.Is(err, context.Canceled)) {
		t.Skip("returned before the cancellation, or as it came, with the work done")
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if late > budget {
		t.Errorf("returned %v after the cancellation, want < %v", late, budget)
	}
}

// justDone is how soon after a cancellation a run that did not see it may
// return its own answer: the last check of the context came just before.
const justDone = 5 * time.Millisecond
