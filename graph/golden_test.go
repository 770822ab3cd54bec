package graph

import (
	"bytes"
	"flag"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/sextantdev/sextant/internal/golden"
)

// The -update flag rewrites golden files. Another test file of the package
// may register it first; then this one reads the same flag.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files")
	}
}

// updating reports whether -update was given.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// formatFindings renders findings as a golden file: a header line with the
// counts by severity, then one line per finding with its position (line, or
// byte offset when the line is unknown; the file is left out).
func formatFindings(title string, fs []Finding) []byte {
	var buf bytes.Buffer
	counts := map[Severity]int{}
	for _, f := range fs {
		counts[f.Severity]++
	}
	fmt.Fprintf(&buf, "# %s: %d errors, %d warnings, %d infos\n", title, counts[SeverityError], counts[SeverityWarning], counts[SeverityInfo])
	for _, f := range fs {
		where := fmt.Sprintf("offset %d", f.Pos.Offset)
		if f.Pos.Line > 0 {
			where = fmt.Sprintf("line %d", f.Pos.Line)
		}
		fmt.Fprintf(&buf, "%s [%s]\n", f, where)
	}
	return buf.Bytes()
}

// TestGoldenFindings compares Validate's findings on the real catalogs with
// testdata/findings/<catalog>.golden; go test -run Golden -update rewrites
// them.
func TestGoldenFindings(t *testing.T) {
	forEachShipped(t, 0, func(t *testing.T, sc shippedCatalog, cat *Catalog) {
		got := formatFindings("Validate findings of "+sc.file, cat.Validate())
		golden.Check(t, filepath.Join("testdata", "findings", sc.name()+".golden"), got, updating())
	})
}
