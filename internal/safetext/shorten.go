package safetext

import (
	"strings"
	"unicode/utf8"
)

// unit is one piece of text that is printed, and cut, whole: a character,
// a [Hidden] character (printed as its escape), a byte that is not UTF-8
// (copied as it is), or a backslash escape as
// %q writes it (\", \\, \n, \x1b, \u202e, \U000e0001).
type unit struct {
	start, end int // byte offsets in the text
	width      int // characters it takes printed
}

// units splits s into the pieces a cut must keep whole.
func units(s string) []unit {
	out := make([]unit, 0, len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		w := 1
		switch {
		case r == '\\' && i+1 < len(s):
			n = 1 + escapeLen(s[i+1:])
			w = n
		case Hidden(r):
			w = len(Append(nil, []byte(s[i:i+n])))
		}
		out = append(out, unit{i, i + n, w})
		i += n
	}
	return out
}

// escapeLen returns the length of the escape that follows a backslash:
// \xNN, \uNNNN and \UNNNNNNNN with their hexadecimal digits, one
// character for the others (\n, \", \\).
func escapeLen(s string) int {
	digits := 0
	switch s[0] {
	case 'x':
		digits = 2
	case 'u':
		digits = 4
	case 'U':
		digits = 8
	}
	n := 1
	for n <= digits && n < len(s) && isHex(s[n]) {
		n++
	}
	if n == 1 {
		_, size := utf8.DecodeRuneInString(s)
		return size
	}
	return n
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// Width returns how many characters s takes when text output prints it:
// a [Hidden] character counts as its escape (\x1b: four), every other
// character as one.
func Width(s string) int {
	w := 0
	for _, u := range units(s) {
		w += u.width
	}
	return w
}

// ellipsis marks where [Shorten] took text out.
const ellipsis = " … "

// wordSlack is how far [Shorten] moves the cut before the end to fall on
// a space (up to a quarter of the end, when that is more); the cut after
// the start goes back to the start's last space.
const wordSlack = 12

// Shorten returns s within width characters (as [Width] counts them): s
// itself when it fits, else its start and its end around " … ", the start
// taking a third of the room and the end the rest (the end of a message
// usually says what is wrong, its start what it is about; a start of less
// than two whole words is left out, its room given to the end). A cut never
// falls inside a character, a [Hidden] character's escape or a backslash
// escape, and moves to fall between words where it can. The
// same s and width always give the same text; a width below 8 counts as 8.
func Shorten(s string, width int) string {
	us := units(s)
	total := 0
	for _, u := range us {
		total += u.width
	}
	if total <= width {
		return s
	}
	room := max(width, 8) - Width(ellipsis)
	// The head: whole units while they fit, then back to a space.
	h, hw := 0, 0
	for h < len(us) && hw+us[h].width <= room/3 {
		hw += us[h].width
		h++
	}
	for i := h - 1; i >= 0 && !isSpace(s, us, h); i-- {
		if isSpace(s, us, i) {
			h = i
			break
		}
	}
	// A start of one word, or of part of one, says little: its room goes
	// to the end.
	if !isSpace(s, us, h) || !strings.Contains(strings.TrimRight(s[:unitEnd(us, h)], " "), " ") {
		h = 0
	}
	hw = 0
	for _, u := range us[:h] {
		hw += u.width
	}
	// The tail: whole units from the end while they fit, then on to a space.
	t, tw := len(us), 0
	for t > h && hw+tw+us[t-1].width <= room {
		tw += us[t-1].width
		t--
	}
	slack := max(wordSlack, tw/4)
	for i := t; i < len(us)-1 && i-t < slack && !isSpace(s, us, t-1); i++ {
		if isSpace(s, us, i) {
			t = i + 1
			break
		}
	}
	head := strings.TrimRight(s[:unitEnd(us, h)], " ")
	tail := strings.TrimLeft(s[unitStart(us, t, len(s)):], " ")
	switch {
	case head == "":
		return strings.TrimLeft(ellipsis, " ") + tail
	case tail == "":
		return head + strings.TrimRight(ellipsis, " ")
	}
	return head + ellipsis + tail
}

// isSpace reports whether unit i is a space (false outside the units).
func isSpace(s string, us []unit, i int) bool {
	return i >= 0 && i < len(us) && s[us[i].start] == ' '
}

// unitEnd returns the byte offset where the first n units end.
func unitEnd(us []unit, n int) int {
	if n == 0 {
		return 0
	}
	return us[n-1].end
}

// unitStart returns the byte offset where unit i starts; end past the last.
func unitStart(us []unit, i, end int) int {
	if i >= len(us) {
		return end
	}
	return us[i].start
}
