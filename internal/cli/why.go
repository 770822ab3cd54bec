package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant"
)

// addWhyFlag adds resolve's --why.
func addWhyFlag(cmd *cobra.Command, name *string) {
	cmd.Flags().StringVar(name, "why", "", "instead of the plan, say why `NAME` is in it as it is, or why not")
}

// runWhy answers resolve --why NAME (sextant.World.Why): why it is in the
// plan as it is, as text (short, or whole with --full) or JSON; with no
// plan, the explanation, as resolve prints it; for ClusterExtensions
// alone, the extension's answer with every bundle passed over.
func (e *env) runWhy(ctx context.Context, w *sextant.World, f *resolveFlags, name string) error {
	if w.Resolver != nil && w.V1 != nil {
		e.notef("--why answers for OLM v0 subscriptions: the ClusterExtensions of the manifests are not resolved")
	}
	a, err := w.Why(ctx, name, answerOptions(f.maxSuggestions))
	if err != nil {
		return e.worldError(err)
	}
	e.printNotes(a.Notes)
	if f.output.value != "text" {
		err = writeEncoded(e.stdout, f.output.value, a)
	} else {
		err = a.WriteText(e.stdout, textOptions(f))
	}
	return answered(a.No(), err)
}
