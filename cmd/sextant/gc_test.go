package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// gcSettings returns the collector's percent and soft limit.
func gcSettings() (int, int64) {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p, debug.SetMemoryLimit(-1)
}

// waitSettings collects until the settings are (percent, limit), or fails
// after a few seconds (cleanups run on their own goroutine).
func waitSettings(t *testing.T, percent int, limit int64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		p, l := gcSettings()
		if p == percent && l == limit {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("collector settings %d%%, limit %d; want %d%%, %d", p, l, percent, limit)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestCollectLate: the collector goes off (with the soft limit at
// firstCollectionAt) until a collection has run, then back to what it was.
func TestCollectLate(t *testing.T) {
	oldP := debug.SetGCPercent(gcPercent)
	oldL := debug.SetMemoryLimit(gcLimit)
	t.Cleanup(func() { debug.SetGCPercent(oldP); debug.SetMemoryLimit(oldL) })

	for range 2 {
		collectLate()
		waitSettings(t, -1, firstCollectionAt)
		runtime.GC()
		waitSettings(t, gcPercent, gcLimit)
	}
}
