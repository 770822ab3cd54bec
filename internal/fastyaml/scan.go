package fastyaml

import (
	"bytes"
	"slices"
)

// Type is the type of a value as JSON has it, or Absent for a field that
// is not there.
type Type uint8

// The types Scanner tells.
const (
	Absent Type = iota
	Null
	String
	Number
	Bool
	Object
	Array
)

// Field is what Scanner found of one field of a document's top-level
// mapping: the type of its value and, for a scalar, its text (a string's
// value, a number's digits, empty for the others).
type Field struct {
	Type Type
	Text []byte
}

// A Scanner reads documents as Fast does without building their values:
// it checks each (Fast's answer: in the subset, well formed and without a
// key written twice, or not) and tells the type of its value and of a few
// fields of its top-level mapping. It reads a document several times
// faster than Fast, allocating nothing once its memory has grown to the
// documents it reads. Make one with NewScanner and reuse it; it is not
// safe for concurrent use.
type Scanner struct {
	p parser
	s skim
}

// NewScanner returns a Scanner that tells of the top-level fields keys.
func NewScanner(keys ...string) *Scanner {
	return &Scanner{s: skim{want: keys, fields: make([]Field, len(keys))}}
}

// Scan reads doc as Fast does and returns the type of its value. ok is
// Fast's ok: false for a document outside the subset, which only Value
// reads (or refuses); root and the fields mean nothing then.
func (s *Scanner) Scan(doc []byte) (root Type, ok bool) {
	s.s.reset()
	if !s.p.parse(doc, &s.s) {
		return Absent, false
	}
	return s.s.root, true
}

// Field returns what the last Scan found of the top-level field named by
// the i-th key of NewScanner (Absent when the document is not a mapping or
// has no such field). Its Text is valid until the next Scan.
func (s *Scanner) Field(i int) Field { return s.s.fields[i] }

// skim is the builder of Scanner. It keeps nothing of the document but
// the keys of the open mappings, to refuse a key written twice as Fast
// does, and what it is asked of the top-level fields.
type skim struct {
	depth  int // of the open collections
	root   Type
	keys   [][]byte // of the open mappings, innermost last
	open   []int    // where each open mapping's keys start in keys
	want   []string // the top-level keys asked for
	fields []Field  // what was found of each
	field  int      // the asked-for top-level key whose value comes next, or -1
	sorted [][]byte // scratch for finding a key written twice
}

func (s *skim) reset() {
	s.depth, s.root, s.field = 0, Absent, -1
	s.keys, s.open = s.keys[:0], s.open[:0]
	for i := range s.fields {
		s.fields[i] = Field{Text: s.fields[i].Text[:0]}
	}
}

// value records the type (and a scalar's text) of a value that starts.
func (s *skim) value(t Type, text []byte) {
	switch {
	case s.depth == 0:
		s.root = t
	case s.depth == 1 && s.field >= 0:
		f := &s.fields[s.field]
		f.Type, f.Text = t, append(f.Text[:0], text...)
		s.field = -1
	}
}

func (s *skim) beginMap(mark) {
	s.value(Object, nil)
	s.open = append(s.open, len(s.keys))
	s.depth++
}

func (s *skim) key(k []byte) bool {
	s.keys = append(s.keys, k)
	if s.depth == 1 {
		s.field = -1
		for i, w := range s.want {
			if string(k) == w {
				s.field = i
			}
		}
	}
	return true
}

func (s *skim) endMap() bool {
	start := s.open[len(s.open)-1]
	keys := s.keys[start:]
	s.open, s.keys = s.open[:len(s.open)-1], s.keys[:start]
	s.depth--
	return !s.keyTwice(keys)
}

// keyTwice reports whether keys holds one key twice.
func (s *skim) keyTwice(keys [][]byte) bool {
	if len(keys) <= 8 {
		for i := 1; i < len(keys); i++ {
			for _, k := range keys[:i] {
				if bytes.Equal(k, keys[i]) {
					return true
				}
			}
		}
		return false
	}
	s.sorted = append(s.sorted[:0], keys...)
	slices.SortFunc(s.sorted, bytes.Compare)
	for i := 1; i < len(s.sorted); i++ {
		if bytes.Equal(s.sorted[i-1], s.sorted[i]) {
			return true
		}
	}
	return false
}

func (s *skim) beginSeq() {
	s.value(Array, nil)
	s.depth++
}

func (s *skim) endSeq() { s.depth-- }

func (s *skim) scalar(k kind, text []byte) {
	switch k {
	case kindString:
		s.value(String, text)
	case kindNumber:
		s.value(Number, text)
	case kindTrue, kindFalse:
		s.value(Bool, nil)
	default:
		s.value(Null, nil)
	}
}
