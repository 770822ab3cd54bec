package catalogci

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/check"
	"github.com/sextantdev/sextant/graph"
)

var (
	catalogPath = flag.String("catalog", "testdata/good", "the catalog to check: an FBC folder or file")
	failOn      = flag.String("fail-on", "warning", "the least severity that fails the test: info, warning or error")
)

// TestCatalog fails when the catalog has findings of severity -fail-on or
// higher, and prints them grouped by package.
func TestCatalog(t *testing.T) {
	var min graph.Severity
	if err := min.UnmarshalText([]byte(*failOn)); err != nil {
		t.Fatal(err)
	}
	problems, err := checkCatalog(t.Context(), *catalogPath, min)
	if err != nil {
		t.Fatal(err)
	}
	if problems != "" {
		t.Errorf("catalog %s is not consistent:\n\n%s", *catalogPath, problems)
	}
}

// checkCatalog loads the catalog at path, runs every check and returns the
// findings of severity min or higher as text ("" when there are none). An
// error means the catalog could not be read at all; each problem of a
// malformed catalog is then named with its file and line.
func checkCatalog(ctx context.Context, path string, min graph.Severity) (string, error) {
	cat, err := graph.Load(path)
	if err != nil {
		return "", fmt.Errorf("load catalog: %w", err)
	}
	rep, err := check.Run(ctx, []check.Input{{Name: filepath.Base(path), Catalog: cat}}, check.Options{})
	if err != nil {
		return "", err
	}
	bad := rep.Filter(min)
	if len(bad.Findings) == 0 {
		return "", nil
	}
	var b strings.Builder
	if err := bad.WriteText(&b); err != nil {
		return "", err
	}
	return b.String(), nil
}
