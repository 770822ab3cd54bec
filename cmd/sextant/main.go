// Command sextant resolves, checks and draws Kubernetes operator (OLM)
// File-Based Catalogs. Run "sextant --help" for the commands; the exit
// status is 0 on success, 1 when the answer is no (checks failed, no plan)
// and 2 on bad input or usage.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"

	"github.com/sextantdev/sextant/internal/cli"
)

func main() {
	tuneGC()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// tuneGC sets the collector for a short run: a command loads one catalog
// (most of its memory stays live to the end) and exits, so collecting at
// every doubling of the heap is wasted work. The heap may grow to five times
// what is live (GOGC=400) but, past a soft limit of 256 MiB, collections
// come as often as they must to keep under it. GOGC or GOMEMLIMIT in the
// environment keep their say.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(256 << 20)
	}
}
