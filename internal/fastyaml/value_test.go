package fastyaml

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"sigs.k8s.io/yaml"

	"github.com/sextantdev/sextant/internal/testcatalog"
)

// yamlValueCases are YAML documents whose values need care: every kind of
// scalar the parser gives, keys of other types, anchors and merge keys.
var yamlValueCases = []struct{ name, doc string }{
	{"object", "a: 1\nb: [x, 2, 3.5, true, null]\nc: {d: e}\n"},
	{"ints", "a: 0x1F\nb: 017\nc: -42\nd: 9223372036854775807\ne: 18446744073709551615\nf: 18446744073709551616\n"},
	{"floats", "a: 1.0\nb: 1e21\nc: 1e-7\nd: -0.0\ne: 0.1\nf: 123456789.125\n"},
	{"infinities", "a: .inf\nb: -.Inf\nc: .nan\n"},
	{"bools, YAML 1.1", "a: yes\nb: no\nc: on\nd: off\ne: True\n"},
	{"keys of other types", "1: a\ntrue: b\n2.5: c\n~: d\n"},
	{"compound key", "? [a, b]\n: c\n"},
	{"timestamp", "a: 2001-12-14t21:59:43.10-05:00\nb: 2002-12-14\n"},
	{"binary, not UTF-8", "a: !!binary /w==\n"},
	{"anchors and merge", "base: &b {x: 1, y: 2}\nderived:\n  <<: *b\n  y: 3\n"},
	{"top-level list", "- 1\n- a\n"},
	{"scalar", "just text\n"},
	{"empty", ""},
	{"comment only", "# nothing\n"},
	{"null", "~\n"},
	{"tab indentation", "a:\n\tb: 1\n"},
	{"unclosed", "a: [1, 2\n"},
	{"html and escapes", "a: \"<b>&amp;\\u2028\"\n"},
}

// TestYAMLValueAgrees holds yamlValue to the JSON round trip it replaces,
// value for value and error for error, on the cases and on every manifest
// of testdata.
func TestYAMLValueAgrees(t *testing.T) {
	docs := yamlValueCases
	for _, f := range testcatalog.Manifests(t) {
		docs = append(docs, struct{ name, doc string }{f.Name, f.Text})
	}
	for _, c := range docs {
		t.Run(c.name, func(t *testing.T) { checkYAMLValue(t, []byte(c.doc)) })
	}
}

// checkYAMLValue fails t unless yamlValue and yamlValueViaJSON agree on doc.
func checkYAMLValue(t *testing.T, doc []byte) {
	t.Helper()
	got, gotErr := Value(doc)
	if _, ok := gotErr.(*keyTwiceError); ok {
		return // the round trip keeps one of the two at random
	}
	want, wantErr := ViaJSON(doc)
	if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
		t.Fatalf("error %v, the round trip gives %v", gotErr, wantErr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("value %#v, the round trip gives %#v", got, want)
	}
}

// FuzzYAMLValue: for any document, the direct conversion gives what the
// JSON round trip gives.
func FuzzYAMLValue(f *testing.F) {
	for _, c := range yamlValueCases {
		f.Add([]byte(c.doc))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if len(doc) > 4096 {
			return // the parser's own cost, not the conversion
		}
		checkYAMLValue(t, doc)
	})
}

// TestYAMLKeyTwice: a key written two ways is an error, not a coin toss,
// in Value and in ToJSON.
func TestYAMLKeyTwice(t *testing.T) {
	for _, c := range []struct{ name, doc, key string }{
		{"int and quoted", "1: a\n\"1\": b\n", "1"},
		{"bool and quoted", "a:\n  true: x\n  \"true\": y\n", "true"},
		// FuzzToJSON's finding: "! 0" is the string "0", the other key the
		// int 0; YAMLToJSON kept the sequence or the null at random.
		{"int and tagged", "0:\n- 0: \n- 0:\n! 0:", "0"},
		{"two keys twice", "2: x\n\"2\": y\n1: z\n'1': w\n", "1"}, // ToJSON names the first in key order
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Value([]byte(c.doc)); err == nil || !strings.Contains(err.Error(), "is written twice") {
				t.Errorf("Value: error %v, want a key written twice", err)
			}
			want := fmt.Sprintf("key %q is written twice", c.key)
			if j, err := ToJSON([]byte(c.doc)); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("ToJSON: %s, error %v, want %s", j, err, want)
			}
		})
	}
}

// checkFastYAML fails t unless fastYAML, where it takes doc, gives what
// the library gives.
func checkFastYAML(t *testing.T, doc []byte) (fast bool) {
	t.Helper()
	got, ok := Fast(doc)
	if !ok {
		return false
	}
	want, err := Library(doc)
	if err != nil {
		t.Fatalf("fastYAML took %q, which the library refuses: %v", doc, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("fastYAML gives %#v, the library %#v, for %q", got, want, doc)
	}
	// Its strings shared with the document from any length: the same value.
	if shared, ok := fastTree(doc, 1); !ok || !reflect.DeepEqual(shared, got) {
		t.Fatalf("fastYAML sharing strings gives %#v (%v), without %#v, for %q", shared, ok, got, doc)
	}
	return true
}

// TestValueSharing: ValueSharing gives Value's value, its long strings
// where they lie in the document when they lie there as they read.
func TestValueSharing(t *testing.T) {
	long := strings.Repeat(`{"type":"olm.gvk","value":{"group":"g.example.com","kind":"K","version":"v1"}},`, 1000)
	for _, c := range []struct {
		name, doc string
		shared    bool
	}{
		{"single-quoted on one line", "metadata:\n  annotations:\n    a: '" + long + "'\n", true},
		{"plain", "a: x" + long + "\n", true},
		{"double-quoted, escaped", "a: \"\\t" + strings.ReplaceAll(long, `"`, `\"`) + "\"\n", false},
		{"on two lines", "a: '" + long + "\n  " + long + "'\nb: 'x\n  y'\n", false}, // put together in the parser's buffer, which b reuses
		{"single-quoted with a quote", "a: '" + long + "''" + long + "'\n", false},
		{"less than half the document", "a: '" + long + "'\nb: '" + long + "x'\nc: '" + long + "y'\n", false},
		{"short", "a: 'x'\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := []byte(c.doc)
			got, err := ValueSharing(doc)
			want, werr := Value(doc)
			if err != nil || werr != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("ValueSharing gives %.80v (%v), Value %.80v (%v)", got, err, want, werr)
			}
			a, _ := got.(map[string]any)["a"].(string)
			if a == "" {
				a = got.(map[string]any)["metadata"].(map[string]any)["annotations"].(map[string]any)["a"].(string)
			}
			start := unsafe.Pointer(unsafe.SliceData(doc))
			in := uintptr(unsafe.Pointer(unsafe.StringData(a)))-uintptr(start) < uintptr(len(doc))
			if in != c.shared {
				t.Errorf("the string shares the document's memory: %v, want %v", in, c.shared)
			}
			if v, _ := Value(doc); v.(map[string]any)["a"] != nil {
				if s := v.(map[string]any)["a"].(string); uintptr(unsafe.Pointer(unsafe.StringData(s)))-uintptr(start) < uintptr(len(doc)) {
					t.Error("Value shares the document's memory")
				}
			}
		})
	}
}

// fastYAMLCases are documents in and near the subset fastYAML takes.
var fastYAMLCases = []struct {
	name, doc string
	fast      bool
}{
	{"kubectl object", "apiVersion: operators.coreos.com/v1alpha1\nkind: Subscription\nmetadata:\n  name: a\n  namespace: ns\n  labels:\n    operators.coreos.com/a.ns: \"\"\nspec:\n  channel: stable\n  name: a\n  config: {}\n  targets: []\nstatus:\n  conditions:\n  - type: Ready\n    status: \"True\"\n  - lastTransitionTime: \"2026-01-02T03:04:05Z\"\n    reason: ''\n", true},
	{"literal blocks", "a: |\n  line one\n\n  line three\n    indented\nb: |-\n  stripped\n\n\nc: x\n", true},
	{"sequence at the key's indentation", "items:\n- a\n- b: 1\n  c: -3\n-\n  d: 0\n- version: 1.2.3\n", true},
	{"quotes", "a: 'it''s'\nb: \"plain\"\nc: 'x: y'\n", true},
	{"JSONPaths", "additionalPrinterColumns:\n- jsonPath: .spec.replicas\n  name: Replicas\n- jsonPath: .status.conditions[?(@.type==\"Ready\")].status\n", true},
	{"dot floats", "a: .5\n", false},
	{"flags", "args:\n- --leader-elect\n- --metrics-bind-address=:8443\n- -v=2\n", true},
	{"plus and hex letters", "a: +beef\n", false},
	{"dash space", "a: - 0\n", false},
	{"signed numbers", "a: -0x1F\n", false},
	{"signed infinity", "a: -.Inf\n", false},
	{"signed exponent", "a: +1e-3\n", false},
	{"dot infinity", "a: .Inf\n", false},
	{"dot exponent", "a: .5e3\n", false},
	{"comments", "# head\na: 1 # trailing\n", false},
	{"YAML 1.1 words", "a: yes\nb: on\nc: True\nd: ~\n", false},
	{"numbers", "a: 1.5\nb: 012\nc: 0x1F\nd: 1e3\ne: 123456789012345678901\n", false},
	{"flow", "a: [1, 2]\nb: {c: d}\n", false},
	{"anchor", "a: &x 1\nb: *x\n", false},
	{"folded", "a: >\n  folded\n", true},
	{"escapes", "a: \"tab\\there\"\n", true},
	// What the YAML writers print for long or odd strings.
	{"plain over lines", "a: one two\n  three\n\n  four\n\n\n  five\nb:\n- six\n  seven\n- k: eight\n    nine\n", true},
	{"plain over lines, then a comment", "a: one\n  # not text\nb: 2\n", true},
	{"plain over lines with a dash", "a: one\n  - two\n", true},
	{"plain over lines with a colon", "a: one\n  two: three\n", false},
	{"single quotes over lines", "a: 'one ''two''\n  three   \n\n    four'\nb: '\n  x\n  '\n", true},
	{"single quote at the key's indentation", "a: 'one\ntwo'\n", false},
	{"double quotes over lines", "a: \"one \\\n   two\\\n\n  three \\t\\x41\\u00e9\\U0001F600\\N\\_\\L\\P\\0\\e\\/\"\n", false},
	{"double quotes, every escape", "a: \"\\0\\a\\b\\t\\n\\v\\f\\r\\e\\ \\\"\\'\\\\\\N\\_\\L\\P\\x41\\u00e9\\U0001F600\"\nb: \"x \\\n   y\\\n\n  z\"\n", true},
	{"double quotes, an escaped space last", "a: \"x\\ \n  y\"\nb: \"z\\ \"\n", true},
	{"double quotes, a surrogate", "a: \"\\ud800\"\n", false},
	{"literal, keep", "a: |+\n  x\n\n\nb: |2-\n    indented\n   less\nc: |\n\n  after a blank line\n", true},
	{"literal in a sequence", "- |\n  x\n  y\n- >-\n  a\n  b\n\n  c\n   more\n  d\n", true},
	{"folded, every chomping", "a: >\n  one\n  two\n\n  three\n    more indented\n  four\n\nb: >-\n  x\nc: >+\n  y\n\n", true},
	{"block, spaces past the indentation", "a: |\n  x\n     \n  y\n", true},
	{"block, deeper blank line first", "a: |\n      \n  x\n", false},
	{"block with a comment", "a: | # c\n  x\n", false},
	{"not a timestamp", "createdAt: 2022-07-20T12:49:19UTC\nb: 2022-13-01x\n", true},
	{"a timestamp", "a: 2022-07-20T12:49:19Z\n", false},
	{"a date", "a: 2002-12-14\n", false},
	{"keys out of order", "b: 1\na: {}\nc:\n  z: 1\n  x: [a]\n  w: 2\n", false},
	{"keys out of order, nested", "b: 1\na: {}\nc:\n  z: 1\n  x:\n    q: 1\n    p: 2\n  w: 2\n", true},
	{"version", "version: 0.0.1\nv: 1.0.0-beta\nw: 2.x\n", true},
	{"words as keys", "yes: 1\n", false},
	{"empty", "", true},
	{"null value", "a:\nb: c\n", true},
	{"nested lists", "a:\n  - - x\n", false},
	// Characters Unicode calls white space and YAML does not: content.
	{"en quad after a dash", "- \u2000", false},
	{"white space that is content", "a: \u00a0\nb: \u2000x\nc: \u3000\n", false},
	{"white space that is an item", "- \u200a\n- \u3000x\n", false},
	{"white space that ends a scalar", "a: x\u00a0\nb: y\u2009\nc:\n- z\u3000\n", true},
}

// TestFastYAML: fastYAML takes the plain block style and gives the
// library's value; it leaves the rest to the library.
func TestFastYAML(t *testing.T) {
	for _, c := range fastYAMLCases {
		t.Run(c.name, func(t *testing.T) {
			if fast := checkFastYAML(t, []byte(c.doc)); fast != c.fast {
				t.Fatalf("fast %v, want %v", fast, c.fast)
			}
		})
	}
	fast := 0
	for _, f := range testcatalog.Manifests(t) {
		for _, doc := range bytes.Split([]byte(f.Text), []byte("\n---\n")) {
			if checkFastYAML(t, doc) {
				fast++
			}
		}
	}
	if fast < 10 {
		t.Fatalf("fastYAML took only %d documents of testdata", fast)
	}
}

// TestPlainScalarTyping holds the typing of plain scalars that start
// with a sign or a dot (flags, JSONPaths, numbers of every base, YAML's
// infinities) to the library: every such scalar of up to four characters
// of an alphabet of what numbers, flags and paths are made of, and YAML's
// infinities and numbers of every base with and without signs, as a
// mapping's value and as a sequence's item.
func TestPlainScalarTyping(t *testing.T) {
	if testing.Short() {
		t.Skip("a hundred thousand documents through the library")
	}
	const alphabet = "-+.0_1exXoObBfFaiInNz:s "
	var scalars []string
	var grow func(s string, n int)
	grow = func(s string, n int) {
		scalars = append(scalars, s)
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			grow(s+string(c), n-1)
		}
	}
	for _, head := range []string{"-", "+", "."} {
		grow(head, 3)
	}
	for _, w := range []string{".inf", ".Inf", ".INF", ".nan", ".NaN", ".NAN", ".iNf", ".5e3", ".5_0", "1_0.5", "0x1p-2", "0b1_0", "0o17", "1e+3", "1E3"} {
		scalars = append(scalars, w, "-"+w, "+"+w, "--"+w)
	}
	for _, s := range scalars {
		for _, doc := range []string{"a: " + s + "\n", "- " + s + "\n"} {
			checkFastYAML(t, []byte(doc))
		}
	}
}

// FuzzFastYAML: where fastYAML takes a document, it gives the library's
// value.
func FuzzFastYAML(f *testing.F) {
	for _, c := range fastYAMLCases {
		f.Add([]byte(c.doc))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if len(doc) <= 4096 {
			checkFastYAML(t, doc)
		}
	})
}

// checkToJSON fails t unless ToJSON gives what sigs.k8s.io/yaml.YAMLToJSON
// gives for doc, byte for byte, or the same error, and the same answer
// every time. Where YAMLToJSON answers at random (it ranges over a map),
// ToJSON's answer must be one of YAMLToJSON's, or, for a key written two
// ways, the error Value gives.
func checkToJSON(t *testing.T, doc []byte) {
	t.Helper()
	got, gotErr := ToJSON(doc)
	if again, againErr := ToJSON(doc); !bytes.Equal(again, got) || fmt.Sprint(againErr) != fmt.Sprint(gotErr) {
		t.Fatalf("ToJSON(%q) gives %s (%v), then %s (%v)", doc, got, gotErr, again, againErr)
	}
	if _, ok := gotErr.(*keyTwiceError); ok {
		if _, err := Value(doc); err == nil || err.Error() != gotErr.Error() {
			t.Fatalf("ToJSON(%q): %v, Value's error %v", doc, gotErr, err)
		}
		return
	}
	same := func(j []byte, err error) bool {
		return bytes.Equal(got, j) && (gotErr == nil) == (err == nil) && (err == nil || gotErr.Error() == err.Error())
	}
	want, wantErr := yamlToJSON(doc)
	for try := 0; !same(want, wantErr) && try < 100; try++ {
		if j, err := yamlToJSON(doc); same(j, err) {
			return // one of YAMLToJSON's answers
		}
	}
	if !same(want, wantErr) {
		t.Fatalf("ToJSON(%q) =\n%s (%v)\nYAMLToJSON gives\n%s (%v)", doc, got, gotErr, want, wantErr)
	}
}

// yamlToJSON is sigs.k8s.io/yaml.YAMLToJSON, a panic an error.
func yamlToJSON(doc []byte) (j []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			j, err = nil, fmt.Errorf("yaml: %v", r)
		}
	}()
	return yaml.YAMLToJSON(doc)
}

// TestToJSON holds ToJSON to YAMLToJSON on the cases of Value and Fast, on
// strings every escape of encoding/json meets, and on every manifest and
// YAML catalog of testdata.
func TestToJSON(t *testing.T) {
	var docs []string
	for _, c := range yamlValueCases {
		docs = append(docs, c.doc)
	}
	for _, c := range fastYAMLCases {
		docs = append(docs, c.doc)
	}
	docs = append(docs,
		"a: \"<b>&amp; \\u2028 \\u2029 \\t \\x01 \\x7f é 日本\"\nb: '\"quoted\" \\back'\n",
		"z: 1\na: 2\nm:\n  y: [3, 4]\n  b: {}\n",
		"schema: olm.bundle\nproperties:\n- type: olm.package\n  value:\n    packageName: etcd\n    version: 0.9.4\n",
		"? [a]\n: 1\n? [b]\n: 2\n? [c]\n: 3\n",       // three errors: YAMLToJSON names one at random
		"a: {1: x, 2: y}\nb: {? [c] : z}\nc: .inf\n", // errors in two entries
	)
	for _, f := range testcatalog.Manifests(t) {
		docs = append(docs, strings.Split(f.Text, "\n---\n")...)
	}
	for _, d := range docs {
		checkToJSON(t, []byte(d))
	}
}

// FuzzToJSON: for any document, ToJSON gives what YAMLToJSON gives.
func FuzzToJSON(f *testing.F) {
	for _, c := range fastYAMLCases {
		f.Add([]byte(c.doc))
	}
	for _, c := range yamlValueCases {
		f.Add([]byte(c.doc))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if len(doc) <= 4096 {
			checkToJSON(t, doc)
		}
	})
}

// TestConverterObjects: Object tells where each JSON object of a converted
// document comes from, after the keys of the mappings around it were
// sorted, and nothing for a document the library converted.
func TestConverterObjects(t *testing.T) {
	doc := "schema: olm.channel\n" +
		"name: é\n" + // a character of two bytes before the entries: columns count characters
		"entries:\n" +
		"- name: b\n" +
		"  replaces: a\n" +
		"  z:\n" +
		"    x: {}\n" +
		"    w: 1\n" +
		"-   \n" +
		"  name: a\n" +
		"package: p\n"
	var c Converter
	j, err := c.Convert([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := yamlToJSON([]byte(doc))
	if !bytes.Equal(j, want) {
		t.Fatalf("Convert gives\n%s\nYAMLToJSON\n%s", j, want)
	}
	for _, o := range []struct {
		json      string // the object's JSON text starts so
		line, col int
		yaml      string // and its mapping's text
	}{
		{`{"entries":`, 0, 1, "schema:"},
		{`{"name":"b"`, 3, 3, "name: b"},
		{`{"w":1,"x":{}}`, 6, 5, "x: {}"},
		{`{}`, 6, 8, "{}"},
		{`{"name":"a"}`, 9, 3, "name: a"},
	} {
		off := bytes.Index(j, []byte(o.json))
		line, col, docOff, ok := c.Object(off)
		if !ok || line != o.line || col != o.col || !strings.HasPrefix(doc[docOff:], o.yaml) {
			t.Errorf("Object(%d) for %s = %d, %d, %q, %v; want %d, %d, %q", off, o.json, line, col, doc[docOff:], ok, o.line, o.col, o.yaml)
		}
	}
	if _, _, _, ok := c.Object(bytes.Index(j, []byte(`"name"`))); ok {
		t.Errorf("Object of a key: ok")
	}
	if _, err := c.Convert([]byte("a: &x {b: 1}\nc: *x\n")); err != nil {
		t.Fatal(err)
	}
	if _, _, _, ok := c.Object(0); ok {
		t.Errorf("Object of a document the library converted: ok")
	}
}
