package main

import (
	"runtime"
	"runtime/debug"
)

// firstCollectionAt is the memory the command's heap may reach before its
// first collection after start-up (the soft limit while the collector is
// off, see collectLate).
const firstCollectionAt = 160 << 20

// collectLate turns the collector off until the command's memory nears
// firstCollectionAt (a soft limit: the runtime collects as it nears it),
// then back to gcPercent and gcLimit. With the collector's usual start
// (GOGC=800: the heap may grow to nine times what is live, but at least
// to 32 MB) a command that allocates 40 to 160 MB collects once or twice
// while it reads its catalogs, marking data it keeps to the end: the
// 20-subscription scenario spent ~10% of its CPU there. A command that
// allocates more than firstCollectionAt collects at it and then as
// before, so its peak is what it was.
func collectLate() {
	percent := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(firstCollectionAt)
	afterCollection(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
}

// afterCollection calls f on the runtime's cleanup goroutine once a
// collection has run: the cleanup of an object nothing references.
func afterCollection(f func()) {
	sentinel := &struct {
		p   *int // pointers: not a tiny allocation, freed by the first collection
		pad [2]uintptr
	}{}
	runtime.AddCleanup(sentinel, func(f func()) { f() }, f)
}
