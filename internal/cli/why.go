package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/resolver"
)

// explainHeldBack sets the held-back reasons of plan, resolved from state:
// one solve per held-back item, and with suggestions asked for
// (--max-suggestions above 0) at most resolver.DefaultHeldBackTries
// re-solves per item for a confirmed change.
func (in *resolveInput) explainHeldBack(ctx context.Context, state *cluster.State, plan *resolver.Plan, maxSuggestions int) error {
	opts := resolver.HeldBackOptions{}
	if maxSuggestions <= 0 {
		opts.MaxTries = -1
	}
	return in.res.ExplainHeldBack(ctx, in.ns, state, plan, opts)
}

// writeHeldBackText writes, after a plan's unchanged list, why what is held
// back stays below its first preference, and the change that lets it move.
func writeHeldBackText(w io.Writer, p *resolver.Plan) {
	var hs []*resolver.HeldBack
	for _, s := range p.Steps {
		if s.HeldBack != nil {
			hs = append(hs, s.HeldBack)
		}
	}
	for _, u := range p.Unchanged {
		if u.HeldBack != nil {
			hs = append(hs, u.HeldBack)
		}
	}
	if len(hs) == 0 {
		return
	}
	fmt.Fprintln(w, "held back:")
	for _, h := range hs {
		fmt.Fprintf(w, "  %s\n", h.Reason)
		if h.Change != nil {
			fmt.Fprintf(w, "    it moves with: %s\n", h.Change)
		}
	}
}
