package cli

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/blang/semver/v4"
	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant/celrule"
	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
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
	olm                *choice // --olm (resolve): v1 answers --for in OLM v1 terms
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
	cmd.Flags().BoolVar(&f.singleOwnNamespace, "single-own-namespace", false,
		"OLM v1: the SingleOwnNamespaceInstallSupport feature gate is on")
	cmd.Flags().BoolVar(&f.bundleRelease, "bundle-release", false,
		"OLM v1: the BundleReleaseSupport feature gate is on")
	cmd.Flags().BoolVar(&f.noWebhookProvider, "no-webhook-provider", false,
		"OLM v1: both WebhookProvider* feature gates are off")
	cmd.Flags().BoolVar(&f.allowInvalid, "allow-invalid", false, "leave out the packages opm serve would refuse, and say which")
}

// addCatalogFlag adds the repeatable --catalog [NAME=]PATH flag (see the
// catalogs help topic); more says more about it (repeatable, required).
func addCatalogFlag(cmd *cobra.Command, catalogs *[]string, more string) {
	cmd.Flags().StringArrayVar(catalogs, "catalog", nil, "a catalog, as `[NAME=]PATH` or an image ("+more+")")
}

// resolveInput is what resolve and rollout work on.
type resolveInput struct {
	ns       string
	global   string                // the global catalog namespace
	catalogs []resolver.CatalogKey // the catalogs given, in order
	paths    []string              // their paths, in the same order
	state    *cluster.State
	res      *resolver.Resolver // nil when the manifests hold only ClusterExtensions
	v1       *v1Input           // nil when they hold none
	cats     []resolver.Catalog // the catalogs, with their identity and priority
}

// resolveError makes an error of Resolve or Rollout about a catalog (a
// *resolver.CatalogError: a channel with no single head to order, an
// olm.constraint it cannot evaluate) name the file of that catalog.
func (in *resolveInput) resolveError(err error) error {
	var ce *resolver.CatalogError
	if !errors.As(err, &ce) {
		return err
	}
	for i, k := range in.catalogs {
		if k == ce.Catalog {
			path := in.paths[i]
			if path == "-" {
				path = stdinName
			}
			return naming(err, path)
		}
	}
	return err
}

// catalogSpec is one --catalog value.
type catalogSpec struct {
	name, path string
	named      bool // NAME= was given
}

// catalogNameRE matches a catalog name given as NAME=PATH: a Kubernetes
// object name, so that a path containing "=" is not mistaken for one.
var catalogNameRE = regexp.MustCompile(`^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$`)

// parseCatalogSpec splits [NAME=]PATH; the name defaults to the base name of
// the path without its catalog extensions (.gz, then .json, .yaml or .yml).
func parseCatalogSpec(s string) (catalogSpec, error) {
	if name, path, ok := strings.Cut(s, "="); ok && catalogNameRE.MatchString(name) {
		if path == "" {
			return catalogSpec{}, usageErrorf("--catalog %q: no path after %q", s, name+"=")
		}
		return catalogSpec{name: name, path: path, named: true}, nil
	}
	if s == "" {
		return catalogSpec{}, usageErrorf("--catalog: empty path")
	}
	if s == "-" {
		return catalogSpec{}, usageErrorf(`--catalog "-": name the catalog read from standard input, as NAME=-`)
	}
	return catalogSpec{name: defaultCatalogName(s), path: s}, nil
}

// defaultCatalogName returns the file or folder name of path without its
// catalog extensions: "x/community.v4.20-index.json.gz" →
// "community.v4.20-index"; for an image, the last element of its
// repository ("quay.io/operatorhubio/catalog:latest" → "catalog") or the
// name of its layout folder or archive ("oci:x/cat:v1" → "cat").
func defaultCatalogName(path string) string {
	if ref, isImage, _ := imageReference(path); isImage {
		return ref.BaseName()
	}
	base := filepath.Base(filepath.Clean(path))
	base = strings.TrimSuffix(base, ".gz")
	for _, ext := range []string{".json", ".yaml", ".yml"} {
		if b, ok := strings.CutSuffix(base, ext); ok {
			base = b
			break
		}
	}
	return base
}

// objectKey identifies a manifest object across files.
type objectKey = cluster.Ref

// loadResolveInput reads the catalogs and manifests, works out the
// namespace and each catalog's identity, checks that every subscription
// names a given catalog, and indexes the catalogs. Every problem of the
// inputs is reported, each naming its file.
func (e *env) loadResolveInput(f *resolveFlags) (*resolveInput, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	if f.globalNamespace == "" {
		f.globalNamespace = resolver.DefaultGlobalNamespace
	}
	e.recursive = f.recursive
	specs, err := parseCatalogSpecs(f.catalogs)
	if err != nil {
		return nil, err
	}
	state, files, cats, err := e.readResolveInputs(f.files, specs)
	if err != nil {
		return nil, err
	}
	if f.olm != nil && f.olm.value == "v1" {
		return e.v1ForInput(f, state, cats, specs, files)
	}
	v1, err := e.v1Beside(f, state, cats, specs, files)
	if err != nil {
		return nil, err
	}
	if v1 != nil && len(state.Subscriptions) == 0 && len(state.CSVs) == 0 {
		return &resolveInput{state: state, v1: v1}, nil
	}
	// With --for, the application's namespace may hold nothing yet.
	ns := "" // -A: every namespace
	if !f.all {
		if ns, err = pickNamespace(f.namespace, state, len(f.forFiles) > 0, f.cmd.Flags().Lookup("all-namespaces") != nil); err != nil {
			return nil, err
		}
	}
	imageCats, imageSpecs, err := e.loadSourceImages(state, ns, specs, files)
	if err != nil {
		return nil, err
	}
	cats, specs = append(cats, imageCats...), append(specs, imageSpecs...)
	if len(specs) == 0 {
		return nil, usageErrorf("no catalog: give one or more --catalog [NAME=]PATH, or CatalogSources with spec.image for the subscriptions")
	}
	if err := e.placeCatalogs(f, state, ns, cats, specs, files); err != nil {
		return nil, err
	}
	return e.newResolveInput(f, state, ns, cats, specs, v1)
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

// parseCatalogSpecs parses the --catalog values; two catalogs of one name
// are a usage error.
func parseCatalogSpecs(values []string) ([]catalogSpec, error) {
	var specs []catalogSpec
	byName := map[string]string{}
	for _, s := range values {
		spec, err := parseCatalogSpec(s)
		if err != nil {
			return nil, err
		}
		if prev, ok := byName[spec.name]; ok {
			if prev == spec.path {
				return nil, usageErrorf("catalog %s is given twice", spec.path)
			}
			return nil, usageErrorf("two catalogs are named %q (%s and %s); name them apart with --catalog NAME=PATH", spec.name, prev, spec.path)
		}
		byName[spec.name] = spec.path
		specs = append(specs, spec)
	}
	return specs, nil
}

// readResolveInputs reads the manifests of files and loads the catalogs of
// specs; every problem of both is reported.
//
// The manifests' problems come first: they are small, and their errors
// are the likeliest. The catalogs load meanwhile, on another core,
// unless one of the inputs is standard input (which input reads it is
// decided in order).
func (e *env) readResolveInputs(files []string, specs []catalogSpec) (*cluster.State, map[objectKey]string, []resolver.Catalog, error) {
	var cl catalogLoad
	var done chan struct{} // nil: the catalogs load after the manifests
	if !usesStdin(files) && !usesStdin(catalogPaths(specs)) {
		done = make(chan struct{})
		ce := *e
		ce.stderr = &cl.notes
		go func() {
			defer close(done)
			cl.load(&ce, specs)
		}()
	}
	var errs []error
	state, objFiles, err := e.readState(files)
	if err != nil {
		errs = appendErrors(errs, err)
	} else if ignored := state.IgnoredText(); ignored != "" {
		e.notef("ignored: %s (kinds resolution does not read)", ignored)
	}
	if done != nil {
		<-done
		if _, err := e.stderr.Write(cl.notes.Bytes()); err != nil {
			return nil, nil, nil, err
		}
	} else {
		cl.load(e, specs)
	}
	errs = append(errs, cl.errs...)
	if len(errs) > 0 {
		return nil, nil, nil, joinErrors(errs)
	}
	return state, objFiles, cl.cats, nil
}

// v1Beside reads the ClusterExtensions of the manifests, when there are
// some and --for is not given, for resolution beside the Subscriptions; it
// notes the OLM v1 objects that are read but not used.
func (e *env) v1Beside(f *resolveFlags, state *cluster.State, cats []resolver.Catalog, specs []catalogSpec, files map[objectKey]string) (*v1Input, error) {
	switch {
	case len(state.ClusterExtensions) > 0 && len(f.forFiles) == 0:
		return e.loadV1(f, state, cats, specs, files)
	case len(state.ClusterExtensions) > 0:
		e.notef("--for: the ClusterExtensions of the manifests are not resolved (--for answers for OLM v0 subscriptions)")
	case len(state.ClusterCatalogs) > 0:
		e.notef("ClusterCatalogs read but not used: the manifests hold no ClusterExtension")
	}
	return nil, nil
}

// placeCatalogs gives each catalog its identity and priority in namespace
// ns: it reads the OperatorGroups the CSVs' annotations name (without
// --for), the global namespace where the manifests point (without
// --global-namespace), and checks that every subscription names a
// catalog given.
func (e *env) placeCatalogs(f *resolveFlags, state *cluster.State, ns string, cats []resolver.Catalog, specs []catalogSpec, files map[objectKey]string) error {
	if len(f.forFiles) == 0 {
		e.inferOperatorGroups(state, ns)
	}
	if !f.cmd.Flags().Changed("global-namespace") {
		f.globalNamespace = e.globalNamespace(state, f.globalNamespace)
	}
	if err := checkSources(state, ns, specs, files); err != nil {
		return err
	}
	for i := range cats {
		key, prio, err := catalogIdentity(cats[i].Key.Name, ns, f.globalNamespace, state, files)
		if err != nil {
			return err
		}
		cats[i].Key, cats[i].Priority = key, prio
	}
	return nil
}

// newResolveInput indexes the catalogs, placed, for resolution with the
// options of the flags.
func (e *env) newResolveInput(f *resolveFlags, state *cluster.State, ns string, cats []resolver.Catalog, specs []catalogSpec, v1 *v1Input) (*resolveInput, error) {
	if f.semver {
		span := "within a major version"
		if f.semverMajor {
			span = "across major versions"
		}
		e.notef("--semver-upgrades: an installed operator may upgrade to any higher version of its channel %s, beyond the catalog's replaces, skips and skipRange edges (OLM follows only those)", span)
	}
	res, err := resolver.NewContext(e.context(), cats, resolver.Options{GlobalNamespace: f.globalNamespace, CEL: celrule.New(), AllowInvalid: f.allowInvalid, KubeVersion: f.kubeVersion, OpenShiftVersion: f.openShift, SemverUpgrades: f.semver, SemverAllowMajor: f.semverMajor})
	if err != nil {
		return nil, err
	}
	in := &resolveInput{ns: ns, global: f.globalNamespace, state: state, res: res, v1: v1, cats: cats}
	for i, c := range cats {
		in.catalogs = append(in.catalogs, c.Key)
		in.paths = append(in.paths, specs[i].path)
	}
	return in, nil
}

// catalogLoad is the outcome of loading the catalogs of a resolve: the
// catalogs that loaded, the errors of those that did not, and, loaded
// beside the manifests, the notes held back meanwhile.
type catalogLoad struct {
	cats  []resolver.Catalog
	errs  []error
	notes bytes.Buffer
}

// load loads the catalogs of specs with e, in order.
func (cl *catalogLoad) load(e *env, specs []catalogSpec) {
	for _, spec := range specs {
		cat, err := e.loadCatalog(spec.path)
		if err != nil {
			cl.errs = appendErrors(cl.errs, err)
			continue
		}
		cl.cats = append(cl.cats, resolver.Catalog{Key: resolver.CatalogKey{Name: spec.name}, Catalog: cat})
	}
}

// catalogPaths returns the paths of specs.
func catalogPaths(specs []catalogSpec) []string {
	paths := make([]string, len(specs))
	for i, s := range specs {
		paths[i] = s.path
	}
	return paths
}

// usesStdin reports whether one of paths is "-", standard input.
func usesStdin(paths []string) bool { return slices.Contains(paths, "-") }

// readState decodes the manifests of every file into one state and returns
// the file each object comes from. Every problem is reported; an object
// defined twice is an error naming both files.
func (e *env) readState(names []string) (*cluster.State, map[objectKey]string, error) {
	// Read each file on its own, so that the files that can be read are
	// still checked when another cannot.
	var ins []input
	var errs []error
	for _, name := range names {
		in, err := e.readInputs([]string{name})
		if err != nil {
			if xe, ok := err.(*exitError); ok && xe.usage {
				return nil, nil, err
			}
			errs = appendErrors(errs, err)
			continue
		}
		ins = append(ins, in...)
	}
	state := &cluster.State{}
	files := map[objectKey]string{}
	merged := 0
	for _, in := range ins {
		s, err := e.decodeManifests(in)
		if err != nil {
			errs = appendErrors(errs, naming(err, in.Name))
			continue
		}
		if len(s.Refs()) == 0 && len(s.Ignored) == 0 {
			if err := emptyManifests(in); err != nil {
				errs = append(errs, err)
				continue
			}
		}
		for _, k := range s.Refs() {
			if prev, ok := files[k]; ok {
				where := "twice"
				if prev != in.Name {
					where = "in " + prev + " too"
				}
				errs = append(errs, fmt.Errorf("%s: %s %q is defined %s", in.Name, k.Kind, k.Namespace+"/"+k.Name, where))
				continue
			}
			files[k] = in.Name
		}
		if merged == 0 {
			state = s // nothing to merge into: no copy
		} else {
			state.Merge(s) // what it leaves out is reported above
		}
		merged++
	}
	if len(errs) > 0 {
		return nil, nil, errors.Join(errs...)
	}
	state.Sort()
	return state, files, nil
}

// pickNamespace returns the namespace to resolve: the one asked for, else
// the one the subscriptions share, else the one the installed CSVs share.
//
// A namespace asked for that holds no subscription, CSV, OperatorGroup or
// InstallPlan is an error listing the namespaces that do: it is almost
// always mistyped, and resolving it would say "nothing to do".
// With mayBeEmpty, the namespace asked for may hold nothing.
// With withAll, the command has -A, and the error for several namespaces
// says so.
func pickNamespace(asked string, state *cluster.State, mayBeEmpty, withAll bool) (string, error) {
	if asked != "" && mayBeEmpty {
		return asked, nil
	}
	if asked != "" {
		present := namespacesPresent(state)
		if slices.Contains(present, asked) {
			return asked, nil
		}
		if len(present) == 0 {
			return "", fmt.Errorf("-n %s: the manifests hold no subscription, ClusterServiceVersion, OperatorGroup or InstallPlan in any namespace", asked)
		}
		return "", fmt.Errorf("-n %s: the manifests hold nothing in namespace %q; namespaces present: %s", asked, asked, strings.Join(present, ", "))
	}
	var nss []string
	for _, s := range state.Subscriptions {
		nss = append(nss, s.Namespace)
	}
	what := "subscriptions"
	if len(nss) == 0 {
		what = "installed CSVs"
		for _, c := range state.CSVs {
			if !c.Copied {
				nss = append(nss, c.Namespace)
			}
		}
	}
	slices.Sort(nss)
	nss = slices.Compact(nss)
	switch len(nss) {
	case 0:
		return "", usageErrorf("no subscription and no installed CSV in the manifests: name the namespace with -n")
	case 1:
		return nss[0], nil
	}
	if withAll {
		return "", usageErrorf("the %s are in %d namespaces (%s): choose one with -n, or resolve every namespace with -A", what, len(nss), strings.Join(nss, ", "))
	}
	return "", usageErrorf("the %s are in %d namespaces (%s): choose one with -n", what, len(nss), strings.Join(nss, ", "))
}

// namespacesPresent returns, sorted, the namespaces of the subscriptions,
// CSVs, OperatorGroups and InstallPlans of state.
func namespacesPresent(state *cluster.State) []string {
	var nss []string
	for _, s := range state.Subscriptions {
		nss = append(nss, s.Namespace)
	}
	for _, c := range state.CSVs {
		nss = append(nss, c.Namespace)
	}
	for _, g := range state.OperatorGroups {
		nss = append(nss, g.Namespace)
	}
	for _, p := range state.InstallPlans {
		nss = append(nss, p.Namespace)
	}
	slices.Sort(nss)
	return slices.Compact(nss)
}

// checkSources reports every subscription of namespace ns whose spec.source
// names none of the catalogs given.
func checkSources(state *cluster.State, ns string, specs []catalogSpec, files map[objectKey]string) error {
	var names []string
	known := map[string]bool{}
	for _, s := range specs {
		names = append(names, s.name)
		known[s.name] = true
	}
	slices.Sort(names)
	var errs []error
	for _, sub := range state.Subscriptions {
		if (ns != "" && sub.Namespace != ns) || sub.Source == "" || known[sub.Source] {
			continue
		}
		file := files[objectKey{Kind: cluster.KindSubscription, Namespace: sub.Namespace, Name: sub.Name}]
		errs = append(errs, fmt.Errorf("%s: Subscription %q: spec.source %q names no catalog given with --catalog (catalogs: %s)",
			file, sub.Namespace+"/"+sub.Name, sub.Source, strings.Join(names, ", ")))
	}
	return errors.Join(errs...)
}

// catalogIdentity returns the identity and priority of the catalog named
// name: a CatalogSource of that name gives them (the one in ns when there
// are several); with none, the namespace the subscriptions naming the
// catalog agree on, else the global namespace, and priority 0.
func catalogIdentity(name, ns, global string, state *cluster.State, files map[objectKey]string) (resolver.CatalogKey, int, error) {
	var found []cluster.CatalogSource
	for _, cs := range state.CatalogSources {
		if cs.Name == name {
			found = append(found, cs)
		}
	}
	if len(found) > 1 {
		i := slices.IndexFunc(found, func(cs cluster.CatalogSource) bool { return cs.Namespace == ns })
		if i < 0 {
			var where []string
			for _, cs := range found {
				where = append(where, fmt.Sprintf("%s/%s in %s", cs.Namespace, cs.Name, files[objectKey{Kind: cluster.KindCatalogSource, Namespace: cs.Namespace, Name: cs.Name}]))
			}
			return resolver.CatalogKey{}, 0, usageErrorf("catalog %q: %d CatalogSources have its name (%s); keep one", name, len(found), strings.Join(where, ", "))
		}
		found = found[i : i+1]
	}
	if len(found) == 1 {
		return resolver.CatalogKey{Namespace: found[0].Namespace, Name: name}, found[0].Priority, nil
	}
	var nss []string
	for _, sub := range state.Subscriptions {
		if (ns == "" || sub.Namespace == ns) && sub.Source == name && sub.SourceNamespace != "" {
			nss = append(nss, sub.SourceNamespace)
		}
	}
	slices.Sort(nss)
	if nss = slices.Compact(nss); len(nss) == 1 {
		return resolver.CatalogKey{Namespace: nss[0], Name: name}, 0, nil
	}
	return resolver.CatalogKey{Namespace: global, Name: name}, 0, nil
}

// appendErrors appends err to errs, or the errors it joins, so that every
// problem keeps a line of its own.
func appendErrors(errs []error, err error) []error {
	if xe, ok := err.(*exitError); ok && xe.usage {
		return append(errs, err)
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			errs = appendErrors(errs, e)
		}
		return errs
	}
	return append(errs, err)
}

// globalNamespace returns the global catalog namespace when the flag does
// not set it: the one namespace the manifests point to for catalogs
// (cluster.State.CatalogNamespaces), said in a note, else def.
func (e *env) globalNamespace(state *cluster.State, def string) string {
	nss := state.CatalogNamespaces()
	switch {
	case len(nss) == 1 && nss[0] != def:
		e.notef("global catalog namespace: %s, where the manifests' CatalogSources and subscriptions point (--global-namespace sets it)", nss[0])
		return nss[0]
	case len(nss) > 1 && !slices.Contains(nss, def):
		e.notef("the manifests point to catalogs in %d namespaces (%s): the global catalog namespace stays %s (--global-namespace sets it)", len(nss), strings.Join(nss, ", "), def)
	}
	return def
}

// inferOperatorGroups reads, when the manifests list no OperatorGroup, the
// groups the CSVs' annotations name (cluster.State.InferOperatorGroups),
// and says once, in notes, which namespace's group was read from them and
// which is assumed plain because nothing says anything (DESIGN §1
// OperatorGroup). ns is the namespace resolved, "" for every namespace.
func (e *env) inferOperatorGroups(state *cluster.State, ns string) {
	if state.ListsOperatorGroups() {
		return
	}
	problems := state.InferOperatorGroups()
	var assumed []string
	for _, n := range resolver.Namespaces(state) {
		if ns != "" && n != ns {
			continue
		}
		groups := state.OperatorGroupsIn(n)
		if len(groups) == 0 {
			assumed = append(assumed, n)
			continue
		}
		g := groups[0]
		targets := strings.Join(g.StatusNamespaces, ", ")
		if targets == "" {
			targets = "all namespaces"
		}
		e.notef("no OperatorGroup in the manifests: read OperatorGroup %s/%s, targeting %s, from the annotations OLM put on the CSVs of %s (olm.operatorGroup, olm.targetNamespaces); install modes and API conflicts are checked against it", g.Namespace, g.Name, targets, n)
	}
	for _, p := range problems {
		if ns == "" || p.Namespace == ns {
			e.notef("%s", p)
		}
	}
	if ns != "" && len(assumed) == 0 && len(state.OperatorGroupsIn(ns)) == 0 {
		assumed = []string{ns} // a namespace that holds nothing yet (--for)
	}
	if len(assumed) == 0 {
		return
	}
	which := "namespace " + assumed[0] + " has"
	if len(assumed) > 1 {
		which = "namespaces " + strings.Join(assumed, ", ") + " have"
	}
	e.notef("no OperatorGroup in the manifests: assuming %s one plain OperatorGroup, as OLM needs exactly one; its target namespaces are unknown, so install modes and API conflicts between OperatorGroups are not checked (list them with kubectl get ...,og)", which)
}
