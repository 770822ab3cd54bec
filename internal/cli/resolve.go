package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolver/predict"
)

func newResolveCmd(e *env) *cobra.Command {
	f := &resolveFlags{}
	cmd := &cobra.Command{
		Use:   "resolve --catalog [NAME=]PATH... -f MANIFESTS...",
		Short: "Compute the install/upgrade plan of a namespace, or explain why there is none",
		Long: `Resolve computes what OLM would install and upgrade in a namespace, from catalogs (--catalog)
and the cluster state (-f, as kubectl get csv,sub,catsrc,og,ip -o yaml prints it): an ordered
plan, every bundle after the bundles it depends on; or, when no plan exists, an explanation — the
verdict, the minimal set of facts that make resolution impossible, and suggested changes that were
re-solved and give a plan (--full prints the whole derivation). --why NAME says why a package,
bundle or subscription is in the plan, or why not; --for APP resolves what an application's kinds
need; manifests holding ClusterExtensions resolve as OLM v1 does.

Exit status: 0 with a plan (one that waits for approval too), 1 with no plan, 2 for bad input or
usage.`,
		Example: `  sextant resolve -f testdata/examples/cluster.yaml \
    --catalog testdata/catalogs/community-operators-prod.v4.20-index.json.gz
  kubectl get csv,sub,catsrc,og -n operators -o yaml | sextant resolve --catalog catalog/ -f -`,
		Args: cobra.NoArgs,
	}
	addResolveFlags(cmd, f, "installplan", "installplan-json")
	var why string
	addWhyFlag(cmd, &why)
	cmd.Flags().StringArrayVar(&f.forFiles, "for", nil, "an application's manifests `APP`: resolve what its kinds need")
	f.olm = addChoiceFlag(cmd, "olm", "", "with --for, answer in the terms of OLM", "v0", "v1")
	cmd.Flags().BoolVarP(&f.all, "all-namespaces", "A", false, "resolve every namespace of the manifests, one after another")
	cmd.RunE = func(cmd *cobra.Command, args []string) error { return e.runResolve(cmd, f, why) }
	return withTopics(cmd, "catalogs", "manifests", "upgrades", "resolve-output", "for", "v1")
}

// runResolve is resolve: the mode of the flags (--for, --olm v1, --why,
// -A, -o installplan), else the answer for the namespace.
func (e *env) runResolve(cmd *cobra.Command, f *resolveFlags, why string) error {
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
	res, err := in.res.Resolve(ctx, in.ns, in.state)
	if res == nil {
		return err
	}
	e.noteExcluded(err, res.Plan())
	if installPlan && err == nil {
		return in.writeInstallPlan(e.stdout, f.output.value, res)
	}
	a, err := in.answer(ctx, res, f)
	if err != nil {
		return err
	}
	if in.v1 != nil && !installPlan {
		return in.writeWithV1(ctx, e, a, f)
	}
	if f.output.value != "text" && f.output.value != "installplan" {
		err = writeEncoded(e.stdout, f.output.value, a)
	} else {
		err = a.WriteText(e.stdout, in.textOptions(a, f))
	}
	return answered(a.No(), err)
}

// answer answers a resolution (resolver.Resolution.Answer) with the
// options of the flags; an error that is no answer names its catalog file.
func (in *resolveInput) answer(ctx context.Context, res *resolver.Resolution, f *resolveFlags) (*resolver.Answer, error) {
	a, err := res.Answer(ctx, answerOptions(f.maxSuggestions))
	if err != nil {
		return nil, in.resolveError(err)
	}
	return a, nil
}

// answerOptions are the options of --max-suggestions: suggestions and
// fixes bounded in number, not in time, so that the output depends on the
// input alone; with none asked for, no search for a change that lets a
// held-back item move either.
func answerOptions(maxSuggestions int) resolver.AnswerOptions {
	if maxSuggestions <= 0 {
		maxSuggestions = -1
	}
	return resolver.AnswerOptions{
		Explain:  resolver.ExplainOptions{MaxSuggestions: maxSuggestions, Budget: -1},
		HeldBack: heldBackOptions(maxSuggestions),
	}
}

// textOptions are the text options of the flags for an answer: the notes
// of what the command line knows, and the OperatorGroup note left out
// (inferOperatorGroups says it once, on standard error).
func (in *resolveInput) textOptions(a *resolver.Answer, f *resolveFlags) resolver.TextOptions {
	opts := resolver.TextOptions{Full: f.full, OmitNotes: []string{predict.NoteAssumedOperatorGroup}}
	if a.Error != nil && a.Error.Explanation != nil {
		opts.Notes = in.notes(a.Namespace, a.Error.Explanation)
	}
	return opts
}

// answered returns the exit of an answer printed with error err: the
// error, else errNo when the answer is no.
func answered(no bool, err error) error {
	switch {
	case err != nil:
		return err
	case no:
		return errNo
	}
	return nil
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
	var plans []*resolver.Plan
	var conflicts []error
	for _, r := range results {
		plans, conflicts = append(plans, r.Plan()), append(conflicts, r.Err())
	}
	e.noteExcluded(errors.Join(conflicts...), plans...)
	all := &resolver.Answers{Namespaces: make([]*resolver.Answer, 0, len(results))}
	for _, r := range results {
		a, err := in.answer(ctx, r, f)
		if err != nil {
			return err
		}
		all.Namespaces = append(all.Namespaces, a)
	}
	if f.output.value != "text" {
		err = writeEncoded(e.stdout, f.output.value, all)
	} else {
		err = all.WriteText(e.stdout, func(a *resolver.Answer) resolver.TextOptions { return in.textOptions(a, f) })
	}
	return answered(all.No(), err)
}

// notes are what the command line knows and the explanation cannot: a
// subscription's catalog that was given but is not visible from the
// namespace, which usually means that --global-namespace is wrong.
func (in *resolveInput) notes(ns string, ex *resolver.Explanation) []string {
	var out []string
	seen := map[resolver.CatalogKey]bool{}
	for _, f := range ex.Facts {
		k := f.Catalog
		if f.Kind != resolver.FactNoCatalog || seen[k] || !slices.Contains(in.catalogs, k) || k.Namespace == ns || k.Namespace == in.global {
			continue
		}
		seen[k] = true
		out = append(out, fmt.Sprintf("catalog %s is given, but its namespace is neither %s nor the global namespace %s; if %s is the cluster's global catalog namespace, add --global-namespace %s",
			k, ns, in.global, k.Namespace, k.Namespace))
	}
	return out
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
