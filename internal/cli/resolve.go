package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolver/predict"
)

// inputsHelp describes the inputs resolve and rollout share.
const inputsHelp = `Catalogs are given with --catalog [NAME=]PATH, where PATH is an FBC file
(.json, .yaml, .yml, optionally .gz), a folder of them, or "-" for standard
input (then NAME is required); NAME defaults to the file or folder name
without its extensions
(community-operators-prod.v4.20-index.json.gz → community-operators-prod.v4.20-index).
A CatalogSource of that name in the manifests gives the catalog its namespace
and priority; without one, the namespace is the spec.sourceNamespace the
subscriptions naming the catalog agree on, else the global namespace (olm),
and the priority is 0.

The manifests (-f) are any mix of Subscriptions, ClusterServiceVersions,
CatalogSources, OperatorGroups and InstallPlans, as
"kubectl get csv,sub,catsrc,og,ip -o yaml" (or -o json) prints them. The namespace (-n) defaults to the one the
subscriptions share. As OLM, a namespace with subscriptions resolves only
with exactly one OperatorGroup (none or several: no plan, exit 1); when the
manifests hold no OperatorGroup at all, one plain OperatorGroup is assumed
and a note says so. An OperatorGroup annotated
olm.operatorframework.io/exclude-global-namespace-resolution: "true" leaves
the global namespace's catalogs out.

Approval and upgrades in flight are read as OLM v0.28 reads them: one
subscription with installPlanApproval Manual makes the namespace's
InstallPlan Manual, so every step waits for that approval (the plan says so
and names the subscription); an InstallPlan not finished, a subscription
whose currentCSV exists, a CSV another CSV replaces are listed as "in
flight" and resolution goes on from them; an upgrade that failed stops the
namespace (no plan, exit 1) unless the OperatorGroup's upgradeStrategy is
TechPreviewUnsafeFailForward; a subscription whose installedCSV is not
among the CSVs given is incomplete input (exit 2).`

func newResolveCmd(e *env) *cobra.Command {
	f := &resolveFlags{}
	cmd := &cobra.Command{
		Use:   "resolve --catalog [NAME=]PATH... -f MANIFESTS...",
		Short: "Compute the install/upgrade plan of a namespace, or explain why there is none",
		Long: `Resolve computes what OLM would install and upgrade in a namespace, from
catalogs and the cluster state: an ordered plan, every bundle after the
bundles it depends on; or, when no plan exists, an explanation — the verdict,
the minimal set of facts that make resolution impossible as a derivation, and
suggested changes that were re-solved and give a plan (--full prints the
whole derivation).

` + inputsHelp + `

JSON output (-o json; -o yaml is the same) is a stable contract, the
resolver.Plan type (go doc ./resolver Plan): "namespace", "steps",
"unchanged", "approval", "inFlight", "notes", "excluded" and "fixes", each
step and unchanged operator with its "predictions" (and "approval",
"heldBack", "deprecations" where they apply); with no plan,
{"namespace": "...", "error": {"message", "verdict", "facts", "derivation",
"suggestions"}}. The README ("sextant resolve and sextant rollout") shows
every field.

-o installplan writes, as Kubernetes YAML (installplan-json: JSON), what OLM
would create for the plan: the InstallPlan (generateName install-,
spec.approval, spec.approved, spec.clusterServiceVersionNames, status.phase
and status.bundleLookups with each bundle's image) and the Subscription of
each dependency, named <package>-<channel>-<catalog>-<catalog namespace>.

--why NAME (a package, a bundle or installed CSV, or a subscription) prints,
instead of the plan, why it is there at its version, channel and catalog —
what put it there, the rules that chose them, the better-looking candidates
passed over — or why it is not (--full: every alternative; -o json: the
resolver.Why value).

` + forHelp + `

` + v1Help + `

Exit status: 0 with a plan (one that waits for approval too), 1 with no
plan, 2 for bad input or usage.`,
		Example: `  sextant resolve --catalog testdata/catalogs/community-operators-prod.v4.20-index.json.gz -f testdata/examples/cluster.yaml
  kubectl get csv,sub,catsrc -n operators -o yaml | sextant resolve --catalog index=catalog/ -f - -o json`,
		Args: cobra.NoArgs,
	}
	addResolveFlags(cmd, f, "installplan", "installplan-json")
	var why string
	addWhyFlag(cmd, &why)
	cmd.Flags().StringArrayVar(&f.forFiles, "for", nil, `an application's manifests (custom resources…): resolve the operators that serve their kinds (repeatable; "-" reads standard input)`)
	f.olm = addChoiceFlag(cmd, "olm", "", "with --for, the OLM whose terms the answer is in: v0 (subscriptions) or v1 (ClusterExtensions); manifests holding ClusterExtensions resolve in v1 mode by themselves", "v0", "v1")
	cmd.Flags().BoolVarP(&f.all, "all-namespaces", "A", false,
		"resolve every namespace of the manifests, one after another, each with its own OperatorGroup (one block per namespace; -o json gives {\"namespaces\": [...]})")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		installPlan := strings.HasPrefix(f.output.value, "installplan")
		if installPlan && (len(f.forFiles) > 0 || why != "" || f.all) {
			return usageErrorf("-o %s: not with --for, --why or -A", f.output.value)
		}
		if f.olm.value == "v1" && len(f.forFiles) == 0 {
			return usageErrorf("--olm v1 goes with --for: manifests holding ClusterExtensions resolve in v1 mode by themselves")
		}
		if len(f.forFiles) > 0 && f.olm.value == "v1" {
			return e.runResolveForV1(cmd, f)
		}
		if len(f.forFiles) > 0 {
			return e.runResolveFor(cmd, f)
		}
		in, err := e.loadResolveInput(f)
		if err != nil {
			return err
		}
		ctx := cmd.Context()
		if in.res == nil { // only ClusterExtensions: OLM v1
			if f.all || installPlan {
				return usageErrorf("-A and -o installplan are for OLM v0 Subscriptions; the manifests hold only ClusterExtensions")
			}
			res, err := in.v1.resolve(ctx, why)
			if err != nil {
				return err
			}
			return e.writeV1(res, f, why)
		}
		if in.v1 != nil && (why != "" || f.all) {
			e.notef("--why and -A answer for OLM v0 subscriptions: the ClusterExtensions of the manifests are not resolved")
			in.v1 = nil
		}
		if why != "" {
			return in.runWhy(ctx, e, f, why)
		}
		if f.all {
			return in.resolveAll(ctx, e, f)
		}
		plan, err := in.res.Resolve(ctx, in.ns, in.state)
		e.noteExcluded(err, plan)
		if installPlan && err == nil {
			return in.writeInstallPlan(e.stdout, f.output.value, plan)
		}
		a, err := in.answer(ctx, in.ns, plan, err, f)
		if err != nil {
			return err
		}
		if in.v1 != nil && !installPlan {
			if err := in.addV1(ctx, a, f); err != nil {
				return err
			}
		}
		if f.output.value != "text" && f.output.value != "installplan" {
			err = writeEncoded(e.stdout, f.output.value, a.json)
		} else {
			_, err = io.WriteString(e.stdout, a.text)
		}
		if err != nil {
			return err
		}
		if a.no {
			return errNo
		}
		return nil
	}
	return cmd
}

// nsAnswer is the answer for one namespace, ready to print.
type nsAnswer struct {
	json any    // a *resolver.Plan, or a conflictJSON
	text string // the plan or the explanation, with notes and fixes
	// no reports an answer "no": no plan, or a predicted failure.
	no bool
}

// answer turns the outcome of resolving namespace ns into its answer: a
// conflict is explained with suggestions; a plan gets its held-back
// reasons, and the fixes of its predicted failures.
func (in *resolveInput) answer(ctx context.Context, ns string, plan *resolver.Plan, err error, f *resolveFlags) (*nsAnswer, error) {
	var conflict *resolver.ConflictError
	if errors.As(err, &conflict) {
		ex, err := in.explain(ctx, ns, in.state, conflict, f.maxSuggestions)
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		if err := writeExplanation(&b, ex, f.full); err != nil {
			return nil, err
		}
		if err := in.writeNotes(&b, ns, ex); err != nil {
			return nil, err
		}
		for _, f := range conflict.InFlight {
			fmt.Fprintf(&b, "in flight: %s\n", f.Text)
		}
		ej := newErrorJSON(ex)
		ej.InFlight = conflict.InFlight
		return &nsAnswer{json: conflictJSON{Namespace: ns, Error: ej}, text: b.String(), no: true}, nil
	}
	var stuck *resolver.StuckError
	if errors.As(err, &stuck) {
		// An upgrade failed and OLM does not go on: the answer is no.
		return &nsAnswer{json: conflictJSON{Namespace: ns, Error: &errorJSON{Message: stuck.Error()}}, text: "no plan: " + stuck.Error() + "\n", no: true}, nil
	}
	if og := (*cluster.OperatorGroupError)(nil); errors.As(err, &og) {
		// OLM's catalog operator does not resolve the namespace: no plan.
		return &nsAnswer{json: conflictJSON{Namespace: ns, Error: &errorJSON{Message: og.Error()}}, text: "no plan: " + og.Error() + "\n", no: true}, nil
	}
	if err != nil {
		return nil, in.resolveError(err)
	}
	if err := in.explainHeldBack(ctx, ns, in.state, plan, f.maxSuggestions); err != nil {
		return nil, err
	}
	var fixes []resolver.Suggestion
	if plan.Failing() && f.maxSuggestions > 0 {
		fixes, err = in.res.Fixes(ctx, ns, in.state, plan, resolver.ExplainOptions{MaxSuggestions: f.maxSuggestions, Budget: -1})
		if err != nil {
			return nil, err
		}
	}
	var b strings.Builder
	writePlanText(&b, plan, "namespace "+plan.Namespace)
	writeFixesText(&b, plan, fixes)
	return &nsAnswer{json: plan, text: b.String(), no: plan.Failing()}, nil
}

// resolveAll resolves every namespace of the manifests (-A) and prints one
// block per namespace, or {"namespaces": [...]}; the answer is no when any
// namespace has no plan or a predicted failure.
func (in *resolveInput) resolveAll(ctx context.Context, e *env, f *resolveFlags) error {
	results, err := in.res.ResolveAll(ctx, in.state)
	if err != nil {
		return err
	}
	if len(results) == 0 {
		return usageErrorf("no namespace in the manifests: no subscription, installed CSV or OperatorGroup")
	}
	no := false
	var texts []string
	out := allJSON{Namespaces: []any{}}
	var plans []*resolver.Plan
	var conflicts []error
	for _, r := range results {
		plans, conflicts = append(plans, r.Plan), append(conflicts, r.Err)
	}
	e.noteExcluded(errors.Join(conflicts...), plans...)
	for _, r := range results {
		a, err := in.answer(ctx, r.Namespace, r.Plan, r.Err, f)
		if err != nil {
			return err
		}
		no = no || a.no
		texts = append(texts, a.text)
		out.Namespaces = append(out.Namespaces, a.json)
	}
	if f.output.value != "text" {
		err = writeEncoded(e.stdout, f.output.value, out)
	} else {
		_, err = io.WriteString(e.stdout, strings.Join(texts, "\n"))
	}
	if err != nil {
		return err
	}
	if no {
		return errNo
	}
	return nil
}

// allJSON is resolve -A's JSON output: each namespace's plan or
// explanation, in namespace order.
type allJSON struct {
	Namespaces []any `json:"namespaces"`
}

// writeFixesText writes the notes of a plan's predictions, then the fixes
// of its predicted failures. The note that the OperatorGroup is assumed is
// left out: inferOperatorGroups says it once, on standard error.
func writeFixesText(w io.Writer, p *resolver.Plan, fixes []resolver.Suggestion) {
	for _, n := range p.Notes {
		if n == predict.NoteAssumedOperatorGroup {
			continue
		}
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if !p.Failing() {
		return
	}
	if len(fixes) == 0 {
		fmt.Fprintln(w, "no fix found among the changes tried (channel, startingCSV, OperatorGroup, moving a subscription)")
		return
	}
	fmt.Fprintln(w, "fixes (each re-solved and confirmed):")
	for i, s := range fixes {
		fmt.Fprintf(w, "  %d. %s\n", i+1, s)
	}
}

// explain explains a conflict met on state, with suggestions. Suggestions
// are not bounded in time, only in number, so that the output depends on
// the input alone.
func (in *resolveInput) explain(ctx context.Context, ns string, state *cluster.State, conflict *resolver.ConflictError, maxSuggestions int) (*resolver.Explanation, error) {
	if maxSuggestions <= 0 {
		maxSuggestions = -1
	}
	ex, err := in.res.Explain(ctx, ns, state, conflict, resolver.ExplainOptions{MaxSuggestions: maxSuggestions, Budget: -1})
	if err != nil {
		return nil, err
	}
	return ex, nil
}

// writeNotes adds what the command line knows and the explanation cannot:
// a subscription's catalog that was given but is not visible from the
// namespace, which usually means that --global-namespace is wrong.
func (in *resolveInput) writeNotes(w io.Writer, ns string, ex *resolver.Explanation) error {
	seen := map[resolver.CatalogKey]bool{}
	for _, f := range ex.Facts {
		k := f.Catalog
		if f.Kind != resolver.FactNoCatalog || seen[k] || !slices.Contains(in.catalogs, k) || k.Namespace == ns || k.Namespace == in.global {
			continue
		}
		seen[k] = true
		if _, err := fmt.Fprintf(w, "note: catalog %s is given, but its namespace is neither %s nor the global namespace %s; if %s is the cluster's global catalog namespace, add --global-namespace %s\n",
			k, ns, in.global, k.Namespace, k.Namespace); err != nil {
			return err
		}
	}
	return nil
}

// writeExplanation writes an explanation as text: the verdict, the
// derivation (all of it with full) and the suggestions.
func writeExplanation(w io.Writer, ex *resolver.Explanation, full bool) error {
	s := ex.String()
	if full {
		s = ex.Full()
	}
	_, err := io.WriteString(w, s)
	return err
}

// writePlanText writes a plan for a terminal or a CI log: a title line
// that starts with title (e.g. "namespace operators"), one block per step
// (what, where from, why, warnings), then the operators that stay as they
// are.
func writePlanText(w io.Writer, p *resolver.Plan, title string) {
	if len(p.Steps) == 0 {
		title += ": nothing to do"
	} else {
		title += ": " + plural(len(p.Steps), "step")
	}
	if len(p.Unchanged) > 0 {
		title += fmt.Sprintf(", %d unchanged", len(p.Unchanged))
	}
	if n := failingCount(p); n > 0 {
		title += fmt.Sprintf(", %d will fail", n)
	}
	fmt.Fprintln(w, title)
	if p.Approval.Mode == cluster.ApprovalManual {
		fmt.Fprintf(w, "  approval: Manual, because subscription %s %s Manual", strings.Join(p.Approval.Subscriptions, ", "), isAre(len(p.Approval.Subscriptions)))
		if p.Waits() {
			fmt.Fprint(w, "; the plan waits for approval")
		}
		fmt.Fprintln(w)
	}
	for _, f := range p.InFlight {
		fmt.Fprintf(w, "  in flight: %s\n", f.Text)
	}
	for i, s := range p.Steps {
		fmt.Fprintf(w, "%2d. %s", i+1, s.Action)
		if s.Action == resolver.ActionUpgrade {
			fmt.Fprintf(w, " %s -> %s", textName(s.Replaces), textName(s.Bundle))
		} else {
			fmt.Fprintf(w, " %s", textName(s.Bundle))
		}
		if s.Dependency {
			fmt.Fprint(w, " (dependency: OLM creates a subscription)")
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "    package %s %s, channel %s, catalog %s\n", textName(s.Package), textName(s.Version), textName(s.Channel), textName(s.Catalog.String()))
		fmt.Fprintf(w, "    reason: %s\n", s.Reason)
		if a := s.Approval.String(); a != "" {
			fmt.Fprintf(w, "    approval: %s\n", a)
		}
		for _, warning := range s.Warnings {
			fmt.Fprintf(w, "    warning: %s\n", warning)
		}
		writePredictionsText(w, "    ", s.Predictions)
	}
	for _, u := range p.Unchanged {
		fmt.Fprintf(w, "  = %s", textName(u.CSV))
		if u.Version != "" {
			fmt.Fprintf(w, " %s", textName(u.Version))
		}
		if u.Package != "" {
			fmt.Fprintf(w, " (package %s", textName(u.Package))
			if u.Subscription != "" {
				fmt.Fprintf(w, ", subscription %s", textName(u.Subscription))
			}
			fmt.Fprint(w, ")")
		} else if u.Subscription != "" {
			fmt.Fprintf(w, " (subscription %s)", textName(u.Subscription))
		}
		fmt.Fprintln(w, " unchanged")
		writePredictionsText(w, "      ", u.Predictions)
		for _, d := range u.Deprecations {
			fmt.Fprintf(w, "    deprecated: %s\n", d)
		}
	}
	writeHeldBackText(w, p)
}

// failingCount counts the steps and unchanged CSVs predicted to fail.
func failingCount(p *resolver.Plan) int {
	n := 0
	for _, s := range p.Steps {
		if slices.ContainsFunc(s.Predictions, isFailure) {
			n++
		}
	}
	for _, u := range p.Unchanged {
		if slices.ContainsFunc(u.Predictions, isFailure) {
			n++
		}
	}
	return n
}

func isFailure(p predict.Prediction) bool { return p.Severity == predict.SeverityFailure }

// writePredictionsText writes a step's predictions under it: "will fail:
// Reason: message" or "warning: Reason: message".
func writePredictionsText(w io.Writer, indent string, ps []predict.Prediction) {
	for _, p := range ps {
		what := "warning"
		if isFailure(p) {
			what = "will fail"
		}
		fmt.Fprintf(w, "%s%s: %s\n", indent, what, p)
	}
}

// errorJSON is the "error" member of the JSON output when there is no
// plan: Message is the verdict line; a conflict adds the library's
// Explanation (verdict, facts, derivation, suggestions), as encoding/json
// writes it.
type errorJSON struct {
	Message string `json:"message"`
	*resolver.Explanation
	// InFlight is what the resolution found under way (a conflict only).
	InFlight []resolver.InFlight `json:"inFlight,omitempty"`
}

func newErrorJSON(ex *resolver.Explanation) *errorJSON {
	return &errorJSON{Message: ex.Verdict.Text, Explanation: ex}
}

// conflictJSON is resolve's JSON output when there is no plan.
type conflictJSON struct {
	Namespace string     `json:"namespace"`
	Error     *errorJSON `json:"error"`
}

// writeOperatorGroupAnswer prints the answer for a namespace OLM does not
// resolve because it has not exactly one OperatorGroup: no plan, exit 1.
// js is the JSON form.
func (e *env) writeOperatorGroupAnswer(f *resolveFlags, js any, og *cluster.OperatorGroupError) error {
	if f.output.value != "text" {
		if err := writeEncoded(e.stdout, f.output.value, js); err != nil {
			return err
		}
		return errNo
	}
	if _, err := fmt.Fprintf(e.stdout, "no plan: %s\n", og); err != nil {
		return err
	}
	return errNo
}

// noteExcluded notes, on standard error and each once, the invalid
// packages that resolutions left out (--allow-invalid): those of the plans
// and of err's conflict.
func (e *env) noteExcluded(err error, plans ...*resolver.Plan) {
	var excluded []resolver.InvalidPackage
	for _, p := range plans {
		if p != nil {
			excluded = append(excluded, p.Excluded...)
		}
	}
	collectConflicts(err, func(c *resolver.ConflictError) { excluded = append(excluded, c.Excluded...) })
	seen := map[string]bool{}
	for _, x := range excluded {
		if s := x.String(); !seen[s] {
			seen[s] = true
			e.notef("left out (--allow-invalid) invalid %s", s)
		}
	}
}

// collectConflicts calls f with every *resolver.ConflictError of err, which
// may join several (one per namespace).
func collectConflicts(err error, f func(*resolver.ConflictError)) {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			collectConflicts(e, f)
		}
		return
	}
	var c *resolver.ConflictError
	if errors.As(err, &c) {
		f(c)
	}
}
