package cli

import (
	"strings"
	"testing"
)

func TestSafeText(t *testing.T) {
	tests := []struct{ in, want, reason string }{
		{"plain\ttext\n", "plain\ttext\n", "tab and line feed stay"},
		{"\x1b[2Jcleared", `\x1b[2Jcleared`, "a terminal escape is shown, not run"},
		{"over\rwrite", `over\rwrite`, "a carriage return cannot overwrite the line"},
		{"bell\x07 del\x7f", `bell\x07 del\x7f`, ""},
		{"c1 \u009b31m", `c1 \u009b31m`, "a C1 control (CSI) is escaped too"},
		{"ünïcode ✓", "ünïcode ✓", "printable UTF-8 stays"},
	}
	for _, tt := range tests {
		var b strings.Builder
		n, err := safeText{&b}.Write([]byte(tt.in))
		if err != nil || n != len(tt.in) || b.String() != tt.want {
			t.Errorf("safeText(%q) = %q, %d, %v; want %q (%s)", tt.in, b.String(), n, err, tt.want, tt.reason)
		}
	}
}

func TestTextName(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"etcdoperator.v0.9.4", "etcdoperator.v0.9.4"},
		{"with space", "with space"},
		{"a\nb", `"a\nb"`},
		{"\x1b[31mred", `"\x1b[31mred"`},
		{"bad\xffutf8", `"bad\xffutf8"`},
		{"zero\u200bwidth", `"zero\u200bwidth"`},
	} {
		if got := textName(tt.in); got != tt.want {
			t.Errorf("textName(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
