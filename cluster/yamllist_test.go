package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/internal/fastyaml"
	"github.com/sextantdev/sextant/internal/testcatalog"
)

// listDocs are List documents in the layouts listItems splits, and in
// layouts it must leave to the whole parse.
var listDocs = []struct {
	name, doc string
	split     bool // listItems splits it
}{
	{"kubectl", `apiVersion: v1
items:
- apiVersion: operators.coreos.com/v1alpha1
  kind: Subscription
  metadata:
    name: a
    namespace: ns
  spec:
    name: a
    source: c
    sourceNamespace: olm
# a comment between items
- apiVersion: operators.coreos.com/v1alpha1
  kind: ClusterServiceVersion
  metadata:
    name: a.v1
    namespace: ns
    annotations:
      description: |
        * a bullet
        - a dash
  spec:
    version: 1.0.0
kind: List
metadata:
  resourceVersion: ""
`, true},
	{"indented items, kind first", `kind: List
apiVersion: v1
items:
  - apiVersion: operators.coreos.com/v1alpha1
    kind: Subscription
    metadata: {name: b, namespace: ns}
    spec: {name: b, source: c, sourceNamespace: olm}
  -
    apiVersion: operators.coreos.com/v1alpha1
    kind: Subscription
    metadata: {name: c, namespace: ns}
    spec: {name: c, source: c, sourceNamespace: olm}
`, true},
	{"typed list", `apiVersion: operators.coreos.com/v1alpha1
kind: SubscriptionList
items:
- metadata: {name: d, namespace: ns}
  spec: {name: d, source: c, sourceNamespace: olm}
`, true},
	{"a broken item", `apiVersion: v1
kind: List
items:
- apiVersion: operators.coreos.com/v1alpha1
  kind: Subscription
  metadata: {name: e, namespace: ns
  spec: {name: e, source: c, sourceNamespace: olm}
- apiVersion: operators.coreos.com/v1alpha1
  kind: Subscription
  metadata: {name: f, namespace: ns}
  spec: {name: f, source: c, sourceNamespace: olm}
`, true},
	{"an item that is not an object", "apiVersion: v1\nkind: List\nitems:\n- just text\n- 3\n", true},
	{"anchors", "apiVersion: v1\nkind: List\nitems:\n- &s {apiVersion: operators.coreos.com/v1alpha1, kind: Subscription, metadata: {name: g, namespace: ns}}\n- *s\n", false},
	{"flow items", "apiVersion: v1\nkind: List\nitems: [{kind: Subscription}]\n", false},
	{"under-indented line", "apiVersion: v1\nkind: List\nitems:\n  - kind: Subscription\n x: 1\n", false},
	{"tab", "apiVersion: v1\nkind: List\nitems:\n-\tkind: Subscription\n", false},
	{"not a list", "apiVersion: v1\nkind: ConfigMap\nitems:\n- a\n", true},
	{"many items", manyItems(40), true},
	{"items: inside a quoted scalar", "kind: List\na: 'x\nitems:\n- b\n'\nitems:\n", false},
	{"many items without a kind, mixed, one broken", kindlessItems(30), true},
}

// kindlessItems is a List of n items without a kind (every third with
// apiVersion null, one with kind "") among items that the scan must leave
// to the parse: a kind, a schema, an apiVersion that is not a string, a
// scalar, a broken item, an item whose text names a kind elsewhere, and a
// key written twice.
func kindlessItems(n int) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: List\nitems:\n")
	for i := range n {
		api := "operators.coreos.com/v1alpha1"
		if i%3 == 0 {
			api = "~"
		}
		fmt.Fprintf(&b, "- apiVersion: %s\n  metadata:\n    name: s%d\n    namespace: ns\n  spec:\n    name: p%d\n", api, i, i)
		switch i {
		case 3:
			b.WriteString("- kind: ''\n  metadata: {name: e, namespace: ns}\n")
		case 5:
			b.WriteString("- apiVersion: operators.coreos.com/v1alpha1\n  kind: Subscription\n  metadata:\n    name: k\n    namespace: ns\n  spec:\n    name: k\n")
		case 8:
			b.WriteString("- schema: olm.package\n  name: p\n")
		case 13:
			b.WriteString("- apiVersion: 3\n  metadata:\n    name: n\n")
		case 17:
			b.WriteString("- just text\n- metadata:\n    name: 'broken\n")
		case 21:
			b.WriteString("- metadata:\n    name: x\n    labels:\n      kind: a\n")
		case 25:
			b.WriteString("- metadata:\n    name: y\n    name: z\n")
		}
	}
	return b.String()
}

func manyItems(n int) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nitems:\n")
	for i := range n {
		fmt.Fprintf(&b, "- apiVersion: operators.coreos.com/v1alpha1\n  kind: Subscription\n  metadata:\n    name: s%d\n    namespace: ns\n  spec:\n    name: p%d\n    source: c\n    sourceNamespace: olm\n", i, i)
	}
	b.WriteString("kind: List\nmetadata:\n  resourceVersion: \"\"\n")
	return b.String()
}

// TestListItems checks which layouts are split.
func TestListItems(t *testing.T) {
	for _, c := range listDocs {
		t.Run(c.name, func(t *testing.T) {
			if _, _, ok := fastyaml.ListItems([]byte(c.doc)); ok != c.split {
				t.Fatalf("split %v, want %v", ok, c.split)
			}
			v, err := parseDocument([]byte(c.doc), 1, false)
			m, _ := v.(map[string]any)
			_, streamed := m["items"].(*streamedItems)
			if want := c.split && c.name != "not a list"; (c.split && err != nil) || streamed != want {
				t.Fatalf("parseDocument: items streamed %v (error %v), want %v", streamed, err, want)
			}
		})
	}
}

// TestListSplitAgrees: reading a List document item by item gives the
// state and the errors that reading it whole gives, on the cases and on
// every manifest of testdata.
func TestListSplitAgrees(t *testing.T) {
	docs := listDocs
	for _, f := range testcatalog.Manifests(t) {
		docs = append(docs, struct {
			name, doc string
			split     bool
		}{f.Name, f.Text, false})
	}
	for _, c := range docs {
		t.Run(c.name, func(t *testing.T) {
			split, splitErr := decodeWithSplit(t, c.doc, true)
			whole, wholeErr := decodeWithSplit(t, c.doc, false)
			if c.name == "a broken item" {
				// Whole or split, the broken item is an error at the
				// line of the file the parser names (its "line 6": the
				// item's third line), and names no other line.
				for _, msg := range []string{splitErr, wholeErr} {
					if !strings.HasPrefix(msg, "in.yaml:6: invalid YAML: ") || strings.Contains(msg, "line ") {
						t.Errorf("error %q, want it at the file's line 6, alone", msg)
					}
				}
				checkSkim(t, c.doc)
				return
			}
			checkSkim(t, c.doc)
			if strings.HasSuffix(c.name, "one broken") {
				return // read whole, the document is refused as a whole
			}
			if withoutLines(splitErr) != withoutLines(wholeErr) {
				t.Fatalf("split, error\n%s\nwhole, error\n%s", splitErr, wholeErr)
			}
			withoutItemLines(split, whole)
			if !reflect.DeepEqual(split, whole) {
				t.Fatalf("split, state %+v\nwhole, state %+v", split, whole)
			}
		})
	}
}

// withoutItemLines sets the lines of the states' notes and custom
// resources to 0: they are at the item's line, read item by item, or the
// List's, read whole, as errors are.
func withoutItemLines(states ...*State) {
	for _, s := range states {
		if s == nil {
			continue
		}
		for i := range s.Notes {
			s.Notes[i].Line = 0
		}
		for i := range s.CustomResources {
			s.CustomResources[i].Line = 0
		}
	}
}

// withoutLines returns errors without the lines they are at: read item by
// item, a List's problems are at each item's line; read whole, at the
// List's.
func withoutLines(errs string) string {
	return errorLine.ReplaceAllString(errs, "$1:")
}

var errorLine = regexp.MustCompile(`(?m)^(in\.(?:yaml|json)):\d+:`)

func decodeWithSplit(t testing.TB, doc string, split bool) (*State, string) {
	return decodeAs(t, doc, "in.yaml", split)
}

// decodeAs decodes doc as a file named name, with List documents split or
// read whole.
func decodeAs(t testing.TB, doc, name string, split bool) (*State, string) {
	t.Helper()
	st, err := Loader{wholeLists: !split}.Decode(context.Background(), strings.NewReader(doc), name)
	if err != nil {
		return st, err.Error()
	}
	return st, ""
}

// checkSkim fails t unless reading doc's List items with the scan of the
// items without a kind (skimmed) gives the state and the errors, at the
// same lines, that parsing every item gives.
func checkSkim(t *testing.T, doc string) {
	t.Helper()
	checkSkimAs(t, doc, "in.yaml")
}

// checkSkimAs is checkSkim for a file named name.
func checkSkimAs(t *testing.T, doc, name string) {
	t.Helper()
	skim, skimErr := Loader{}.Decode(context.Background(), strings.NewReader(doc), name)
	parse, parseErr := Loader{noSkim: true}.Decode(context.Background(), strings.NewReader(doc), name)
	if fmt.Sprint(skimErr) != fmt.Sprint(parseErr) || !reflect.DeepEqual(skim, parse) {
		t.Fatalf("scanned: %+v, error\n%v\nparsed: %+v, error\n%v", skim, skimErr, parse, parseErr)
	}
}

// TestListSkim: the scan leaves to the parse every item that is not plainly
// an object without a kind, and past MaxSameErrors only counts the others.
func TestListSkim(t *testing.T) {
	// Enough items for the pipeline to reuse its jobs.
	checkSkim(t, kindlessItems(8000))
	doc := kindlessItems(30)
	checkSkim(t, doc)
	_, err := Loader{}.Decode(context.Background(), strings.NewReader(doc), "in.yaml")
	for _, want := range []string{
		"in.yaml:4: object \"ns/s0\": field items[0].kind: missing",
		"in.yaml:28: object \"ns/e\": field items[4].kind: missing", // kind ""
		"in.yaml:67: a File-Based Catalog",
		"in.yaml:99: field items[17].apiVersion: is a number, want a string",
		"in.yaml:126: field items[22]: value is a string, want an object",
		"in.yaml:129: invalid YAML: ",
		"in.yaml:129: object \"ns/s18\": field items[24].kind: missing",
		"… and 13 more like the above at field items[].kind (33 in all)",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error\n%v\nwant it to hold %q", err, want)
		}
	}
}

// FuzzListSplit: whatever the document, reading a List item by item fails
// when reading it whole does, and otherwise gives the same state; the scan
// of the items without a kind gives what parsing them gives.
func FuzzListSplit(f *testing.F) {
	for _, c := range listDocs {
		f.Add(c.doc)
	}
	f.Add(kindlessItems(22))
	f.Fuzz(func(t *testing.T, doc string) {
		if len(doc) > 8192 {
			return
		}
		checkSkim(t, doc)
		split, splitErr := decodeWithSplit(t, doc, true)
		whole, wholeErr := decodeWithSplit(t, doc, false)
		if (splitErr == "") != (wholeErr == "") {
			t.Fatalf("split, error %q; whole, error %q", splitErr, wholeErr)
		}
		withoutItemLines(split, whole)
		if wholeErr == "" && !reflect.DeepEqual(split, whole) {
			t.Fatalf("split, state %+v\nwhole, state %+v", split, whole)
		}
	})
}

// jsonListDocs are the List documents of listDocs written as JSON, as
// `kubectl get -o json` prints them (those YAML can give), and a few only
// JSON can write.
func jsonListDocs(t testing.TB) []string {
	docs := []string{
		`{"apiVersion":"v1","items":"not an array","kind":"List"}`,
		`{"apiVersion":"v1","items":[],"items":[{"kind":"Subscription"}],"kind":"List"}`,
		`{"items":[{"apiVersion":"operators.coreos.com/v1alpha1","kind":"Subscription","metadata":{"name":"a","namespace":"ns"},"spec":{"name":"a","source":"c","sourceNamespace":"olm"}}],"kind":"List","apiVersion":"v1"}`,
		`{"apiVersion":"v1","kind":"ConfigMap","items":[1,2]}`,
		`{"apiVersion":"v1","kind":"List","items":[{"kind":"Subscription"} ]  }  `,
	}
	for _, c := range listDocs {
		v, err := fastyaml.ViaJSON([]byte(c.doc))
		if err != nil {
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, string(b))
	}
	return docs
}

// TestJSONListSplitAgrees: decoding a JSON List item by item gives what
// decoding it whole gives.
func TestJSONListSplitAgrees(t *testing.T) {
	split := 0
	for i, doc := range jsonListDocs(t) {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if _, ok := jsonListItems([]byte(doc), 1); ok {
				split++
			}
			checkJSONSplit(t, doc)
		})
	}
	if split < 5 {
		t.Fatalf("only %d documents split", split)
	}
}

func checkJSONSplit(t *testing.T, doc string) {
	t.Helper()
	checkSkimAs(t, doc, "in.json")
	split, splitErr := decodeAs(t, doc, "in.json", true)
	whole, wholeErr := decodeAs(t, doc, "in.json", false)
	if withoutLines(splitErr) != withoutLines(wholeErr) || !reflect.DeepEqual(split, whole) {
		t.Fatalf("split: %+v, error %q\nwhole: %+v, error %q", split, splitErr, whole, wholeErr)
	}
}

// kindlessJSONItems is a JSON List of n items without a kind, and among
// them the items the scan must leave to the decoding: a kind, a kind
// written twice (the last counts), a key with an escape, a schema, an
// apiVersion that is not a string, values that are not objects, a kind
// deeper down.
func kindlessJSONItems(n int) string {
	var b strings.Builder
	b.WriteString("{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n")
	for i := range n {
		api := `"operators.coreos.com/v1alpha1"`
		if i%3 == 0 {
			api = "null"
		}
		fmt.Fprintf(&b, "  {\"apiVersion\": %s, \"metadata\": {\"name\": \"s%d\", \"namespace\": \"ns\"}, \"spec\": {\"name\": \"p%d\"}},\n", api, i, i)
		switch i {
		case 2:
			b.WriteString("  {\"kind\": \"\", \"metadata\": {\"name\": \"e\", \"namespace\": \"ns\"}},\n  {\"kind\": null, \"metadata\": {\"name\": \"f\"}},\n")
		case 4:
			b.WriteString("  {\"kind\": \"Subscription\", \"apiVersion\": \"operators.coreos.com/v1alpha1\", \"metadata\": {\"name\": \"k\", \"namespace\": \"ns\"}, \"spec\": {\"name\": \"k\"}},\n")
		case 6:
			b.WriteString("  {\"kind\": \"\", \"kind\": \"Subscription\", \"metadata\": {\"name\": \"k2\", \"namespace\": \"ns\"}},\n  {\"kind\": \"Subscription\", \"kind\": \"\", \"metadata\": {\"name\": \"k3\"}},\n")
		case 8:
			b.WriteString("  {\"ki\\u006ed\": \"Subscription\", \"metadata\": {\"name\": \"k4\", \"namespace\": \"ns\"}},\n  {\"schema\": \"olm.package\", \"name\": \"p\"},\n")
		case 12:
			b.WriteString("  {\"apiVersion\": 3, \"metadata\": {\"name\": \"n\"}},\n  3,\n  \"text\",\n  [],\n  null,\n")
		case 16:
			b.WriteString("  {\"metadata\": {\"name\": \"x\", \"labels\": {\"kind\": \"a\"}}},\n")
		}
	}
	b.WriteString("  {}\n]}\n")
	return b.String()
}

// TestJSONListSkim: the scan of a JSON List's items leaves to the
// decoding every item that is not plainly an object without a kind.
func TestJSONListSkim(t *testing.T) {
	checkSkimAs(t, kindlessJSONItems(4000), "in.json")
	doc := kindlessJSONItems(30)
	checkJSONSplit(t, doc)
	_, err := Loader{}.Decode(context.Background(), strings.NewReader(doc), "in.json")
	for _, want := range []string{
		"in.json:2: object \"ns/s0\": field items[0].kind: missing",
		"in.json:5: object \"ns/e\": field items[3].kind: missing",
		"in.json:6: object \"f\": field items[4].kind: missing",
		"in.json:12: Subscription \"ns/k2\": field items[10].spec.name: missing", // the last kind counts
		"in.json:13: object \"k3\": field items[11].kind: missing",
		"in.json:16: Subscription \"ns/k4\"", // a key with an escape
		"in.json:17: a File-Based Catalog",
		"in.json:22: field items[20].apiVersion: is a number, want a string",
		"in.json:23: field items[21]: value is a number, want an object",
		"in.json: … and 15 more like the above at field items[].kind (35 in all)",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error\n%v\nwant it to hold %q", err, want)
		}
	}
}

// FuzzJSONListSplit: whatever the JSON, decoding a List item by item gives
// the state and the errors of decoding it whole.
func FuzzJSONListSplit(f *testing.F) {
	for _, doc := range jsonListDocs(f) {
		f.Add(doc)
	}
	f.Add(kindlessJSONItems(22))
	f.Fuzz(func(t *testing.T, doc string) {
		if len(doc) <= 8192 {
			checkJSONSplit(t, doc)
		}
	})
}
