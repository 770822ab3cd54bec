package olmv1

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

// APIPackage is a package that provides an API, in OLM v1 terms: what a
// ClusterExtension naming the package and nothing else (no channel, no
// version, every catalog) installs, and whether that bundle provides the
// API.
type APIPackage struct {
	API     graph.GVK `json:"api"`
	Package string    `json:"package"`
	// Bundle, Version and Catalog are operator-controller's choice; Error
	// its message when it refuses.
	Bundle  string `json:"bundle,omitempty"`
	Version string `json:"version,omitempty"`
	Catalog string `json:"catalog,omitempty"`
	Error   string `json:"error,omitempty"`
	// ErrorKind is as in ExtensionOutcome.
	ErrorKind ErrorKind `json:"errorKind,omitempty"`
	// Provides reports that the chosen bundle provides API (an older
	// bundle may provide it where the chosen one no longer does).
	Provides bool `json:"provides"`
	// Catalogs names, sorted, the catalogs in which a bundle of the
	// package provides API.
	Catalogs []string `json:"catalogs"`
}

// APIPackages returns, for every API that match accepts and some bundle
// provides (olm.gvk), each package providing it with the bundle a
// ClusterExtension naming only the package would install; sorted by API,
// then package.
func (r *Resolver) APIPackages(match func(graph.GVK) bool) []APIPackage {
	type key struct {
		api graph.GVK
		pkg string
	}
	cats := map[key][]string{}
	for i := range r.catalogs {
		c := &r.catalogs[i]
		if c.Content == nil {
			continue
		}
		for _, p := range c.Content.Packages() {
			for _, b := range p.Bundles {
				for _, g := range b.Provides {
					if !match(g) {
						continue
					}
					k := key{g, p.Name}
					if !slices.Contains(cats[k], c.Name) {
						cats[k] = append(cats[k], c.Name)
					}
				}
			}
		}
	}
	out := make([]APIPackage, 0, len(cats))
	for k, names := range cats {
		slices.Sort(names)
		p := APIPackage{API: k.api, Package: k.pkg, Catalogs: names}
		b, cat, err := r.Choose(&cluster.ClusterExtension{Package: k.pkg}, nil)
		if err != nil {
			p.Error = err.Error()
			var v1err *Error
			if errors.As(err, &v1err) {
				p.ErrorKind = v1err.Kind
			}
		} else {
			p.Bundle, p.Catalog, p.Provides = b.Name, cat, slices.Contains(b.Provides, k.api)
			f := r.packageFacts(r.packageIn(cat, k.pkg))
			if i := slices.Index(r.packageIn(cat, k.pkg).Bundles, b); i >= 0 {
				p.Version, _ = f[i].vr.recorded(r.opts.BundleRelease)
			}
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b APIPackage) int { return cmp.Or(a.API.Compare(b.API), cmp.Compare(a.Package, b.Package)) })
	return out
}

// packageIn returns package pkg of catalog name.
func (r *Resolver) packageIn(name, pkg string) *graph.Package {
	for i := range r.catalogs {
		if r.catalogs[i].Name == name {
			return r.catalogs[i].Content.Package(pkg)
		}
	}
	return nil
}

// WriteAPIPackagesText writes providers, one line per package and API:
//
//	API: package P → BUNDLE VERSION (catalog C), which provides it
//
// or "…, which no longer provides it", or "…: error: MESSAGE"; nothing
// found is "nothing provides QUERY".
func WriteAPIPackagesText(w io.Writer, query string, providers []APIPackage) error {
	bw := bufio.NewWriter(w)
	if len(providers) == 0 {
		fmt.Fprintf(bw, "nothing provides %s\n", query)
	}
	for _, p := range providers {
		fmt.Fprintf(bw, "%s: package %s", p.API, p.Package)
		switch {
		case p.Error != "":
			fmt.Fprintf(bw, ": a ClusterExtension fails: %s\n", p.Error)
		case p.Provides:
			fmt.Fprintf(bw, " → a ClusterExtension installs %s %s (catalog %s), which provides it\n", p.Bundle, p.Version, p.Catalog)
		default:
			fmt.Fprintf(bw, " → a ClusterExtension installs %s %s (catalog %s), which does not provide it (older bundles do)\n", p.Bundle, p.Version, p.Catalog)
		}
	}
	return bw.Flush()
}
