package catalogci

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/celrule"
	"github.com/sextantdev/sextant/check"
	"github.com/sextantdev/sextant/graph"
)

var (
	catalogPath  = flag.String("catalog", "testdata/good", "the catalog to check: an FBC folder or file")
	baselinePath = flag.String("baseline", "", "the catalog's previous version (for example the main branch's): fail only on what the change introduces")
	failOn       = flag.String("fail-on", "warning", "the least severity that fails the test: info, warning or error")
)

// TestCatalog fails when the catalog has findings of severity -fail-on or
// higher — with -baseline, only those the change from the baseline
// introduces: its regressions and the findings the baseline had not — and
// prints them grouped by package.
func TestCatalog(t *testing.T) {
	var min graph.Severity
	if err := min.UnmarshalText([]byte(*failOn)); err != nil {
		t.Fatal(err)
	}
	problems, err := checkCatalog(t.Context(), *catalogPath, *baselinePath, min)
	if err != nil {
		t.Fatal(err)
	}
	if problems != "" {
		t.Errorf("catalog %s is not consistent:\n\n%s", *catalogPath, problems)
	}
}

// checkCatalog loads the catalog at path, runs every check and returns the
// findings of severity min or higher as text ("" when there are none). With
// a baseline path, the catalog is compared with it and only the new
// findings count. An error means a catalog could not be read at all; each
// problem of a malformed catalog is then named with its file and line.
func checkCatalog(ctx context.Context, path, baseline string, min graph.Severity) (string, error) {
	cat, err := graph.Load(path)
	if err != nil {
		return "", fmt.Errorf("load catalog: %w", err)
	}
	name := filepath.Base(path)
	// cel rules of olm.constraint properties are evaluated as OLM does.
	opts := check.Options{CEL: celrule.New()}
	if baseline != "" {
		old, err := graph.Load(baseline)
		if err != nil {
			return "", fmt.Errorf("load baseline: %w", err)
		}
		// The baseline is matched to the catalog by name.
		opts.Baseline = []check.Input{{Name: name, Catalog: old}}
	}
	rep, err := check.Run(ctx, []check.Input{{Name: name, Catalog: cat}}, opts)
	if err != nil {
		return "", err
	}
	if baseline != "" {
		rep = rep.OnlyNew()
	}
	bad := rep.Filter(min)
	if len(bad.Findings) == 0 {
		return "", nil
	}
	var b strings.Builder
	if err := bad.WriteText(&b, check.TextOptions{Full: true}); err != nil {
		return "", err
	}
	return b.String(), nil
}
