package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant/resolver"
)

// defaultMaxRounds is the default of rollout's --max-rounds.
const defaultMaxRounds = 100

func newRolloutCmd(e *env) *cobra.Command {
	f := &resolveFlags{}
	var maxRounds int
	cmd := &cobra.Command{
		Use:   "rollout --catalog [NAME=]PATH... -f MANIFESTS...",
		Short: "Simulate the rounds of resolution a namespace goes through until it settles",
		Long: `Rollout simulates what a namespace will go through: OLM moves one upgrade hop per resolution,
so rollout resolves, applies the plan as OLM would (each bundle becomes an installed CSV,
dependencies get a subscription), and repeats until a plan has nothing to do. It prints one block
per round that changed something. When a round has no plan, it prints the rounds so far and the
explanation; when --max-rounds rounds did not settle the namespace, it says so. A plan that waits
for approval (a Manual InstallPlan: some subscription of the namespace is Manual) stops the
rollout there, exit 0, unless --approve approves every such plan; each round says the approval it
needed, and the last line how many approvals the rollout took. Catalogs and manifests are given
as for resolve.

Exit status: 0 when the namespace settles or waits for approval, 1 when a round has no plan, a
round is predicted to fail, or the rounds run out, 2 for bad input or usage.`,
		Example: `  sextant rollout -f testdata/examples/cluster.yaml \
    --catalog testdata/catalogs/community-operators-prod.v4.20-index.json.gz`,
		Args: cobra.NoArgs,
	}
	addResolveFlags(cmd, f)
	cmd.Flags().IntVar(&maxRounds, "max-rounds", defaultMaxRounds, "simulate at most `N` rounds")
	var approve bool
	cmd.Flags().BoolVar(&approve, "approve", false, "approve every plan that waits for approval, as a person would")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if maxRounds < 1 {
			return usageErrorf("--max-rounds %d: want at least 1", maxRounds)
		}
		return e.runRollout(cmd.Context(), f, resolver.RolloutOptions{MaxRounds: maxRounds, Approve: approve})
	}
	return withTopics(cmd, "catalogs", "manifests", "bundles", "upgrades", "rollout-output")
}

// runRollout rolls the namespace out (sextant.World.Rollout) and prints
// the answer: its rounds, how it ended, and the stops or the explanation.
func (e *env) runRollout(ctx context.Context, f *resolveFlags, opts resolver.RolloutOptions) error {
	w, err := e.loadWorld(f)
	if err != nil {
		return err
	}
	if w.Resolver == nil {
		return usageErrorf("rollout is for OLM v0 Subscriptions; the manifests hold only ClusterExtensions")
	}
	a, err := w.Rollout(ctx, opts, answerOptions(f.maxSuggestions))
	if err != nil {
		return err
	}
	defer e.noteUnusedWorldBundles(w)
	e.printNotes(a.Notes)
	if f.output.value != "text" {
		err = writeEncoded(e.stdout, f.output.value, a)
	} else {
		err = a.WriteText(e.stdout, textOptions(f))
		e.noteApprove(a)
	}
	return answered(a.No(), err)
}
