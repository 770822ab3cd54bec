package check

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/celrule"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

// key returns "catalog code package/channel bundle" for a finding.
func key(f Finding) string {
	obj := f.Package
	if f.Channel != "" {
		obj += "/" + f.Channel
	}
	if f.Bundle != "" {
		obj += " " + f.Bundle
	}
	return f.Catalog + " " + f.Code + " " + obj
}

type checkCase struct {
	name   string
	reason string
	specs  []string
	// want lists the keys of the findings, in report order.
	want []string
	// messages holds substrings that the findings' messages must contain,
	// in order, one per finding (empty: not checked).
	messages []string
	// explain holds substrings that the findings' explanations must
	// contain, in order, one per finding (empty: not checked).
	explain []string
}

// testCEL evaluates the tests' cel rules as the sextant command does.
var testCEL = celrule.New()

func runCases(t *testing.T, checks []Check, cases []checkCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var ins []Input
			for i, s := range tc.specs {
				ins = append(ins, Input{Name: string(rune('a' + i)), Catalog: buildSpec(t, s)})
			}
			rep, err := Run(t.Context(), ins, Options{CEL: testCEL, Checks: checks})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			var got []string
			for _, f := range rep.Findings {
				got = append(got, key(f))
			}
			checkBriefs(t, rep.Findings)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("findings (%s):\n got %q\nwant %q\nall:\n%s", tc.reason, got, tc.want, listing(rep))
			}
			for i, m := range tc.messages {
				if m != "" && !strings.Contains(rep.Findings[i].Message, m) {
					t.Errorf("finding %d message %q does not contain %q", i, rep.Findings[i].Message, m)
				}
			}
			for i, m := range tc.explain {
				if m == "" {
					continue
				}
				if e := rep.Findings[i].Explanation; e == nil || !strings.Contains(e.String(), m) {
					t.Errorf("finding %d explanation %v does not contain %q", i, e, m)
				}
			}
		})
	}
}

func listing(rep *Report) string {
	var b strings.Builder
	for _, f := range rep.Findings {
		b.WriteString(f.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// soundChain is a catalog whose channel upgrades p.v1 to p.v2 to p.v3 by
// replaces.
const soundChain = `
package p stable
bundle p p.v1 1.0.0
bundle p p.v2 2.0.0
bundle p p.v3 3.0.0
channel p stable
  entry p.v3 replaces=p.v2
  entry p.v2 replaces=p.v1
  entry p.v1
`

func TestReachability(t *testing.T) {
	runCases(t, []Check{Reachability}, []checkCase{
		{
			name:  "sound chain",
			specs: []string{soundChain},
		},
		{
			name:   "skips without replaces is not stranding",
			reason: "ncn-operator: p.v3 skips p.v2 and replaces nothing; opm calls p.v1 stranded (neither on the replaces chain nor skipped) but it upgrades through p.v2 to p.v3",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0
bundle p p.v2 2.0.0
bundle p p.v3 3.0.0
channel p stable
  entry p.v3 skips=p.v2
  entry p.v2 replaces=p.v1
  entry p.v1
`},
		},
		{
			name:   "skips only the middle",
			reason: "p.v3 skips p.v2; nothing leads from p.v1 anywhere: it is a second head",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0
bundle p p.v2 2.0.0
bundle p p.v3 3.0.0
channel p stable
  entry p.v3 skips=p.v2
  entry p.v2
  entry p.v1
`},
			want:     []string{"a no-upgrade-path p/stable p.v1"},
			messages: []string{`"p.v1" cannot upgrade to the channel head "p.v3" (the channel has 2 heads): no entry replaces it`},
		},
		{
			name:   "skipRange rescues a second head",
			reason: "fqdn-egress-operator: v1.0.3 has only a skipRange, v1.0.2 is a second head by replaces/skips but reaches v1.0.3 through the range",
			specs: []string{`
package p stable
bundle p p.v1 1.0.1
bundle p p.v2 1.0.2
bundle p p.v3 1.0.3
channel p stable
  entry p.v3 skipRange='<1.0.3'
  entry p.v2 replaces=p.v1
  entry p.v1
`},
		},
		{
			name:   "no edges at all",
			reason: "reportportal-operator: every entry is a head; the newest is the channel's head, the others are stranded",
			specs: []string{`
package p alpha
bundle p p.v1 1.0.0
bundle p p.v2 2.0.0
bundle p p.v3 3.0.0
channel p alpha
  entry p.v1
  entry p.v2
  entry p.v3
`},
			want: []string{"a no-upgrade-path p/alpha p.v1", "a no-upgrade-path p/alpha p.v2"},
		},
		{
			name:   "stranded behind a second head",
			reason: "camel-k: p.v2 replaces p.v0, which does not exist, so p.v1 is left behind; the message names where p.v1's upgrades end",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0
bundle p p.v2 2.0.0
bundle p p.v3 3.0.0
bundle p p.v1a 1.1.0
channel p stable
  entry p.v3 replaces=p.v2
  entry p.v2 replaces=p.v0
  entry p.v1a replaces=p.v1
  entry p.v1
`},
			want:     []string{"a no-upgrade-path p/stable p.v1", "a no-upgrade-path p/stable p.v1a"},
			messages: []string{`its upgrades (1 reachable entry) end at "p.v1a"`, `no entry replaces it`},
		},
		{
			name:   "per channel",
			reason: "a bundle sound in one channel and stranded in another is reported for the second only",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0
bundle p p.v2 2.0.0
channel p fast
  entry p.v2
  entry p.v1
channel p stable
  entry p.v2 replaces=p.v1
  entry p.v1
`},
			want: []string{"a no-upgrade-path p/fast p.v1"},
		},
		{
			name:   "stranded in a cycle",
			reason: "p.v1 and p.v2 replace each other beside the head p.v3: every entry they reach has an upgrade, so their upgrades end nowhere; they go round",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0
bundle p p.v2 2.0.0
bundle p p.v3 3.0.0
channel p stable
  entry p.v3
  entry p.v2 replaces=p.v1
  entry p.v1 replaces=p.v2
`},
			want: []string{"a no-upgrade-path p/stable p.v1", "a no-upgrade-path p/stable p.v2"},
			messages: []string{`its upgrades (1 reachable entry) go round in a cycle`,
				`its upgrades (1 reachable entry) go round in a cycle`},
		},
		{
			name:   "cycle has no head",
			reason: "a channel with no head is reported by the structural checks only",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0
bundle p p.v2 2.0.0
channel p stable
  entry p.v2 replaces=p.v1
  entry p.v1 replaces=p.v2
`},
		},
	})
}

func TestPathStats(t *testing.T) {
	cat := buildSpec(t, `
package p stable
bundle p p.v1 1.0.0
bundle p p.v2 2.0.0
bundle p p.v3 3.0.0
bundle p p.v4 4.0.0
bundle p p.x 0.1.0
channel p stable
  entry p.v4 replaces=p.v3 skipRange='>=1.0.0 <2.0.0'
  entry p.v3 replaces=p.v2
  entry p.v2 replaces=p.v1
  entry p.v1
  entry p.x
channel p fast
  entry p.v4 replaces=p.v3
  entry p.v3
package q stable
bundle q q.v1 1.0.0
channel q stable
  entry q.v1
`)
	rep, err := Run(t.Context(), []Input{{Name: "c", Catalog: cat}}, Options{CEL: testCEL, Checks: []Check{Reachability}})
	if err != nil {
		t.Fatal(err)
	}
	want := []PathStats{
		{Catalog: "c", Package: "p", Entries: 5, Stranded: 1, Lengths: []LengthCount{{1, 3}, {2, 1}}},
		{Catalog: "c", Package: "q", Entries: 0, Stranded: 0},
	}
	got, _ := json.Marshal(rep.Paths)
	wantJSON, _ := json.Marshal(want)
	if !bytes.Equal(got, wantJSON) {
		t.Errorf("paths:\n got %s\nwant %s", got, wantJSON)
	}
	if m := rep.Paths[0].MaxHops(); m != 2 {
		t.Errorf("MaxHops = %d, want 2", m)
	}
}

// TestReachabilityAgreesWithGraph checks the distances the check counts
// (graph.Channel.DistancesTo) against graph.Channel.ShortestPath on every
// entry of a few channels.
func TestReachabilityAgreesWithGraph(t *testing.T) {
	cat := buildSpec(t, `
package p stable
bundle p p.v1 1.0.0
bundle p p.v2 1.1.0
bundle p p.v3 1.2.0
bundle p p.v4 2.0.0
bundle p p.v5 2.1.0
bundle p p.bad notaversion
channel p stable
  entry p.v5 replaces=p.v4 skipRange='>=1.1.0 <2.0.0'
  entry p.v4 skips=p.v3
  entry p.v3 replaces=p.v2
  entry p.v2 replaces=p.v1
  entry p.v1
  entry p.bad
`)
	p := cat.Package("p")
	for _, c := range p.Channels {
		head, ok := channelHead(c)
		if !ok {
			t.Fatalf("channel %q has no head", c.Name)
		}
		dist := c.DistancesTo(head)
		for i, name := range c.Order() {
			path, ok := c.ShortestPath(name, head)
			switch {
			case !ok && dist[i] >= 0:
				t.Errorf("%s: graph finds no path, check finds %d hops", name, dist[i])
			case ok && dist[i] != len(path)-1:
				t.Errorf("%s: graph path %v (%d hops), check %d hops", name, path, len(path)-1, dist[i])
			}
		}
	}
}

func TestDirection(t *testing.T) {
	runCases(t, []Check{Direction}, []checkCase{
		{
			name: "upward edges",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0
bundle p p.v2 2.0.0
bundle p p.v3 3.0.0
channel p stable
  entry p.v3 replaces=p.v2 skips=p.v1 skipRange='<3.0.0'
  entry p.v2 replaces=p.v1
  entry p.v1
`},
		},
		{
			name: "replaces a higher version",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0
bundle p p.v2 2.0.0
channel p stable
  entry p.v1 replaces=p.v2
  entry p.v2
`},
			want:     []string{"a downgrade-edge p/stable p.v1"},
			messages: []string{`"p.v1" (1.0.0) replaces "p.v2" (2.0.0): the upgrade goes to a lower version`},
		},
		{
			name:   "skips and skipRange to lower versions",
			reason: "one finding per edge; the skipRange of p.v2 contains p.v3's version as well as p.v1's",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0
bundle p p.v2 2.0.0
bundle p p.v3 3.0.0
channel p stable
  entry p.v2 skips=p.v3 skipRange='<4.0.0'
  entry p.v3
  entry p.v1
`},
			want: []string{"a downgrade-edge p/stable p.v2", "a downgrade-edge p/stable p.v2"},
			messages: []string{
				`"p.v2" (2.0.0) skips "p.v3" (3.0.0)`,
				`skipRange "<4.0.0" of "p.v2" (2.0.0) contains "p.v3" (3.0.0): 1 upgrade goes to a lower version`,
			},
		},
		{
			name:   "open-ended skipRange",
			reason: "one finding per skipRange, listing the higher versions it contains by version",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0
bundle p p.v2 2.0.0
bundle p p.v3 3.0.0
bundle p p.v4 4.0.0
bundle p p.v5 5.0.0
bundle p p.v10 10.0.0
channel p stable
  entry p.v1 skipRange='>=0.0.1'
  entry p.v2
  entry p.v10
  entry p.v3
  entry p.v4
  entry p.v5
`},
			want:     []string{"a downgrade-edge p/stable p.v1"},
			messages: []string{`skipRange ">=0.0.1" of "p.v1" (1.0.0) contains "p.v2" (2.0.0), "p.v3" (3.0.0), "p.v4" (4.0.0) and 2 more: 5 upgrades go to a lower version`},
		},
		{
			name:   "equal versions are not a downgrade",
			reason: "duplicate versions are the structural checks' business",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0
bundle p p.v1b 1.0.0
channel p stable
  entry p.v1b replaces=p.v1
  entry p.v1
`},
		},
		{
			name:   "skipRange matching nothing",
			reason: "only the entry's own version is in range, and a bundle outside the channel does not count",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0
bundle p p.v2 2.0.0
bundle p p.v9 0.9.0
channel p stable
  entry p.v2 replaces=p.v1 skipRange='>=2.0.0 <3.0.0'
  entry p.v1 skipRange='<1.0.0'
channel p other
  entry p.v9
`},
			want: []string{"a skip-range-matches-nothing p/stable p.v1", "a skip-range-matches-nothing p/stable p.v2"},
		},
		{
			name:   "unparsable skipRange is structural",
			reason: "'<v2.8.0' does not parse; the structural check reports it, the direction check says nothing",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0
bundle p p.v2 2.0.0
channel p stable
  entry p.v2 replaces=p.v1 skipRange='<v2.8.0'
  entry p.v1
`},
		},
		{
			name:   "cross-package edges",
			reason: "q.v1 is a bundle of q, not of p; p.gone is nothing at all (dangling, structural)",
			specs: []string{`
package p stable
bundle p p.v2 2.0.0
channel p stable
  entry p.v2 replaces=q.v1 skips=p.gone
package q stable
bundle q q.v1 1.0.0
channel q stable
  entry q.v1
`},
			want:     []string{"a cross-package-edge p/stable p.v2"},
			messages: []string{`"p.v2" replaces "q.v1", which is not a bundle of package "p" but of "q"`},
		},
	})
}

func TestDeprecations(t *testing.T) {
	// replacing is a channel whose head p.v2 replaces p.v1, twoChannels a
	// package whose default channel stable and channel fast both hold p.v1:
	// the cases add what they deprecate.
	const replacing = `
package p stable
bundle p p.v1 1.0.0
bundle p p.v2 2.0.0
channel p stable
  entry p.v2 replaces=p.v1
  entry p.v1
`
	const twoChannels = `
package p stable
bundle p p.v1 1.0.0
channel p stable
  entry p.v1
channel p fast
  entry p.v1
`
	runCases(t, []Check{Deprecations}, []checkCase{
		{
			name:  "head deprecated",
			specs: []string{replacing + "deprecate p olm.bundle p.v2\n"},
			want:  []string{"a default-channel-head-deprecated p/stable p.v2"},
		},
		{
			name:   "older bundle deprecated",
			reason: "deprecating what the head replaces is the normal way to retire a version",
			specs:  []string{replacing + "deprecate p olm.bundle p.v1\n"},
		},
		{
			name: "head has olm.deprecated",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0 deprecated
channel p stable
  entry p.v1
`},
			want:     []string{"a default-channel-head-deprecated p/stable p.v1"},
			messages: []string{"olm.deprecated property"},
		},
		{
			name:  "default channel deprecated",
			specs: []string{twoChannels + "deprecate p olm.channel stable\n"},
			want:  []string{"a default-channel-deprecated p/stable"},
		},
		{
			name:  "other channel deprecated",
			specs: []string{twoChannels + "deprecate p olm.channel fast\n"},
		},
		{
			name:   "whole package deprecated",
			reason: "a deprecated package may deprecate its default channel and head too",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0
channel p stable
  entry p.v1
deprecate p olm.package
deprecate p olm.bundle p.v1
`},
		},
	})
}

func TestOtherCatalogs(t *testing.T) {
	const needs = `
package app stable
bundle app app.v1 1.0.0 'requires-package=dep:>=1.0.0 <2.0.0' requires-gvk=example.com/v1/Widget requires-label=l
channel app stable
  entry app.v1
`
	// meets meets all three requirements of needs.
	const meets = `
package dep stable
bundle dep dep.v1 1.2.0 gvk=example.com/v1/Widget label=l
channel dep stable
  entry dep.v1
`
	runCases(t, []Check{Catalogs}, []checkCase{
		{
			name:  "single catalog",
			specs: []string{needs},
		},
		{
			name:   "all met elsewhere",
			reason: "one finding per requirement, each naming the catalog and bundles that meet it",
			specs:  []string{needs, meets},
			want: []string{
				"a satisfied-by-other-catalog app app.v1",
				"a satisfied-by-other-catalog app app.v1",
				"a satisfied-by-other-catalog app app.v1",
			},
			messages: []string{
				`"app.v1" requires olm.gvk.required example.com/v1 Widget: no candidate of catalog "a" meets it, catalog "b" ("dep.v1") does`,
				`olm.label.required "l"`,
				`olm.package.required dep ">=1.0.0 <2.0.0"`,
			},
		},
		{
			name:   "met at home",
			reason: "a requirement its own catalog meets is not reported, even if another meets it too",
			specs:  []string{needs + meets, meets},
		},
		{
			name:   "not candidates elsewhere",
			reason: "out of range (dep.v0, dep.v3), deprecated (dep.v1) or skipped (dep.v2): nothing meets the package or the label requirement; dep.v0 meets the API one",
			specs: []string{needs, `
package dep stable
bundle dep dep.v0 0.9.0 gvk=example.com/v1/Widget
bundle dep dep.v1 1.2.0 label=l deprecated
bundle dep dep.v2 1.3.0
bundle dep dep.v3 3.0.0
channel dep stable
  entry dep.v3 replaces=dep.v1 skips=dep.v2
  entry dep.v2
  entry dep.v1 replaces=dep.v0
  entry dep.v0
`},
			want:     []string{"a satisfied-by-other-catalog app app.v1"},
			messages: []string{`olm.gvk.required example.com/v1 Widget: no candidate of catalog "a" meets it, catalog "b" ("dep.v0") does`},
		},
		{
			name:   "own package does not count",
			reason: "a bundle's own package never satisfies its own requirement, in any catalog",
			specs: []string{`
package app stable
bundle app app.v1 1.0.0 requires-gvk=example.com/v1/Widget
channel app stable
  entry app.v1
`, `
package app stable
bundle app app.v2 2.0.0 gvk=example.com/v1/Widget
channel app stable
  entry app.v2
`},
		},
		{
			name:   "drift probe",
			reason: "lib.bad's version does not parse, so it is in no range: catalog b's lib.v0.5.0 meets <1.0.0, as the resolver agrees (scenario dep_invalid_version_not_in_range)",
			specs: []string{`
package app stable
bundle app app.v1.0.0 1.0.0 requires-package=lib:<1.0.0
channel app stable
  entry app.v1.0.0
package lib stable
bundle lib lib.bad not-a-version
channel lib stable
  entry lib.bad
`, `
package lib stable
bundle lib lib.v0.5.0 0.5.0
channel lib stable
  entry lib.v0.5.0
`},
			want:     []string{"a satisfied-by-other-catalog app app.v1.0.0"},
			messages: []string{`olm.package.required lib "<1.0.0": no candidate of catalog "a" meets it, catalog "b" ("lib.v0.5.0") does`},
		},
		{
			name: "constraint",
			specs: []string{`
package app stable
bundle app app.v1 1.0.0 'constraint={"failureMessage":"needs dep 1.x","all":{"constraints":[{"package":{"packageName":"dep","versionRange":">=1.0.0"}},{"not":{"constraints":[{"gvk":{"group":"x","version":"v1","kind":"Bad"}}]}}]}}'
channel app stable
  entry app.v1
`, `
package dep stable
bundle dep dep.v1 1.2.0 gvk=x/v1/Bad
bundle dep dep.v2 1.3.0
channel dep stable
  entry dep.v2 replaces=dep.v1
  entry dep.v1
`},
			want:     []string{"a satisfied-by-other-catalog app app.v1"},
			messages: []string{`olm.constraint all of (package dep >=1.0.0, none of (gvk x/v1 Bad)) ("needs dep 1.x"): no candidate of catalog "a" meets it, catalog "b" ("dep.v2") does`},
		},
		{
			name:   "cel constraint",
			reason: "cel rules are evaluated as OLM does: dep.v1 (1.2.0) fails semver_compare >= 1.3, dep.v2 meets it",
			specs: []string{`
package app stable
bundle app app.v1 1.0.0 'constraint={"cel":{"rule":"properties.exists(p, p.type == \"olm.package\" && p.value.packageName == \"dep\" && semver_compare(p.value.version, \"1.3\") >= 0)"}}'
channel app stable
  entry app.v1
`, `
package dep stable
bundle dep dep.v1 1.2.0
bundle dep dep.v2 1.3.0
channel dep stable
  entry dep.v2 replaces=dep.v1
  entry dep.v1
`},
			want:     []string{"a satisfied-by-other-catalog app app.v1"},
			messages: []string{`catalog "b" ("dep.v2") does`},
		},
		{
			name:   "invalid cel rule",
			reason: "a rule that does not compile is left to the installability finding",
			specs: []string{`
package app stable
bundle app app.v1 1.0.0 'constraint={"cel":{"rule":"1 + 1"}}'
channel app stable
  entry app.v1
`, `
package dep stable
bundle dep dep.v1 1.2.0
channel dep stable
  entry dep.v1
`},
		},
	})
}

func TestStructuralIncluded(t *testing.T) {
	rep, err := Run(t.Context(), []Input{{Name: "a", Catalog: buildSpec(t, `
package p stable
bundle p p.v1 1.0.0
bundle p p.v2 2.0.0
channel p stable
  entry p.v1
  entry p.v2
`)}}, Options{CEL: testCEL})
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, f := range rep.Findings {
		codes = append(codes, f.Code)
	}
	if !slices.Contains(codes, graph.CodeMultipleHeads) || !slices.Contains(codes, CodeNoUpgradePath) {
		t.Errorf("codes %q: want both %q and %q", codes, graph.CodeMultipleHeads, CodeNoUpgradePath)
	}
}

func TestRunErrors(t *testing.T) {
	cat := buildSpec(t, "package p stable\nbundle p p.v1 1.0.0\nchannel p stable\n  entry p.v1\n")
	tests := []struct {
		name string
		in   []Input
		opts Options
		want string
	}{
		{"nil catalog", []Input{{Name: "x"}}, Options{CEL: testCEL}, `input 0 ("x"): no catalog`},
		{"duplicate name", []Input{{Name: "x", Catalog: cat}, {Name: "x", Catalog: cat}}, Options{CEL: testCEL}, `input 1: duplicate catalog name "x"`},
		{"unknown check", []Input{{Name: "x", Catalog: cat}}, Options{CEL: testCEL, Checks: []Check{"speling"}}, `unknown check "speling"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(t.Context(), tc.in, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := Run(ctx, []Input{{Name: "x", Catalog: cat}}, Options{CEL: testCEL})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Run: err = %v, want context.Canceled", err)
	}
}

func TestFindingJSONRoundTrip(t *testing.T) {
	in := []Finding{
		{Severity: graph.SeverityError, Code: "x", Catalog: "c", Package: "p", Channel: "ch", Bundle: "b", Message: "m", Pos: graph.Position{File: "f.json", Line: 3, Offset: 10}},
		{Severity: graph.SeverityInfo, Code: "y", Catalog: "c", Message: "n"},
	}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	const want = `[{"severity":"error","code":"x","catalog":"c","package":"p","channel":"ch","bundle":"b","message":"m","file":"f.json","line":3,"offset":10},{"severity":"info","code":"y","catalog":"c","package":"","channel":"","bundle":"","message":"n"}]`
	if string(data) != want {
		t.Errorf("JSON:\n got %s\nwant %s", data, want)
	}
	var out []Finding
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(out, in) {
		t.Errorf("round trip: got %+v, want %+v", out, in)
	}
	if err := json.Unmarshal([]byte(`{"severity":"fatal"}`), new(Finding)); err == nil {
		t.Error("unknown severity: no error")
	}
}

func TestReportJSONRoundTrip(t *testing.T) {
	cat := buildSpec(t, `
package app stable
bundle app app.v1 1.0.0 requires-gvk=example.com/v1/Widget
bundle app app.v2 2.0.0
channel app stable
  entry app.v1 replaces=app.v2
  entry app.v2
`)
	rep, err := Run(t.Context(), []Input{{Name: "c", Catalog: cat}}, Options{CEL: testCEL})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	again, err := json.Marshal(&back)
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(data) {
		t.Errorf("round trip:\n got %s\nwant %s", again, data)
	}
	if len(back.Catalogs[0].Counts) == 0 || back.Catalogs[0].Counts[0].Severity != graph.SeverityWarning {
		t.Errorf("counts after round trip: %+v", back.Catalogs[0].Counts)
	}
}

// TestInstallWithOtherCatalogs: with several catalogs, a bundle that still
// cannot be installed is explained as a cluster that sees them all would
// have it — never by a requirement the same report says another catalog
// meets (issue 29).
func TestInstallWithOtherCatalogs(t *testing.T) {
	runCases(t, []Check{Catalogs, Installability}, []checkCase{{
		name:   "one requirement met elsewhere, one nowhere",
		reason: "the package requirement is met by catalog b; the API one by nothing",
		specs: []string{`
package app stable
bundle app app.v1 1.0.0 'requires-package=dep:>=1.0.0' requires-gvk=example.com/v1/Gadget
channel app stable
  entry app.v1
`, `
package dep stable
bundle dep dep.v1 1.2.0
channel dep stable
  entry dep.v1
`},
		want: []string{"a satisfied-by-other-catalog app app.v1", "a head-not-installable app/stable app.v1"},
		messages: []string{
			`olm.package.required dep ">=1.0.0": no candidate of catalog "a" meets it, catalog "b" ("dep.v1") does`,
			`"app.v1", the head of channel "stable", cannot be installed on an empty cluster from the catalogs given:`,
		},
		explain: []string{"", "requires olm.gvk.required example.com/v1 Gadget, which nothing satisfies"},
	}})
	// Not the requirement another catalog meets.
	rep, err := Run(t.Context(), []Input{
		{Name: "a", Catalog: buildSpec(t, "package app stable\nbundle app app.v1 1.0.0 'requires-package=dep:>=1.0.0' requires-gvk=example.com/v1/Gadget\nchannel app stable\n  entry app.v1\n")},
		{Name: "b", Catalog: buildSpec(t, "package dep stable\nbundle dep dep.v1 1.2.0\nchannel dep stable\n  entry dep.v1\n")},
	}, Options{CEL: testCEL, Checks: []Check{Installability}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if strings.Contains(f.Message, "olm.package.required dep") {
			t.Errorf("%s names the requirement catalog b meets", f)
		}
	}
}

func TestWriteTextSeveralCatalogs(t *testing.T) {
	const spec = `
package app stable
bundle app app.v1 1.0.0 requires-label=l
channel app stable
  entry app.v1
`
	var ins []Input
	for _, name := range []string{"one", "two"} {
		ins = append(ins, Input{Name: name, Catalog: buildSpec(t, spec)})
	}
	ins = append(ins, Input{Name: "three", Catalog: buildSpec(t, `
package lib stable
bundle lib lib.v1 1.0.0 label=l
channel lib stable
  entry lib.v1
`)})
	rep, err := Run(t.Context(), ins, Options{CEL: testCEL})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := rep.WriteText(&b, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{
		// Installable on a cluster that sees the three catalogs: no error
		// in the same report that says where the requirement is met.
		"catalog one: 1 package, 1 channel, 1 bundle\napp\n" +
			"  info     satisfied-by-other-catalog  app.v1: requires label \"l\", which catalog \"three\" meets\n" +
			"one: 0 errors, 0 warnings, 1 info in 1 of 1 package\n",
		"catalog two: 1 package, 1 channel, 1 bundle\n",
		"catalog three: 1 package, 1 channel, 1 bundle\nthree: 0 errors, 0 warnings, 0 info in 0 of 1 package\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("text lacks %q:\n%s", want, got)
		}
	}
	if strings.Index(got, "catalog two") < strings.Index(got, "catalog one") || strings.Index(got, "catalog three") < strings.Index(got, "catalog two") {
		t.Errorf("catalogs out of input order:\n%s", got)
	}
}

func TestFilter(t *testing.T) {
	cat := buildSpec(t, `
package p stable
bundle p p.v1 1.0.0
bundle p p.v2 2.0.0 requires-gvk=x/v1/Missing
channel p stable
  entry p.v2 replaces=p.v1 skipRange='<0.5.0'
  entry p.v1
`)
	rep, err := Run(t.Context(), []Input{{Name: "c", Catalog: cat}}, Options{CEL: testCEL})
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, f := range rep.Findings {
		codes = append(codes, f.Code)
	}
	if want := []string{CodeHeadNotInstallable, CodeSkipRangeMatchesNothing}; !slices.Equal(codes, want) {
		t.Fatalf("codes %q, want %q", codes, want)
	}
	for _, tc := range []struct {
		min  graph.Severity
		want int
	}{{graph.SeverityInfo, 2}, {graph.SeverityWarning, 1}, {graph.SeverityError, 1}} {
		f := rep.Filter(tc.min)
		if len(f.Findings) != tc.want || len(f.Catalogs[0].Counts) != tc.want {
			t.Errorf("Filter(%s): %d findings, %d counts, want %d", tc.min, len(f.Findings), len(f.Catalogs[0].Counts), tc.want)
		}
	}
	if len(rep.Findings) != 2 || len(rep.Catalogs[0].Counts) != 2 {
		t.Error("Filter modified the report")
	}
	if m, ok := rep.Max(); !ok || m != graph.SeverityError {
		t.Errorf("Max = %v, %v; want error, true", m, ok)
	}
	if len(rep.Errors()) != 1 {
		t.Errorf("Errors() = %v", rep.Errors())
	}
}

func TestRunNothing(t *testing.T) {
	rep, err := Run(t.Context(), nil, Options{CEL: testCEL})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(rep)
	if string(data) != `{"findings":[],"catalogs":[]}` {
		t.Errorf("empty report %s", data)
	}
}

// TestWithoutCEL checks what Options.CEL documents when it is nil: the
// installability check reports the resolver's error, and a requirement
// with a cel rule is met by no other catalog.
func TestWithoutCEL(t *testing.T) {
	app := buildSpec(t, `
package app stable
bundle app app.v1 1.0.0 'constraint={"cel":{"rule":"properties.exists(p, p.type == \"olm.package\")"}}'
channel app stable
  entry app.v1
`)
	dep := buildSpec(t, `
package dep stable
bundle dep dep.v1 1.0.0
channel dep stable
  entry dep.v1
`)
	rep, err := Run(t.Context(), []Input{{Name: "a", Catalog: app}, {Name: "b", Catalog: dep}}, Options{Checks: []Check{Installability, Catalogs}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range rep.Findings {
		got = append(got, key(f))
	}
	if want := []string{"a head-not-installable app/stable app.v1"}; !slices.Equal(got, want) {
		t.Fatalf("findings %q, want %q\n%s", got, want, listing(rep))
	}
	if e := rep.Findings[0].Explanation; e == nil || !strings.Contains(e.Error, "no cel evaluator") {
		t.Errorf("explanation %v, want the resolver's %v", e, resolver.ErrNoCEL)
	}
}

// TestStrandedInCycle: entries stranded in a cycle beside the head have
// upgrades that end nowhere; message and brief say they go round (both
// said "end at" and named nothing).
func TestStrandedInCycle(t *testing.T) {
	cat := buildSpec(t, `
package p stable
bundle p p.v1 1.0.0
bundle p p.v2 2.0.0
bundle p p.v3 3.0.0
channel p stable
  entry p.v3
  entry p.v2 replaces=p.v1
  entry p.v1 replaces=p.v2
`)
	p := cat.Package("p")
	c := p.Channel("stable")
	msg, brief := strandedMessage(p, c, "p.v1", "p.v3", c.Heads())
	if want := `"p.v1" cannot upgrade to the channel head "p.v3": its upgrades (1 reachable entry) go round in a cycle`; msg != want {
		t.Errorf("message %q, want %q", msg, want)
	}
	if want := "no path to head 3.0.0: upgrades go round in a cycle"; brief != want {
		t.Errorf("brief %q, want %q", brief, want)
	}
}
