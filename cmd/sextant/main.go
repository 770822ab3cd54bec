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

// gcPercent is the collector's target for a run of the command: a command
// allocates most of what it keeps while it loads the catalogs and exits
// soon after, so collecting at every doubling of the heap (Go's default
// of 100) only costs time; at 400 the heap peaks near five times what is
// live (tens of MB for a large catalog). A GOGC in the environment wins.
const gcPercent = 400

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
