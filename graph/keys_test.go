package graph

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// keyCatalog is a sound catalog of package foo (channel stable, foo.v1
// then foo.v2) as JSON lines, with each line's text passed through edit.
func keyCatalog(edit func(line string) string) string {
	lines := []string{
		`{"schema":"olm.package","name":"foo","defaultChannel":"stable"}`,
		`{"schema":"olm.channel","package":"foo","name":"stable","entries":[{"name":"foo.v1"},{"name":"foo.v2","replaces":"foo.v1"}]}`,
		`{"schema":"olm.bundle","name":"foo.v1","package":"foo","image":"i1","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"1.0.0"}}]}`,
		`{"schema":"olm.bundle","name":"foo.v2","package":"foo","image":"i2","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"2.0.0"}}]}`,
	}
	for i := range lines {
		lines[i] = edit(lines[i])
	}
	return strings.Join(lines, "\n") + "\n"
}

// replacer returns an edit that replaces old by new.
func replacer(old, new string) func(string) string {
	return func(l string) string { return strings.Replace(l, old, new, 1) }
}

// keyIdent is a key finding in a few words: "code pkg/ch/bundle line:col brief".
func keyIdent(f Finding) string {
	return fmt.Sprintf("%s %s %s/%s/%s %d:%d %s", f.Severity, f.Code, f.Package, f.Channel, f.Bundle, f.Pos.Line, f.Pos.Column, f.Brief)
}

// TestKeyFindings: what a blob carries that opm does not read as written
// is a finding at the key, with the key opm reads in its stead or the
// nearest it has.
func TestKeyFindings(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		edit   func(string) string
		want   []string
	}{
		{name: "sound", edit: func(l string) string { return l }},
		{
			name:   "replace for replaces",
			reason: "the typo of the issue: the edge is cut, and the finding names the key",
			edit:   replacer(`"replaces":"foo.v1"`, `"replace":"foo.v1"`),
			want:   []string{`warning unknown-key foo/stable/foo.v2 2:103 "replace" at entries[1] is not read (did you mean "replaces"?)`},
		},
		{
			name:   "defaultchannel",
			reason: "opm reads it as defaultChannel (encoding/json matches keys ignoring case): read, and said",
			edit:   replacer(`"defaultChannel"`, `"defaultchannel"`),
			want:   []string{`warning miscased-key foo// 1:38 "defaultchannel" is read as "defaultChannel"`},
		},
		{
			name: "unknown top-level key",
			edit: replacer(`"image":"i1"`, `"imag":"i1"`),
			want: []string{`warning unknown-key foo//foo.v1 3:56 "imag" is not read (did you mean "image"?)`},
		},
		{
			name:   "a key of another schema",
			reason: "image is read in a bundle only",
			edit:   replacer(`"defaultChannel":"stable"`, `"defaultChannel":"stable","image":"x"`),
			want:   []string{`warning unknown-key foo// 1:64 "image" is not read`},
		},
		{
			name: "property and related image keys",
			edit: func(l string) string {
				l = strings.Replace(l, `"image":"i2"`, `"image":"i2","relatedImages":[{"nmae":"a","image":"b"}]`, 1)
				return strings.Replace(l, `{"type":"olm.package","value":{"packageName":"foo","version":"1.0.0"}}`, `{"type":"olm.package","Value":{"packageName":"foo","version":"1.0.0"}}`, 1)
			},
			want: []string{
				`warning miscased-key foo//foo.v1 3:105 "Value" at properties[0] is read as "value"`,
				`warning unknown-key foo//foo.v2 4:87 "nmae" at relatedImages[0] is not read (did you mean "name"?)`,
			},
		},
		{
			name:   "package properties and icon",
			reason: "read by opm, not by Sextant: their keys are checked all the same",
			edit:   replacer(`"defaultChannel":"stable"`, `"defaultChannel":"stable","icon":{"base64data":"","mediaType":"image/png","x":1},"properties":[{"typ":"a","value":1}],"description":"d"`),
			want: []string{
				`warning miscased-key foo// 1:88 "mediaType" at icon is read as "mediatype"`,
				`warning unknown-key foo// 1:112 "x" at icon is not read`,
				`warning unknown-key foo// 1:134 "typ" at properties[0] is not read (did you mean "type"?)`,
			},
		},
		{
			name: "kind in a catalog blob",
			edit: replacer(`{"schema":"olm.package",`, `{"schema":"olm.package","kind":"Package",`),
			want: []string{`warning unknown-key foo// 1:25 "kind" is not read`},
		},
		{
			name:   "unknown schemas",
			reason: "a near or olm. schema is a warning; a tool's own schema an info",
			edit: func(l string) string {
				if strings.HasPrefix(l, `{"schema":"olm.package"`) {
					l += "\n" + `{"schema":"olm.pakage","name":"bar"}` + "\n" + `{"schema":"example.com/notes","package":"foo"}`
				}
				return l
			},
			want: []string{
				`warning unknown-schema // 2:2 schema "olm.pakage" is not one opm reads (did you mean "olm.package"?)`,
				`info unknown-schema foo// 3:2 schema "example.com/notes" is not one opm reads`,
			},
		},
		{
			name: "deprecations",
			edit: func(l string) string {
				if strings.HasPrefix(l, `{"schema":"olm.package"`) {
					l += "\n" + `{"schema":"olm.deprecations","package":"foo","name":"n","entries":[{"reference":{"schema":"olm.bundle","nme":"foo.v1"},"mesage":"m"}]}`
				}
				return l
			},
			want: []string{
				`warning unknown-key foo// 2:46 "name" is not read`,
				`warning unknown-key foo// 2:104 "nme" at entries[0].reference is not read (did you mean "name"?)`,
				`warning unknown-key foo// 2:120 "mesage" at entries[0] is not read (did you mean "message"?)`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Decode(strings.NewReader(keyCatalog(tt.edit)), "c.json")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range c.KeyFindings() {
				got = append(got, keyIdent(f))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("key findings (%s):\n got %q\nwant %q", tt.reason, got, tt.want)
			}
			for _, f := range c.KeyFindings() {
				if !slices.ContainsFunc(c.Validate(), func(v Finding) bool { return v == f }) {
					t.Errorf("Validate lacks %s", keyIdent(f))
				}
			}
		})
	}
}

// TestKeysReadAsOpm: keys are read as operator-registry v1.55's declcfg
// reads them (each case was run through its LoadFS): a key that matches
// no key of the object exactly is the one it equals ignoring case; of
// several spellings of one key in an object, the last in byte order wins,
// as encoding/json reads opm's re-encoded map (a null changes a string
// nothing); at the top of a blob, two spellings of one key are an error.
func TestKeysReadAsOpm(t *testing.T) {
	entries := func(es string) string {
		return keyCatalog(replacer(`[{"name":"foo.v1"},{"name":"foo.v2","replaces":"foo.v1"}]`, es))
	}
	tests := []struct {
		name    string
		catalog string
		// want: the package's default channel, then each entry as
		// name<replaces, in order.
		want    string
		wantErr string
	}{
		{name: "sound", catalog: keyCatalog(func(l string) string { return l }), want: "stable foo.v1< foo.v2<foo.v1"},
		{name: "miscased top-level keys", catalog: keyCatalog(func(l string) string {
			l = strings.Replace(l, `"defaultChannel"`, `"DEFAULTCHANNEL"`, 1)
			return strings.Replace(l, `{"schema":"olm.channel","package"`, `{"Schema":"olm.channel","PACKAGE"`, 1)
		}), want: "stable foo.v1< foo.v2<foo.v1"},
		{name: "long s and Kelvin sign fold", catalog: entries(`[{"name":"foo.v1"},{"name":"foo.v2","replaceſ":"foo.v1"}]`), want: "stable foo.v1< foo.v2<foo.v1"},
		{name: "Replaces before replaces in byte order", catalog: entries(`[{"name":"foo.v1"},{"name":"foo.v2","replaces":"foo.v1","Replaces":"zzz"}]`), want: "stable foo.v1< foo.v2<foo.v1"},
		{name: "whatever the order in the object", catalog: entries(`[{"name":"foo.v1"},{"name":"foo.v2","Replaces":"zzz","replaces":"foo.v1"}]`), want: "stable foo.v1< foo.v2<foo.v1"},
		{name: "three spellings", catalog: entries(`[{"name":"foo.v1"},{"name":"foo.v2","replaces":"foo.v1","REPLACES":"a","Replaces":"b"}]`), want: "stable foo.v1< foo.v2<foo.v1"},
		{name: "a null leaves a string", catalog: entries(`[{"name":"foo.v1"},{"name":"foo.v2","Replaces":"foo.v1","replaces":null}]`), want: "stable foo.v1< foo.v2<foo.v1"},
		{name: "a key written twice alike: the last", catalog: entries(`[{"name":"foo.v1"},{"name":"foo.v2","replaces":"foo.v1","replaces":null}]`), want: "stable foo.v1< foo.v2<"},
		{name: "top-level spellings of one key", catalog: keyCatalog(replacer(`"defaultChannel":"stable"`, `"defaultChannel":"a","DefaultChannel":"stable"`)),
			wantErr: `c.json:1: olm.package "foo": duplicate keys for key "defaultchannel": [DefaultChannel defaultChannel]`},
		{name: "top-level keys opm does not read", catalog: keyCatalog(replacer(`"defaultChannel":"stable"`, `"defaultChannel":"stable","foo":1,"FOO":2`)),
			wantErr: `duplicate keys for key "foo": [FOO foo]`},
		{name: "full case folding", catalog: keyCatalog(replacer(`"defaultChannel":"stable"`, `"defaultChannel":"stable","straße":1,"STRASSE":2`)),
			wantErr: `duplicate keys for key "strasse": [STRASSE straße]`},
		{name: "a null name", catalog: keyCatalog(replacer(`"name":"foo.v1",`, `"name":"foo.v1","name":null,`)),
			wantErr: `field "name" is null, want a string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Decode(strings.NewReader(tt.catalog), "c.json")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				var de *DecodeError
				if !errors.As(err, &de) {
					t.Errorf("%v is no *DecodeError", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			p := c.Package("foo")
			got := []string{p.DefaultChannel}
			for _, e := range p.Channel("stable").Entries {
				got = append(got, e.Name+"<"+e.Replaces)
			}
			if s := strings.Join(got, " "); s != tt.want {
				t.Errorf("read %q, want %q", s, tt.want)
			}
		})
	}
}

// TestKeyFindingsYAML: in a YAML document a key's finding is at its own
// line.
func TestKeyFindingsYAML(t *testing.T) {
	doc := `schema: olm.package
name: foo
defaultchannel: stable
---
schema: olm.channel
package: foo
name: stable
entries:
  - name: foo.v1
  - name: foo.v2
    replace: foo.v1
---
schema: olm.bundle
name: foo.v1
package: foo
image: i
properties:
  - type: olm.package
    value:
      packageName: foo
      version: 1.0.0
relatedImages:
- name: x
  imgae: z
`
	c, err := Decode(strings.NewReader(doc), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range c.KeyFindings() {
		got = append(got, fmt.Sprintf("%s %d", f.Brief, f.Pos.Line))
	}
	want := []string{
		`"defaultchannel" is read as "defaultChannel" 3`,
		`"replace" at entries[1] is not read (did you mean "replaces"?) 11`,
		`"imgae" at relatedImages[0] is not read (did you mean "image"?) 24`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestFullFold holds the duplicate-key check's folding to the cases opm's
// (golang.org/x/text's cases.Fold) was measured on.
func TestFullFold(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"straße", "STRASSE", true},
		{"ẞ", "ss", true},
		{"ſchema", "SCHEMA", true},
		{"ﬁle", "FILE", true},
		{"name", "nam", false},
		{"ı", "i", false},
		{"İ", "i", false},
		{"ΐ", "ΐ", true},
	}
	for _, tt := range tests {
		if got := fullFoldEqual(tt.a, tt.b); got != tt.want {
			t.Errorf("fullFoldEqual(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
	for i := 1; i < len(fullFolds); i++ {
		if fullFolds[i-1].r >= fullFolds[i].r {
			t.Fatalf("fullFolds not sorted at %U", fullFolds[i].r)
		}
	}
}
