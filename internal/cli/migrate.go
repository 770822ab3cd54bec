package cli

import (
	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant/migrate"
	"github.com/sextantdev/sextant/resolver"
)

func newMigrateCmd(e *env) *cobra.Command {
	f := &resolveFlags{}
	cmd := &cobra.Command{
		Use:   "migrate --catalog [NAME=]PATH... -f MANIFESTS...",
		Short: "Say what moving each Subscription from OLM v0 to OLM v1 would do",
		Long: `Migrate reads a cluster's OLM v0 objects (kubectl get csv,sub,catsrc,og,ip,crd -A -o yaml) and
the catalogs of its CatalogSources (--catalog NAME=PATH, NAME the CatalogSource's name), resolves
every namespace as OLM v0 does and every ClusterExtension as OLM v1 does, and answers for each
Subscription: ready, ready with changes, or blocked; every block in plain words with OLM v1's own
reason (dependencies, install modes without AllNamespaces, owned API services, one package in
several namespaces, a CRD with two owners, a dependency subscription); the ClusterExtension it
becomes (its channel, a version range from the installed version — the installed version itself
for a Manual subscription — and its ClusterCatalog pinned by name); v1's choice now and next
beside v0's next step, every difference flagged; and what is lost (Manual approval,
minKubeVersion, fail-forward, scoped service accounts). Each CatalogSource in use becomes a
ClusterCatalog of its name, image and priority.

-o json is the report (package migrate, type Report); -o yaml the ClusterCatalogs and
ClusterExtensions of the subscriptions that are not blocked, ready to apply; -o markdown a change
request. With the bundles' contents (--bundles, --bundle-images), each subscription gets the
permissions the installer service account of operator-controller v1.0 to v1.10 needs, derived
from the bundle v1 installs; --service-accounts writes them into -o yaml (a ServiceAccount, its
ClusterRoles, Roles and bindings before the ClusterExtensions, which name it).

Exit status: 0 when no subscription is blocked, 1 when one is, 2 for bad input or usage.`,
		Example: `  sextant migrate -f testdata/migrate/cluster.json \
    --catalog community-operators=testdata/catalogs/community-operators-prod.v4.20-index.json.gz \
    --catalog internal-operators=testdata/migrate/internal-operators.json`,
		Args: cobra.NoArgs,
	}
	f.all = true
	addMigrateFlags(cmd, f)
	var serviceAccounts bool
	cmd.Flags().BoolVar(&serviceAccounts, "service-accounts", false,
		"-o yaml: add installer service accounts (for v1.0-v1.10)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if serviceAccounts && f.output.value != "yaml" {
			return usageErrorf("--service-accounts writes the installer service accounts into -o yaml's objects: give -o yaml")
		}
		w, err := e.loadWorld(f)
		if err != nil {
			return err
		}
		rep, err := migrate.Build(cmd.Context(), w)
		if err != nil {
			return err
		}
		defer e.noteUnusedWorldBundles(w)
		switch f.output.value {
		case "json":
			err = writeJSON(e.stdout, rep)
		case "yaml":
			err = rep.WriteYAML(e.stdout, serviceAccounts)
		case "markdown":
			err = rep.WriteMarkdown(e.stdout)
		default:
			err = rep.WriteText(e.stdout)
		}
		if err != nil {
			return err
		}
		if f.output.value == "text" || f.output.value == "markdown" {
			e.noteInstallers(rep)
		}
		if rep.Summary.Blocked > 0 {
			return errNo
		}
		return nil
	}
	return withTopics(cmd, "catalogs", "manifests", "bundles", "v1")
}

// addMigrateFlags declares migrate's flags: resolve's inputs, and -o.
func addMigrateFlags(cmd *cobra.Command, f *resolveFlags) {
	f.cmd = cmd
	addCatalogFlag(cmd, &f.catalogs, "repeatable")
	addFilenameFlag(cmd, &f.files, &f.recursive, "every namespace's state")
	cmd.Flags().StringVar(&f.globalNamespace, "global-namespace", resolver.DefaultGlobalNamespace, "the global catalog namespace `NS`")
	cmd.Flags().StringVar(&f.kubeVersion, "kube-version", "", "the cluster's Kubernetes version `X.Y.Z`: check minKubeVersion")
	cmd.Flags().BoolVar(&f.allowInvalid, "allow-invalid", false, "leave out the packages opm serve would refuse, and say which")
	addV1Flags(cmd, f)
	addBundleFlags(cmd, &f.bundles)
	f.output = addOutputFlag(cmd, "text", "json", "yaml", "markdown")
}

// noteInstallers says, after a report whose installer permissions are not
// derived for want of bundle contents, which flags give them.
func (e *env) noteInstallers(rep *migrate.Report) {
	for _, x := range rep.Subscriptions {
		if x.Installer == nil && x.InstallerNotDerived == migrate.NotDerivedNoContents {
			e.notef("--bundles DIR (bundle folders) or --bundle-images gives the bundles' contents the installer permissions are derived from; -o yaml --service-accounts writes them")
			return
		}
	}
}
