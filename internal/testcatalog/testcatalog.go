// Package testcatalog opens the files shipped in the repository's
// testdata/catalogs (gzipped catalogs and their companion files) for the
// tests and benchmarks of any package, whatever folder they run in, and
// holds the small helpers those tests share: the check of a case's error
// (WantErr), the YAML manifests of testdata (Manifests), the timing of a cancelled call (CancelAfter, CheckCancel) and
// the reader of fuzz input (FuzzBytes).
//
// It imports nothing of Sextant, so the tests of every package, graph's
// own included, may use it without an import cycle.
package testcatalog

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Path returns the path of the file name in testdata/catalogs, found in the
// first folder at or above the working directory that holds a go.mod (the
// module root). It fails tb when there is none.
func Path(tb testing.TB, name string) string {
	tb.Helper()
	return filepath.Join(root(tb, name), "testdata", "catalogs", name)
}

// root returns the module root: the first folder at or above the working
// directory that holds a go.mod. It fails tb, naming what, when there is
// none.
func root(tb testing.TB, what string) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatalf("testcatalog: no go.mod at or above the working directory for %q", what)
		}
		dir = parent
	}
}

// A File is a file of the repository's testdata, named by its path.
type File struct{ Name, Text string }

// Manifests returns the YAML manifests of the repository's testdata
// (testdata/*/*.yaml and testdata/cli/manifests/*.yaml), named by path. It
// fails tb when there are fewer than 10 (the folder moved).
func Manifests(tb testing.TB) []File {
	tb.Helper()
	dir := filepath.Join(root(tb, "manifests"), "testdata")
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.yaml"))
	if err != nil {
		tb.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join(dir, "cli", "manifests", "*.yaml"))
	var out []File
	for _, f := range append(files, more...) {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, File{f, string(b)})
	}
	if len(out) < 10 {
		tb.Fatalf("only %d manifests in testdata: the folder was not found", len(out))
	}
	return out
}

// Open returns the decompressed stream of the gzipped file name in
// testdata/catalogs (name includes the ".gz"). The file is closed when the
// test or benchmark ends; reading to the end reports a damaged file as an
// error of the reader.
func Open(tb testing.TB, name string) io.Reader {
	tb.Helper()
	f, err := os.Open(Path(tb, name))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { f.Close() })
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	return zr
}

// Read returns the whole decompressed contents of the gzipped file name in
// testdata/catalogs.
func Read(tb testing.TB, name string) []byte {
	tb.Helper()
	data, err := io.ReadAll(Open(tb, name))
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	return data
}

// WantErr checks the error of a table case: want is a substring of the
// error the case expects, "" when it expects none. With want set, err must
// contain it; without, err must be nil. Otherwise WantErr fails tb at once.
// It reports whether an error was expected, when the case usually has
// nothing more to check:
//
//	if testcatalog.WantErr(t, err, tt.wantErr) {
//		return
//	}
func WantErr(tb testing.TB, err error, want string) bool {
	tb.Helper()
	if want != "" {
		if err == nil || !strings.Contains(err.Error(), want) {
			tb.Fatalf("error = %v, want one containing %q", err, want)
		}
		return true
	}
	if err != nil {
		tb.Fatal(err)
	}
	return false
}
