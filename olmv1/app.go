package olmv1

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

// APIExtensions is what an application's APIs need in OLM v1 terms: who
// serves each API, the ClusterExtensions to create, and the resolution of
// the state with them.
type APIExtensions struct {
	// APIs are the application's APIs, sorted, each with what serves it.
	APIs []APIExtension `json:"apis"`
	// Create are the ClusterExtensions to create, by name: each names only
	// its package (spec.namespace is the package name).
	Create []cluster.ClusterExtension `json:"create,omitempty"`
	// Outcome resolves the state's ClusterExtensions and those to
	// create.
	Outcome *Outcome `json:"resolution"`
}

// Unserved reports whether some API has nothing to serve it.
func (a *APIExtensions) Unserved() bool {
	return slices.ContainsFunc(a.APIs, func(s APIExtension) bool { return s.Error != "" })
}

// APIExtension says what serves one API.
type APIExtension struct {
	API graph.GVK `json:"api"`
	// Extension is the ClusterExtension that serves the API: one of the
	// state's whose choice provides it, or one to create (New).
	Extension string `json:"extension,omitempty"`
	Package   string `json:"package,omitempty"`
	New       bool   `json:"new,omitempty"`
	// Error says why nothing serves it.
	Error string `json:"error,omitempty"`
	// Remedies, with Error, are the ClusterExtensions confirmed to
	// install a bundle providing the API where one naming only the
	// package does not: a channel (the default channel first, then by
	// the version chosen; at most 3 per package), then the highest
	// version range, per package.
	Remedies []Remedy `json:"remedies,omitempty"`
	// OtherChannels counts the channels that would provide the API too
	// and that Remedies leaves out.
	OtherChannels int `json:"otherChannels,omitempty"`
}

// ExtensionsForAPIs answers what apis need: for each, a ClusterExtension of state
// whose bundle (as operator-controller chooses it) provides it, else the
// first package by name whose ClusterExtension naming only the package
// would install a bundle providing it (a new extension), else why none
// does, with the channels and version ranges confirmed to install a
// bundle providing it (APIExtension.Remedies). The state's extensions and the new ones are then resolved
// together. state is not modified.
func (r *Resolver) ExtensionsForAPIs(ctx context.Context, state *cluster.State, apis []graph.GVK) (*APIExtensions, error) {
	apis = slices.Clone(apis)
	slices.SortFunc(apis, graph.GVK.Compare)
	apis = slices.Compact(apis)
	app := &APIExtensions{}
	serves := map[string]*graph.Bundle{} // extension → its chosen bundle
	for i := range state.ClusterExtensions {
		x := &state.ClusterExtensions[i]
		if b, _, err := r.Choose(x, x.Installed); err == nil {
			serves[x.Name] = b
		}
	}
	created := map[string]bool{}
	for _, api := range apis {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		app.APIs = append(app.APIs, r.serverOf(api, state, serves, created, app))
	}
	next := state.Clone()
	if next == nil {
		next = &cluster.State{}
	}
	next.ClusterExtensions = append(next.ClusterExtensions, app.Create...)
	res, err := r.Resolve(ctx, next)
	if err != nil {
		return nil, err
	}
	app.Outcome = res
	return app, nil
}

// serverOf finds what serves api, adding a new extension to app when one
// is needed.
func (r *Resolver) serverOf(api graph.GVK, state *cluster.State, serves map[string]*graph.Bundle, created map[string]bool, app *APIExtensions) APIExtension {
	s := APIExtension{API: api}
	names := make([]string, 0, len(serves))
	for name := range serves {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if slices.Contains(serves[name].Provides, api) {
			s.Extension, s.Package = name, state.ClusterExtension(name).Package
			return s
		}
	}
	var why []string
	for _, p := range r.APIPackages(func(g graph.GVK) bool { return g == api }) {
		switch {
		case p.Error != "":
			why = append(why, fmt.Sprintf("package %s: %s", p.Package, p.Error))
		case !p.Provides:
			why = append(why, fmt.Sprintf("package %s installs %s, which no longer provides it", p.Package, p.Bundle))
			rems, more := r.apiRemedies(api, p.Package)
			s.Remedies = append(s.Remedies, rems...)
			s.OtherChannels += more
		default:
			s.Extension, s.Package, s.New = p.Package, p.Package, true
			if !created[p.Package] && state.ClusterExtension(p.Package) == nil {
				created[p.Package] = true
				app.Create = append(app.Create, cluster.ClusterExtension{Name: p.Package, Namespace: p.Package, SourceType: "Catalog", Package: p.Package})
			}
			return s
		}
	}
	if len(why) == 0 {
		s.Error = "no package of the catalogs provides it"
	} else {
		s.Error = "no ClusterExtension naming only the package would install a bundle providing it: " + strings.Join(why, "; ")
	}
	return s
}

// WriteText writes what serves each API, the extensions to create, then
// the resolution (see [Outcome.WriteText]).
func (a *APIExtensions) WriteText(w io.Writer, opts TextOptions) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "application: %d API(s), %d ClusterExtension(s) to create\n", len(a.APIs), len(a.Create))
	for _, s := range a.APIs {
		switch {
		case s.Error != "":
			fmt.Fprintf(bw, "  %s: %s\n", s.API, s.Error)
			for _, m := range s.Remedies {
				fmt.Fprintf(bw, "    fix: a ClusterExtension of package %s with %s gets %s %s (catalog %s), which provides it\n", m.Package, m.Change, m.Bundle, m.Version, m.Catalog)
			}
			if s.OtherChannels > 0 {
				fmt.Fprintf(bw, "    and %d more channel(s) whose bundle provides it, not listed\n", s.OtherChannels)
			}
		case s.New:
			fmt.Fprintf(bw, "  %s: package %s, ClusterExtension %s to create\n", s.API, s.Package, s.Extension)
		default:
			fmt.Fprintf(bw, "  %s: ClusterExtension %s (package %s)\n", s.API, s.Extension, s.Package)
		}
	}
	if len(a.Outcome.Extensions) > 0 {
		bw.WriteString("\n")
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return a.Outcome.WriteText(w, opts)
}
