package godiff

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Diff returns go-cmp's report of the differences between x and y, two
// values of type t ("" when they are equal), as cmp.Diff(x, y) writes it
// in go-cmp's deterministic mode.
func Diff(t *Type, x, y *Value) string {
	root := compare(t, x, y)
	if root.numDiff == 0 {
		return ""
	}
	text := options{}.formatDiff(root)
	w, ok := text.(*textWrap)
	if !ok {
		w = &textWrap{value: text}
	}
	return w.String()
}

// typeMode says when a node's type is written.
type typeMode int

const (
	emitType  typeMode = iota // always
	elideType                 // never
	autoType                  // for composite kinds only
)

const maxVerbosityPreset = 6

// numContextRecords is how many equal records are written around a
// difference.
const numContextRecords = 2

type options struct {
	mode          diffMode
	types         typeMode
	avoidStringer bool
	verbosity     int
	limit         bool // verbosity applies
}

func (o options) withMode(d diffMode) options  { o.mode = d; return o }
func (o options) withTypes(t typeMode) options { o.types = t; return o }
func (o options) withVerbosity(level int) options {
	o.verbosity = level
	o.limit = true
	return o
}

func (o options) level() uint {
	switch {
	case o.verbosity < 0:
		return 0
	case o.verbosity > 16:
		return 16
	}
	return uint(o.verbosity)
}

func preset(o options, i int) options {
	o.verbosity = int(o.level()) + 2*i
	if i > 0 {
		o.avoidStringer = true
	}
	return o
}

func parentKind(v *node) Kind {
	if v.parent != nil {
		return v.parent.t.Kind
	}
	return 0
}

// formatDiff writes the difference of one node (go-cmp's FormatDiff).
func (o options) formatDiff(v *node) textNode {
	if o.mode == diffIdentical {
		o = o.withVerbosity(1)
	} else if o.level() < 3 {
		o = o.withVerbosity(3)
	}
	if o.canFormatDiffSlice(v) {
		return o.formatDiffSlice(v)
	}
	pk := parentKind(v)
	isBytes := v.t.Kind == Slice && v.t.Elem.Kind == Uint8
	if v.maxDepth == 0 || isBytes && v.numDiff == 0 {
		switch o.mode {
		case diffUnknown, diffIdentical:
			if v.numDiff == 0 {
				outx := o.formatValue(v.x, pk)
				outy := o.formatValue(v.y, pk)
				if outx.length() < outy.length() {
					return outx
				}
				return outy
			}
			var list textList
			outx := o.withTypes(elideType).formatValue(v.x, pk)
			outy := o.withTypes(elideType).formatValue(v.y, pk)
			for i := 0; i <= maxVerbosityPreset && outx != nil && outy != nil && outx.equal(outy); i++ {
				o2 := preset(o, i).withTypes(elideType)
				outx = o2.formatValue(v.x, pk)
				outy = o2.formatValue(v.y, pk)
			}
			if outx != nil {
				list = append(list, textRecord{diff: diffRemoved, value: outx})
			}
			if outy != nil {
				list = append(list, textRecord{diff: diffInserted, value: outy})
			}
			return o.withTypes(emitType).formatType(v.t, list)
		case diffRemoved:
			return o.formatValue(v.x, pk)
		default:
			return o.formatValue(v.y, pk)
		}
	}
	switch v.t.Kind {
	case Struct, Slice, Map:
		return o.formatType(v.t, o.formatDiffList(v.records, v.t.Kind))
	case Ptr:
		return &textWrap{prefix: "&", value: o.formatDiff(v.value)}
	}
	panic(fmt.Sprintf("godiff: %s cannot have children", v.t.Name))
}

// formatDiffList writes the records of a struct, slice or map node.
func (o options) formatDiffList(recs []record, k Kind) textNode {
	var name string
	var key func(record) string
	switch k {
	case Struct:
		name = "field"
		o = o.withTypes(autoType)
		key = func(r record) string { return r.key }
	case Slice:
		name = "element"
		o = o.withTypes(elideType)
		key = func(record) string { return "" }
	case Map:
		name = "entry"
		o = o.withTypes(elideType)
		key = func(r record) string { return formatMapKey(r.key) }
	}
	maxLen := -1
	if o.limit {
		if o.mode == diffIdentical {
			maxLen = ((1 << o.level()) >> 1) << 2
		} else {
			maxLen = (1 << o.level()) << 1
		}
		o.verbosity--
	}

	switch o.mode {
	case diffIdentical, diffRemoved, diffInserted:
		var list textList
		deferred := false
		for _, r := range recs {
			if len(list) == maxLen {
				deferred = true
				break
			}
			if k == Struct {
				var zero bool
				switch o.mode {
				case diffIdentical:
					zero = r.value.x.IsZero() || r.value.y.IsZero()
				case diffRemoved:
					zero = r.value.x.IsZero()
				case diffInserted:
					zero = r.value.y.IsZero()
				}
				if zero {
					continue
				}
			}
			if out := o.formatDiff(r.value); out != nil {
				list = append(list, textRecord{key: key(r), value: out})
			}
		}
		if deferred {
			list.appendEllipsis(diffStats{})
		}
		return &textWrap{prefix: "{", value: list, suffix: "}"}
	}

	var numDiffs int
	var list textList
	groups := coalesceRecords(name, recs)
	maxGroup := diffStats{name: name}
	for i, ds := range groups {
		if maxLen >= 0 && numDiffs >= maxLen {
			maxGroup = maxGroup.add(ds)
			continue
		}
		if ds.numDiff() == 0 {
			var lo, hi int
			numEqual := ds.ignored + ds.identical
			for lo < numContextRecords && lo+hi < numEqual && i != 0 {
				lo++
			}
			for hi < numContextRecords && lo+hi < numEqual && i != len(groups)-1 {
				hi++
			}
			if numEqual-(lo+hi) == 1 && ds.ignored == 0 {
				hi++
			}
			for _, r := range recs[:lo] {
				list = append(list, textRecord{key: key(r), value: o.withMode(diffIdentical).formatDiff(r.value)})
			}
			if numEqual > lo+hi {
				ds.identical -= lo + hi
				list.appendEllipsis(ds)
			}
			for _, r := range recs[numEqual-hi : numEqual] {
				list = append(list, textRecord{key: key(r), value: o.withMode(diffIdentical).formatDiff(r.value)})
			}
			recs = recs[numEqual:]
			continue
		}
		for _, r := range recs[:ds.numDiff()] {
			switch {
			case o.canFormatDiffSlice(r.value):
				list = append(list, textRecord{key: key(r), value: o.formatDiffSlice(r.value)})
			case r.value.numChildren == r.value.maxDepth:
				outx := o.withMode(diffRemoved).formatDiff(r.value)
				outy := o.withMode(diffInserted).formatDiff(r.value)
				for i := 0; i <= maxVerbosityPreset && outx != nil && outy != nil && outx.equal(outy); i++ {
					o2 := preset(o, i)
					outx = o2.withMode(diffRemoved).formatDiff(r.value)
					outy = o2.withMode(diffInserted).formatDiff(r.value)
				}
				if outx != nil {
					list = append(list, textRecord{diff: diffRemoved, key: key(r), value: outx})
				}
				if outy != nil {
					list = append(list, textRecord{diff: diffInserted, key: key(r), value: outy})
				}
			default:
				list = append(list, textRecord{key: key(r), value: o.formatDiff(r.value)})
			}
		}
		recs = recs[ds.numDiff():]
		numDiffs += ds.numDiff()
	}
	if !maxGroup.isZero() {
		list.appendEllipsis(maxGroup)
	}
	return &textWrap{prefix: "{", value: list, suffix: "}"}
}

// coalesceRecords groups adjacent records into runs of equal and of
// unequal ones.
func coalesceRecords(name string, recs []record) []diffStats {
	var groups []diffStats
	prev := 0
	last := func(i int) *diffStats {
		if prev != i {
			groups = append(groups, diffStats{name: name})
			prev = i
		}
		return &groups[len(groups)-1]
	}
	for _, r := range recs {
		switch v := r.value; {
		case v.numDiff == 0:
			last(1).identical++
		case v.y == nil:
			last(2).removed++
		case v.x == nil:
			last(2).inserted++
		default:
			last(2).modif++
		}
	}
	return groups
}

// formatType wraps s in the name of type t, as the type mode asks.
func (o options) formatType(t *Type, s textNode) textNode {
	switch o.types {
	case autoType:
		switch t.Kind {
		case Struct, Slice, Map:
			if s.equal(textNil) {
				return s
			}
		default:
			return s
		}
		if o.mode == diffIdentical {
			return s
		}
	case elideType:
		return s
	}
	name := t.Name
	if !t.Named && t.Kind == Ptr {
		name = "(" + name + ")"
	}
	return &textWrap{prefix: name, value: wrapParens(s)}
}

func wrapParens(s textNode) textNode {
	if w, ok := s.(*textWrap); ok {
		parens := strings.HasPrefix(w.prefix, "(") && strings.HasSuffix(w.suffix, ")")
		braces := strings.HasPrefix(w.prefix, "{") && strings.HasSuffix(w.suffix, "}")
		if parens || braces {
			return s
		}
	}
	return &textWrap{prefix: "(", value: s, suffix: ")"}
}

// formatValue writes one value whole (go-cmp's FormatValue); nil for an
// absent value.
func (o options) formatValue(v *Value, pk Kind) textNode {
	if v == nil {
		return nil
	}
	t := v.T
	if !o.avoidStringer && t.Kind == Ptr && t.Stringer != nil && !v.Nil {
		return o.formatString("s", t.Stringer(v))
	}
	out, skipType := o.formatKind(v, pk)
	if !skipType {
		out = o.formatType(t, out)
	}
	return out
}

func (o options) formatKind(v *Value, pk Kind) (out textNode, skipType bool) {
	t := v.T
	switch t.Kind {
	case Bool:
		return textLine(strconv.FormatBool(v.Bool)), false
	case Int:
		return textLine(strconv.FormatInt(v.Int, 10)), false
	case Uint8:
		if pk == Slice {
			return textLine(fmt.Sprintf("0x%02x", v.Int)), false
		}
		return textLine(strconv.FormatInt(v.Int, 10)), false
	case Float:
		return textLine(fmt.Sprint(v.Float)), false
	case String:
		return o.formatString("", v.Str), false
	case Struct:
		var list textList
		maxLen := len(t.Fields)
		if o.limit {
			maxLen = ((1 << o.level()) >> 1) << 2
			o.verbosity--
		}
		for i, f := range v.Fields {
			if f.IsZero() {
				continue
			}
			if len(list) == maxLen {
				list.appendEllipsis(diffStats{})
				break
			}
			list = append(list, textRecord{key: t.Fields[i], value: o.withTypes(autoType).formatValue(f, Struct)})
		}
		return &textWrap{prefix: "{", value: list, suffix: "}"}, false
	case Slice:
		if v.Nil {
			return textNil, false
		}
		if t.Elem.Kind == Uint8 {
			b := v.bytes()
			printable := func(r rune) bool { return unicode.IsPrint(r) || unicode.IsSpace(r) }
			if len(b) > 0 && utf8.Valid(b) && len(strings.TrimFunc(string(b), printable)) == 0 {
				return o.formatType(t, o.formatString("", string(b))), true
			}
		}
		maxLen := len(v.Elems)
		if o.limit {
			maxLen = ((1 << o.level()) >> 1) << 2
			o.verbosity--
		}
		var list textList
		for _, e := range v.Elems {
			if len(list) == maxLen {
				list.appendEllipsis(diffStats{})
				break
			}
			list = append(list, textRecord{value: o.withTypes(elideType).formatValue(e, Slice)})
		}
		return &textWrap{prefix: "{", value: list, suffix: "}"}, false
	case Map:
		if v.Nil {
			return textNil, false
		}
		maxLen := len(v.Keys)
		if o.limit {
			maxLen = ((1 << o.level()) >> 1) << 2
			o.verbosity--
		}
		var list textList
		for i, k := range v.Keys {
			if len(list) == maxLen {
				list.appendEllipsis(diffStats{})
				break
			}
			list = append(list, textRecord{key: formatMapKey(k), value: o.withTypes(elideType).formatValue(v.Vals[i], Map)})
		}
		return &textWrap{prefix: "{", value: list, suffix: "}"}, false
	case Ptr:
		if v.Nil {
			return textNil, false
		}
		out := o.formatValue(v.Elem, Ptr)
		return &textWrap{prefix: "&", value: out}, !t.Named
	}
	panic("godiff: kind not handled")
}

// formatString writes a string value (prefix "s" for a String method's
// result).
func (o options) formatString(prefix, s string) textNode {
	maxLen := len(s)
	maxLines := strings.Count(s, "\n") + 1
	if o.limit {
		maxLen = (1 << o.level()) << 5
		maxLines = (1 << o.level()) << 2
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	triple := len(lines) >= 4 && (o.mode == diffRemoved || o.mode == diffInserted)
	for i := 0; i < len(lines) && triple; i++ {
		lines[i] = strings.TrimPrefix(strings.TrimSuffix(lines[i], "\r"), "\r")
		printable := func(r rune) bool { return unicode.IsPrint(r) || r == '\t' }
		line := lines[i]
		triple = !strings.HasPrefix(strings.TrimPrefix(line, prefix), `"""`) && !strings.HasPrefix(line, "...") &&
			strings.TrimFunc(line, printable) == "" && len(line) <= maxLen
	}
	if triple {
		var list textList
		list = append(list, textRecord{diff: o.mode, value: textLine(prefix + `"""`), elideComma: true})
		for i, line := range lines {
			if elided := len(lines) - i; i == maxLines-1 && elided > 1 {
				list = append(list, textRecord{diff: o.mode, value: textEllipsis, elideComma: true,
					comment: commentString(fmt.Sprintf("%d elided lines", elided))})
				break
			}
			list = append(list, textRecord{diff: o.mode, value: textLine(line), elideComma: true})
		}
		list = append(list, textRecord{diff: o.mode, value: textLine(prefix + `"""`), elideComma: true})
		return &textWrap{prefix: "(", value: list, suffix: ")"}
	}
	if len(s) > maxLen+len(textEllipsis) {
		return textLine(prefix + quote(s[:maxLen]) + string(textEllipsis))
	}
	return textLine(prefix + quote(s))
}

// formatMapKey writes a map key.
func formatMapKey(k string) string {
	o := options{mode: diffIdentical, types: elideType, verbosity: maxVerbosityPreset, limit: true}
	return strings.TrimSpace(string(o.formatString("", k).(textLine)))
}

// quote writes s double-quoted, or backquoted when that is shorter and
// s has no newline, backquote or unprintable character.
func quote(s string) string {
	qs := strconv.Quote(s)
	if len(qs) == 1+len(s)+1 {
		return qs
	}
	invalid := func(r rune) bool { return r == '`' || r == '\n' || !(unicode.IsPrint(r) || r == '\t') }
	if utf8.ValidString(s) && strings.IndexFunc(s, invalid) < 0 {
		return "`" + s + "`"
	}
	return qs
}
