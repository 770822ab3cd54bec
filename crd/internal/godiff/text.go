package godiff

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxColumn is the width past which a removed or inserted list is written
// on several lines.
const maxColumn = 80

// diffMode is how a node is written: a difference (0), equal (' '),
// removed ('-') or inserted ('+').
type diffMode byte

const (
	diffUnknown   diffMode = 0
	diffIdentical diffMode = ' '
	diffRemoved   diffMode = '-'
	diffInserted  diffMode = '+'
)

// indent writes the start of a line at depth n: the mode's mark and n
// tabs.
func indent(b []byte, n int, d diffMode) []byte {
	switch d {
	case diffUnknown, diffIdentical:
		b = append(b, "  "...)
	case diffRemoved:
		b = append(b, "- "...)
	case diffInserted:
		b = append(b, "+ "...)
	}
	for ; n > 0; n-- {
		b = append(b, '\t')
	}
	return b
}

// textNode is a tree of text: a textWrap, a textList or a textLine.
type textNode interface {
	// length is the length of the node written on one line.
	length() int
	equal(textNode) bool
	// compact writes the node on one line and returns the node to write
	// expanded: a textLine when the node fits on one line.
	compact(b []byte, d diffMode) ([]byte, textNode)
	expanded(b []byte, d diffMode, n int) []byte
}

type textWrap struct {
	prefix string
	value  textNode
	suffix string
}

func (s *textWrap) length() int { return len(s.prefix) + s.value.length() + len(s.suffix) }

func (s *textWrap) equal(o textNode) bool {
	w, ok := o.(*textWrap)
	return ok && s.prefix == w.prefix && s.value.equal(w.value) && s.suffix == w.suffix
}

func (s *textWrap) compact(b []byte, d diffMode) ([]byte, textNode) {
	n0 := len(b)
	b = append(b, s.prefix...)
	var v textNode
	b, v = s.value.compact(b, d)
	b = append(b, s.suffix...)
	if _, ok := v.(textLine); ok {
		return b, textLine(b[n0:])
	}
	return b, &textWrap{prefix: s.prefix, value: v, suffix: s.suffix}
}

func (s *textWrap) expanded(b []byte, d diffMode, n int) []byte {
	b = append(b, s.prefix...)
	b = s.value.expanded(b, d, n)
	return append(b, s.suffix...)
}

// String writes the whole tree as go-cmp's report does.
func (s *textWrap) String() string {
	_, s2 := s.compact(nil, diffUnknown)
	b := indent(nil, 0, diffUnknown)
	b = s2.expanded(b, diffUnknown, 0)
	return string(append(b, '\n'))
}

type textRecord struct {
	diff       diffMode
	key        string
	value      textNode
	elideComma bool
	comment    fmt.Stringer
}

type textList []textRecord

func (s textList) length() int {
	n := 0
	for i, r := range s {
		n += len(r.key)
		if r.key != "" {
			n += len(": ")
		}
		n += r.value.length()
		if i < len(s)-1 {
			n += len(", ")
		}
	}
	return n
}

func (s textList) equal(o textNode) bool {
	l, ok := o.(textList)
	if !ok || len(l) != len(s) {
		return false
	}
	for i := range s {
		a, b := s[i], l[i]
		if a.diff != b.diff || a.key != b.key || !a.value.equal(b.value) || a.comment != b.comment {
			return false
		}
	}
	return true
}

// appendEllipsis adds a "..." record, or adds ds to the last one.
func (s *textList) appendEllipsis(ds diffStats) {
	has := !ds.isZero()
	if len(*s) == 0 || !(*s)[len(*s)-1].value.equal(textEllipsis) {
		r := textRecord{value: textEllipsis, elideComma: true}
		if has {
			r.comment = ds
		}
		*s = append(*s, r)
		return
	}
	if has {
		last := &(*s)[len(*s)-1]
		last.comment = last.comment.(diffStats).add(ds)
	}
}

func (s textList) compact(b []byte, d diffMode) ([]byte, textNode) {
	s = append(textList(nil), s...)
	n0 := len(b)
	multi := false
	for i, r := range s {
		if r.diff == diffInserted || r.diff == diffRemoved {
			multi = true
		}
		b = append(b, r.key...)
		if r.key != "" {
			b = append(b, ": "...)
		}
		b, s[i].value = r.value.compact(b, d|r.diff)
		if _, ok := s[i].value.(textLine); !ok {
			multi = true
		}
		if r.comment != nil {
			multi = true
		}
		if i < len(s)-1 {
			b = append(b, ", "...)
		}
	}
	if (d == diffInserted || d == diffRemoved) && len(b[n0:]) > maxColumn {
		multi = true
	}
	if !multi {
		return b, textLine(b[n0:])
	}
	return b, s
}

func (s textList) expanded(b []byte, d diffMode, n int) []byte {
	keyPad := s.align(func(r textRecord) bool {
		_, line := r.value.(textLine)
		return r.key == "" || !line
	}, func(r textRecord) int { return utf8.RuneCountInString(r.key) })
	valuePad := s.align(func(r textRecord) bool {
		_, line := r.value.(textLine)
		return !line || r.value.equal(textEllipsis) || r.comment == nil
	}, func(r textRecord) int { return utf8.RuneCount(r.value.(textLine)) })

	simple := false
	for _, r := range s {
		_, line := r.value.(textLine)
		simple = r.diff == 0 && r.key == "" && line && r.comment == nil
		if !simple {
			break
		}
	}
	if simple {
		var batch []byte
		emit := func() {
			if len(batch) > 0 {
				b = indent(append(b, '\n'), n+1, d)
				b = append(b, bytes.TrimRight(batch, " ")...)
				batch = batch[:0]
			}
		}
		for _, r := range s {
			line := r.value.(textLine)
			if len(batch)+len(line)+len(", ") > maxColumn {
				emit()
			}
			batch = append(batch, line...)
			batch = append(batch, ", "...)
		}
		emit()
		return indent(append(b, '\n'), n, d)
	}

	for i, r := range s {
		b = indent(append(b, '\n'), n+1, d|r.diff)
		if r.key != "" {
			b = append(b, r.key+": "...)
		}
		b = append(b, strings.Repeat(" ", keyPad[i])...)
		b = r.value.expanded(b, d|r.diff, n+1)
		if !r.elideComma {
			b = append(b, ',')
		}
		b = append(b, strings.Repeat(" ", valuePad[i])...)
		if r.comment != nil {
			b = append(b, " // "+r.comment.String()...)
		}
	}
	return indent(append(b, '\n'), n, d)
}

// align returns, for each record, the padding that aligns its length
// with the others of its run of records that skip does not break.
func (s textList) align(skip func(textRecord) bool, size func(textRecord) int) []int {
	var start, end, maxLen int
	pad := make([]int, len(s))
	flush := func() {
		for j := start; j < end && j < len(s); j++ {
			pad[j] = maxLen - size(s[j])
		}
	}
	for i, r := range s {
		if skip(r) {
			flush()
			start, end, maxLen = i+1, i+1, 0
			continue
		}
		maxLen = max(maxLen, size(r))
		end = i + 1
	}
	flush()
	return pad
}

type textLine []byte

var (
	textNil      = textLine("nil")
	textEllipsis = textLine("...")
)

func (s textLine) length() int { return len(s) }

func (s textLine) equal(o textNode) bool {
	l, ok := o.(textLine)
	return ok && bytes.Equal(s, l)
}

func (s textLine) compact(b []byte, _ diffMode) ([]byte, textNode) { return append(b, s...), s }

func (s textLine) expanded(b []byte, _ diffMode, _ int) []byte { return append(b, s...) }

// diffStats counts the records an ellipsis stands for.
type diffStats struct {
	name                                         string
	ignored, identical, removed, inserted, modif int
}

func (s diffStats) isZero() bool {
	return s.ignored == 0 && s.identical == 0 && s.removed == 0 && s.inserted == 0 && s.modif == 0
}

func (s diffStats) numDiff() int { return s.removed + s.inserted + s.modif }

func (s diffStats) add(o diffStats) diffStats {
	s.ignored += o.ignored
	s.identical += o.identical
	s.removed += o.removed
	s.inserted += o.inserted
	s.modif += o.modif
	return s
}

// String words the counts: "3 identical fields", "1 removed and 2
// inserted elements".
func (s diffStats) String() string {
	var parts []string
	sum := 0
	for _, c := range [...]struct {
		n     int
		label string
	}{{s.ignored, "ignored"}, {s.identical, "identical"}, {s.removed, "removed"}, {s.inserted, "inserted"}, {s.modif, "modified"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %v", c.n, c.label))
		}
		sum += c.n
	}
	name := s.name
	if sum > 1 {
		name += "s"
		if strings.HasSuffix(name, "ys") {
			name = name[:len(name)-2] + "ies"
		}
	}
	switch n := len(parts); n {
	case 0:
		return ""
	case 1, 2:
		return strings.Join(parts, " and ") + " " + name
	default:
		return strings.Join(parts[:n-1], ", ") + ", and " + parts[n-1] + " " + name
	}
}

type commentString string

func (s commentString) String() string { return string(s) }
