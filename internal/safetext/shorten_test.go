package safetext

import (
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
		{long, 60, `… tcdoperator.v0.9.0", which is not an entry of the channel`, "the start would be one word: the end takes the room"},
		{long, 90, `entry "etcdoperator.v0.9.2" … "etcdoperator.v0.9.0", which is not an entry of the channel`, "a third for the start, the rest for the end, cut between words"},
		{strings.Repeat("x", 40), 20, "… xxxxxxxxxxxxxxxxx", "a start that is part of one word is left out: the end takes the room"},
		{"ab cd ef gh ij kl mn op qr st uv wx", 20, "ab cd … qr st uv wx", "a start of two whole words is kept"},
		{`name "nm\u202etxt.exe" and more words here`, 20, `… more words here`, "a start of one word is left out: the end takes its room"},
		{`aa"\u202e\u202e\u202e\u202e"bb`, 18, `… \u202e\u202e"bb`, "an escape %q wrote is never cut"},
		{"ab\x1b\x1b\x1b\x1b\x1b\x1bcd", 14, "… \x1b\x1bcd", "a hidden character's escape is never cut"},
		{"ünïcödé ünïcödé ünïcödé ünïcödé", 16, "… ünïcödé", "characters, not bytes; the end starts with a whole word"},
		{"ünïcödé ünïcödé ünïcödé ünïcödé", 24, "… ünïcödé ünïcödé", "characters, not bytes"},
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
// the input fits, else a start and an end of the input around " … ", each
// cut on a unit boundary (never inside a character or an escape).
func FuzzShorten(f *testing.F) {
	f.Add(`entry "a\u202eb" of channel "stable" replaces "x", which is not an entry`, 30)
	f.Add("\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b", 9)
	f.Add("ü\\", 1)
	f.Fuzz(func(t *testing.T, s string, width int) {
		width %= 300
		got := Shorten(s, width)
		if got != Shorten(s, width) {
			t.Fatal("not deterministic")
		}
		if Width(s) <= width {
			if got != s {
				t.Fatalf("Shorten(%q, %d) = %q: it fits, it should be kept", s, width, got)
			}
			return
		}
		if w := Width(got); w > max(width, 8) {
			t.Fatalf("Shorten(%q, %d) = %q is %d wide", s, width, got, w)
		}
		head, tail, ok := strings.Cut(got, "…")
		if !ok {
			t.Fatalf("Shorten(%q, %d) = %q has no ellipsis", s, width, got)
		}
		head, tail = strings.TrimSuffix(head, " "), strings.TrimPrefix(tail, " ")
		if !strings.HasPrefix(s, head) || !strings.HasSuffix(s, tail) || len(head)+len(tail) > len(s) {
			t.Fatalf("Shorten(%q, %d) = %q is not a start and an end of it", s, width, got)
		}
		bounds := map[int]bool{0: true, len(s): true}
		for _, u := range units(s) {
			bounds[u.start], bounds[u.end] = true, true
		}
		if !bounds[len(head)] || !bounds[len(s)-len(tail)] {
			t.Fatalf("Shorten(%q, %d) = %q cuts inside a character or an escape", s, width, got)
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("Shorten(%q, %d) = %q is not valid UTF-8", s, width, got)
		}
	})
}
