package cli

import (
	"github.com/blang/semver/v4"
	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/olmv1"
	"github.com/sextantdev/sextant/resolver"
)

// resolveFlags are the inputs resolve and rollout share.
type resolveFlags struct {
	catalogs        []string // --catalog [NAME=]PATH
	files           []string // -f
	recursive       bool     // -R
	allowInvalid    bool     // --allow-invalid
	forFiles        []string // --for (resolve)
	namespace       string   // -n
	globalNamespace string   // --global-namespace
	maxSuggestions  int      // --max-suggestions
	full            bool     // --full
	output          *choice  // -o
	kubeVersion     string   // --kube-version
	openShift       string   // --openshift-version
	all             bool     // -A (resolve only)
	semver          bool     // --semver-upgrades
	semverMajor     bool     // --semver-allow-major
	// singleOwnNamespace, bundleRelease and noWebhookProvider are
	// --single-own-namespace, --bundle-release and --no-webhook-provider
	// (OLM v1: operator-controller's feature gates).
	singleOwnNamespace bool
	bundleRelease      bool
	noWebhookProvider  bool
	featureSet         *choice // --feature-set: operator-controller's CRDs and gates
	olm                *choice // --olm (resolve): v1 answers --for in OLM v1 terms
	bundles            bundleFlags
	cmd                *cobra.Command
}

// addResolveFlags declares the flags of resolve and rollout. Their
// details are in the help topics (catalogs, manifests, upgrades).
func addResolveFlags(cmd *cobra.Command, f *resolveFlags, formats ...string) {
	f.cmd = cmd
	addCatalogFlag(cmd, &f.catalogs, "repeatable")
	addFilenameFlag(cmd, &f.files, &f.recursive, "the cluster state")
	addNamespaceFlag(cmd, &f.namespace, "the namespace `NS` to resolve (default: the subscriptions')")
	cmd.Flags().StringVar(&f.globalNamespace, "global-namespace", "",
		"the `NS` of the global catalogs (default: the manifests', else olm)")
	cmd.Flags().IntVar(&f.maxSuggestions, "max-suggestions", resolver.DefaultMaxSuggestions,
		"with no plan, look for at most `N` suggestions (0: none)")
	cmd.Flags().BoolVar(&f.full, "full", false, "with no plan, print the whole derivation (text output)")
	cmd.Flags().StringVar(&f.kubeVersion, "kube-version", "", "the cluster's Kubernetes version `X.Y.Z`: check minKubeVersion")
	cmd.Flags().StringVar(&f.openShift, "openshift-version", "", "the cluster's OpenShift version `X.Y`: check maxOpenShiftVersion")
	cmd.Flags().BoolVar(&f.semver, "semver-upgrades", false, "beyond OLM: upgrade to any higher version of the same major")
	cmd.Flags().BoolVar(&f.semverMajor, "semver-allow-major", false, "with --semver-upgrades: let those upgrades cross major versions")
	f.output = addOutputFlag(cmd, append([]string{"text", "json", "yaml"}, formats...)...)
	addV1Flags(cmd, f)
	addBundleFlags(cmd, &f.bundles)
	cmd.Flags().BoolVar(&f.allowInvalid, "allow-invalid", false, "leave out the packages opm serve would refuse, and say which")
}

// addV1Flags adds OLM v1's feature set and feature gate flags.
func addV1Flags(cmd *cobra.Command, f *resolveFlags) {
	f.featureSet = addChoiceFlag(cmd, "feature-set", "",
		"OLM v1 feature set",
		string(cluster.FeatureSetStandard), string(cluster.FeatureSetExperimental))
	cmd.Flags().BoolVar(&f.singleOwnNamespace, "single-own-namespace", false,
		"OLM v1: the SingleOwnNamespaceInstallSupport feature gate is on")
	cmd.Flags().BoolVar(&f.bundleRelease, "bundle-release", false,
		"OLM v1: the BundleReleaseSupport feature gate is on")
	cmd.Flags().BoolVar(&f.noWebhookProvider, "no-webhook-provider", false,
		"OLM v1: both WebhookProvider* feature gates are off")
}

// v1Options returns the OLM v1 resolver's options of the flags: with
// --feature-set experimental, the gates its install turns on
// (SingleOwnNamespaceInstallSupport, BundleReleaseSupport) are on unless
// their flag says =false.
func (f *resolveFlags) v1Options() olmv1.Options {
	experimental := f.v1FeatureSet() == cluster.FeatureSetExperimental
	gate := func(name string, on bool) bool {
		if experimental && !f.cmd.Flags().Changed(name) {
			return true
		}
		return on
	}
	return olmv1.Options{KubeVersion: f.kubeVersion, OpenShiftVersion: f.openShift,
		SingleOwnNamespace: gate("single-own-namespace", f.singleOwnNamespace), BundleRelease: gate("bundle-release", f.bundleRelease),
		NoWebhookProvider: f.noWebhookProvider}
}

// v1Gates returns the world's OLM v1 gates of the flags (see v1Options).
func (f *resolveFlags) v1Gates() sextant.V1Gates {
	o := f.v1Options()
	return sextant.V1Gates{SingleOwnNamespace: o.SingleOwnNamespace, BundleRelease: o.BundleRelease, NoWebhookProvider: o.NoWebhookProvider,
		FeatureSet: f.v1FeatureSet()}
}

// v1FeatureSet is --feature-set.
func (f *resolveFlags) v1FeatureSet() cluster.FeatureSet {
	if f.featureSet == nil {
		return cluster.FeatureSetStandard
	}
	return cluster.FeatureSet(f.featureSet.value)
}

// bundleFlags are --bundles and --bundle-images: where bundle contents
// are read (check, resolve, rollout, migrate).
type bundleFlags struct {
	dirs   []string // --bundles
	images bool     // --bundle-images
}

// addBundleFlags adds --bundles and --bundle-images (the bundles help
// topic says what reads them).
func addBundleFlags(cmd *cobra.Command, f *bundleFlags) {
	cmd.Flags().StringArrayVar(&f.dirs, "bundles", nil, "a `DIR` of bundle folders at any depth (repeatable)")
	cmd.Flags().BoolVar(&f.images, "bundle-images", false, "read each bundle no --bundles folder holds from its image")
}

// addCatalogFlag adds the repeatable --catalog [NAME=]PATH flag (see the
// catalogs help topic); more says more about it (repeatable, required).
func addCatalogFlag(cmd *cobra.Command, catalogs *[]string, more string) {
	cmd.Flags().StringArrayVar(catalogs, "catalog", nil, "a catalog, as `[NAME=]PATH` or an image ("+more+")")
}

// check reports the first flag of f that is wrong or goes against another.
func (f *resolveFlags) check() error {
	switch {
	case len(f.files) == 0 && len(f.forFiles) == 0:
		return usageErrorf("no manifests: give the cluster state with -f FILE (Subscriptions, ClusterServiceVersions, CatalogSources, OperatorGroups)")
	case f.globalNamespace == "" && f.cmd.Flags().Changed("global-namespace"):
		return usageErrorf("--global-namespace is empty")
	case f.all && f.namespace != "":
		return usageErrorf("-A (--all-namespaces) and -n (--namespace) exclude each other")
	case f.semverMajor && !f.semver:
		return usageErrorf("--semver-allow-major goes with --semver-upgrades")
	}
	if f.kubeVersion != "" {
		if _, err := graph.ParseKubeVersion(f.kubeVersion, true); err != nil {
			return usageErrorf("--kube-version %q: %v (want major.minor.patch, e.g. 1.25.3)", f.kubeVersion, err)
		}
	}
	if f.openShift != "" {
		if _, err := semver.ParseTolerant(f.openShift); err != nil {
			return usageErrorf("--openshift-version %q: %v (want e.g. 4.16)", f.openShift, err)
		}
	}
	return nil
}
