package fastyaml

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
)

// A List document — what `kubectl get … -o yaml` prints — holds every
// object in one document, and parsing it whole would build the tree of all
// of them at once. ListItems splits the text of such a document into its
// header (every line but the items) and the text of each item, so that the
// items can be parsed one by one, ahead on other cores, each dropped once
// read. It only splits the block layout kubectl and yaml libraries write:
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
// faster way to the same values.
func ListItems(text []byte) (header []byte, items []ListItem, ok bool) {
	if !bytes.HasPrefix(text, []byte("items:")) && !bytes.Contains(text, []byte("\nitems:")) {
		return nil, nil, false // no items at column 0: not a List (the common case, cheaply)
	}
	lines := bytes.Split(text, []byte("\n"))
	start := -1
	for i, l := range lines {
		if bytes.Equal(bytes.TrimRight(l, " \r"), []byte("items:")) {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, nil, false
	}
	if anchored(text) || !yamlText(text) {
		return nil, nil, false // an anchor, or text the parser refuses (in a comment, say)
	}
	items, indent, end, ok := listItems(lines, start)
	if !ok || len(items) == 0 {
		return nil, nil, false
	}
	// The header: every line outside the items, the items' lines blanked
	// so that line numbers stay those of the document.
	var h bytes.Buffer
	for i, l := range lines {
		if i <= start || i >= end {
			h.Write(l)
		}
		h.WriteByte('\n')
	}
	for k := range items {
		it := &items[k]
		it.lines, it.indent = lines[it.First:it.last+1], indent
	}
	return h.Bytes(), items, true
}

// listItems finds the items of the sequence under "items:" on line start:
// each item's first and last line, the items' indentation, and the line
// where the header goes on (len(lines) when the items end the document).
// ok is false when a line breaks the layout ListItems splits.
func listItems(lines [][]byte, start int) (items []ListItem, indent, end int, ok bool) {
	indent = -1 // of the items' dashes
	col := -1   // where the current item's node starts, -1 before its first line
	end = len(lines)
	var cur *ListItem
	for i := start + 1; i < len(lines) && end == len(lines); i++ {
		l := lines[i]
		content := bytes.TrimLeft(l, " ")
		n := len(l) - len(content)
		if len(bytes.Trim(content, " \t\r")) == 0 || content[0] == '#' {
			continue // blank or comment: belongs to whatever it is in
		}
		if bytes.IndexByte(l[:n+1], '\t') >= 0 {
			return nil, 0, 0, false
		}
		if indent < 0 {
			if !isDash(content) {
				return nil, 0, 0, false // items: is not a block sequence here
			}
			indent = n
		}
		switch {
		case n == indent && isDash(content):
			items = append(items, ListItem{First: i})
			cur = &items[len(items)-1]
			cur.last = i
			col = itemColumn(l, n)
		case n > indent+1:
			if col < 0 {
				col = n // the item's node starts on this line
			} else if n < col {
				// Inside the item but left of its node ("-  kind: a"
				// then "  b"): the whole parse refuses it, or reads it
				// otherwise than the item alone.
				return nil, 0, 0, false
			}
			cur.last = i
		case n == 0:
			end = i // the next key of the header
		default:
			return nil, 0, 0, false
		}
	}
	return items, indent, end, true
}

// itemColumn returns the column where the node of the item whose dash is
// at column n of line l starts, or -1 when the dash is alone on its line
// (the node starts on a later line).
func itemColumn(l []byte, n int) int {
	rest := bytes.TrimLeft(l[n+1:], " ")
	if len(bytes.Trim(rest, " \t\r")) == 0 || rest[0] == '#' {
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
	last   int
	indent int
	lines  [][]byte
}

// Text returns the item's text, its dash blanked: a document of its own
// whose line numbers start at the item's first line.
func (it *ListItem) Text() []byte {
	n := 0
	for _, l := range it.lines {
		n += len(l) + 1
	}
	b := make([]byte, 0, n)
	for i, l := range it.lines {
		if i == 0 {
			b = append(b, bytes.Repeat([]byte{' '}, it.indent+1)...)
			b = append(b, l[it.indent+1:]...)
		} else {
			b = append(b, l...)
		}
		b = append(b, '\n')
	}
	return b
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

// ItemLineError places a parse error of an item at its line in the
// document: the parser numbers lines from the item's first, line (1-based).
func ItemLineError(err error, line int) error {
	msg := err.Error()
	m := lineRE.FindStringSubmatchIndex(msg)
	if m == nil {
		return err
	}
	n, convErr := strconv.Atoi(msg[m[2]:m[3]])
	if convErr != nil {
		return err
	}
	return fmt.Errorf("%s%d%s", msg[:m[2]], n+line-1, msg[m[3]:])
}

var lineRE = regexp.MustCompile(`line (\d+)`)
