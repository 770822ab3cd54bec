package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/resolver"
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

The manifests (-f) are any mix of Subscriptions, ClusterServiceVersions and
CatalogSources, as "kubectl get csv,sub,catsrc -o yaml" (or -o json) prints
them. The namespace (-n) defaults to the one the subscriptions share.`

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

JSON output (-o json) is a stable contract:

  {"namespace": "...",
   "steps": [{"action": "install"|"upgrade", "package": "...", "bundle": "...",
     "version": "...", "channel": "...", "catalog": "NAMESPACE/NAME",
     "replaces": "...", "reason": "...", "dependency": true|false,
     "warnings": ["..."]}],
   "unchanged": [{"package": "...", "bundle": "...", "version": "...",
     "subscription": "..."}]}

and with no plan:

  {"namespace": "...", "error": {"message": "...", "verdict": {...},
    "facts": [...], "derivation": [...], "suggestions": [...]}}

` + forHelp + `

Exit status: 0 with a plan, 1 with no plan, 2 for bad input or usage.`,
		Example: `  sextant resolve --catalog testdata/catalogs/community-operators-prod.v4.20-index.json.gz -f testdata/examples/cluster.yaml
  kubectl get csv,sub,catsrc -n operators -o yaml | sextant resolve --catalog index=catalog/ -f - -o json`,
		Args: cobra.NoArgs,
	}
	addResolveFlags(cmd, f)
	var why string
	addWhyFlag(cmd, &why)
	cmd.Flags().StringArrayVar(&f.forFiles, "for", nil, `an application's manifests (custom resources…): resolve the operators that serve their kinds (repeatable; "-" reads standard input)`)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if len(f.forFiles) > 0 {
			return e.runResolveFor(cmd, f)
		}
		in, err := e.loadResolveInput(f)
		if err != nil {
			return err
		}
		ctx := cmd.Context()
		if why != "" {
			return in.runWhy(ctx, e, f, why)
		}
		plan, err := in.res.Resolve(ctx, in.ns, in.state)
		var conflict *resolver.ConflictError
		if errors.As(err, &conflict) {
			ex, err := in.explain(ctx, in.state, conflict, f.maxSuggestions)
			if err != nil {
				return err
			}
			if f.output.value != "text" {
				if err := writeEncoded(e.stdout, f.output.value, conflictJSON{Namespace: in.ns, Error: newErrorJSON(ex)}); err != nil {
					return err
				}
				return errNo
			}
			if err := writeExplanation(e.stdout, ex, f.full); err != nil {
				return err
			}
			if err := in.writeNotes(e.stdout, ex); err != nil {
				return err
			}
			return errNo
		}
		if err != nil {
			return in.resolveError(err)
		}
		if err := in.explainHeldBack(ctx, in.state, plan, f.maxSuggestions); err != nil {
			return err
		}
		if f.output.value != "text" {
			return writeEncoded(e.stdout, f.output.value, newPlanJSON(plan))
		}
		ew := &errWriter{w: e.stdout}
		writePlanText(ew, plan, "namespace "+plan.Namespace)
		return ew.err
	}
	return cmd
}

// explain explains a conflict met on state, with suggestions. Suggestions
// are not bounded in time, only in number, so that the output depends on
// the input alone.
func (in *resolveInput) explain(ctx context.Context, state *cluster.State, conflict *resolver.ConflictError, maxSuggestions int) (*resolver.Explanation, error) {
	if maxSuggestions <= 0 {
		maxSuggestions = -1
	}
	ex, err := in.res.Explain(ctx, in.ns, state, conflict, resolver.ExplainOptions{MaxSuggestions: maxSuggestions, Budget: -1})
	if err != nil {
		return nil, err
	}
	return ex, nil
}

// writeNotes adds what the command line knows and the explanation cannot:
// a subscription's catalog that was given but is not visible from the
// namespace, which usually means that --global-namespace is wrong.
func (in *resolveInput) writeNotes(w io.Writer, ex *resolver.Explanation) error {
	seen := map[resolver.CatalogKey]bool{}
	for _, f := range ex.Facts {
		k := f.Catalog
		if f.Kind != resolver.FactNoCatalog || seen[k] || !slices.Contains(in.catalogs, k) || k.Namespace == in.ns || k.Namespace == in.global {
			continue
		}
		seen[k] = true
		if _, err := fmt.Fprintf(w, "note: catalog %s is given, but its namespace is neither %s nor the global namespace %s; if %s is the cluster's global catalog namespace, add --global-namespace %s\n",
			k, in.ns, in.global, k.Namespace, k.Namespace); err != nil {
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
	fmt.Fprintln(w, title)
	for i, s := range p.Steps {
		fmt.Fprintf(w, "%2d. %s", i+1, s.Action)
		if s.Action == resolver.ActionUpgrade {
			fmt.Fprintf(w, " %s -> %s", s.Replaces, s.Bundle)
		} else {
			fmt.Fprintf(w, " %s", s.Bundle)
		}
		if s.Dependency {
			fmt.Fprint(w, " (dependency: OLM creates a subscription)")
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "    package %s %s, channel %s, catalog %s\n", s.Package, s.Version, s.Channel, s.Catalog)
		fmt.Fprintf(w, "    reason: %s\n", s.Reason)
		for _, warning := range s.Warnings {
			fmt.Fprintf(w, "    warning: %s\n", warning)
		}
	}
	for _, u := range p.Unchanged {
		fmt.Fprintf(w, "  = %s", u.CSV)
		if u.Version != "" {
			fmt.Fprintf(w, " %s", u.Version)
		}
		if u.Package != "" {
			fmt.Fprintf(w, " (package %s", u.Package)
			if u.Subscription != "" {
				fmt.Fprintf(w, ", subscription %s", u.Subscription)
			}
			fmt.Fprint(w, ")")
		} else if u.Subscription != "" {
			fmt.Fprintf(w, " (subscription %s)", u.Subscription)
		}
		fmt.Fprintln(w, " unchanged")
	}
	writeHeldBackText(w, p)
}

// stepJSON is one plan step in the JSON output (a stable contract).
type stepJSON struct {
	Action     resolver.Action     `json:"action"`
	Package    string              `json:"package"`
	Bundle     string              `json:"bundle"`
	Version    string              `json:"version"`
	Channel    string              `json:"channel"`
	Catalog    resolver.CatalogKey `json:"catalog"`
	Replaces   string              `json:"replaces,omitempty"`
	Reason     string              `json:"reason"`
	Dependency bool                `json:"dependency"`
	Warnings   []string            `json:"warnings,omitempty"`
	HeldBack   *resolver.HeldBack  `json:"heldBack,omitempty"`
}

// unchangedJSON is an installed CSV that stays, in the JSON output.
type unchangedJSON struct {
	Package      string             `json:"package"`
	Bundle       string             `json:"bundle"`
	Version      string             `json:"version,omitempty"`
	Subscription string             `json:"subscription,omitempty"`
	HeldBack     *resolver.HeldBack `json:"heldBack,omitempty"`
}

// planJSON is a plan in the JSON output.
type planJSON struct {
	Namespace string          `json:"namespace,omitempty"`
	Steps     []stepJSON      `json:"steps"`
	Unchanged []unchangedJSON `json:"unchanged"`
}

func newStepsJSON(steps []resolver.Step) []stepJSON {
	out := make([]stepJSON, len(steps))
	for i, s := range steps {
		out[i] = stepJSON{
			Action: s.Action, Package: s.Package, Bundle: s.Bundle, Version: s.Version,
			Channel: s.Channel, Catalog: s.Catalog, Replaces: s.Replaces,
			Reason: s.Reason.String(), Dependency: s.Dependency, Warnings: s.Warnings,
			HeldBack: s.HeldBack,
		}
	}
	return out
}

func newUnchangedJSON(us []resolver.Unchanged) []unchangedJSON {
	out := make([]unchangedJSON, len(us))
	for i, u := range us {
		out[i] = unchangedJSON{Package: u.Package, Bundle: u.CSV, Version: u.Version, Subscription: u.Subscription, HeldBack: u.HeldBack}
	}
	return out
}

func newPlanJSON(p *resolver.Plan) planJSON {
	return planJSON{Namespace: p.Namespace, Steps: newStepsJSON(p.Steps), Unchanged: newUnchangedJSON(p.Unchanged)}
}

// suggestionJSON is a confirmed suggestion in the JSON output; its plan
// has the shape of resolve's.
type suggestionJSON struct {
	Kind         resolver.SuggestionKind `json:"kind"`
	Subscription string                  `json:"subscription,omitempty"`
	CSV          string                  `json:"csv,omitempty"`
	Channel      string                  `json:"channel,omitempty"`
	Catalog      resolver.CatalogKey     `json:"catalog,omitzero"`
	Change       string                  `json:"change"`
	Plan         planJSON                `json:"plan"`
}

// errorJSON is the "error" member of the JSON output when there is no
// plan: Message is the verdict line; a conflict adds the explanation's
// structured form.
type errorJSON struct {
	Message     string            `json:"message"`
	Verdict     *resolver.Verdict `json:"verdict,omitempty"`
	Facts       []resolver.Fact   `json:"facts,omitempty"`
	Derivation  []resolver.Clause `json:"derivation,omitempty"`
	Suggestions []suggestionJSON  `json:"suggestions,omitempty"`
}

func newErrorJSON(ex *resolver.Explanation) *errorJSON {
	v := ex.Verdict
	out := &errorJSON{Message: v.Text, Verdict: &v, Facts: ex.Facts, Derivation: ex.Derivation}
	for _, s := range ex.Suggestions {
		sj := suggestionJSON{Kind: s.Kind, Subscription: s.Subscription, CSV: s.CSV, Channel: s.Channel, Catalog: s.Catalog, Change: s.Change}
		if s.Plan != nil {
			sj.Plan = planJSON{Steps: newStepsJSON(s.Plan.Steps), Unchanged: newUnchangedJSON(s.Plan.Unchanged)}
		}
		out.Suggestions = append(out.Suggestions, sj)
	}
	return out
}

// conflictJSON is resolve's JSON output when there is no plan.
type conflictJSON struct {
	Namespace string     `json:"namespace"`
	Error     *errorJSON `json:"error"`
}
