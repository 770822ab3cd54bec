// Command sextant resolves, checks and draws Kubernetes operator (OLM)
// File-Based Catalogs. Run "sextant --help" for the commands; the exit
// status is 0 on success, 1 when the answer is no (checks failed, no plan)
// and 2 on bad input or usage.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/sextantdev/sextant/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
