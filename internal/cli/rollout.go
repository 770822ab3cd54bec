package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant/cluster"
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
		Long: `Rollout simulates what a namespace will go through: OLM moves one upgrade hop
per resolution, so rollout resolves, applies the plan as OLM would (each
bundle becomes an installed CSV, dependencies get a subscription), and
repeats until a plan has nothing to do. It prints one block per round that
changed something. When a round has no plan, it prints the rounds so far and
the explanation; when --max-rounds rounds did not settle the namespace, it
says so. A plan that waits for approval (a Manual InstallPlan: some
subscription of the namespace is Manual) stops the rollout there, exit 0,
unless --approve approves every such plan; each round says the approval it
needed, and the last line how many approvals the rollout took.

` + inputsHelp + `

JSON output (-o json) is a stable contract; steps and unchanged are those of
resolve:

  {"namespace": "...",
   "rounds": [{"round": 1, "approval": {...}, "approved": true,
     "waiting": true, "steps": [...], "unchanged": [...]}],
   "settled": true|false, "waiting": true,
   "error": {"message": "...", ...}}

"error" is present when the rollout did not settle: with the explanation's
structured form (as in resolve) when a round has no plan, with the message
alone when --max-rounds was reached.

Exit status: 0 when the namespace settles or waits for approval, 1 when a
round has no plan or the rounds run out, 2 for bad input or usage.`,
		Example: `  sextant rollout --catalog testdata/catalogs/community-operators-prod.v4.20-index.json.gz -f testdata/examples/cluster.yaml`,
		Args:    cobra.NoArgs,
	}
	addResolveFlags(cmd, f)
	cmd.Flags().IntVar(&maxRounds, "max-rounds", defaultMaxRounds, "the most rounds to simulate")
	var approve bool
	cmd.Flags().BoolVar(&approve, "approve", false, "approve every plan that waits for approval (a Manual InstallPlan), as a person approving each one would; without it the rollout stops at the first")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if maxRounds < 1 {
			return usageErrorf("--max-rounds %d: want at least 1", maxRounds)
		}
		in, err := e.loadResolveInput(f)
		if err != nil {
			return err
		}
		ctx := cmd.Context()
		rounds, err := in.res.RolloutWith(ctx, in.ns, in.state, resolver.RolloutOptions{MaxRounds: maxRounds, Approve: approve})
		// The invalid packages left out, each once, over every round.
		var plans []*resolver.Plan
		for _, r := range rounds {
			plans = append(plans, r.Plan)
		}
		e.noteExcluded(err, plans...)
		if og := (*cluster.OperatorGroupError)(nil); errors.As(err, &og) && len(rounds) == 0 {
			return e.writeOperatorGroupAnswer(f, rolloutJSON{Namespace: in.ns, Rounds: []roundJSON{}, Error: &errorJSON{Message: og.Error()}}, og)
		}
		var conflict *resolver.ConflictError
		var stuck *resolver.StuckError
		var ex *resolver.Explanation
		var failure string
		switch {
		case errors.As(err, &conflict):
			state := in.state
			if len(rounds) > 0 {
				state = rounds[len(rounds)-1].State
			}
			if ex, err = in.explain(ctx, in.ns, state, conflict, f.maxSuggestions); err != nil {
				return err
			}
		case errors.As(err, &stuck):
			failure = "no plan: " + stuck.Error()
		case errors.Is(err, resolver.ErrRoundLimit):
			failure = fmt.Sprintf("rollout did not settle within %s", plural(maxRounds, "round"))
		case err != nil:
			return in.resolveError(err)
		}
		waiting := ex == nil && failure == "" && len(rounds) > 0 && rounds[len(rounds)-1].Waiting
		settled := ex == nil && failure == "" && !waiting
		applied := len(rounds)
		if waiting {
			applied--
		}
		var stops []resolver.Stop
		if settled {
			if stops, err = in.stops(ctx, rounds, f.maxSuggestions); err != nil {
				return err
			}
		}

		if f.output.value != "text" {
			out := rolloutJSON{Namespace: in.ns, Rounds: []roundJSON{}, Settled: settled, Waiting: waiting, Stops: stops}
			for i, r := range rounds {
				out.Rounds = append(out.Rounds, roundJSON{Round: i + 1, Plan: r.Plan, Approved: r.Approved, Waiting: r.Waiting})
			}
			switch {
			case ex != nil:
				out.Error = newErrorJSON(ex)
			case failure != "":
				out.Error = &errorJSON{Message: failure}
			}
			if err := writeEncoded(e.stdout, f.output.value, out); err != nil {
				return err
			}
		} else {
			ew := &errWriter{w: e.stdout}
			switch {
			case ex != nil && len(rounds) == 0:
				fmt.Fprintf(ew, "namespace %s: no plan\n", in.ns)
			case ex != nil:
				fmt.Fprintf(ew, "namespace %s: %s, then no plan\n", in.ns, plural(len(rounds), "round"))
			case failure != "":
				fmt.Fprintf(ew, "namespace %s: %s, not settled\n", in.ns, plural(len(rounds), "round"))
			case waiting && applied == 0:
				fmt.Fprintf(ew, "namespace %s: waits for approval at round 1\n", in.ns)
			case waiting:
				fmt.Fprintf(ew, "namespace %s: %s, then waits for approval\n", in.ns, plural(applied, "round"))
			case len(rounds) == 0:
				fmt.Fprintf(ew, "namespace %s: nothing to do, already settled\n", in.ns)
			default:
				fmt.Fprintf(ew, "namespace %s: %s\n", in.ns, plural(len(rounds), "round"))
			}
			for i, r := range rounds {
				fmt.Fprintln(ew)
				title := fmt.Sprintf("round %d", i+1)
				switch {
				case r.Waiting:
					title += " (waits for approval)"
				case r.Approved:
					title += " (approved)"
				}
				writePlanText(ew, r.Plan, title)
			}
			switch {
			case ex != nil:
				fmt.Fprintf(ew, "\nround %d: no plan\n", len(rounds)+1)
				if err := writeExplanation(ew, ex, f.full); err != nil {
					return err
				}
				if err := in.writeNotes(ew, in.ns, ex); err != nil {
					return err
				}
			case failure != "":
				fmt.Fprintf(ew, "\n%s\n", failure)
			case waiting:
				p := rounds[len(rounds)-1].Plan
				fmt.Fprintf(ew, "\nround %d waits for approval: the namespace's InstallPlan is Manual because subscription %s %s Manual; approve it (spec.approved: true), or add --approve to simulate approving every plan\n",
					len(rounds), strings.Join(p.Approval.Subscriptions, ", "), isAre(len(p.Approval.Subscriptions)))
			case len(rounds) > 0:
				approvals := 0
				for _, r := range rounds {
					if r.Approved {
						approvals++
					}
				}
				fmt.Fprintf(ew, "\nsettled after %s", plural(len(rounds), "round"))
				if approvals > 0 {
					fmt.Fprintf(ew, ", %s", plural(approvals, "approval"))
				}
				fmt.Fprintln(ew)
			}
			writeStops(ew, stops)
			if ew.err != nil {
				return ew.err
			}
		}
		if !settled && !waiting {
			return errNo
		}
		return nil
	}
	return cmd
}

// roundJSON is one round of rollout's JSON output: its number and the
// library's Plan and round flags, as encoding/json writes them.
type roundJSON struct {
	Round int `json:"round"`
	*resolver.Plan
	Approved bool `json:"approved,omitempty"`
	Waiting  bool `json:"waiting,omitempty"`
}

// rolloutJSON is rollout's JSON output.
type rolloutJSON struct {
	Namespace string      `json:"namespace"`
	Rounds    []roundJSON `json:"rounds"`
	Settled   bool        `json:"settled"`
	// Waiting reports a rollout that stopped at a plan waiting for
	// approval (exit status 0).
	Waiting bool `json:"waiting,omitempty"`
	// Stops are the subscriptions the settled namespace leaves below their
	// channels' heads, and why (left out when none).
	Stops []resolver.Stop `json:"stops,omitempty"`
	Error *errorJSON      `json:"error,omitempty"`
}
