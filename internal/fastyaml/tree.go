package fastyaml

import "encoding/json"

// Fast parses doc when it is written in the block style that kubectl and
// the YAML libraries print — block mappings and sequences, plain, quoted
// and block scalars, {} and [] — into the value Value gives, without the
// YAML library's token stream and tree. Anything outside that subset
// (flow collections, anchors, tags, tabs, scalars whose type YAML 1.1
// might read otherwise, …) gives ok false, and the caller parses the
// document with the library: the fast path only ever gives the library's
// value, faster. FuzzFastYAML holds it to that.
func Fast(doc []byte) (v any, ok bool) {
	var t tree
	t.stack = t.frames[:0]
	var p parser
	if !p.parse(doc, &t) {
		return nil, false
	}
	return t.root, true
}

// tree is the builder of Fast: it puts the values together as
// encoding/json with UseNumber gives them (map[string]any, []any, string,
// json.Number, bool, nil).
type tree struct {
	root   any
	stack  []treeFrame  // the open collections, innermost last
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
