package cli

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant/resolver"
)

// heldBackOptions are the held-back options of --max-suggestions: one
// solve per held-back item, and with suggestions asked for (above 0) at
// most resolver.DefaultHeldBackTries re-solves per item for a confirmed
// change that lets it move.
func heldBackOptions(maxSuggestions int) resolver.HeldBackOptions {
	opts := resolver.HeldBackOptions{}
	if maxSuggestions <= 0 {
		opts.ReasonsOnly = true
	}
	return opts
}

// addWhyFlag adds resolve's --why.
func addWhyFlag(cmd *cobra.Command, name *string) {
	cmd.Flags().StringVar(name, "why", "", "instead of the plan, say why `NAME` is in it as it is, or why not")
}

// runWhy answers resolve --why NAME: the Why as text (short, or whole with
// --full) or JSON; with no plan, the explanation, as resolve prints it.
func (in *resolveInput) runWhy(ctx context.Context, e *env, f *resolveFlags, name string) error {
	res, err := in.res.Resolve(ctx, in.ns, in.state)
	if res == nil {
		return err
	}
	w, err := res.Why(ctx, name, resolver.WhyOptions{})
	if res.Conflict() != nil {
		// No plan: the explanation, as resolve prints it.
		ex, err := res.Explain(ctx, answerOptions(f.maxSuggestions).Explain)
		if err != nil {
			return err
		}
		a := &resolver.Answer{Namespace: in.ns, Error: resolver.NoPlanOf(ex)}
		if f.output.value != "text" {
			return answered(true, writeEncoded(e.stdout, f.output.value, a))
		}
		return answered(true, a.WriteText(e.stdout, resolver.TextOptions{Full: f.full}))
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
