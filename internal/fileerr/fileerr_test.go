package fileerr_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/fileerr"
)

// TestName: an error that does not state its file gets the name as a
// prefix, one that does (typed, with its file) is kept as it is, and each
// of joined errors is named on its own line.
func TestName(t *testing.T) {
	decode := &graph.DecodeError{File: "c.json", Line: 3, Err: errors.New("bad blob")}
	plain := errors.New("bad")
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"plain", plain, "x.yaml: bad"},
		{"names its file", decode, decode.Error()},
		{"wrapped, names its file", fmt.Errorf("reading: %w", decode), "reading: " + decode.Error()},
		{"decode error without a file", &graph.DecodeError{Err: errors.New("bad blob")}, "x.yaml: " + (&graph.DecodeError{Err: errors.New("bad blob")}).Error()},
		{"cluster error", &cluster.Error{File: "m.yaml", Err: errors.New("no kind")}, (&cluster.Error{File: "m.yaml", Err: errors.New("no kind")}).Error()},
		{"joined", errors.Join(plain, decode), "x.yaml: bad\n" + decode.Error()},
	}
	for _, tt := range tests {
		got := fileerr.Name(tt.err, "x.yaml")
		if got.Error() != tt.want {
			t.Errorf("%s: Name = %q, want %q", tt.name, got, tt.want)
		}
	}
	if !errors.Is(fileerr.Name(plain, "x"), plain) {
		t.Error("Name hides the cause from errors.Is")
	}
}

// TestPath: a file system error reads "PATH: cause" (not "open PATH:
// cause") and errors.Is still sees the cause; any other error is named.
func TestPath(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.yaml")
	_, err := os.Open(missing)
	got := fileerr.Path("none.yaml", err)
	if want := "none.yaml: no such file or directory"; got.Error() != want {
		t.Errorf("Path = %q, want %q", got, want)
	}
	if !errors.Is(got, fs.ErrNotExist) {
		t.Error("Path hides fs.ErrNotExist")
	}
	if got := fileerr.Path("a.yaml", errors.New("bad")); got.Error() != "a.yaml: bad" {
		t.Errorf("Path(other) = %q, want the name as a prefix", got)
	}
}
