package resolver_test

import (
	"strings"
	"testing"

	"github.com/sextantdev/sextant/resolver"
)

// TestStrings: the one-line texts of a resolution's parts that no
// renderer test writes whole — a held-back item with and without the
// change that moves it, something in flight, each form of a link of a
// why chain, and a why's short text (at most three alternatives, then a
// count) beside its full one.
func TestStrings(t *testing.T) {
	change := &resolver.Suggestion{Change: "switch subscription db to channel v2", Summary: "upgrades db.v1.0.0 to db.v2.0.0"}
	held := &resolver.HeldBack{Package: "db", Version: "1.5.0", Reason: "db stays at 1.5.0: its next version 2.0.0 is excluded"}
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"held back", held.String(), "db stays at 1.5.0: its next version 2.0.0 is excluded"},
		{"held back, moves", (&resolver.HeldBack{Reason: held.Reason, Change: change}).String(),
			"db stays at 1.5.0: its next version 2.0.0 is excluded; it moves with: switch subscription db to channel v2: upgrades db.v1.0.0 to db.v2.0.0"},
		{"in flight", resolver.InFlight{Kind: resolver.InFlightInstalling, CSV: "a.v1", Text: "a.v1 is Installing"}.String(), "a.v1 is Installing"},
		{"link, subscription", resolver.WhyLink{Bundle: "a.v2", Subscription: "a"}.String(), "a.v2 is the choice of subscription a"},
		{"link, required", resolver.WhyLink{Bundle: "db.v1", RequiredBy: "a.v2", Requirement: "olm.gvk.required example.com/v1 DB"}.String(),
			"db.v1 is required by a.v2 through olm.gvk.required example.com/v1 DB"},
		{"link, stays", resolver.WhyLink{Bundle: "b.v1", Installed: true, Stays: true}.String(), "installed CSV b.v1 has no subscription and must stay"},
		{"link, installed", resolver.WhyLink{Bundle: "b.v1", Installed: true}.String(), "installed CSV b.v1"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}

	alt := func(b string) resolver.Alternative {
		return resolver.Alternative{Candidate: resolver.Candidate{Bundle: b, Channel: "stable", Catalog: textCatalog}, Rule: "lower version"}
	}
	why := &resolver.Why{Summary: "a.v2 is in the plan", Chain: []resolver.WhyLink{{Bundle: "a.v2", Subscription: "a"}},
		Rules: []string{"the channel head"}, Alternatives: []resolver.Alternative{alt("a.v1"), alt("a.v0.3"), alt("a.v0.2"), alt("a.v0.1"), alt("a.v0.0")}}
	short := `a.v2 is in the plan
  a.v2 is the choice of subscription a
  the channel head
  passed over:
    a.v1 (channel stable, catalog olm/community): lower version
    a.v0.3 (channel stable, catalog olm/community): lower version
    a.v0.2 (channel stable, catalog olm/community): lower version
    and 2 more (the full text lists them)
`
	if got := why.String(); got != short {
		t.Errorf("Why.String:\n%s\nwant:\n%s", got, short)
	}
	if got := why.Full(); strings.Count(got, "): lower version") != 5 || strings.Contains(got, "more") {
		t.Errorf("Why.Full lists %d alternatives, want all 5:\n%s", strings.Count(got, "): lower version"), got)
	}
	why.Alternatives = why.Alternatives[:4]
	if got := why.String(); strings.Count(got, "): lower version") != 4 || strings.Contains(got, "more") {
		t.Errorf("Why.String with 4 alternatives lists %d, want all 4 (never \"1 more\"):\n%s", strings.Count(got, "): lower version"), got)
	}
}
