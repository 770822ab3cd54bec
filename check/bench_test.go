package check

import (
	"testing"
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
		if _, err := Run(b.Context(), in, Options{}); err != nil {
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
	opts := Options{Checks: []Check{Installability}, resolveAll: true}
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
	opts := Options{Baseline: []Input{{Name: "community", Catalog: old}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(b.Context(), in, opts); err != nil {
			b.Fatal(err)
		}
	}
}
