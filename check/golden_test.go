package check

import (
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// shipped are the real catalogs of testdata/catalogs, by base name.
var shipped = []string{
	"community-operators-prod.v4.20-index",
	"community-operators-prod.declared",
	"certified-operators.v4.20-index",
	"certified-operators.declared",
}

func loadShipped(t testing.TB, name string) *graph.Catalog {
	t.Helper()
	cat, err := graph.LoadFile(filepath.Join("..", "testdata", "catalogs", name+".json.gz"))
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	return cat
}

// structuralCodes are the codes graph.Validate reports; their golden
// listing leaves out the message, which the graph package's own tests pin.
func isStructural(code string) bool {
	return !slices.Contains([]string{
		CodeNoUpgradePath, CodeDowngradeEdge, CodeSkipRangeMatchesNothing, CodeCrossPackageEdge,
		CodeDefaultChannelDeprecated, CodeDefaultChannelHeadDeprecated, CodeSatisfiedByOtherCatalog, CodeAPIDroppedOnUpgrade,
	}, code) && !isInstallCode(code) && !IsRegression(code)
}

// goldenText renders a report for the golden files: the counts per code,
// the upgrade path statistics summed over the catalog, and one line per
// finding (with its message, except for structural findings).
func goldenText(rep *Report) string {
	var b strings.Builder
	for _, s := range rep.Catalogs {
		fmt.Fprintf(&b, "catalog %s: %d packages, %d channels, %d bundles\n", s.Name, s.Packages, s.Channels, s.Bundles)
		for _, c := range s.Counts {
			fmt.Fprintf(&b, "count %s %s %d\n", c.Severity.String(), c.Code, c.Count)
		}
		var entries, stranded int
		hops := map[int]int{}
		maxHops := 0
		for _, p := range rep.Paths {
			if p.Catalog != s.Name {
				continue
			}
			entries += p.Entries
			stranded += p.Stranded
			for _, l := range p.Lengths {
				hops[l.Hops] += l.Count
			}
			maxHops = max(maxHops, p.MaxHops())
		}
		if entries == 0 {
			continue
		}
		fmt.Fprintf(&b, "paths: %d entries, %d stranded, hops:", entries, stranded)
		for h := 1; h <= maxHops; h++ {
			if hops[h] > 0 {
				fmt.Fprintf(&b, " %d:%d", h, hops[h])
			}
		}
		b.WriteString("\n")
	}
	for _, f := range rep.Findings {
		fmt.Fprintf(&b, "%s %s %s", f.Severity.String(), f.Code, f.Package)
		if f.Channel != "" {
			fmt.Fprintf(&b, "/%s", f.Channel)
		}
		if f.Bundle != "" {
			fmt.Fprintf(&b, " %s", f.Bundle)
		}
		if !isStructural(f.Code) {
			fmt.Fprintf(&b, ": %s", f.Message)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	golden.Check(t, path, got, *update)
}

// TestGoldenShipped runs every check on each shipped catalog and compares
// the findings with testdata/golden/<catalog>.txt.
func TestGoldenShipped(t *testing.T) {
	for _, name := range shipped {
		t.Run(name, func(t *testing.T) {
			if testing.Short() && strings.HasSuffix(name, ".declared") {
				t.Skip("large declared catalog: skipped in -short mode")
			}
			cat := loadShipped(t, name)
			rep, err := Run(t.Context(), []Input{{Name: name, Catalog: cat}}, Options{CEL: testCEL})
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, filepath.Join("testdata", "golden", name+".txt"), []byte(goldenText(rep)))
		})
	}
}

// TestGoldenShippedText pins the text report of the index catalogs as
// `sextant check` prints it (testdata/golden/<catalog>.text.txt): the
// briefs on real data, at the width of the short form.
func TestGoldenShippedText(t *testing.T) {
	for _, name := range shipped {
		if strings.HasSuffix(name, ".declared") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("..", "testdata", "catalogs", name+".json.gz")
			rep, err := Run(t.Context(), []Input{{Name: path, Catalog: loadShipped(t, name)}}, Options{CEL: testCEL})
			if err != nil {
				t.Fatal(err)
			}
			reports, err := rep.ByCatalog()
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if err := reports.WriteText(&b, TextOptions{}); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, filepath.Join("testdata", "golden", name+".text.txt"), []byte(b.String()))
		})
	}
}

// TestGoldenTwoCatalogs checks the two declared catalogs together with the
// Catalogs check: the requirements that only the other catalog meets.
func TestGoldenTwoCatalogs(t *testing.T) {
	if testing.Short() {
		t.Skip("large declared catalogs: skipped in -short mode")
	}
	var ins []Input
	for _, name := range []string{"community-operators-prod.declared", "certified-operators.declared"} {
		ins = append(ins, Input{Name: name, Catalog: loadShipped(t, name)})
	}
	rep, err := Run(t.Context(), ins, Options{CEL: testCEL, Checks: []Check{Catalogs}})
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, filepath.Join("testdata", "golden", "declared-pair.catalogs.txt"), []byte(goldenText(rep)))
}
