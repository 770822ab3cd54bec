package check

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/golden"
	"github.com/sextantdev/sextant/internal/txtar"
	"github.com/sextantdev/sextant/registryv1"
)

// TestCRDCases runs the crds check on each case of testdata/crds: a
// catalog (catalog.yaml), bundle folders under bundles/, and want, what
// the check finds — each finding with its edge, CRD and whole message, the
// summary, then the text and Markdown reports (-update rewrites it).
func TestCRDCases(t *testing.T) {
	files, _ := filepath.Glob("testdata/crds/*.txtar")
	for i, f := range files {
		abs, err := filepath.Abs(f) // the case runs in a folder of its own
		if err != nil {
			t.Fatal(err)
		}
		files[i] = abs
	}
	if len(files) == 0 {
		t.Fatal("no cases")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			a := txtar.Parse(data)
			dir := t.TempDir()
			t.Chdir(dir) // the paths of the report are relative
			for _, f := range a.Files {
				if f.Name == "want" {
					continue
				}
				p := filepath.Join(dir, filepath.FromSlash(f.Name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got := runCRDCase(t)
			if *update {
				a.Set("want", []byte(got))
				golden.Check(t, file, txtar.Format(a), true)
				return
			}
			want, _ := a.Get("want")
			if d, ok := golden.FirstDiff(want, []byte(got)); ok {
				t.Errorf("%s differs (-update rewrites it):\n%s", file, d)
			}
		})
	}
}

// runCRDCase checks the case written in the current folder and describes
// the report.
func runCRDCase(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	cat, err := graph.Load("catalog.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var set *registryv1.Set
	if _, err := os.Stat("bundles"); err == nil {
		if set, err = (registryv1.Loader{}).ReadDirs(ctx, "bundles"); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := Run(ctx, []Input{{Name: "catalog.yaml", Catalog: cat}}, Options{Checks: []Check{CRDs}, Bundles: set})
	if err != nil {
		t.Fatal(err)
	}
	checkBriefs(t, rep.Findings)
	var w strings.Builder
	if set != nil {
		for _, p := range set.Problems {
			fmt.Fprintf(&w, "problem %s\n", p)
		}
	}
	for _, f := range rep.Findings {
		fmt.Fprintf(&w, "%s %s %s %s from %q crd %q\n", f.Severity, f.Code, f.Package, f.Bundle, f.From, f.CRD)
		fmt.Fprintf(&w, "  brief: %s\n", f.Brief)
		for _, l := range strings.Split(f.Message, "\n") {
			fmt.Fprintf(&w, "  | %s\n", l)
		}
	}
	if s := rep.Catalogs[0].CRDs; s != nil {
		fmt.Fprintf(&w, "%s\n", strings.Join(s.describe(), "\n"))
	}
	w.WriteString("--- text\n")
	if err := rep.WriteText(&w, TextOptions{Width: 120}); err != nil {
		t.Fatal(err)
	}
	w.WriteString("--- markdown\n")
	if err := rep.WriteMarkdown(&w); err != nil {
		t.Fatal(err)
	}
	return w.String()
}

// TestCRDSARIF: in SARIF a CRD change refused on several upgrade edges is
// one result naming them (property upgrades), a change on one edge a
// result of its own with from and crd; the message is bounded, whole in
// the JSON report.
func TestCRDSARIF(t *testing.T) {
	data, err := os.ReadFile("testdata/crds/edges.txtar")
	if err != nil {
		t.Fatal(err)
	}
	a := txtar.Parse(data)
	dir := t.TempDir()
	for _, f := range a.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, f.Data, 0o644)
	}
	t.Chdir(dir)
	ctx := context.Background()
	cat, err := graph.Load("catalog.yaml")
	if err != nil {
		t.Fatal(err)
	}
	set, err := registryv1.Loader{}.ReadDirs(ctx, "bundles")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(ctx, []Input{{Name: "catalog.yaml", Catalog: cat}}, Options{Checks: []Check{CRDs}, Bundles: set})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := rep.WriteSARIF(&b, SARIFOptions{}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID     string `json:"ruleId"`
				Message    struct{ Text string }
				Properties struct {
					From, CRD string
					Upgrades  []Upgrade
				}
				Locations []struct {
					LogicalLocations []struct{ FullyQualifiedName string }
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(b.String()), &log); err != nil {
		t.Fatal(err)
	}
	rs := log.Runs[0].Results
	if len(rs) != 2 {
		t.Fatalf("%d results, want 2 (one edge, one group of three):\n%s", len(rs), b.String())
	}
	if r := rs[0]; r.Properties.From != "widgets.v1.0.0" || r.Properties.CRD != "widgets.example.com" || len(r.Properties.Upgrades) != 0 {
		t.Errorf("first result %+v", r)
	}
	r := rs[1]
	want := []Upgrade{{"widgets.v1.0.0", "widgets.v2.0.0"}, {"widgets.v1.1.0", "widgets.v2.0.0"}, {"widgets.v1.2.0", "widgets.v2.0.0"}}
	if !slices.Equal(r.Properties.Upgrades, want) || !strings.HasSuffix(r.Message.Text, "on 3 upgrades: v1.0.0 → v2.0.0, v1.1.0 → v2.0.0, v1.2.0 → v2.0.0") ||
		r.Locations[0].LogicalLocations[0].FullyQualifiedName != "catalog.yaml/widgets/widgets.example.com" {
		t.Errorf("group result %+v", r)
	}
	long := strings.Repeat("v1: ^.spec.x: unhandled: unhandled changes found\n", 100)
	if got := sarifMessageText(long); strings.Count(got, "\n") != sarifLines || !strings.Contains(got, "and 61 more lines") {
		t.Errorf("bounded message:\n%s", got)
	}
}
