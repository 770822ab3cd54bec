package fastyaml

import "bytes"

// closedItem reports whether the text of a List item (from its dash line
// to its last line) certainly leaves no quoted scalar or flow collection
// open at its end, so that the lines after it cannot be text of one: the
// split may then end the item where its lines end without parsing it.
// False means only "not certain": the caller parses the item whole.
//
// It reads the item as YAML reads a block node, line by line, and is sure
// of a line only where YAML itself is: at a node's start. A quoted scalar
// may go on over lines only from such a place; a line that may be text of
// a plain or block scalar begun on a line before (one indented deeper than
// that line) is read only as far as it must close what it opens, and
// anything unusual (a tag, a complex key, a tab, a flow collection over
// lines) makes it uncertain.
func closedItem(t []byte) bool {
	if bytes.IndexByte(t, '"') < 0 && bytes.IndexByte(t, '\'') < 0 && bytes.IndexByte(t, '[') < 0 && bytes.IndexByte(t, '{') < 0 {
		return true // nothing that opens over lines (four quick scans)
	}
	zone := -1 // lines indented deeper than zone may be text of a scalar begun before
	for off := 0; off < len(t); {
		e := bytes.IndexByte(t[off:], '\n')
		if e < 0 {
			e = len(t) - off
		}
		line := t[off : off+e]
		k := 0
		for k < len(line) && line[k] == ' ' {
			k++
		}
		content := line[k:]
		if blank(content) || content[0] == '#' {
			off += e + 1
			continue
		}
		if zone >= 0 && k <= zone {
			zone = -1
		}
		ambiguous := zone >= 0
		if !hasSpecial(content) {
			// Keys, dashes and plain scalars only.
			if z := plainZone(content); !ambiguous && z >= 0 {
				zone = z + k
			}
			off += e + 1
			continue
		}
		next, z, ok := lexLine(t, off, off+k, ambiguous)
		if !ok {
			return false
		}
		if !ambiguous && z >= 0 {
			zone = z
		}
		off = next + 1
	}
	return true
}

// special marks the bytes after which a line is not only keys, dashes and
// plain scalars.
var special = [256]bool{'"': true, '\'': true, '[': true, '{': true, '|': true, '>': true, '!': true, '&': true, '#': true, '?': true, '\t': true}

// hasSpecial reports whether content holds a byte that special marks.
func hasSpecial(content []byte) bool {
	for _, c := range content {
		if special[c] {
			return true
		}
	}
	return false
}

// plainZone returns, for a line of keys, dashes and plain scalars (its
// content from its first non-space byte), the column (in content) after
// which the lines that follow may go on the plain scalar it ends in, or -1
// when it ends in a key's colon or a dash alone (a node that starts on the
// next line). A plain scalar after a key goes on in lines deeper than the
// key; one after a dash, deeper than the dash; one alone on its line,
// deeper than a node not on the line: 0, the least.
func plainZone(content []byte) int {
	c := bytes.TrimRight(content, " \r")
	col, dash := 0, -1
	for col < len(c) && c[col] == '-' && (col+1 == len(c) || c[col+1] == ' ') {
		dash = col // an entry's dash at the line's start
		col++
		for col < len(c) && c[col] == ' ' {
			col++
		}
	}
	switch {
	case col == len(c) || c[len(c)-1] == ':':
		return -1
	case bytes.Contains(c[col:], []byte(": ")):
		return col // a key's value
	case dash >= 0:
		return dash
	}
	return 0 // alone on its line
}

// lexLine reads the line of t that starts at offset line, from its
// content at p, a node's start, and returns the offset of the line feed
// (or len(t)) that ends the last line it read — more than one when a
// quoted scalar goes on over lines —, the column after which the lines
// that follow may go on a plain or block scalar the line ends in (as
// plainZone; -1 for none), and ok false when it is not certain that
// nothing is left open. With ambiguous, the line may be text of a scalar
// begun before: a quote or bracket it opens must close on it.
func lexLine(t []byte, line, p int, ambiguous bool) (next, zone int, ok bool) {
	eol := bytes.IndexByte(t[p:], '\n')
	if eol < 0 {
		eol = len(t)
	} else {
		eol += p
	}
	dashes := true // only entries' dashes so far on the line
	owner := -1    // the column of the key or dash whose node is read; -1: none on the line
	for {
		// A node's start.
		for p < eol && (t[p] == ' ' || (ambiguous && t[p] == '\t')) {
			p++
		}
		if p == eol || t[p] == '\r' || t[p] == '#' {
			return eol, -1, true // the node starts on a later line, or none
		}
		c := t[p]
		if c == '-' && dashes && (p+1 == eol || t[p+1] == ' ' || t[p+1] == '\r') {
			owner = p - line
			p++
			continue // a sequence's entry at the line's start: its node follows
		}
		dashes = false
		nodeCol := p - line
		switch {
		case c == '"' || c == '\'':
			end := closeQuote(t, p, eol, ambiguous)
			if end < 0 {
				return 0, -1, false
			}
			if end > eol {
				// Over lines: nothing but a comment may follow on its last.
				eol = bytes.IndexByte(t[end:], '\n')
				if eol < 0 {
					eol = len(t)
				} else {
					eol += end
				}
				if r := bytes.TrimLeft(t[end:eol], " \r"); len(r) > 0 && r[0] != '#' {
					return 0, -1, false
				}
				return eol, -1, true
			}
			p = end
		case c == '[' || c == '{':
			end := closeFlow(t, p, eol)
			if end < 0 {
				return 0, -1, false
			}
			p = end
		case c == '|' || c == '>':
			// A block scalar: the lines after it, deeper than its key or
			// dash, are its text.
			return eol, max(owner, 0), true
		case c == '!' || c == '&' || c == '?' || c == '\t':
			return 0, -1, false // a tag, an anchor, a complex key, a tab: not read here
		default:
			// A plain scalar, to the end of the line, a comment, or the
			// colon that makes it a key.
			key := false
			for ; p < eol; p++ {
				if t[p] == ':' && (p+1 == eol || t[p+1] == ' ' || t[p+1] == '\r') {
					key = true
					break
				}
				if t[p] == '#' && t[p-1] == ' ' {
					break
				}
				if t[p] == '\t' && !ambiguous {
					return 0, -1, false
				}
			}
			if !key {
				return eol, max(owner, 0), true
			}
			owner = nodeCol
			p++
			continue
		}
		// After a quoted scalar or a flow collection on one line: the end
		// of the line, a comment, or the colon that makes it a key.
		for p < eol && t[p] == ' ' {
			p++
		}
		if p == eol || t[p] == '\r' || t[p] == '#' {
			return eol, -1, true
		}
		if t[p] != ':' || !(p+1 == eol || t[p+1] == ' ' || t[p+1] == '\r') {
			return 0, -1, false
		}
		owner = nodeCol
		p++
	}
}

// closeQuote returns the offset just past the quote that closes the
// quoted scalar opening at t[p], or -1 when it does not close in t (or,
// with oneLine, on the line that ends at eol). A double-quoted scalar's
// backslash escapes the byte after it; a single-quoted one's quote is
// doubled.
func closeQuote(t []byte, p, eol int, oneLine bool) int {
	q := t[p]
	limit := len(t)
	if oneLine {
		limit = eol
	}
	for i := p + 1; i < limit; i++ {
		switch t[i] {
		case '\\':
			if q == '"' {
				i++
			}
		case q:
			if q == '\'' && i+1 < limit && t[i+1] == '\'' {
				i++
				continue
			}
			return i + 1
		}
	}
	return -1
}

// closeFlow returns the offset just past the bracket that closes the flow
// collection opening at t[p], or -1 when it does not close on its line
// (the line ending at eol) or holds what is not read here: a quote inside
// a plain scalar, a comment.
func closeFlow(t []byte, p, eol int) int {
	depth := 0
	start := true // at a node's start: after an opening bracket, a comma or a colon
	for i := p; i < eol; i++ {
		c := t[i]
		switch {
		case c == '[' || c == '{':
			depth++
			start = true
		case c == ']' || c == '}':
			depth--
			if depth == 0 {
				return i + 1
			}
			start = false
		case c == ',':
			start = true
		case c == ':':
			// A value's indicator only before a space: "a:b" is a plain
			// scalar in which a quote is text.
			start = i+1 < eol && t[i+1] == ' '
			if !start {
				return -1
			}
		case c == ' ' || c == '\r':
		case c == '"' || c == '\'':
			if !start {
				return -1
			}
			end := closeQuote(t, i, eol, true)
			if end < 0 {
				return -1
			}
			i = end - 1
			start = false
		case c == '#' || c == '\t' || c == '!' || c == '&' || c == '?' || c == '|' || c == '>':
			return -1
		default:
			start = false
		}
	}
	return -1
}
