package registryv1

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/sextantdev/sextant/crd"
	"github.com/sextantdev/sextant/internal/fastyaml"
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

// FuzzPlainCRD holds plainCRD to the fast scan and to topLevelCRD: a
// document plainCRD takes for a CRD is one for the scan, with the same
// apiVersion, whenever the scan reads it, and one for topLevelCRD
// otherwise.
func FuzzPlainCRD(f *testing.F) {
	f.Add([]byte(crdYAML("widgets")))
	f.Add([]byte("# c\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: a}\n"))
	f.Add([]byte("kind: CustomResourceDefinition\n  more\napiVersion: a/v1\n"))
	f.Add([]byte("apiVersion: a/v1\nkind: CustomResourceDefinition\nkind: Other\n"))
	f.Add([]byte("apiVersion: a/v1\r\nkind: CustomResourceDefinition\r\nspec: &x {}\r\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		av, ok := plainCRD(text)
		if !ok {
			return
		}
		sc := fastyaml.NewScanner("apiVersion", "kind")
		root, scanned := sc.Scan(text)
		if scanned {
			a, k := sc.Field(0), sc.Field(1)
			if root != fastyaml.Object || k.Type != fastyaml.String || string(k.Text) != crd.Kind || a.Type != fastyaml.String || string(a.Text) != av {
				t.Fatalf("plainCRD: a CRD of %q; the scan: root %v, kind %q, apiVersion %q", av, root, k.Text, a.Text)
			}
			return
		}
		if tav, tok := topLevelCRD(text); !tok || tav != av {
			t.Fatalf("plainCRD: a CRD of %q; topLevelCRD: %v, %q", av, tok, tav)
		}
	})
}
