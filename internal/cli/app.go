package cli

import (
	"context"
	"encoding/json"
	"io"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"

	"github.com/sextantdev/sextant"
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

// runProvides is provides: the API query, the catalogs' world, and its
// answer (sextant.World.Provides) in the terms and format asked for.
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
	a, err := w.Provides(q)
	if err != nil {
		return err
	}
	if f.output.value != "text" {
		err = writeEncoded(e.stdout, f.output.value, a)
	} else {
		opts := sextant.TextOptions{Full: f.all}
		err = a.WriteText(e.stdout, opts)
		switch n := a.Unlisted(opts); {
		case n == 1:
			e.notef("--all lists the other channel the text only counts")
		case n > 1:
			e.notef("--all lists the %d other channels the text only counts", n)
		}
	}
	return answered(a.No(), err)
}
