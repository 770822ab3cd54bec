package words

import "testing"

func TestJoin(t *testing.T) {
	for _, tt := range []struct {
		in   []string
		want string
	}{
		{nil, "nothing"},
		{[]string{"a"}, "a"},
		{[]string{"a", "b"}, "a or b"},
		{[]string{"a", "b", "c"}, "a, b or c"},
	} {
		if got := Join(tt.in, "or"); got != tt.want {
			t.Errorf("Join(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
