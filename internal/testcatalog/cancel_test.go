package testcatalog

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestCancelAfter(t *testing.T) {
	waits := func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }
	tests := []struct {
		name      string
		after     time.Duration
		run       func(ctx context.Context) error
		wantErr   error
		wantEarly bool // run returned before the cancellation: late < 0
	}{
		{name: "cancelled before the call", after: 0, run: func(ctx context.Context) error { return ctx.Err() }, wantErr: context.Canceled},
		{name: "cancelled during the call", after: time.Millisecond, run: waits, wantErr: context.Canceled},
		{name: "finished before the cancellation", after: 50 * time.Millisecond, run: func(context.Context) error { return nil }, wantEarly: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			late, err := CancelAfter(tt.after, tt.run)
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("error %v, want %v", err, tt.wantErr)
			}
			if (late < 0) != tt.wantEarly {
				t.Errorf("late %v, want negative: %v", late, tt.wantEarly)
			}
		})
	}
}
