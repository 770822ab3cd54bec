//go:build unix

package testcatalog

import (
	"syscall"
	"testing"
	"time"
)

// ReportCPU reports the process's CPU time (user and system, every
// goroutine and the collector included) per iteration of b from the
// returned function's call on, as cpu-ms/op: a figure that, unlike
// ns/op, does not grow while the benchmark waits for a core on a busy
// machine.
func ReportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64((cpuTime()-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		}
	}
}

// cpuTime returns the CPU time the process has used.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
