package fastyaml

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// splitByLines is ListItems as it was first written, on the document
// split into lines (every line a slice, the header the document with the
// items' lines blanked): the oracle the offset-based ListItems is held to.
// It returns each item's first line and text.
func splitByLines(text []byte) (header []byte, items []oracleItem, ok bool) {
	lines := bytes.Split(text, []byte("\n"))
	start := -1
	for i, l := range lines {
		if bytes.Equal(bytes.TrimRight(l, " \r"), []byte("items:")) {
			start = i
			break
		}
	}
	if start < 0 || anchored(text) || !yamlText(text) || bareCR(text) {
		return nil, nil, false
	}
	if _, ok := Fast(bytes.Join(lines[:start], []byte("\n"))); !ok && start > 0 {
		return nil, nil, false // as ListItems: the lines before "items:" whole on their own
	}
	indent, col, end := -1, -1, len(lines)
	for i := start + 1; i < len(lines) && end == len(lines); i++ {
		l := lines[i]
		content := bytes.TrimLeft(l, " ")
		n := len(l) - len(content)
		if len(bytes.Trim(content, " \t\r")) == 0 || content[0] == '#' {
			continue
		}
		if bytes.IndexByte(l[:n+1], '\t') >= 0 {
			return nil, nil, false
		}
		if indent < 0 {
			if !isDash(content) {
				return nil, nil, false
			}
			indent = n
		}
		switch {
		case n == indent && isDash(content):
			items = append(items, oracleItem{first: i, last: i})
			col = itemColumn(l, n)
		case n > indent+1:
			if col < 0 {
				col = n
			} else if n < col {
				return nil, nil, false
			}
			items[len(items)-1].last = i
		case n == 0:
			end = i
		default:
			return nil, nil, false
		}
	}
	if len(items) == 0 {
		return nil, nil, false
	}
	var h bytes.Buffer
	for i, l := range lines {
		if i <= start || i >= end {
			h.Write(l)
		}
		if i < len(lines)-1 {
			h.WriteByte('\n') // the document's line breaks, no more
		}
	}
	for k := range items {
		it := &items[k]
		var b bytes.Buffer
		for i, l := range lines[it.first : it.last+1] {
			if i == 0 {
				b.WriteString(strings.Repeat(" ", indent+1))
				l = l[indent+1:]
			}
			b.Write(l)
			b.WriteByte('\n')
		}
		it.text = b.String()
	}
	if keepChomped(bytes.Join(lines[start+1:end], []byte("\n"))) {
		return nil, nil, false // as ListItems: a keep-chomped block scalar holds the blank lines after it
	}
	if end == len(lines) && !bytes.HasSuffix(text, []byte("\n")) {
		return nil, nil, false // as ListItems: the items end a document without a last line feed
	}
	// As ListItems: an item that a line follows ends there only if it
	// certainly leaves nothing open, or is whole on its own.
	for k, it := range items {
		if k == len(items)-1 && end == len(lines) {
			break // the document's last lines
		}
		raw := bytes.Join(lines[it.first:it.last+1], []byte("\n"))
		if _, ok := Fast([]byte(it.text)); !closedItem(raw) && !ok {
			if _, err := Value(text); err == nil {
				return nil, nil, false // unless the whole document does not parse either
			}
			break
		}
	}
	return h.Bytes(), items, true
}

// oracleItem is an item as splitByLines finds it.
type oracleItem struct {
	first, last int
	text        string
}

// checkListItems fails t unless ListItems splits doc as splitByLines
// does: the same items, at the same lines, and a header of the same value.
func checkListItems(t *testing.T, doc []byte) (split bool) {
	t.Helper()
	header, all, ok := ListItems(doc)
	wantHeader, want, wantOK := splitByLines(doc)
	if ok != wantOK {
		t.Fatalf("ListItems ok %v, the line split %v, for %q", ok, wantOK, doc)
	}
	if !ok {
		return false
	}
	var items []ListItem
	for it := range all.All() {
		items = append(items, it)
	}
	if len(items) != len(want) || all.Len() != len(want) {
		t.Fatalf("%d items, the line split %d, for %q", len(items), len(want), doc)
	}
	orig := bytes.Clone(doc)
	for i := range items {
		if items[i].First != want[i].first || string(items[i].Text()) != want[i].text {
			t.Fatalf("item %d at line %d: %q; the line split: at line %d: %q", i, items[i].First, items[i].Text(), want[i].first, want[i].text)
		}
		// In place, the same text; the document as it was once restored.
		if text, ok := items[i].BlankDash(); ok {
			if string(text) != want[i].text {
				t.Fatalf("item %d in place: %q; the line split: %q", i, text, want[i].text)
			}
			items[i].Restore()
			if !bytes.Equal(doc, orig) {
				t.Fatalf("item %d: the document not restored: %q, was %q", i, doc, orig)
			}
		} else if i < len(items)-1 {
			t.Fatalf("item %d of %d not read in place (a line feed follows it) in %q", i, len(items), doc)
		}
	}
	// A header counts only as a List's, with "items" null (the items
	// read one by one); then it must be the line split's.
	got, _ := Value(header)
	wantV, _ := Value(wantHeader)
	if (listHeader(got) || listHeader(wantV)) && !reflect.DeepEqual(got, wantV) {
		t.Fatalf("header %q: %#v; the line split's %q: %#v", header, got, wantHeader, wantV)
	}
	// Where the whole document parses and the header is a List's, its
	// items are the items parsed one by one: the split is only a faster
	// way to the same values.
	if whole, err := Value(doc); err == nil && listHeader(got) {
		if m, ok := whole.(map[string]any); ok {
			if list, ok := m["items"].([]any); ok {
				if len(list) != len(items) {
					t.Fatalf("%d items, the whole document %d, for %q", len(items), len(list), doc)
				}
				for i := range items {
					v, err := Value(items[i].Text())
					if err != nil || !reflect.DeepEqual(v, list[i]) {
						t.Fatalf("item %d: %#v (%v); the whole document's: %#v, for %q", i, v, err, list[i], doc)
					}
				}
			}
		}
	}
	// And the header's fields are the whole document's, items aside.
	if whole, err := Value(doc); err == nil && listHeader(got) {
		if m, ok := whole.(map[string]any); ok {
			m["items"] = nil
			if !reflect.DeepEqual(got, whole) {
				t.Fatalf("header %q: %#v; the whole document %q: %#v", header, got, doc, whole)
			}
		}
	}
	return true
}

// listHeader reports whether v is a mapping with "items" null.
func listHeader(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	items, present := m["items"]
	return present && items == nil
}

// listItemsCases are List documents in the layouts ListItems splits and
// near them.
var listItemsCases = []string{
	"apiVersion: v1\nitems:\n- kind: A\n  metadata:\n    name: a\n# between\n- kind: B\n\n  x: |\n    - y\nkind: List\nmetadata:\n  resourceVersion: \"\"\n",
	"kind: List\nitems:\n  - a: 1\n  -\n    b: 2\n",
	"items:\n- a\nitems:\n- b\n",
	"items:   \r\n- a: 1\r\n  b: 2\r\n",
	"a: 1\nitems:",
	"items:\n",
	"xitems:\n- a\n",
	"a: 'x\nitems:\n- b\n  c'\n",
	"items:\n-  kind: 0A\n  0\n",
	"items:\n- a\n\t- b\n",
	"items:\n - a\n- b\n",
	"items:\n- a\n x\n",
	"items:\n- &a x\n- *a\n",
	"items:\n- a # c\n  # c\n- b\nz: 1",
	"items:\n-\n? >+\n",           // FuzzListItems: a keep-chomped key after the items keeps no line break more
	"items:\n- a\nx: |+\n  b",     // nor a scalar at the document's end without one
	"items:\n- a\nx: |+\n  b\n\n", // and its blank lines are its own
	"items:\n- 0\r0:",             // a carriage return alone breaks the line: not split
	"A0000: \nitems:\n- 0: \"0000000000000000000000000\n0000: 0000000000000000000\"", // FuzzListItems: a line at column 0 inside the last item's quoted scalar: not split
	"items:\n- a: 'x\n    y'\nkind: List\n",                                          // a quoted scalar over lines, closed in the item: split
	"kind: List\nitems:\n- metadata:\n    annotations:\n      p: '{\"a\":\"b\n        c\"}'\n    name: x\n  spec:\n    d: |-\n      say \"hi\n    e: \"f\"\n- b: 1\nmetadata: {}\n", // as kubectl writes: split
	"kind: List\nitems:\n- a:\n    b\n    \"c\n  e: \"x\n- f\"\n",                    // a plain scalar alone on its line goes on deeper: not split
	"kind: List\nitems:\n- - a\n    \"b\n  - \"x\n- y\"\n",                           // and one after a dash, deeper than the dash: not split
	"kind: List\nitems:\n- a: b\n   \"c\"\n  d: \"x\n- y\"\n",                        // and one after a key, deeper than the key: not split
	"items:\n- |+\n\n- a\n",                                                          // FuzzListItems: a keep-chomped scalar holds the blank line: not split
	"items:\n- |\n  0",                                                               // FuzzListItems: no line feed at the end, which the item would gain: not split
	"items:\n- \"\n- \n0: 0\"",                                                       // FuzzListItems: an earlier item's quote holds the next dash line and the line at column 0: not split
	"kind: List\nitems:\n- a: \"x\n- b: y\"\n- c: 1\n",                               // an item's quote holds the next item's dash line: not split
	"kind: List\nitems:\n- a: |\n    say \"hi\n  b: \"x\n- c\"\n",                    // a quote in a block scalar is text; the next key's opens: not split
	"kind: List\nitems:\n- a: foo\n    \"bar\n  b: \"x\n- c\"\n",                     // a quote in a plain scalar's next line is text: not split
	"kind: List\nitems:\n- {a: b, c: \"d\n- e\"}\n",                                  // a flow collection over lines: not split
	"kind: List\nitems:\n- a: 'it''s\n    long'\n  b: \"x\\\"y\"\n- c: [1, \"2\"]\n", // closed quotes and flows, escapes: split
}

// TestListItems: ListItems splits as the line split does.
func TestListItems(t *testing.T) {
	split := 0
	for i, doc := range listItemsCases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if checkListItems(t, []byte(doc)) {
				split++
			}
		})
	}
	if split < 5 {
		t.Fatalf("only %d documents split", split)
	}
}

// FuzzListItems: whatever the document, ListItems splits it as the line
// split does.
func FuzzListItems(f *testing.F) {
	for _, doc := range listItemsCases {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if len(doc) <= 8192 {
			checkListItems(t, doc)
		}
	})
}
