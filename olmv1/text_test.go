package olmv1_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/olmv1"
)

// TestUnlisted checks that Outcome.Unlisted counts what the short text
// counts without listing ("passed over: N more (...), not listed"), with
// and without the default channel's head among the bundles passed over,
// and that the long form (Why) lists every one.
func TestUnlisted(t *testing.T) {
	passed := func(n int, head string) []olmv1.PassedOver {
		var out []olmv1.PassedOver
		for i := range n {
			out = append(out, olmv1.PassedOver{Bundle: fmt.Sprintf("p.v%d", n-i), Version: fmt.Sprintf("%d.0.0", n-i), Catalog: "c", Reason: olmv1.ExcludedLower, Detail: "below"})
		}
		if head != "" {
			out = append(out, olmv1.PassedOver{Bundle: head, Version: "0.1.0", Catalog: "c", Reason: olmv1.ExcludedChannel, Detail: "in channel stable"})
		}
		return out
	}
	tests := []struct {
		name   string
		x      olmv1.ExtensionOutcome
		want   int
		reason string
	}{
		{"none", olmv1.ExtensionOutcome{}, 0, ""},
		{"four listed", olmv1.ExtensionOutcome{PassedOver: passed(4, "")}, 0, "four are listed rather than three and a count of one"},
		{"five", olmv1.ExtensionOutcome{PassedOver: passed(5, "")}, 2, ""},
		{"head listed apart", olmv1.ExtensionOutcome{PassedOver: passed(5, "head.v1"), DefaultHead: &olmv1.ChannelHead{Bundle: "head.v1", Channel: "stable"}}, 2, "the default channel's head is always listed"},
		{"head not passed over", olmv1.ExtensionOutcome{PassedOver: passed(6, ""), DefaultHead: &olmv1.ChannelHead{Bundle: "head.v1", Channel: "stable"}}, 3, ""},
	}
	more := regexp.MustCompile(`passed over: (\d+) more \(.*\), not listed`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.x.Name, tt.x.Package, tt.x.Bundle, tt.x.Action = "x", "p", "p.v9", olmv1.ActionInstall
			res := &olmv1.Outcome{Extensions: []olmv1.ExtensionOutcome{tt.x}}
			if got := res.Unlisted(olmv1.TextOptions{}); got != tt.want {
				t.Errorf("Unlisted = %d, want %d (%s)", got, tt.want, tt.reason)
			}
			var short, long strings.Builder
			if err := res.WriteText(&short, olmv1.TextOptions{}); err != nil {
				t.Fatal(err)
			}
			counted := 0
			if m := more.FindStringSubmatch(short.String()); m != nil {
				counted, _ = strconv.Atoi(m[1])
			}
			if counted != tt.want {
				t.Errorf("the text counts %d unlisted, want %d:\n%s", counted, tt.want, short.String())
			}
			if got := res.Unlisted(olmv1.TextOptions{Why: true}); got != 0 {
				t.Errorf("Unlisted(Why) = %d, want 0", got)
			}
			if err := res.WriteText(&long, olmv1.TextOptions{Why: true}); err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(long.String(), "  passed over: "); n != len(tt.x.PassedOver) {
				t.Errorf("the long text lists %d bundles passed over, want %d", n, len(tt.x.PassedOver))
			}
		})
	}
}
