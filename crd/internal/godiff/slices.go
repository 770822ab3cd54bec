package godiff

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// canFormatDiffSlice reports whether a node is a string or a slice of
// bytes that go-cmp writes as a text difference.
func (o options) canFormatDiffSlice(v *node) bool {
	switch {
	case o.mode != diffUnknown, v.numDiff == 0, v.x == nil, v.y == nil:
		return false
	}
	switch v.t.Kind {
	case String:
	case Slice:
		if v.t.Elem.Kind != Uint8 {
			return false
		}
		if v.x.Nil || v.y.Nil || len(v.x.Elems) == 0 || len(v.y.Elems) == 0 {
			return false
		}
		if v.numDiff > v.numSame {
			return true
		}
	default:
		return false
	}
	const minLength = 32
	return v.x.length() >= minLength && v.y.length() >= minLength
}

// formatDiffSlice writes the difference of two strings or byte slices,
// by lines, by chunks of text or as hexadecimal bytes.
func (o options) formatDiffSlice(v *node) textNode {
	var sx, sy string
	if v.t.Kind == String {
		sx, sy = v.x.Str, v.y.Str
	} else {
		sx, sy = string(v.x.bytes()), string(v.y.bytes())
	}
	var ssx, ssy []string
	var total, valid, lines, lastLine, maxLineLen int
	for i, r := range sx + sy {
		total++
		if (unicode.IsPrint(r) || unicode.IsSpace(r)) && r != utf8.RuneError {
			valid++
		}
		if r == '\n' {
			maxLineLen = max(maxLineLen, i-lastLine)
			lastLine = i + 1
			lines++
		}
	}
	pureText := valid == total
	mostlyText := float64(valid) > math.Floor(0.90*float64(total))
	linedText := pureText && lines >= 4 && maxLineLen <= 1024
	binary := !mostlyText
	if linedText {
		ssx = strings.Split(sx, "\n")
		ssy = strings.Split(sy, "\n")
		esLines := difference(len(ssx), len(ssy), func(ix, iy int) result { return boolResult(ssx[ix] == ssy[iy]) })
		esBytes := difference(len(sx), len(sy), func(ix, iy int) result { return boolResult(sx[ix] == sy[iy]) })
		effLines := float64(esLines.dist()) / float64(len(esLines))
		effBytes := float64(esBytes.dist()) / float64(len(esBytes))
		expansion := float64(len(strconv.Quote(sx+sy))) / float64(len(sx)+len(sy))
		linedText = effLines < 4*effBytes || expansion > 1.1
	}

	var list textList
	var delim string
	switch {
	case linedText:
		list = o.chunkDiff(len(ssx), len(ssy), func(ix, iy int) bool { return ssx[ix] == ssy[iy] }, 1, "line",
			func(lo, hi int, side bool, d diffMode) textRecord {
				s := ssx
				if side {
					s = ssy
				}
				return textRecord{diff: d, value: textLine(quote(s[lo]))}
			})
		delim = "\n"
		if out, ok := o.tripleQuoted(v, list); ok {
			return out
		}
	case mostlyText:
		list = o.chunkDiff(len(sx), len(sy), func(ix, iy int) bool { return sx[ix] == sy[iy] }, 64, "byte",
			func(lo, hi int, side bool, d diffMode) textRecord {
				s := sx
				if side {
					s = sy
				}
				return textRecord{diff: d, value: textLine(quote(s[lo:hi]))}
			})
	case binary:
		list = o.chunkDiff(len(sx), len(sy), func(ix, iy int) bool { return sx[ix] == sy[iy] }, 16, "byte",
			func(lo, hi int, side bool, d diffMode) textRecord {
				s := sx
				if side {
					s = sy
				}
				var ss []string
				for i := lo; i < hi; i++ {
					ss = append(ss, fmt.Sprintf("0x%02x", s[i]))
				}
				return textRecord{diff: d, value: textLine(strings.Join(ss, ", ")),
					comment: commentString(fmt.Sprintf("%c|%v|", d, ascii(s[lo:hi])))}
			})
	}

	var out textNode = &textWrap{prefix: "{", value: list, suffix: "}"}
	if !mostlyText {
		if v.t.Kind == String {
			o = o.withTypes(emitType)
		}
		return o.formatType(v.t, out)
	}
	if v.t.Kind == String {
		out = &textWrap{prefix: "strings.Join(", value: out, suffix: fmt.Sprintf(", %q)", delim)}
		if v.t.Name != "string" {
			out = o.formatType(v.t, out)
		}
		return out
	}
	out = &textWrap{prefix: "bytes.Join(", value: out, suffix: fmt.Sprintf(", %q)", delim)}
	// Every []byte described here is the unnamed []uint8, bytesType.
	return out
}

// tripleQuoted rewrites a difference by lines with """ quotes, unless a
// line forbids it.
func (o options) tripleQuoted(v *node, list textList) (textNode, bool) {
	prevRemoved := map[string]bool{}
	prevInserted := map[string]bool{}
	list2 := textList{{value: textLine(`"""`), elideComma: true}}
	for _, r := range list {
		if !r.value.equal(textEllipsis) {
			line, _ := strconv.Unquote(string(r.value.(textLine)))
			line = strings.TrimPrefix(strings.TrimSuffix(line, "\r"), "\r")
			norm := strings.Map(func(r rune) rune {
				if unicode.IsSpace(r) {
					return -1
				}
				return r
			}, line)
			printable := func(r rune) bool { return unicode.IsPrint(r) || r == '\t' }
			ok := !strings.HasPrefix(line, `"""`) && !strings.HasPrefix(line, "...") && strings.TrimFunc(line, printable) == ""
			switch r.diff {
			case diffRemoved:
				ok = ok && !prevInserted[norm]
				prevRemoved[norm] = true
			case diffInserted:
				ok = ok && !prevRemoved[norm]
				prevInserted[norm] = true
			}
			if !ok {
				return nil, false
			}
			r.value = textLine(line)
			r.elideComma = true
		}
		if r.diff != diffRemoved && r.diff != diffInserted {
			prevRemoved = map[string]bool{}
			prevInserted = map[string]bool{}
		}
		list2 = append(list2, r)
	}
	if r := list2[len(list2)-1]; r.diff == diffIdentical && len(r.value.(textLine)) == 0 {
		list2 = list2[:len(list2)-1]
	}
	list2 = append(list2, textRecord{value: textLine(`"""`), elideComma: true})
	var out textNode = &textWrap{prefix: "(", value: list2, suffix: ")"}
	switch v.t.Kind {
	case String:
		if v.t.Name != "string" {
			out = o.formatType(v.t, out)
		}
	case Slice:
		out = o.withTypes(emitType).formatType(v.t, out)
	}
	return out, true
}

func boolResult(b bool) result {
	if b {
		return result{same: 1}
	}
	return result{diff: 2}
}

func ascii(s string) string {
	b := []byte(strings.Repeat(".", len(s)))
	for i := 0; i < len(s); i++ {
		if ' ' <= s[i] && s[i] <= '~' {
			b[i] = s[i]
		}
	}
	return string(b)
}

// chunkDiff writes the difference of two sequences of nx and ny elements
// in chunks of chunkSize (go-cmp's formatDiffSlice); rec writes the
// elements [lo, hi) of x (side false) or y (side true).
func (o options) chunkDiff(nx, ny int, eq func(ix, iy int) bool, chunkSize int, name string,
	rec func(lo, hi int, side bool, d diffMode) textRecord) textList {
	es := difference(nx, ny, func(ix, iy int) result { return boolResult(eq(ix, iy)) })
	var list textList
	// x and y are the offsets of the elements not yet written.
	x, y := 0, 0
	chunks := func(lo, hi int, side bool, d diffMode) int {
		for lo < hi {
			n := min(chunkSize, hi-lo)
			list = append(list, rec(lo, lo+n, side, d))
			lo += n
		}
		return hi
	}
	var numDiffs int
	maxLen := -1
	if o.limit {
		maxLen = (1 << o.level()) << 2
		o.verbosity--
	}
	groups := coalesceEdits(name, es)
	groups = coalesceIntervening(groups, chunkSize/4)
	groups = cleanupIdentical(groups, func(ix, iy int) bool { return eq(ix, iy) })
	maxGroup := diffStats{name: name}
	for i, ds := range groups {
		if maxLen >= 0 && numDiffs >= maxLen {
			maxGroup = maxGroup.add(ds)
			continue
		}
		if ds.numDiff() == 0 {
			var lo, hi int
			numEqual := ds.ignored + ds.identical
			for lo < chunkSize*numContextRecords && lo+hi < numEqual && i != 0 {
				lo++
			}
			for hi < chunkSize*numContextRecords && lo+hi < numEqual && i != len(groups)-1 {
				hi++
			}
			if numEqual-(lo+hi) <= chunkSize && ds.ignored == 0 {
				hi = numEqual - lo
			}
			chunks(x, x+lo, false, diffIdentical)
			if numEqual > lo+hi {
				ds.identical -= lo + hi
				list.appendEllipsis(ds)
			}
			chunks(x+numEqual-hi, x+numEqual, false, diffIdentical)
			x += numEqual
			y += numEqual
			continue
		}
		n0 := len(list)
		x = chunks(x, x+ds.identical+ds.removed+ds.modif, false, diffRemoved)
		y = chunks(y, y+ds.identical+ds.inserted+ds.modif, true, diffInserted)
		numDiffs += len(list) - n0
	}
	if !maxGroup.isZero() {
		list.appendEllipsis(maxGroup)
	}
	return list
}

func coalesceEdits(name string, es editScript) []diffStats {
	var groups []diffStats
	var prev byte
	last := func(mode byte) *diffStats {
		if prev != mode {
			groups = append(groups, diffStats{name: name})
			prev = mode
		}
		return &groups[len(groups)-1]
	}
	for _, e := range es {
		switch e {
		case identity:
			last('=').identical++
		case uniqueX:
			last('!').removed++
		case uniqueY:
			last('!').inserted++
		case modified:
			last('!').modif++
		}
	}
	return groups
}

// coalesceIntervening merges short equal runs (at most window) into the
// unequal runs around them when those remove and insert.
func coalesceIntervening(groups []diffStats, window int) []diffStats {
	orig := groups
	groups = groups[:0:0]
	for i, ds := range orig {
		if len(groups) >= 2 && ds.numDiff() > 0 {
			prev := &groups[len(groups)-2]
			curr := &groups[len(groups)-1]
			next := &orig[i]
			hadX, hadY := prev.removed > 0, prev.inserted > 0
			hasX, hasY := next.removed > 0, next.inserted > 0
			if (hadX || hasX) && (hadY || hasY) && curr.identical <= window {
				*prev = prev.add(*curr).add(*next)
				groups = groups[:len(groups)-1]
				continue
			}
		}
		groups = append(groups, ds)
	}
	return groups
}

// cleanupIdentical moves the equal elements at either end of an unequal
// run into the equal runs beside it.
func cleanupIdentical(groups []diffStats, eq func(ix, iy int) bool) []diffStats {
	var ix, iy int
	for i, ds := range groups {
		if ds.numDiff() == 0 {
			ix += ds.identical
			iy += ds.identical
			continue
		}
		nx := ds.identical + ds.removed + ds.modif
		ny := ds.identical + ds.inserted + ds.modif
		var lead, trail int
		for j := 0; j < nx && j < ny && eq(ix+j, iy+j); j++ {
			lead++
		}
		for j := 0; j < nx && j < ny && eq(ix+nx-1-j, iy+ny-1-j); j++ {
			trail++
		}
		if n := lead + trail; n > 0 {
			if lead > 0 {
				// Without a run before it, go-cmp's deferred prepend is lost
				// (its result is not named): the equal elements are dropped.
				if i-1 >= 0 {
					groups[i-1].identical += lead
				}
				ix += lead
				iy += lead
			}
			if trail > 0 {
				if i+1 < len(groups) {
					groups[i+1].identical += trail
				}
			}
			nx -= n
			ny -= n
			groups[i] = diffStats{name: ds.name, removed: nx, inserted: ny}
		}
		ix += nx
		iy += ny
	}
	return groups
}
