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
	// As ListItems: items that end at column 0 end after a last item
	// whole on its own, when a quoted scalar or a flow collection could
	// go on over lines there.
	if last := items[len(items)-1].text; end < len(lines) && strings.ContainsAny(last, "\"'[{") {
		if _, ok := Fast([]byte(last)); !ok {
			return nil, nil, false
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
