package textio

import (
	"errors"
	"strings"
	"testing"
)

type failAfter struct {
	n   int
	buf strings.Builder
}

var errFull = errors.New("full")

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n == 0 {
		return 0, errFull
	}
	f.n--
	return f.buf.Write(p)
}

func TestErrWriterKeepsFirstError(t *testing.T) {
	f := &failAfter{n: 1}
	w := &ErrWriter{W: f}
	for _, s := range []string{"a", "b", "c"} {
		w.Write([]byte(s))
	}
	if w.Err != errFull {
		t.Fatalf("Err = %v, want %v", w.Err, errFull)
	}
	if got := f.buf.String(); got != "a" {
		t.Fatalf("written %q, want %q (nothing after the error)", got, "a")
	}
	if _, err := w.Write([]byte("d")); err != errFull {
		t.Fatalf("write after the error: %v, want %v", err, errFull)
	}
}
