package sextant_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/registryv1"
)

const (
	crdsDir     = "testdata/cli/crds/"
	crdsBundles = crdsDir + "bundles"
)

// TestWorldBundles: the bundle folders of Input.Bundles are read into
// World.Bundles (counted in a note), found by their CSV's name, and those
// no answer used are one note; without folders the set is empty, not nil.
func TestWorldBundles(t *testing.T) {
	ctx := context.Background()
	in := sextant.Input{
		Catalogs:  []sextant.CatalogInput{{Name: "widgets", Path: crdsDir + "catalog.yaml"}},
		Manifests: files(crdsDir + "cluster-v1.yaml"),
		Bundles:   []string{crdsBundles},
	}
	var told []sextant.Note
	w, err := sextant.Load(ctx, in, sextant.Options{OnNote: func(n sextant.Note) { told = append(told, n) }})
	if err != nil {
		t.Fatal(err)
	}
	if w.Bundles == nil || w.Bundles.Len() != 6 {
		t.Fatalf("World.Bundles = %v, want the 6 bundle folders", w.Bundles)
	}
	if c := codes(told); len(c) == 0 || c[0] != sextant.NoteBundlesRead || told[0].Text != "bundles: 6 bundle folders read" {
		t.Errorf("notes %+v, want %s first", told, sextant.NoteBundlesRead)
	}
	n, ok := w.UnusedBundles()
	if !ok || n.Code != sextant.NoteBundlesUnused || !strings.Contains(n.Text, "6 bundle folders not used") {
		t.Errorf("UnusedBundles = %+v, %v before any answer; want all 6", n, ok)
	}
	b := w.Catalogs[0].Catalog.Package("widgets").Bundle("widgets.v2.0.0")
	got, _, err := w.Bundles.For(ctx, b)
	if err != nil || got == nil || got.CSV.Name != "widgets.v2.0.0" {
		t.Fatalf("For(widgets.v2.0.0) = %v, %v", got, err)
	}
	n, _ = w.UnusedBundles()
	if !strings.Contains(n.Text, "5 bundle folders not used") || strings.Contains(n.Text, "widgets.v2.0.0") {
		t.Errorf("after one For: %q", n.Text)
	}

	// Reload keeps the world's contents.
	w2, err := w.Reload(ctx, []sextant.CatalogInput{{Name: "widgets", Path: crdsDir + "catalog.yaml"}}, sextant.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w2.Bundles != w.Bundles {
		t.Errorf("Reload read the bundles again")
	}

	in.Bundles = nil
	w, err = sextant.Load(ctx, in, sextant.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w.Bundles == nil || w.Bundles.Len() != 0 {
		t.Errorf("without folders: %v, want an empty set", w.Bundles)
	}
	if n, ok := w.UnusedBundles(); ok {
		t.Errorf("without folders: %+v", n)
	}
}

// TestWorldBundlesErrors: a folder that does not exist or holds no
// bundle folder is a *BundlesError naming it; contents given twice are an
// *InputError.
func TestWorldBundlesErrors(t *testing.T) {
	ctx := context.Background()
	base := sextant.Input{
		Catalogs:  []sextant.CatalogInput{{Name: "widgets", Path: crdsDir + "catalog.yaml"}},
		Manifests: files(crdsDir + "cluster-v1.yaml"),
	}
	for _, tc := range []struct {
		name string
		dirs []string
		opts sextant.Options
		want string
	}{
		{"missing", []string{crdsDir + "nothing"}, sextant.Options{}, "bundle folders: " + crdsDir + "nothing: no such file or directory"},
		{"no bundle folder", []string{crdsDir + "bundles/widgets/1.0.0/manifests"}, sextant.Options{}, "no bundle folder in it"},
		{"both", []string{crdsBundles}, sextant.Options{Bundles: registryv1.NewSet()}, "Bundles: bundle folders are given"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := base
			in.Bundles = tc.dirs
			_, err := sextant.Load(ctx, in, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			var be *sextant.BundlesError
			var ie *sextant.InputError
			if !errors.As(err, &be) && !errors.As(err, &ie) {
				t.Errorf("error %T, want *BundlesError or *InputError", err)
			}
		})
	}
}

// TestReadBundlesProblems: a folder's problems are noted, the first ten
// one by one, the others counted.
func TestReadBundlesProblems(t *testing.T) {
	dir := t.TempDir()
	annotations, err := os.ReadFile(crdsBundles + "/widgets/1.0.0/metadata/annotations.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 12 {
		b := filepath.Join(dir, fmt.Sprintf("b%02d", i))
		for file, text := range map[string][]byte{"metadata/annotations.yaml": annotations, "manifests/bad.yaml": []byte("kind: [\n")} {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(b, file)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(b, file), text, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	var notes []sextant.Note
	set, err := sextant.ReadBundles(context.Background(), []string{dir}, sextant.Limits{}, nil, func(n sextant.Note) { notes = append(notes, n) })
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Problems) < 12 {
		t.Fatalf("%d problems, want at least 12", len(set.Problems))
	}
	if len(notes) != 12 || notes[0].Code != sextant.NoteBundlesRead {
		t.Fatalf("notes %+v, want the count and 11 problem notes", notes)
	}
	for _, n := range notes[1:] {
		if n.Code != sextant.NoteBundleProblem {
			t.Errorf("note %+v", n)
		}
	}
	if want := fmt.Sprintf("bundles: and %d more problems", len(set.Problems)-10); notes[11].Text != want {
		t.Errorf("last note %q, want %q", notes[11].Text, want)
	}
}
