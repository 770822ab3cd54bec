package cli

import (
	"context"

	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/sextantdev/sextant"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/textio"
	"github.com/sextantdev/sextant/internal/words"
	"github.com/sextantdev/sextant/resolver"
)

// runResolveFor is resolve --for (sextant.World.ResolveFor).
func (e *env) runResolveFor(ctx context.Context, w *sextant.World, f *resolveFlags) error {
	a, err := w.ResolveFor(ctx, answerOptions(f.maxSuggestions))
	if err != nil {
		return err
	}
	e.printNotes(a.Notes)
	switch f.output.value {
	case "json":
		err = writeEncoded(e.stdout, "json", a)
	case "yaml":
		if a.Unserved != nil {
			err = writeEncoded(e.stdout, "yaml", a)
		} else {
			err = a.WriteSubscriptions(e.stdout)
		}
	default:
		err = a.WriteText(e.stdout, textOptions(f))
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
	cats, err := e.catalogInputs(f.catalogs)
	if err != nil {
		return err
	}
	w, err := sextant.Load(e.context(), sextant.Input{Catalogs: cats, GlobalNamespace: f.globalNamespace},
		sextant.Options{Limits: e.worldLimits(), Images: e.imageReader().Source(), OnNote: e.printNote})
	if err != nil {
		return e.worldError(err)
	}
	if f.olm.value == "v1" {
		return e.providesV1(w, q, api, f.output.value)
	}
	res := w.Resolver
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
