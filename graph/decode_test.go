package graph

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"testing/iotest"

	"github.com/sextantdev/sextant/graph/internal/jsonscan"
	"github.com/sextantdev/sextant/internal/golden"
)

// shippedCatalog is a real catalog of testdata/catalogs with the counts
// SOURCES.md states for it.
type shippedCatalog struct {
	file                        string
	packages, channels, bundles int
	entries, replaces, skips    int
	skipRanges                  int
	deps, pkgDeps, gvkDeps      int
}

// name is the catalog's short name, its file without ".json.gz".
func (sc shippedCatalog) name() string { return strings.TrimSuffix(sc.file, ".json.gz") }

// shippedCatalogs are the real catalogs, the community index first.
var shippedCatalogs = []shippedCatalog{
	{"community-operators-prod.v4.20-index.json.gz", 315, 533, 5624, 7693, 7189, 443, 1075, 166, 116, 61},
	{"community-operators-prod.declared.json.gz", 328, 623, 6625, 8552, 7856, 654, 1182, 175, 119, 67},
	{"certified-operators.v4.20-index.json.gz", 245, 531, 1683, 2477, 1428, 2826, 557, 82, 48, 43},
	{"certified-operators.declared.json.gz", 295, 756, 4720, 6092, 2096, 13525, 2454, 171, 83, 98},
}

func TestLoadShippedCatalogs(t *testing.T) {
	forEachShipped(t, 1, func(t *testing.T, tc shippedCatalog, c *Catalog) {
		var channels, bundles, entries, replaces, skips, skipRanges, deps, pkgDeps, gvkDeps int
		for _, p := range c.Packages() {
			channels += len(p.Channels)
			bundles += len(p.Bundles)
			for _, ch := range p.Channels {
				entries += len(ch.Entries)
				for _, e := range ch.Entries {
					if e.Replaces != "" {
						replaces++
					}
					skips += len(e.Skips)
					if e.SkipRange.String() != "" {
						skipRanges++
					}
				}
			}
			for _, b := range p.Bundles {
				if len(b.RequiresPackage) > 0 || len(b.RequiresGVK) > 0 {
					deps++
				}
				if len(b.RequiresPackage) > 0 {
					pkgDeps++
				}
				if len(b.RequiresGVK) > 0 {
					gvkDeps++
				}
			}
		}
		if replaces != tc.replaces || skips != tc.skips || skipRanges != tc.skipRanges {
			t.Errorf("replaces, skips, skipRanges = %d, %d, %d; want %d, %d, %d",
				replaces, skips, skipRanges, tc.replaces, tc.skips, tc.skipRanges)
		}
		if deps != tc.deps || pkgDeps != tc.pkgDeps || gvkDeps != tc.gvkDeps {
			t.Errorf("bundles with deps = %d (%d pkg, %d gvk), want %d (%d, %d)",
				deps, pkgDeps, gvkDeps, tc.deps, tc.pkgDeps, tc.gvkDeps)
		}
		if got := len(c.Packages()); got != tc.packages {
			t.Errorf("packages = %d, want %d", got, tc.packages)
		}
		if channels != tc.channels || bundles != tc.bundles || entries != tc.entries {
			t.Errorf("channels, bundles, entries = %d, %d, %d; want %d, %d, %d",
				channels, bundles, entries, tc.channels, tc.bundles, tc.entries)
		}
	})
}

// modelText prints everything a catalog holds, property values and unknown
// blobs in canonical JSON (sorted keys, compact), positions left out: two
// catalogs with the same text are the same model.
func modelText(tb testing.TB, c *Catalog) string { return modelTextOpt(tb, c, canonicalJSON) }

// modelTextOpt is modelText with values printed by value.
func modelTextOpt(tb testing.TB, c *Catalog, value func(testing.TB, []byte) string) string {
	tb.Helper()
	var b strings.Builder
	for _, p := range c.Packages() {
		fmt.Fprintf(&b, "package %q default %q declared %v\n", p.Name, p.DefaultChannel, p.Declared())
		for _, ch := range p.Channels {
			fmt.Fprintf(&b, "  channel %q/%q\n", ch.Package, ch.Name)
			for _, e := range ch.Entries {
				fmt.Fprintf(&b, "    entry %q replaces %q skips %q skipRange %q valid %v\n", e.Name, e.Replaces, e.Skips, e.SkipRange, e.SkipRange.Valid())
			}
		}
		for _, bd := range p.Bundles {
			fmt.Fprintf(&b, "  bundle %q package %q image %q version %q (%s) channels %q deprecated %v\n",
				bd.Name, bd.Package, bd.Image, bd.VersionText, bd.Version, bd.Channels, bd.Deprecated)
			fmt.Fprintf(&b, "    provides %v requires %v\n", bd.Provides, bd.RequiresGVK)
			for _, r := range bd.RequiresPackage {
				fmt.Fprintf(&b, "    requires package %q %q\n", r.Package, r.Range)
			}
			fmt.Fprintf(&b, "    labels %q requires %q constraints %s\n", bd.Labels, bd.RequiresLabel, constraintText(bd.Constraints))
			for _, pr := range bd.Properties {
				fmt.Fprintf(&b, "    property %q %s\n", pr.Type, value(tb, pr.Value))
			}
			for _, r := range bd.RelatedImages {
				fmt.Fprintf(&b, "    related image %q %q\n", r.Name, r.Image)
			}
		}
		for _, d := range p.Deprecations {
			fmt.Fprintf(&b, "  deprecation %q %q: %q\n", d.Reference.Schema, d.Reference.Name, d.Message)
		}
	}
	for _, m := range c.Others() {
		fmt.Fprintf(&b, "other %q %q %q %s\n", m.Schema, m.Package, m.Name, value(tb, m.Blob))
	}
	return b.String()
}

func constraintText(cs []Constraint) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "{%d %q %q %q %v %q [%s]}", c.Kind, c.FailureMessage, c.Package.Package, c.Package.Range, c.GVK, c.CEL, constraintText(c.Children))
	}
	return b.String()
}

// compactJSON prints a value compacted: cheaper than canonicalJSON, for
// comparing values that only whitespace can tell apart.
func compactJSON(tb testing.TB, v []byte) string {
	tb.Helper()
	s := jsonscan.Scanner{Data: v}
	if err := s.Skip(); err != nil || !s.AtEnd() {
		tb.Fatalf("value %q: invalid JSON", v)
	}
	return string(jsonscan.AppendCompact(nil, v))
}

func canonicalJSON(tb testing.TB, v []byte) string {
	tb.Helper()
	if v == nil {
		return "<none>"
	}
	var x any
	if err := json.Unmarshal(v, &x); err != nil {
		// A number out of float64's range: keep numbers as text.
		dec := json.NewDecoder(bytes.NewReader(v))
		dec.UseNumber()
		if err := dec.Decode(&x); err != nil {
			tb.Fatalf("value %q: %v", v, err)
		}
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(x); err != nil {
		tb.Fatal(err)
	}
	return strings.TrimSuffix(out.String(), "\n")
}

func mustLoad(t *testing.T, path string) *Catalog {
	t.Helper()
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const etcdWant = `package "etcd" default "alpha" declared true
  channel "etcd"/"alpha"
    entry "etcdoperator.v0.9.4" replaces "etcdoperator.v0.9.2" skips ["etcdoperator.v0.9.3"] skipRange "<0.9.4" valid true
    entry "etcdoperator.v0.9.2" replaces "" skips [] skipRange "" valid false
    entry "etcdoperator.v0.9.3" replaces "" skips [] skipRange "" valid false
  bundle "etcdoperator.v0.9.2" package "etcd" image "quay.io/operatorhubio/etcd:v0.9.2" version "v0.9.2" (0.9.2) channels ["alpha"] deprecated true
    provides [etcd.database.coreos.com/v1beta2 EtcdCluster] requires []
    labels [] requires [] constraints 
    property "olm.package" {"packageName":"etcd","version":"v0.9.2"}
    property "olm.gvk" {"group":"etcd.database.coreos.com","kind":"EtcdCluster","version":"v1beta2"}
    property "olm.deprecated" {}
  bundle "etcdoperator.v0.9.3" package "etcd" image "quay.io/operatorhubio/etcd:v0.9.3" version "0.9.3" (0.9.3) channels ["alpha"] deprecated false
    provides [] requires []
    labels [] requires [] constraints 
    property "olm.package" {"packageName":"etcd","version":"0.9.3"}
  bundle "etcdoperator.v0.9.4" package "etcd" image "quay.io/operatorhubio/etcd:v0.9.4" version "0.9.4" (0.9.4) channels ["alpha"] deprecated false
    provides [etcd.database.coreos.com/v1beta2 EtcdCluster] requires [monitoring.coreos.com/v1 Prometheus]
    requires package "prometheus" ">=0.14.0 <1.0.0"
    labels ["storage"] requires [] constraints {4 "needs a monitoring stack" "" ""   "" [{1 "" "prometheus" ">=0.14.0"   "" []}{2 "" "" "" monitoring.coreos.com/v1 Prometheus "" []}]}
    property "olm.package" {"packageName":"etcd","version":"0.9.4"}
    property "olm.gvk" {"group":"etcd.database.coreos.com","kind":"EtcdCluster","version":"v1beta2"}
    property "olm.gvk.required" {"group":"monitoring.coreos.com","kind":"Prometheus","version":"v1"}
    property "olm.package.required" {"packageName":"prometheus","versionRange":">=0.14.0 <1.0.0"}
    property "olm.label" {"label":"storage"}
    property "olm.constraint" {"any":{"constraints":[{"package":{"packageName":"prometheus","versionRange":">=0.14.0"}},{"gvk":{"group":"monitoring.coreos.com","kind":"Prometheus","version":"v1"}}]},"failureMessage":"needs a monitoring stack"}
    property "olm.maxOpenShiftVersion" "4.20"
    property "olm.bundle.object" {"data":"eyJraW5kIjoiQ2x1c3RlclNlcnZpY2VWZXJzaW9uIn0="}
    related image "operator" "quay.io/operatorhubio/etcd:v0.9.4"
  deprecation "olm.bundle" "etcdoperator.v0.9.2": "etcdoperator.v0.9.2 is deprecated: \"upgrade\" now"
  deprecation "olm.package" "": "the etcd package is deprecated"
other "example.com/notes" "etcd" "release-notes" {"name":"release-notes","package":"etcd","schema":"example.com/notes","text":"unknown schemas are kept"}
`

func TestDecodeForms(t *testing.T) {
	dir := filepath.Join("testdata", "decode")
	tests := []struct {
		name   string
		reason string
		load   func() (*Catalog, error)
	}{
		{name: "json stream", load: func() (*Catalog, error) { return LoadFile(filepath.Join(dir, "etcd.json")) }},
		{name: "yaml documents", reason: "YAML keys come out sorted, so schema is read after entries and properties", load: func() (*Catalog, error) { return LoadFile(filepath.Join(dir, "etcd.yaml")) }},
		{name: "gzip", load: func() (*Catalog, error) { return Load(filepath.Join(dir, "etcd.json.gz")) }},
		{name: "gzip by magic bytes", reason: "compression is recognised by content, not by name", load: func() (*Catalog, error) { return LoadFile(filepath.Join(dir, "gzipped-without-suffix.json")) }},
		{name: "reader", load: func() (*Catalog, error) {
			data, err := os.ReadFile(filepath.Join(dir, "etcd.json"))
			if err != nil {
				return nil, err
			}
			return Decode(bytes.NewReader(data), "etcd.json")
		}},
		{name: "gzip reader", load: func() (*Catalog, error) {
			f, err := os.Open(filepath.Join(dir, "etcd.json.gz"))
			if err != nil {
				return nil, err
			}
			defer f.Close()
			return Decode(f, "etcd.json.gz")
		}},
		{name: "one line per blob", reason: "the shipped catalogs' layout", load: func() (*Catalog, error) {
			c, err := LoadFile(filepath.Join(dir, "etcd.json"))
			if err != nil {
				return nil, err
			}
			var buf bytes.Buffer
			if err := Encode(&buf, c); err != nil {
				return nil, err
			}
			return Decode(&buf, "encoded.json")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := tt.load()
			if err != nil {
				t.Fatal(err)
			}
			got := modelText(t, c)
			if got != etcdWant {
				t.Errorf("model:\n%s\nwant:\n%s", got, etcdWant)
			}
		})
	}
}

func TestDecodePositions(t *testing.T) {
	c := mustLoad(t, filepath.Join("testdata", "decode", "etcd.json"))
	p := c.Package("etcd")
	if want := (Position{File: filepath.Join("testdata", "decode", "etcd.json"), Line: 1, Column: 1, Offset: 0}); p.Pos != want {
		t.Errorf("package pos = %+v, want %+v", p.Pos, want)
	}
	if got := p.Channel("alpha").Pos; got.Line != 8 || got.Column != 1 {
		t.Errorf("channel line and column = %d, %d, want 8, 1", got.Line, got.Column)
	}
	if got := p.Channel("alpha").EntryPos("etcdoperator.v0.9.2"); got.Line != 14 || got.Column != 9 {
		t.Errorf("entry line and column = %d, %d, want 14, 9", got.Line, got.Column)
	}
	if got, want := p.Channel("alpha").EntryPos("nothing"), p.Channel("alpha").Pos; got != want {
		t.Errorf("EntryPos of no entry = %+v, want the channel's %+v", got, want)
	}
	if got := p.Bundle("etcdoperator.v0.9.2").Pos.Line; got != 35 {
		t.Errorf("bundle line = %d, want 35", got)
	}
	y := mustLoad(t, filepath.Join("testdata", "decode", "etcd.yaml"))
	if got := y.Package("etcd").Pos; got.Line != 3 || got.Column != 1 {
		t.Errorf("yaml package line and column = %d, %d, want 3, 1", got.Line, got.Column)
	}
	if got := y.Package("etcd").Bundle("etcdoperator.v0.9.3").Pos.Line; got != 87 {
		t.Errorf("yaml bundle line = %d, want 87", got)
	}
}

// TestDecodeYAMLEntryPositions: a YAML catalog's channel entries point at
// their own line and column (the entry's first key), as a JSON catalog's
// do, and so do the findings about them; a document the YAML library reads
// (here: an anchor) points its entries at the document.
func TestDecodeYAMLEntryPositions(t *testing.T) {
	path := filepath.Join("testdata", "decode", "etcd.yaml")
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	alpha := mustLoad(t, path).Package("etcd").Channel("alpha")
	for _, e := range []struct {
		name      string
		line, col int
		text      string
	}{
		// The document's keys are not in JSON's order (schema, package,
		// name, entries): the entries move when its object is sorted.
		{"etcdoperator.v0.9.4", 15, 5, "name: etcdoperator.v0.9.4\n"},
		{"etcdoperator.v0.9.2", 20, 5, "name: etcdoperator.v0.9.2\n"},
		{"etcdoperator.v0.9.3", 21, 5, "name: etcdoperator.v0.9.3\n"},
	} {
		got := alpha.EntryPos(e.name)
		if got.File != path || got.Line != e.line || got.Column != e.col || !bytes.HasPrefix(text[got.Offset:], []byte(e.text)) {
			t.Errorf("EntryPos(%q) = %+v (%q), want line %d, column %d, %q", e.name, got, text[got.Offset:min(got.Offset+30, int64(len(text)))], e.line, e.col, e.text)
		}
	}

	const doc = "schema: olm.package\nname: p\ndefaultChannel: stable\n---\n" +
		"schema: olm.channel\npackage: p\nname: stable\nentries:\n" +
		"- name: p.v1\n- name: p.v2\n  replaces: p.v1\n  skips:\n  - p.v0\n" +
		"---\nschema: olm.bundle\nname: p.v1\npackage: p\nimage: example.com/p:v1\nproperties:\n- type: olm.package\n  value:\n    packageName: p\n    version: 1.0.0\n" +
		"---\nschema: olm.bundle\nname: p.v2\npackage: p\nimage: example.com/p:v2\nproperties:\n- type: olm.package\n  value:\n    packageName: p\n    version: 2.0.0\n"
	c, err := Decode(strings.NewReader(doc), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range c.Validate() {
		if f.Code == CodeDanglingSkip {
			found = true
			if want := (Position{File: "p.yaml", Line: 10, Column: 3, Offset: int64(strings.Index(doc, "name: p.v2"))}); f.Pos != want {
				t.Errorf("finding %q at %+v, want the entry's %+v", f.Message, f.Pos, want)
			}
		}
	}
	if !found {
		t.Errorf("no %s finding", CodeDanglingSkip)
	}

	anchored := "schema: olm.channel\npackage: p\nname: stable\nentries:\n- &e {name: p.v1}\n"
	c, err = Decode(strings.NewReader(anchored), "a.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ch := c.Package("p").Channel("stable")
	if got := ch.EntryPos("p.v1"); got != ch.Pos || got.Line != 1 {
		t.Errorf("entry of a document the library reads at %+v, want the document's %+v", got, ch.Pos)
	}
}

func TestLoadDirAndFS(t *testing.T) {
	dir := filepath.Join("testdata", "decode", "dir")
	want := `package "a" default "stable" declared true
  channel "a"/"stable"
    entry "a.v1.0.0" replaces "" skips [] skipRange "" valid false
  bundle "a.v1.0.0" package "a" image "example.com/a:v1.0.0" version "1.0.0" (1.0.0) channels ["stable"] deprecated false
    provides [] requires [b.example.com/v1 B]
    labels [] requires [] constraints 
    property "olm.package" {"packageName":"a","version":"1.0.0"}
    property "olm.gvk.required" {"group":"b.example.com","kind":"B","version":"v1"}
package "b" default "stable" declared true
  channel "b"/"stable"
    entry "b.v1.0.0" replaces "" skips [] skipRange "" valid false
  bundle "b.v1.0.0" package "b" image "example.com/b:v1.0.0" version "1.0.0" (1.0.0) channels ["stable"] deprecated false
    provides [b.example.com/v1 B] requires []
    labels [] requires [] constraints 
    property "olm.package" {"packageName":"b","version":"1.0.0"}
    property "olm.gvk" {"group":"b.example.com","kind":"B","version":"v1"}
`
	if got := modelText(t, mustLoad(t, dir)); got != want {
		t.Errorf("LoadDir:\n%s\nwant:\n%s", got, want)
	}
	c, err := LoadFS(os.DirFS(dir), ".")
	if err != nil {
		t.Fatal(err)
	}
	if got := modelText(t, c); got != want {
		t.Errorf("LoadFS:\n%s\nwant:\n%s", got, want)
	}
	if got := c.Package("b").Bundle("b.v1.0.0").Pos.File; got != "sub/b-bundle.yml.gz" {
		t.Errorf("LoadFS file = %q, want a path in the file system", got)
	}

	mfs := fstest.MapFS{
		"catalog/x/index.yaml":    {Data: []byte("schema: olm.package\nname: x\n")},
		"catalog/x/bundles.json":  {Data: []byte(`{"schema":"olm.bundle","name":"x.v1","package":"x","properties":[{"type":"olm.package","value":{"packageName":"x","version":"1.0.0"}}]}`)},
		"catalog/x/notes.txt":     {Data: []byte("ignored")},
		"catalog/y/channels.json": {Data: []byte(`{"schema":"olm.channel","package":"x","name":"stable","entries":[{"name":"x.v1"}]}`)},
		"other/z.json":            {Data: []byte(`not read`)},
	}
	c, err = LoadFS(mfs, "catalog")
	if err != nil {
		t.Fatal(err)
	}
	x := c.Package("x")
	if x == nil || len(x.Channels) != 1 || len(x.Bundles) != 1 || x.Bundles[0].VersionText != "1.0.0" {
		t.Fatalf("MapFS catalog:\n%s", modelText(t, c))
	}
	if _, err := LoadFS(mfs, "missing"); err == nil {
		t.Error("LoadFS of a missing root: no error")
	}
}

// wantErr is one expected *DecodeError.
type wantErr struct {
	line   int
	object string
	text   string // substring of Err
}

func checkErrors(t *testing.T, err error, file string, want []wantErr) {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	var got []*DecodeError
	var walk func(error)
	walk = func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		de, ok := err.(*DecodeError)
		if !ok {
			t.Errorf("error %v (%T) is not a *DecodeError", err, err)
			return
		}
		got = append(got, de)
	}
	walk(err)
	if len(got) != len(want) {
		t.Errorf("got %d errors, want %d:\n%v", len(got), len(want), err)
	}
	for i := range min(len(got), len(want)) {
		g, w := got[i], want[i]
		if g.File != file || g.Line != w.line || g.Object != w.object || !strings.Contains(g.Err.Error(), w.text) {
			t.Errorf("error %d = {%q line %d object %q: %v}, want {%q line %d object %q: ...%s...}", i, g.File, g.Line, g.Object, g.Err, file, w.line, w.object, w.text)
		}
	}
	var de *DecodeError
	if !errors.As(err, &de) {
		t.Error("errors.As(err, *DecodeError) is false")
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		file   string // default in.json
		in     string
		want   []wantErr
	}{
		{
			name: "missing schema",
			in:   "{\"schema\":\"olm.package\",\"name\":\"a\"}\n{\"name\":\"b\"}\n",
			want: []wantErr{{2, `blob "b"`, `blob has no "schema"`}},
		},
		{
			name:   "random bytes",
			reason: "a file of random bytes is one error, its binary data, not also the character before it (issue 40)",
			in:     "+\xe8w~\x0e\x99{\n",
			want:   []wantErr{{1, "", "binary data (byte 0x0e)"}},
		},
		{
			name: "empty schema",
			in:   `{"schema":"","name":"b"}`,
			want: []wantErr{{1, "", `empty "schema"`}},
		},
		{
			name: "wrong types",
			in: `{"schema":"olm.package","name":["a"],"defaultChannel":{}}
{"schema":"olm.channel","package":"a","name":"s","entries":{"name":"x"}}
{"schema":"olm.channel","package":"a","name":"t","entries":[1,{"name":"x","skips":["y",2],"skipRange":false}]}
{"schema":"olm.bundle","name":"b","package":"a","properties":[{"type":7,"value":{}}]}
{"schema":"olm.deprecations","package":"a","entries":[{"reference":"olm.bundle","message":"m"}]}
{"schema":5}`,
			want: []wantErr{
				{1, `olm.package`, `field "name" is an array, want a string`},
				{1, `olm.package`, `field "defaultChannel" is an object, want a string`},
				{2, `olm.channel "s"`, `field "entries" is an object, want an array`},
				{3, `olm.channel "t"`, `field "entries[0]" is a number, want an object`},
				{3, `olm.channel "t"`, `field "entries[1].skips[1]" is a number, want a string`},
				{3, `olm.channel "t"`, `field "entries[1].skipRange" is a boolean, want a string`},
				{4, `olm.bundle "b"`, `field "properties[0].type" is a number, want a string`},
				{5, `olm.deprecations of package "a"`, `field "entries[0].reference" is a string, want an object`},
				{6, ``, `field "schema" is a number, want a string`},
			},
		},
		{
			name:   "wrong types before schema",
			reason: "fields read before the schema are decoded afterwards, with the same messages",
			in:     `{"entries":[{"name":1}],"name":"s","package":"a","schema":"olm.channel"}`,
			want:   []wantErr{{1, `olm.channel "s"`, `field "entries[0].name" is a number, want a string`}},
		},
		{
			name: "bad property value",
			in:   "{\"schema\":\"olm.bundle\",\"name\":\"b\",\"package\":\"a\",\"properties\":[\n{\"type\":\"olm.gvk\",\"value\":{\"group\":1}}]}",
			want: []wantErr{{1, `olm.bundle "b"`, `property 0 (olm.gvk): field "group" is a number, want a string`}},
		},
		{
			name:   "several bad properties",
			reason: "each malformed property is its own error",
			in:     `{"schema":"olm.bundle","name":"b","package":"a","properties":[{"type":"olm.label","value":[]},{"type":"olm.package.required","value":{"packageName":"x","versionRange":"~~"}}]}`,
			want: []wantErr{
				{1, `olm.bundle "b"`, `property 0 (olm.label): value is an array, want an object`},
				{1, `olm.bundle "b"`, `property 1 (olm.package.required): field "versionRange": invalid semver range "~~"`},
			},
		},
		{
			name:   "bad properties among other problems",
			reason: "bundles' properties are typed on another goroutine; their problems still come in file order",
			in: `{"schema":"olm.package","name":["a"]}
{"schema":"olm.bundle","name":"b1","package":"a","properties":[{"type":"olm.label","value":[]}]}
{"schema":"olm.channel","package":"a","name":"s","entries":{"name":"x"}}
{"schema":"olm.bundle","name":"b2","package":"a","properties":[{"type":"olm.gvk","value":{"group":1}},{"type":"olm.label","value":7}]}
{"schema":"olm.bundle","name":"b3","package":"a","properties":[{"type":"olm.label","value":{"label":"ok"}}]}
{"schema":5}`,
			want: []wantErr{
				{1, `olm.package`, `field "name" is an array, want a string`},
				{2, `olm.bundle "b1"`, `property 0 (olm.label): value is an array, want an object`},
				{3, `olm.channel "s"`, `field "entries" is an object, want an array`},
				{4, `olm.bundle "b2"`, `property 0 (olm.gvk): field "group" is a number, want a string`},
				{4, `olm.bundle "b2"`, `property 1 (olm.label): value is a number, want an object`},
				{6, ``, `field "schema" is a number, want a string`},
			},
		},
		{
			name: "truncated",
			in:   "{\"schema\":\"olm.package\",\"name\":\"a\"}\n{\"schema\":\"olm.channel\",\"package\":\"a\",\"name\":\"s\",\"entries\":[{\"name\":\"x\"\n",
			want: []wantErr{{2, `olm.channel "s"`, `unexpected end of input`}},
		},
		{
			name:   "resynchronise after malformed json",
			reason: "after a syntax error decoding resumes at the next line starting with '{' and reports later problems too",
			in: `{"schema":"olm.package","name":"a"}
{"schema":"olm.bundle","name":"b1","package":"a" "image":"x"}
{"schema":"olm.bundle","name":"b2","package":"a","image":3}
{"schema":"olm.bundle","name":"b3",
  "package":"a",
  "properties":[{"type":"olm.package","value":{"version":"1.0.0"}}],]
}
{"name":"b4"}`,
			want: []wantErr{
				{2, `olm.bundle "b1"`, `invalid character '"', want ',' or '}'`},
				{3, `olm.bundle "b2"`, `field "image" is a number`},
				{6, `olm.bundle "b3"`, `invalid character ']'`},
				{8, `blob "b4"`, `no "schema"`},
			},
		},
		{
			name: "top-level non-object",
			in:   "{\"schema\":\"olm.package\",\"name\":\"a\"}\n[1,2]\n\"x\"\n}\n",
			want: []wantErr{{2, "", "top-level value is an array"}, {3, "", "top-level value is a string"}, {4, "", `invalid character "}" at top level`}},
		},
		{
			name: "yaml errors",
			file: "in.yaml",
			in:   "schema: olm.package\nname: a\n---\nschema: olm.bundle\nname: b\nimage: [1\n---\n- 1\n---\nname: c\n",
			want: []wantErr{
				{6, "", "invalid YAML"},
				{8, "", "document is an array, want a mapping"},
				{10, `blob "c"`, `no "schema"`},
			},
		},
		{
			name: "yaml wrong type",
			file: "in.yaml",
			in:   "schema: olm.package\nname: a\n---\n# a bundle\nschema: olm.bundle\nname: b\npackage: a\nimage:\n  name: x\n",
			want: []wantErr{{5, `olm.bundle "b"`, `field "image" is an object, want a string`}},
		},
		{
			name: "corrupt gzip",
			in:   "\x1f\x8b\x08garbage",
			want: []wantErr{{0, "", "gzip"}},
		},
		{
			name:   "yaml in a json file",
			reason: "a .json file is JSON: its errors say so, never 'invalid YAML'",
			in:     "schema: olm.package\nname: a\n",
			want:   []wantErr{{1, "", `invalid character "s" at top level, want an object`}},
		},
		{
			name:   "json then yaml",
			reason: "a YAML stream whose first document is JSON switches to YAML at the first marker",
			file:   "in.yaml",
			in:     "{\"schema\":\"olm.package\",\"name\":\"a\"}\n---\nschema: olm.channel\npackage: a\nname: s\nentries: 3\n",
			want:   []wantErr{{3, `olm.channel "s"`, `field "entries" is a number, want an array`}},
		},
		{
			name:   "json documents in yaml",
			reason: "a YAML document that is JSON text is decoded as JSON, positions in the file",
			file:   "in.yaml",
			in:     "schema: olm.package\nname: a\n---\n{\"schema\":\"olm.channel\",\"package\":\"a\",\n \"name\":\"s\",\"entries\":3}\n",
			want:   []wantErr{{5, `olm.channel "s"`, `field "entries" is a number, want an array`}},
		},
		{
			name:   "nul bytes after a blob",
			reason: "binary data ends decoding at once, with its position",
			in:     "{\"schema\":\"olm.package\",\"name\":\"a\"}\n\x00\x00\x00{\"name\":\"b\"}\n{\"name\":\"c\"}\n",
			want:   []wantErr{{2, "", "binary data (byte 0x00)"}},
		},
		{
			name: "nul byte first",
			in:   "\x00\x00",
			want: []wantErr{{1, "", "binary data (byte 0x00)"}},
		},
		{
			name: "nul byte first in yaml",
			file: "in.yaml",
			in:   "\x00\x00",
			want: []wantErr{{1, "", "binary data (byte 0x00)"}},
		},
		{
			name: "nul bytes in a string",
			in:   "{\"schema\":\"olm.package\",\"name\":\"a\x00\x00\x00\"}\n{\"name\":\"b\"}\n",
			want: []wantErr{{1, `olm.package`, "invalid JSON"}, {1, "", "binary data (byte 0x00)"}},
		},
		{
			name: "yaml content after end marker",
			file: "in.yaml",
			in:   "schema: olm.package\nname: a\n... x\n",
			want: []wantErr{{3, "", `content after the document end marker`}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := tt.file
			if file == "" {
				file = "in.json"
			}
			c, err := Decode(strings.NewReader(tt.in), file)
			checkErrors(t, err, file, tt.want)
			if c != nil {
				t.Error("catalog returned with an error")
			}
		})
	}
}

func TestDecodeErrorsFixture(t *testing.T) {
	file := filepath.Join("testdata", "decode", "bad.json")
	_, err := LoadFile(file)
	checkErrors(t, err, file, []wantErr{
		{2, `blob "no-schema"`, `blob has no "schema"`},
		{3, `olm.bundle "b.v1"`, `field "image" is a number, want a string`},
		{4, `olm.channel "stable"`, `field "entries[0].skips" is a string, want an array`},
		{5, `olm.channel "stable"`, `invalid character '{', want ',' or '}'`},
		{5, `olm.bundle "b.v2"`, `property 0 (olm.package.required): field "versionRange": invalid semver range "not a range"`},
		{6, `olm.bundle "b.v3"`, `unexpected end of input`},
	})
	if err != nil && !strings.Contains(err.Error(), file+":3: olm.bundle \"b.v1\": field \"image\"") {
		t.Errorf("message does not start with file:line: object:\n%v", err)
	}
}

func TestDecodeEmptyAndIOErrors(t *testing.T) {
	c, err := Decode(strings.NewReader("\xef\xbb\xbf{\"schema\":\"olm.package\",\"name\":\"a\"}"), "bom.json")
	if err != nil || c.Package("a") == nil || c.Package("a").Pos.Offset != 3 {
		t.Errorf("Decode with a byte order mark: %v", err)
	}
	for _, in := range []string{"", " \n\t", "# only a comment\n---\n", "\xef\xbb\xbf"} {
		c, err := Decode(strings.NewReader(in), "empty")
		if err != nil || len(c.Packages()) != 0 {
			t.Errorf("Decode(%q) = %v, %v; want an empty catalog", in, c, err)
		}
	}
	_, err = LoadFile(filepath.Join("testdata", "decode", "no-such-file.json"))
	var de *DecodeError
	if !errors.As(err, &de) || de.Offset != -1 || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("LoadFile of a missing file: %v", err)
	}
	_, err = Load(filepath.Join("testdata", "decode", "no-such-dir"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load of a missing path: %v", err)
	}
	boom := errors.New("boom")
	_, err = Decode(iotest.ErrReader(boom), "r")
	if !errors.As(err, &de) || de.File != "r" || !errors.Is(err, boom) {
		t.Errorf("Decode of a failing reader: %v", err)
	}
}

func TestDecodeDuplicates(t *testing.T) {
	in := "{\"schema\":\"olm.package\",\"name\":\"a\"}\n{\"schema\":\"olm.package\",\"name\":\"a\"}\n"
	_, err := Decode(strings.NewReader(in), "dup.json")
	var de *DuplicateError
	if !errors.As(err, &de) || de.Second.Line != 2 {
		t.Errorf("err = %v, want a *DuplicateError at line 2", err)
	}
}

func TestDecodeConcurrent(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "decode", "etcd.json"))
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			c, err := Decode(bytes.NewReader(data), "etcd.json")
			if err == nil && modelText(t, c) != etcdWant {
				err = errors.New("different model")
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestDecodeErrorsGolden decodes each file of testdata/decode/errors and
// compares the error text with the file's .golden companion (-update
// rewrites them).
func TestDecodeErrorsGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "decode", "errors", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		if strings.HasSuffix(file, ".golden") {
			continue
		}
		t.Run(filepath.Base(file), func(t *testing.T) {
			_, err := LoadFile(file)
			if err == nil {
				t.Fatal("no error")
			}
			checkErrorTypes(t, err)
			got := []byte(filepath.ToSlash(err.Error()) + "\n")
			golden.Check(t, file+".golden", got, updating())
		})
	}
}

// decodeWindow is Decode reading JSON through a window of the given initial
// size, to exercise blobs cut by the window's end.
func decodeWindow(data []byte, name string, window int) (*Catalog, error) {
	d := newDecoder(NewBuilder())
	d.window = window
	d.decodeReader(name, iotest.HalfReader(bytes.NewReader(data)), -1)
	return d.build()
}

func TestDecodeSmallWindows(t *testing.T) {
	var inputs [][]byte
	files, err := filepath.Glob(filepath.Join("testdata", "decode", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join("testdata", "decode", "errors", "*.json"))
	for _, f := range append(files, more...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, data)
	}
	for _, in := range []string{
		"{\"schema\":\"olm.package\",\"name\":\"a\"}\n[1,2]\n\"x\"\n}\n{\"schema\":\"x\",\"a\":[true,false,null,-1.5e3]}",
		"{\"schema\":\"olm.package\",\"name\":\"a\" \"b\"}   \n  {\"x\":1}\n{\"schema\":\"olm.package\",\"name\":\"c\"}",
		"{\"schema\":\"olm.package\",\"name\":\"a\"}\n{\"schema\":\"olm.channel\",\"package\":\"a\",\"name\":\"s\",\"entries\":[{\"name\":\"x\"\n",
	} {
		inputs = append(inputs, []byte(in))
	}
	for i, data := range inputs {
		want, wantErr := Decode(bytes.NewReader(data), "in")
		for _, window := range []int{1, 2, 7, 64, 1000} {
			got, gotErr := decodeWindow(data, "in", window)
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Errorf("input %d, window %d: error\n%v\nwant\n%v", i, window, gotErr, wantErr)
				continue
			}
			if want != nil && modelText(t, got) != modelText(t, want) {
				t.Errorf("input %d, window %d: model differs", i, window)
			}
			if want != nil {
				for _, p := range want.Packages() {
					if q := got.Package(p.Name); q == nil || q.Pos != p.Pos {
						t.Errorf("input %d, window %d: package %q position %+v, want %+v", i, window, p.Name, q.Pos, p.Pos)
					}
				}
			}
		}
	}
}

// TestDecodeColumns: a position's column counts characters from the start
// of its line, whether blobs share a line or not.
func TestDecodeColumns(t *testing.T) {
	src := "  {\"schema\":\"olm.package\",\"name\":\"é\",\"defaultChannel\":\"s\"}\n" +
		"{\"schema\":\"olm.bundle\",\"name\":\"é.v1\",\"package\":\"é\",\"image\":\"i\",\"properties\":[{\"type\":\"olm.package\",\"value\":{\"packageName\":\"é\",\"version\":\"1.0.0\"}}]} {\"schema\":\"olm.channel\",\"package\":\"é\",\"name\":\"s\",\"entries\":[{\"name\":\"é.v1\"}]}\n"
	c, err := Decode(strings.NewReader(src), "cols.json")
	if err != nil {
		t.Fatal(err)
	}
	p := c.Package("é")
	for _, tt := range []struct {
		what      string
		pos       Position
		line, col int
	}{
		{"package", p.Pos, 1, 3},
		{"bundle", p.Bundle("é.v1").Pos, 2, 1},
		{"channel", p.Channel("s").Pos, 2, 149},
	} {
		if tt.pos.Line != tt.line || tt.pos.Column != tt.col {
			t.Errorf("%s at %d:%d, want %d:%d", tt.what, tt.pos.Line, tt.pos.Column, tt.line, tt.col)
		}
	}
}
