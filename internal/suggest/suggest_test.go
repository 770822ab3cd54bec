package suggest

import "testing"

func TestNearest(t *testing.T) {
	for _, tt := range []struct {
		s     string
		known []string
		want  string
	}{
		{"chanel", []string{"name", "channel", "config"}, "channel"},
		{"Channel", []string{"channel"}, "channel"},
		{"cert-manger", []string{"cert-manager", "cert-utils-operator"}, "cert-manager"},
		{"Subscribtion", []string{"ClusterServiceVersion", "Subscription", "CatalogSource"}, "Subscription"},
		{"nmae", []string{"name", "namespace"}, "name"},
		{"namepsace", []string{"name", "namespace"}, "namespace"},
		{"spce", []string{"spec", "status"}, "spec"},
		{"stabel", []string{"alpha", "stable"}, "stable"},
		{"a swap and a typo, long", []string{"a swpa and a typp, long"}, "a swpa and a typp, long"},
		{"abcdef", []string{"badcef"}, ""},
		{"ab", []string{"abc"}, ""},
		{"AB", []string{"ab"}, "ab"},
		{"x", []string{"a"}, ""},
		{"lib.v9", []string{"lib.v1", "lib.v2"}, ""},
		{"completely-different", []string{"channel"}, ""},
		{"channel", []string{"channel"}, ""},
		{"é-name", []string{"e-name"}, "e-name"},
		{"", []string{"a"}, ""},
	} {
		if got := Nearest(tt.s, tt.known); got != tt.want {
			t.Errorf("Nearest(%q, %q) = %q, want %q", tt.s, tt.known, got, tt.want)
		}
	}
	if got := Message("chanel", []string{"channel"}); got != ` (did you mean "channel"?)` {
		t.Errorf("Message = %q", got)
	}
}
