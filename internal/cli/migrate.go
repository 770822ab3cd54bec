package cli

import (
	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant/celrule"
	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/migrate"
	"github.com/sextantdev/sextant/resolver"
)

func newMigrateCmd(e *env) *cobra.Command {
	f := &resolveFlags{}
	cmd := &cobra.Command{
		Use:   "migrate --catalog [NAME=]PATH... -f MANIFESTS...",
		Short: "Say what moving every Subscription from OLM v0 to OLM v1 would do, before anything changes",
		Long: `Migrate reads a cluster's OLM v0 objects (kubectl get
csv,sub,catsrc,og,ip,crd -A -o yaml) and the catalogs of its CatalogSources
(--catalog NAME=PATH, NAME the CatalogSource's name), resolves every namespace
as OLM v0 does and every ClusterExtension as OLM v1 does, and answers for
each Subscription: ready, ready with changes, or blocked; every block in
plain words with OLM v1's own reason (dependencies, install modes without
AllNamespaces, owned API services, one package in several namespaces, a CRD
with two owners, a dependency subscription); the ClusterExtension it becomes
(its channel, a version range from the installed version — the installed
version itself for a Manual subscription — and its ClusterCatalog pinned by
name); v1's choice now and next beside v0's next step, every difference
flagged; and what is lost (Manual approval, minKubeVersion, fail-forward,
scoped service accounts). Each CatalogSource in use becomes a
ClusterCatalog of its name, image and priority.

-o json is the report (package migrate, type Report); -o yaml the
ClusterCatalogs and ClusterExtensions of the subscriptions that are not
blocked, ready to apply; -o markdown a change request.

Exit status: 0 when no subscription is blocked, 1 when one is, 2 for bad
input or usage.`,
		Example: `  sextant migrate --catalog community-operators=testdata/catalogs/community-operators-prod.v4.20-index.json.gz \
    --catalog internal-operators=testdata/migrate/internal-operators.json -f testdata/migrate/cluster.json`,
		Args: cobra.NoArgs,
	}
	f.all = true
	addMigrateFlags(cmd, f)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		in, err := e.loadResolveInput(f)
		if err != nil {
			return err
		}
		rep, err := migrate.Build(cmd.Context(), in.cats, in.state, migrate.Options{Resolver: resolver.Options{
			GlobalNamespace: f.globalNamespace, CEL: celrule.New(), AllowInvalid: f.allowInvalid, KubeVersion: f.kubeVersion}})
		if err != nil {
			return err
		}
		switch f.output.value {
		case "json":
			err = writeJSON(e.stdout, rep)
		case "yaml":
			err = cluster.Encode(e.stdout, rep.Objects())
		case "markdown":
			err = rep.WriteMarkdown(e.stdout)
		default:
			err = rep.WriteText(e.stdout)
		}
		if err != nil {
			return err
		}
		if rep.Summary.Blocked > 0 {
			return errNo
		}
		return nil
	}
	return cmd
}

// addMigrateFlags declares migrate's flags: resolve's inputs, and -o.
func addMigrateFlags(cmd *cobra.Command, f *resolveFlags) {
	f.cmd = cmd
	cmd.Flags().StringArrayVar(&f.catalogs, "catalog", nil,
		`a catalog, as [NAME=]PATH: an FBC file (.json, .yaml, .yml, optionally .gz) or folder, or a catalog image (REGISTRY/REPO:TAG, REGISTRY/REPO@sha256:..., oci:DIR[:TAG], docker-archive:FILE); NAME, the name of the CatalogSource serving it, defaults to the file or folder name without its extensions (repeatable; without it, the CatalogSources' spec.image)`)
	addFilenameFlag(cmd, &f.files, &f.recursive, "manifests: Subscriptions, ClusterServiceVersions, CatalogSources, OperatorGroups, InstallPlans and CustomResourceDefinitions of every namespace, as kubectl get csv,sub,catsrc,og,ip,crd -A -o yaml prints them")
	cmd.Flags().StringVar(&f.globalNamespace, "global-namespace", resolver.DefaultGlobalNamespace,
		"the namespace whose catalogs serve every namespace (OLM's global catalog namespace; openshift-marketplace on OpenShift)")
	cmd.Flags().StringVar(&f.kubeVersion, "kube-version", "",
		"the cluster's Kubernetes version (e.g. 1.25.3): v0 steps whose minKubeVersion is above it will fail; default: not checked")
	cmd.Flags().BoolVar(&f.allowInvalid, "allow-invalid", false,
		"leave out the packages that opm serve would refuse, and say which, instead of stopping")
	f.output = addOutputFlag(cmd, "text", "json", "yaml", "markdown")
}
