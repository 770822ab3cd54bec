package registryv1

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/sextantdev/sextant/graph"
)

const annotations = "annotations:\n  operators.operatorframework.io.bundle.mediatype.v1: registry+v1\n  operators.operatorframework.io.bundle.package.v1: %s\n"

func csvYAML(name, version string) string {
	return fmt.Sprintf("apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: %s\nspec:\n  version: %s\n", name, version)
}

func crdYAML(plural string) string {
	return fmt.Sprintf("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: %[1]s.example.com\nspec:\n  group: example.com\n  names: {kind: K, plural: %[1]s}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n", plural)
}

// writeBundle writes a bundle folder.
func writeBundle(t *testing.T, dir, pkg, name, version string) {
	t.Helper()
	files := map[string]string{
		AnnotationsFile:                  fmt.Sprintf(annotations, pkg),
		"manifests/csv.yaml":             csvYAML(name, version),
		"manifests/widgets.crd.yaml":     crdYAML("widgets"),
		"manifests/zz-other-things.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n",
	}
	for f, text := range files {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func loadCatalog(t *testing.T, fbc string) *graph.Catalog {
	t.Helper()
	c, err := graph.Decode(strings.NewReader(fbc), "catalog.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const widgetsCatalog = `schema: olm.package
name: widgets
defaultChannel: stable
---
schema: olm.channel
package: widgets
name: stable
entries:
- name: widgets.v1.0.0
- name: widgets.v1.1.0
  replaces: widgets.v1.0.0
---
schema: olm.bundle
name: widgets.v1.0.0
package: widgets
image: quay.io/example/widgets-bundle:v1.0.0
properties:
- type: olm.package
  value: {packageName: widgets, version: 1.0.0}
---
schema: olm.bundle
name: widgets.v1.1.0
package: widgets
image: quay.io/example/widgets-bundle:v1.1.0
properties:
- type: olm.package
  value: {packageName: widgets, version: 1.1.0}
`

// TestReadDirs reads bundle folders at any depth: a folder inside a bundle
// folder is not searched, .git is skipped, a symbolic link is a problem,
// and the set is the same whatever the concurrency.
func TestReadDirs(t *testing.T) {
	root := t.TempDir()
	writeBundle(t, filepath.Join(root, "operators/widgets/1.0.0"), "widgets", "widgets.v1.0.0", "1.0.0")
	writeBundle(t, filepath.Join(root, "operators/widgets/1.1.0"), "widgets", "widgets.v1.1.0", "1.1.0")
	writeBundle(t, filepath.Join(root, "operators/widgets/1.1.0/bundle"), "widgets", "nested.v1", "1.0.0")
	writeBundle(t, filepath.Join(root, "operators/.git/x"), "widgets", "hidden.v1", "1.0.0")
	if err := os.Symlink(filepath.Join(root, "operators/widgets/1.0.0"), filepath.Join(root, "operators/linked")); err != nil {
		t.Fatal(err)
	}
	var first []string
	for _, procs := range []int{1, 4} {
		old := runtime.GOMAXPROCS(procs)
		s, err := Loader{}.ReadDirs(context.Background(), filepath.Join(root, "operators"))
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, b := range s.Bundles() {
			got = append(got, fmt.Sprintf("%s %s %s %d", b.CSV.Name, b.Package, strings.TrimPrefix(b.Source.Path, root), len(b.CRDs)))
		}
		for _, p := range s.Problems {
			got = append(got, strings.ReplaceAll(p.Error(), root, ""))
		}
		want := []string{
			"widgets.v1.0.0 widgets /operators/widgets/1.0.0 1",
			"widgets.v1.1.0 widgets /operators/widgets/1.1.0 1",
			"bundle folder /operators/linked: a symbolic link, not followed",
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("GOMAXPROCS %d: read\n%s\nwant\n%s", procs, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if first == nil {
			first = got
		}
	}
}

// TestReadDirsErrors: a folder that does not exist, a file, and a folder
// without bundles are errors, all of them reported.
func TestReadDirsErrors(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "file")
	os.WriteFile(file, nil, 0o644)
	empty := filepath.Join(root, "empty")
	os.Mkdir(empty, 0o755)
	_, err := Loader{}.ReadDirs(context.Background(), filepath.Join(root, "missing"), file, empty)
	if err == nil {
		t.Fatal("no error")
	}
	got := strings.ReplaceAll(err.Error(), root, "")
	want := "/missing: no such file or directory\n/file: not a folder (a folder holding bundle folders is wanted)\n/empty: no bundle folder in it (a folder with metadata/annotations.yaml)"
	if got != want {
		t.Errorf("error\n%s\nwant\n%s", got, want)
	}
}

// TestReadDirsCancel: a cancelled context stops the reading with its error.
func TestReadDirsCancel(t *testing.T) {
	root := t.TempDir()
	writeBundle(t, filepath.Join(root, "a"), "widgets", "widgets.v1.0.0", "1.0.0")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (Loader{}).ReadDirs(ctx, root); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}

// fakeImages serves bundle images from memory and counts the reads.
type fakeImages struct {
	images map[string]fstest.MapFS
	reads  atomic.Int32
}

func (f *fakeImages) ReadBundle(_ context.Context, ref string) (Image, error) {
	f.reads.Add(1)
	fsys, ok := f.images[ref]
	if !ok {
		return Image{}, fmt.Errorf("%s: not found", ref)
	}
	return Image{FS: fsys, Digest: "sha256:0123"}, nil
}

func bundleFS(pkg, name, version string) fstest.MapFS {
	return fstest.MapFS{
		AnnotationsFile:              {Data: []byte(fmt.Sprintf(annotations, pkg))},
		"manifests/csv.yaml":         {Data: []byte(csvYAML(name, version))},
		"manifests/widgets.crd.yaml": {Data: []byte(crdYAML("widgets"))},
	}
}

// TestSetFor finds a catalog bundle's contents: a folder's by CSV name
// (of several, the one of its version, else of its package), else the
// bundle's olm.bundle.object properties, else its image (read once).
func TestSetFor(t *testing.T) {
	cat := loadCatalog(t, widgetsCatalog)
	v100 := cat.Package("widgets").Bundle("widgets.v1.0.0")
	v110 := cat.Package("widgets").Bundle("widgets.v1.1.0")
	ctx := context.Background()
	add := func(s *Set, path, pkg, name, version string) {
		b, problems := Loader{}.ReadFS(bundleFS(pkg, name, version), Source{Kind: FromFolder, Path: path})
		if len(problems) > 0 {
			t.Fatal(problems)
		}
		s.Add(b)
	}

	t.Run("by name, then version, then package", func(t *testing.T) {
		s := NewSet()
		add(s, "a", "widgets", "widgets.v1.0.0", "1.0.0")
		add(s, "b", "widgets", "widgets.v1.1.0", "1.0.9")
		add(s, "c", "widgets", "widgets.v1.1.0", "v1.1")
		add(s, "d", "gadgets", "widgets.v1.0.0", "1.0.0")
		for _, c := range []struct {
			b    *graph.Bundle
			want string
		}{{v100, "a"}, {v110, "c"}} {
			got, _, err := s.For(ctx, c.b)
			if err != nil || got == nil || got.Source.Path != c.want {
				t.Errorf("For(%s) = %v, %v; want folder %s", c.b.Name, got, err, c.want)
			}
		}
		add(s, "e", "widgets", "widgets.v9.0.0", "9.0.0")
		if u := s.Unused(); len(u) != 1 || u[0].Source.Path != "e" {
			t.Errorf("Unused() = %v, want folder e alone (its name was never asked for)", u)
		}
	})
	t.Run("ambiguous", func(t *testing.T) {
		s := NewSet()
		add(s, "b", "widgets", "widgets.v1.0.0", "1.0.0")
		add(s, "a", "widgets", "widgets.v1.0.0", "1.0.0")
		_, _, err := s.For(ctx, v100)
		var amb *AmbiguousError
		if !errors.As(err, &amb) {
			t.Fatalf("error %v, want an *AmbiguousError", err)
		}
		want := `bundle "widgets.v1.0.0" (version 1.0.0): 2 bundle folders hold a CSV of that name, and neither version nor package tells them apart: bundle folder a, bundle folder b`
		if err.Error() != want {
			t.Errorf("error\n%s\nwant\n%s", err, want)
		}
	})
	t.Run("images, each read once", func(t *testing.T) {
		imgs := &fakeImages{images: map[string]fstest.MapFS{"quay.io/example/widgets-bundle:v1.0.0": bundleFS("widgets", "widgets.v1.0.0", "1.0.0")}}
		s := NewSet()
		if got, _, _ := s.For(ctx, v100); got != nil {
			t.Fatalf("without Images: %v, want nothing", got)
		}
		s.Images = imgs
		for range 3 {
			got, problems, err := s.For(ctx, v100)
			if err != nil || len(problems) > 0 || got == nil || got.Source.String() != "bundle image quay.io/example/widgets-bundle:v1.0.0@sha256:0123" || len(got.CRDs) != 1 {
				t.Fatalf("For = %+v, %v, %v", got, problems, err)
			}
			if _, _, err := got.CRDs[0].Parse(); err != nil {
				t.Fatal(err)
			}
			if _, _, err := s.For(ctx, v110); err == nil || err.Error() != "quay.io/example/widgets-bundle:v1.1.0: not found" {
				t.Fatalf("For(v1.1.0) error %v", err)
			}
		}
		if n := imgs.reads.Load(); n != 2 {
			t.Errorf("%d image reads, want 2 (one per image)", n)
		}
	})
}

// TestReadCatalogBundle reads olm.bundle.object properties; a bundle with
// none has no contents there.
func TestReadCatalogBundle(t *testing.T) {
	obj := func(text string) string {
		return fmt.Sprintf("- type: olm.bundle.object\n  value: {data: %s}\n", base64.StdEncoding.EncodeToString([]byte(text)))
	}
	fbc := strings.Replace(widgetsCatalog, "  value: {packageName: widgets, version: 1.0.0}\n",
		"  value: {packageName: widgets, version: 1.0.0}\n"+obj(csvYAML("widgets.v1.0.0", "1.0.0"))+obj(crdYAML("widgets"))+obj("{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"s\"}}")+obj("\x00"), 1)
	cat := loadCatalog(t, fbc)
	b, problems := Loader{}.ReadCatalogBundle(cat.Package("widgets").Bundle("widgets.v1.0.0"))
	if b == nil {
		t.Fatalf("no bundle: %v", problems)
	}
	if len(problems) != 1 || problems[0].Error() != `bundle "widgets.v1.0.0" (olm.bundle.object): property 4: data: binary data (byte 0x00 at offset 0), not a manifest` {
		t.Errorf("problems %v", problems)
	}
	if b.CSV.Name != "widgets.v1.0.0" || len(b.CRDs) != 1 || len(b.Objects) != 1 || b.CRDs[0].File != "property 2" {
		t.Errorf("read %+v", b)
	}
	if d, _, err := b.CRDs[0].Parse(); err != nil || d.Name != "widgets.example.com" {
		t.Errorf("CRD %v, %v", d, err)
	}
	if b, problems := (Loader{}).ReadCatalogBundle(cat.Package("widgets").Bundle("widgets.v1.1.0")); b != nil || problems != nil {
		t.Errorf("a bundle without olm.bundle.object: %v, %v", b, problems)
	}
}

// TestCRDCache parses a digest once: the same definition for two refs of
// one text, concurrently; once forgotten, parsed again.
func TestCRDCache(t *testing.T) {
	read := func(path string) *Bundle {
		b, problems := Loader{}.ReadFS(bundleFS("widgets", "widgets.v1", "1.0.0"), Source{Kind: FromFolder, Path: path})
		if len(problems) > 0 {
			t.Fatal(problems)
		}
		return b
	}
	a, b := read("a").CRDs[0], read("b").CRDs[0]
	var c CRDCache
	done := make(chan struct{})
	go func() {
		c.Parse(a)
		close(done)
	}()
	db, _, err := c.Parse(b)
	<-done
	da, _, _ := c.Parse(a)
	if err != nil || da != db || c.Len() != 1 {
		t.Errorf("parsed %p and %p (%v), %d digests; want one definition", da, db, err, c.Len())
	}
	c.Forget(a.Digest)
	again, _, err := c.Parse(b)
	if err != nil || again == da || again.Name != da.Name || c.Len() != 2 {
		t.Errorf("after Forget: parsed %p (%v) again, %d parses; want a new definition of %s, 2 parses", again, err, c.Len(), da.Name)
	}
}

var _ fs.FS = fstest.MapFS{}

// TestReadDirsSharesPermissions: the CSVs of one ReadDirs that grant the
// same permissions share one list, read as each CSV writes it; other
// permissions are their own.
func TestReadDirsSharesPermissions(t *testing.T) {
	root := t.TempDir()
	perms := func(verbs string) string {
		return "  install:\n    strategy: deployment\n    spec:\n      permissions:\n      - serviceAccountName: op\n        rules:\n        - apiGroups: [\"\"]\n          resources: [configmaps]\n          verbs: [" + verbs + "]\n"
	}
	for i, verbs := range []string{"get, list", "get, list", "get"} {
		dir := filepath.Join(root, fmt.Sprintf("widgets/1.%d.0", i))
		writeBundle(t, dir, "widgets", fmt.Sprintf("widgets.v1.%d.0", i), fmt.Sprintf("1.%d.0", i))
		csv := csvYAML(fmt.Sprintf("widgets.v1.%d.0", i), fmt.Sprintf("1.%d.0", i)) + perms(verbs)
		if err := os.WriteFile(filepath.Join(dir, "manifests/csv.yaml"), []byte(csv), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Loader{}.ReadDirs(context.Background(), root)
	if err != nil || len(s.Problems) > 0 || s.Len() != 3 {
		t.Fatalf("ReadDirs: %v, %v, %d bundles", err, s.Problems, s.Len())
	}
	b := s.Bundles()
	want := []graph.StrategyPermissions{{ServiceAccountName: "op", Rules: []graph.PolicyRule{{Verbs: []string{"get", "list"}, APIGroups: []string{""}, Resources: []string{"configmaps"}}}}}
	for _, c := range b[:2] {
		if !reflect.DeepEqual(c.CSV.Permissions, want) {
			t.Errorf("%s: permissions %+v, want %+v", c.CSV.Name, c.CSV.Permissions, want)
		}
	}
	if &b[0].CSV.Permissions[0] != &b[1].CSV.Permissions[0] {
		t.Error("the same permissions of two CSVs are two lists, want one shared")
	}
	if got := b[2].CSV.Permissions[0].Rules[0].Verbs; !reflect.DeepEqual(got, []string{"get"}) {
		t.Errorf("%s: verbs %v, want [get]", b[2].CSV.Name, got)
	}
}
