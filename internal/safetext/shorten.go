package safetext

import (
	"fmt"
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

// Shorten returns s within width characters (as [Width] counts them): s
// itself when it fits, else a start and an end of it around " … ", cut
// only between words, never inside one — a name, a version, a quoted
// string with its spaces (%q's "a b"), an API's kind with its version
// ("Keycloak v1alpha1") and "and N more" are words — so that what is shown
// of a name is all of it. In this order, the first that fits:
//
//  1. whole clauses (the parts of s that end in ",", ";" or ":", outside
//     parentheses and quoted strings), the first and the last kept: the
//     cut that keeps the most, the longest start of those that keep as
//     much; list items taken out are counted: "drops 18 APIs: A, B, … 15
//     more, R";
//  2. the verdict at the end — a last clause of half the room at most
//     ("unmet", "which is not an entry of the channel"), or "and N more"
//     with the word after it — and the most whole words of the start, two
//     at least, when that keeps half the room: "requires API
//     example.com/v1alpha1 … unmet"; for "and N more" with no start of two
//     words, the end from the item before it: "… "a.v1.9.0" and 1 more";
//  3. the most whole words of the start, when that keeps half the room:
//     the start says what a brief is about and what is wrong with it, "no
//     path to head 1.16.5 any more (1 hop before): its upgrades …";
//  4. whole words, a start of up to a third of the room (none when that
//     is less than two words) and an end in the rest.
//
// A last word wider than the whole room is the one thing cut inside: "… "
// and its end, never inside a character, a [Hidden] character's escape or
// a backslash escape. Spaces before the first word are kept, up to a
// quarter of the room. The same s and width always give the same text; a
// width below 8 counts as 8.
func Shorten(s string, width int) string {
	us := units(s)
	total := 0
	for _, u := range us {
		total += u.width
	}
	room := max(width, 8)
	if total <= room {
		return s
	}
	if indent := len(s) - len(strings.TrimLeft(s, " ")); indent > room/4 {
		if indent == len(s) {
			return s[:room] // spaces only
		}
		s = s[indent-room/4:] // the indent kept takes a quarter of the room at most
		us = units(s)
	}
	t := newText(s, us)
	if c, ok := t.byClauses(room); ok {
		return t.text(c)
	}
	if c, ok := t.toVerdict(room); ok && 2*c.kept >= room {
		return t.text(c)
	}
	if c, ok := t.headOnly(room); ok && 2*c.kept >= room {
		return t.text(c)
	}
	if c, ok := t.byWords(room); ok {
		return t.text(c)
	}
	return t.lastWordEnd(room)
}

// word is a word of a text: units between spaces, or a quoted string
// ("…" with its closing quote, and the spaces inside it) and the units
// that follow it up to a space.
type word struct {
	start, end int  // unit indexes
	clause     bool // a clause starts at it
	item       bool // the clause that ends with it ends with ",": a list item
}

// text is a text split into units and words, with the width of every
// run of units at hand.
type text struct {
	s     string
	us    []unit
	sum   []int // sum[i]: width of us[:i]
	words []word
}

func newText(s string, us []unit) *text {
	t := &text{s: s, us: us, sum: make([]int, len(us)+1)}
	for i, u := range us {
		t.sum[i+1] = t.sum[i] + u.width
	}
	// A quote opens a quoted string only when another closes it: %q's
	// inner quotes are escapes, so quotes pair in order.
	var quotes []int
	for i := range us {
		if t.is(i, '"') {
			quotes = append(quotes, i)
		}
	}
	closer := map[int]int{}
	for i := 0; i+1 < len(quotes); i += 2 {
		closer[quotes[i]] = quotes[i+1]
	}
	depth := 0 // parentheses open outside quoted strings
	for i := 0; i < len(us); {
		if t.is(i, ' ') {
			i++
			continue
		}
		w := word{start: i, clause: len(t.words) == 0}
		if n := len(t.words); n > 0 && depth == 0 {
			last := us[t.words[n-1].end-1]
			switch s[last.start:last.end] {
			case ",", ";", ":":
				w.clause = true // the word before ends a clause
			}
		}
		for i < len(us) && !t.is(i, ' ') {
			if c, ok := closer[i]; ok {
				i = c + 1
				continue
			}
			switch {
			case t.is(i, '('):
				depth++
			case t.is(i, ')'):
				depth = max(depth-1, 0)
			}
			i++
		}
		w.end = i
		t.words = append(t.words, w)
	}
	t.bind()
	// A clause is an item when its last word ends with a comma.
	for j := range t.words {
		if j+1 == len(t.words) || t.words[j+1].clause {
			last := us[t.words[j].end-1]
			t.words[j].item = s[last.start:last.end] == ","
		}
	}
	return t
}

// bind joins the words that read as one into one: an API's kind and its
// version ("Keycloak v1alpha1"), and "and N more", so that no cut parts
// them.
func (t *text) bind() {
	ws := t.words
	bound := make([]bool, len(ws))
	for j := 1; j < len(ws); j++ {
		if ws[j].clause {
			continue
		}
		w := strings.TrimRight(t.wordText(ws[j]), ",;:)")
		prev := t.wordText(ws[j-1])
		bound[j] = isAPIVersion(w) ||
			prev == "and" && isNumber(w) ||
			j >= 2 && w == "more" && isNumber(prev) && t.wordText(ws[j-2]) == "and"
	}
	out := ws[:0]
	for j, w := range ws {
		if bound[j] {
			out[len(out)-1].end = w.end
			continue
		}
		out = append(out, w)
	}
	t.words = out
}

// wordText returns the text of w.
func (t *text) wordText(w word) string {
	return t.s[t.us[w.start].start:t.us[w.end-1].end]
}

// isAPIVersion reports whether s is a Kubernetes API version: v1,
// v1alpha1, v2beta3.
func isAPIVersion(s string) bool {
	rest, ok := strings.CutPrefix(s, "v")
	if !ok {
		return false
	}
	d := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
	if d == 0 {
		return false
	}
	rest = rest[d:]
	for _, stage := range []string{"alpha", "beta"} {
		if r, ok := strings.CutPrefix(rest, stage); ok {
			return isNumber(r)
		}
	}
	return rest == ""
}

// is reports whether unit i is the one byte c.
func (t *text) is(i int, c byte) bool {
	u := t.us[i]
	return u.end-u.start == 1 && t.s[u.start] == c
}

// width returns the width of units [i, j).
func (t *text) width(i, j int) int { return t.sum[j] - t.sum[i] }

// cut is one way to shorten a text: keep its first h words and its words
// from tl on, with mark between them (an ellipsis, with a count for list
// items); width is the width of the text it makes, kept what it keeps of
// the words (the indent aside).
type cut struct {
	h, tl       int
	mark        string
	width, kept int
}

// join returns the cut that keeps the first h words and the words from tl
// on, marking those taken out with mark when it keeps both.
func (t *text) join(h, tl int, mark string) cut {
	n := len(t.words)
	switch {
	case h > 0 && tl < n:
	case h > 0:
		mark = strings.TrimRight(ellipsis, " ")
	default:
		mark = strings.TrimLeft(ellipsis, " ")
	}
	c := cut{h: h, tl: tl, mark: mark, width: t.width(0, t.words[0].start) + Width(mark)}
	if h > 0 {
		c.kept += t.width(t.words[0].start, t.words[h-1].end)
	}
	if tl < n {
		c.kept += t.width(t.words[tl].start, len(t.us))
	}
	c.width += c.kept
	return c
}

// text returns the text the cut makes.
func (t *text) text(c cut) string {
	var b strings.Builder
	if c.h > 0 {
		b.WriteString(t.s[:t.us[t.words[c.h-1].end-1].end])
	} else {
		b.WriteString(t.s[:t.us[t.words[0].start].start])
	}
	b.WriteString(c.mark)
	if c.tl < len(t.words) {
		b.WriteString(t.s[t.us[t.words[c.tl].start].start:])
	}
	return b.String()
}

// mark returns the mark between the first h words and the words from tl
// on: the ellipsis, or " … N more, " when what it takes out is N whole
// list items.
func (t *text) mark(h, tl int, items int) string {
	if h == 0 || tl == len(t.words) || items == 0 {
		return ellipsis
	}
	return fmt.Sprintf(" … %d more, ", items)
}

// byClauses returns the cut into whole clauses within room that keeps the
// first and the last clause and the most of the text, the longest start
// of those that keep as much; false when there is none.
func (t *text) byClauses(room int) (cut, bool) {
	var clauses []int // the index of each clause's first word
	for j, w := range t.words {
		if w.clause {
			clauses = append(clauses, j)
		}
	}
	n := len(clauses)
	clauses = append(clauses, len(t.words))
	// nonItems[c]: clauses before c that are not list items.
	nonItems := make([]int, n+1)
	for c := 0; c < n; c++ {
		nonItems[c+1] = nonItems[c]
		if !t.words[clauses[c+1]-1].item {
			nonItems[c+1]++
		}
	}
	var best cut
	found := false
	// For each start, the longest end that fits; the end shrinks as the
	// start grows: one pass of both.
	tail := 2 // the first clause of the end
	for h := 1; h+1 < n; h++ {
		tail = max(tail, h+1)
		for ; tail < n; tail++ {
			items := 0
			if nonItems[tail]-nonItems[h] == 0 {
				items = tail - h
			}
			hw, tl := clauses[h], clauses[tail]
			c := t.join(hw, tl, t.mark(hw, tl, items))
			if c.width > room {
				continue
			}
			if !found || c.kept >= best.kept {
				best, found = c, true
			}
			break
		}
	}
	return best, found
}

// toVerdict returns the cut that keeps the verdict at the end (a last
// clause of half the room at most, or "and N more" and the word after it)
// and the most whole words of the start, two at least — or, for "and N
// more" with no such start, the words before it that fit, the item before
// it at least; false when there is none.
func (t *text) toVerdict(room int) (cut, bool) {
	n := len(t.words)
	v, count := -1, false
	for j := n - 1; j >= 1 && j >= n-2; j-- { // "and N more", and "APIs"
		if w := strings.TrimRight(t.word(j), ",;:)"); strings.HasPrefix(w, "and ") && strings.HasSuffix(w, " more") {
			v, count = j, true
			break
		}
	}
	if v < 0 {
		for j := n - 1; j >= 1; j-- {
			if t.words[j].clause {
				if t.width(t.words[j].start, len(t.us)) <= room/2 {
					v = j
				}
				break
			}
		}
	}
	if v < 0 {
		return cut{}, false
	}
	h := 0
	for h < v && t.join(h+1, v, ellipsis).width <= room {
		h++
	}
	if h >= 2 && h < v {
		return t.join(h, v, ellipsis), true
	}
	if count && v >= 2 {
		// No start of two words: the end from the item before the count,
		// so that a list cut still says how many it left out ("…
		// "a-operator.v1.9.0" and 1 more", not "skips "a-operator.v1.9.0" …").
		tl := v - 1
		for tl > 1 && t.join(0, tl-1, ellipsis).width <= room {
			tl--
		}
		if c := t.join(0, tl, ellipsis); c.width <= room {
			return c, true
		}
	}
	return cut{}, false
}

// word returns the text of word j.
func (t *text) word(j int) string { return t.wordText(t.words[j]) }

// isNumber reports whether s is a decimal number.
func isNumber(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// headOnly returns the cut that keeps the most whole words from the
// start; false when not even the first fits.
func (t *text) headOnly(room int) (cut, bool) {
	n := len(t.words)
	h := 0
	for h < n && t.join(h+1, n, "").width <= room {
		h++
	}
	return t.join(h, n, ""), h > 0
}

// byWords returns the cut into whole words: a start of up to a third of
// the room (none when that is less than two words) and an end in the rest,
// of the starts of two words or more the one that keeps the most; false
// when it keeps no word.
func (t *text) byWords(room int) (cut, bool) {
	n := len(t.words)
	hmax := 0
	for hmax < n && t.width(0, t.words[hmax].end) <= room/3 {
		hmax++
	}
	// endFrom returns the first word of the longest end that fits with
	// the first h words; the end grows as the start shrinks.
	tl := n
	endFrom := func(h int) int {
		for tl > h && t.join(h, tl-1, ellipsis).width <= room {
			tl--
		}
		return tl
	}
	best, found := cut{}, false
	for h := hmax; h >= 2; h-- {
		if c := t.join(h, endFrom(h), ellipsis); !found || c.kept > best.kept {
			best, found = c, true
		}
	}
	if !found { // no start of two words
		tl = n
		best = t.join(0, endFrom(0), ellipsis)
	}
	return best, best.kept > 0
}

// lastWordEnd returns the end of the last word within room after "… ", cut
// at units: for a last word wider than the room.
func (t *text) lastWordEnd(room int) string {
	indent := t.us[t.words[0].start].start
	mark := strings.TrimLeft(ellipsis, " ")
	i := len(t.us)
	for i > 0 && indent+Width(mark)+t.width(i-1, len(t.us)) <= room {
		i--
	}
	if i == len(t.us) { // not even its last character
		return t.s[:indent] + strings.TrimSpace(mark)
	}
	return t.s[:indent] + mark + t.s[t.us[i].start:]
}
