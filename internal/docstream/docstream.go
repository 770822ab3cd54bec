// Package docstream splits the byte streams Sextant reads (catalogs and
// manifests) into documents, in bounded memory: YAML streams at their
// "---" and "..." lines, JSON streams at the end of each top-level value.
// It is the one document splitter of graph and cluster, and holds the size
// limits both apply.
//
// A splitter reads its input line by line (YAML) or byte by byte (JSON)
// through a small buffer, keeps only the document being split, and stops at
// the first fatal problem: a document larger than its limit, binary data (a
// byte no YAML or JSON text may hold outside a string), or a read error.
package docstream

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// TooLargeError reports input over one of the size limits.
type TooLargeError struct {
	// What is over the limit: "input" (the whole, uncompressed stream),
	// "document" or "blob".
	What string
	// Limit is the limit in bytes.
	Limit int64
	// Offset is where the document over the limit starts; -1 for the input.
	Offset int64
	// Line is the 1-based line where it starts; 0 when unknown.
	Line int
}

// Error words the limit in units a person reads.
func (e *TooLargeError) Error() string {
	if e.What == "input" {
		return fmt.Sprintf("input is larger than the limit of %s (uncompressed)", Size(e.Limit))
	}
	return fmt.Sprintf("%s is larger than the limit of %s", e.What, Size(e.Limit))
}

// BinaryError reports a byte that no catalog or manifest text holds: a
// control character other than tab, line feed and carriage return.
type BinaryError struct {
	Offset int64 // byte offset in the stream
	Line   int   // 1-based line
	Byte   byte
}

// Error names the byte.
func (e *BinaryError) Error() string {
	if e.Offset == 0 && e.Byte == 0x1f {
		return "gzip-compressed data (byte 0x1f first), not YAML or JSON text: decompress it first (gunzip), or name it .gz where a catalog is read"
	}
	return fmt.Sprintf("binary data (byte 0x%02x), not YAML or JSON text", e.Byte)
}

// Size words a byte count: "64 MiB", "1 GiB", "1500 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + " GiB"
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// IsBinary reports whether c is a byte no YAML or JSON text holds outside a
// string (and no catalog holds inside one): a C0 control character other
// than tab, line feed and carriage return, or DEL.
func IsBinary(c byte) bool {
	return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f
}

// indexBinary returns the index of the first binary byte of b, or -1.
func indexBinary(b []byte) int {
	i := 0
	// Eight bytes at a time, without a branch for each.
	for ; i+8 <= len(b); i += 8 {
		if binaryByte[b[i]]|binaryByte[b[i+1]]|binaryByte[b[i+2]]|binaryByte[b[i+3]]|
			binaryByte[b[i+4]]|binaryByte[b[i+5]]|binaryByte[b[i+6]]|binaryByte[b[i+7]] != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if binaryByte[b[i]] != 0 {
			return i
		}
	}
	return -1
}

// binaryByte is 1 for the bytes IsBinary reports.
var binaryByte = func() (t [256]uint8) {
	for c := range 256 {
		if IsBinary(byte(c)) {
			t[c] = 1
		}
	}
	return t
}()

// Limit resolves a configured size limit: 0 means def, a negative value
// no limit (returned as 0, the "no limit" of LimitReader, NewYAML and
// NewJSON), and any other value is the limit itself.
func Limit(n, def int64) int64 {
	if n == 0 {
		n = def
	}
	return max(n, 0)
}

// LimitReader returns a reader of r that fails with a *TooLargeError (What
// "input") once r yields more than limit bytes. A limit ≤ 0 is no limit.
func LimitReader(r io.Reader, limit int64) io.Reader {
	if limit <= 0 {
		return r
	}
	return &limitReader{r: r, left: limit, limit: limit}
}

type limitReader struct {
	r     io.Reader
	left  int64
	limit int64
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, &TooLargeError{What: "input", Limit: l.limit, Offset: -1}
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1] // one byte more tells "exactly at the limit" from "over"
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		n += int(l.left) // hand out only the bytes within the limit
		return n, &TooLargeError{What: "input", Limit: l.limit, Offset: -1}
	}
	return n, err
}

// ReadAll reads r whole, within limit (≤ 0: none; past it, LimitReader's
// *TooLargeError), stopping at the first binary byte with a *BinaryError
// that places it in the stream. The buffer doubles as it grows, so that
// reading a large stream copies it a few times at most.
func ReadAll(r io.Reader, limit int64) ([]byte, error) {
	return ReadAllTo(nil, r, limit)
}

// ReadAllTo is ReadAll reading into buf[:0], growing it as needed: a
// caller that reads many files reads them all into one buffer.
func ReadAllTo(buf []byte, r io.Reader, limit int64) ([]byte, error) {
	r = LimitReader(r, limit)
	buf = buf[:0]
	lines := 0 // in buf
	for {
		buf = grow(buf, 64<<10, 0, 0)
		n, err := r.Read(buf[len(buf):cap(buf)])
		chunk := buf[len(buf) : len(buf)+n]
		if i := indexBinary(chunk); i >= 0 {
			line := 1 + lines + bytes.Count(chunk[:i], []byte("\n"))
			return nil, &BinaryError{Offset: int64(len(buf) + i), Line: line, Byte: chunk[i]}
		}
		lines += bytes.Count(chunk, []byte("\n"))
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// Doc is one document of a stream.
type Doc struct {
	// Text is the document's text, from the line after the marker that
	// opened it (or from the marker line itself, with the marker blanked,
	// when content follows "---" on that line). It is valid until the next
	// call of Next.
	Text []byte
	// Offset and Line locate the document's first line with content (not
	// blank, not a comment): a byte offset in the stream and a 1-based line.
	Offset int64
	Line   int
	// TextOffset and TextLine locate Text[0].
	TextOffset int64
	TextLine   int
	// JSON reports that the first content byte is '{' or '[': the document
	// is JSON text (one value, or several concatenated).
	JSON bool
}

// SyntaxError is a problem with one line of a YAML stream's structure (not
// fatal: splitting goes on).
type SyntaxError struct {
	Line int // 1-based
	Msg  string
}

// Error returns the message.
func (e *SyntaxError) Error() string { return e.Msg }

// YAML splits a multi-document YAML stream. Documents end at a line that is
// "---" or "..." (alone, or followed by white space and more text, a
// trailing carriage return allowed); "---" followed by content other than a
// comment starts a document on its own line (the marker blanked, so columns
// and offsets stay). Documents with no content (blank lines and comments
// only) are skipped. A byte-order mark at the start is ignored.
type YAML struct {
	r       *bufio.Reader
	max     int64
	off     int64 // offset of the next unread byte
	line    int   // line of the next unread byte
	buf     []byte
	bom     bool // a byte-order mark may come
	done    bool
	pendErr error // reported by the next call
	carry   *Doc  // a document begun on a "--- value" line
	carried []byte
	last    []byte // the text Next returned last
	end     int64  // where the stream is expected to end (Expect), 0: not known
}

// NewYAML returns a splitter reading r. maxDoc limits the size of one
// document (≤ 0: no limit). off and line are the offset and 1-based line of
// r's first byte in the stream (0 and 1 for a whole stream).
func NewYAML(r io.Reader, maxDoc, off int64, line int) *YAML {
	return &YAML{r: bufio.NewReaderSize(r, 64<<10), max: maxDoc, off: off, line: line, bom: off == 0}
}

// Next returns the next document with content. At the end of the stream it
// returns io.EOF. Other errors are either fatal (a *TooLargeError, a
// *BinaryError, a read error), after which Next returns io.EOF, or a
// *SyntaxError about one marker line, after which splitting goes on.
func (y *YAML) Next() (Doc, error) {
	for {
		if y.pendErr != nil {
			err := y.pendErr
			y.pendErr = nil
			return Doc{}, err
		}
		if y.done {
			return Doc{}, io.EOF
		}
		doc, ok := y.scan()
		if ok {
			y.last = doc.Text
			return doc, nil
		}
	}
}

// Expect tells the splitter that the stream holds about n more bytes (a
// file's size), so that a large document is read into one buffer of the
// size it can have rather than one that doubles (each doubling copies and
// touches new memory).
func (y *YAML) Expect(n int64) {
	if n > 0 {
		y.end = y.off + n
	}
}

// takeAway is the size from which Take gives its buffer away rather than
// copy it.
const takeAway = 64 << 10

// Take returns the text of the document Next returned last for the caller
// to keep: the splitter's buffer itself when the document is large and
// fills it (the next one is read into new memory), a copy of a small one
// or of one in a buffer much larger (kept for the next documents).
func (y *YAML) Take() []byte {
	t := y.last
	y.last = nil
	if len(t) < takeAway || cap(t)-len(t) > len(t)/4 {
		return bytes.Clone(t)
	}
	if len(y.buf) > 0 && &y.buf[0] == &t[0] {
		y.buf = nil
	}
	return t
}

// scan reads up to the end of one document. ok is false when it found no
// document with content (or a problem, left in pendErr).
func (y *YAML) scan() (doc Doc, ok bool) {
	y.buf = y.buf[:0]
	doc = Doc{TextOffset: y.off, TextLine: y.line, Offset: -1}
	if y.carry != nil {
		doc = *y.carry
		y.buf = append(y.buf, y.carried...)
		y.carry = nil
		if y.max > 0 && int64(len(y.buf)) > y.max {
			y.fatal(&TooLargeError{What: "document", Limit: y.max, Offset: doc.Offset, Line: doc.Line})
			return doc, false
		}
	}
	for {
		if doc.Offset >= 0 && y.bulk() {
			continue
		}
		l, err := y.readLine()
		if err != nil && err != io.EOF {
			y.fatal(err)
			return doc, false
		}
		if len(l) == 0 {
			y.done = true
			doc.Text = y.buf
			return doc, doc.Offset >= 0
		}
		if y.bom {
			y.bom = false
			if bytes.HasPrefix(l, []byte("\xef\xbb\xbf")) {
				l = l[3:]
				y.off += 3
				doc.TextOffset += 3
				if len(l) == 0 {
					continue // nothing but the mark: the end comes next
				}
			}
		}
		lineOff, lineNo := y.off, y.line
		y.off += int64(len(l))
		if l[len(l)-1] == '\n' {
			y.line++
		}
		body := bytes.TrimRight(l, "\r\n")
		if m := marker(body); m != "" {
			rest := bytes.TrimSpace(body[3:])
			hasRest := len(rest) > 0 && rest[0] != '#'
			if m == "..." && hasRest {
				// The YAML library would never see this text: say so.
				y.pendErr = &SyntaxError{Line: lineNo, Msg: `content after the document end marker "..."`}
			}
			if m == "---" && hasRest {
				// "--- value": the next document starts on this line.
				y.carried = append(append(y.carried[:0], "   "...), l[3:]...)
				y.carry = &Doc{Offset: lineOff, Line: lineNo, TextOffset: lineOff, TextLine: lineNo, JSON: rest[0] == '{' || rest[0] == '['}
			}
			doc.Text = y.buf
			return doc, doc.Offset >= 0
		}
		if doc.Offset < 0 {
			t := bytes.TrimSpace(body)
			if len(t) == 0 && len(y.buf) == 0 {
				// Blank lines before anything: not part of the text, so that
				// the text starts the same however the stream was cut.
				doc.TextOffset, doc.TextLine = y.off, y.line
				continue
			}
			if len(t) > 0 && t[0] != '#' {
				doc.Offset, doc.Line = lineOff, lineNo
				doc.JSON = t[0] == '{' || t[0] == '['
			}
		}
		if y.max > 0 && int64(len(y.buf)+len(l)) > y.max {
			off, line := doc.Offset, doc.Line
			if off < 0 {
				off, line = lineOff, lineNo
			}
			y.fatal(&TooLargeError{What: "document", Limit: y.max, Offset: off, Line: line})
			return doc, false
		}
		y.add(l)
	}
}

// bulk adds to the document, at once, the complete lines buffered ahead
// that scan would add one by one: up to the first that may be a marker,
// the first with a binary byte, within the limit. It reports whether it
// took any.
func (y *YAML) bulk() bool {
	c, _ := y.r.Peek(y.r.Buffered())
	c = c[:bytes.LastIndexByte(c, '\n')+1]
	if i := markerLine(c); i >= 0 {
		c = c[:i]
	}
	if i := indexBinary(c); i >= 0 {
		c = c[:bytes.LastIndexByte(c[:i], '\n')+1]
	}
	if len(c) == 0 || (y.max > 0 && int64(len(y.buf)+len(c)) > y.max) {
		return false
	}
	y.off += int64(len(c))
	y.line += bytes.Count(c, []byte("\n"))
	y.add(c)
	y.r.Discard(len(c))
	return true
}

// markerLine returns the offset of the first line of c (whole lines) that
// starts with "---" or "...", or -1. It reads c only up to that line.
func markerLine(c []byte) int {
	i := lineStarting(c, "---")
	end := c
	if i >= 0 {
		end = c[:i]
	}
	if j := lineStarting(end, "..."); j >= 0 {
		return j
	}
	return i
}

// lineStarting returns the offset of the first line of c that starts with
// p, or -1. It looks for p's first byte, rare in most text (a line feed
// is not), and reads c only up to that line.
func lineStarting(c []byte, p string) int {
	for i := 0; i < len(c); i++ {
		k := bytes.IndexByte(c[i:], p[0])
		if k < 0 {
			return -1
		}
		i += k
		if (i == 0 || c[i-1] == '\n') && bytes.HasPrefix(c[i:], []byte(p)) {
			return i
		}
	}
	return -1
}

// add appends l, read up to y.off, to the document's text (grow).
func (y *YAML) add(l []byte) {
	if len(l) > 0 && len(l) <= cap(y.buf)-len(y.buf) && &y.buf[:len(y.buf)+1][len(y.buf)] == &l[0] {
		// A long line readLine read where it belongs, past the text.
		y.buf = y.buf[:len(y.buf)+len(l)]
		return
	}
	y.buf = append(grow(y.buf, len(l), y.end-y.off, y.max), l...)
}

// grow returns buf with room for n more bytes, doubling as it grows
// (append grows a large slice by a quarter, copying a large document many
// times), up to the document limit limit (≤ 0: none). Past expectFrom it
// grows to what the stream is expected to hold past the n bytes, rest
// (≤ 0: not known), when that is at most expectAhead: a document that
// large is most often the whole stream (a List).
func grow(buf []byte, n int, rest, limit int64) []byte {
	need := len(buf) + n
	if need <= cap(buf) {
		return buf
	}
	c := max(2*cap(buf), need, 4096)
	if c > expectFrom && rest > 0 && rest <= expectAhead {
		c = need + int(rest)
	}
	if limit > 0 {
		c = max(min(c, int(limit)), need)
	}
	b := make([]byte, len(buf), c)
	copy(b, buf)
	return b
}

// Past expectFrom, a document's buffer grows to the rest of the stream
// (Expect) when that is expectAhead at most.
const (
	expectFrom  = 1 << 20
	expectAhead = 64 << 20
)

// fatal ends the stream with err.
func (y *YAML) fatal(err error) {
	y.done, y.pendErr, y.carry = true, err, nil
}

// readLine returns the next line with its line feed (none on the last
// line), or nothing at the end. A line may be as long as a document; binary
// data is an error as soon as it is read.
func (y *YAML) readLine() ([]byte, error) {
	l, err := y.r.ReadSlice('\n')
	if i := indexBinary(l); i >= 0 {
		return nil, &BinaryError{Offset: y.off + int64(i), Line: y.line, Byte: l[i]}
	}
	if err != bufio.ErrBufferFull {
		return l, err
	}
	// A line longer than r's buffer is read into the document's buffer,
	// past its text, where add takes it in without copying it.
	start := len(y.buf)
	buf := append(y.buf, l...)
	for err == bufio.ErrBufferFull {
		n := len(buf) - start // the line so far
		if y.max > 0 && int64(len(buf)) > y.max {
			return nil, &TooLargeError{What: "document", Limit: y.max, Offset: y.off, Line: y.line}
		}
		l, err = y.r.ReadSlice('\n')
		if i := indexBinary(l); i >= 0 {
			return nil, &BinaryError{Offset: y.off + int64(n+i), Line: y.line, Byte: l[i]}
		}
		if err == bufio.ErrBufferFull && y.max > 0 && int64(len(buf)+len(l)) > y.max {
			// Over the limit with this piece and more to come: refuse
			// before keeping it.
			return nil, &TooLargeError{What: "document", Limit: y.max, Offset: y.off, Line: y.line}
		}
		// Doubling up to what the document may hold (append grows a large
		// slice by a quarter, copying a long line many times); past a MiB,
		// to the rest of the stream (Expect) or of the limit at once.
		rest := y.end - y.off - int64(n+len(l))
		if y.max > 0 {
			rest = min(rest, y.max-int64(len(buf)+len(l)))
		}
		buf = append(grow(buf, len(l), rest, y.max), l...)
	}
	y.buf = buf[:start]
	return buf[start:], err
}

// marker returns "---" or "..." when l is a document marker line, else "".
func marker(l []byte) string {
	if len(l) < 3 || (len(l) > 3 && l[3] != ' ' && l[3] != '\t') {
		return ""
	}
	switch string(l[:3]) {
	case "---":
		return "---"
	case "...":
		return "..."
	}
	return ""
}

// JSON splits a stream of concatenated JSON values (white space between
// them optional around objects and arrays). It finds where each value ends
// by its brackets and strings; the caller's parser judges the value.
type JSON struct {
	r    *bufio.Reader
	max  int64
	off  int64
	line int
	buf  []byte
	done bool
	err  error
	end  int64 // where the stream is expected to end (Expect), 0: not known
}

// Expect tells the splitter that the stream holds about n more bytes, as
// YAML.Expect does.
func (j *JSON) Expect(n int64) {
	if n > 0 {
		j.end = j.off + n
	}
}

// NewJSON returns a splitter reading r; maxDoc, off and line are as for
// NewYAML.
func NewJSON(r io.Reader, maxDoc, off int64, line int) *JSON {
	return &JSON{r: bufio.NewReaderSize(r, 64<<10), max: maxDoc, off: off, line: line}
}

// Next returns the next value: Text is its text, Offset and Line (equal to
// TextOffset and TextLine) where it starts. A value cut by the end of the
// stream is returned as it is (the parser reports it). At the end it
// returns io.EOF; a *TooLargeError, *BinaryError or read error is fatal,
// and Next returns io.EOF after it.
func (j *JSON) Next() (Doc, error) {
	if j.done {
		err := j.err
		j.err = nil
		if err == nil {
			err = io.EOF
		}
		return Doc{}, err
	}
	if j.off == 0 {
		if b, _ := j.r.Peek(3); string(b) == "\xef\xbb\xbf" {
			j.r.Discard(3)
			j.off = 3
		}
	}
	doc, err := j.start()
	if err != nil {
		return Doc{}, err
	}
	j.buf = j.buf[:0]
	var v valueScan
	for {
		chunk, err := j.r.Peek(max(j.r.Buffered(), 1))
		if len(chunk) == 0 { // a value cut by the end of the stream
			j.done = true
			if err != nil && err != io.EOF {
				return j.fatal(err)
			}
			doc.Text = j.buf
			return doc, nil
		}
		i, end, err := j.scan(chunk, &v)
		if err != nil {
			return j.fatal(err)
		}
		if j.max > 0 && int64(len(j.buf)+i) > j.max {
			return j.fatal(&TooLargeError{What: "document", Limit: j.max, Offset: doc.Offset, Line: doc.Line})
		}
		j.off += int64(i)
		j.buf = append(grow(j.buf, i, j.end-j.off, j.max), chunk[:i]...)
		j.r.Discard(i)
		if end {
			doc.Text = j.buf
			return doc, nil
		}
	}
}

// start skips the white space before the next value and returns where the
// value starts (Text not yet set); io.EOF when the stream ends first.
func (j *JSON) start() (Doc, error) {
	for {
		chunk, err := j.r.Peek(max(j.r.Buffered(), 1))
		if len(chunk) == 0 {
			j.done = true
			if err != nil && err != io.EOF {
				return j.fatal(err)
			}
			return Doc{}, io.EOF
		}
		for i, c := range chunk {
			if IsBinary(c) {
				return j.fatal(&BinaryError{Offset: j.off + int64(i), Line: j.line, Byte: c})
			}
			if c == '\n' {
				j.line++
			}
			if !isSpace(c) {
				j.off += int64(i)
				j.r.Discard(i)
				return Doc{Offset: j.off, Line: j.line, TextOffset: j.off, TextLine: j.line, JSON: true}, nil
			}
		}
		// White space counts against the limit one buffer at a time.
		if j.max > 0 && int64(len(chunk)) > j.max {
			return j.fatal(&TooLargeError{What: "document", Limit: j.max})
		}
		j.off += int64(len(chunk))
		j.r.Discard(len(chunk))
	}
}

// valueScan is where the scan of a JSON value stands: its bracket depth,
// whether it is inside a string (just after a backslash), and whether it is
// a scalar (a number, true, false or null).
type valueScan struct {
	depth              int
	inStr, esc, scalar bool
}

// scan reads chunk, the next bytes of the value v, counting lines and
// refusing binary bytes. It returns how many bytes of chunk belong to the
// value and whether the value ends there. A scalar ends before the byte
// that ends it, any other value after its last byte.
func (j *JSON) scan(chunk []byte, v *valueScan) (n int, end bool, err error) {
	for i := 0; i < len(chunk); i++ {
		if skip := skipIn(v); skip != nil {
			// Inside a string or an array or object, the bytes that change
			// nothing, eight at a time.
			for i+8 <= len(chunk) && skip[chunk[i]]&skip[chunk[i+1]]&skip[chunk[i+2]]&skip[chunk[i+3]]&
				skip[chunk[i+4]]&skip[chunk[i+5]]&skip[chunk[i+6]]&skip[chunk[i+7]] != 0 {
				i += 8
			}
			for i < len(chunk) && skip[chunk[i]] != 0 {
				i++
			}
			if i == len(chunk) {
				break
			}
		}
		c := chunk[i]
		if IsBinary(c) {
			return 0, false, &BinaryError{Offset: j.off + int64(i), Line: j.line, Byte: c}
		}
		if c == '\n' {
			j.line++
		}
		switch {
		case v.inStr:
			switch {
			case v.esc:
				v.esc = false
			case c == '\\':
				v.esc = true
			case c == '"':
				v.inStr = false
				end = v.depth == 0
			}
		case c == '"':
			end = v.scalar // a scalar ends where a string starts
			v.inStr = !v.scalar
		case c == '{' || c == '[':
			end = v.scalar
			if !v.scalar {
				v.depth++
			}
		case c == '}' || c == ']':
			v.depth--
			end = v.depth <= 0 || v.scalar
		case v.depth == 0 && (isSpace(c) || c == ','):
			end = true
		case v.depth == 0:
			v.scalar = true
		}
		if !end {
			continue
		}
		if v.scalar && (c == '"' || c == '{' || c == '[' || c == ',' || isSpace(c)) {
			if c == '\n' {
				j.line-- // counted again when read
			}
			return i, true, nil // the byte begins what follows
		}
		return i + 1, true, nil
	}
	return len(chunk), false, nil
}

// skipIn returns the table of the bytes scan passes over as they are
// where the value v stands (inside a string, or an object or array), or
// nil where every byte counts.
func skipIn(v *valueScan) *[256]uint8 {
	switch {
	case v.inStr && !v.esc:
		return &stringSkip
	case !v.inStr && v.depth > 0:
		return &nestedSkip
	}
	return nil
}

// stringSkip and nestedSkip are 1 for the bytes that change nothing in a
// string (all but the quote, the backslash, the line feed and binary
// bytes) and in an object or array outside strings (all but quotes,
// brackets, braces, the line feed and binary bytes).
var stringSkip, nestedSkip = func() (s, n [256]uint8) {
	for c := range 256 {
		if IsBinary(byte(c)) || c == '\n' {
			continue
		}
		if c != '"' && c != '\\' {
			s[c] = 1
		}
		if c != '"' && c != '{' && c != '}' && c != '[' && c != ']' {
			n[c] = 1
		}
	}
	return s, n
}()

// isSpace reports whether c is JSON white space.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (j *JSON) fatal(err error) (Doc, error) {
	j.done = true
	return Doc{}, err
}

// YAMLErrorLine moves the line a YAML library's error names ("yaml: line
// 5: did not find expected key", counted from the document's first line of
// text) to the stream: doc's first line of text is line textLine, its last
// lastLine (past the end, the library names the last). It returns the
// stream's line and the message without the library's prefix and line;
// ok is false when the error names no line (msg is then the message
// without the prefix).
func YAMLErrorLine(err error, textLine, lastLine int) (line int, msg string, ok bool) {
	msg = err.Error()
	msg = strings.TrimPrefix(msg, "error converting YAML to JSON: ")
	msg = strings.TrimPrefix(msg, "yaml: ")
	rest, found := strings.CutPrefix(msg, "line ")
	if !found {
		return 0, msg, false
	}
	n, after, found := strings.Cut(rest, ":")
	l, convErr := strconv.Atoi(n)
	if !found || convErr != nil {
		return 0, msg, false
	}
	line = textLine + l - 1
	if lastLine >= textLine {
		line = min(line, lastLine)
	}
	return line, strings.TrimSpace(after), true
}

// LastLine returns the line of the last line with text of doc, whose first
// line is textLine.
func LastLine(text []byte, textLine int) int {
	return textLine + bytes.Count(bytes.TrimRight(text, " \t\r\n"), []byte{'\n'})
}
