// Package golden compares test output with golden files, the one mechanism
// behind every -update flag of Sextant's tests.
package golden

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Check compares got with the file at path. With update set it writes got
// to path instead (creating its folder). A difference is reported with
// t.Errorf, naming the file and the first line that differs.
func Check(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
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
		t.Fatalf("%v (run go test with -update to create it)", err)
	}
	if d, ok := FirstDiff(want, got); ok {
		t.Errorf("%s differs (run go test with -update to accept, then review the diff):\n%s", path, d)
	}
}

// FirstDiff describes the first line at which want and got differ; ok is
// false when they are equal.
func FirstDiff(want, got []byte) (diff string, ok bool) {
	if bytes.Equal(want, got) {
		return "", false
	}
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
			return fmt.Sprintf("line %d:\n  want: %q\n   got: %q", i+1, w, g), true
		}
	}
	return "", false // unreachable: unequal inputs differ on some line
}
