package safetext

import "testing"

func TestName(t *testing.T) {
	for _, tt := range []struct{ in, want, reason string }{
		{"etcdoperator.v0.9.4", "etcdoperator.v0.9.4", "a plain name stays"},
		{"with space", "with space", "a space is printable"},
		{"ünïcode", "ünïcode", "printable UTF-8 stays"},
		{"a\nb", `"a\nb"`, "a line feed cannot forge a line"},
		{"\x1b[31mred", `"\x1b[31mred"`, "a terminal escape is shown, not run"},
		{"bad\xffutf8", `"bad\xffutf8"`, "invalid UTF-8 is shown as bytes"},
		{"nm\u202etxt.exe", `"nm\u202etxt.exe"`, "a right-to-left override cannot reorder the name"},
		{"zero\u200bwidth", `"zero\u200bwidth"`, "a zero-width space is shown"},
		{"join\u2060er", `"join\u2060er"`, "a word joiner is shown"},
		{"\ufeffbom", `"\ufeffbom"`, "a byte order mark is shown"},
		{"iso\u2066late", `"iso\u2066late"`, "a bidi isolate is shown"},
	} {
		if got := Name(tt.in); got != tt.want {
			t.Errorf("Name(%q) = %s, want %s (%s)", tt.in, got, tt.want, tt.reason)
		}
	}
}

func TestAppend(t *testing.T) {
	for _, tt := range []struct{ in, want, reason string }{
		{"plain\ttext\n", "plain\ttext\n", "tab and line feed stay"},
		{"\x1b[2Jcleared", `\x1b[2Jcleared`, "a terminal escape is shown, not run"},
		{"over\rwrite", `over\rwrite`, "a carriage return cannot overwrite the line"},
		{"bell\x07 del\x7f", `bell\x07 del\x7f`, "C0 controls and DEL"},
		{"c1 \u009b31m", `c1 \u009b31m`, "a C1 control (CSI) is escaped"},
		{"package nm\u202etxt.exe\n", `package nm\u202etxt.exe` + "\n", "a bidi override is escaped"},
		{"a\u200b\u200c\u200d\u200e\u200fb", `a\u200b\u200c\u200d\u200e\u200fb`, "zero-width and direction marks"},
		{"a\u2060\u2064b\ufeff", `a\u2060\u2064b\ufeff`, "word joiner, invisible plus, BOM"},
		{"line\u2028sep", `line\u2028sep`, "a line separator is escaped"},
		{"tag\U000e0001", `tag\U000e0001`, "a format character beyond the BMP"},
		{"ünïcode ✓ → …", "ünïcode ✓ → …", "printable UTF-8 stays"},
		{"cut \xe2\x80", "cut \xe2\x80", "a character cut between writes is copied as it is"},
	} {
		got := string(Append(nil, []byte(tt.in)))
		if got != tt.want {
			t.Errorf("Append(%q) = %q, want %q (%s)", tt.in, got, tt.want, tt.reason)
		}
		if clean := Clean([]byte(tt.in)); clean != (got == tt.in) {
			t.Errorf("Clean(%q) = %v, but Append changes it: %v (%s)", tt.in, clean, got != tt.in, tt.reason)
		}
	}
}
