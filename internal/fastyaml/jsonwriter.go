package fastyaml

import (
	"bytes"
	"slices"
	"sort"
	"unicode/utf8"
)

// jsonWriter is the builder of Converter: it writes the JSON that
// encoding/json writes for the document's value as the parse goes, object
// keys sorted (a mapping whose keys come out of order is sorted when it
// closes) and strings escaped as encoding/json escapes them.
type jsonWriter struct {
	out    []byte
	comma  bool        // a value was written last: the next key or item needs a comma
	open   []openMap   // the open mappings, innermost last (sequences need no record)
	keys   []entryKey  // the entries of the open mappings
	objs   []objectPos // every object written, by the offset of its '{'
	sorted bool        // objs is in offset order
	move   []byte      // scratch for sorting entries
}

// openMap is an open mapping: where its entries start in keys and its
// object in objs.
type openMap struct{ keys, obj int }

// entryKey is one entry of an open mapping: its key and the offset of the
// key's opening quote in out.
type entryKey struct {
	key   []byte
	start int
}

// objectPos is where a JSON object comes from: the offset of its '{' in
// out, the mark of the mapping in the document.
type objectPos struct {
	json int
	at   mark
}

func (w *jsonWriter) reset() {
	w.out, w.comma, w.sorted = w.out[:0], false, true
	w.open, w.keys, w.objs = w.open[:0], w.keys[:0], w.objs[:0]
}

// finish puts objs in offset order, once a mapping was sorted.
func (w *jsonWriter) finish() {
	if !w.sorted {
		slices.SortFunc(w.objs, func(a, b objectPos) int { return a.json - b.json })
	}
}

// sep writes the comma that separates a value from the one before it.
func (w *jsonWriter) sep() {
	if w.comma {
		w.out = append(w.out, ',')
	}
}

func (w *jsonWriter) beginMap(m mark) {
	w.sep()
	w.open = append(w.open, openMap{keys: len(w.keys), obj: len(w.objs)})
	w.objs = append(w.objs, objectPos{json: len(w.out), at: m})
	w.out = append(w.out, '{')
	w.comma = false
}

func (w *jsonWriter) key(k []byte) bool {
	w.sep()
	w.keys = append(w.keys, entryKey{key: k, start: len(w.out)})
	w.out = appendString(w.out, k)
	w.out = append(w.out, ':')
	w.comma = false
	return true
}

func (w *jsonWriter) endMap() bool {
	m := w.open[len(w.open)-1]
	w.open = w.open[:len(w.open)-1]
	entries := w.keys[m.keys:]
	ok := true
	for i := 1; i < len(entries) && ok; i++ {
		if c := bytes.Compare(entries[i-1].key, entries[i].key); c >= 0 {
			ok = c > 0 && w.sortEntries(entries, m.obj+1)
			break
		}
	}
	w.keys = w.keys[:m.keys]
	w.out = append(w.out, '}')
	w.comma = true
	return ok
}

// sortEntries rewrites the entries of the mapping whose text ends out (its
// '}' not yet written) in key order, as encoding/json writes a map, and
// moves the objects within them (objs from index obj) along; false for a
// key written twice.
func (w *jsonWriter) sortEntries(entries []entryKey, obj int) bool {
	start, end := entries[0].start, len(w.out)
	span := func(i int) (int, int) { // entry i's text, the comma after it left out
		if i+1 < len(entries) {
			return entries[i].start, entries[i+1].start - 1
		}
		return entries[i].start, end
	}
	order := make([]int, len(entries))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return bytes.Compare(entries[a].key, entries[b].key) })
	for i := 1; i < len(order); i++ {
		if bytes.Equal(entries[order[i-1]].key, entries[order[i]].key) {
			return false
		}
	}
	w.move = append(w.move[:0], w.out[start:end]...)
	w.out = w.out[:start]
	newStart := make([]int, len(entries))
	for k, i := range order {
		if k > 0 {
			w.out = append(w.out, ',')
		}
		s, e := span(i)
		newStart[i] = len(w.out)
		w.out = append(w.out, w.move[s-start:e-start]...)
	}
	for j := obj; j < len(w.objs); j++ {
		o := &w.objs[j]
		// The entry that holds the object: the last that starts before it.
		i := sort.Search(len(entries), func(i int) bool { return entries[i].start > o.json }) - 1
		o.json += newStart[i] - entries[i].start
	}
	w.sorted = false
	return true
}

func (w *jsonWriter) beginSeq() {
	w.sep()
	w.out = append(w.out, '[')
	w.comma = false
}

func (w *jsonWriter) endSeq() {
	w.out = append(w.out, ']')
	w.comma = true
}

func (w *jsonWriter) scalar(k kind, text []byte) {
	w.sep()
	switch k {
	case kindString:
		w.out = appendString(w.out, text)
	case kindNumber:
		w.out = append(w.out, text...)
	case kindTrue:
		w.out = append(w.out, "true"...)
	case kindFalse:
		w.out = append(w.out, "false"...)
	default:
		w.out = append(w.out, "null"...)
	}
	w.comma = true
}

// appendString appends s as encoding/json writes a string:
// quotes and backslashes escaped, \b \f \n \r \t for those controls, \u00XX
// for the other controls and the HTML characters < > &, \u2028 and \u2029
// for the line and paragraph separators, \ufffd for a byte that is not
// UTF-8, everything else as it is.
func appendString(b, s []byte) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if jsonSafe[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && size == 1 { // not UTF-8 (no scalar of the fast path is)
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			start = i + size
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			start = i + size
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

// jsonSafe marks the bytes appendString writes as they are: ASCII but for
// the controls, quotes, backslashes and HTML characters.
var jsonSafe = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()
