package openshift

import (
	"fmt"
	"strings"
	"testing"

	"github.com/blang/semver/v4"
)

func minors(ms ...string) []Minor {
	var out []Minor
	for _, s := range ms {
		m, err := ParseMinor(s)
		if err != nil {
			panic(err)
		}
		out = append(out, m)
	}
	return out
}

// TestNewPath: every minor from the cluster's to the target, one at a
// time; via names the minors passed as Control Plane Only updates, the
// others are stops; what cannot be planned is an error listing every
// problem.
func TestNewPath(t *testing.T) {
	tests := []struct {
		name, current, target string
		via                   []string
		hops, stops, warn     string
		err                   string
	}{
		{name: "every minor", current: "4.16.21", target: "4.18", hops: "4.16>4.17 4.17>4.18", stops: "4.16 4.17 4.18"},
		{name: "EUS to EUS", current: "4.16.21", target: "4.22", via: []string{"4.21", "4.17", "4.19"},
			hops: "4.16>4.17* 4.17>4.18 4.18>4.19* 4.19>4.20 4.20>4.21* 4.21>4.22", stops: "4.16 4.18 4.20 4.22"},
		{name: "two minors paused", current: "4.16.2", target: "4.20", via: []string{"4.18", "4.19"},
			hops: "4.16>4.17 4.17>4.18* 4.18>4.19* 4.19>4.20", stops: "4.16 4.17 4.20",
			warn: "from 4.17 to 4.20 the cluster passes 2 minors with its worker pools paused"},
		{name: "between odd minors", current: "4.17.2", target: "4.21", via: []string{"4.18", "4.20"},
			hops: "4.17>4.18* 4.18>4.19 4.19>4.20* 4.20>4.21", stops: "4.17 4.19 4.21", warn: "from 4.17 to 4.19 is a Control Plane Only update between odd minors"},
		{name: "at the target already", current: "4.18.3", target: "4.18", hops: "", stops: "4.18"},
		{name: "downgrade", current: "4.18.3", target: "4.16", err: "the target 4.16 is below the cluster's minor 4.18"},
		{name: "unknown minors, a bad via", current: "4.11.3", target: "4.24", via: []string{"4.11", "4.30", "4.20", "4.20"},
			err: "OpenShift 4.11 is outside the minors Sextant knows (4.12 to 4.23); OpenShift 4.24 is outside the minors Sextant knows (4.12 to 4.23); via 4.11 is not a minor between the cluster's 4.11 and the target 4.24; via 4.20 is given twice; via 4.30 is not a minor between"},
		{name: "another major", current: "4.23.1", target: "5.1", err: "the target 5.1 is in another major version"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			target, _ := ParseMinor(tt.target)
			p, err := NewPath(semver.MustParse(tt.current), target, minors(tt.via...))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var hops, stops []string
			for _, h := range p.Hops {
				s := fmt.Sprintf("%s>%s", h.From, h.To)
				if h.ControlPlaneOnly {
					s += "*"
				}
				hops = append(hops, s)
			}
			for _, s := range p.Stops {
				stops = append(stops, s.String())
			}
			if got := strings.Join(hops, " "); got != tt.hops {
				t.Errorf("hops %q, want %q", got, tt.hops)
			}
			if got := strings.Join(stops, " "); got != tt.stops {
				t.Errorf("stops %q, want %q", got, tt.stops)
			}
			if got := strings.Join(p.Warnings, "; "); (tt.warn == "") != (got == "") || !strings.Contains(got, tt.warn) {
				t.Errorf("warnings %q, want %q", got, tt.warn)
			}
		})
	}
}

// TestParseMinor and the Kubernetes table.
func TestParseMinor(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"4.16", "4.16"}, {"v4.22", "4.22"}, {" 4.9 ", "4.9"},
		{"4.16.1", "error"}, {"4", "error"}, {"4.x", "error"}, {"04.16", "error"}, {"-4.1", "error"}, {"", "error"},
	} {
		m, err := ParseMinor(tt.in)
		got := "error"
		if err == nil {
			got = m.String()
		}
		if got != tt.want {
			t.Errorf("ParseMinor(%q) = %s (%v), want %s", tt.in, got, err, tt.want)
		}
	}
	for m := Known[0]; m.Compare(Known[1]) <= 0; m = m.Next() {
		k, ok := KubernetesMinor(m)
		if !ok || k.Major != 1 || k.Minor != m.Minor+13 {
			t.Errorf("KubernetesMinor(%s) = %s %v", m, k, ok)
		}
	}
	if _, ok := KubernetesMinor(Minor{4, 24}); ok {
		t.Error("4.24 known")
	}
}
