package fastyaml

import (
	"encoding/json"
	"unsafe"
)

// Fast parses doc when it is written in the block style that kubectl and
// the YAML libraries print — block mappings and sequences, plain, quoted
// and block scalars, {} and [] — into the value Value gives, without the
// YAML library's token stream and tree. Anything outside that subset
// (flow collections, anchors, tags, tabs, scalars whose type YAML 1.1
// might read otherwise, …) gives ok false, and the caller parses the
// document with the library: the fast path only ever gives the library's
// value, faster. FuzzFastYAML holds it to that.
func Fast(doc []byte) (v any, ok bool) {
	return fastTree(doc, 0)
}

// fastTree is Fast; when share is more than 0, a string of share bytes or more
// that lies in doc is not copied (see sharedString).
func fastTree(doc []byte, share int) (v any, ok bool) {
	var t tree
	t.stack = t.frames[:0]
	if share > 0 {
		t.doc, t.share = doc, share
	}
	var p parser
	if !p.parse(doc, &t) {
		return nil, false
	}
	return t.root, true
}

// shareMin is the length from which ValueSharing gives a string of the
// document as it lies there: long enough that its copy costs more than
// keeping the document's memory alive while the string lives.
const shareMin = 64 << 10

// sharedString returns text, a string's value, as a string: one that
// shares t.doc's memory when text lies there and is long (t.share bytes,
// and at least half the document, which a string kept then keeps alive),
// else a copy.
func (t *tree) sharedString(text []byte) string {
	if len(text) < t.share || 2*len(text) < len(t.doc) || len(text) > len(t.doc) {
		return string(text)
	}
	doc := uintptr(unsafe.Pointer(unsafe.SliceData(t.doc)))
	at := uintptr(unsafe.Pointer(unsafe.SliceData(text)))
	if at < doc || at-doc > uintptr(len(t.doc)-len(text)) {
		return string(text) // put together in the parser's buffer
	}
	return unsafe.String(&text[0], len(text))
}

// tree is the builder of Fast: it puts the values together as
// encoding/json with UseNumber gives them (map[string]any, []any, string,
// json.Number, bool, nil).
type tree struct {
	root   any
	stack  []treeFrame  // the open collections, innermost last
	doc    []byte       // the document whose long strings are shared, or nil
	share  int          // the length from which they are
	frames [6]treeFrame // the stack's first array, enough for most objects
}

// treeFrame is an open collection: a mapping and the key of the entry
// being read, or a sequence.
type treeFrame struct {
	m   map[string]any
	s   []any
	key string
}

// put places v in the innermost collection, or makes it the root.
func (t *tree) put(v any) {
	if len(t.stack) == 0 {
		t.root = v
		return
	}
	f := &t.stack[len(t.stack)-1]
	if f.m != nil {
		f.m[f.key] = v
	} else {
		f.s = append(f.s, v)
	}
}

func (t *tree) beginMap(mark) { t.stack = append(t.stack, treeFrame{m: map[string]any{}}) }

func (t *tree) key(k []byte) bool {
	f := &t.stack[len(t.stack)-1]
	if _, dup := f.m[string(k)]; dup {
		return false
	}
	f.key = string(k)
	return true
}

func (t *tree) endMap() bool {
	m := t.stack[len(t.stack)-1].m
	t.stack = t.stack[:len(t.stack)-1]
	t.put(m)
	return true
}

func (t *tree) beginSeq() { t.stack = append(t.stack, treeFrame{s: []any{}}) }

func (t *tree) endSeq() {
	s := t.stack[len(t.stack)-1].s
	t.stack = t.stack[:len(t.stack)-1]
	t.put(s)
}

func (t *tree) scalar(k kind, text []byte) {
	switch k {
	case kindString:
		if t.doc != nil {
			t.put(t.sharedString(text))
			return
		}
		t.put(string(text))
	case kindNumber:
		t.put(json.Number(text))
	case kindTrue:
		t.put(true)
	case kindFalse:
		t.put(false)
	default:
		t.put(nil)
	}
}
