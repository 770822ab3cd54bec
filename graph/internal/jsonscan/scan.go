// Package jsonscan is a small, allocation-free JSON scanner for decoding
// File-Based Catalogs fast: it walks one byte slice once, hands out strings
// and raw values as subslices of it, and validates the syntax of everything
// it skips.
//
// A Scanner is a cursor: callers drive it value by value (BeginObject and
// NextKey, BeginArray and NextElem, String, Value, Skip). Every error is a
// *SyntaxError with the byte offset where the input went wrong.
package jsonscan

import (
	"encoding/binary"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth bounds the nesting of arrays and objects, so that a hostile input
// cannot exhaust the stack.
const MaxDepth = 10000

// SyntaxError is malformed JSON at byte Offset of the scanned input.
type SyntaxError struct {
	Offset int
	Msg    string
}

// Error implements error.
func (e *SyntaxError) Error() string { return e.Msg }

// Scanner reads JSON values from Data starting at Pos. The zero value scans
// nothing; set Data (and Pos). A Scanner never modifies Data.
type Scanner struct {
	Data []byte
	Pos  int
	// KeyPos is the offset of the opening quote of the key NextKey read
	// last.
	KeyPos int
}

func (s *Scanner) errorf(off int, format string, args ...any) error {
	return &SyntaxError{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// unexpected returns the error for byte at s.Pos not being what was wanted.
func (s *Scanner) unexpected(want string) error {
	if s.Pos >= len(s.Data) {
		return s.errorf(s.Pos, "unexpected end of input, want %s", want)
	}
	return s.errorf(s.Pos, "invalid character %s, want %s", quoteByte(s.Data[s.Pos]), want)
}

func quoteByte(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	if c >= 0x20 && c < 0x7f {
		return "'" + string(rune(c)) + "'"
	}
	return fmt.Sprintf("0x%02x", c)
}

// isSpace is JSON white space.
var isSpace = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

// SkipSpace advances past white space.
func (s *Scanner) SkipSpace() {
	d, i := s.Data, s.Pos
	for i < len(d) && isSpace[d[i]] {
		i++
	}
	s.Pos = i
}

// Peek skips white space and returns the next byte, or 0 at the end.
func (s *Scanner) Peek() byte {
	if s.Pos < len(s.Data) && s.Data[s.Pos] > ' ' {
		return s.Data[s.Pos] // the common case: no white space
	}
	s.SkipSpace()
	if s.Pos < len(s.Data) {
		return s.Data[s.Pos]
	}
	return 0
}

// AtEnd skips white space and reports whether the input is exhausted.
func (s *Scanner) AtEnd() bool {
	s.SkipSpace()
	return s.Pos >= len(s.Data)
}

// Kind describes the JSON value starting with byte c, for messages:
// "an object", "an array", "a string", "a number", "a boolean", "null".
func Kind(c byte) string {
	switch c {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return "a number"
	case 0:
		return "nothing"
	}
	return "not a JSON value"
}

// BeginObject consumes '{' (after white space).
func (s *Scanner) BeginObject() error { return s.begin('{', "'{'") }

// begin consumes open, '{' or '[' (after white space); want words it for
// the error.
func (s *Scanner) begin(open byte, want string) error {
	if s.Peek() != open {
		return s.unexpected(want)
	}
	s.Pos++
	return nil
}

// NextKey moves to the next member of the object begun by BeginObject:
// first is true for the first call. It returns the key's raw text (between
// the quotes; escaped reports backslashes in it) and leaves the scanner at
// the member's value. At the closing '}' it consumes it and returns ok false.
func (s *Scanner) NextKey(first bool) (key []byte, escaped, ok bool, err error) {
	c := s.Peek()
	if c == '}' {
		s.Pos++
		return nil, false, false, nil
	}
	if !first {
		if c != ',' {
			return nil, false, false, s.unexpected("',' or '}'")
		}
		s.Pos++
		c = s.Peek()
	}
	if c != '"' {
		return nil, false, false, s.unexpected("a string key")
	}
	s.KeyPos = s.Pos
	key, escaped, err = s.String()
	if err != nil {
		return nil, false, false, err
	}
	if s.Peek() != ':' {
		return nil, false, false, s.unexpected("':'")
	}
	s.Pos++
	s.SkipSpace()
	return key, escaped, true, nil
}

// NextKeyUnescaped is NextKey with the key unescaped: a subslice of Data,
// or a fresh copy when the key holds escape sequences.
func (s *Scanner) NextKeyUnescaped(first bool) (key []byte, ok bool, err error) {
	key, escaped, ok, err := s.NextKey(first)
	if escaped {
		key = Unescape(nil, key)
	}
	return key, ok, err
}

// BeginArray consumes '[' (after white space).
func (s *Scanner) BeginArray() error { return s.begin('[', "'['") }

// NextElem moves to the next element of the array begun by BeginArray:
// first is true for the first call. At the closing ']' it consumes it and
// returns ok false.
func (s *Scanner) NextElem(first bool) (ok bool, err error) {
	c := s.Peek()
	if c == ']' {
		s.Pos++
		return false, nil
	}
	if !first {
		if c != ',' {
			return false, s.unexpected("',' or ']'")
		}
		s.Pos++
		s.SkipSpace()
	}
	return true, nil
}

// strSafe marks the bytes that need no attention inside a string.
var strSafe = func() (t [256]bool) {
	for i := 0x20; i < 256; i++ {
		t[i] = true
	}
	t['"'] = false
	t['\\'] = false
	return t
}()

// String reads a string (after white space) and returns its raw text between
// the quotes, a subslice of Data. escaped reports that it holds escape
// sequences: then pass it to Unescape.
func (s *Scanner) String() (raw []byte, escaped bool, err error) {
	if s.Peek() != '"' {
		return nil, false, s.unexpected("a string")
	}
	d := s.Data
	start := s.Pos + 1
	i := start
	for {
		// Eight bytes at a time while none of them needs attention.
		for i+8 <= len(d) {
			x := binary.LittleEndian.Uint64(d[i:])
			if (x-lo*0x20)&^x&hi|hasZero(x^(lo*'"'))|hasZero(x^(lo*'\\')) != 0 {
				break
			}
			i += 8
		}
		for i < len(d) && strSafe[d[i]] {
			i++
		}
		if i >= len(d) {
			return nil, false, s.errorf(len(d), "unexpected end of input in string")
		}
		switch c := d[i]; {
		case c == '"':
			s.Pos = i + 1
			return d[start:i], escaped, nil
		case c == '\\':
			escaped = true
			if i+1 >= len(d) {
				return nil, false, s.errorf(len(d), "unexpected end of input in string")
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(d) {
					return nil, false, s.errorf(len(d), "unexpected end of input in string")
				}
				for _, h := range d[i+2 : i+6] {
					if unhex(h) < 0 {
						return nil, false, s.errorf(i, "invalid escape %q in string", d[i:i+6])
					}
				}
				i += 6
			default:
				return nil, false, s.errorf(i, "invalid escape %q in string", d[i:i+2])
			}
		default:
			return nil, false, s.errorf(i, "invalid control character %s in string", quoteByte(c))
		}
	}
}

const (
	lo = 0x0101010101010101
	hi = 0x8080808080808080
)

// hasZero is non-zero when some byte of x is zero.
func hasZero(x uint64) uint64 { return (x - lo) &^ x & hi }

func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c - 'a' + 10)
	case 'A' <= c && c <= 'F':
		return int(c - 'A' + 10)
	}
	return -1
}

// Unescape appends to dst the string whose raw text (validated by String) is
// raw, with escape sequences decoded. Invalid surrogates become U+FFFD, as
// encoding/json does.
func Unescape(dst, raw []byte) []byte {
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			dst = append(dst, c)
			i++
			continue
		}
		if i+1 >= len(raw) {
			return dst
		}
		switch raw[i+1] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, n := decodeU(raw[i:])
			dst = utf8.AppendRune(dst, r)
			i += n
			continue
		default: // '"', '\\', '/'
			dst = append(dst, raw[i+1])
		}
		i += 2
	}
	return dst
}

// decodeU decodes a \uXXXX escape (and a following low surrogate) at the
// start of b, returning the rune and the bytes consumed.
func decodeU(b []byte) (rune, int) {
	r := hex4(b)
	if r < 0 {
		return utf8.RuneError, len(b)
	}
	if utf16.IsSurrogate(rune(r)) {
		if len(b) >= 12 && b[6] == '\\' && b[7] == 'u' {
			if r2 := hex4(b[6:]); r2 >= 0 {
				if d := utf16.DecodeRune(rune(r), rune(r2)); d != utf8.RuneError {
					return d, 12
				}
			}
		}
		return utf8.RuneError, 6
	}
	return rune(r), 6
}

func hex4(b []byte) int {
	if len(b) < 6 {
		return -1
	}
	r := 0
	for _, c := range b[2:6] {
		h := unhex(c)
		if h < 0 {
			return -1
		}
		r = r<<4 | h
	}
	return r
}

// Value skips one value (after white space) and returns its raw text.
func (s *Scanner) Value() ([]byte, error) {
	s.SkipSpace()
	start := s.Pos
	if err := s.skip(0); err != nil {
		return nil, err
	}
	return s.Data[start:s.Pos], nil
}

// Skip skips one value (after white space), checking its syntax.
func (s *Scanner) Skip() error {
	s.SkipSpace()
	return s.skip(0)
}

func (s *Scanner) skip(depth int) error {
	if s.Pos >= len(s.Data) {
		return s.unexpected("a value")
	}
	switch c := s.Data[s.Pos]; c {
	case '"':
		_, _, err := s.String()
		return err
	case '{', '[':
		if depth >= MaxDepth {
			return s.errorf(s.Pos, "exceeded max depth %d", MaxDepth)
		}
		s.Pos++
		for first := true; ; first = false {
			// The next member's value, or the next element.
			var ok bool
			var err error
			if c == '{' {
				_, _, ok, err = s.NextKey(first)
			} else {
				ok, err = s.NextElem(first)
			}
			if err != nil {
				return err
			}
			if !ok {
				return nil
			}
			if err := s.skip(depth + 1); err != nil {
				return err
			}
		}
	case 't':
		return s.literal("true")
	case 'f':
		return s.literal("false")
	case 'n':
		return s.literal("null")
	default:
		if c == '-' || ('0' <= c && c <= '9') {
			return s.number()
		}
		return s.unexpected("a value")
	}
}

func (s *Scanner) literal(lit string) error {
	d := s.Data[s.Pos:]
	for i := 0; i < len(lit); i++ {
		if i >= len(d) {
			return s.errorf(s.Pos+i, "unexpected end of input in literal %s", lit)
		}
		if d[i] != lit[i] {
			return s.errorf(s.Pos+i, "invalid character %s in literal %s", quoteByte(d[i]), lit)
		}
	}
	s.Pos += len(lit)
	return nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// number skips a number, checking its grammar.
func (s *Scanner) number() error {
	d, i := s.Data, s.Pos
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && isDigit(d[i]):
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	default:
		s.Pos = i
		return s.unexpected("a digit")
	}
	var err error
	if i < len(d) && d[i] == '.' {
		if i, err = s.digits(i+1, "a digit after the decimal point"); err != nil {
			return err
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i, err = s.digits(i, "a digit in the exponent"); err != nil {
			return err
		}
	}
	s.Pos = i
	return nil
}

// digits skips the one or more digits of a number's fraction or exponent
// that start at i in Data, returning the index after them; want words a
// missing digit for the error, which is at i.
func (s *Scanner) digits(i int, want string) (int, error) {
	d := s.Data
	if i >= len(d) || !isDigit(d[i]) {
		s.Pos = i
		return i, s.unexpected(want)
	}
	for i < len(d) && isDigit(d[i]) {
		i++
	}
	return i, nil
}

// AppendCompact appends v, a valid JSON value (as Skip accepts), to dst
// without the white space outside its strings.
func AppendCompact(dst, v []byte) []byte {
	for i := 0; i < len(v); {
		c := v[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(v) && v[j] != '"' {
				if v[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(v))
			dst = append(dst, v[i:j]...)
			i = j
		case isSpace[c]:
			i++
		default:
			j := i + 1
			for j < len(v) && v[j] != '"' && !isSpace[v[j]] {
				j++
			}
			dst = append(dst, v[i:j]...)
			i = j
		}
	}
	return dst
}
