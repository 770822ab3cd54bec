package check

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sextantdev/sextant/internal/testcatalog"
)

// TestRunCancel cancels a sweep of the community catalog that sends every
// bundle through the resolver (about 0.1 s of work) soon after it starts:
// Run returns the context's error soon after (see the budget below).
func TestRunCancel(t *testing.T) {
	name := "community-operators-prod.declared"
	in := []Input{{Name: name, Catalog: loadShipped(t, name)}}
	budget := testcatalog.CancelBudget
	for _, after := range []time.Duration{0, 5 * time.Millisecond, 20 * time.Millisecond} {
		t.Run(after.String(), func(t *testing.T) {
			// The best of three tries: the machine is shared, and one
			// unlucky scheduling of the test's goroutines is not a late
			// return.
			var best time.Duration = -1
			for range 3 {
				late, ok := cancelOnce(t, in, after)
				if !ok {
					t.Skip("finished before the cancellation")
				}
				if best < 0 || late < best {
					best = late
				}
				if best <= budget {
					break
				}
			}
			if best > budget {
				t.Errorf("returned %v after the cancellation, want < %v", best, budget)
			}
		})
	}
}

// cancelOnce runs the sweep, cancelling it after the given time, and
// returns how long Run took to return after the cancellation; ok is false
// when Run finished first.
func cancelOnce(t *testing.T, in []Input, after time.Duration) (late time.Duration, ok bool) {
	t.Helper()
	late, err := testcatalog.CancelAfter(after, func(ctx context.Context) error {
		_, err := Run(ctx, in, Options{CEL: testCEL, Checks: []Check{Installability}, resolveAll: true})
		return err
	})
	if err == nil {
		return 0, false
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	return late, true
}
