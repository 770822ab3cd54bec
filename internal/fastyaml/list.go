package fastyaml

import (
	"bytes"
	"iter"
)

// A List document — what `kubectl get … -o yaml` prints — holds every
// object in one document, and parsing it whole would build the tree of all
// of them at once. ListItems splits the text of such a document into its
// header (every line but the items: "items:" has no value there) and its
// items, so that they can be parsed one by one, ahead on other cores, each
// dropped once read. It only splits the block layout kubectl and yaml libraries write:
//
//	apiVersion: v1
//	items:
//	- apiVersion: operators.coreos.com/v1alpha1
//	  kind: Subscription
//	  …
//	kind: List
//
// the items' dash at column 0 or indented, every line of an item indented
// past its dash. Anything else — flow style, a tab, an anchor that an
// alias in another item could name, a line that breaks the layout — and
// the document is parsed whole, as before: the split is only ever a
// faster way to the same values. The lines before "items:" must be whole
// on their own (in the subset Fast reads), and so must every item that a
// line follows and that may leave a quoted scalar or a flow collection
// open (closedItem), unless the whole document does not parse either.
//
// The items are not kept: ListItems checks the layout, and Items.All finds
// them again, one at a time, so that the split holds no more memory than
// the text, whatever the number of items.
func ListItems(text []byte) (header []byte, items Items, ok bool) {
	start := itemsLine(text)
	if start < 0 {
		return nil, Items{}, false // no items at column 0: not a List (the common case, cheaply)
	}
	if anchored(text) || !yamlText(text) || bareCR(text) {
		// An anchor, text the parser refuses (in a comment, say), or a
		// carriage return alone, a line break to YAML but not to the split.
		return nil, Items{}, false
	}
	if _, ok := Fast(text[:start]); !ok {
		// The lines before "items:" must be whole on their own, so that
		// the line is a key of the document's mapping, not text of a
		// scalar that goes on over it ("a: 'x" … "'").
		return nil, Items{}, false
	}
	itemsEnd := start + bytes.IndexByte(text[start:], '\n') + 1 // past the line "items:"
	items = Items{line: bytes.Count(text[:itemsEnd], newline)}
	// An item ends where the next one's dash is, or at a line at column
	// 0 — the header's next key —, unless that line is text of a quoted
	// scalar (or a flow collection) the item leaves open ("- a: \"x" then
	// "- b\"" or "b: y\""). An item not certainly closed (closedItem) must
	// be whole on its own; if one is not, the split stands only when the
	// whole document does not parse either (each item's error is then
	// told at its line).
	var pending ListItem // the item before the one check is given: a line follows it
	broken, has := false, false
	check := func(it ListItem) bool {
		if has && !broken && !closedItem(pending.text) && !whole(&pending) {
			broken = true
		}
		pending, has = it, true
		return true
	}
	var last ListItem
	items.n, items.end, last, ok = splitItems(text, itemsEnd, items.line, check)
	if !ok || items.n == 0 {
		return nil, Items{}, false
	}
	if !broken && items.end < len(text) && !closedItem(last.text) && !whole(&last) {
		broken = true
	}
	if broken {
		if _, err := Value(text); err == nil {
			return nil, Items{}, false
		}
	}
	if keepChomped(text[itemsEnd:items.end]) {
		// A keep-chomped block scalar ("|+") holds the blank lines after
		// it, which the split leaves between the items.
		return nil, Items{}, false
	}
	if items.end == len(text) && text[len(text)-1] != '\n' {
		// The items end a document without a line feed at its end, which
		// an item's text gains (Text): a block scalar there would gain it
		// too ("- |" then "  a" is "a", and "a\n" with it).
		return nil, Items{}, false
	}
	items.text = text[itemsEnd:items.end]
	// The header: every line outside the items, byte for byte (a line
	// break added at its end would be content of a keep-chomped block
	// scalar there: "x: |+" then "  a" is "a", with a break "a\n"). It is
	// parsed only for its value, so its lines need not keep their numbers.
	h := make([]byte, 0, itemsEnd+len(text)-items.end)
	h = append(append(h, text[:itemsEnd]...), text[items.end:]...)
	return h, items, true
}

var newline = []byte("\n")

// whole reports whether item it is whole on its own: its text, read
// where it lies (its dash blanked meanwhile: a line feed follows it when
// a line follows), is a document in the subset Fast reads.
func whole(it *ListItem) bool {
	text, ok := it.BlankDash()
	if !ok {
		return false
	}
	defer it.Restore()
	var p parser
	s := skim{field: -1}
	return p.parse(text, &s)
}

// keepChomped reports whether text may hold the header of a keep-chomped
// block scalar: a "+" after "|" or ">", a digit between or not (it also
// finds text that only looks so).
func keepChomped(text []byte) bool {
	for i := bytes.IndexByte(text, '+'); i >= 0; {
		j := i - 1
		if j >= 0 && text[j] >= '1' && text[j] <= '9' {
			j--
		}
		if j >= 0 && (text[j] == '|' || text[j] == '>') {
			return true
		}
		k := bytes.IndexByte(text[i+1:], '+')
		if k < 0 {
			return false
		}
		i += 1 + k
	}
	return false
}

// bareCR reports whether text holds a carriage return that is not
// followed by a line feed: YAML breaks the line there ("- 0\r0:" is an
// item, then the key "0"), the split only at line feeds.
func bareCR(text []byte) bool {
	for i := bytes.IndexByte(text, '\r'); i >= 0; {
		if i+1 == len(text) || text[i+1] != '\n' {
			return true
		}
		j := bytes.IndexByte(text[i+1:], '\r')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// itemsLine returns the offset of the first line of text that is
// "items:" (trailing spaces and carriage return aside) and is not the
// last, or -1.
func itemsLine(text []byte) int {
	for off := 0; off < len(text); {
		i := bytes.Index(text[off:], []byte("items:"))
		if i < 0 {
			return -1
		}
		i += off
		if i == 0 || text[i-1] == '\n' {
			rest := text[i+len("items:"):]
			e := bytes.IndexByte(rest, '\n')
			if e < 0 {
				return -1 // the last line: no items follow
			}
			if len(bytes.TrimRight(rest[:e], " \r")) == 0 {
				return i
			}
		}
		off = i + 1
	}
	return -1
}

// Items are the items of a List document that ListItems split. The zero
// value has none.
type Items struct {
	text []byte // from the line after "items:" to the end of the last item's
	line int    // of text[0] in the document (0-based)
	n    int
	end  int // the offset in the document where the header goes on
}

// Len returns the number of items.
func (it Items) Len() int { return it.n }

// All returns the items in order. Each ListItem is a value of its own;
// finding them allocates nothing.
func (it Items) All() iter.Seq[ListItem] {
	return func(yield func(ListItem) bool) {
		if it.n > 0 {
			splitItems(it.text, 0, it.line, yield)
		}
	}
}

// splitItems walks the lines of text from offset off (line line, 0-based:
// the line after "items:") over the items of the sequence there, passing
// each to yield when yield is not nil (until it returns false). It returns
// the number of items, the offset where the header goes on (len(text)
// when the items end the document), the last item, and ok false when a
// line breaks the layout ListItems splits.
func splitItems(text []byte, off, line int, yield func(ListItem) bool) (n, end int, last ListItem, ok bool) {
	indent := -1 // of the items' dashes
	col := -1    // where the current item's node starts, -1 before its first line
	var cur ListItem
	curStart := -1 // the offset of cur's first line, -1 before the first item
	for line--; off <= len(text); off++ {
		line++
		e := bytes.IndexByte(text[off:], '\n')
		if e < 0 {
			e = len(text) - off
		}
		l := text[off : off+e]
		k := 0
		for k < len(l) && l[k] == ' ' {
			k++
		}
		content := l[k:]
		if blank(content) || content[0] == '#' {
			off += e
			continue // blank or comment: belongs to whatever it is in
		}
		if content[0] == '\t' {
			return 0, 0, ListItem{}, false
		}
		if indent < 0 {
			if !isDash(content) {
				return 0, 0, ListItem{}, false // items: is not a block sequence here
			}
			indent = k
		}
		switch {
		case k == indent && isDash(content):
			if curStart >= 0 && yield != nil && !yield(cur) {
				return n, 0, ListItem{}, true
			}
			n++
			cur, curStart = ListItem{First: line, indent: indent, text: l}, off
			col = itemColumn(l, k)
		case k > indent+1:
			if col < 0 {
				col = k // the item's node starts on this line
			} else if k < col {
				// Inside the item but left of its node ("-  kind: a"
				// then "  b"): the whole parse refuses it, or reads it
				// otherwise than the item alone.
				return 0, 0, ListItem{}, false
			}
			cur.text = text[curStart : off+e]
		case k == 0:
			if curStart >= 0 && yield != nil {
				yield(cur)
			}
			return n, off, cur, true // the next key of the header
		default:
			return 0, 0, ListItem{}, false
		}
		off += e
	}
	if curStart >= 0 && yield != nil {
		yield(cur)
	}
	return n, len(text), cur, true
}

// blank reports whether content (a line from its first non-space byte)
// holds only spaces, tabs and a carriage return.
func blank(content []byte) bool {
	for _, c := range content {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// itemColumn returns the column where the node of the item whose dash is
// at column n of line l starts, or -1 when the dash is alone on its line
// (the node starts on a later line).
func itemColumn(l []byte, n int) int {
	rest := bytes.TrimLeft(l[n+1:], " ")
	if blank(rest) || rest[0] == '#' {
		return -1
	}
	return len(l) - len(rest)
}

// ListItem is one item of a List document: its lines, from its dash line
// to its last, and the dash's column.
type ListItem struct {
	// First is the index of the item's first line in the document
	// (0-based).
	First  int
	indent int
	// text is the item's text in the document's, from its dash line's
	// first byte to its last line's end (its line feed left out).
	text []byte
}

// Text returns the item's text, its dash blanked: a document of its own
// whose line numbers start at the item's first line.
func (it *ListItem) Text() []byte {
	return it.AppendText(make([]byte, 0, len(it.text)+1))
}

// Size returns the length of the item's text.
func (it *ListItem) Size() int { return len(it.text) + 1 }

// BlankDash blanks the item's dash where it lies, in the document's text,
// and returns the item's text as Text returns it, in place, when the item's
// line feed follows it there (ok false otherwise: use AppendText). Until
// Restore puts the dash back, the document's text reads otherwise: only
// the caller may read the item's bytes meanwhile.
func (it *ListItem) BlankDash() (text []byte, ok bool) {
	n := len(it.text)
	if cap(it.text) == n || it.text[:n+1][n] != '\n' || it.text[it.indent] != '-' {
		return nil, false
	}
	it.text[it.indent] = ' '
	return it.text[:n+1], true
}

// Restore puts back the dash BlankDash blanked.
func (it *ListItem) Restore() { it.text[it.indent] = '-' }

// AppendText appends the item's text, as Text returns it, to b.
func (it *ListItem) AppendText(b []byte) []byte {
	for range it.indent + 1 {
		b = append(b, ' ')
	}
	b = append(b, it.text[it.indent+1:]...)
	return append(b, '\n')
}

// isDash reports whether content (a line from its first non-space byte)
// opens a block sequence entry: "-" alone or followed by a space.
func isDash(content []byte) bool {
	return content[0] == '-' && (len(content) == 1 || content[1] == ' ' || content[1] == '\r')
}

// anchored reports whether text may define an anchor, which an alias in
// another item could name: an "&" that may open a node (at a line's start,
// after a space or a flow indicator) followed by a name. It also finds
// text that only looks so (in a literal block, say); such a document is
// merely parsed whole.
func anchored(text []byte) bool {
	for i := 0; ; i++ {
		k := bytes.IndexByte(text[i:], '&')
		if k < 0 {
			return false
		}
		i += k
		if i+1 < len(text) && !isSpace(text[i+1]) && (i == 0 || isSpace(text[i-1]) || text[i-1] == '[' || text[i-1] == '{' || text[i-1] == ',') {
			return true
		}
	}
}

// isSpace reports whether c is a space, a tab or a line break.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
