package sextant_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/celrule"
	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/resolver"
)

const (
	cliCatalogs  = "testdata/cli/catalogs/"
	cliManifests = "testdata/cli/manifests/"
)

// load loads a world of catalogs ([NAME=]PATH) and manifest files.
func load(t *testing.T, in sextant.Input, catalogs ...string) (*sextant.World, error) {
	t.Helper()
	for _, c := range catalogs {
		ci, err := sextant.ParseCatalogArg(c)
		if err != nil {
			t.Fatal(err)
		}
		in.Catalogs = append(in.Catalogs, ci)
	}
	return sextant.Load(context.Background(), in, sextant.Options{CEL: celrule.New()})
}

// files returns the manifest inputs of paths.
func files(paths ...string) []sextant.File {
	var out []sextant.File
	for _, p := range paths {
		out = append(out, sextant.File{Path: p})
	}
	return out
}

// codes returns the codes of notes.
func codes(notes []sextant.Note) []sextant.NoteCode {
	var out []sextant.NoteCode
	for _, n := range notes {
		out = append(out, n.Code)
	}
	return out
}

// TestNamespaceChoice: the namespace asked for must hold something
// resolution concerns; else the subscriptions' one namespace is taken,
// several are an error listing them.
func TestNamespaceChoice(t *testing.T) {
	tests := []struct {
		name      string
		manifests string
		asked     string
		want      []string
		err       *sextant.NamespaceError
	}{
		{"the subscriptions' namespace", "app.yaml", "", []string{"shop"}, nil},
		{"asked and present", "two-namespaces.yaml", "warehouse", []string{"warehouse"}, nil},
		{"several", "two-namespaces.yaml", "", nil, &sextant.NamespaceError{Namespaces: []string{"shop", "warehouse"}, What: "subscriptions"}},
		{"asked, absent", "two-namespaces.yaml", "shopp", nil, &sextant.NamespaceError{Asked: "shopp", Namespaces: []string{"shop", "warehouse"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := load(t, sextant.Input{Manifests: files(cliManifests + tt.manifests), Namespace: tt.asked}, "app="+cliCatalogs+"app.yaml", "db="+cliCatalogs+"db.json")
			if tt.err != nil {
				var ne *sextant.NamespaceError
				if !errors.As(err, &ne) || !reflect.DeepEqual(ne, tt.err) {
					t.Fatalf("error %v (%#v), want %#v", err, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(w.Namespaces, tt.want) {
				t.Errorf("namespaces %v, want %v", w.Namespaces, tt.want)
			}
		})
	}
}

// TestCatalogPlaces: a CatalogSource of a catalog's name gives its
// namespace and priority; without one, the namespace the subscriptions
// name, else the global namespace; a catalog named after its file.
func TestCatalogPlaces(t *testing.T) {
	w, err := load(t, sextant.Input{Manifests: files(cliManifests+"app.yaml", cliManifests+"catalogsource.yaml")},
		cliCatalogs+"app.yaml", cliCatalogs+"db.json", "other="+cliCatalogs+"clean.json")
	if err != nil {
		t.Fatal(err)
	}
	type place struct {
		key   resolver.CatalogKey
		prio  int
		named sextant.NameRule
	}
	var got []place
	for _, c := range w.Catalogs {
		got = append(got, place{c.Key, c.Priority, c.Origin.Named})
	}
	want := []place{
		{resolver.CatalogKey{Namespace: "shop", Name: "app"}, 10, sextant.NamedByPath},
		{resolver.CatalogKey{Namespace: "olm", Name: "db"}, -5, sextant.NamedByPath},
		{resolver.CatalogKey{Namespace: "olm", Name: "other"}, 0, sextant.NamedGiven},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("catalogs %+v, want %+v", got, want)
	}
	if w.GlobalNamespace != resolver.DefaultGlobalNamespace {
		t.Errorf("global namespace %q", w.GlobalNamespace)
	}
}

// TestSourceError: a subscription whose catalog is not given is an error
// naming its file and the catalogs given; a catalog given without a name
// that no subscription names gets the fix that names it.
func TestSourceError(t *testing.T) {
	_, err := load(t, sextant.Input{Manifests: files(cliManifests + "unknown-source.yaml")}, cliCatalogs+"app.yaml")
	var se *sextant.SourceError
	if !errors.As(err, &se) {
		t.Fatalf("error %v, want a *SourceError", err)
	}
	want := &sextant.SourceError{
		File:         cliManifests + "unknown-source.yaml",
		Subscription: cluster.Ref{Kind: cluster.KindSubscription, Namespace: "shop", Name: "app"},
		Source:       "redhat-operators",
		Catalogs:     []string{"app"},
		Unnamed:      []sextant.UnnamedCatalog{{Path: cliCatalogs + "app.yaml", Name: "app", From: "file"}},
	}
	if !reflect.DeepEqual(se, want) {
		t.Errorf("error %#v, want %#v", se, want)
	}
	if msg := err.Error(); !strings.Contains(msg, `name it "redhat-operators" (redhat-operators=testdata/cli/catalogs/app.yaml)`) {
		t.Errorf("error %q does not name the fix", msg)
	}
}

// TestCatalogNames: two catalogs of one name are an error; a stream or a
// loaded catalog needs a name.
func TestCatalogNames(t *testing.T) {
	_, err := load(t, sextant.Input{Manifests: files(cliManifests + "app.yaml")}, "app="+cliCatalogs+"app.yaml", "app="+cliCatalogs+"db.json")
	var ne *sextant.CatalogNameError
	if !errors.As(err, &ne) || ne.Name != "app" {
		t.Errorf("two catalogs named app: %v", err)
	}
	_, err = sextant.Load(context.Background(), sextant.Input{Manifests: files(cliManifests + "app.yaml"),
		Catalogs: []sextant.CatalogInput{{Path: "<stdin>", Reader: strings.NewReader("")}}}, sextant.Options{})
	var ie *sextant.InputError
	if !errors.As(err, &ie) {
		t.Errorf("an unnamed stream: %v", err)
	}
}

// TestOperatorGroupFacts: with no OperatorGroup listed, the group the
// CSVs' annotations name is read (a typed fact and a note); a namespace
// nothing speaks of has one assumed.
func TestOperatorGroupFacts(t *testing.T) {
	w, err := load(t, sextant.Input{Manifests: files("testdata/examples/cluster.yaml")}, "testdata/catalogs/community-operators-prod.v4.20-index.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	if len(w.OperatorGroups) != 1 || w.OperatorGroups[0].From != sextant.GroupFromCSVs || w.OperatorGroups[0].Group.Name != "global-operators" {
		t.Errorf("groups %+v", w.OperatorGroups)
	}
	if got := codes(w.Notes); !reflect.DeepEqual(got, []sextant.NoteCode{sextant.NoteOperatorGroupFromCSVs}) {
		t.Errorf("notes %v", got)
	}
	w, err = load(t, sextant.Input{Manifests: files(cliManifests + "app.yaml")}, "app="+cliCatalogs+"app.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(w.OperatorGroups) != 1 || !w.OperatorGroups[0].Assumed() {
		t.Errorf("groups %+v", w.OperatorGroups)
	}
}

// TestReaders: manifests and catalogs read from streams give the world of
// the files.
func TestReaders(t *testing.T) {
	files := func(t *testing.T) (*sextant.World, error) {
		return load(t, sextant.Input{Manifests: files(cliManifests + "app.yaml")}, "app="+cliCatalogs+"app.yaml")
	}
	want, err := files(t)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := os.Open(cliManifests + "app.yaml")
	defer m.Close()
	c, _ := os.Open(cliCatalogs + "app.yaml")
	defer c.Close()
	got, err := sextant.Load(context.Background(), sextant.Input{
		Manifests: []sextant.File{{Path: "<stdin>", Reader: m}},
		Catalogs:  []sextant.CatalogInput{{Name: "app", Path: "app.yaml", Reader: c}},
	}, sextant.Options{CEL: celrule.New()})
	if err != nil {
		t.Fatal(err)
	}
	wa, _ := want.Resolve(context.Background(), sextant.AnswerOptions{})
	ga, _ := got.Resolve(context.Background(), sextant.AnswerOptions{})
	if !reflect.DeepEqual(wa.Namespaces, ga.Namespaces) {
		t.Errorf("from streams %+v, from files %+v", ga.Namespaces[0], wa.Namespaces[0])
	}
}

// TestEmptyInputs: an empty manifest file, an empty catalog and a folder
// without manifests are errors naming them.
func TestEmptyInputs(t *testing.T) {
	dir := t.TempDir()
	_, err := load(t, sextant.Input{Manifests: files(cliManifests + "empty.yaml")}, "app="+cliCatalogs+"app.yaml")
	var ee *sextant.EmptyInputError
	if !errors.As(err, &ee) || ee.File != cliManifests+"empty.yaml" {
		t.Errorf("empty manifests: %v", err)
	}
	_, err = load(t, sextant.Input{Manifests: files(dir)}, "app="+cliCatalogs+"app.yaml")
	if !errors.As(err, &ee) || !ee.Folder {
		t.Errorf("empty folder: %v", err)
	}
	// An empty catalog serves nothing, as catalogd and opm serve it: a
	// note naming it, and the world goes on.
	w, err := load(t, sextant.Input{Manifests: files(cliManifests + "app.yaml")}, "app="+cliCatalogs+"app.yaml", "none="+cliCatalogs+"empty.json")
	if err != nil {
		t.Fatalf("empty catalog: %v", err)
	}
	var empty []sextant.Note
	for _, n := range w.Notes {
		if n.Code == sextant.NoteEmptyCatalog {
			empty = append(empty, n)
		}
	}
	if len(empty) != 1 || empty[0].File != cliCatalogs+"empty.json" || !strings.Contains(empty[0].Text, `catalog "none"`) {
		t.Errorf("empty catalog: notes %v", w.Notes)
	}
	if _, err := load(t, sextant.Input{Manifests: files(filepath.Join(dir, "missing.yaml"))}, "app="+cliCatalogs+"app.yaml"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestStateGiven: a state already read (Input.State: a controller's
// objects) and catalogs already loaded give the world of the files, and
// a problem of an object with no file starts with the object, not with
// an empty file name.
func TestStateGiven(t *testing.T) {
	want, err := load(t, sextant.Input{Manifests: files(cliManifests + "app.yaml")}, "app="+cliCatalogs+"app.yaml")
	if err != nil {
		t.Fatal(err)
	}
	state, err := cluster.LoadFiles(cliManifests + "app.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got, err := sextant.Load(context.Background(), sextant.Input{State: state, Catalogs: []sextant.CatalogInput{{Name: "app", Catalog: want.Catalogs[0].Catalog}}}, sextant.Options{CEL: celrule.New()})
	if err != nil {
		t.Fatal(err)
	}
	wa, _ := want.Resolve(context.Background(), sextant.AnswerOptions{})
	ga, _ := got.Resolve(context.Background(), sextant.AnswerOptions{})
	if !reflect.DeepEqual(wa.Namespaces, ga.Namespaces) || !reflect.DeepEqual(codes(want.Notes), codes(got.Notes)) {
		t.Errorf("from a state %+v %v, from files %+v %v", ga.Namespaces[0], codes(got.Notes), wa.Namespaces[0], codes(want.Notes))
	}
	_, err = sextant.Load(context.Background(), sextant.Input{State: state, Catalogs: []sextant.CatalogInput{{Name: "other", Catalog: want.Catalogs[0].Catalog}}}, sextant.Options{})
	var se *sextant.SourceError
	if !errors.As(err, &se) || se.File != "" || !strings.HasPrefix(err.Error(), `Subscription "`) {
		t.Errorf("unknown source in a given state: %v", err)
	}
}
