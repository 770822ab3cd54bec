package check

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestRunCancel cancels a sweep of the community catalog that sends every
// bundle through the resolver (about 0.1 s of work) soon after it starts:
// Run returns the context's error within 50 ms (250 ms with -short, the
// race-detector run).
func TestRunCancel(t *testing.T) {
	name := "community-operators-prod.declared"
	in := []Input{{Name: name, Catalog: loadShipped(t, name)}}
	budget := 50 * time.Millisecond
	if testing.Short() {
		budget = 250 * time.Millisecond
	}
	for _, after := range []time.Duration{0, 5 * time.Millisecond, 20 * time.Millisecond} {
		t.Run(after.String(), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			var cancelAt time.Time
			if after == 0 {
				cancelAt = time.Now()
				cancel()
			} else {
				go func() { time.Sleep(after); cancelAt = time.Now(); cancel() }()
			}
			_, err := Run(ctx, in, Options{resolveAll: true})
			returned := time.Now()
			<-ctx.Done()
			if err == nil {
				t.Skip("finished before the cancellation")
			}
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("error %v, want context.Canceled", err)
			}
			if late := returned.Sub(cancelAt); late > budget {
				t.Errorf("returned %v after the cancellation, want < %v", late, budget)
			}
		})
	}
}
