package registryv1

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/sextantdev/sextant/internal/txtar"
)

// FuzzReadFS reads a bundle whose one manifest file is the fuzzer's: the
// reading never panics, gives the same answer twice, places every problem
// in a file, and keeps every CRD by the digest of a text that, read whole
// as Kubernetes reads YAML, is the CRD it parses to (checkCRDs).
func FuzzReadFS(f *testing.F) {
	files, _ := filepath.Glob("testdata/read/*.txtar")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range txtar.Parse(data).Files {
			if filepath.Dir(file.Name) == "bundle/manifests" {
				f.Add(file.Data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, manifest []byte) {
		if len(manifest) > 8192 {
			return
		}
		fsys := bundleFS("widgets", "widgets.v1", "1.0.0")
		fsys["manifests/fuzz.yaml"] = &fstest.MapFile{Data: manifest}
		read := func() (*Bundle, []error) {
			return Loader{MaxDocument: 4096}.ReadFS(fsys, Source{Kind: FromFolder, Path: "b"})
		}
		b, problems := read()
		b2, problems2 := read()
		if describe(b, problems) != describe(b2, problems2) {
			t.Fatalf("read twice, two answers:\n%s\n%s", describe(b, problems), describe(b2, problems2))
		}
		for _, p := range problems {
			var pr *Problem
			if !errors.As(p, &pr) || pr.File == "" {
				t.Errorf("problem %v is placed in no file", p)
			}
		}
		checkCRDs(t, b, fsys)
		if b != nil && !reflect.DeepEqual(b.CSV, b2.CSV) {
			t.Errorf("two CSVs")
		}
	})
}
