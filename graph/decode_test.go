package graph

import (
	"bytes"
	"testing"
)

// shippedCatalogs are the real catalogs of testdata/catalogs with the counts
// SOURCES.md states for them.
var shippedCatalogs = []struct {
	file                        string
	packages, channels, bundles int
	entries, replaces, skips    int
	skipRanges                  int
	deps, pkgDeps, gvkDeps      int
}{
	{"community-operators-prod.v4.20-index.json.gz", 315, 533, 5624, 7693, 7189, 443, 1075, 166, 116, 61},
	{"community-operators-prod.declared.json.gz", 328, 623, 6625, 8552, 7856, 654, 1182, 175, 119, 67},
	{"certified-operators.v4.20-index.json.gz", 245, 531, 1683, 2477, 1428, 2826, 557, 82, 48, 43},
	{"certified-operators.declared.json.gz", 295, 756, 4720, 6092, 2096, 13525, 2454, 171, 83, 98},
}

func TestLoadShippedCatalogs(t *testing.T) {
	for _, tc := range shippedCatalogs {
		t.Run(tc.file, func(t *testing.T) {
			if testing.Short() && tc.file != shippedCatalogs[0].file {
				t.Skip("short")
			}
			c, err := Decode(bytes.NewReader(readGz(t, tc.file)), tc.file)
			if err != nil {
				t.Fatal(err)
			}
			var channels, bundles, entries, replaces, skips, skipRanges, deps, pkgDeps, gvkDeps int
			for _, p := range c.Packages() {
				channels += len(p.Channels)
				bundles += len(p.Bundles)
				for _, ch := range p.Channels {
					entries += len(ch.Entries)
					for _, e := range ch.Entries {
						if e.Replaces != "" {
							replaces++
						}
						skips += len(e.Skips)
						if e.SkipRange.String() != "" {
							skipRanges++
						}
					}
				}
				for _, b := range p.Bundles {
					if len(b.RequiresPackage) > 0 || len(b.RequiresGVK) > 0 {
						deps++
					}
					if len(b.RequiresPackage) > 0 {
						pkgDeps++
					}
					if len(b.RequiresGVK) > 0 {
						gvkDeps++
					}
				}
			}
			if replaces != tc.replaces || skips != tc.skips || skipRanges != tc.skipRanges {
				t.Errorf("replaces, skips, skipRanges = %d, %d, %d; want %d, %d, %d",
					replaces, skips, skipRanges, tc.replaces, tc.skips, tc.skipRanges)
			}
			if deps != tc.deps || pkgDeps != tc.pkgDeps || gvkDeps != tc.gvkDeps {
				t.Errorf("bundles with deps = %d (%d pkg, %d gvk), want %d (%d, %d)",
					deps, pkgDeps, gvkDeps, tc.deps, tc.pkgDeps, tc.gvkDeps)
			}
			if got := len(c.Packages()); got != tc.packages {
				t.Errorf("packages = %d, want %d", got, tc.packages)
			}
			if channels != tc.channels || bundles != tc.bundles || entries != tc.entries {
				t.Errorf("channels, bundles, entries = %d, %d, %d; want %d, %d, %d",
					channels, bundles, entries, tc.channels, tc.bundles, tc.entries)
			}
		})
	}
}
