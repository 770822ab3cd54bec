package fastyaml

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Fast parses doc when it is written in the plain block style that
// kubectl and the YAML libraries print — block mappings and sequences,
// plain and simple quoted scalars, literal blocks, {} and [] — into the
// value Value gives, without the YAML library's token stream and tree.
// Anything outside that subset (flow collections, anchors, tags, folded
// blocks, tabs, scalars whose type YAML 1.1 might read otherwise, …) gives
// ok false, and the caller parses the document with the library: the fast
// path only ever gives the library's value, faster. FuzzFastYAML holds it
// to that.
func Fast(doc []byte) (v any, ok bool) {
	if !plainText(doc) {
		return nil, false
	}
	p := fastParser{lines: bytes.Split(doc, []byte("\n"))}
	p.skip()
	if p.i == len(p.lines) {
		return nil, true // empty, or only comments
	}
	n, content := p.line()
	if content[0] == '%' || bytes.HasPrefix(content, []byte("---")) {
		return nil, false
	}
	if isDash(content) {
		v, ok = p.sequence(n)
	} else {
		v, ok = p.mapping(n)
	}
	if !ok {
		return nil, false
	}
	p.skip()
	return v, p.i == len(p.lines)
}

// fastParser reads a document line by line.
type fastParser struct {
	lines [][]byte
	i     int // the current line
}

// skip passes blank and comment lines.
func (p *fastParser) skip() {
	for p.i < len(p.lines) {
		c := bytes.TrimLeft(p.lines[p.i], " ")
		if len(c) != 0 && c[0] != '#' {
			return
		}
		p.i++
	}
}

// line returns the indentation and content of the current line.
func (p *fastParser) line() (int, []byte) {
	l := p.lines[p.i]
	c := bytes.TrimLeft(l, " ")
	return len(l) - len(c), c
}

// node parses the value that starts at the current line, indented n.
func (p *fastParser) node(n int) (any, bool) {
	if _, c := p.line(); isDash(c) {
		return p.sequence(n)
	}
	return p.mapping(n)
}

// mapping parses a block mapping whose keys are indented n.
func (p *fastParser) mapping(n int) (any, bool) {
	m := map[string]any{}
	for p.skip(); p.i < len(p.lines); p.skip() {
		ind, c := p.line()
		if ind < n || (ind == n && isDash(c)) {
			break
		}
		if ind > n {
			return nil, false
		}
		colon := bytes.IndexByte(c, ':')
		if colon <= 0 || (colon+1 < len(c) && c[colon+1] != ' ') {
			return nil, false
		}
		key := string(c[:colon])
		if !plainKey(key) {
			return nil, false
		}
		if _, dup := m[key]; dup {
			return nil, false
		}
		rest := trimSpaces(c[colon+1:])
		p.i++
		var v any
		var ok bool
		switch {
		case len(rest) == 0:
			v, ok = p.nested(n)
		case len(rest) == 1 && rest[0] == '|', len(rest) == 2 && rest[0] == '|' && rest[1] == '-':
			v, ok = p.literal(n, len(rest) == 1)
		default:
			v, ok = scalar(rest)
		}
		if !ok {
			return nil, false
		}
		m[key] = v
	}
	return m, true
}

// nested parses the value of a key indented n that has nothing after its
// colon: a deeper node, a sequence at the key's own indentation, or null.
func (p *fastParser) nested(n int) (any, bool) {
	p.skip()
	if p.i == len(p.lines) {
		return nil, true
	}
	ind, c := p.line()
	switch {
	case ind > n:
		return p.node(ind)
	case ind == n && isDash(c):
		return p.sequence(n)
	}
	return nil, true
}

// sequence parses a block sequence whose dashes are indented n.
func (p *fastParser) sequence(n int) (any, bool) {
	s := []any{}
	for p.skip(); p.i < len(p.lines); p.skip() {
		ind, c := p.line()
		if ind < n || (ind == n && !isDash(c)) {
			break
		}
		if ind > n {
			return nil, false
		}
		if len(c) == 1 { // "-" alone: the item is on the next lines, or null
			p.i++
			p.skip()
			var v any
			if p.i < len(p.lines) {
				if ind2, _ := p.line(); ind2 > n {
					var ok bool
					if v, ok = p.node(ind2); !ok {
						return nil, false
					}
				}
			}
			s = append(s, v)
			continue
		}
		rest := c[2:]
		if len(rest) == 0 || rest[0] == ' ' || rest[0] == '#' || isDash(rest) || rest[0] == '|' || rest[0] == '>' {
			return nil, false
		}
		colon := bytes.IndexByte(rest, ':')
		if colon > 0 && (colon+1 == len(rest) || rest[colon+1] == ' ') && rest[0] != '\'' && rest[0] != '"' {
			// "- key: value": a mapping indented n+2, its first line
			// this one with the dash blanked.
			l := append([]byte(nil), p.lines[p.i]...)
			l[n] = ' '
			p.lines[p.i] = l
			v, ok := p.mapping(n + 2)
			if !ok {
				return nil, false
			}
			s = append(s, v)
			continue
		}
		v, ok := scalar(trimSpaces(rest))
		if !ok {
			return nil, false
		}
		s = append(s, v)
		p.i++
	}
	return s, true
}

// literal parses a literal block ("|" clips the final line breaks to one,
// "|-" strips them) under a key indented n.
func (p *fastParser) literal(n int, clip bool) (any, bool) {
	if p.i == len(p.lines) {
		return nil, false
	}
	first := p.lines[p.i]
	c := bytes.TrimLeft(first, " ")
	m := len(first) - len(c)
	if len(c) == 0 || m <= n {
		return nil, false // leading blank lines, or no content: the library's
	}
	var b strings.Builder
	blank := 0  // blank lines not yet written
	last := p.i // the last content line
	for ; p.i < len(p.lines); p.i++ {
		l := p.lines[p.i]
		c := bytes.TrimLeft(l, " ")
		if len(c) == 0 {
			if len(l) > 0 && len(l) > m {
				return nil, false // spaces past the indentation: content the library words
			}
			blank++
			continue
		}
		if len(l)-len(c) < m {
			break
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		for ; blank > 0; blank-- {
			b.WriteByte('\n')
		}
		b.Write(l[m:])
		last = p.i
	}
	if clip && last < len(p.lines)-1 { // a line break ends it
		b.WriteByte('\n')
	}
	return b.String(), true
}

// trimSpaces trims the spaces around b: only U+0020, the one white space
// character plainText lets through. YAML's white space is the space and the
// tab; the other characters Unicode counts as white space (U+00A0, U+2000
// to U+200A, U+3000, …) are content to YAML, and scalar leaves a scalar
// that starts with one to the library.
func trimSpaces(b []byte) []byte {
	return bytes.TrimRight(bytes.TrimLeft(b, " "), " ")
}

// scalar reads a scalar written on one line after a key or a dash, as
// YAML 1.1 (the library) types it; ok false when it might be anything but
// a string, an int that fits, a bool or null written in lower case, and
// for s empty.
func scalar(s []byte) (any, bool) {
	if len(s) == 0 || bytes.Contains(s, []byte(" #")) {
		return nil, false
	}
	switch s[0] {
	case '\'':
		if len(s) < 2 || s[len(s)-1] != '\'' {
			return nil, false
		}
		in := s[1 : len(s)-1]
		if bytes.IndexByte(in, '\'') < 0 {
			return string(in), true
		}
		if bytes.Count(in, []byte("'")) != 2*bytes.Count(in, []byte("''")) {
			return nil, false
		}
		return string(bytes.ReplaceAll(in, []byte("''"), []byte("'"))), true
	case '"':
		in := s[1:]
		if len(in) == 0 || in[len(in)-1] != '"' {
			return nil, false
		}
		in = in[:len(in)-1]
		if bytes.IndexByte(in, '"') >= 0 || bytes.IndexByte(in, '\\') >= 0 {
			return nil, false
		}
		return string(in), true
	case '{', '[':
		switch string(s) {
		case "{}":
			return map[string]any{}, true
		case "[]":
			return []any{}, true
		}
		return nil, false
	}
	if bytes.Contains(s, []byte(": ")) || s[len(s)-1] == ':' {
		return nil, false
	}
	c := s[0]
	switch {
	case c >= '0' && c <= '9' || c == '-' || c == '+':
		if isInt(s) {
			return json.Number(s), true
		}
		if c != '-' && c != '+' && (dottedDigits(s) || !numeric(s)) {
			return string(s), true // a version, 1.0.0, 2.x: not a number to YAML
		}
		return nil, false
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		switch string(s) {
		case "true":
			return true, true
		case "false":
			return false, true
		case "null":
			return nil, true
		}
		if yamlWords[string(s)] {
			return nil, false // True, yes, on, …: the library's
		}
		return string(s), true
	case c == '/' || c == '<' || c == '=' || c == '(' || c == '$' || c == '^' || c == '_':
		return string(s), true // no indicator, and no type of YAML's starts so
	case c >= utf8.RuneSelf:
		if r, _ := utf8.DecodeRune(s); !unicode.IsSpace(r) {
			return string(s), true
		}
	}
	return nil, false // "~", ".5", "*alias", "&anchor", "!tag", "|", ">", …
}

// yamlWords are the plain scalars YAML 1.1 reads as bools or null, but
// for the lower-case true, false and null that scalar reads itself.
var yamlWords = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true,
	"n": true, "N": true, "no": true, "No": true, "NO": true,
	"True": true, "TRUE": true, "False": true, "FALSE": true,
	"on": true, "On": true, "ON": true, "off": true, "Off": true, "OFF": true,
	"Null": true, "NULL": true,
}

// plainKey reports whether key, written plain, is that string to YAML 1.1:
// it is at most 1,000 bytes long, starts with a letter, is not one of YAML's words, and holds only
// letters, digits and ._/- .
func plainKey(key string) bool {
	if len(key) > 1000 {
		return false // YAML limits a key written in a line to 1024 characters
	}
	c := key[0]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return false
	}
	if yamlWords[key] || key == "true" || key == "false" || key == "null" {
		return false
	}
	for i := 1; i < len(key); i++ {
		c := key[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '/' || c == '-') {
			return false
		}
	}
	return true
}

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
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// numeric reports whether the library might read s, a plain scalar that
// starts with a digit, as anything but a string: as the YAML 1.1 resolver
// of sigs.k8s.io/yaml's parser does, a timestamp (four digits and a dash
// first), an int or uint of any base Go's strconv reads with base 0
// (underscores dropped), a float, or a binary int (0b).
func numeric(s []byte) bool {
	if len(s) > 4 && s[4] == '-' && isDigits(s[:4]) {
		return true
	}
	plain := strings.ReplaceAll(string(s), "_", "")
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return true
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return true
	}
	return strings.HasPrefix(plain, "0b") || yamlFloat(plain)
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

// plainText reports whether doc is text YAML takes (yamlText) with no
// tab or carriage return.
func plainText(doc []byte) bool {
	return bytes.IndexByte(doc, '\t') < 0 && bytes.IndexByte(doc, '\r') < 0 && yamlText(doc)
}

// yamlText reports whether doc is UTF-8 made of characters YAML accepts
// anywhere, comments included, and whose only line breaks are line feeds
// and carriage returns: no control character but tab, line feed and
// carriage return, no DEL, C1 control (NEL among them), U+2028, U+2029
// (YAML 1.1 line breaks), byte order mark, U+FFFE or U+FFFF.
func yamlText(doc []byte) bool {
	for i := 0; i < len(doc); {
		c := doc[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(doc[i:])
		if r == utf8.RuneError || (r >= 0x80 && r <= 0x9f) || r == 0x2028 || r == 0x2029 || r == 0xfeff || r == 0xfffe || r == 0xffff {
			return false
		}
		i += size
	}
	return true
}
