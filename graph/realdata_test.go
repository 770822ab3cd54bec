package graph

import (
	"bufio"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/internal/testcatalog"
)

// catalogs are the real catalogs shipped in testdata, by short name.
var catalogs = []string{
	"community-operators-prod.v4.20-index",
	"community-operators-prod.declared",
	"certified-operators.v4.20-index",
	"certified-operators.declared",
}

func catalogPath(name string) string {
	return filepath.Join("..", "testdata", "catalogs", name+".json.gz")
}

// opmRejected reads the packages opm validate rejected from
// <name>.opm-validate.txt.gz: the lines "PKG <name> INVALID:".
func opmRejected(t *testing.T, name string) []string {
	t.Helper()
	var pkgs []string
	sc := bufio.NewScanner(testcatalog.Open(t, name+".opm-validate.txt.gz"))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "PKG "); ok {
			if name, ok := strings.CutSuffix(rest, " INVALID:"); ok {
				pkgs = append(pkgs, name)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(pkgs)
	return pkgs
}

// rejected returns the packages with at least one error finding, sorted.
func rejected(fs []Finding) []string {
	var pkgs []string
	for _, f := range fs {
		if f.Severity == SeverityError && (len(pkgs) == 0 || pkgs[len(pkgs)-1] != f.Package) {
			pkgs = append(pkgs, f.Package)
		}
	}
	return pkgs
}

// TestValidateAgreesWithOpm checks that Validate rejects exactly the packages
// opm validate rejected in the two declared catalogs, and nothing in the two
// index catalogs.
func TestValidateAgreesWithOpm(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the real catalogs")
	}
	for _, name := range catalogs {
		t.Run(name, func(t *testing.T) {
			cat, err := LoadFile(catalogPath(name))
			if err != nil {
				t.Fatal(err)
			}
			got := rejected(cat.Validate())
			var want []string
			if strings.HasSuffix(name, ".declared") {
				want = opmRejected(t, name)
			}
			if !slices.Equal(got, want) {
				extra, missing := diffSorted(got, want)
				t.Errorf("%d packages rejected, opm %d\nonly Sextant: %q\nonly opm: %q", len(got), len(want), extra, missing)
			}
		})
	}
}

// diffSorted returns the elements only in a and only in b.
func diffSorted(a, b []string) (onlyA, onlyB []string) {
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			onlyA = append(onlyA, x)
		}
	}
	for _, x := range b {
		if _, ok := slices.BinarySearch(a, x); !ok {
			onlyB = append(onlyB, x)
		}
	}
	return
}
