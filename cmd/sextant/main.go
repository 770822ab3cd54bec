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

// The collector's settings for a run of the command. A command allocates
// most of what it keeps while it loads the catalogs and exits soon after,
// so collecting at every doubling of the heap (Go's default, GOGC=100)
// only costs time: on the README's command the default spends ~8 ms of a
// ~68 ms cold run collecting. At gcPercent the heap may grow to nine times
// what is live before a collection (the README's command then needs none
// and peaks near 40 MB resident); the soft limit gcLimit keeps a very
// large input from growing the heap past it for the sake of speed: near
// it the collector runs as often as it must (Go caps that at about half
// the CPU), so 50,000 subscriptions over 200,000 bundles resolve in
// ~2.9 s within ~395 MB resident instead of ~2.1 s and ~720 MB (quiet machine); an input
// whose live heap is larger still works, only slower. Before a command
// reads its first catalog the collector also goes off until the heap
// nears 160 MiB (collectLate), so a command that allocates less than that
// is not collected at all. GOGC and GOMEMLIMIT in the environment win
// (either one set: the command changes neither).
const (
	gcPercent = 800
	gcLimit   = 370 << 20
)

func main() {
	ours := os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == ""
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(gcLimit)
	}
	if ours {
		cli.PrepareHeap = collectLate
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
