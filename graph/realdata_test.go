package graph

import (
	"bufio"
	"slices"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/internal/testcatalog"
)

func catalogPath(tb testing.TB, name string) string {
	return testcatalog.Path(tb, name+".json.gz")
}

// forEachShipped runs f in a subtest per catalog of shippedCatalogs, named
// by its short name (its file without ".json.gz"), on the catalog as
// LoadFile loads it. With -short only the first inShort catalogs are read
// (each takes a second or more).
func forEachShipped(t *testing.T, inShort int, f func(t *testing.T, sc shippedCatalog, cat *Catalog)) {
	t.Helper()
	if testing.Short() && inShort == 0 {
		t.Skip("loads the real catalogs")
	}
	for i, sc := range shippedCatalogs {
		t.Run(sc.name(), func(t *testing.T) {
			if testing.Short() && i >= inShort {
				t.Skip("loads a real catalog")
			}
			cat, err := LoadFile(catalogPath(t, sc.name()))
			if err != nil {
				t.Fatal(err)
			}
			f(t, sc, cat)
		})
	}
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
	forEachShipped(t, 0, func(t *testing.T, sc shippedCatalog, cat *Catalog) {
		got := rejected(cat.Validate())
		var want []string
		if strings.HasSuffix(sc.name(), ".declared") {
			want = opmRejected(t, sc.name())
		}
		if !slices.Equal(got, want) {
			extra, missing := diffSorted(got, want)
			t.Errorf("%d packages rejected, opm %d\nonly Sextant: %q\nonly opm: %q", len(got), len(want), extra, missing)
		}
	})
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
