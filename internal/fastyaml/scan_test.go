package fastyaml

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/sextantdev/sextant/internal/testcatalog"
)

// scanKeys are the top-level fields the scan tests ask for.
var scanKeys = []string{"apiVersion", "kind", "metadata", "items", "schema"}

// checkScan fails t unless a Scanner answers for doc what Fast's value
// says: the same ok, the type of the value and the type and text of each
// asked-for top-level field.
func checkScan(t *testing.T, s *Scanner, doc []byte) (ok bool) {
	t.Helper()
	root, ok := s.Scan(doc)
	v, fast := Fast(doc)
	if ok != fast {
		t.Fatalf("Scan ok %v, Fast ok %v, for %q", ok, fast, doc)
	}
	if !ok {
		return false
	}
	if want := typeOf(v, true); root != want {
		t.Fatalf("Scan: type %v, Fast's value %#v, for %q", root, v, doc)
	}
	m, _ := v.(map[string]any)
	for i, k := range scanKeys {
		f := s.Field(i)
		raw, present := m[k]
		if want := typeOf(raw, present); f.Type != want {
			t.Fatalf("field %q: type %v, Fast's value %#v, for %q", k, f.Type, raw, doc)
		}
		if want := scalarText(raw); (f.Type != Object && f.Type != Array) && string(f.Text) != want {
			t.Fatalf("field %q: text %q, Fast's value %#v, for %q", k, f.Text, raw, doc)
		}
	}
	return true
}

// typeOf is the Type of a value of Fast (Absent when not present).
func typeOf(v any, present bool) Type {
	switch v.(type) {
	case nil:
		if !present {
			return Absent
		}
		return Null
	case string:
		return String
	case json.Number:
		return Number
	case bool:
		return Bool
	case map[string]any:
		return Object
	case []any:
		return Array
	}
	return Absent
}

// scalarText is the Text a Field gives for a scalar of Fast.
func scalarText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case json.Number:
		return string(v)
	}
	return ""
}

// scanCases are documents whose scan needs care, beside fastYAMLCases.
var scanCases = []string{
	"apiVersion: v1\nkind: List\nitems:\n- a\nmetadata: {}\n",
	"kind:\n  a: 1\napiVersion: 3\nschema: olm.package\n",
	"kind: ''\napiVersion: ~\nmetadata: []\n",
	"kind: true\nitems:\n- kind: x\n  apiVersion: y\n",
	"a: 1\nb: 2\na: 3\n",
	"a:\n  x: 1\n  x: 2\n",
	"a:\n- x: 1\n  x: 2\n",
	"k1: 1\nk2: 2\nk3: 3\nk4: 4\nk5: 5\nk6: 6\nk7: 7\nk8: 8\nk9: 9\nk1: 10\n",
	"k9: 1\nk8: 2\nk7: 3\nk6: 4\nk5: 5\nk4: 6\nk3: 7\nk2: 8\nk1: 9\nk0: 10\n",
	"- kind: x\n",
	"just text\n",
	"",
}

// TestScan: a Scanner agrees with Fast on the cases and on every manifest
// of testdata, one Scanner reused for all.
func TestScan(t *testing.T) {
	s := NewScanner(scanKeys...)
	took := 0
	for _, c := range fastYAMLCases {
		checkScan(t, s, []byte(c.doc))
	}
	for _, doc := range scanCases {
		checkScan(t, s, []byte(doc))
	}
	for _, f := range testcatalog.Manifests(t) {
		for _, doc := range bytes.Split([]byte(f.Text), []byte("\n---\n")) {
			if checkScan(t, s, doc) {
				took++
			}
		}
	}
	if took < 10 {
		t.Fatalf("the scan took only %d documents of testdata", took)
	}
	doc := []byte(fastYAMLCases[0].doc)
	if n := testing.AllocsPerRun(100, func() { s.Scan(doc) }); n != 0 {
		t.Fatalf("Scan allocates %v times a document, want 0", n)
	}
}

// FuzzScan: whatever the document, a Scanner agrees with Fast.
func FuzzScan(f *testing.F) {
	for _, c := range fastYAMLCases {
		f.Add([]byte(c.doc))
	}
	for _, doc := range scanCases {
		f.Add([]byte(doc))
	}
	s := NewScanner(scanKeys...)
	f.Fuzz(func(t *testing.T, doc []byte) {
		if len(doc) <= 4096 {
			checkScan(t, s, doc)
		}
	})
}
