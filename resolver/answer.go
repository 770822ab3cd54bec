package resolver

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/internal/textio"
)

// Answer is the whole answer for one namespace, as `sextant resolve`
// prints it: the plan with its held-back reasons and the fixes of its
// predicted failures, or why there is no plan.
//
// Its JSON form (encoding/json) is a stable contract: with a plan, the
// Plan's own fields; without one, {"namespace": "...", "error": {...}}.
type Answer struct {
	Namespace string `json:"namespace"`
	// Plan is the plan, with HeldBack and Fixes set; nil when there is
	// none.
	*Plan
	// Error says why there is no plan.
	Error *NoPlan `json:"error,omitempty"`
}

// NoPlan says why a namespace has no plan. Message is the verdict line; a
// conflict adds the Explanation (verdict, facts, derivation, suggestions)
// and what the resolution found in flight.
type NoPlan struct {
	Message string `json:"message"`
	*Explanation
	InFlight []InFlight `json:"inFlight,omitempty"`
}

// NoPlanOf is the NoPlan of an explained conflict.
func NoPlanOf(ex *Explanation) *NoPlan {
	return &NoPlan{Message: ex.Verdict.Text, Explanation: ex}
}

// AnswerOptions tunes Resolution.Answer and Rollout.Answer.
type AnswerOptions struct {
	// Explain tunes the suggestions of a conflict and the fixes of
	// predicted failures.
	Explain ExplainOptions
	// HeldBack tunes the held-back reasons.
	HeldBack HeldBackOptions
}

// Answer answers the namespace as a whole: a conflict is explained with
// suggestions (Explain); an upgrade that failed (*StuckError) or an
// OperatorGroup OLM does not resolve with (*cluster.OperatorGroupError)
// is a NoPlan with its message; a plan gets its held-back reasons
// (HeldBack) and, when OLM is predicted to fail some of it, its fixes
// (Fixes). Any other error of the resolution is returned.
func (s *Resolution) Answer(ctx context.Context, opts AnswerOptions) (*Answer, error) {
	a := &Answer{Namespace: s.ns}
	if c := s.Conflict(); c != nil {
		ex, err := s.Explain(ctx, opts.Explain)
		if err != nil {
			return nil, err
		}
		a.Error = NoPlanOf(ex)
		a.Error.InFlight = c.InFlight
		return a, nil
	}
	if msg := noPlanMessage(s.err); msg != "" {
		a.Error = &NoPlan{Message: msg}
		return a, nil
	}
	if s.err != nil {
		return nil, s.err
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
	var stuck *StuckError
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
func (a *Answer) No() bool { return a.Plan == nil || a.Plan.Failing() }

// TextOptions tunes the text renderers (WriteText).
type TextOptions struct {
	// Full writes an explanation's whole derivation.
	Full bool
	// Notes are the caller's notes about an explanation (what it knows of
	// its inputs), each written as a "note:" line after it.
	Notes []string
	// OmitNotes are plan notes the caller says elsewhere, left out.
	OmitNotes []string
}

// WriteText writes the answer for a terminal or a CI log: the plan (see
// Plan.WriteText) with its notes and fixes, or "no plan: message", or the
// explanation (see Explanation.String and Full), the caller's notes and
// what was in flight.
func (a *Answer) WriteText(w io.Writer, opts TextOptions) error {
	ew := &textio.ErrWriter{W: w}
	switch {
	case a.Plan != nil:
		a.Plan.WriteText(ew, "namespace "+a.Plan.Namespace)
		a.Plan.writeFixes(ew, opts.OmitNotes)
	case a.Error != nil && a.Error.Explanation != nil:
		a.Error.writeText(ew, opts)
		for _, f := range a.Error.InFlight {
			fmt.Fprintf(ew, "in flight: %s\n", f.Text)
		}
	case a.Error != nil:
		fmt.Fprintf(ew, "no plan: %s\n", a.Error.Message)
	}
	return ew.Err
}

// writeText writes an explanation and the caller's notes.
func (n *NoPlan) writeText(w io.Writer, opts TextOptions) {
	if opts.Full {
		io.WriteString(w, n.Explanation.Full())
	} else {
		io.WriteString(w, n.Explanation.String())
	}
	for _, note := range opts.Notes {
		fmt.Fprintf(w, "note: %s\n", note)
	}
}

// Answers are the answers of several namespaces (ResolveAll), in order.
// Its JSON form is {"namespaces": [answer, ...]}.
type Answers struct {
	Namespaces []*Answer `json:"namespaces"`
}

// No reports whether any answer is no.
func (as *Answers) No() bool {
	for _, a := range as.Namespaces {
		if a.No() {
			return true
		}
	}
	return false
}

// WriteText writes each answer (Answer.WriteText with the options opts
// gives it), a blank line between two.
func (as *Answers) WriteText(w io.Writer, opts func(*Answer) TextOptions) error {
	for i, a := range as.Namespaces {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if err := a.WriteText(w, opts(a)); err != nil {
			return err
		}
	}
	return nil
}
