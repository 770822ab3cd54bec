package resolvertest

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolver/predict"
)

// FormatResult renders the result of Resolver.Resolve as scenario text:
// the plan (Plan.String), or for a *resolver.ConflictError its namespace
// and one fact per line, or for any other error "error: " and its message.
// The text always ends with a newline.
func FormatResult(plan *resolver.Plan, err error) string {
	if err != nil {
		return FormatError(err)
	}
	if plan == nil {
		return "no plan\n"
	}
	return FormatPlan(plan)
}

// FormatAll renders the results of Resolver.ResolveAll: per namespace, a
// line "== namespace NAME ==", then its plan (with the fixes of predicted
// failures, "fix: change: summary") or its conflict, as FormatResult.
func FormatAll(results []Result) string {
	var b strings.Builder
	for _, r := range results {
		fmt.Fprintf(&b, "== namespace %s ==\n", r.Namespace)
		b.WriteString(FormatResult(r.Plan, r.Err))
		b.WriteString(formatFixes(r.Fixes))
	}
	return b.String()
}

// formatFixes renders confirmed fixes of predicted failures, one line each.
func formatFixes(fixes []resolver.Suggestion) string {
	var b strings.Builder
	for _, f := range fixes {
		fmt.Fprintf(&b, "fix: %s\n", f)
	}
	return b.String()
}

// FormatError renders an error as FormatResult does.
func FormatError(err error) string {
	var ce *resolver.ConflictError
	if errors.As(err, &ce) {
		var b strings.Builder
		fmt.Fprintf(&b, "conflict in namespace %s:\n", ce.Namespace)
		for _, x := range ce.Excluded {
			fmt.Fprintf(&b, "excluded, invalid: %s\n", x)
		}
		for i := range ce.Facts {
			fmt.Fprintf(&b, "- %s\n", ce.Facts[i].String())
		}
		return b.String()
	}
	return "error: " + strings.TrimSuffix(err.Error(), "\n") + "\n"
}

// FormatRollout renders the result of Resolver.Rollout as scenario text:
// each round's plan under a "== round N ==" line ("== round N (approved)
// ==" when it was approved, "== round N: waits for approval ==" for the
// round a rollout stopped at); then either the error
// that stopped the rollout (as FormatError), or a line saying that the
// namespace settled (or waits for approval, or did not settle within the
// round limit) followed by
// the final state of the namespace: its installed CSVs and its
// subscriptions' installed CSVs, by name. initial is the state the rollout
// started from, shown when there are no rounds.
func FormatRollout(ro *resolver.Rollout) string {
	namespace, rounds, err := ro.Namespace, ro.Rounds, ro.Err()
	var b strings.Builder
	for i, r := range rounds {
		switch {
		case r.Waiting:
			fmt.Fprintf(&b, "== round %d: waits for approval ==\n", i+1)
		case r.Approved:
			fmt.Fprintf(&b, "== round %d (approved) ==\n", i+1)
		default:
			fmt.Fprintf(&b, "== round %d ==\n", i+1)
		}
		b.WriteString(FormatResult(r.Plan, nil))
	}
	final := ro.State()
	switch {
	case err == nil && len(rounds) > 0 && rounds[len(rounds)-1].Waiting:
		fmt.Fprintf(&b, "== waiting for approval after %d round(s) ==\n", len(rounds)-1)
	case err != nil && errors.Is(err, resolver.ErrRoundLimit):
		fmt.Fprintf(&b, "== not settled after %d round(s) ==\n", len(rounds))
	case err != nil:
		fmt.Fprintf(&b, "== round %d ==\n", len(rounds)+1)
		b.WriteString(FormatError(err))
		return b.String()
	default:
		fmt.Fprintf(&b, "== settled after %d round(s) ==\n", len(rounds))
	}
	b.WriteString(FormatState(namespace, final))
	return b.String()
}

// FormatState renders the operators of one namespace of a cluster state:
// a line "installed <csv> <version>" per installed CSV, then a line
// "subscription <name>: <installedCSV>" per subscription ("subscription
// <name> (Manual): ..." when its installPlanApproval is Manual), each sorted
// by name.
func FormatState(namespace string, s *cluster.State) string {
	if s == nil {
		return ""
	}
	var b strings.Builder
	for _, c := range inNamespace(s.CSVs, namespace, func(c cluster.CSV) (string, string) { return c.Namespace, c.Name }) {
		fmt.Fprintf(&b, "installed %s %s\n", c.Name, c.VersionText)
	}
	subs := inNamespace(s.Subscriptions, namespace, func(x cluster.Subscription) (string, string) { return x.Namespace, x.Name })
	for _, x := range subs {
		installed := x.InstalledCSV
		if installed == "" {
			installed = "(nothing installed)"
		}
		manual := ""
		if x.Manual() {
			manual = " (Manual)"
		}
		fmt.Fprintf(&b, "subscription %s%s: %s\n", x.Name, manual, installed)
	}
	return b.String()
}

// inNamespace returns the objects of xs in namespace, sorted by name; key
// gives an object's namespace and name.
func inNamespace[T any](xs []T, namespace string, key func(T) (namespace, name string)) []T {
	var out []T
	for _, x := range xs {
		if ns, _ := key(x); ns == namespace {
			out = append(out, x)
		}
	}
	slices.SortFunc(out, func(x, y T) int {
		_, a := key(x)
		_, b := key(y)
		return cmp.Compare(a, b)
	})
	return out
}

// FormatApplication renders the result of Resolver.ResolveFor: one block per
// API of the application (what serves it, why, the alternatives and near
// misses), then the plan or the error as FormatResult renders them. With no
// application (an input error) it renders the error alone.
func FormatApplication(app *resolver.Application, err error) string {
	if app == nil {
		return FormatResult(nil, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "application in namespace %s: %d API(s), %d subscription(s) to create\n", app.Namespace, len(app.Kinds), len(app.Subscriptions))
	for _, k := range app.Kinds {
		b.WriteString(k.String())
	}
	for _, s := range app.Subscriptions {
		fmt.Fprintf(&b, "create subscription %s: package %s, channel %s, catalog %s/%s\n", s.Name, s.Package, s.Channel, s.SourceNamespace, s.Source)
	}
	var unserved *resolver.UnservedError
	if errors.As(err, &unserved) {
		fmt.Fprintf(&b, "error: %v\n", err)
		return b.String()
	}
	b.WriteString(FormatResult(app.Plan, err))
	return b.String()
}

// FormatStops renders where a settled rollout stops short of the channel
// heads (Resolution.Stops): a line "stop: <Stop.String()>" per subscription,
// in order, and under it the confirmed change that lets it move, if any.
func FormatStops(stops []resolver.Stop) string {
	var b strings.Builder
	for _, s := range stops {
		fmt.Fprintf(&b, "stop: %s\n", s)
		if h := s.HeldBack; h != nil && h.Change != nil {
			fmt.Fprintf(&b, "   it moves with: %s\n", h.Change)
		}
	}
	return b.String()
}

// FormatPlan renders a plan in the scenario format: a line per step, then
// the unchanged operators, with their predictions, deprecations and
// held-back reasons, then the notes.
func FormatPlan(p *resolver.Plan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "namespace %s: %d step(s)\n", p.Namespace, len(p.Steps))
	if p.Approval.Mode == cluster.ApprovalManual {
		fmt.Fprintf(&b, "approval Manual (subscription %s)", strings.Join(p.Approval.Subscriptions, ", "))
		if p.Waits() {
			b.WriteString(": waits for approval")
		}
		b.WriteString("\n")
	}
	for _, e := range p.InFlight {
		fmt.Fprintf(&b, "in flight: %s\n", e.Text)
	}
	for _, x := range p.Excluded {
		fmt.Fprintf(&b, "excluded, invalid: %s\n", x)
	}
	for i, s := range p.Steps {
		fmt.Fprintf(&b, "%d. %s %s %s (package %s, channel %s, catalog %s)", i+1, s.Action, s.Bundle, s.Version, s.Package, s.Channel, s.Catalog)
		if s.Replaces != "" {
			fmt.Fprintf(&b, " replacing %s", s.Replaces)
		}
		fmt.Fprintf(&b, ": %s", s.Reason)
		if s.Dependency {
			b.WriteString("; creates a subscription")
		}
		if a := s.Approval.String(); a != "" {
			b.WriteString("; approval " + a)
		}
		b.WriteString("\n")
		for _, w := range s.Warnings {
			fmt.Fprintf(&b, "   warning: %s\n", w)
		}
		writePredictions(&b, "   ", s.Predictions)
		writeHeldBack(&b, s.HeldBack)
	}
	for _, u := range p.Unchanged {
		fmt.Fprintf(&b, "unchanged %s", u.CSV)
		if u.Version != "" {
			fmt.Fprintf(&b, " %s", u.Version)
		}
		if u.Package != "" {
			fmt.Fprintf(&b, " (package %s)", u.Package)
		}
		if u.Subscription != "" {
			fmt.Fprintf(&b, ": subscription %s", u.Subscription)
		}
		b.WriteString("\n")
		writePredictions(&b, "   ", u.Predictions)
		for _, d := range u.Deprecations {
			fmt.Fprintf(&b, "   deprecated: %s\n", d)
		}
		writeHeldBack(&b, u.HeldBack)
	}
	for _, n := range p.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	return b.String()
}

// writePredictions writes one line per prediction: "will fail: Reason:
// message" or "warning: Reason: message", each after indent.
func writePredictions(b *strings.Builder, indent string, ps []predict.Prediction) {
	for _, p := range ps {
		b.WriteString(indent)
		if p.Severity == predict.SeverityFailure {
			b.WriteString("will fail: ")
		} else {
			b.WriteString("warning: ")
		}
		b.WriteString(p.String())
		b.WriteString("\n")
	}
}

// writeHeldBack writes a held-back reason under a plan line, indented.
func writeHeldBack(b *strings.Builder, h *resolver.HeldBack) {
	if h == nil {
		return
	}
	fmt.Fprintf(b, "   held back: %s\n", h.Reason)
	if h.Change != nil {
		fmt.Fprintf(b, "   it moves with: %s\n", h.Change)
	}
}
