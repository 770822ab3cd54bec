package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, format)
}

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "x.golden")
	r := &recorder{TB: t}
	Check(r, path, []byte("a\nb\n"), true)
	if data, err := os.ReadFile(path); err != nil || string(data) != "a\nb\n" {
		t.Fatalf("update wrote %q, %v", data, err)
	}
	Check(r, path, []byte("a\nb\n"), false)
	if len(r.errs) != 0 {
		t.Fatalf("equal output reported: %v", r.errs)
	}
	Check(r, path, []byte("a\nc\n"), false)
	if len(r.errs) != 1 {
		t.Fatalf("a difference was not reported")
	}
}

func TestFirstDiff(t *testing.T) {
	tests := []struct {
		name, want, got, diff string
	}{
		{name: "equal", want: "a\nb", got: "a\nb"},
		{name: "changed line", want: "a\nb\nc", got: "a\nx\nc", diff: "line 2:"},
		{name: "extra line", want: "a", got: "a\nb", diff: "line 2:"},
		{name: "missing line", want: "a\nb", got: "a", diff: "line 2:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, ok := FirstDiff([]byte(tt.want), []byte(tt.got))
			if ok != (tt.diff != "") || !strings.HasPrefix(d, tt.diff) {
				t.Errorf("FirstDiff = %q, %v; want prefix %q", d, ok, tt.diff)
			}
		})
	}
}
