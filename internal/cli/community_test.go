package cli

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

const communityCatalog = "testdata/catalogs/community-operators-prod.declared.json.gz"

// TestCheckCommunity checks the real community catalog end to end: the
// whole text output is golden (testdata/cli/community.check.txt), and the
// packages with error findings in the JSON output are exactly those
// operator-registry rejects.
func TestCheckCommunity(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a 16 MB catalog")
	}
	stdout, stderr, code := run("", "check", communityCatalog)
	if code != ExitNo || stderr != "" {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, ExitNo, stderr)
	}
	golden(t, filepath.Join("testdata", "cli", "community.check.txt"), stdout)

	// The packages with an error are those opm validate rejects.
	stdout, _, code = run("", "check", "-o", "json", communityCatalog)
	if code != ExitNo {
		t.Fatalf("-o json: exit %d", code)
	}
	var report struct {
		Catalogs []struct {
			Findings []struct{ Severity, Package string }
			Summary  struct{ Error, Warning, Info int }
		}
	}
	if err := json.Unmarshal([]byte(stdout), &report); err != nil {
		t.Fatal(err)
	}
	var failing []string
	for _, f := range report.Catalogs[0].Findings {
		if f.Severity == "error" && !slices.Contains(failing, f.Package) {
			failing = append(failing, f.Package)
		}
	}
	want := problemPackages(t)
	if !slices.Equal(failing, want) {
		t.Errorf("packages with errors:\n%q\nopm rejects:\n%q", failing, want)
	}
}

// problemPackages reads the packages operator-registry rejects from the
// catalog's companion problems file, sorted.
func problemPackages(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("testdata/catalogs/community-operators-prod.declared.problems.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		PackagesFailing []string `json:"packages_failing"`
	}
	if err := json.NewDecoder(zr).Decode(&p); err != nil {
		t.Fatal(err)
	}
	slices.Sort(p.PackagesFailing)
	return p.PackagesFailing
}

// golden compares got with the file, or rewrites it with -update.
func golden(t *testing.T, file, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run with -update to accept)\n--- got ---\n%s--- want ---\n%s", file, got, want)
	}
}
