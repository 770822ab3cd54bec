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
