package cli

import (
	"context"
	"errors"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/olmv1"
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
	return withTopics(cmd, "catalogs", "manifests", "bundles", "upgrades", "resolve-output", "for", "v1")
}

// runResolve is resolve: the mode of the flags (--for, --olm v1, --why,
// -o installplan), else the world's answer (every namespace with -A).
func (e *env) runResolve(cmd *cobra.Command, f *resolveFlags, why string) error {
	installPlan := strings.HasPrefix(f.output.value, "installplan")
	if installPlan && (len(f.forFiles) > 0 || why != "" || f.all) {
		return usageErrorf("-o %s: not with --for, --why or -A", f.output.value)
	}
	if f.olm.value == "v1" && len(f.forFiles) == 0 {
		return usageErrorf("--olm v1 goes with --for: manifests holding ClusterExtensions resolve in v1 mode by themselves")
	}
	w, err := e.loadWorld(f)
	if err != nil {
		return err
	}
	err = e.resolveWorld(cmd.Context(), w, f, why, installPlan)
	if err == nil || errors.Is(err, errNo) {
		e.noteUnusedWorldBundles(w)
	}
	return err
}

// resolveWorld gives the answer of the flags of f (see runResolve) on w.
func (e *env) resolveWorld(ctx context.Context, w *sextant.World, f *resolveFlags, why string, installPlan bool) error {
	switch {
	case len(f.forFiles) > 0 && f.olm.value == "v1":
		return e.runResolveForV1(ctx, w, f)
	case len(f.forFiles) > 0:
		return e.runResolveFor(ctx, w, f)
	case why != "":
		return e.runWhy(ctx, w, f, why)
	case installPlan && w.Resolver == nil:
		return usageErrorf("-o installplan is for OLM v0 Subscriptions; the manifests hold only ClusterExtensions")
	}
	a, err := w.Resolve(ctx, answerOptions(f.maxSuggestions))
	if err != nil {
		return err
	}
	e.printNotes(a.Notes)
	if installPlan {
		if n := a.Namespaces[0]; n.Plan != nil {
			return writeInstallPlan(e.stdout, f.output.value, a.Resolution(n.Namespace))
		}
	}
	if f.output.value != "text" && f.output.value != "installplan" {
		err = writeEncoded(e.stdout, f.output.value, a)
	} else {
		err = a.WriteText(e.stdout, textOptions(f))
		if a.Extensions != nil {
			e.noteUnlisted(a.Extensions, olmv1.TextOptions{Why: f.full})
		}
	}
	return answered(a.No(), err)
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
