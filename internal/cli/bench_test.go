package cli

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/graph"
)

// BenchmarkCheckCommand runs `sextant check -o json` on the community
// catalog end to end: loading, every check, JSON output.
func BenchmarkCheckCommand(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if code := Run(context.Background(), []string{"check", "-o", "json", communityCatalog}, strings.NewReader(""), io.Discard, io.Discard); code != ExitNo {
			b.Fatalf("exit %d", code)
		}
	}
}

// BenchmarkGraphAllPackages draws every package of the community catalog
// (loaded once) in each format.
func BenchmarkGraphAllPackages(b *testing.B) {
	cat, err := graph.Load(communityCatalog)
	if err != nil {
		b.Fatal(err)
	}
	for _, format := range []struct {
		name  string
		write func(io.Writer, *graphView)
	}{{"text", writeGraphText}, {"mermaid", writeMermaid}, {"dot", writeDot}} {
		b.Run(format.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, p := range cat.Packages() {
					v, err := buildGraphView(cat, communityCatalog, p.Name, "")
					if err != nil {
						b.Fatal(err)
					}
					format.write(io.Discard, v)
				}
			}
		})
	}
}
