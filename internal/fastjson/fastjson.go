// Package fastjson checks and walks JSON text without decoding it:
// Valid gives encoding/json.Valid's answer several times faster (and
// ValidObject the members of the object it checked), End and Members find
// the values of valid JSON by their offsets, so that package cluster can
// split the List documents `kubectl get -o json` prints into their items
// and look at an item's top-level fields before (or instead of) decoding
// it. FuzzValid holds them to encoding/json.
package fastjson

import (
	"encoding/json"
	"iter"
)

// maxDepth is the deepest nesting of objects and arrays encoding/json
// takes.
const maxDepth = 10000

// Valid reports whether data is one JSON value, with white space around
// it: what encoding/json.Valid reports (a string's bytes beyond ASCII are
// not checked to be UTF-8, as encoding/json does not; at most 10,000
// nested objects and arrays).
func Valid(data []byte) bool { return validate(data, nil) }

// ValidObject is Valid, and returns the members of data when it is an
// object (nil for any other value), as Members finds them.
func ValidObject(data []byte) (members []Member, ok bool) {
	members = []Member{}
	if !validate(data, &members) {
		return nil, false
	}
	if len(members) == 0 {
		if i := space(data, 0); data[i] != '{' {
			members = nil
		}
	}
	return members, true
}

// validate reports whether data is valid JSON (Valid), and when members
// is not nil, appends to it the members of the top-level object.
func validate(data []byte, members *[]Member) bool {
	var open [64]byte // the open objects and arrays, innermost last
	stack := open[:0]
	var m Member // the top-level member being read
	// member records the top-level member whose key is data[k:e] (its
	// quotes included) and whose value starts at v, when stack is the
	// top-level object.
	member := func(k, e, v int) {
		if members != nil && len(stack) == 1 && stack[0] == '{' {
			m = Member{Key: data[k+1 : e-1], Start: v}
		}
	}
	i := space(data, 0)
	for {
		// A value starts at i.
		if i >= len(data) {
			return false
		}
		var ok bool
		switch data[i] {
		case '{', '[':
			if len(stack) == maxDepth {
				return false
			}
			stack = append(stack, data[i])
			i = space(data, i+1)
			if i < len(data) && data[i] == stack[len(stack)-1]+2 { // "{}", "[]": '}' is '{'+2, ']' is '['+2
				stack = stack[:len(stack)-1]
				i++
				break
			}
			if stack[len(stack)-1] == '{' {
				k, e := i, 0
				if e, i, ok = key(data, i); !ok {
					return false
				}
				member(k, e, i)
			}
			continue
		default:
			if i, ok = scalar(data, i); !ok {
				return false
			}
		}
		// A value ended before i: what follows it.
		for {
			if members != nil && len(stack) == 1 && stack[0] == '{' {
				m.End = i
				*members = append(*members, m)
			}
			i = space(data, i)
			if len(stack) == 0 {
				return i == len(data)
			}
			if i >= len(data) {
				return false
			}
			top := stack[len(stack)-1]
			if c := data[i]; c == top+2 { // '}' closes '{', ']' closes '['
				stack = stack[:len(stack)-1]
				i++
				continue
			} else if c != ',' {
				return false
			}
			i = space(data, i+1)
			if top == '{' {
				k, e := i, 0
				if e, i, ok = key(data, i); !ok {
					return false
				}
				member(k, e, i)
			}
			break
		}
	}
}

// scalar reads the string, number, true, false or null at i, returning
// the index past it.
func scalar(data []byte, i int) (int, bool) {
	switch data[i] {
	case '"':
		return str(data, i)
	case 't':
		return literal(data, i, "true")
	case 'f':
		return literal(data, i, "false")
	case 'n':
		return literal(data, i, "null")
	}
	return number(data, i)
}

// key reads an object's key at i, the colon after it and the white space
// around it, returning where the key ends (past its closing quote) and
// where its value starts.
func key(data []byte, i int) (end, value int, ok bool) {
	if i >= len(data) || data[i] != '"' {
		return 0, 0, false
	}
	if end, ok = str(data, i); !ok {
		return 0, 0, false
	}
	i = space(data, end)
	if i >= len(data) || data[i] != ':' {
		return 0, 0, false
	}
	return end, space(data, i+1), true
}

// space returns the index of the first byte from i that is not JSON white
// space.
func space(data []byte, i int) int {
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	return i
}

// isSpace reports whether c is JSON white space.
func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// literal reads the word w (true, false, null) at i.
func literal(data []byte, i int, w string) (int, bool) {
	if len(data)-i < len(w) || string(data[i:i+len(w)]) != w {
		return 0, false
	}
	return i + len(w), true
}

// number reads a number at i: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func number(data []byte, i int) (int, bool) {
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && '1' <= data[i] && data[i] <= '9':
		i = digits(data, i)
	default:
		return 0, false
	}
	if i < len(data) && data[i] == '.' {
		j := digits(data, i+1)
		if j == i+1 {
			return 0, false
		}
		i = j
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		j := digits(data, i)
		if j == i {
			return 0, false
		}
		i = j
	}
	return i, true
}

// digits returns the index of the first byte from i that is not a digit.
func digits(data []byte, i int) int {
	for i < len(data) && '0' <= data[i] && data[i] <= '9' {
		i++
	}
	return i
}

// str reads the string whose quote is at i, returning the index past its
// closing quote: no control character, only JSON's escapes.
func str(data []byte, i int) (int, bool) {
	for i++; ; {
		// Runs of bytes with nothing to check, eight at a time.
		for i+8 <= len(data) && strPlain[data[i]]&strPlain[data[i+1]]&strPlain[data[i+2]]&strPlain[data[i+3]]&
			strPlain[data[i+4]]&strPlain[data[i+5]]&strPlain[data[i+6]]&strPlain[data[i+7]] != 0 {
			i += 8
		}
		for i < len(data) && strPlain[data[i]] != 0 {
			i++
		}
		if i >= len(data) {
			return 0, false
		}
		switch c := data[i]; {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return 0, false
		}
		// A backslash.
		if i+1 >= len(data) {
			return 0, false
		}
		switch data[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i += 2
		case 'u':
			if len(data)-i < 6 || !isHex(data[i+2]) || !isHex(data[i+3]) || !isHex(data[i+4]) || !isHex(data[i+5]) {
				return 0, false
			}
			i += 6
		default:
			return 0, false
		}
	}
}

// strPlain is 1 for the bytes a string holds as they are: all but the
// controls, the quote and the backslash.
var strPlain = func() (t [256]uint8) {
	for c := 0x20; c < 256; c++ {
		t[c] = 1
	}
	t['"'], t['\\'] = 0, 0
	return t
}()

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// End returns the index past the value that starts at data[i] (no white
// space before it), in valid JSON.
func End(data []byte, i int) int {
	switch data[i] {
	case '"':
		e, _ := str(data, i)
		return e
	case '{', '[':
	default:
		for i < len(data) && !isSpace(data[i]) && data[i] != ',' && data[i] != '}' && data[i] != ']' {
			i++
		}
		return i
	}
	depth := 0
	for {
		// Runs of bytes that neither open nor close anything, eight at a
		// time.
		for i+8 <= len(data) && structural[data[i]]|structural[data[i+1]]|structural[data[i+2]]|structural[data[i+3]]|
			structural[data[i+4]]|structural[data[i+5]]|structural[data[i+6]]|structural[data[i+7]] == 0 {
			i += 8
		}
		switch data[i] {
		case '"':
			i, _ = str(data, i)
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1
			}
		}
		i++
	}
}

// structural is 1 for the bytes End stops at in an object or array.
var structural = func() (t [256]uint8) {
	for _, c := range `"{}[]` {
		t[c] = 1
	}
	return t
}()

// Member is one member of an object: its key, as written between the
// quotes (Key decodes it), and the offsets of its value.
type Member struct {
	Key        []byte
	Start, End int
}

// Members returns the members of the object that starts at data[i], in
// valid JSON, in order (a key written twice comes twice).
func Members(data []byte, i int) iter.Seq[Member] {
	return func(yield func(Member) bool) {
		i := space(data, i+1)
		for i < len(data) && data[i] == '"' {
			k := End(data, i)
			v := space(data, space(data, k)+1)
			e := End(data, v)
			if !yield(Member{Key: data[i+1 : k-1], Start: v, End: e}) {
				return
			}
			i = space(data, e)
			if data[i] == ',' {
				i = space(data, i+1)
			}
		}
	}
}

// After returns the index of the first byte from i that is not white
// space.
func After(data []byte, i int) int { return space(data, i) }

// Key returns a member's key decoded.
func Key(raw []byte) string {
	for _, c := range raw {
		if c == '\\' || c >= 0x80 {
			var s string
			q := make([]byte, 0, len(raw)+2)
			q = append(append(append(q, '"'), raw...), '"')
			if json.Unmarshal(q, &s) != nil {
				return string(raw)
			}
			return s
		}
	}
	return string(raw)
}
