package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/textio"
	"github.com/sextantdev/sextant/internal/words"
	"github.com/sextantdev/sextant/resolver"
)

// readApplication reads the objects of the --for files, and their OLM
// objects (OperatorGroups, Subscriptions, …) as cluster state.
func (e *env) readApplication(names []string) ([]cluster.Object, *cluster.State, error) {
	ins, err := e.readInputs(names)
	if err != nil {
		return nil, nil, err
	}
	var objs []cluster.Object
	state := &cluster.State{}
	var errs []error
	for _, in := range ins {
		o, err := e.decodeObjects(in)
		if err != nil {
			errs = appendErrors(errs, naming(err, in.Name))
			continue
		}
		objs = append(objs, o...)
		s, err := e.decodeManifests(in)
		if err != nil {
			errs = appendErrors(errs, naming(err, in.Name))
			continue
		}
		state.CSVs = append(state.CSVs, s.CSVs...)
		state.Subscriptions = append(state.Subscriptions, s.Subscriptions...)
		state.CatalogSources = append(state.CatalogSources, s.CatalogSources...)
		state.OperatorGroups = append(state.OperatorGroups, s.OperatorGroups...)
		state.InstallPlans = append(state.InstallPlans, s.InstallPlans...)
	}
	if len(errs) > 0 {
		return nil, nil, joinErrors(errs)
	}
	if len(objs) == 0 {
		return nil, nil, usageErrorf("--for: no object in %s", strings.Join(names, ", "))
	}
	return objs, state, nil
}

// mergeState adds the application's OLM objects to the cluster state; an
// object in both is an error.
func mergeState(dst, app *cluster.State) error {
	var errs []error
	// Not app.Ignored: the application's own kinds are what --for reads.
	for _, r := range dst.Merge(&cluster.State{CSVs: app.CSVs, Subscriptions: app.Subscriptions, CatalogSources: app.CatalogSources, OperatorGroups: app.OperatorGroups, InstallPlans: app.InstallPlans}) {
		errs = append(errs, fmt.Errorf("--for: %s %q is in the application and in the cluster state (-f)", r.Kind, r.Namespace+"/"+r.Name))
	}
	dst.Sort()
	return errors.Join(errs...)
}

// appNamespace returns the namespace the application's objects share, or ""
// when none has one; several are a usage error.
func appNamespace(objs []cluster.Object) (string, error) {
	var nss []string
	for _, o := range objs {
		if o.Namespace != "" {
			nss = append(nss, o.Namespace)
		}
	}
	slices.Sort(nss)
	nss = slices.Compact(nss)
	if len(nss) > 1 {
		return "", usageErrorf("the application's objects are in %d namespaces (%s): choose one with -n", len(nss), strings.Join(nss, ", "))
	}
	if len(nss) == 1 {
		return nss[0], nil
	}
	return "", nil
}

// runResolveFor is resolve --for.
func (e *env) runResolveFor(cmd *cobra.Command, f *resolveFlags) error {
	objs, appState, err := e.readApplication(f.forFiles)
	if err != nil {
		return err
	}
	appNS, err := appNamespace(objs)
	if err != nil && f.namespace == "" {
		return err
	}
	switch {
	case f.namespace == "":
		f.namespace = appNS
	case appNS != "" && appNS != f.namespace:
		e.notef("the application's objects are in namespace %s; resolving namespace %s, as -n says", appNS, f.namespace)
	}
	in, err := e.loadResolveInput(f)
	if err != nil {
		return err
	}
	// The application's OLM objects are cluster state too.
	if err := mergeState(in.state, appState); err != nil {
		return err
	}
	e.inferOperatorGroups(in.state, in.ns)
	ctx := cmd.Context()
	app, err := in.res.ResolveFor(ctx, in.ns, in.state, objs)
	var unserved *resolver.UnservedError
	if errors.As(err, &unserved) {
		if f.output.value != "text" {
			return answered(true, writeEncoded(e.stdout, f.output.value, app))
		}
		ew := &textio.ErrWriter{W: e.stdout}
		app.WriteText(ew)
		fmt.Fprintf(ew, "no plan: nothing the namespace can see provides %s\n", words.Plural(len(unserved.Kinds), "API"))
		return answered(true, ew.Err)
	}
	if app == nil || app.Resolution == nil {
		return in.resolveError(err)
	}
	// The plan (or the conflict) of the state with the new subscriptions,
	// answered as resolve answers any: held-back reasons, predictions and
	// their fixes, explanations.
	a, err := app.Answer(ctx, answerOptions(f.maxSuggestions))
	if err != nil {
		return in.resolveError(err)
	}
	switch f.output.value {
	case "json":
		err = writeEncoded(e.stdout, "json", app)
	case "yaml":
		err = writeSubscriptionsYAML(e.stdout, app.Subscriptions)
	default:
		ew := &textio.ErrWriter{W: e.stdout}
		app.WriteText(ew)
		a.WriteText(ew, in.textOptions(a, f))
		err = ew.Err
	}
	return answered(a.No(), err)
}

// writeEncoded writes v as indented JSON (format "json") or as the same
// contract in YAML (format "yaml", encoded with sigs.k8s.io/yaml).
func writeEncoded(w io.Writer, format string, v any) error {
	if format != "yaml" {
		return writeJSON(w, v)
	}
	js, err := json.Marshal(v)
	if err != nil {
		return err
	}
	y, err := yaml.JSONToYAML(js)
	if err != nil {
		return err
	}
	_, err = w.Write(y)
	return err
}

// writeSubscriptionsYAML writes subscriptions as Kubernetes manifests, one
// YAML document each, ready for kubectl apply.
func writeSubscriptionsYAML(w io.Writer, subs []cluster.Subscription) error {
	if len(subs) == 0 {
		_, err := fmt.Fprintln(w, "# no subscription to create")
		return err
	}
	for i, s := range subs {
		spec := map[string]any{"name": s.Package, "installPlanApproval": "Automatic"}
		if s.Channel != "" {
			spec["channel"] = s.Channel
		}
		if s.Source != "" {
			spec["source"], spec["sourceNamespace"] = s.Source, s.SourceNamespace
		}
		m := map[string]any{
			"apiVersion": "operators.coreos.com/v1alpha1",
			"kind":       cluster.KindSubscription,
			"metadata":   map[string]any{"name": s.Name, "namespace": s.Namespace},
			"spec":       spec,
		}
		if i > 0 {
			if _, err := io.WriteString(w, "---\n"); err != nil {
				return err
			}
		}
		if err := writeEncoded(w, "yaml", m); err != nil {
			return err
		}
	}
	return nil
}

// providesFlags are the flags of provides.
type providesFlags struct {
	catalogs        []string // --catalog
	globalNamespace string   // --global-namespace
	all             bool     // --all
	olm, output     *choice
}

// providesHelp is provides' long help.
const providesHelp = `Provides lists which packages of the catalogs provide an API (olm.gvk), per catalog: the channels
whose head provides it first, then package, API, the default channel first and channel name; for
each, the bundle versions that provide it, head first. With --olm v1, the answer is in OLM v1
terms: what a ClusterExtension naming only the package installs, and whether it provides the API.

API is KIND (any group and version; case does not matter), GROUP/VERSION/KIND, VERSION/KIND (the
core group), GROUP/KIND, GROUP (a name with a dot: every API of the group), or kubectl's
KIND.GROUP / PLURAL.GROUP form; a bare plural (etcdclusters) too.

Text output shows each package's default (or first) channel and counts the others (--all shows
every channel). JSON output (-o json, a stable contract) is the list of channels:

  [{"api": {"group": "...", "version": "...", "kind": "..."},
    "catalog": "NAMESPACE/NAME", "package": "...", "channel": "...",
    "defaultChannel": true, "head": "...", "headProvides": true,
    "versions": ["..."]}]

Exit status: 0 when something provides it, 1 when nothing does, 2 for bad input or usage.`

// newProvidesCmd is `sextant provides`.
func newProvidesCmd(e *env) *cobra.Command {
	f := &providesFlags{}
	cmd := &cobra.Command{
		Use:   "provides --catalog [NAME=]PATH... API",
		Short: "List the catalog packages, channels and versions that provide an API",
		Long:  providesHelp,
		Example: `  sextant provides --catalog testdata/catalogs/community-operators-prod.v4.20-index.json.gz Kafka
  sextant provides --catalog index=catalog/ etcd.database.coreos.com/v1beta2/EtcdCluster -o json`,
		Args: cobra.ExactArgs(1),
	}
	addCatalogFlag(cmd, &f.catalogs, "repeatable, required")
	cmd.Flags().StringVar(&f.globalNamespace, "global-namespace", resolver.DefaultGlobalNamespace, "the namespace `NS` the catalogs are in")
	cmd.Flags().BoolVar(&f.all, "all", false, "text output: every channel, not only each package's first")
	f.olm = addChoiceFlag(cmd, "olm", "", "answer in the terms of OLM", "v0", "v1")
	f.output = addOutputFlag(cmd, "text", "json", "yaml")
	cmd.RunE = func(cmd *cobra.Command, args []string) error { return e.runProvides(f, args[0]) }
	return withTopics(cmd, "catalogs", "v1")
}

// runProvides is provides: the API query, the catalogs, and the channels
// that provide the API in the terms and format asked for.
func (e *env) runProvides(f *providesFlags, api string) error {
	q, err := resolver.ParseAPIQuery(api)
	if err != nil {
		return usageErrorf("%w", err)
	}
	if len(f.catalogs) == 0 {
		return usageErrorf("no catalog: give one or more --catalog [NAME=]PATH")
	}
	cats, err := e.loadProvidesCatalogs(f.catalogs, f.globalNamespace)
	if err != nil {
		return err
	}
	if f.olm.value == "v1" {
		return e.providesV1(q, api, cats, f.output.value)
	}
	res, err := resolver.New(cats, resolver.Options{GlobalNamespace: f.globalNamespace})
	if err != nil {
		return err
	}
	found := res.Provides(q)
	if f.output.value != "text" {
		if found == nil {
			found = []resolver.ProvidedAPI{}
		}
		if err := writeEncoded(e.stdout, f.output.value, found); err != nil {
			return err
		}
	} else {
		ew := &textio.ErrWriter{W: e.stdout}
		writeProvidesText(ew, q, found, f.all, nearQuery(res, q))
		if ew.Err != nil {
			return ew.Err
		}
	}
	if len(found) == 0 {
		return errNo
	}
	return nil
}

// loadProvidesCatalogs loads the catalogs of the --catalog values, each in
// namespace ns; every catalog that cannot be read is reported.
func (e *env) loadProvidesCatalogs(values []string, ns string) ([]resolver.Catalog, error) {
	var cats []resolver.Catalog
	var errs []error
	seen := map[string]string{}
	for _, s := range values {
		spec, err := parseCatalogSpec(s)
		if err != nil {
			return nil, err
		}
		if prev, ok := seen[spec.name]; ok {
			return nil, usageErrorf("two catalogs are named %q (%s and %s); name them apart with --catalog NAME=PATH", spec.name, prev, spec.path)
		}
		seen[spec.name] = spec.path
		cat, err := e.loadCatalog(spec.path)
		if err != nil {
			errs = appendErrors(errs, err)
			continue
		}
		cats = append(cats, resolver.Catalog{Key: resolver.CatalogKey{Namespace: ns, Name: spec.name}, Catalog: cat})
	}
	if len(errs) > 0 {
		return nil, joinErrors(errs)
	}
	return cats, nil
}

// nearQuery says what a query that nothing provides most likely meant: the
// nearest API kind, else a package (provides takes an API, not a
// package); "" when nothing is close.
func nearQuery(res *resolver.Resolver, q resolver.APIQuery) string {
	if near := res.NearestKind(q); near != "" {
		return fmt.Sprintf("did you mean %q?", near)
	}
	switch pkg, exact := res.PackageNamed(q); {
	case exact:
		return fmt.Sprintf("%q is a package: provides takes an API it would provide, as KIND, GROUP/VERSION/KIND or GROUP", pkg)
	case pkg != "":
		return fmt.Sprintf("did you mean package %q? provides takes an API, as KIND, GROUP/VERSION/KIND or GROUP", pkg)
	}
	return ""
}

// writeProvidesText writes the providers grouped by catalog, package and
// API; when there are none, what the query most likely meant, if anything
// (nearQuery).
func writeProvidesText(w io.Writer, q resolver.APIQuery, found []resolver.ProvidedAPI, all bool, near string) {
	if len(found) == 0 {
		if near != "" {
			fmt.Fprintf(w, "nothing provides %s (%s)\n", q, near)
		} else {
			fmt.Fprintf(w, "nothing provides %s\n", q)
		}
		return
	}
	type group struct {
		cat resolver.CatalogKey
		pkg string
		api graph.GVK
	}
	var order []group
	byGroup := map[group][]resolver.ProvidedAPI{}
	for _, p := range found {
		g := group{p.Catalog, p.Package, p.API}
		if _, ok := byGroup[g]; !ok {
			order = append(order, g)
		}
		byGroup[g] = append(byGroup[g], p)
	}
	var cat resolver.CatalogKey
	for _, g := range order {
		if g.cat != cat {
			cat = g.cat
			fmt.Fprintf(w, "catalog %s:\n", cat)
		}
		chans := byGroup[g]
		fmt.Fprintf(w, "  %s: %s\n", g.api.String(), g.pkg)
		shown := chans
		if !all && len(chans) > 1 {
			shown = chans[:1]
		}
		for _, c := range shown {
			def := ""
			if c.DefaultChannel {
				def = " (default)"
			}
			head := "head " + c.Head
			if !c.HeadProvides {
				head = "head " + c.Head + " does not provide it"
			}
			fmt.Fprintf(w, "    channel %s%s, %s: %s\n", c.Channel, def, head, versionsText(c.Versions))
		}
		if rest := len(chans) - len(shown); rest > 0 {
			names := make([]string, 0, rest)
			for _, c := range chans[len(shown):] {
				names = append(names, c.Channel)
			}
			fmt.Fprintf(w, "    other channels (%d): %s (--all shows them)\n", rest, strings.Join(words.Limit(names, 6), ", "))
		}
	}
}

// versionsText lists versions, eliding the middle of a long list.
func versionsText(vs []string) string {
	if len(vs) <= 6 {
		return strings.Join(vs, ", ")
	}
	return fmt.Sprintf("%s, … %s (%d versions)", strings.Join(vs[:3], ", "), vs[len(vs)-1], len(vs))
}
