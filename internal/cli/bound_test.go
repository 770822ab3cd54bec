package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBoundLines: at most maxSameLines lines of one kind of problem per
// file, then one count with the total; kinds and files apart, in order.
func TestBoundLines(t *testing.T) {
	var lines []string
	for i := range 30 {
		lines = append(lines, fmt.Sprintf(`a.json:%d: blob "x%d": blob has no "schema"`, i+1, i))
		if i%10 == 0 {
			lines = append(lines, fmt.Sprintf("a.json:%d: invalid JSON: invalid character 'q' looking for beginning of value", i+1))
			lines = append(lines, fmt.Sprintf(`b.json:%d: blob "x%d": blob has no "schema"`, i+1, i))
		}
	}
	got := boundLines(lines)
	if len(got) != maxSameLines+1+3+3 {
		t.Fatalf("%d lines:\n%s", len(got), strings.Join(got, "\n"))
	}
	want := "a.json: … and 10 more like the above (30 in all)"
	if n := strings.Count(strings.Join(got, "\n"), "… and"); n != 1 || !strings.Contains(strings.Join(got, "\n"), want) {
		t.Errorf("want one count %q in:\n%s", want, strings.Join(got, "\n"))
	}
	// Under the bound, nothing changes.
	if short := boundLines(lines[:10]); strings.Join(short, "\n") != strings.Join(lines[:10], "\n") {
		t.Errorf("changed lines under the bound:\n%s", strings.Join(short, "\n"))
	}
	// Different messages are different kinds, even where they share words.
	for _, pair := range [][2]string{
		{`a: package "p" has no channel`, `a: package "p" has no bundle`},
		{`a:1: the package's channel "c" is empty`, `a:1: the package's bundle "c" is empty`},
	} {
		if lineKind(pair[0]) == lineKind(pair[1]) {
			t.Errorf("%q and %q are one kind", pair[0], pair[1])
		}
	}
}

// TestCheckBoundedErrors: a catalog of 1,000 blobs without a schema
// answers in one screen.
func TestCheckBoundedErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "many.json")
	var b strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&b, "{\"name\": \"x%d\"}\n", i)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := run("", "check", path)
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if code != ExitBadInput || len(lines) != maxSameLines+1 || !strings.HasSuffix(lines[len(lines)-1], path+": … and 980 more like the above (1000 in all)") {
		t.Fatalf("exit %d, %d lines:\n%s", code, len(lines), stderr)
	}
}
