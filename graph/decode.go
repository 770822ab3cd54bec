package graph

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sextantdev/sextant/graph/internal/jsonscan"
	"github.com/sextantdev/sextant/internal/docstream"
	"github.com/sextantdev/sextant/internal/fastyaml"
)

// Schemas of the FBC blobs Sextant models.
const (
	SchemaPackage      = "olm.package"
	SchemaChannel      = "olm.channel"
	SchemaBundle       = "olm.bundle"
	SchemaDeprecations = "olm.deprecations"
)

// DecodeError is one problem found while decoding a catalog: malformed JSON
// or YAML, a field of the wrong type, a blob with no schema, a malformed
// property value. Decoding reports every problem of its input, each as a
// *DecodeError, joined with errors.Join; use errors.As to reach the first
// and the Unwrap() []error method of the joined error to reach them all.
type DecodeError struct {
	// File names the input: the file's path, or the name given to Decode.
	File string
	// Line is the 1-based line of the problem (for YAML, of the start of
	// the document holding it); 0 when unknown.
	Line int
	// Offset is the byte offset of the problem in the (uncompressed) file;
	// for YAML, the offset of the start of its document. -1 when the
	// problem concerns the file as a whole (it cannot be read).
	Offset int64
	// Object describes the blob the problem is in, when known, e.g.
	// `olm.bundle "etcdoperator.v0.9.4"`.
	Object string
	// Err is what is wrong.
	Err error
}

// Error returns "file:line: object: what is wrong".
func (e *DecodeError) Error() string {
	var b strings.Builder
	if e.File == "" {
		b.WriteString("<input>")
	} else {
		b.WriteString(e.File)
	}
	switch {
	case e.Line > 0:
		b.WriteString(":")
		b.WriteString(strconv.Itoa(e.Line))
	case e.Offset >= 0:
		b.WriteString(": offset ")
		b.WriteString(strconv.FormatInt(e.Offset, 10))
	}
	if e.Object != "" {
		b.WriteString(": ")
		b.WriteString(e.Object)
	}
	b.WriteString(": ")
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	} else {
		b.WriteString("invalid input")
	}
	return b.String()
}

// Unwrap returns Err.
func (e *DecodeError) Unwrap() error { return e.Err }

// decoder feeds the blobs of one or more files into a Builder. It keeps
// caches (interned strings, parsed ranges) across the files of one load.
type decoder struct {
	b    *Builder
	errs []error

	// The load's context (nil: none) and its error once done; limits (0:
	// none).
	ctx               context.Context
	ctxErr            error
	maxBytes, maxBlob int64
	blobs             int // blobs decoded, for polling ctx

	// Per file.
	file     string
	jsonOnly bool   // the file is named .json: no YAML
	data     []byte // the JSON text being scanned: the window on a JSON stream, or one converted YAML document
	// doc is the position of the YAML document being decoded; nil for a
	// JSON stream, whose positions come from byte offsets in data.
	doc *Position
	// yaml converts YAML documents to the JSON in data, and tells where
	// each of its objects is in the document, whose text starts at byte
	// docText of the file, on line docLine.
	yaml    fastyaml.Converter
	docText int64
	docLine int
	// Lazy line counting for JSON streams: line is the 1-based line of
	// byte lineOff of data.
	lineOff int
	line    int
	// col is the 1-based column, in characters, of byte lineOff.
	col int
	// backOff, backLine and backCol locate the last out-of-order query
	// (before lineOff); backOff is -1 when there is none.
	backOff, backLine, backCol int

	// Streaming: a JSON stream is read through a window, data, that holds
	// at least the blob being decoded; base is the file offset of data[0].
	// Bytes the catalog keeps (property values, unknown blobs) are copied
	// from the window into arena.
	r      io.Reader
	eof    bool
	base   int64
	keep   bool // copy kept bytes into arena (data is a reused window)
	arena  []byte
	window int    // initial window size
	win    []byte // the window's buffer, reused from file to file
	// cut names the blob at data[0] while the window grows to hold it (its
	// schema and name, when read before the cut), for the error if it
	// outgrows the limit first.
	cut string
	// size is the file's size when known (the window's growth past
	// bigBlob reads up to its end at once), else -1.
	size int64

	// Per blob: the problems found so far, named once the blob's schema and
	// name are known.
	pending []pendingErr
	// Per blob: the keys opm does not read as written (keyNote), made
	// findings once the blob is added; topOther: a top-level key the
	// decoder's switch does not read; merging: a deprecation entry's
	// reference is read in another spelling, over the one before (refold).
	notes    []keyNote
	topOther bool
	merging  bool
	// docText is the text of the YAML document being decoded.
	docBytes []byte

	// The NotCatalogError of the manifests of file manifestsFile, which
	// counts their objects.
	manifests     *NotCatalogError
	manifestsFile string

	// The olm.bundle blobs whose properties a goroutine of their own is
	// typing (see typeBundle); nil until the first.
	typing *bundleTyper

	stringTable
	ranges map[string]Range
	buf    []byte // scratch for unescaping

	// Slabs: many small slices carved from a few large arrays.
	propSlab  []Property
	entrySlab []Entry
	strSlab   []string
	// Scratch lists reused between blobs.
	props    []Property
	entries  []Entry
	entryPos []Position // per entry of entries
	skips    []string
}

type pendingErr struct {
	off int
	err error
}

func newDecoder(b *Builder) *decoder {
	return &decoder{
		b:           b,
		stringTable: stringTable{strs: make(map[string]string, 1024)},
		ranges:      make(map[string]Range),
	}
}

// posAt returns the position of byte off of d.data: line and column (in
// characters) for a JSON stream, the document's start for YAML.
func (d *decoder) posAt(off int) Position {
	if d.doc != nil {
		return *d.doc
	}
	off = min(off, len(d.data))
	if off < d.lineOff {
		// Out of order (rare, within one blob): count back.
		// A second cursor, back, makes ascending out-of-order queries (the
		// entries of a blob read after its end) cost their distance only.
		if d.backOff < 0 || d.backOff > off {
			seg := d.data[off:d.lineOff]
			d.backLine = d.line - bytes.Count(seg, newline)
			d.backCol = 0
			if d.backLine == d.line {
				d.backCol = d.col - utf8.RuneCount(seg)
			} else if nl := bytes.LastIndexByte(d.data[:off], '\n'); nl >= 0 {
				d.backCol = utf8.RuneCount(d.data[nl+1:off]) + 1
			}
		} else {
			seg := d.data[d.backOff:off]
			if n := bytes.Count(seg, newline); n > 0 {
				d.backLine += n
				d.backCol = utf8.RuneCount(seg[bytes.LastIndexByte(seg, '\n')+1:]) + 1
			} else if d.backCol > 0 {
				d.backCol += utf8.RuneCount(seg)
			}
		}
		d.backOff = off
		return Position{File: d.file, Line: d.backLine, Column: d.backCol, Offset: d.base + int64(off)}
	}
	d.advance(off)
	return Position{File: d.file, Line: d.line, Column: d.col, Offset: d.base + int64(off)}
}

// objectAt returns the position of the object whose '{' is at byte off of
// d.data: posAt's for a JSON stream; for a YAML document, the line and
// column of the mapping it was converted from (its first key), when the
// converter knows it, else the document's start.
func (d *decoder) objectAt(off int) Position {
	if d.doc == nil {
		return d.posAt(off)
	}
	line, col, docOff, ok := d.yaml.Object(off)
	if !ok {
		return *d.doc
	}
	return Position{File: d.file, Line: d.docLine + line, Column: col, Offset: d.docText + int64(docOff)}
}

// advance counts the lines and columns up to byte off of d.data (at or
// after lineOff).
func (d *decoder) advance(off int) {
	seg := d.data[d.lineOff:off]
	if n := bytes.Count(seg, newline); n > 0 {
		d.line += n
		seg = seg[bytes.LastIndexByte(seg, '\n')+1:]
		d.col = 1
	}
	d.col += utf8.RuneCount(seg)
	d.lineOff = off
}

var newline = []byte{'\n'}

// errorAt records a problem at byte off of d.data, outside any blob.
func (d *decoder) errorAt(off int, object string, err error) {
	if off >= len(d.data) && (d.eof || d.r == nil) {
		// At the end of the input: name the last line that has text.
		off = max(len(bytes.TrimRight(d.data, " \t\r\n")), d.lineOff)
	}
	p := d.posAt(off)
	d.errs = append(d.errs, &DecodeError{File: d.file, Line: p.Line, Offset: p.Offset, Object: object, Err: err})
}

// blobErr records a problem at byte off of the blob being decoded.
func (d *decoder) blobErr(off int, err error) {
	d.pending = append(d.pending, pendingErr{off, err})
}

func (d *decoder) blobErrf(off int, format string, args ...any) {
	d.blobErr(off, fmt.Errorf(format, args...))
}

// flush names the pending problems of a blob with its object description.
func (d *decoder) flush(object string) {
	for _, p := range d.pending {
		d.errorAt(p.off, object, p.err)
	}
	d.pending = d.pending[:0]
}

// stringTable interns strings: a map of every string seen, behind a
// direct-mapped cache of recent ones. The strings of a catalog repeat in runs
// (property types, groups, package names), and a cache hit costs a
// comparison instead of a map lookup. The zero value needs strs set.
type stringTable struct {
	strs   map[string]string
	recent recentStrings
}

// recentStrings is the direct-mapped cache of a stringTable.
type recentStrings [256]string

// intern returns b as a string, shared with every equal string interned
// before.
func (t *stringTable) intern(b []byte) string {
	h := cacheSlot(b)
	if s := t.recent[h]; s == string(b) {
		return s
	}
	s, ok := t.strs[string(b)]
	if !ok {
		s = string(b)
		t.strs[s] = s
	}
	t.recent[h] = s
	return s
}

// cacheSlot picks the slot of b in a recentStrings.
func cacheSlot(b []byte) uint8 {
	if len(b) == 0 {
		return 0
	}
	return uint8(len(b)*31) ^ b[0] ^ b[len(b)-1]<<1 ^ b[len(b)/2]<<2
}

// parseRange parses a range once per distinct text.
func (d *decoder) parseRange(text string) Range {
	if r, ok := d.ranges[text]; ok {
		return r
	}
	r, _ := ParseRange(text) // an invalid range keeps its text; Validate reports it
	d.ranges[text] = r
	return r
}

// decodeJSON decodes a stream of concatenated JSON objects from the window
// (and the reader behind it). After malformed JSON it resumes at the next
// line that starts with '{'.
func (d *decoder) decodeJSON() {
	d.doc = nil
	s := jsonscan.Scanner{Data: d.data}
	for {
		if d.blobs++; d.blobs%64 == 0 && d.cancelled() {
			return
		}
		s.SkipSpace()
		if s.Pos >= len(d.data) {
			if !d.more(&s, s.Pos) {
				return
			}
			continue
		}
		start := s.Pos
		if c := d.data[start]; c != '{' {
			if docstream.IsBinary(c) {
				d.binary(start)
				return
			}
			if c == '-' && !d.jsonOnly && d.markerAt(&s, start) {
				// A YAML stream whose first documents are JSON: YAML from here.
				d.discard(start)
				d.decodeYAML()
				return
			}
			err := s.Skip()
			if d.truncated(err) || (err == nil && d.mayContinue(s.Pos)) {
				d.more(&s, start)
				continue
			}
			n := len(d.errs)
			if k := jsonscan.Kind(c); k != "not a JSON value" {
				d.errorAt(start, "", fmt.Errorf("top-level value is %s, want an object", k))
			} else {
				d.errorAt(start, "", fmt.Errorf("invalid character %q at top level, want an object", d.data[start:start+1]))
			}
			if err != nil && !d.resync(&s, start+1) {
				if len(d.errs) == n+2 {
					// Binary data before the next blob: the file is not
					// text, which says all (random bytes are one error).
					d.errs = append(d.errs[:n], d.errs[n+1])
				}
				return
			}
			continue
		}
		err := d.decodeBlob(&s)
		if err == errNeedMore {
			d.more(&s, start)
			d.cut = ""
			continue
		}
		if err != nil {
			off := start + 1
			var se *jsonscan.SyntaxError
			if errors.As(err, &se) && se.Offset > off {
				off = se.Offset
			}
			if !d.resync(&s, off) {
				return
			}
		}
	}
}

// binary records binary data at byte off of the window and ends the file:
// no catalog holds it, and what follows is rarely text.
func (d *decoder) binary(off int) {
	p := d.posAt(off)
	d.errs = append(d.errs, &DecodeError{File: d.file, Line: p.Line, Offset: p.Offset, Err: &BinaryError{Offset: p.Offset, Line: p.Line, Byte: d.data[off]}})
	d.stop()
}

// stop ends the file being decoded.
func (d *decoder) stop() {
	d.eof, d.r = true, nil
	d.data = d.data[:0]
}

// markerAt reports whether a YAML document marker line ("---") starts at
// byte off of the window, reading more input when the window ends first.
func (d *decoder) markerAt(s *jsonscan.Scanner, off int) bool {
	if off > 0 && d.data[off-1] != '\n' {
		return false
	}
	if len(d.data)-off < 4 && d.r != nil && !d.eof {
		d.more(s, off)
		off = 0
	}
	l := d.data[off:]
	if i := bytes.IndexByte(l, '\n'); i >= 0 {
		l = l[:i]
	}
	l = bytes.TrimRight(l, "\r")
	return bytes.HasPrefix(l, []byte("---")) && (len(l) == 3 || l[3] == ' ' || l[3] == '\t')
}

// bigBlob is the window size from which a blob that does not fit is read
// up to the file's end (or the limit) at once.
const bigBlob = 4 << 20

// errNeedMore reports a blob cut by the end of the window: read more and
// decode it again.
var errNeedMore = errors.New("need more input")

// truncated reports whether err is a syntax error caused by the end of the
// window while the input goes on.
func (d *decoder) truncated(err error) bool {
	if err == nil || d.eof || d.r == nil {
		return false
	}
	var se *jsonscan.SyntaxError
	return errors.As(err, &se) && se.Offset >= len(d.data)
}

// mayContinue reports whether a top-level scalar that Skip ended at off
// may go on in input not read yet: it ends the window, and more may come
// (a number "1" read so far may be "12" or "1.5", a literal "null" may be
// "nullx"). Inside an object the closing brace is still to come, so a
// value there is never cut.
func (d *decoder) mayContinue(off int) bool {
	return off >= len(d.data) && d.r != nil && !d.eof
}

// more drops the window's bytes before keep, reads more input and points s
// at the byte that was at keep. It returns false when the input is
// exhausted and nothing new was read.
func (d *decoder) more(s *jsonscan.Scanner, keep int) bool {
	if d.r == nil || d.eof {
		s.Pos = len(d.data)
		return false
	}
	d.discard(keep)
	n := len(d.data)
	d.fill()
	s.Data, s.Pos = d.data, 0
	return len(d.data) > n || !d.eof
}

// discard drops the first n bytes of the window.
func (d *decoder) discard(n int) {
	if n > d.lineOff {
		d.advance(n)
	}
	d.data = d.data[:copy(d.data, d.data[n:])]
	d.lineOff -= n
	d.backOff = -1
	d.base += int64(n)
}

// fill reads into the free part of the window, growing it when full.
func (d *decoder) fill() {
	if d.r == nil || d.cancelled() {
		d.eof = true
		return
	}
	if len(d.data) == cap(d.data) {
		if d.maxBlob > 0 && int64(len(d.data)) >= d.maxBlob {
			// The window is full with one blob, which starts at d.data[0].
			p := d.posAt(0)
			d.errs = append(d.errs, &DecodeError{File: d.file, Line: p.Line, Offset: p.Offset, Object: d.cut, Err: &LimitError{What: "blob", Limit: d.maxBlob, Offset: p.Offset, Line: p.Line}})
			d.stop()
			return
		}
		// Doubling, but never past the limit: a blob that outgrows it is
		// refused once the limit's worth of it is read, not after it all.
		n := max(cap(d.data), d.window)
		if d.maxBlob > 0 {
			room := d.maxBlob - int64(len(d.data))
			if rest := d.size - d.base - int64(len(d.data)); len(d.data) >= bigBlob && rest > 0 {
				// A blob this large (no catalog has one): the rest of it,
				// up to the limit, in one step rather than in doublings
				// that each copy and scan it again.
				n = int(min(max(int64(n), rest), room))
			}
			n = int(min(int64(n), room))
		}
		w := make([]byte, len(d.data), len(d.data)+n) // append would round the size up
		copy(w, d.data)
		d.data = w
	}
	for zero := 0; len(d.data) < cap(d.data) && !d.eof; {
		n, err := d.r.Read(d.data[len(d.data):cap(d.data)])
		d.data = d.data[:len(d.data)+n]
		switch {
		case err == io.EOF:
			d.eof = true
		case err != nil:
			d.readErr(err)
			d.stop() // what was read is cut: say nothing more of it
		case n == 0:
			if zero++; zero > 100 {
				d.eof = true
				d.errs = append(d.errs, &DecodeError{File: d.file, Offset: -1, Err: io.ErrNoProgress})
			}
		}
	}
}

// resync moves s to the first '{' at the start of a line at or after off,
// or to the end. Pretty-printed and one-per-line FBC both start every blob
// there, and a raw newline cannot occur inside a JSON string. It returns
// false, having ended the file, at binary data on the way.
func (d *decoder) resync(s *jsonscan.Scanner, off int) bool {
	for {
		data := d.data
		for off < len(data) {
			i := bytes.IndexByte(data[off:], '{')
			end := len(data)
			if i >= 0 {
				end = off + i
			}
			if b := indexBinary(data[off:end]); b >= 0 {
				d.binary(off + b)
				s.Data, s.Pos = d.data, 0
				return false
			}
			if i < 0 {
				break
			}
			off += i
			if (off == 0 && d.base == 0) || (off > 0 && data[off-1] == '\n') {
				s.Pos = off
				return true
			}
			off++
		}
		if d.r == nil || d.eof {
			s.Pos = len(d.data)
			return true
		}
		// Keep the last byte: it tells whether the next one starts a line.
		keep := max(len(d.data)-1, 0)
		d.more(s, keep)
		off = 1
		if len(d.data) <= 1 && d.eof {
			s.Pos = len(d.data)
			return true
		}
	}
}

// indexBinary returns the index of the first binary byte of b, or -1.
func indexBinary(b []byte) int {
	for i, c := range b {
		if c < 0x20 || c == 0x7f {
			if docstream.IsBinary(c) {
				return i
			}
		}
	}
	return -1
}

// readErr records an error reading the file: over a limit, corrupt gzip
// data, an I/O error.
func (d *decoder) readErr(err error) {
	var le *LimitError
	if errors.As(err, &le) && le.Offset >= 0 {
		d.errs = append(d.errs, &DecodeError{File: d.file, Line: le.Line, Offset: le.Offset, Err: err})
		return
	}
	var be *BinaryError
	if errors.As(err, &be) {
		d.errs = append(d.errs, &DecodeError{File: d.file, Line: be.Line, Offset: be.Offset, Err: err})
		return
	}
	d.errs = append(d.errs, &DecodeError{File: d.file, Offset: -1, Err: err})
}

// keepBytes returns b, copied into the arena when the window holding it is
// reused.
func (d *decoder) keepBytes(b []byte) []byte {
	if !d.keep {
		return b[:len(b):len(b)]
	}
	if cap(d.arena)-len(d.arena) < len(b) {
		// Blocks double from keepFirst to keepChunk: a small file keeps
		// a small block.
		size := min(max(2*cap(d.arena), keepFirst), keepChunk)
		d.arena = make([]byte, 0, max(len(b), size))
	}
	n := len(d.arena)
	d.arena = append(d.arena, b...)
	return d.arena[n:len(d.arena):len(d.arena)]
}

// keepFirst and keepChunk are the sizes of the arena's first block and of
// its largest.
const (
	keepFirst = 16 << 10
	keepChunk = 1 << 20
)

// blob holds the top-level fields of one blob.
type blob struct {
	schema, name, pkg, defaultChannel, image string
	hasSchema                                bool
	schemaOff                                int // the schema key's offset in the window
	// kind and apiVersion are a Kubernetes object's, read only as strings:
	// a blob with both and no schema is a manifest (NotCatalogError).
	kind       string
	apiVersion bool
	// seen has a bit for each top-level key the decoder's switch met.
	seen uint16
	// Raw spans of entries, properties, relatedImages and icon met before
	// the schema.
	entries, properties, relatedRaw, icon []byte
	entriesOff, propsOff, relOff, iconOff int
	// Decoded lists, when the schema was known in time.
	chanEntries  []Entry
	chanPos      []Position // per entry of chanEntries
	deprecations []Deprecation
	props        []Property
	related      []RelatedImage
}

// object describes the blob for messages: `olm.bundle "name"`.
func (b *blob) object() string {
	if b.schema == "" {
		if b.name != "" {
			return fmt.Sprintf("blob %q", b.name)
		}
		return ""
	}
	if b.schema == SchemaDeprecations && b.name == "" && b.pkg != "" {
		return fmt.Sprintf("%s of package %q", b.schema, b.pkg)
	}
	if b.name == "" {
		return b.schema
	}
	return fmt.Sprintf("%s %q", b.schema, b.name)
}

// decodeBlob decodes one top-level object at s and hands it to the builder.
// It returns errNeedMore, recording nothing, when the window ends inside the
// blob; or a syntax error, after recording it. Other problems are recorded
// and decoding goes on.
func (d *decoder) decodeBlob(s *jsonscan.Scanner) error {
	d.pending = d.pending[:0]
	d.notes, d.topOther = d.notes[:0], false
	start := s.Pos
	var f blob
	err := d.blobFields(s, &f)
	if d.truncated(err) {
		d.pending = d.pending[:0]
		d.cut = f.object()
		return errNeedMore
	}
	if err != nil {
		var se *jsonscan.SyntaxError
		off := start
		if errors.As(err, &se) {
			off = se.Offset
		}
		d.blobErr(off, fmt.Errorf("invalid JSON: %w", err))
		d.flush(f.object())
		return err
	}
	end := s.Pos
	if d.maxBlob > 0 && int64(end-start) > d.maxBlob {
		p := d.posAt(start)
		d.errs = append(d.errs, &DecodeError{File: d.file, Line: p.Line, Offset: p.Offset, Object: f.object(), Err: &LimitError{What: "blob", Limit: d.maxBlob, Offset: p.Offset, Line: p.Line}})
		return nil
	}
	// Fields met before the schema: decode their spans now.
	if f.entries != nil {
		sub := jsonscan.Scanner{Data: d.data, Pos: f.entriesOff}
		switch f.schema {
		case SchemaChannel:
			f.chanEntries, _ = d.channelEntries(&sub)
			f.chanPos = slices.Clone(d.entryPos)
		case SchemaDeprecations:
			f.deprecations, _ = d.deprecationEntries(&sub)
		}
	}
	if f.properties != nil && f.schema == SchemaBundle {
		sub := jsonscan.Scanner{Data: d.data, Pos: f.propsOff}
		f.props, _ = d.properties(&sub)
	}
	if f.relatedRaw != nil && f.schema == SchemaBundle {
		sub := jsonscan.Scanner{Data: d.data, Pos: f.relOff}
		f.related, _ = d.relatedImages(&sub)
	}
	if f.properties != nil && (f.schema == SchemaPackage || f.schema == SchemaChannel) {
		sub := jsonscan.Scanner{Data: d.data, Pos: f.propsOff}
		_ = d.otherObjects(&sub, "properties", &propertyKeys)
	}
	if f.icon != nil && f.schema == SchemaPackage {
		sub := jsonscan.Scanner{Data: d.data, Pos: f.iconOff}
		_ = d.otherObject(&sub, "icon", &iconKeys)
	}
	if d.topOther || f.seen&^seenAllowed(f.schema) != 0 {
		d.auditTop(&f, start, end)
	}
	if !f.hasSchema && f.kind != "" && f.apiVersion {
		d.pending = d.pending[:0]
		d.notCatalog(start, f.kind)
		return nil
	}
	if !f.hasSchema {
		d.blobErr(start, errors.New(`blob has no "schema"`))
	}
	if len(d.pending) > 0 {
		d.flush(f.object())
		return nil
	}
	pos := d.posAt(start)
	switch f.schema {
	case "":
		if f.hasSchema {
			d.errorAt(start, "", errors.New(`blob has an empty "schema"`))
		}
	case SchemaPackage:
		d.b.addPackage(pos, f.name, f.defaultChannel)
	case SchemaChannel:
		d.b.addChannel(pos, f.pkg, f.name, f.chanEntries, f.chanPos)
	case SchemaBundle:
		bd := d.b.newBundle(pos, f.name, f.pkg, f.image, f.props)
		bd.RelatedImages = f.related
		d.typeBundle(bd)
	case SchemaDeprecations:
		d.b.addDeprecations(pos, f.pkg, f.deprecations)
	default:
		m := Meta{Schema: f.schema, Package: f.pkg, Name: f.name, Blob: d.keepBytes(d.data[start:end]), Pos: pos}
		d.b.addMeta(m)
		d.b.keyFindings = append(d.b.keyFindings, schemaFinding(m, d.keyPos(&keyNote{off: f.schemaOff, objOff: start, key: "schema"})))
	}
	if len(d.notes) > 0 {
		d.keyFindings(&f, f.chanEntries)
	}
	return nil
}

// blobFields reads the top-level fields of a blob into f.
func (d *decoder) blobFields(s *jsonscan.Scanner, f *blob) error {
	if err := s.BeginObject(); err != nil {
		return err
	}
	return d.fields(s, &topKeys, where{}, func(key []byte) (err error) {
		switch string(key) {
		case "schema":
			f.hasSchema, f.schemaOff = true, s.KeyPos
			f.schema, err = d.metaStr(s, "schema", true)
		case "name":
			f.seen |= seenName
			f.name, err = d.metaStr(s, "name", f.schema == SchemaChannel)
		case "package":
			f.seen |= seenPackage
			f.pkg, err = d.metaStr(s, "package", true)
		case "defaultChannel":
			f.seen |= seenDefaultChannel
			f.defaultChannel, err = d.str(s, fieldPath{key: "defaultChannel"}, true)
		case "image":
			f.seen |= seenImage
			f.image, err = d.str(s, fieldPath{key: "image"}, false)
		case "kind":
			f.seen |= seenKind
			if s.Peek() == '"' {
				f.kind, err = d.str(s, fieldPath{key: "kind"}, true)
			} else {
				err = s.Skip()
			}
		case "apiVersion":
			f.seen |= seenKind
			f.apiVersion = s.Peek() == '"'
			err = s.Skip()
		case "entries":
			f.seen |= seenEntries
			f.entries = nil // the last of duplicate keys wins
			switch f.schema {
			case SchemaChannel:
				f.chanEntries, err = d.channelEntries(s)
				f.chanPos = slices.Clone(d.entryPos)
			case SchemaDeprecations:
				f.deprecations, err = d.deprecationEntries(s)
			case "":
				f.entriesOff = s.Pos
				f.entries, err = s.Value()
			default:
				err = s.Skip()
			}
		case "properties":
			f.seen |= seenProperties
			f.properties = nil
			switch f.schema {
			case SchemaBundle:
				f.props, err = d.properties(s)
			case SchemaPackage, SchemaChannel:
				err = d.otherObjects(s, "properties", &propertyKeys)
			case "":
				f.propsOff = s.Pos
				f.properties, err = s.Value()
			default:
				err = s.Skip()
			}
		case "relatedImages":
			f.seen |= seenRelatedImages
			f.related, f.relatedRaw = nil, nil
			switch f.schema {
			case SchemaBundle:
				f.related, err = d.relatedImages(s)
			case "":
				f.relOff = s.Pos
				f.relatedRaw, err = s.Value()
			default:
				err = s.Skip()
			}
		case "icon":
			f.seen |= seenIcon
			f.icon = nil
			switch f.schema {
			case SchemaPackage:
				err = d.otherObject(s, "icon", &iconKeys)
			case "":
				f.iconOff = s.Pos
				f.icon, err = s.Value()
			default:
				err = s.Skip()
			}
		case "description":
			f.seen |= seenDescription
			err = s.Skip()
		default:
			return errOtherKey
		}
		return err
	})
}

// metaStr reads schema, package or name at the top of a blob: a string,
// as opm's Meta wants it (a null there is an error to opm, as a number
// is).
func (d *decoder) metaStr(s *jsonscan.Scanner, key string, intern bool) (string, error) {
	if s.Peek() == 'n' {
		return "", d.wrongType(s, fieldPath{key: key}, "a string")
	}
	return d.str(s, fieldPath{key: key}, intern)
}

// otherObjects checks the keys of the objects of the list field named
// list, which the decoder does not read (an olm.package's or olm.channel's
// properties): ks has those opm reads.
func (d *decoder) otherObjects(s *jsonscan.Scanner, list string, ks *keySet) error {
	return d.objects(s, list, func(field fieldPath) error {
		return d.fields(s, ks, where{list: list, i: field.i}, func([]byte) error { return errOtherKey })
	})
}

// otherObject checks the keys of the object field named sub, which the
// decoder does not read (an olm.package's icon): ks has those opm reads.
func (d *decoder) otherObject(s *jsonscan.Scanner, sub string, ks *keySet) error {
	ok, err := d.object(s, fieldPath{key: sub})
	if !ok || err != nil {
		return err
	}
	return d.fields(s, ks, where{sub: sub}, func([]byte) error { return errOtherKey })
}

// str reads a string field; null is "". A value of another type is
// recorded as a problem naming field, and skipped.
func (d *decoder) str(s *jsonscan.Scanner, field fieldPath, intern bool) (string, error) {
	switch s.Peek() {
	case '"':
		raw, esc, err := s.String()
		if err != nil {
			return "", err
		}
		if esc {
			d.buf = jsonscan.Unescape(d.buf[:0], raw)
			raw = d.buf
		}
		if intern {
			return d.intern(raw), nil
		}
		return string(raw), nil
	case 'n':
		return "", s.Skip()
	default:
		return "", d.wrongType(s, field, "a string")
	}
}

// fieldPath names a field for messages without building the name unless a
// message needs it: key, list[i], list[i].key or list[i].key[sub-1].
type fieldPath struct {
	list string
	i    int
	key  string
	sub  int // 1 + the index in key's list; 0 for none
}

func (p fieldPath) with(key string) fieldPath { p.key = key; return p }

func (p fieldPath) elem(j int) fieldPath { p.sub = j + 1; return p }

func (p fieldPath) String() string {
	var b strings.Builder
	if p.list != "" {
		b.WriteString(p.list)
		b.WriteByte('[')
		b.WriteString(strconv.Itoa(p.i))
		b.WriteByte(']')
		if p.key != "" {
			b.WriteByte('.')
		}
	}
	b.WriteString(p.key)
	if p.sub > 0 {
		b.WriteByte('[')
		b.WriteString(strconv.Itoa(p.sub - 1))
		b.WriteByte(']')
	}
	return b.String()
}

// wrongType records that field holds a value of the wrong type and skips it.
func (d *decoder) wrongType(s *jsonscan.Scanner, field fieldPath, want string) error {
	off := s.Pos
	kind := jsonscan.Kind(s.Peek())
	if err := s.Skip(); err != nil {
		return err
	}
	d.blobErrf(off, "field %q is %s, want %s", field.String(), kind, want)
	return nil
}

// array begins an array field; ok is false when it is null or of the wrong
// type (recorded, and skipped).
func (d *decoder) array(s *jsonscan.Scanner, field fieldPath) (ok bool, err error) {
	switch s.Peek() {
	case '[':
		return true, s.BeginArray()
	case 'n':
		return false, s.Skip()
	default:
		return false, d.wrongType(s, field, "an array")
	}
}

// object begins an object field; ok is false when it is null or of the
// wrong type (recorded, and skipped).
func (d *decoder) object(s *jsonscan.Scanner, field fieldPath) (ok bool, err error) {
	switch s.Peek() {
	case '{':
		return true, s.BeginObject()
	case 'n':
		return false, s.Skip()
	default:
		return false, d.wrongType(s, field, "an object")
	}
}

// fields reads the fields of an object whose '{' has been read, calling f
// with each key, unescaped; f reads the key's value, or returns
// errOtherKey for a key it does not read. Such a key is read as opm reads
// it (otherKey): in another case it is the key ks has, else it is skipped,
// and noted at at unless ks has it. ks is nil for an object whose keys
// are not checked. It stops at the first error.
func (d *decoder) fields(s *jsonscan.Scanner, ks *keySet, at where, f func(key []byte) error) error {
	start := s.Pos
	refold := false
	for first := true; ; first = false {
		key, more, err := s.NextKeyUnescaped(first)
		if err != nil {
			return err
		}
		if !more {
			break
		}
		err = f(key)
		if err == errOtherKey {
			err = d.otherKey(s, ks, at, start-1, key, f, &refold)
		}
		if err != nil {
			return err
		}
	}
	if refold {
		d.refold(s, ks, start, f)
	}
	return nil
}

// objects reads the array field named list whose elements are objects,
// calling f with each element's path once its '{' has been read; f reads
// the element's fields. A null array or element reads as nothing; one of
// another type is recorded and skipped. It stops at the first error.
func (d *decoder) objects(s *jsonscan.Scanner, list string, f func(field fieldPath) error) error {
	ok, err := d.array(s, fieldPath{key: list})
	if !ok || err != nil {
		return err
	}
	for i, first := 0, true; ; i, first = i+1, false {
		more, err := s.NextElem(first)
		if err != nil {
			return err
		}
		if !more {
			return nil
		}
		field := fieldPath{list: list, i: i}
		ok, err := d.object(s, field)
		if err != nil {
			return err
		}
		if ok {
			if err := f(field); err != nil {
				return err
			}
		}
	}
}

// channelEntries reads an olm.channel's entries.
func (d *decoder) channelEntries(s *jsonscan.Scanner) ([]Entry, error) {
	d.entries = d.entries[:0]
	d.entryPos = d.entryPos[:0]
	err := d.objects(s, "entries", func(field fieldPath) error {
		var e Entry
		d.entryPos = append(d.entryPos, d.objectAt(s.Pos-1)) // the entry's '{'
		err := d.fields(s, &entryKeys, where{list: "entries", i: field.i}, func(key []byte) (err error) {
			switch string(key) {
			case "name":
				e.Name, err = d.str(s, field.with("name"), false)
			case "replaces":
				e.Replaces, err = d.str(s, field.with("replaces"), false)
			case "skipRange":
				var text string
				text, err = d.str(s, field.with("skipRange"), false)
				e.SkipRange = Range{}
				if err == nil && text != "" {
					e.SkipRange = d.parseRange(text)
				}
			case "skips":
				e.Skips, err = d.stringList(s, field.with("skips"))
			default:
				return errOtherKey
			}
			return err
		})
		d.entries = append(d.entries, e)
		return err
	})
	if err != nil {
		return nil, err
	}
	return toSlab(&d.entrySlab, d.entries, 1024), nil
}

// toSlab copies items to the end of *slab, a large array many small
// slices are carved from (a fresh one of at least chunk elements when *slab
// has no room), and returns the copy, capped at its length; nil when items
// is empty.
func toSlab[T any](slab *[]T, items []T, chunk int) []T {
	if len(items) == 0 {
		return nil
	}
	if cap(*slab)-len(*slab) < len(items) {
		*slab = make([]T, 0, max(len(items), chunk))
	}
	n := len(*slab)
	*slab = append(*slab, items...)
	return (*slab)[n:len(*slab):len(*slab)]
}

// stringList reads an array of strings.
func (d *decoder) stringList(s *jsonscan.Scanner, field fieldPath) ([]string, error) {
	ok, err := d.array(s, field)
	if !ok || err != nil {
		return nil, err
	}
	d.skips = d.skips[:0]
	for i, first := 0, true; ; i, first = i+1, false {
		more, err := s.NextElem(first)
		if err != nil {
			return nil, err
		}
		if !more {
			break
		}
		if s.Peek() != '"' {
			if err := d.wrongType(s, field.elem(i), "a string"); err != nil {
				return nil, err
			}
			continue
		}
		v, err := d.str(s, field, false)
		if err != nil {
			return nil, err
		}
		d.skips = append(d.skips, v)
	}
	return toSlab(&d.strSlab, d.skips, 1024), nil
}

// deprecationEntries reads an olm.deprecations blob's entries.
func (d *decoder) deprecationEntries(s *jsonscan.Scanner) ([]Deprecation, error) {
	var out []Deprecation
	err := d.objects(s, "entries", func(field fieldPath) error {
		var e Deprecation
		at := where{list: "entries", i: field.i}
		err := d.fields(s, &depEntryKeys, at, func(key []byte) (err error) {
			switch string(key) {
			case "message":
				e.Message, err = d.str(s, field.with("message"), false)
			case "reference":
				// The last reference is read, whole (opm's map keeps the
				// last); only spellings in other cases fill one in.
				if !d.merging {
					e.Reference = DeprecationRef{}
				}
				var ok bool
				ok, err = d.object(s, field.with("reference"))
				if !ok || err != nil {
					return err
				}
				return d.fields(s, &referenceKeys, where{list: at.list, i: at.i, sub: "reference"}, func(key []byte) (err error) {
					switch string(key) {
					case "schema":
						e.Reference.Schema, err = d.str(s, field.with("reference.schema"), true)
					case "name":
						e.Reference.Name, err = d.str(s, field.with("reference.name"), false)
					default:
						return errOtherKey
					}
					return err
				})
			default:
				return errOtherKey
			}
			return err
		})
		out = append(out, e)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// properties reads an olm.bundle's properties, keeping each value as raw
// bytes of the input.
func (d *decoder) properties(s *jsonscan.Scanner) ([]Property, error) {
	d.props = d.props[:0]
	err := d.objects(s, "properties", func(field fieldPath) error {
		var p Property
		err := d.fields(s, &propertyKeys, where{list: "properties", i: field.i}, func(key []byte) (err error) {
			switch string(key) {
			case "type":
				p.Type, err = d.str(s, field.with("type"), true)
			case "value":
				var v []byte
				if v, err = s.Value(); err == nil {
					p.Value = d.keepBytes(v)
				}
			default:
				return errOtherKey
			}
			return err
		})
		d.props = append(d.props, p)
		return err
	})
	if err != nil {
		return nil, err
	}
	return toSlab(&d.propSlab, d.props, 4096), nil
}

// relatedImages reads an olm.bundle's relatedImages.
func (d *decoder) relatedImages(s *jsonscan.Scanner) ([]RelatedImage, error) {
	var out []RelatedImage
	err := d.objects(s, "relatedImages", func(field fieldPath) error {
		var r RelatedImage
		err := d.fields(s, &relatedImageKeys, where{list: "relatedImages", i: field.i}, func(key []byte) (err error) {
			switch string(key) {
			case "name":
				r.Name, err = d.str(s, field.with("name"), false)
			case "image":
				r.Image, err = d.str(s, field.with("image"), false)
			default:
				return errOtherKey
			}
			return err
		})
		out = append(out, r)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// decodeYAML decodes the rest of the file — the window, then the reader —
// as a multi-document YAML stream, one blob per document. A document that
// is JSON text is decoded as a JSON stream.
func (d *decoder) decodeYAML() {
	var rest io.Reader = bytes.NewReader(d.data)
	if d.r != nil {
		rest = io.MultiReader(rest, d.r)
	}
	y := docstream.NewYAML(rest, d.maxBlob, d.base, d.line)
	d.r, d.eof = nil, true
	for !d.cancelled() {
		doc, err := y.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *docstream.SyntaxError
			if errors.As(err, &se) {
				d.errs = append(d.errs, &DecodeError{File: d.file, Line: se.Line, Offset: -1, Err: fmt.Errorf("invalid YAML: %w", err)})
				continue
			}
			d.readErr(err)
			continue
		}
		if doc.JSON {
			d.data, d.base, d.keep, d.doc = doc.Text, doc.TextOffset, true, nil
			// The text starts a line (after "---" on the mark's line:
			// columns are then counted from after the mark).
			d.line, d.lineOff, d.col, d.backOff = doc.TextLine, 0, 1, -1
			d.decodeJSON()
			continue
		}
		pos := Position{File: d.file, Line: doc.Line, Column: 1, Offset: doc.Offset}
		d.doc, d.docText, d.docLine, d.docBytes = &pos, doc.TextOffset, doc.TextLine, doc.Text
		j, err := d.yaml.Convert(doc.Text)
		if err != nil {
			d.errs = append(d.errs, yamlError(pos, doc.TextLine, docstream.LastLine(doc.Text, doc.TextLine), err))
			continue
		}
		if len(j) == 0 || string(j) == "null" {
			continue // an empty document
		}
		// j is the converter's, reused for the next document: keep copies.
		d.data, d.base, d.keep, d.backOff = j, 0, true, -1
		if j[0] != '{' {
			d.errorAt(0, "", fmt.Errorf("document is %s, want a mapping", jsonscan.Kind(j[0])))
			continue
		}
		s := jsonscan.Scanner{Data: j}
		_ = d.decodeBlob(&s) // recorded
	}
	d.doc, d.data = nil, nil
}

// yamlError makes a DecodeError of a YAML syntax error, moving the line the
// YAML library names (relative to the document) to the file; past the end
// of the document it names the document's last line.
func yamlError(pos Position, firstLine, lastLine int, err error) *DecodeError {
	line, msg, ok := docstream.YAMLErrorLine(err, firstLine, lastLine)
	if ok {
		pos.Line = line
	}
	return &DecodeError{File: pos.File, Line: pos.Line, Offset: pos.Offset, Err: fmt.Errorf("invalid YAML: %s", msg)}
}

// bundleTyper types the properties of olm.bundle blobs (applyProperties)
// on a goroutine of its own while the decoder scans the next blobs, so that
// the two share the machine's cores. The problems it finds are placed among
// the decoder's, at the point each bundle was read, by finishBundles.
type bundleTyper struct {
	jobs  chan *Bundle
	done  chan struct{}
	marks []bundleMark
}

// bundleMark is a bundle handed to the typer and where its problems go.
type bundleMark struct {
	at     int // len(d.errs) when the bundle was read
	bundle *Bundle
}

// typeBundle has bd's properties typed, on the typer's goroutine (started
// with the first bundle; the builder's interner is then the typer's alone
// until finishBundles).
func (d *decoder) typeBundle(bd *Bundle) {
	t := d.typing
	if t == nil {
		if d.b.in == nil {
			d.b.in = newInterner()
		}
		t = &bundleTyper{jobs: make(chan *Bundle, 256), done: make(chan struct{})}
		d.typing = t
		go func(in *interner) {
			defer close(t.done)
			for b := range t.jobs {
				applyProperties(b, b.Properties, in)
			}
		}(d.b.in)
	}
	t.marks = append(t.marks, bundleMark{at: len(d.errs), bundle: bd})
	t.jobs <- bd
}

// finishBundles waits for the typer and adds one DecodeError per malformed
// property of each bundle, at the place the bundle was read, as if it had
// been typed then.
func (d *decoder) finishBundles() {
	t := d.typing
	if t == nil {
		return
	}
	d.typing = nil
	close(t.jobs)
	<-t.done
	var errs []error
	j := 0
	for _, m := range t.marks {
		err := m.bundle.propErr
		if err == nil {
			continue
		}
		if errs == nil {
			errs = make([]error, 0, len(d.errs)+len(t.marks))
		}
		errs = append(errs, d.errs[j:m.at]...)
		j = m.at
		list := []error{err}
		if u, ok := err.(interface{ Unwrap() []error }); ok {
			list = u.Unwrap()
		}
		pos := m.bundle.Pos
		object := (&blob{schema: SchemaBundle, name: m.bundle.Name}).object()
		for _, err := range list {
			errs = append(errs, &DecodeError{File: pos.File, Line: pos.Line, Offset: pos.Offset, Object: object, Err: err})
		}
	}
	if errs != nil {
		d.errs = append(errs, d.errs[j:]...)
	}
}
