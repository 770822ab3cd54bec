package sextant_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/catalogimage"
	"github.com/sextantdev/sextant/celrule"
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
