package check

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/registryv1"
)

// BenchmarkCheckCommunityDeclared sweeps community-operators-prod.declared
// (328 packages, 6,625 bundles) with every check; the catalog is decoded
// once, outside the loop.
func BenchmarkCheckCommunityDeclared(b *testing.B) {
	benchShipped(b, "community-operators-prod.declared")
}

// BenchmarkCheckCertifiedDeclared is the same sweep on
// certified-operators.declared (295 packages, 4,720 bundles, long skips
// lists).
func BenchmarkCheckCertifiedDeclared(b *testing.B) {
	benchShipped(b, "certified-operators.declared")
}

func benchShipped(b *testing.B, name string) {
	cat := loadShipped(b, name)
	in := []Input{{Name: name, Catalog: cat}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(b.Context(), in, Options{CEL: testCEL}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInstallEveryBundleCommunityDeclared resolves every bundle of
// community-operators-prod.declared through the resolver, without the fast
// path for requirement-free bundles: the cost the fast path saves.
func BenchmarkInstallEveryBundleCommunityDeclared(b *testing.B) {
	name := "community-operators-prod.declared"
	in := []Input{{Name: name, Catalog: loadShipped(b, name)}}
	opts := Options{CEL: testCEL, Checks: []Check{Installability}, resolveAll: true}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(b.Context(), in, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBaselineCommunityIndexVsDeclared is the catalog-CI comparison on
// real data: every check of the community index and of the declared
// catalog it is built from (the baseline), the new/existing marking and the
// regressions. Both catalogs are decoded once, outside the loop.
func BenchmarkBaselineCommunityIndexVsDeclared(b *testing.B) {
	old := loadShipped(b, "community-operators-prod.declared")
	cur := loadShipped(b, "community-operators-prod.v4.20-index")
	in := []Input{{Name: "community", Catalog: cur}}
	opts := Options{CEL: testCEL, Baseline: []Input{{Name: "community", Catalog: old}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(b.Context(), in, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// skipRangeAll returns a catalog of one package whose channel has n entries,
// each replacing the one before and with a skipRange containing every
// earlier version: the n·(n-1)/2 implied upgrade edges a check must not
// walk one at a time.
func skipRangeAll(tb testing.TB, n int) *graph.Catalog {
	tb.Helper()
	var b bytes.Buffer
	b.WriteString(`{"schema":"olm.package","name":"big","defaultChannel":"stable"}` + "\n")
	b.WriteString(`{"schema":"olm.channel","package":"big","name":"stable","entries":[`)
	for i := range n {
		if i > 0 {
			fmt.Fprintf(&b, `,{"name":"big.v0.%d.0","replaces":"big.v0.%d.0","skipRange":"<0.%d.0"}`, i, i-1, i)
		} else {
			b.WriteString(`{"name":"big.v0.0.0"}`)
		}
	}
	b.WriteString("]}\n")
	for i := range n {
		fmt.Fprintf(&b, `{"schema":"olm.bundle","name":"big.v0.%d.0","package":"big","image":"x/big:0.%d.0","properties":[{"type":"olm.package","value":{"packageName":"big","version":"0.%d.0"}},{"type":"olm.gvk","value":{"group":"x.io","kind":"Big","version":"v1"}}]}`+"\n", i, i, i)
	}
	cat, err := graph.Decode(&b, "skiprange-all.json")
	if err != nil {
		tb.Fatal(err)
	}
	return cat
}

// BenchmarkCheckSkipRangeAll checks one channel of 2,000 entries that each
// skipRange all earlier ones (about two million implied edges) with every
// check; the catalog is decoded once, outside the loop.
func BenchmarkCheckSkipRangeAll(b *testing.B) {
	for _, n := range []int{2000, 20000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			in := []Input{{Name: "big", Catalog: skipRangeAll(b, n)}}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Run(b.Context(), in, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCheckCRDs runs the crds check as `sextant check --bundles`
// does on the fixture of testdata/cli/crds (one package, six bundle
// folders, a skipRange): the folders read and every edge's CRDs compared
// in each op. The whole community index with every bundle folder of
// community-operators-prod is measured in BENCHMARKS.md.
func BenchmarkCheckCRDs(b *testing.B) {
	cat, err := graph.LoadFile(filepath.Join("..", "testdata", "cli", "crds", "catalog.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	in := []Input{{Name: "crds", Catalog: cat}}
	b.ReportAllocs()
	for b.Loop() {
		set, err := registryv1.Loader{}.ReadDirs(b.Context(), filepath.Join("..", "testdata", "cli", "crds", "bundles"))
		if err != nil {
			b.Fatal(err)
		}
		r, err := Run(b.Context(), in, Options{Checks: []Check{CRDs}, Bundles: set})
		if err != nil {
			b.Fatal(err)
		}
		if c := r.Catalogs[0].CRDs; c == nil || c.Unsafe == 0 {
			b.Fatalf("no unsafe CRD pair found: %+v", c)
		}
	}
}
