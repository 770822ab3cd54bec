package catalogimage_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/catalogimage"
)

// FuzzParseReference checks that a reference reads the same twice, that
// it keeps its text, that a registry reference is never a catalog file
// name, and that text with no image form says so.
func FuzzParseReference(f *testing.F) {
	for _, s := range []string{"quay.io/operatorhubio/catalog:latest", "localhost:5000/a@sha256:" + strings.Repeat("0", 64), "oci:/x:v1", "oci:", "docker-archive:a.tar", "a/b.json", "x.io/a", "x.io/A:b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ref, err := catalogimage.ParseReference(s)
		if err != nil {
			isImage := strings.HasPrefix(s, "oci:") || strings.HasPrefix(s, "docker-archive:") || strings.Contains(s, "/")
			if !isImage && !errors.Is(err, catalogimage.ErrNotReference) {
				t.Fatalf("%q: %v, want ErrNotReference", s, err)
			}
			return
		}
		if ref.Text != s || ref.Form == 0 {
			t.Fatalf("%q: %+v", s, ref)
		}
		again, err := catalogimage.ParseReference(ref.Text)
		if err != nil || again != ref {
			t.Fatalf("%q read again: %+v, %v; first %+v", s, again, err, ref)
		}
		if ref.Form == catalogimage.Registry && (strings.HasSuffix(s, ".json") || strings.HasSuffix(s, ".yaml")) {
			t.Fatalf("%q: a catalog file name read as a registry image", s)
		}
		_ = ref.BaseName()
		_ = ref.Describe()
	})
}
