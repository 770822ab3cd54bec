package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	sextant "github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/celrule"
	"github.com/sextantdev/sextant/openshift"
)

// clusterUpgradeFlags are cluster-upgrade's flags.
type clusterUpgradeFlags struct {
	to, version, globalNamespace string
	via                          []string
	catalogs, files              []string
	recursive, mirror            bool
	allowInvalid                 bool
	output                       *choice
}

func newClusterUpgradeCmd(e *env) *cobra.Command {
	f := &clusterUpgradeFlags{}
	cmd := &cobra.Command{
		Use:   "cluster-upgrade --to MINOR -f MANIFESTS... [--catalog [NAME[@MINOR]=]PATH]...",
		Short: "Plan an OpenShift cluster's upgrade with its OLM operators, minor by minor",
		Long: `Cluster-upgrade plans an OpenShift cluster's update to the minor --to, hop by hop, with the
operators OLM installed on it. It reads the cluster (kubectl get
clusterversion,csv,sub,catsrc,og,ip,crd -A -o yaml, or a must-gather folder with -f DIR -R) and the
catalogs of its CatalogSources, and says
for each hop: OLM's upgrade gate (an installed operator's olm.maxOpenShiftVersion below the next
minor: Upgradeable=False, in OLM's words; OLM v1's gate on ClusterExtensions too) and the smallest
operator upgrades that lift it, confirmed by resolving; the catalogs of the next minor (a default
CatalogSource's image follows the platform's index, :v4.N to :v4.N+1, as the marketplace operator
rewrites it; custom, mirrored or digest-pinned ones keep theirs); what OLM then does (automatic
upgrades, approvals that wait, predicted failures with minKubeVersion checked against the minor's
Kubernetes, subscriptions whose package or channel is gone and every subscription of their
namespace that stops resolving); and the ordered actions.

The cluster's version is the ClusterVersion's status.desired.version, or --openshift-version.
--via names the minors passed as Control Plane Only updates (EUS to EUS: --to 4.18 --via 4.17).
A catalog given as --catalog NAME=PATH is the CatalogSource NAME's catalog now; --catalog
NAME@4.18=PATH|IMAGE its catalog at 4.18. Without one, the images of the later minors are read
(cached; with --offline, every image not in the cache is named, exit 2).

Exit status: 0 when the target is reached with the listed actions, 1 when something needs a
person's decision (a stranded package, a gate no upgrade lifts, a predicted failure), 2 for bad
input or usage.`,
		Example: `  sextant cluster-upgrade --to 4.18 --via 4.17 -f testdata/ocp/cluster-4.16.json \
    --catalog community-operators=testdata/ocp/community-v4.16.json.gz \
    --catalog community-operators@4.17=testdata/ocp/community-v4.17.json.gz \
    --catalog community-operators@4.18=testdata/ocp/community-v4.18.json.gz`,
		Args: cobra.NoArgs,
	}
	fl := cmd.Flags()
	fl.StringVar(&f.to, "to", "", "the OpenShift `MINOR` to reach, such as 4.18 (required)")
	fl.StringSliceVar(&f.via, "via", nil, "the `MINORS` passed as Control Plane Only updates (4.17,4.19)")
	fl.StringVar(&f.version, "openshift-version", "", "the cluster's `VERSION` (default: the ClusterVersion's)")
	fl.StringArrayVar(&f.catalogs, "catalog", nil, "a `CATALOG`: [NAME[@MINOR]=]PATH|IMAGE (repeatable)")
	addFilenameFlag(cmd, &f.files, &f.recursive, "the cluster's objects")
	fl.StringVar(&f.globalNamespace, "global-namespace", "", "the global catalog `NS` (default: the manifests')")
	fl.BoolVar(&f.mirror, "mirror", false, "per hop, the images a disconnected cluster needs next")
	fl.BoolVar(&f.allowInvalid, "allow-invalid", false, "leave out the packages opm serve would refuse, and say which")
	f.output = addOutputFlag(cmd, "text", "json", "markdown")
	_ = cmd.MarkFlagRequired("to")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		opts, in, err := f.parse(e)
		if err != nil {
			return err
		}
		opts.Images = e.imageReader().Source()
		opts.Limits = e.worldLimits()
		if e.images != nil && e.images.offline {
			// Name every image the plan needs and the cache lacks, before
			// anything else is read.
			if err := f.checkOffline(cmd.Context(), e, in, opts); err != nil {
				return err
			}
		}
		w, err := sextant.Load(cmd.Context(), in, sextant.Options{
			Limits: e.worldLimits(), Images: opts.Images, CEL: celrule.New(), AllowInvalid: f.allowInvalid, OnNote: e.printNote,
		})
		if err != nil {
			return e.worldError(err)
		}
		p, err := openshift.Upgrade(cmd.Context(), w, opts)
		if err != nil {
			return err
		}
		switch f.output.value {
		case "json":
			err = writeJSON(e.stdout, p)
		case "markdown":
			err = p.WriteMarkdown(e.stdout)
		default:
			err = p.WriteText(e.stdout)
		}
		if err != nil {
			return err
		}
		if p.Decision() {
			return errNo
		}
		return nil
	}
	return withTopics(cmd, "openshift-upgrade", "catalogs", "manifests")
}

// parse reads the flags into the plan's options and the world's input.
func (f *clusterUpgradeFlags) parse(e *env) (openshift.WorldOptions, sextant.Input, error) {
	var opts openshift.WorldOptions
	in := sextant.Input{AllNamespaces: true, Recursive: f.recursive, GlobalNamespace: f.globalNamespace}
	var errs []error
	var now []string // the catalogs of the cluster's minor
	to, err := openshift.ParseMinor(f.to)
	if err != nil {
		errs = append(errs, fmt.Errorf("--to: %w", err))
	}
	opts.Target, opts.Version, opts.Mirror = to, f.version, f.mirror
	for _, v := range f.via {
		m, err := openshift.ParseMinor(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("--via: %w", err))
			continue
		}
		opts.Via = append(opts.Via, m)
	}
	for _, c := range f.catalogs {
		if before, _, ok := strings.Cut(c, "="); ok && strings.Contains(before, "@") {
			mc, err := openshift.ParseMinorCatalog(c)
			if err != nil {
				errs = append(errs, fmt.Errorf("--catalog: %w", err))
				continue
			}
			opts.Catalogs = append(opts.Catalogs, mc)
			continue
		}
		now = append(now, c)
	}
	if len(f.files) == 0 {
		errs = append(errs, errors.New("-f: the cluster's objects are required (kubectl get clusterversion,csv,sub,catsrc,og,ip,crd -A -o yaml)"))
	}
	if err := errors.Join(errs...); err != nil {
		return opts, in, &exitError{code: ExitBadInput, usage: true, err: err}
	}
	if in.Manifests, err = e.files(f.files, `-f "-"`); err != nil {
		return opts, in, err
	}
	in.Catalogs, err = e.catalogInputs(now)
	return opts, in, err
}

// checkOffline reads the manifests and checks that every catalog image the
// plan needs is in the cache (openshift.CheckImages).
func (f *clusterUpgradeFlags) checkOffline(ctx context.Context, e *env, in sextant.Input, opts openshift.WorldOptions) error {
	var paths []string
	for _, m := range in.Manifests {
		if m.Reader != nil {
			return nil // standard input is read once, by the world
		}
		paths = append(paths, m.Path)
	}
	state, err := e.limits.clusterLoader().LoadFiles(ctx, paths...)
	if err != nil {
		return nil // the world reports it, in its words
	}
	var given []string
	for _, c := range in.Catalogs {
		if c.Name != "" {
			given = append(given, c.Name)
		}
	}
	return openshift.CheckImages(ctx, state, given, opts)
}
