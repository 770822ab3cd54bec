package sextant

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/sextantdev/sextant/internal/textio"
	"github.com/sextantdev/sextant/internal/words"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolver/predict"
)

// RolloutAnswer is the whole answer of a rollout, as `sextant rollout`
// prints it: its rounds, how it ended, the first round OLM is predicted
// to fail with its confirmed fixes, where a settled namespace stops short
// of its channels' heads, and why a failed one failed (a conflict
// explained with suggestions).
//
// Its JSON form (encoding/json) is a stable contract. "settled" is true
// when the rounds reach a plan with nothing to do and none predicts a
// failure; "failing" lists the rounds with a predicted failure (OLM fails
// that CSV: the rounds after it take it as installed, as a rollout
// simulates); "error" is present when the rollout did not settle or
// wait: with the explanation's structured form when a round has no plan,
// with the message alone when the rounds ran out or an upgrade failed.
type RolloutAnswer struct {
	Namespace string        `json:"namespace"`
	Rounds    []RoundAnswer `json:"rounds"`
	Settled   bool          `json:"settled"`
	// Waiting reports a rollout that stopped at a plan waiting for
	// approval.
	Waiting bool `json:"waiting,omitempty"`
	// Failing are the rounds (1-based) whose plan OLM is predicted to
	// fail; Fixes the confirmed fixes of the first of them, as resolve
	// gives them for its state.
	Failing []int                 `json:"failing,omitempty"`
	Fixes   []resolver.Suggestion `json:"fixes,omitempty"`
	// Stops are the subscriptions the settled namespace leaves below their
	// channels' heads, and why (left out when none).
	Stops []resolver.Stop `json:"stops,omitempty"`
	Error *NoPlan         `json:"error,omitempty"`
	// Notes are what the answer says beyond the world's notes: invalid
	// packages left out (NoteExcluded), a catalog given whose namespace is
	// not visible (NoteCatalogNotVisible). Not in JSON.
	Notes []Note `json:"-"`
	// unresolved: the first round has no plan for a reason other than a
	// conflict (an OperatorGroup OLM does not resolve with).
	unresolved bool
	// simulated: the simulation reached a plan with nothing to do.
	simulated bool
	// omitAssumed: the world notes the assumed OperatorGroup (see
	// NamespaceAnswer.omitAssumed).
	omitAssumed bool
}

// RoundAnswer is one round of a RolloutAnswer: its number, and its plan
// and flags (resolver.Round).
type RoundAnswer struct {
	Round int `json:"round"`
	*resolver.Plan
	Approved bool `json:"approved,omitempty"`
	Waiting  bool `json:"waiting,omitempty"`
}

// Rollout rolls the world's namespace out (resolver.Resolver.Rollout:
// resolve, apply the plan as OLM would, repeat) and answers it as a whole:
// a round without a plan for a conflict is explained with suggestions, the
// first round OLM is predicted to fail gets the fixes resolve gives for
// it, a settled rollout its stops. Round 1 is the plan Resolve answers
// for the same world, with the same predictions. The error is that of a
// resolution that is no answer (bad input), or of ctx. It needs exactly
// one namespace (not AllNamespaces).
func (w *World) Rollout(ctx context.Context, ro resolver.RolloutOptions, opts AnswerOptions) (*RolloutAnswer, error) {
	if w.Resolver == nil || len(w.Namespaces) != 1 || w.AllNamespaces {
		return nil, &InputError{Field: "Namespaces", Value: strings.Join(w.Namespaces, ", "), Err: errors.New("a rollout is of one namespace")}
	}
	ns := w.Namespaces[0]
	r, err := w.Resolver.Rollout(ctx, ns, w.State, ro)
	if err != nil && r == nil {
		return nil, w.catalogError(err)
	}
	a, err := w.answerRollout(ctx, r, opts.resolver())
	if err != nil {
		return nil, w.catalogError(err)
	}
	var excluded []resolver.InvalidPackage
	for _, rd := range r.Rounds {
		excluded = append(excluded, rd.Plan.Excluded...)
	}
	if l := r.Last(); l != nil {
		if p := l.Plan(); p != nil {
			excluded = append(excluded, p.Excluded...)
		}
		if c := l.Conflict(); c != nil {
			excluded = append(excluded, c.Excluded...)
		}
	}
	a.Notes = excludedOnce(excluded)
	a.omitAssumed = w.assumesGroups()
	if a.Error != nil && a.Error.Explanation != nil {
		a.Notes = append(a.Notes, w.answerNotes(&NamespaceAnswer{Namespace: ns, Error: a.Error})...)
	}
	return a, nil
}

// answerRollout answers a rollout of the world (see World.Rollout).
func (w *World) answerRollout(ctx context.Context, ro *resolver.Rollout, opts engineOptions) (*RolloutAnswer, error) {
	a := &RolloutAnswer{Namespace: ro.Namespace, Rounds: make([]RoundAnswer, 0, len(ro.Rounds)), simulated: ro.Outcome == resolver.RolloutSettled, Waiting: ro.Outcome == resolver.RolloutWaiting}
	for i, r := range ro.Rounds {
		a.Rounds = append(a.Rounds, RoundAnswer{Round: i + 1, Plan: r.Plan, Approved: r.Approved, Waiting: r.Waiting})
		if r.Plan.Failing() {
			a.Failing = append(a.Failing, i+1)
		}
	}
	a.Settled = a.simulated && len(a.Failing) == 0
	var err error
	switch {
	case ro.Outcome == resolver.RolloutSettled:
		a.Stops, err = ro.Stops(ctx, opts.HeldBack)
	case ro.Outcome != resolver.RolloutFailed:
	case ro.Last() != nil && ro.Last().Conflict() != nil:
		var ex *resolver.Explanation
		if ex, err = ro.Last().Explain(ctx, opts.Explain); err == nil {
			a.Error = noPlanOf(ex)
		}
	case errors.Is(ro.Err(), resolver.ErrRoundLimit):
		a.Error = &NoPlan{Message: fmt.Sprintf("rollout did not settle within %s", words.Plural(ro.MaxRounds, "round"))}
	case noPlanMessage(ro.Err()) != "":
		var stuck *resolver.StuckError
		switch {
		case errors.As(ro.Err(), &stuck):
			a.Error = &NoPlan{Message: "no plan: " + stuck.Error()}
		case len(ro.Rounds) == 0:
			// The namespace is not resolved at all (its OperatorGroup).
			a.Error, a.unresolved = &NoPlan{Message: noPlanMessage(ro.Err())}, true
		default:
			err = ro.Err()
		}
	default:
		err = ro.Err()
	}
	if err != nil {
		return nil, err
	}
	if len(a.Failing) > 0 {
		if a.Fixes, err = w.roundFixes(ctx, ro, a.Failing[0], opts); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// roundFixes returns the confirmed fixes of round n (1-based) of ro:
// those resolve gives for the state the round starts from.
func (w *World) roundFixes(ctx context.Context, ro *resolver.Rollout, n int, opts engineOptions) ([]resolver.Suggestion, error) {
	state := w.State
	if n > 1 {
		state = ro.Rounds[n-2].State
	}
	res, err := w.Resolver.Resolve(ctx, ro.Namespace, state)
	if err != nil {
		return nil, err
	}
	return res.Fixes(ctx, opts.Explain)
}

// No reports an answer "no": the rollout neither settled nor waits, or a
// round is predicted to fail.
func (a *RolloutAnswer) No() bool { return (!a.Settled && !a.Waiting) || len(a.Failing) > 0 }

// WriteText writes the rollout for a terminal or a CI log: a summary line,
// one block per round (resolver.Plan.WriteText) with the notes of its plan
// that no earlier round gave (as resolve writes a plan's notes), then how it ended — the
// explanation of the round without a plan, the failure, the approval it
// waits for, the rounds OLM is predicted to fail with the fixes of the
// first, or how many rounds and approvals it took — and the stops.
func (a *RolloutAnswer) WriteText(w io.Writer, opts TextOptions) error {
	ew := &textio.ErrWriter{W: w}
	if a.unresolved {
		fmt.Fprintf(ew, "no plan: %s\n", a.Error.Message)
		return ew.Err
	}
	a.writeSummary(ew)
	seen := map[predict.Note]bool{}
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
		var notes []predict.Note
		for _, n := range r.Plan.Notes {
			if !seen[n] {
				seen[n] = true
				notes = append(notes, n)
			}
		}
		writePlanNotes(ew, notes, a.omitAssumed, opts)
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
	failing := ""
	if len(a.Failing) > 0 {
		failing = fmt.Sprintf(", %d predicted to fail", len(a.Failing))
	}
	switch {
	case a.explained() && n == 0:
		fmt.Fprintf(w, "namespace %s: no plan\n", a.Namespace)
	case a.explained():
		fmt.Fprintf(w, "namespace %s: %s%s, then no plan\n", a.Namespace, words.Plural(n, "round"), failing)
	case a.Error != nil:
		fmt.Fprintf(w, "namespace %s: %s%s, not settled\n", a.Namespace, words.Plural(n, "round"), failing)
	case a.Waiting && n == 1:
		fmt.Fprintf(w, "namespace %s: waits for approval at round 1%s\n", a.Namespace, failing)
	case a.Waiting:
		fmt.Fprintf(w, "namespace %s: %s, then waits for approval%s\n", a.Namespace, words.Plural(n-1, "round"), failing)
	case n == 0:
		fmt.Fprintf(w, "namespace %s: nothing to do, already settled\n", a.Namespace)
	default:
		fmt.Fprintf(w, "namespace %s: %s%s\n", a.Namespace, words.Plural(n, "round"), failing)
	}
}

// writeEnd writes how the rollout ended, after its rounds.
func (a *RolloutAnswer) writeEnd(w io.Writer, opts TextOptions) {
	n := len(a.Rounds)
	switch {
	case a.explained():
		fmt.Fprintf(w, "\nround %d: no plan\n", n+1)
		var notes []Note
		for _, note := range a.Notes {
			if note.Code == NoteCatalogNotVisible {
				notes = append(notes, note)
			}
		}
		a.Error.writeText(w, opts, notes)
	case a.Error != nil:
		fmt.Fprintf(w, "\n%s\n", a.Error.Message)
	case a.Waiting:
		p := a.Rounds[n-1].Plan
		fmt.Fprintf(w, "\nround %d waits for approval: the namespace's InstallPlan is Manual because subscription %s %s Manual; approve it (spec.approved: true)\n",
			n, strings.Join(p.Approval.Subscriptions, ", "), words.IsAre(len(p.Approval.Subscriptions)))
	case len(a.Failing) > 0:
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
	a.writeFailing(w)
}

// writeFailing writes the rounds OLM is predicted to fail, the CSVs of
// the first, and its fixes.
func (a *RolloutAnswer) writeFailing(w io.Writer) {
	if len(a.Failing) == 0 {
		return
	}
	first := a.Rounds[a.Failing[0]-1].Plan
	var csvs []string
	for _, s := range first.Steps {
		if predict.Failing(s.Predictions) {
			csvs = append(csvs, s.Bundle)
		}
	}
	for _, u := range first.Unchanged {
		if predict.Failing(u.Predictions) {
			csvs = append(csvs, u.CSV)
		}
	}
	fmt.Fprintf(w, "\nnot settled: in round %d, OLM is predicted to fail %s %s", a.Failing[0], noun(len(csvs), "CSV"), strings.Join(csvs, ", "))
	if len(a.Failing) > 1 {
		rounds := make([]string, len(a.Failing)-1)
		for i, r := range a.Failing[1:] {
			rounds[i] = fmt.Sprint(r)
		}
		verb := "predict failures"
		if len(rounds) == 1 {
			verb = "predicts a failure"
		}
		fmt.Fprintf(w, "; %s %s %s too", noun(len(rounds), "round"), strings.Join(rounds, ", "), verb)
	}
	fmt.Fprintln(w)
	if len(a.Fixes) == 0 {
		fmt.Fprintf(w, "no fix of round %d found among the changes tried (channel, startingCSV, OperatorGroup, moving a subscription)\n", a.Failing[0])
		return
	}
	fmt.Fprintf(w, "fixes of round %d (each re-solved and confirmed):\n", a.Failing[0])
	for i, s := range a.Fixes {
		fmt.Fprintf(w, "  %d. %s\n", i+1, s)
	}
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

// noun returns word, plural for n other than 1.
func noun(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
