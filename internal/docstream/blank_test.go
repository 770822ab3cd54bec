package docstream_test

import (
	"errors"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/sextantdev/sextant/internal/docstream"
)

// TestIsBlank: white space, comments (one longer than the reader's
// buffer too), document markers and a byte order mark are blank; a
// comment's next line that is not one, or any other text, is not; a read
// error is returned.
func TestIsBlank(t *testing.T) {
	long := "# " + strings.Repeat("x", 200<<10) + "\n"
	tests := []struct {
		in   string
		want bool
	}{
		{"", true},
		{"\n  \n\t\n", true},
		{"\xef\xbb\xbf---\n# nothing\n...\n", true},
		{long + "---\n", true},
		{long + "kind: List\n", false},
		{"kind: Subscription\n", false},
		{"  # c\n  x: 1\n", false},
		{strings.Repeat("a", 200<<10), false},
	}
	for _, tt := range tests {
		got, err := docstream.IsBlank(strings.NewReader(tt.in))
		if err != nil || got != tt.want {
			name := tt.in
			if len(name) > 40 {
				name = name[:40] + "…"
			}
			t.Errorf("IsBlank(%q) = %v, %v; want %v", name, got, err, tt.want)
		}
	}
	boom := errors.New("boom")
	if _, err := docstream.IsBlank(iotest.ErrReader(boom)); !errors.Is(err, boom) {
		t.Errorf("IsBlank of a failing reader: %v, want its error", err)
	}
}
