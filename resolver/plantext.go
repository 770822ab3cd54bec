package resolver

import (
	"fmt"
	"io"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/internal/safetext"
	"github.com/sextantdev/sextant/internal/textio"
	"github.com/sextantdev/sextant/internal/words"
	"github.com/sextantdev/sextant/resolver/predict"
)

// WriteText writes the plan for a terminal or a CI log: a title line that
// starts with title (e.g. "namespace operators") and counts the steps, the
// operators that stay and those predicted to fail; the approval and what
// is in flight; one block per step (what, where from, why, approval,
// warnings, predictions); the operators that stay as they are; then why
// what is held back stays below its first preference.
func (p *Plan) WriteText(w io.Writer, title string) error {
	ew := &textio.ErrWriter{W: w}
	if len(p.Steps) == 0 {
		title += ": nothing to do"
	} else {
		title += ": " + words.Plural(len(p.Steps), "step")
	}
	if len(p.Unchanged) > 0 {
		title += fmt.Sprintf(", %d unchanged", len(p.Unchanged))
	}
	if n := p.failingCount(); n > 0 {
		title += fmt.Sprintf(", %d will fail", n)
	}
	fmt.Fprintln(ew, title)
	if p.Approval.Mode == cluster.ApprovalManual {
		fmt.Fprintf(ew, "  approval: Manual, because subscription %s %s Manual", strings.Join(p.Approval.Subscriptions, ", "), words.IsAre(len(p.Approval.Subscriptions)))
		if p.Waits() {
			fmt.Fprint(ew, "; the plan waits for approval")
		}
		fmt.Fprintln(ew)
	}
	for _, f := range p.InFlight {
		fmt.Fprintf(ew, "  in flight: %s\n", f.Text)
	}
	for i, s := range p.Steps {
		fmt.Fprintf(ew, "%2d. %s", i+1, s.Action)
		if s.Action == ActionUpgrade {
			fmt.Fprintf(ew, " %s -> %s", safetext.Name(s.Replaces), safetext.Name(s.Bundle))
		} else {
			fmt.Fprintf(ew, " %s", safetext.Name(s.Bundle))
		}
		if s.Dependency {
			fmt.Fprint(ew, " (dependency: OLM creates a subscription)")
		}
		fmt.Fprintln(ew)
		fmt.Fprintf(ew, "    package %s %s, channel %s, catalog %s\n", safetext.Name(s.Package), safetext.Name(s.Version), safetext.Name(s.Channel), safetext.Name(s.Catalog.String()))
		fmt.Fprintf(ew, "    reason: %s\n", s.Reason)
		if a := s.Approval.String(); a != "" {
			fmt.Fprintf(ew, "    approval: %s\n", a)
		}
		for _, warning := range s.Warnings {
			fmt.Fprintf(ew, "    warning: %s\n", warning)
		}
		writePredictionLines(ew, "    ", s.Predictions)
	}
	for _, u := range p.Unchanged {
		fmt.Fprintf(ew, "  = %s", safetext.Name(u.CSV))
		if u.Version != "" {
			fmt.Fprintf(ew, " %s", safetext.Name(u.Version))
		}
		if u.Package != "" {
			fmt.Fprintf(ew, " (package %s", safetext.Name(u.Package))
			if u.Subscription != "" {
				fmt.Fprintf(ew, ", subscription %s", safetext.Name(u.Subscription))
			}
			fmt.Fprint(ew, ")")
		} else if u.Subscription != "" {
			fmt.Fprintf(ew, " (subscription %s)", safetext.Name(u.Subscription))
		}
		fmt.Fprintln(ew, " unchanged")
		writePredictionLines(ew, "      ", u.Predictions)
		for _, d := range u.Deprecations {
			fmt.Fprintf(ew, "    deprecated: %s\n", d)
		}
	}
	p.writeHeldBack(ew)
	return ew.Err
}

// failingCount counts the steps and unchanged CSVs predicted to fail.
func (p *Plan) failingCount() int {
	n := 0
	for _, s := range p.Steps {
		if predict.Failing(s.Predictions) {
			n++
		}
	}
	for _, u := range p.Unchanged {
		if predict.Failing(u.Predictions) {
			n++
		}
	}
	return n
}

// writePredictionLines writes one line per prediction: "will fail:
// Reason: message" or "warning: Reason: message", each after indent.
func writePredictionLines(w io.Writer, indent string, ps []predict.Prediction) {
	for _, p := range ps {
		what := "warning"
		if p.Severity == predict.SeverityFailure {
			what = "will fail"
		}
		fmt.Fprintf(w, "%s%s: %s\n", indent, what, p)
	}
}

// writeHeldBack writes, after the unchanged list, why what is held back
// stays below its first preference, and the change that lets it move.
func (p *Plan) writeHeldBack(w io.Writer) {
	var hs []*HeldBack
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

// WriteFixes writes, for a plan OLM is predicted to fail (Failing), its
// confirmed fixes (Fixes), or that none was found among the changes
// tried; nothing for a plan that is not failing.
func (p *Plan) WriteFixes(w io.Writer) error {
	if !p.Failing() {
		return nil
	}
	ew := &textio.ErrWriter{W: w}
	if len(p.Fixes) == 0 {
		fmt.Fprintln(ew, "no fix found among the changes tried (channel, startingCSV, OperatorGroup, moving a subscription)")
		return ew.Err
	}
	fmt.Fprintln(ew, "fixes (each re-solved and confirmed):")
	for i, s := range p.Fixes {
		fmt.Fprintf(ew, "  %d. %s\n", i+1, s)
	}
	return ew.Err
}
