package fastyaml

import (
	"bytes"
	"unicode/utf8"
)

// The fast path reads the block style that kubectl and the YAML libraries
// print — block mappings and sequences, plain, quoted and block scalars
// (on one line or several), {} and [] — line by line, without the YAML
// library's token stream, and hands what it reads to a builder: a tree of
// values (Fast) or JSON text (Converter). Anything outside that subset
// (flow collections, anchors, tags, keys that are not plain, tabs, scalars
// whose type YAML 1.1 might read otherwise, …) makes the parse fail, and
// the caller parses the document with the library: the fast path only ever
// gives the library's value, faster. FuzzFastYAML and FuzzToJSON hold it
// to that.

// builder receives a document's values in document order.
type builder interface {
	// beginMap opens a block mapping or an empty {} at m.
	beginMap(m mark)
	// key opens the next entry of the innermost mapping; false for a key
	// written twice.
	key(k []byte) bool
	// endMap closes the innermost mapping; false for a key written twice.
	endMap() bool
	beginSeq()
	endSeq()
	// scalar gives a scalar of kind k; text (a string's value, a number's
	// digits, empty for the others) is valid only during the call.
	scalar(k kind, text []byte)
}

// kind is a scalar's type.
type kind uint8

const (
	kindString kind = iota
	kindNumber      // a decimal int
	kindTrue
	kindFalse
	kindNull
)

// mark locates a node in the document: its 0-based line, its 1-based column
// in characters, and its byte offset.
type mark struct{ line, col, off int }

// parser reads a document line by line.
type parser struct {
	doc []byte
	b   builder
	buf []byte // a scalar's value being put together (folded, unescaped)

	// The current line: doc[pos:end] (end is its line feed or len(doc)),
	// its 0-based index, its indentation and its content after it. eof
	// is set past the last line.
	pos, end, ln int
	ind          int
	c            []byte
	eof          bool
}

// parse reads doc into b; false when doc is not in the subset, or b
// refuses it. b has received part of the document then.
func (p *parser) parse(doc []byte, b builder) bool {
	if !plainText(doc) {
		return false
	}
	p.doc, p.b, p.pos, p.ln, p.eof = doc, b, 0, 0, false
	p.load()
	p.skip()
	if p.eof {
		b.scalar(kindNull, nil) // empty, or only comments
		return true
	}
	if p.c[0] == '%' || bytes.HasPrefix(p.c, []byte("---")) {
		return false
	}
	if !p.node(p.ind) {
		return false
	}
	p.skip()
	return p.eof
}

// load reads the line that starts at pos.
func (p *parser) load() {
	if p.pos > len(p.doc) {
		p.eof, p.c = true, nil
		return
	}
	e := bytes.IndexByte(p.doc[p.pos:], '\n')
	if e < 0 {
		p.end = len(p.doc)
	} else {
		p.end = p.pos + e
	}
	l := p.doc[p.pos:p.end]
	i := 0
	for i < len(l) && l[i] == ' ' {
		i++
	}
	p.ind, p.c = i, l[i:]
}

// advance moves to the next line.
func (p *parser) advance() {
	p.pos = p.end + 1
	p.ln++
	p.load()
}

// lastLine reports whether the current line is the document's last: no
// line feed ends it.
func (p *parser) lastLine() bool { return p.end == len(p.doc) }

// skip passes blank and comment lines.
func (p *parser) skip() {
	for !p.eof && (len(p.c) == 0 || p.c[0] == '#') {
		p.advance()
	}
}

// at returns the mark of byte i of the current line's content.
func (p *parser) at(i int) mark {
	off := p.end - len(p.c) + i
	col := p.ind + 1 + i
	if l := p.doc[p.pos:off]; !asciiOnly(l) {
		col = utf8.RuneCount(l) + 1
	}
	return mark{line: p.ln, col: col, off: off}
}

// node reads the mapping or sequence that starts at the current line,
// indented n.
func (p *parser) node(n int) bool {
	if isDash(p.c) {
		return p.sequence(n)
	}
	return p.mapping(n)
}

// mapping reads a block mapping whose keys are indented n, starting at
// the current line.
func (p *parser) mapping(n int) bool {
	p.b.beginMap(p.at(0))
	for p.skip(); !p.eof; p.skip() {
		if p.ind < n || (p.ind == n && isDash(p.c)) {
			break
		}
		if p.ind > n {
			return false
		}
		c := p.c
		colon := bytes.IndexByte(c, ':')
		if colon <= 0 || (colon+1 < len(c) && c[colon+1] != ' ') {
			return false
		}
		key := c[:colon]
		if !plainKey(key) || !p.b.key(key) {
			return false
		}
		if !p.value(n, trimSpaces(c[colon+1:])) {
			return false
		}
	}
	return p.b.endMap()
}

// value reads the value of a key indented n: rest is what follows its
// colon on the current line, spaces trimmed.
func (p *parser) value(n int, rest []byte) bool {
	if len(rest) == 0 {
		p.advance()
		return p.nested(n)
	}
	return p.scalar(n, rest)
}

// scalar reads the scalar (or {} or []) that starts with rest, on the
// current line, the value of a key or an item indented n.
func (p *parser) scalar(n int, rest []byte) bool {
	switch rest[0] {
	case '|', '>':
		return p.block(n, rest)
	case '\'', '"':
		return p.quoted(n, rest)
	}
	return p.plain(n, rest)
}

// nested reads the value of a key indented n that has nothing after its
// colon: a deeper node, a sequence at the key's own indentation, or null.
func (p *parser) nested(n int) bool {
	p.skip()
	switch {
	case p.eof:
	case p.ind > n:
		return p.node(p.ind)
	case p.ind == n && isDash(p.c):
		return p.sequence(n)
	}
	p.b.scalar(kindNull, nil)
	return true
}

// sequence reads a block sequence whose dashes are indented n, starting at
// the current line.
func (p *parser) sequence(n int) bool {
	p.b.beginSeq()
	for p.skip(); !p.eof; p.skip() {
		if p.ind < n || (p.ind == n && !isDash(p.c)) {
			break
		}
		if p.ind > n {
			return false
		}
		if !p.item(n) {
			return false
		}
	}
	p.b.endSeq()
	return true
}

// item reads the sequence item whose dash, indented n, starts the current
// line.
func (p *parser) item(n int) bool {
	rest := bytes.TrimLeft(p.c[1:], " ")
	if len(rest) == 0 { // "-" alone: the item is on the next lines, or null
		p.advance()
		p.skip()
		if !p.eof && p.ind > n {
			return p.node(p.ind)
		}
		p.b.scalar(kindNull, nil)
		return true
	}
	if rest[0] == '#' || isDash(rest) {
		return false
	}
	colon := bytes.IndexByte(rest, ':')
	if colon > 0 && (colon+1 == len(rest) || rest[colon+1] == ' ') && rest[0] != '\'' && rest[0] != '"' {
		// "- key: value": a mapping indented as its key, its first line
		// this one with the dash read as a space.
		ind := p.ind + len(p.c) - len(rest)
		p.ind, p.c = ind, rest
		return p.mapping(ind)
	}
	return p.scalar(n, bytes.TrimRight(rest, " "))
}

// trimSpaces trims the spaces around b: only U+0020, the one white space
// character plainText lets through. YAML's white space is the space and the
// tab; the other characters Unicode counts as white space (U+00A0, U+2000
// to U+200A, U+3000, …) are content to YAML, and plainType leaves a scalar
// that starts with one to the library.
func trimSpaces(b []byte) []byte {
	return bytes.TrimRight(bytes.TrimLeft(b, " "), " ")
}

// asciiOnly reports whether b holds no byte beyond ASCII.
func asciiOnly(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// plainText reports whether doc is text YAML takes (yamlText) with no
// tab or carriage return.
func plainText(doc []byte) bool {
	for i := 0; i < len(doc); {
		// Runs of printable ASCII and line feeds, eight bytes at a time.
		for i+8 <= len(doc) && plainASCII[doc[i]]&plainASCII[doc[i+1]]&plainASCII[doc[i+2]]&plainASCII[doc[i+3]]&
			plainASCII[doc[i+4]]&plainASCII[doc[i+5]]&plainASCII[doc[i+6]]&plainASCII[doc[i+7]] != 0 {
			i += 8
		}
		if i == len(doc) {
			break
		}
		c := doc[i]
		if plainASCII[c] != 0 {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			return false // a tab, a carriage return, another control character, DEL
		}
		r, size := utf8.DecodeRune(doc[i:])
		if !yamlRune(r) {
			return false
		}
		i += size
	}
	return true
}

// plainASCII is 1 for the bytes plainText passes as they are: printable
// ASCII and the line feed.
var plainASCII = func() (t [256]uint8) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = 1
	}
	t['\n'] = 1
	return t
}()

// yamlText reports whether doc is UTF-8 made of characters YAML accepts
// anywhere, comments included, and whose only line breaks are line feeds
// and carriage returns: no control character but tab, line feed and
// carriage return, no DEL, C1 control (NEL among them), U+2028, U+2029
// (YAML 1.1 line breaks), byte order mark, U+FFFE or U+FFFF.
func yamlText(doc []byte) bool {
	for i := 0; i < len(doc); {
		// Runs of printable ASCII, tabs and line breaks, eight bytes at a
		// time.
		for i+8 <= len(doc) && yamlASCII[doc[i]]&yamlASCII[doc[i+1]]&yamlASCII[doc[i+2]]&yamlASCII[doc[i+3]]&
			yamlASCII[doc[i+4]]&yamlASCII[doc[i+5]]&yamlASCII[doc[i+6]]&yamlASCII[doc[i+7]] != 0 {
			i += 8
		}
		if i == len(doc) {
			break
		}
		c := doc[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(doc[i:])
		if !yamlRune(r) {
			return false
		}
		i += size
	}
	return true
}

// yamlASCII is 1 for the bytes yamlText passes as they are: printable
// ASCII, the tab and the line breaks.
var yamlASCII = func() (t [256]uint8) {
	t = plainASCII
	t['\t'], t['\r'] = 1, 1
	return t
}()

// yamlRune reports whether r, decoded from bytes beyond ASCII, is a
// character yamlText takes.
func yamlRune(r rune) bool {
	return r != utf8.RuneError && !(r >= 0x80 && r <= 0x9f) && r != 0x2028 && r != 0x2029 && r != 0xfeff && r != 0xfffe && r != 0xffff
}
