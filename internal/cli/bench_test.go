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

// BenchmarkResolveCommand runs the README's examples end to end (the first
// predicts a failure: exit 1) and the 20-subscription scenario:
// loading the community catalog (v4.20 index) and the manifests, resolving,
// and printing the plan — or, for the conflict, the explanation with its
// re-solved suggestions.
func BenchmarkResolveCommand(b *testing.B) {
	const catalog = "testdata/catalogs/community-operators-prod.v4.20-index.json.gz"
	for _, bc := range []struct {
		name, manifests string
		code            int
		catalogName     string
	}{
		{name: "plan", manifests: "testdata/examples/cluster.yaml", code: ExitNo},
		{name: "conflict", manifests: "testdata/examples/conflict.yaml", code: ExitNo},
		{name: "twenty", manifests: "testdata/examples/twenty-subscriptions.yaml", code: ExitOK, catalogName: "community="},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if code := Run(context.Background(), []string{"resolve", "--catalog", bc.catalogName + catalog, "-f", bc.manifests}, strings.NewReader(""), io.Discard, io.Discard); code != bc.code {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}
