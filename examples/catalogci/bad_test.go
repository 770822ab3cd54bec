package catalogci

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"github.com/sextantdev/sextant/graph"
)

var update = flag.Bool("update", false, "rewrite testdata/bad.golden")

// TestBadCatalog checks that TestCatalog would fail on testdata/bad, with
// the text of testdata/bad.golden.
func TestBadCatalog(t *testing.T) {
	got, err := checkCatalog(t.Context(), "testdata/bad", "", graph.SeverityWarning)
	if err != nil {
		t.Fatal(err)
	}
	if got == "" {
		t.Fatal("no problems found in testdata/bad")
	}
	compareGolden(t, "testdata/bad.golden", got)
}

// TestNextCatalog checks that TestCatalog with -baseline testdata/good
// would fail on testdata/next, the change a pull request makes, with the
// text of testdata/next.golden: only what the change introduces.
func TestNextCatalog(t *testing.T) {
	got, err := checkCatalog(t.Context(), "testdata/next", "testdata/good", graph.SeverityWarning)
	if err != nil {
		t.Fatal(err)
	}
	if got == "" {
		t.Fatal("no new problems found in testdata/next")
	}
	compareGolden(t, "testdata/next.golden", got)
	// The catalog against itself introduces nothing.
	same, err := checkCatalog(t.Context(), "testdata/next", "testdata/next", graph.SeverityInfo)
	if err != nil {
		t.Fatal(err)
	}
	if same != "" {
		t.Errorf("testdata/next against itself:\n%s", same)
	}
}

func compareGolden(t *testing.T, golden, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal([]byte(got), want) {
		t.Errorf("problems of testdata/bad (go test -update rewrites %s):\n got:\n%s\nwant:\n%s", golden, got, want)
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
