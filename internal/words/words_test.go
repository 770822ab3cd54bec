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

func TestFirst(t *testing.T) {
	for _, tt := range []struct {
		in   []string
		n    int
		want string
	}{
		{nil, 2, ""},
		{[]string{"a"}, 2, "a"},
		{[]string{"a", "b"}, 2, "a, b"},
		{[]string{"a", "b", "c"}, 2, "a, b and 1 more"},
		{[]string{"a", "b", "c", "d", "e"}, 1, "a and 4 more"},
	} {
		if got := First(tt.in, tt.n); got != tt.want {
			t.Errorf("First(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}
