package sextant_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/catalogimage"
	"github.com/sextantdev/sextant/celrule"
	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/internal/imagetest"
)

// notesOf returns the texts of the notes of code.
func notesOf(notes []sextant.Note, code sextant.NoteCode) []sextant.Note {
	var out []sextant.Note
	for _, n := range notes {
		if n.Code == code {
			out = append(out, n)
		}
	}
	return out
}

// TestNoteUnreadKeys: a catalog with keys opm does not read as written is
// said once, with the first of them and the count of the others; a sound
// catalog is not.
func TestNoteUnreadKeys(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(cliCatalogs + "db.json")
	if err != nil {
		t.Fatal(err)
	}
	typo := strings.Replace(string(data), `"defaultChannel"`, `"defaultchannel"`, 1) + `{"schema":"olm.pakage","name":"x"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "db.json"), []byte(typo), 0o644); err != nil {
		t.Fatal(err)
	}
	manifests := files(subscriptionTo(t, "db", "quay.io/example/db:v1"))
	for _, tt := range []struct {
		path string
		want string
	}{
		{cliCatalogs + "db.json", ""},
		{filepath.Join(dir, "db.json"), `catalog ` + filepath.Join(dir, "db.json") + `: 2 keys or schemas that opm does not read as written (` + filepath.Join(dir, "db.json") + `:1: "defaultchannel" is read as "defaultChannel", and 1 more); the catalog checks list them`},
	} {
		w, err := load(t, sextant.Input{Manifests: manifests}, "db="+tt.path)
		if err != nil {
			t.Fatal(err)
		}
		got := notesOf(w.Notes, sextant.NoteUnreadKeys)
		switch {
		case tt.want == "" && len(got) != 0:
			t.Errorf("%s: notes %v", tt.path, got)
		case tt.want != "" && (len(got) != 1 || got[0].Text != tt.want || got[0].Catalog.Name != "db"):
			t.Errorf("%s: notes %+v, want one %q", tt.path, got, tt.want)
		}
	}
}

// TestNoteImagesRead: an image given as a catalog is named in a note with
// the digest it was read at, so that a log says what was resolved.
func TestNoteImagesRead(t *testing.T) {
	data, err := os.ReadFile(cliCatalogs + "db.json")
	if err != nil {
		t.Fatal(err)
	}
	img := imagetest.CatalogImage(t, map[string][]byte{"db/catalog.json": data})
	reg := imagetest.NewRegistry(t)
	ref, digest := reg.Push(t, "example/db-catalog:v1", img)
	images := catalogimage.New(catalogimage.Options{CacheDir: t.TempDir(), Insecure: []string{reg.Host}}).Source()
	for i, want := range []string{"read catalog image " + ref + " " + digest.String(), "read catalog image " + ref + " " + digest.String() + " (cached)"} {
		w, err := sextant.Load(context.Background(), sextant.Input{
			Catalogs:  []sextant.CatalogInput{{Name: "db", Path: ref}},
			Manifests: files(subscriptionTo(t, "db", "quay.io/example/db:v1")),
		}, sextant.Options{Images: images, CEL: celrule.New()})
		if err != nil {
			t.Fatal(err)
		}
		got := notesOf(w.Notes, sextant.NoteImagesRead)
		if len(got) != 1 || got[0].Text != want {
			t.Errorf("run %d: notes %+v, want %q", i, got, want)
		}
	}
}

// TestV1ObjectNotes: what the API server changes in an OLM v1 object
// without a word is a note of the world, under the code the manifests'
// decoding gives it and with the object's file and line; a field of the
// experimental CRDs is refused under the standard feature set and read
// under the experimental one (Options.V1.FeatureSet).
func TestV1ObjectNotes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ce.yaml")
	ce := `apiVersion: olm.operatorframework.io/v1
kind: ClusterExtension
metadata:
  name: db
  namespace: default
spec:
  namespace: db
  serviceAccount: {name: db-installer}
  source:
    sourceType: Catalog
    catalog: {packageName: db}
`
	if err := os.WriteFile(path, []byte(ce), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := load(t, sextant.Input{Manifests: files(path)}, "db="+cliCatalogs+"db.json")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		path + `:1: ClusterExtension "db": metadata.namespace "default" dropped: a ClusterExtension is cluster-scoped, and the API server clears it`,
		path + `:1: ClusterExtension "db": ` + cluster.ServiceAccountDeprecated,
	}
	var got []string
	for _, code := range []sextant.NoteCode{sextant.NoteNamespaceDropped, sextant.NoteServiceAccountIgnored} {
		for _, n := range notesOf(w.Notes, code) {
			got = append(got, n.Text)
			if n.File != path || n.Object != (cluster.Ref{Kind: cluster.KindClusterExtension, Name: "db"}) {
				t.Errorf("note %q: file %q, object %+v", n.Text, n.File, n.Object)
			}
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	two := ce + "---\n" + strings.Replace(strings.Replace(ce, "name: db\n", "name: db2\n", 1), "  namespace: default\n", "", 1)
	if err := os.WriteFile(path, []byte(two), 0o644); err != nil {
		t.Fatal(err)
	}
	if w, err = load(t, sextant.Input{Manifests: files(path)}, "db="+cliCatalogs+"db.json"); err != nil {
		t.Fatal(err)
	}
	wantTwo := `ClusterExtensions "db", "db2" set spec.serviceAccount: ` + cluster.ServiceAccountDeprecated
	if got := notesOf(w.Notes, sextant.NoteServiceAccountIgnored); len(got) != 1 || got[0].Text != wantTwo {
		t.Errorf("two extensions: %+v, want one note %q", got, wantTwo)
	}

	config := strings.Replace(ce, "  source:\n", "  config:\n    configType: Inline\n    inline: {watchNamespace: db}\n  source:\n", 1)
	if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	var unknown *cluster.UnknownFieldError
	if _, err := load(t, sextant.Input{Manifests: files(path)}, "db="+cliCatalogs+"db.json"); !errors.As(err, &unknown) || unknown.Field != "spec.config" {
		t.Errorf("standard feature set: %v, want spec.config unknown", err)
	}
	in := sextant.Input{Manifests: files(path), Catalogs: []sextant.CatalogInput{{Name: "db", Path: cliCatalogs + "db.json"}}}
	w, err = sextant.Load(context.Background(), in, sextant.Options{V1: sextant.V1Gates{FeatureSet: cluster.FeatureSetExperimental, SingleOwnNamespace: true}})
	if err != nil {
		t.Fatalf("experimental feature set: %v", err)
	}
	if got := w.State.ClusterExtensions[0].Config; got == nil {
		t.Errorf("experimental feature set: no config read")
	}
}
