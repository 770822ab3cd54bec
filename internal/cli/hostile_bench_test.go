package cli

import (
	"fmt"
	"io"
	"testing"

	"github.com/sextantdev/sextant/graph"
)

// wideCatalog builds a package "p" whose one channel has n entries, each
// replacing the one before it and, with skipRanges, skipping every lower
// version: n²/2 skipRange edges.
func wideCatalog(tb testing.TB, n int, skipRanges bool) *graph.Catalog {
	tb.Helper()
	b := graph.NewBuilder()
	b.AddPackage("p", "stable")
	entries := make([]graph.Entry, n)
	for i := range n {
		name := fmt.Sprintf("p.v1.%d.0", i)
		entries[i].Name = name
		if i > 0 {
			entries[i].Replaces = fmt.Sprintf("p.v1.%d.0", i-1)
			if skipRanges {
				r, err := graph.ParseRange(fmt.Sprintf(">=1.0.0 <1.%d.0", i))
				if err != nil {
					tb.Fatal(err)
				}
				entries[i].SkipRange = r
			}
		}
		if err := b.AddBundle(name, "p", "img", graph.PackageProperty("p", fmt.Sprintf("1.%d.0", i))); err != nil {
			tb.Fatal(err)
		}
	}
	b.AddChannel("p", "stable", entries...)
	cat, err := b.Build()
	if err != nil {
		tb.Fatal(err)
	}
	return cat
}

// BenchmarkGraphHostile draws the two shapes of the hostile-input table at
// two sizes each, in every format: a channel where every entry's skipRange
// covers all lower versions (n²/2 edges; diagrams switch to labels), and a
// long replaces chain. The large sizes are skipped with -short.
func BenchmarkGraphHostile(b *testing.B) {
	for _, shape := range []struct {
		name       string
		skipRanges bool
		sizes      []int
	}{{"skipRange", true, []int{1000, 2000}}, {"chain", false, []int{10000, 100000}}} {
		for i, n := range shape.sizes {
			if i > 0 && testing.Short() {
				continue
			}
			cat := wideCatalog(b, n, shape.skipRanges)
			for _, format := range []struct {
				name  string
				write func(io.Writer, *graphView)
			}{{"text", writeGraphText}, {"mermaid", writeMermaid}, {"dot", writeDot}} {
				b.Run(fmt.Sprintf("%s/%d/%s", shape.name, n, format.name), func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						v, err := buildGraphView(cat, "c", "p", "")
						if err != nil {
							b.Fatal(err)
						}
						if format.name != "text" {
							v.SkipRangeLabels = v.diagramEdges() > maxDiagramEdges
						}
						format.write(io.Discard, v)
					}
				})
			}
		}
	}
}
