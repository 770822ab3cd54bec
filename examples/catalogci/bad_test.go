package catalogci

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"github.com/sextantdev/sextant/graph"
)

var update = flag.Bool("update", false, "rewrite testdata/bad.golden")

// TestFailureReports checks that TestCatalog would fail on testdata/bad,
// and, with -baseline testdata/good, on testdata/next (the change a pull
// request makes: only what the change introduces), with the text of the
// golden file of each; -update rewrites the golden files.
func TestFailureReports(t *testing.T) {
	for _, tc := range []struct {
		catalog, baseline, golden string
	}{
		{catalog: "testdata/bad", golden: "testdata/bad.golden"},
		{catalog: "testdata/next", baseline: "testdata/good", golden: "testdata/next.golden"},
	} {
		t.Run(tc.catalog, func(t *testing.T) {
			got, err := checkCatalog(t.Context(), tc.catalog, tc.baseline, graph.SeverityWarning)
			if err != nil {
				t.Fatal(err)
			}
			if got == "" {
				t.Fatalf("no problems found in %s (baseline %q)", tc.catalog, tc.baseline)
			}
			if *update {
				if err := os.WriteFile(tc.golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(tc.golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("problems of %s (go test -update rewrites %s):\n got:\n%s\nwant:\n%s", tc.catalog, tc.golden, got, want)
			}
		})
	}
}

// TestSelfBaseline checks that a catalog with itself as its
// baseline introduces nothing, not even an info.
func TestSelfBaseline(t *testing.T) {
	same, err := checkCatalog(t.Context(), "testdata/next", "testdata/next", graph.SeverityInfo)
	if err != nil {
		t.Fatal(err)
	}
	if same != "" {
		t.Errorf("testdata/next against itself:\n%s", same)
	}
}

// TestMalformedCatalog checks that a catalog that cannot be read is an
// error naming the file.
func TestMalformedCatalog(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/catalog.yaml", []byte("schema: olm.package\nname: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := checkCatalog(t.Context(), dir, "", graph.SeverityWarning)
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte("catalog.yaml")) {
		t.Fatalf("err = %v, want an error naming catalog.yaml", err)
	}
}
