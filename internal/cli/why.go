package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/resolver"
)

// explainHeldBack sets the held-back reasons of plan, resolved from state:
// one solve per held-back item, and with suggestions asked for
// (--max-suggestions above 0) at most resolver.DefaultHeldBackTries
// re-solves per item for a confirmed change.
func (in *resolveInput) explainHeldBack(ctx context.Context, ns string, state *cluster.State, plan *resolver.Plan, maxSuggestions int) error {
	opts := resolver.HeldBackOptions{}
	if maxSuggestions <= 0 {
		opts.ReasonsOnly = true
	}
	return in.res.ExplainHeldBack(ctx, ns, state, plan, opts)
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

// addWhyFlag adds resolve's --why.
func addWhyFlag(cmd *cobra.Command, name *string) {
	cmd.Flags().StringVar(name, "why", "", "instead of the plan, say why a package, bundle or subscription is in it (version, channel, catalog, what put it there, what was passed over) or why not; --full for every alternative, -o json for data")
}

// runWhy answers resolve --why NAME: the Why as text (short, or whole with
// --full) or JSON; with no plan, the explanation, as resolve prints it.
func (in *resolveInput) runWhy(ctx context.Context, e *env, f *resolveFlags, name string) error {
	w, err := in.res.Why(ctx, in.ns, in.state, name, resolver.WhyOptions{})
	var conflict *resolver.ConflictError
	if errors.As(err, &conflict) {
		ex, err := in.explain(ctx, in.ns, in.state, conflict, f.maxSuggestions)
		if err != nil {
			return err
		}
		if f.output.value != "text" {
			if err := writeEncoded(e.stdout, f.output.value, conflictJSON{Namespace: in.ns, Error: newErrorJSON(ex)}); err != nil {
				return err
			}
			return errNo
		}
		if err := writeExplanation(e.stdout, ex, f.full); err != nil {
			return err
		}
		return errNo
	}
	if err != nil {
		return in.resolveError(err)
	}
	if f.output.value != "text" {
		return writeEncoded(e.stdout, f.output.value, w)
	}
	s := w.String()
	if f.full {
		s = w.Full()
	}
	_, err = io.WriteString(e.stdout, s)
	return err
}

// stops says where the settled rollout leaves subscriptions below their
// channels' heads, from its last state (the input state when no round
// changed anything).
func (in *resolveInput) stops(ctx context.Context, rounds []resolver.Round, maxSuggestions int) ([]resolver.Stop, error) {
	state := in.state
	if len(rounds) > 0 {
		state = rounds[len(rounds)-1].State
	}
	opts := resolver.HeldBackOptions{}
	if maxSuggestions <= 0 {
		opts.ReasonsOnly = true
	}
	stops, err := in.res.Stops(ctx, in.ns, state, opts)
	if err != nil {
		return nil, in.resolveError(err)
	}
	return stops, nil
}

// writeStops writes where a settled rollout stops short of the heads.
func writeStops(w io.Writer, stops []resolver.Stop) {
	if len(stops) == 0 {
		return
	}
	fmt.Fprintln(w, "stops short of the heads:")
	for _, s := range stops {
		fmt.Fprintf(w, "  %s\n", s)
		if h := s.HeldBack; h != nil && h.Change != nil {
			fmt.Fprintf(w, "    it moves with: %s\n", h.Change)
		}
	}
}
