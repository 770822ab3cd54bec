package sextant

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/textio"
	"github.com/sextantdev/sextant/internal/words"
	"github.com/sextantdev/sextant/resolver"
)

// ProvidesAnswer is what World.Provides answers: every channel of the
// world's catalogs whose bundles provide an API the query selects, in
// resolver.Resolver.Provides' order, or, when none does, what the query
// most likely meant.
//
// Its JSON form is the list of channels (resolver.ProvidedAPI), [] when
// none.
type ProvidesAnswer struct {
	Query    resolver.APIQuery
	Channels []resolver.ProvidedAPI
	// Near says what a query nothing provides most likely meant — the
	// nearest API kind, or a package of that name (the query is an API,
	// not a package) — in a sentence; "" when something provides it or
	// nothing is close.
	Near string
}

// Provides answers which packages of the world's catalogs provide the
// APIs q selects (resolver.Resolver.Provides), and, when none does, what
// q most likely meant. It needs the world's OLM v0 resolver (the catalogs
// of a world without manifests are in it).
func (w *World) Provides(q resolver.APIQuery) (*ProvidesAnswer, error) {
	if w.Resolver == nil {
		return nil, &InputError{Field: "Catalogs", Err: errors.New("the world has no OLM v0 resolver (its manifests hold only OLM v1 objects)")}
	}
	a := &ProvidesAnswer{Query: q, Channels: w.Resolver.Provides(q)}
	if len(a.Channels) == 0 {
		a.Near = nearQuery(w.Resolver, q)
	}
	return a, nil
}

// nearQuery says what a query that nothing provides most likely meant: the
// nearest API kind, else a package (an API is asked, not a package); ""
// when nothing is close.
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

// No reports an answer "no": nothing provides the API.
func (a *ProvidesAnswer) No() bool { return len(a.Channels) == 0 }

// MarshalJSON writes the channels, [] when none.
func (a *ProvidesAnswer) MarshalJSON() ([]byte, error) {
	if a.Channels == nil {
		return []byte("[]"), nil
	}
	return marshal(a.Channels)
}

// providesShown is the number of channels the text lists per package and
// API without opts.Full: the first (the default channel, else the one
// whose head provides the API).
const providesShown = 1

// Unlisted returns the number of channels the text written with opts
// counts without naming them (none with Full).
func (a *ProvidesAnswer) Unlisted(opts TextOptions) int {
	if opts.Full {
		return 0
	}
	n := 0
	for _, g := range a.groups() {
		n += max(len(g.channels)-providesShown, 0)
	}
	return n
}

// providesGroup is the channels of one package providing one API in one
// catalog.
type providesGroup struct {
	catalog  resolver.CatalogKey
	pkg      string
	api      graph.GVK
	channels []resolver.ProvidedAPI
}

// groups groups the channels by catalog, package and API, in order.
func (a *ProvidesAnswer) groups() []providesGroup {
	var out []providesGroup
	index := map[[2]string]map[graph.GVK]int{}
	for _, p := range a.Channels {
		k := [2]string{p.Catalog.String(), p.Package}
		if index[k] == nil {
			index[k] = map[graph.GVK]int{}
		}
		i, ok := index[k][p.API]
		if !ok {
			i = len(out)
			index[k][p.API] = i
			out = append(out, providesGroup{catalog: p.Catalog, pkg: p.Package, api: p.API})
		}
		out[i].channels = append(out[i].channels, p)
	}
	return out
}

// WriteText writes the channels grouped by catalog, package and API: per
// package and API its first channel (the default channel, else the one
// whose head provides it) with the versions that provide the API, and
// the other channels counted with their names (listed in full with
// opts.Full); when nothing provides the API, that, with what the query
// most likely meant.
func (a *ProvidesAnswer) WriteText(w io.Writer, opts TextOptions) error {
	ew := &textio.ErrWriter{W: w}
	if len(a.Channels) == 0 {
		if a.Near != "" {
			fmt.Fprintf(ew, "nothing provides %s (%s)\n", a.Query, a.Near)
		} else {
			fmt.Fprintf(ew, "nothing provides %s\n", a.Query)
		}
		return ew.Err
	}
	var cat resolver.CatalogKey
	for _, g := range a.groups() {
		if g.catalog != cat {
			cat = g.catalog
			fmt.Fprintf(ew, "catalog %s:\n", cat)
		}
		fmt.Fprintf(ew, "  %s: %s\n", g.api.String(), g.pkg)
		shown := g.channels
		if !opts.Full && len(shown) > providesShown {
			shown = shown[:providesShown]
		}
		for _, c := range shown {
			def := ""
			if c.DefaultChannel {
				def = " (default)"
			}
			head := "head " + c.Head
			if !c.HeadProvides {
				head += " does not provide it"
			}
			fmt.Fprintf(ew, "    channel %s%s, %s: %s\n", c.Channel, def, head, versionsText(c.Versions))
		}
		if rest := g.channels[len(shown):]; len(rest) > 0 {
			names := make([]string, len(rest))
			for i, c := range rest {
				names[i] = c.Channel
			}
			fmt.Fprintf(ew, "    other channels (%d): %s\n", len(rest), strings.Join(words.Limit(names, 6), ", "))
		}
	}
	return ew.Err
}

// versionsText lists versions, eliding the middle of a long list.
func versionsText(vs []string) string {
	if len(vs) <= 6 {
		return strings.Join(vs, ", ")
	}
	return fmt.Sprintf("%s, … %s (%d versions)", strings.Join(vs[:3], ", "), vs[len(vs)-1], len(vs))
}
