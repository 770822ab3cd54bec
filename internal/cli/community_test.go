package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	goldenfile "github.com/sextantdev/sextant/internal/golden"
	"github.com/sextantdev/sextant/internal/testcatalog"

	"github.com/sextantdev/sextant/celrule"
	"github.com/sextantdev/sextant/check"
	"github.com/sextantdev/sextant/graph"
)

const communityCatalog = "testdata/catalogs/community-operators-prod.declared.json.gz"

// TestCheckCommunity checks the real community catalog end to end: the
// whole text output of the structural checks is golden
// (testdata/cli/community.check.txt); the packages with error findings are
// exactly those operator-registry rejects; and with every check, the JSON
// output carries exactly the findings of check.Run.
func TestCheckCommunity(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a 16 MB catalog")
	}
	stdout, stderr, code := run("", "check", "--check", "structural", communityCatalog)
	if code != ExitNo || stderr != "" {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, ExitNo, stderr)
	}
	golden(t, filepath.Join("testdata", "cli", "community.check.txt"), stdout)

	// The packages with a structural error are those opm validate rejects.
	var failing []string
	for _, f := range checkJSON(t, "--check", "structural").Findings {
		if f.Severity == graph.SeverityError && !slices.Contains(failing, f.Package) {
			failing = append(failing, f.Package)
		}
	}
	if want := problemPackages(t); !slices.Equal(failing, want) {
		t.Errorf("packages with errors:\n%q\nopm rejects:\n%q", failing, want)
	}

	// The command drops, adds and changes nothing.
	cat, err := graph.Load(communityCatalog)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := check.Run(context.Background(), []check.Input{{Name: communityCatalog, Catalog: cat}}, check.Options{CEL: celrule.New()})
	if err != nil {
		t.Fatal(err)
	}
	all := checkJSON(t)
	got := all.Findings
	if len(got) != len(rep.Findings) {
		t.Fatalf("%d findings in the JSON, check.Run has %d", len(got), len(rep.Findings))
	}
	var sum check.SeverityCounts
	for i, f := range rep.Findings {
		// The JSON finding is encoding/json of the library's, up to the
		// catalog's name (the CLI names a catalog by its path).
		f.Catalog = got[i].Catalog
		g, _ := json.Marshal(got[i])
		w, _ := json.Marshal(f)
		if !bytes.Equal(g, w) {
			t.Errorf("finding %d: got %s, want %s", i, g, w)
		}
		switch f.Severity {
		case graph.SeverityError:
			sum.Error++
		case graph.SeverityWarning:
			sum.Warning++
		default:
			sum.Info++
		}
	}
	if all.Summary != sum {
		t.Errorf("summary %+v, want %+v", all.Summary, sum)
	}
}

// catalogResult is one catalog of `check -o json`.
type catalogResult struct {
	Findings []check.Finding
	Summary  check.SeverityCounts
}

// checkJSON runs `sextant check -o json` with flags on the community catalog
// and returns its one catalog.
func checkJSON(t *testing.T, flags ...string) catalogResult {
	t.Helper()
	stdout, stderr, code := run("", append(append([]string{"check", "-o", "json"}, flags...), communityCatalog)...)
	if code != ExitNo {
		t.Fatalf("check -o json %q: exit %d, want %d; stderr:\n%s", flags, code, ExitNo, stderr)
	}
	var report struct{ Catalogs []catalogResult }
	if err := json.Unmarshal([]byte(stdout), &report); err != nil {
		t.Fatal(err)
	}
	if len(report.Catalogs) != 1 {
		t.Fatalf("%d catalogs in the report, want 1", len(report.Catalogs))
	}
	return report.Catalogs[0]
}

// problemPackages reads the packages operator-registry rejects from the
// catalog's companion problems file, sorted.
func problemPackages(t *testing.T) []string {
	t.Helper()
	var p struct {
		PackagesFailing []string `json:"packages_failing"`
	}
	zr := testcatalog.Open(t, "community-operators-prod.declared.problems.json.gz")
	if err := json.NewDecoder(zr).Decode(&p); err != nil {
		t.Fatal(err)
	}
	slices.Sort(p.PackagesFailing)
	return p.PackagesFailing
}

// golden compares got with the file, or rewrites it with -update.
func golden(t *testing.T, file, got string) {
	t.Helper()
	goldenfile.Check(t, file, []byte(got), *update)
}
