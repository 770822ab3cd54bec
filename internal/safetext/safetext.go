// Package safetext is the one place where text for a person is made safe to
// print: names read from catalogs and manifests cannot move the cursor,
// recolour a terminal, forge a line or reorder what a reader sees (a
// right-to-left override or a zero-width character hides what a name is).
//
// Every escape is written as Go's %q writes it (\x1b, \r, \u202e), so a
// name reads the same in an error, a report header or a note.
package safetext

import (
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Hidden reports whether r is a character that text output escapes
// wherever it appears: a control character (Unicode category Cc) other
// than line feed and tab, a format character (category Cf: bidi controls
// such as U+202E, zero-width characters U+200B–U+200F and U+2060–U+2064,
// U+FEFF), or a line or paragraph separator (U+2028, U+2029).
func Hidden(r rune) bool {
	if r == '\n' || r == '\t' {
		return false
	}
	return unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029
}

// Name returns a name from a catalog or manifest as text prints it: as
// written when it is valid UTF-8 of printable characters and spaces, else
// quoted as %q quotes it, so that "nm\u202etxt.exe" prints as
// "nm\u202etxt.exe" and a line feed in a name cannot start a forged line.
func Name(s string) string {
	for _, r := range s {
		if r == utf8.RuneError || (!unicode.IsPrint(r) && r != ' ') {
			return strconv.Quote(s)
		}
	}
	return s
}

// Append appends p to dst with every [Hidden] character escaped as %q
// would write it (\r, \x1b, \u202e, \U000e0001); everything else, invalid
// UTF-8 included, is copied as it is (a stream may cut a character in two
// between writes).
func Append(dst, p []byte) []byte {
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRune(p[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			dst = append(dst, p[i])
			n = 1
		case !Hidden(r):
			dst = append(dst, p[i:i+n]...)
		case r == '\r':
			dst = append(dst, `\r`...)
		case r < utf8.RuneSelf:
			dst = fmt.Appendf(dst, `\x%02x`, r)
		case r <= 0xffff:
			dst = fmt.Appendf(dst, `\u%04x`, r)
		default:
			dst = fmt.Appendf(dst, `\U%08x`, r)
		}
		i += n
	}
	return dst
}

// Clean reports whether p holds no [Hidden] character, so that it can be
// written as it is.
func Clean(p []byte) bool {
	for i := 0; i < len(p); {
		c := p[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(p[i:])
		if Hidden(r) {
			return false
		}
		i += n
	}
	return true
}
