package resolver_test

import (
	"testing"

	"github.com/sextantdev/sextant/internal/testcatalog"
	"github.com/sextantdev/sextant/resolver"
)

// BenchmarkExplainCommunity resolves an unsatisfiable request on the
// community index and explains it, suggestions included (each re-solved),
// with the default options. The catalog is loaded and indexed outside the
// loop.
func BenchmarkExplainCommunity(b *testing.B) {
	r, st := communityConflict(b)
	b.ReportAllocs()
	defer testcatalog.ReportCPU(b)()
	for b.Loop() {
		ex := explainCommunity(b, r, st, resolver.ExplainOptions{Budget: -1})
		if len(ex.Suggestions) == 0 {
			b.Fatal("no suggestion")
		}
	}
}
