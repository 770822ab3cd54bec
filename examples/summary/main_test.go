package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunCommunityIndex(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a real catalog")
	}
	path := filepath.Join("..", "..", filepath.FromSlash(defaultCatalog))
	var out bytes.Buffer
	if err := run(&out, path, false); err != nil {
		t.Fatal(err)
	}
	want := "catalog: " + path + `
packages: 315
channels: 533
bundles: 5624
channel entries: 7693
channel heads: 533 (channels with one head: 533, several: 0, none: 0)
findings: 0 errors, 252 warnings, 0 info
  warning  dangling-replaces            131
  warning  dangling-skip                115
  warning  invalid-skip-range           6
`
	if got := out.String(); got != want {
		t.Errorf("summary:\n%s\nwant:\n%s", got, want)
	}
}

func TestRunListAndErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a real catalog")
	}
	path := filepath.Join("..", "..", "testdata", "catalogs", "community-operators-prod.declared.json.gz")
	var a, b bytes.Buffer
	if err := run(&a, path, true); err != nil {
		t.Fatal(err)
	}
	if err := run(&b, path, true); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Error("two runs printed different summaries")
	}
	for _, line := range []string{
		"packages with errors: 14\n",
		"  error    multiple-heads               16\n",
		"  error    stranded-bundles             7\n",
	} {
		if !strings.Contains(a.String(), line) {
			t.Errorf("summary lacks %q:\n%s", line, a.String())
		}
	}
}

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 errors", 1: "1 error", 2: "2 errors"} {
		if got := plural(n, "error"); got != want {
			t.Errorf("plural(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestRunMissingFile(t *testing.T) {
	err := run(new(bytes.Buffer), filepath.Join(t.TempDir(), "nope.json"), false)
	if err == nil || !strings.Contains(err.Error(), "nope.json") {
		t.Errorf("run on a missing file = %v; want an error naming it", err)
	}
}
