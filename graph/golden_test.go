package graph

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
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
	if testing.Short() {
		t.Skip("loads the real catalogs")
	}
	for _, name := range catalogs {
		t.Run(name, func(t *testing.T) {
			cat, err := LoadFile(catalogPath(name))
			if err != nil {
				t.Fatal(err)
			}
			got := formatFindings("Validate findings of "+name+".json.gz", cat.Validate())
			path := filepath.Join("testdata", "findings", name+".golden")
			if updating() {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./graph -run Golden -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("findings differ from %s (run with -update and review the diff):\n%s", path, firstDiff(want, got))
			}
		})
	}
}

// firstDiff returns the first differing line of two texts.
func firstDiff(want, got []byte) string {
	wl, gl := bytes.Split(want, []byte("\n")), bytes.Split(got, []byte("\n"))
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g []byte
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if !bytes.Equal(w, g) {
			return fmt.Sprintf("line %d:\n  want: %s\n  got:  %s", i+1, w, g)
		}
	}
	return "(no difference)"
}
