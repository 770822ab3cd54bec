package safetext

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestWidth(t *testing.T) {
	for _, tt := range []struct {
		in     string
		want   int
		reason string
	}{
		{"plain", 5, "one per character"},
		{"ünïcode →", 9, "a character is one, whatever its bytes"},
		{"a\x1bb", 6, `a hidden character counts as its escape \x1b`},
		{"nm\u202etxt", 11, `a bidi override counts as \u202e`},
		{`"nm\u202etxt"`, 13, "an escape %q wrote is text: one per character"},
	} {
		if got := Width(tt.in); got != tt.want {
			t.Errorf("Width(%q) = %d, want %d (%s)", tt.in, got, tt.want, tt.reason)
		}
	}
}

func TestShorten(t *testing.T) {
	long := `entry "etcdoperator.v0.9.2" of channel "stable" of package "etcd" replaces "etcdoperator.v0.9.0", which is not an entry of the channel`
	for _, tt := range []struct {
		in     string
		width  int
		want   string
		reason string
	}{
		{"short enough", 20, "short enough", "text that fits is kept"},
		{"exactly ten", 11, "exactly ten", "a text of the width fits"},
		{long, 60, `entry "etcdoperator.v0.9.2" of channel "stable" of package …`, "the verdict is more than half the room: the start, whole words"},
		{long, 90, `entry "etcdoperator.v0.9.2" of channel "stable" of … which is not an entry of the channel`, "the last clause, the verdict, and the start in whole words"},
		{strings.Repeat("x", 40), 20, "… xxxxxxxxxxxxxxxxxx", "a word wider than the room is the one thing cut inside"},
		{"ab cd ef gh ij kl mn op qr st uv wx", 20, "ab cd ef gh ij kl …", "no clause: the start, whole words"},
		{"abcdefghi jklmnopqrstu vw", 20, "… jklmnopqrstu vw", "a start of less than half the room: words from the end"},
		{`name "nm\u202etxt.exe" and more words here`, 20, `… more words here`, "a start of one word is left out: the end takes its room"},
		{`aa"\u202e\u202e\u202e\u202e"bb`, 18, `… \u202e\u202e"bb`, "an escape %q wrote is never cut"},
		{"ab\x1b\x1b\x1b\x1b\x1b\x1bcd", 14, "… \x1b\x1bcd", "a hidden character's escape is never cut"},
		{"ünïcödé ünïcödé ünïcödé ünïcödé", 16, "… ünïcödé", "characters, not bytes; the end starts with a whole word"},
		{"ünïcödé ünïcödé ünïcödé ünïcödé", 24, "ünïcödé ünïcödé …", "characters, not bytes"},
		{"no path to head 1.16.5 any more (1 hop before): its upgrades end at 1.12.3 and 1.13.0", 60,
			"no path to head 1.16.5 any more (1 hop before): its …", "the start says what is wrong: never 'head … more'"},
		{"from 2.8.0 drops CrunchyBridgeCluster v1beta1 and 3 more APIs", 40,
			"from 2.8.0 drops … and 3 more APIs", "an API's kind and version are one word, and so is \"and N more\""},
		{`skips "elasticsearch-eck-operator-certified.v1.9.0" and 1 more`, 60,
			`… "elasticsearch-eck-operator-certified.v1.9.0" and 1 more`, "no start of two words: the last item and the count, never \"and 1 …\""},
		{"requires API security-profiles-operator.x-k8s.io/v1alpha2 SelinuxProfile: unmet", 70,
			"requires API security-profiles-operator.x-k8s.io/v1alpha2 … unmet", "a short last clause is the verdict: kept"},
		{`skips "percona-server-mongodb-operator-certified.v1.17.0" and 8 more`, 60,
			`skips "percona-server-mongodb-operator-certified.v1.17.0" …`, "the item and its count do not fit: the start, no name cut"},
		{`skips "percona-server-mongodb-operator-certified.v1.17.0", "percona-server-mongodb-operator-certified.v1.18.0" and 8 more`, 80,
			`skips "percona-server-mongodb-operator-certified.v1.17.0", … and 8 more`, "the count of a list is the verdict: kept"},
		{"gone; its clauses go: one, two, three", 30, "gone; … one, two, three", "the first and the last clauses when both fit"},
		{"drops 9 APIs: a.io/v1 A, a.io/v1 B, a.io/v1 C, a.io/v1 D, a.io/v1 E, a.io/v1 F, a.io/v1 G, a.io/v1 H, a.io/v1 I", 70,
			"drops 9 APIs: a.io/v1 A, a.io/v1 B, a.io/v1 C, … 5 more, a.io/v1 I", "list items taken out are counted, never cut inside; the longer start"},
		{"drops 3 APIs: a.io/v1 A (A still served at v2, v3), a.io/v1 B, a.io/v1 C, a.io/v1 D, a.io/v1 E", 60,
			"drops 3 APIs: … 2 more, a.io/v1 C, a.io/v1 D, a.io/v1 E", "a comma inside parentheses parts no list item: A's is one"},
		{`reason "the nightly and minor streams start fresh on purpose" and more words after it`, 40,
			`… and more words after it`, "a quoted string is one word: never cut inside"},
		{"  removed: channels etcd/stable, etcd/alpha; bundles etcd/etcdoperator.v0.9.4, etcd/etcdoperator.v0.9.6", 60,
			"  removed: channels etcd/stable, … etcd/etcdoperator.v0.9.6", "the indent is kept"},
		{strings.Repeat(" ", 30) + "word and more words", 16, "    word and …", "an indent keeps a quarter of the room at most"},
	} {
		got := Shorten(tt.in, tt.width)
		if got != tt.want {
			t.Errorf("Shorten(%q, %d) = %q, want %q (%s)", tt.in, tt.width, got, tt.want, tt.reason)
		}
		if w := Width(got); w > tt.width {
			t.Errorf("Shorten(%q, %d) is %d wide (%s)", tt.in, tt.width, w, tt.reason)
		}
	}
}

// FuzzShorten checks Shorten's promises: the text fits, is the input when
// the input fits, else a start and an end of the input around " … " (or
// " … N more, " where N whole list items were taken out), each cut between
// words — never inside a name, a version or a quoted string — unless the
// last word alone is wider than the room.
func FuzzShorten(f *testing.F) {
	f.Add(`entry "a\u202eb" of channel "stable" replaces "x", which is not an entry`, 30)
	f.Add("\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b", 9)
	f.Add("ü\\", 1)
	f.Add("drops 9 APIs: a v1, b v1 (b still at v2, v3), c v1, d v1, e v1, f v1, g v1, h v1, i v1", 40)
	f.Add(`  removed: channels "a b", c; bundles d, e, f`, 20)
	f.Add("no path to head 1.16.5 any more (1 hop before): its upgrades end at 1.12.3", 60)
	f.Fuzz(func(t *testing.T, s string, width int) {
		width %= 300
		got := Shorten(s, width)
		if got != Shorten(s, width) {
			t.Fatal("not deterministic")
		}
		room := max(width, 8)
		if Width(s) <= room {
			if got != s {
				t.Fatalf("Shorten(%q, %d) = %q: it fits, it should be kept", s, width, got)
			}
			return
		}
		if w := Width(got); w > room {
			t.Fatalf("Shorten(%q, %d) = %q is %d wide", s, width, got, w)
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("Shorten(%q, %d) = %q is not valid UTF-8", s, width, got)
		}
		// The indent kept is a quarter of the room at most.
		indent := len(s) - len(strings.TrimLeft(s, " "))
		if indent == len(s) {
			if !strings.HasPrefix(s, got) {
				t.Fatalf("Shorten(%q, %d) = %q: spaces only, want a start of them", s, width, got)
			}
			return
		}
		if indent > room/4 {
			s, indent = s[indent-room/4:], room/4
		}
		starts, ends, last := wordBounds(s)
		head, mark, tail, ok := splitShortened(got)
		if !ok {
			t.Fatalf("Shorten(%q, %d) = %q has no ellipsis", s, width, got)
		}
		if !strings.HasPrefix(s, head) || !strings.HasSuffix(s, tail) || len(head)+len(tail) > len(s) {
			t.Fatalf("Shorten(%q, %d) = %q is not a start and an end of it", s, width, got)
		}
		if head != s[:indent] && !ends[len(head)] {
			t.Fatalf("Shorten(%q, %d) = %q: its start %q ends inside a word", s, width, got, head)
		}
		if tail != "" && !starts[len(s)-len(tail)] {
			// Only the last word, wider than the room, is cut inside.
			if head != s[:indent] || len(s)-len(tail) < last || indent+Width("… ")+Width(s[last:]) <= room {
				t.Fatalf("Shorten(%q, %d) = %q: its end %q starts inside a word", s, width, got, tail)
			}
		}
		if n, ok := strings.CutSuffix(strings.TrimPrefix(mark, " … "), " more, "); ok {
			removed := strings.TrimSpace(s[len(head) : len(s)-len(tail)])
			if items := topLevelItems(s, len(head), len(s)-len(tail)); !strings.HasSuffix(removed, ",") || strconv.Itoa(items) != n {
				t.Fatalf("Shorten(%q, %d) = %q says %s more for %q (%d items)", s, width, got, n, removed, items)
			}
		}
	})
}

// splitShortened splits a shortened text at its mark: " … ", " … N more, ",
// a final " …" or a leading "… " after the indent.
func splitShortened(got string) (head, mark, tail string, ok bool) {
	i := strings.Index(got, "…")
	if i < 0 {
		return "", "", "", false
	}
	before, after := got[:i], got[i+len("…"):]
	switch {
	case strings.TrimLeft(before, " ") == "": // the indent
		return before, "… ", strings.TrimPrefix(after, " "), true
	case after == "":
		return strings.TrimSuffix(before, " "), " …", "", true
	}
	head, after = strings.TrimSuffix(before, " "), strings.TrimPrefix(after, " ")
	if n, rest, found := strings.Cut(after, " more, "); found && isDigits(n) {
		return head, " … " + n + " more, ", rest, true
	}
	return head, " … ", after, true
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// wordBounds returns the byte offsets where the words of s start and end
// and where the last word starts. A word: units between spaces, a quoted
// string with the spaces in it one (quotes pair in order, %q's inner
// quotes being escapes), an API version joined to the word before it
// ("Kind v1beta1") and "and N more" one, unless the word before ends a
// clause.
func wordBounds(s string) (starts, ends map[int]bool, last int) {
	us := units(s)
	var quotes []int
	for i, u := range us {
		if s[u.start:u.end] == `"` {
			quotes = append(quotes, i)
		}
	}
	open := map[int]int{}
	for i := 0; i+1 < len(quotes); i += 2 {
		open[quotes[i]] = quotes[i+1]
	}
	type span struct{ start, end int } // byte offsets
	var words []span
	depth := 0
	var depthAfter []int
	for i := 0; i < len(us); {
		if s[us[i].start:us[i].end] == " " {
			i++
			continue
		}
		w := span{start: us[i].start}
		for i < len(us) && s[us[i].start:us[i].end] != " " {
			if c, ok := open[i]; ok {
				i = c + 1
				continue
			}
			switch s[us[i].start:us[i].end] {
			case "(":
				depth++
			case ")":
				depth = max(depth-1, 0)
			}
			i++
		}
		w.end = us[i-1].end
		words = append(words, w)
		depthAfter = append(depthAfter, depth)
	}
	text := func(j int) string { return s[words[j].start:words[j].end] }
	joined := make([]bool, len(words))
	for j := 1; j < len(words); j++ {
		if depthAfter[j-1] == 0 && strings.ContainsAny(text(j - 1)[len(text(j-1))-1:], ",;:") {
			continue // a clause starts at j
		}
		w := strings.TrimRight(text(j), ",;:)")
		version := regexp.MustCompile(`^v[0-9]+((alpha|beta)[0-9]+)?$`).MatchString(w)
		joined[j] = version || text(j-1) == "and" && isDigits(w) ||
			j >= 2 && w == "more" && isDigits(text(j-1)) && text(j-2) == "and"
	}
	starts, ends = map[int]bool{}, map[int]bool{}
	for j, w := range words {
		if !joined[j] {
			starts[w.start], last = true, w.start
		}
		if j+1 == len(words) || !joined[j+1] {
			ends[w.end] = true
		}
	}
	return starts, ends, last
}

// topLevelItems counts the words of s[from:to] that end with a comma
// outside parentheses (those outside quoted strings, quotes paired over
// the whole of s).
func topLevelItems(s string, from, to int) int {
	us := units(s)
	var quotes []int
	for i, u := range us {
		if s[u.start:u.end] == `"` {
			quotes = append(quotes, i)
		}
	}
	closer := map[int]int{}
	for i := 0; i+1 < len(quotes); i += 2 {
		closer[quotes[i]] = quotes[i+1]
	}
	n, depth := 0, 0
	for i := 0; i < len(us) && us[i].start < to; i++ {
		if c, ok := closer[i]; ok {
			i = c
			continue
		}
		switch s[us[i].start:us[i].end] {
		case "(":
			depth++
		case ")":
			depth = max(depth-1, 0)
		case ",":
			if us[i].start >= from && depth == 0 && (i+1 == len(us) || s[us[i+1].start:us[i+1].end] == " ") {
				n++
			}
		}
	}
	return n
}
