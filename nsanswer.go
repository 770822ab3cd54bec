package sextant

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/internal/textio"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolver/predict"
)

// NamespaceAnswer is the whole OLM v0 answer for one namespace, as
// `sextant resolve` prints it: the plan with its held-back reasons and
// the fixes of its predicted failures, or why there is no plan.
//
// Its JSON form (encoding/json) is a stable contract: with a plan, the
// Plan's own fields (resolver.Plan, written in place: a field added to
// Plan is a field of this answer, of a rollout's rounds and of an
// application's plan alike); without one, {"namespace": "...", "error":
// {...}}.
type NamespaceAnswer struct {
	Namespace string `json:"namespace"`
	// Plan is the plan, with HeldBack and Fixes set; nil when there is
	// none.
	*resolver.Plan
	// Error says why there is no plan.
	Error *NoPlan `json:"error,omitempty"`

	// notes are the world's notes the text writes after an explanation
	// (NoteCatalogNotVisible of this namespace).
	notes []Note
	// omitAssumed: the world notes the assumed OperatorGroup, so the
	// plan's own note on it is left out of the text.
	omitAssumed bool
}

// NoPlan says why a namespace has no plan. Message is the verdict line; a
// conflict adds the Explanation (verdict, facts, derivation, suggestions)
// and what the resolution found in flight.
type NoPlan struct {
	Message string `json:"message"`
	*resolver.Explanation
	InFlight []resolver.InFlight `json:"inFlight,omitempty"`
}

// noPlanOf is the NoPlan of an explained conflict.
func noPlanOf(ex *resolver.Explanation) *NoPlan {
	return &NoPlan{Message: ex.Verdict.Text, Explanation: ex}
}

// answerNamespace answers a resolution as a whole: a conflict is
// explained with suggestions (Resolution.Explain); an upgrade that failed
// (*resolver.StuckError) or an OperatorGroup OLM does not resolve with
// (*cluster.OperatorGroupError) is a NoPlan with its message; a plan gets
// its held-back reasons (HeldBack) and, when OLM is predicted to fail
// some of it, its fixes (Fixes). Any other error of the resolution is
// returned.
func answerNamespace(ctx context.Context, s *resolver.Resolution, opts engineOptions) (*NamespaceAnswer, error) {
	a := &NamespaceAnswer{Namespace: s.Namespace()}
	if c := s.Conflict(); c != nil {
		ex, err := s.Explain(ctx, opts.Explain)
		if err != nil {
			return nil, err
		}
		a.Error = noPlanOf(ex)
		a.Error.InFlight = c.InFlight
		return a, nil
	}
	if msg := noPlanMessage(s.Err()); msg != "" {
		a.Error = &NoPlan{Message: msg}
		return a, nil
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	plan, err := s.HeldBack(ctx, opts.HeldBack)
	if err != nil {
		return nil, err
	}
	if plan.Failing() {
		if plan.Fixes, err = s.Fixes(ctx, opts.Explain); err != nil {
			return nil, err
		}
	}
	a.Plan = plan
	return a, nil
}

// noPlanMessage is the message of an error that is an answer without a
// plan other than a conflict: an upgrade that failed, or an OperatorGroup
// problem; "" for any other.
func noPlanMessage(err error) string {
	var stuck *resolver.StuckError
	if errors.As(err, &stuck) {
		return stuck.Error()
	}
	var og *cluster.OperatorGroupError
	if errors.As(err, &og) {
		return og.Error()
	}
	return ""
}

// No reports an answer "no": no plan, or a plan OLM is predicted to fail.
func (a *NamespaceAnswer) No() bool { return a.Plan == nil || a.Plan.Failing() }

// String returns the answer's text (WriteText with the zero options).
func (a *NamespaceAnswer) String() string {
	var b strings.Builder
	a.WriteText(&b, TextOptions{})
	return b.String()
}

// WriteText writes the answer for a terminal or a CI log: the plan (see
// resolver.Plan.WriteText) with its notes (but the assumed OperatorGroup's
// when the world notes it) and fixes, or "no plan: message", or the
// explanation (resolver.Explanation's String, or Full with opts.Full),
// the world's notes on it (a catalog given that the namespace does not
// see, with opts.Advice) and what was in flight.
func (a *NamespaceAnswer) WriteText(w io.Writer, opts TextOptions) error {
	ew := &textio.ErrWriter{W: w}
	switch {
	case a.Plan != nil:
		a.Plan.WriteText(ew, "namespace "+a.Plan.Namespace)
		writePlanNotes(ew, a.Plan.Notes, a.omitAssumed, opts)
		a.Plan.WriteFixes(ew)
	case a.Error != nil && a.Error.Explanation != nil:
		a.Error.writeText(ew, opts, a.notes)
		for _, f := range a.Error.InFlight {
			fmt.Fprintf(ew, "in flight: %s\n", f.Text)
		}
	case a.Error != nil:
		fmt.Fprintf(ew, "no plan: %s\n", a.Error.Message)
	}
	return ew.Err
}

// writePlanNotes writes a plan's notes, "note: ..." each with opts'
// advice (under the note's code), but the assumed OperatorGroup's with
// omitAssumed.
func writePlanNotes(w io.Writer, notes []predict.Note, omitAssumed bool, opts TextOptions) {
	for _, n := range notes {
		if !omitAssumed || n.Code != predict.NoteAssumedOperatorGroup {
			fmt.Fprintf(w, "note: %s\n", opts.noteText(Note{Code: NoteCode(n.Code), Text: n.Text}))
		}
	}
}

// writeText writes an explanation and the notes on it, with opts'
// advice.
func (n *NoPlan) writeText(w io.Writer, opts TextOptions, notes []Note) {
	if opts.Full {
		io.WriteString(w, n.Explanation.Full())
	} else {
		io.WriteString(w, n.Explanation.String())
	}
	for _, note := range notes {
		fmt.Fprintf(w, "note: %s\n", opts.noteText(note))
	}
}
