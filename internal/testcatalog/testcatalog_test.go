package testcatalog

import (
	"bytes"
	"errors"
	"os"
	"testing"
)

// TestRead runs two folders below the module root, so it checks that Path
// walks up to the root and that Read decompresses the file.
func TestRead(t *testing.T) {
	data := Read(t, "community-operators-prod.declared.problems.json.gz")
	if !bytes.HasPrefix(bytes.TrimSpace(data), []byte(`{`)) {
		t.Fatalf("decompressed problems file does not start with a JSON object: %.40q", data)
	}
	if _, err := os.Stat(Path(t, "community-operators-prod.v4.20-index.json.gz")); err != nil {
		t.Fatal(err)
	}
}

// fatalTB records whether a check failed tb, instead of stopping the test.
type fatalTB struct {
	testing.TB
	failed bool
}

func (f *fatalTB) Helper()               {}
func (f *fatalTB) Fatal(...any)          { f.failed = true }
func (f *fatalTB) Fatalf(string, ...any) { f.failed = true }

func TestWantErr(t *testing.T) {
	tests := []struct {
		name       string
		err        error
		want       string
		wantFailed bool
	}{
		{name: "no error expected, none", err: nil, want: "", wantFailed: false},
		{name: "no error expected, one", err: errors.New("boom"), want: "", wantFailed: true},
		{name: "error expected, matching", err: errors.New("file: boom here"), want: "boom", wantFailed: false},
		{name: "error expected, other", err: errors.New("bang"), want: "boom", wantFailed: true},
		{name: "error expected, none", err: nil, want: "boom", wantFailed: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := &fatalTB{TB: t}
			// WantErr reports whether the case expects an error: whether want is set.
			if got := WantErr(tb, tt.err, tt.want); got != (tt.want != "") {
				t.Errorf("WantErr(%v, %q) = %v, want %v", tt.err, tt.want, got, tt.want != "")
			}
			if tb.failed != tt.wantFailed {
				t.Errorf("WantErr(%v, %q) failed the test: %v, want %v", tt.err, tt.want, tb.failed, tt.wantFailed)
			}
		})
	}
}
