package fastyaml

import (
	"bytes"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// The scalars of the fast path, read as go.yaml.in/yaml/v2 (the parser of
// sigs.k8s.io/yaml) reads them: the same folding of line breaks, the same
// escapes, the same YAML 1.1 types. Each reader leaves the parser on the
// first line after the scalar.

// plain reads a plain scalar (or {} or []) that starts with first on the
// current line, the value of a key or an item indented n, and goes on over
// the lines indented more than n: line breaks fold to a space, blank lines
// to line feeds.
func (p *parser) plain(n int, first []byte) bool {
	switch string(first) {
	case "{}":
		p.b.beginMap(p.at(offsetIn(p.c, first)))
		p.advance()
		return p.b.endMap()
	case "[]":
		p.b.beginSeq()
		p.b.endSeq()
		p.advance()
		return true
	}
	if !plainLine(first) {
		return false
	}
	p.advance()
	v := first
	multi := false
	blank := 0 // blank lines since the last line with text
	for ; !p.eof; p.advance() {
		if len(p.c) == 0 {
			blank++
			continue
		}
		if p.ind <= n || p.c[0] == '#' {
			break // the next node, or a comment, which ends the scalar
		}
		l := bytes.TrimRight(p.c, " ")
		if !plainLine(l) {
			return false
		}
		if !multi {
			p.buf = append(p.buf[:0], first...)
			multi = true
		}
		p.buf = appendBreaks(p.buf, blank)
		p.buf = append(p.buf, l...)
		blank = 0
		v = p.buf
	}
	k, ok := plainType(v)
	if ok {
		p.b.scalar(k, v)
	}
	return ok
}

// offsetIn returns where sub, a part of line (both slices of one
// document, to its end), starts in line.
func offsetIn(line, sub []byte) int { return cap(line) - cap(sub) }

// plainLine reports whether l, one line of a plain scalar, is text to the
// scalar: nothing in it ends the scalar there (": ", a colon at its end,
// " #") or opens a flow collection the fast path does not read.
func plainLine(l []byte) bool {
	if len(l) == 0 || l[len(l)-1] == ':' {
		return false
	}
	for i := 0; ; i++ {
		k := bytes.IndexByte(l[i:], ':')
		if k < 0 {
			break
		}
		if i += k; l[i+1] == ' ' { // a colon not last: l[i+1] is there
			return false
		}
	}
	for i := 0; ; i++ {
		k := bytes.IndexByte(l[i:], '#')
		if k < 0 {
			return true
		}
		if i += k; i > 0 && l[i-1] == ' ' {
			return false
		}
	}
}

// appendBreaks appends the folding of a line break followed by blank
// lines: a space when there are none, a line feed for each otherwise.
func appendBreaks(b []byte, blank int) []byte {
	if blank == 0 {
		return append(b, ' ')
	}
	for ; blank > 0; blank-- {
		b = append(b, '\n')
	}
	return b
}

// quoted reads a single- or double-quoted scalar that opens with rest on
// the current line, the value of a key or an item indented n. It may go on
// over lines indented more than n (YAML takes less; the library reads
// those); line breaks fold as in a plain scalar, but an escaped one (a
// backslash at the end of a line, double-quoted) folds to nothing.
func (p *parser) quoted(n int, rest []byte) bool {
	q := rest[0]
	l := p.c[offsetIn(p.c, rest)+1:] // the line after the quote, its spaces kept ("\ " is a space)
	if i := bytes.IndexByte(l, q); i >= 0 && i == len(rest)-2 && (q == '\'' || bytes.IndexByte(l[:i], '\\') < 0) {
		p.b.scalar(kindString, l[:i]) // the common case: no escape, one line
		p.advance()
		return true
	}
	p.buf = p.buf[:0]
	for {
		end, escBreak, ok := p.quotedLine(l, q)
		if !ok {
			return false
		}
		if end >= 0 {
			if len(trimSpaces(l[end+1:])) != 0 {
				return false // text after the closing quote
			}
			p.b.scalar(kindString, p.buf)
			p.advance()
			return true
		}
		blank := 0
		for p.advance(); !p.eof && len(p.c) == 0 && !p.lastLine(); p.advance() {
			blank++
		}
		if p.eof || len(p.c) == 0 || p.ind <= n {
			return false // the end of the document, or a line the fast path leaves to the library
		}
		if escBreak {
			for ; blank > 0; blank-- {
				p.buf = append(p.buf, '\n')
			}
		} else {
			p.buf = appendBreaks(p.buf, blank)
		}
		l = p.c
	}
}

// quotedLine appends the text of l, a line of a scalar quoted with q, to
// p.buf, up to the closing quote (at index end of l) or the end of the
// line (end -1, the spaces before it dropped; escBreak reports a backslash
// there). ok is false for an escape the library refuses.
func (p *parser) quotedLine(l []byte, q byte) (end int, escBreak, ok bool) {
	spaces := 0 // spaces not yet written: they are dropped at the end of the line
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case c == ' ':
			spaces++
			continue
		case c == q && q == '\'' && i+1 < len(l) && l[i+1] == '\'':
			c = '\''
			i++
		case c == q:
			p.buf = appendSpaces(p.buf, spaces)
			return i, false, true
		case c == '\\' && q == '"':
			p.buf = appendSpaces(p.buf, spaces)
			spaces = 0
			if i+1 == len(l) {
				return -1, true, true
			}
			var size int
			if p.buf, size = appendEscape(p.buf, l[i+1:]); size == 0 {
				return 0, false, false
			}
			i += size
			continue
		}
		p.buf = appendSpaces(p.buf, spaces)
		spaces = 0
		p.buf = append(p.buf, c)
	}
	return -1, false, true
}

// appendSpaces appends n spaces to b.
func appendSpaces(b []byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, ' ')
	}
	return b
}

// appendEscape appends the character the escape sequence that starts s
// (after its backslash) stands for, as the library unescapes a
// double-quoted scalar; size is the length of the sequence, 0 for one the
// library refuses.
func appendEscape(b, s []byte) (_ []byte, size int) {
	if r, ok := escapes[s[0]]; ok {
		return utf8.AppendRune(b, r), 1
	}
	digits := 0
	switch s[0] {
	case 'x':
		digits = 2
	case 'u':
		digits = 4
	case 'U':
		digits = 8
	}
	if digits == 0 || len(s) < 1+digits {
		return b, 0
	}
	v, err := strconv.ParseUint(string(s[1:1+digits]), 16, 32)
	if err != nil || (v >= 0xd800 && v <= 0xdfff) || v > 0x10ffff {
		return b, 0 // not hexadecimal (a sign, say), a surrogate, beyond Unicode
	}
	return utf8.AppendRune(b, rune(v)), 1 + digits
}

// escapes are the one-character escapes of a double-quoted scalar, and
// what each stands for.
var escapes = map[byte]rune{
	'0': 0, 'a': '\a', 'b': '\b', 't': '\t', 'n': '\n', 'v': '\v', 'f': '\f',
	'r': '\r', 'e': 0x1b, ' ': ' ', '"': '"', '\'': '\'', '\\': '\\',
	'N': 0x85, '_': 0xa0, 'L': 0x2028, 'P': 0x2029,
}

// blockHeader reads the header of a block scalar, "|" or ">" and its
// indicators: chomping (-1 strip, 0 clip, +1 keep) and the indentation
// increment (0 when not given). ok is false for a comment or anything else
// after them.
func blockHeader(h []byte) (literal bool, chomp, inc int, ok bool) {
	literal = h[0] == '|'
	h = h[1:]
	for k := 0; k < 2 && len(h) > 0; k++ {
		switch c := h[0]; {
		case c == '-' && chomp == 0:
			chomp = -1
		case c == '+' && chomp == 0:
			chomp = 1
		case c >= '1' && c <= '9' && inc == 0:
			inc = int(c - '0')
		default:
			return literal, 0, 0, false
		}
		h = h[1:]
	}
	return literal, chomp, inc, len(h) == 0
}

// block reads a literal (|) or folded (>) block scalar whose header is
// the rest of the current line, the value of a key or an item indented n,
// as the library's scanner does: the indentation is the increment's or
// that of the first line with text (at least n+1); lines at that
// indentation fold to a space (folded) where neither has more; blank lines
// are line feeds; the final line breaks are chomped.
func (p *parser) block(n int, header []byte) bool {
	literal, chomp, inc, ok := blockHeader(header)
	if !ok {
		return false
	}
	p.advance()
	indent := 0
	if inc > 0 {
		indent = n + inc
	}
	p.buf = p.buf[:0]
	breaks := p.blockBreaks(&indent, n)
	lead, leadBlank := false, false // a line break before the current line; the last line began with a space
	for !p.eof && p.blockCol(indent) == indent && !(p.lastLine() && len(p.c) == 0 && p.ind <= indent) {
		text := p.doc[p.pos+indent : p.end]
		blank := text[0] == ' '
		switch {
		case !literal && lead && !leadBlank && !blank:
			if breaks == 0 {
				p.buf = append(p.buf, ' ')
			}
		case lead:
			p.buf = append(p.buf, '\n')
		}
		for ; breaks > 0; breaks-- {
			p.buf = append(p.buf, '\n')
		}
		leadBlank = blank
		p.buf = append(p.buf, text...)
		lead = !p.lastLine()
		p.advance()
		breaks = p.blockBreaks(&indent, n)
	}
	if chomp != -1 && lead {
		p.buf = append(p.buf, '\n')
	}
	if chomp == 1 {
		for ; breaks > 0; breaks-- {
			p.buf = append(p.buf, '\n')
		}
	}
	p.b.scalar(kindString, p.buf)
	return true
}

// blockCol returns the column (0-based) the library's scanner stands at
// after the indentation of the current line of a block scalar: the spaces
// up to indent (all of them while indent is 0).
func (p *parser) blockCol(indent int) int {
	if indent == 0 {
		return p.ind
	}
	return min(p.ind, indent)
}

// blockBreaks passes the blank lines of a block scalar from the current
// line and returns their count: a line is blank when it holds no more
// than the spaces of the indentation, and a line feed ends it. When the
// indentation is still to be found (0), it is that of the deepest of those
// lines and the next, and at least n+1.
func (p *parser) blockBreaks(indent *int, n int) int {
	breaks, deepest := 0, 0
	for !p.eof {
		col := p.blockCol(*indent)
		deepest = max(deepest, col)
		if len(p.c) != 0 || col < p.ind || p.lastLine() {
			break // text, spaces past the indentation, or the end
		}
		breaks++
		p.advance()
	}
	if *indent == 0 {
		*indent = max(deepest, n+1, 1)
	}
	return breaks
}

// plainType reads a plain scalar as YAML 1.1 (the library) types it: ok
// false when it might be anything but a string, an int that fits, a bool
// or null written in lower case.
func plainType(s []byte) (kind, bool) {
	switch c := s[0]; {
	case c >= '0' && c <= '9' || c == '-' || c == '+':
		return numberType(s)
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		return wordType(s)
	case c == '/' || c == '<' || c == '=' || c == '(' || c == '$' || c == '^' || c == '_':
		return kindString, true // no indicator, and no type of YAML's starts so
	case c == '.':
		// A float to the library when Go's strconv reads it (.5, .5e3) or
		// it is .inf or .nan in one of YAML's spellings; any other, such as
		// a JSONPath (.spec.replicas) in a CRD's printer columns, a string.
		if _, err := strconv.ParseFloat(string(s), 64); err == nil || dotWord(s) {
			return 0, false
		}
		return kindString, true
	case c >= utf8.RuneSelf:
		r, _ := utf8.DecodeRune(s)
		return kindString, !unicode.IsSpace(r)
	}
	return 0, false // "~", "*alias", "&anchor", "!tag", "{", "[", …
}

// dotWord reports whether s is one of the words YAML 1.1 reads as an
// infinite or not-a-number float: .inf, .nan and their capitalized
// spellings.
func dotWord(s []byte) bool {
	switch string(s) {
	case ".inf", ".Inf", ".INF", ".nan", ".NaN", ".NAN":
		return true
	}
	return false
}

// numberType types a plain scalar that starts with a digit or a sign.
func numberType(s []byte) (kind, bool) {
	if isInt(s) {
		return kindNumber, true
	}
	if s[0] != '-' && s[0] != '+' && (dottedDigits(s) || !numeric(s)) {
		return kindString, true // a version, 1.0.0, 2.x: not a number to YAML
	}
	if (s[0] == '-' || s[0] == '+') && len(s) > 1 && s[1] != ' ' && s[1] != '\t' && !signedNumberText(s) {
		return kindString, true // a flag, --leader-elect: no number of any base
	}
	return 0, false
}

// signedNumberText reports whether s, a plain scalar that starts with a
// sign, might be a number to the library: one of its infinite floats
// (-.inf, +.Inf, …), or text made only of what a number of some base
// may hold (digits, the letters of hexadecimal numbers, exponents and
// base prefixes, dots, underscores, signs). Any other character makes s a
// string: the library reads a signed scalar as an int, a uint, a float or
// a binary int, or else as a string.
func signedNumberText(s []byte) bool {
	if len(s) > 1 && dotWord(s[1:]) {
		return true
	}
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
		case c == 'x' || c == 'X' || c == 'o' || c == 'O' || c == 'b' || c == 'B':
		case c == '.' || c == '_' || c == '+' || c == '-':
		default:
			return false
		}
	}
	return true
}

// wordType types a plain scalar that starts with a letter.
func wordType(s []byte) (kind, bool) {
	switch string(s) {
	case "true":
		return kindTrue, true
	case "false":
		return kindFalse, true
	case "null":
		return kindNull, true
	}
	if yamlWord(s) {
		return 0, false // True, yes, on, …: the library's
	}
	return kindString, true
}

// yamlWord reports whether s is one of the plain scalars YAML 1.1 reads as
// a bool or null but for the lower-case true, false and null that wordType
// reads itself.
func yamlWord(s []byte) bool {
	switch string(s) {
	case "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
		"True", "TRUE", "False", "FALSE",
		"on", "On", "ON", "off", "Off", "OFF", "Null", "NULL":
		return true
	}
	return false
}

// plainKey reports whether key, written plain, is that string to YAML 1.1:
// it is at most 1,000 bytes long, starts with a letter, is not one of
// YAML's words, and holds only letters, digits and ._/- .
func plainKey(key []byte) bool {
	if len(key) > 1000 {
		return false // YAML limits a key written in a line to 1024 characters
	}
	if keyByte[key[0]] != keyLetter {
		return false
	}
	for _, c := range key[1:] {
		if keyByte[c] == 0 {
			return false
		}
	}
	switch string(key) {
	case "true", "false", "null":
		return false
	}
	return !yamlWord(key)
}

// keyByte classes the bytes of a plain key: letters, the other bytes a
// key may hold (digits and ._/-), and the rest (0).
var keyByte = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = keyLetter, keyLetter
	}
	for _, c := range "0123456789._/-" {
		t[c] = keyOther
	}
	return t
}()

const (
	keyLetter = 1 + iota
	keyOther
)

// isInt reports whether s is a decimal int that YAML 1.1 reads as one and
// that fits in 64 bits: 0, or [-]1-9 and up to 17 more digits.
func isInt(s []byte) bool {
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 18 {
		return false
	}
	if s[0] == '0' {
		return len(s) == 1 && !neg // -0 is 0 to YAML
	}
	return isDigits(s)
}

// numeric reports whether the library might read s, a plain scalar that
// starts with a digit, as anything but a string: as the YAML 1.1 resolver
// of sigs.k8s.io/yaml's parser does, a timestamp, an int or uint of any
// base Go's strconv reads with base 0 (underscores dropped), a float, or a
// binary int (0b).
func numeric(s []byte) bool {
	if timestamp(s) {
		return true
	}
	plain := strings.ReplaceAll(string(s), "_", "")
	if strings.IndexFunc(plain, notIntRune) >= 0 {
		return yamlFloat(plain) // no int of any base, nor 0b
	}
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return true
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return true
	}
	return strings.HasPrefix(plain, "0b") || yamlFloat(plain)
}

// notIntRune reports whether r is none of the characters an int of any
// base Go's strconv reads may hold: digits, letters a to f, base prefixes,
// and signs.
func notIntRune(r rune) bool {
	switch {
	case r >= '0' && r <= '9', r >= 'a' && r <= 'f', r >= 'A' && r <= 'F':
		return false
	}
	return !strings.ContainsRune("xXoO+-", r)
}

// timestamp reports whether the library reads s, a plain scalar, as a
// timestamp: four digits and a dash first, and a layout of YAML 1.1's that
// time.Parse reads (a date, a date and a time).
func timestamp(s []byte) bool {
	if len(s) < 5 || s[4] != '-' || !isDigits(s[:4]) || !dateFirst(s[5:]) {
		return false
	}
	for _, layout := range timestampLayouts {
		if _, err := time.Parse(layout, string(s)); err == nil {
			return true
		}
	}
	return false
}

// dateFirst reports whether s, what follows the year and its dash, may
// be the rest of a date every layout of timestampLayouts starts with: one
// or two digits, a dash, one or two digits, then the end or a T, t or
// space.
func dateFirst(s []byte) bool {
	digits := func() bool {
		n := 0
		for n < len(s) && n < 3 && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		s = s[n:]
		return n == 1 || n == 2
	}
	if !digits() || len(s) == 0 || s[0] != '-' {
		return false
	}
	s = s[1:]
	return digits() && (len(s) == 0 || s[0] == 'T' || s[0] == 't' || s[0] == ' ')
}

// timestampLayouts are the layouts the library tries, in time.Parse's
// terms.
var timestampLayouts = []string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

// isDigits reports whether s is all decimal digits.
func isDigits(s []byte) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// yamlFloat reports whether s matches the resolver's float pattern,
// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?, for s that starts
// with a digit.
func yamlFloat(s string) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if digits() == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		digits()
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// dottedDigits reports whether s is digits with two dots or more between
// them (1.0.0): no number, time or date to YAML 1.1.
func dottedDigits(s []byte) bool {
	dots := 0
	for i, c := range s {
		switch {
		case c == '.':
			if i == 0 || i == len(s)-1 || s[i-1] == '.' {
				return false
			}
			dots++
		case c < '0' || c > '9':
			return false
		}
	}
	return dots >= 2
}
