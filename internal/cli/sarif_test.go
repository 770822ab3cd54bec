package cli

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSARIFFromAnyFolder: in a git repository, check -o sarif names every
// file relative to the repository's top (uriBaseId %SRCROOT%, which
// originalUriBaseIds sets to the top's file: URI) — results, the stale
// suppression and the suppressions of the .sextant.yaml at the top alike
// — so that the log is the same byte for byte whether check runs at the
// top, in the catalog's folder or elsewhere with an absolute path; with a
// baseline from git, the baseline's positions too.
func TestSARIFFromAnyFolder(t *testing.T) {
	dir := gitRepo(t)
	config := "suppressions:\n" +
		"  - code: dangling-replaces\n    package: etcd\n    reason: the nightly and minor streams start fresh on purpose\n" +
		"  - code: cycle\n    package: etcd\n    reason: gone long ago\n"
	if err := os.WriteFile(filepath.Join(dir, ".sextant.yaml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	catalog := filepath.Join(dir, "catalog")
	outside := t.TempDir()
	for _, baseline := range []string{"", "git:HEAD~1"} {
		var first string
		for _, tc := range []struct{ name, wd, catalog string }{
			{"top", dir, "catalog"},
			{"subfolder", catalog, "."},
			{"absolute", outside, catalog},
		} {
			t.Run(tc.name+" "+baseline, func(t *testing.T) {
				t.Chdir(tc.wd)
				args := []string{"check", "-o", "sarif", tc.catalog}
				if baseline != "" {
					args = append(args, "--baseline", baseline)
				}
				out, errOut, code := run("", args...)
				if want := map[bool]int{false: 0, true: 1}[baseline != ""]; code != want {
					t.Fatalf("exit %d, stderr %q", code, errOut)
				}
				// The suppressions file found is named from the folder
				// check runs in.
				note := map[string]string{"top": ".sextant.yaml", "subfolder": filepath.Join(dir, ".sextant.yaml"), "absolute": filepath.Join(dir, ".sextant.yaml")}[tc.name]
				if want := "sextant check: note: suppressions: " + note + "\n"; !strings.HasPrefix(errOut, want) {
					t.Errorf("stderr %q, want it to start with %q", errOut, want)
				}
				if first == "" {
					first = out
					checkRootRelative(t, out, dir, baseline != "")
				} else if out != first {
					t.Errorf("SARIF log differs from the one written at the top:\n got %s\nwant %s", out, first)
				}
			})
		}
	}
}

// checkRootRelative checks that every artifact location of a SARIF log is
// a path relative to %SRCROOT%, which is top; that the suppressions file,
// suppressed findings and (with a baseline) absent results are among
// them; and that the tool's version is set.
func checkRootRelative(t *testing.T, out, top string, baseline bool) {
	t.Helper()
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Version string `json:"version"`
				} `json:"driver"`
			} `json:"tool"`
			OriginalURIBaseIDs map[string]struct {
				URI string `json:"uri"`
			} `json:"originalUriBaseIds"`
			Results []struct {
				RuleID        string          `json:"ruleId"`
				BaselineState string          `json:"baselineState"`
				Locations     []sarifLocation `json:"locations"`
				Suppressions  []struct {
					Location sarifLocation `json:"location"`
				} `json:"suppressions"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if run.Tool.Driver.Version == "" {
		t.Error("no tool.driver.version")
	}
	want := (&url.URL{Scheme: "file", Path: filepath.ToSlash(top) + "/"}).String()
	if got := run.OriginalURIBaseIDs["%SRCROOT%"].URI; got != want {
		t.Errorf("originalUriBaseIds %%SRCROOT%% is %q, want %q", got, want)
	}
	seen := map[string]bool{}
	locate := func(what string, l sarifLocation) {
		a := l.PhysicalLocation.ArtifactLocation
		if a.URIBaseID != "%SRCROOT%" || (a.URI != "catalog/etcd.yaml" && a.URI != ".sextant.yaml") {
			t.Errorf("%s at %q (base %q), want catalog/etcd.yaml or .sextant.yaml under %%SRCROOT%%", what, a.URI, a.URIBaseID)
		}
	}
	for _, r := range run.Results {
		locate(r.RuleID, r.Locations[0])
		seen[r.RuleID+" "+r.BaselineState] = true
		for _, s := range r.Suppressions {
			locate(r.RuleID+"'s suppression", s.Location)
			seen["suppressed"] = true
		}
	}
	for _, w := range []string{"stale-suppression", "suppressed", "absent"} {
		found := false
		for k := range seen {
			found = found || strings.Contains(k, w)
		}
		if !found && (w != "absent" || baseline) {
			t.Errorf("no %s result in %v", w, seen)
		}
	}
}

// sarifLocation is the part of a SARIF location checkRootRelative reads.
type sarifLocation struct {
	PhysicalLocation struct {
		ArtifactLocation struct {
			URI       string `json:"uri"`
			URIBaseID string `json:"uriBaseId"`
		} `json:"artifactLocation"`
	} `json:"physicalLocation"`
}
