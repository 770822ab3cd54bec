package resolver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/sextantdev/sextant/internal/textio"
	"github.com/sextantdev/sextant/internal/words"
)

// RolloutAnswer is the whole answer of a rollout, as `sextant rollout`
// prints it: its rounds, how it ended, where a settled namespace stops
// short of its channels' heads, and why a failed one failed (a conflict
// explained with suggestions).
//
// Its JSON form (encoding/json) is a stable contract; "error" is present
// when the rollout did not settle or wait: with the explanation's
// structured form when a round has no plan, with the message alone when
// the rounds ran out or an upgrade failed.
type RolloutAnswer struct {
	Namespace string        `json:"namespace"`
	Rounds    []RoundAnswer `json:"rounds"`
	Settled   bool          `json:"settled"`
	// Waiting reports a rollout that stopped at a plan waiting for
	// approval.
	Waiting bool `json:"waiting,omitempty"`
	// Stops are the subscriptions the settled namespace leaves below their
	// channels' heads, and why (left out when none).
	Stops []Stop  `json:"stops,omitempty"`
	Error *NoPlan `json:"error,omitempty"`
	// unresolved: the first round has no plan for a reason other than a
	// conflict (an OperatorGroup OLM does not resolve with).
	unresolved bool
}

// RoundAnswer is one round of a RolloutAnswer: its number, and its plan
// and flags (Round).
type RoundAnswer struct {
	Round int `json:"round"`
	*Plan
	Approved bool `json:"approved,omitempty"`
	Waiting  bool `json:"waiting,omitempty"`
}

// Answer answers the rollout as a whole: a round without a plan for a
// conflict is explained with suggestions (Resolution.Explain of Last); a
// settled rollout gets its stops (Stops). The error is that of a
// resolution that is no answer (bad input).
func (ro *Rollout) Answer(ctx context.Context, opts AnswerOptions) (*RolloutAnswer, error) {
	a := &RolloutAnswer{Namespace: ro.Namespace, Rounds: make([]RoundAnswer, 0, len(ro.Rounds)), Settled: ro.Outcome == RolloutSettled, Waiting: ro.Outcome == RolloutWaiting}
	for i, r := range ro.Rounds {
		a.Rounds = append(a.Rounds, RoundAnswer{Round: i + 1, Plan: r.Plan, Approved: r.Approved, Waiting: r.Waiting})
	}
	var err error
	switch {
	case ro.Outcome == RolloutSettled:
		a.Stops, err = ro.Stops(ctx, opts.HeldBack)
	case ro.Outcome != RolloutFailed:
	case ro.last != nil && ro.last.Conflict() != nil:
		var ex *Explanation
		if ex, err = ro.last.Explain(ctx, opts.Explain); err == nil {
			a.Error = NoPlanOf(ex)
		}
	case errors.Is(ro.err, ErrRoundLimit):
		a.Error = &NoPlan{Message: fmt.Sprintf("rollout did not settle within %s", words.Plural(ro.MaxRounds, "round"))}
	case noPlanMessage(ro.err) != "":
		var stuck *StuckError
		switch {
		case errors.As(ro.err, &stuck):
			a.Error = &NoPlan{Message: "no plan: " + stuck.Error()}
		case len(ro.Rounds) == 0:
			// The namespace is not resolved at all (its OperatorGroup).
			a.Error, a.unresolved = &NoPlan{Message: noPlanMessage(ro.err)}, true
		default:
			err = ro.err
		}
	default:
		err = ro.err
	}
	if err != nil {
		return nil, err
	}
	return a, nil
}

// No reports an answer "no": the rollout neither settled nor waits.
func (a *RolloutAnswer) No() bool { return !a.Settled && !a.Waiting }

// WriteText writes the rollout for a terminal or a CI log: a summary line,
// one block per round (Plan.WriteText), then how it ended — the
// explanation of the round without a plan, the failure, the approval it
// waits for, or how many rounds and approvals it took — and the stops.
func (a *RolloutAnswer) WriteText(w io.Writer, opts TextOptions) error {
	ew := &textio.ErrWriter{W: w}
	if a.unresolved {
		fmt.Fprintf(ew, "no plan: %s\n", a.Error.Message)
		return ew.Err
	}
	a.writeSummary(ew)
	for _, r := range a.Rounds {
		fmt.Fprintln(ew)
		title := fmt.Sprintf("round %d", r.Round)
		switch {
		case r.Waiting:
			title += " (waits for approval)"
		case r.Approved:
			title += " (approved)"
		}
		r.Plan.WriteText(ew, title)
	}
	a.writeEnd(ew, opts)
	writeStops(ew, a.Stops)
	return ew.Err
}

// explained reports a rollout that ended at a round whose conflict is
// explained.
func (a *RolloutAnswer) explained() bool { return a.Error != nil && a.Error.Explanation != nil }

// writeSummary writes the first line: how many rounds, and how it ended.
func (a *RolloutAnswer) writeSummary(w io.Writer) {
	n := len(a.Rounds)
	switch {
	case a.explained() && n == 0:
		fmt.Fprintf(w, "namespace %s: no plan\n", a.Namespace)
	case a.explained():
		fmt.Fprintf(w, "namespace %s: %s, then no plan\n", a.Namespace, words.Plural(n, "round"))
	case a.Error != nil:
		fmt.Fprintf(w, "namespace %s: %s, not settled\n", a.Namespace, words.Plural(n, "round"))
	case a.Waiting && n == 1:
		fmt.Fprintf(w, "namespace %s: waits for approval at round 1\n", a.Namespace)
	case a.Waiting:
		fmt.Fprintf(w, "namespace %s: %s, then waits for approval\n", a.Namespace, words.Plural(n-1, "round"))
	case n == 0:
		fmt.Fprintf(w, "namespace %s: nothing to do, already settled\n", a.Namespace)
	default:
		fmt.Fprintf(w, "namespace %s: %s\n", a.Namespace, words.Plural(n, "round"))
	}
}

// writeEnd writes how the rollout ended, after its rounds.
func (a *RolloutAnswer) writeEnd(w io.Writer, opts TextOptions) {
	n := len(a.Rounds)
	switch {
	case a.explained():
		fmt.Fprintf(w, "\nround %d: no plan\n", n+1)
		a.Error.writeText(w, opts)
	case a.Error != nil:
		fmt.Fprintf(w, "\n%s\n", a.Error.Message)
	case a.Waiting:
		p := a.Rounds[n-1].Plan
		fmt.Fprintf(w, "\nround %d waits for approval: the namespace's InstallPlan is Manual because subscription %s %s Manual; approve it (spec.approved: true)\n",
			n, strings.Join(p.Approval.Subscriptions, ", "), words.IsAre(len(p.Approval.Subscriptions)))
	case n > 0:
		approvals := 0
		for _, r := range a.Rounds {
			if r.Approved {
				approvals++
			}
		}
		fmt.Fprintf(w, "\nsettled after %s", words.Plural(n, "round"))
		if approvals > 0 {
			fmt.Fprintf(w, ", %s", words.Plural(approvals, "approval"))
		}
		fmt.Fprintln(w)
	}
}

// writeStops writes where a settled rollout stops short of the heads.
func writeStops(w io.Writer, stops []Stop) {
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
