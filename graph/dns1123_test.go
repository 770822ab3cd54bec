package graph

import "testing"

func TestDNS1123LabelPosition(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"etcd", ""},
		{"nm\u202etxt.exe", `character '\u202e' at 2 is not a lower-case letter, digit or '-'`},
		{"ünïcode", `character 'ü' at 0 is not a lower-case letter, digit or '-'`},
		{"aé_b", `character 'é' at 1 is not a lower-case letter, digit or '-'`},
		{"éé_b", `character 'é' at 0 is not a lower-case letter, digit or '-'`},
		{"ab_c", `character '_' at 2 is not a lower-case letter, digit or '-'`},
		{"-a", "must start and end with a lower-case letter or digit"},
	} {
		if got := dns1123Label(tt.in); got != tt.want {
			t.Errorf("dns1123Label(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
