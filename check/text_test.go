package check

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/safetext"
)

func TestGroupFindings(t *testing.T) {
	f := func(bundle, msg string) Finding {
		return Finding{Severity: graph.SeverityWarning, Code: CodeNotInstallable, Catalog: "c", Package: "p", Channel: "stable", Bundle: bundle, Message: msg}
	}
	cause := func(b string) string { return `"` + b + `" cannot be installed: bundle ` + b + ` requires db >=1.0.0` }
	newer := f("p.v1.10.0", cause("p.v1.10.0"))
	newer.Status = StatusNew
	other := f("p.v1.2.0", cause("p.v1.2.0"))
	other.Channel = "fast"
	for _, tt := range []struct {
		name   string
		fs     []Finding
		want   [][]int // the groups' findings, in order
		reason string
	}{
		{"same cause", []Finding{f("p.v1.10.0", cause("p.v1.10.0")), f("p.v1.2.0", cause("p.v1.2.0")), f("p.v1.9.0", cause("p.v1.9.0"))},
			[][]int{{1, 2, 0}}, "the messages differ only by each bundle's name; members in version order (1.2 < 1.9 < 1.10)"},
		{"alone", []Finding{f("p.v1.0.0", cause("p.v1.0.0"))}, nil, "one finding is no group"},
		{"another cause", []Finding{f("p.v1.0.0", cause("p.v1.0.0")), f("p.v1.1.0", `"p.v1.1.0" cannot be installed: bundle p.v1.1.0 requires db >=2.0.0`)},
			nil, "a different requirement is a different cause"},
		{"status", []Finding{f("p.v1.0.0", cause("p.v1.0.0")), newer}, nil, "a new finding and an existing one are not one line"},
		{"channel", []Finding{f("p.v1.0.0", cause("p.v1.0.0")), other}, nil, "another channel is another group"},
		{"no bundle", []Finding{{Code: graph.CodeMultipleHeads, Package: "p", Channel: "a", Message: "x"}, {Code: graph.CodeMultipleHeads, Package: "p", Channel: "a", Message: "x"}},
			nil, "findings about no bundle are not grouped"},
		{"same bundle", []Finding{f("p.v1.0.0", cause("p.v1.0.0")), f("p.v1.0.0", cause("p.v1.0.0"))}, nil, "two findings on one bundle are two statements"},
		{"longer name", []Finding{f("p.v1", `"p.v1" replaces "p.v1.1"`), f("p.v2", `"p.v2" replaces "p.v2.1"`)}, nil,
			`p.v1 inside "p.v1.1" is another name: masked, the messages would wrongly agree`},
		{"other names", []Finding{f("p.v1", `"p.v1" replaces "p.v0.1"`), f("p.v2", `"p.v2" replaces "p.v0.1"`)}, [][]int{{0, 1}},
			"the same name in both messages is part of the cause"},
		{"two groups", []Finding{f("p.v2", "x p.v2"), f("p.v1", "y p.v1"), f("p.v3", "x p.v3"), f("p.v4", "y p.v4")},
			[][]int{{0, 2}, {1, 3}}, "groups in the order of their first finding"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			gs := GroupFindings(tt.fs)
			var got [][]int
			for _, g := range gs {
				got = append(got, g.Findings)
				if g.Count != len(g.Findings) || g.First != tt.fs[g.Findings[0]].Bundle || g.Last != tt.fs[g.Findings[len(g.Findings)-1]].Bundle {
					t.Errorf("group %+v: count, first or last do not match its findings", g)
				}
			}
			if !slices.EqualFunc(got, tt.want, slices.Equal) {
				t.Errorf("groups %v, want %v (%s)", got, tt.want, tt.reason)
			}
		})
	}
	g := GroupFindings([]Finding{f("p.v1.0.0", cause("p.v1.0.0")), f("p.v1.1.0", cause("p.v1.1.0"))})[0]
	if want := `"…" cannot be installed: bundle … requires db >=1.0.0`; g.Message != want {
		t.Errorf("group message %q, want %q", g.Message, want)
	}
}

func TestCompareNames(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"x.v7.44.0", "x.v7.120.0", -1},
		{"x.v7.120.0", "x.v7.44.0", 1},
		{"x.v1.0.0", "x.v1.0.0", 0},
		{"x.v01", "x.v1", -1},
		{"x.v1", "x.v1.0", -1},
		{"a", "b", -1},
	} {
		if got := compareNames(tt.a, tt.b); got != tt.want {
			t.Errorf("compareNames(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// findingLine is a finding line of the short form: indent, severity,
// code, object, message, position.
var findingLine = regexp.MustCompile(`^  (error|warning|info) +(?:new  |     )?([a-z-]+) +(.*?: )?(.*?)( \((?:line \d+|[^()]+:\d+)\))?$`)

// checkText checks the text forms of rep: every finding has a brief
// (checkBriefs); in the short form one line per finding or group, each
// within the width unless its message is as short as it gets, severity and
// code aligned, a brief within the fewest characters a message keeps
// shown whole; every group's findings say the same thing of different
// bundles, in their messages and their briefs; the full form has every
// message whole. It returns the short form.
func checkText(t *testing.T, rep *Report) string {
	t.Helper()
	reports, err := rep.ByCatalog()
	if err != nil {
		t.Fatal(err)
	}
	var short, full strings.Builder
	if err := reports.WriteText(&short, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := reports.WriteText(&full, TextOptions{Full: true}); err != nil {
		t.Fatal(err)
	}
	checkBriefs(t, rep.Findings)
	checkBriefs(t, rep.Resolved)
	checkBriefs(t, rep.Suppressed)
	want := 0
	for _, c := range reports.Catalogs {
		want += len(c.Findings) + len(c.Resolved) + len(c.Suppressed)
		for _, fs := range [][]Finding{c.Findings, c.Resolved, c.Suppressed} {
			for _, g := range GroupFindings(fs) {
				want -= g.Count - 1
				bundles := map[string]bool{}
				for _, i := range g.Findings {
					f := fs[i]
					if bundles[f.Bundle] || maskName(f.Message, f.Bundle) != g.Message || maskName(f.brief(), f.Bundle) != g.Brief || f.Code != g.Code || f.Channel != g.Channel {
						t.Errorf("group %+v: finding %s does not belong", g, f)
					}
					bundles[f.Bundle] = true
				}
				if w := safetext.Width(g.Brief); w <= minMessage && !strings.Contains(short.String(), " "+g.Brief) {
					t.Errorf("short form lacks the brief %q of group %+v", g.Brief, g)
				}
			}
			grouped := map[int]bool{}
			for _, g := range GroupFindings(fs) {
				for _, i := range g.Findings {
					grouped[i] = true
				}
			}
			for i, f := range fs {
				// A brief within the fewest characters a message keeps is
				// never shortened.
				if b := f.brief(); !grouped[i] && f.Suppression == nil && safetext.Width(b) <= minMessage && !strings.Contains(short.String(), " "+b) {
					t.Errorf("short form lacks the brief %q of %s", b, f)
				}
			}
			for _, f := range fs {
				first, _, _ := strings.Cut(f.Message, "\n")
				if !strings.Contains(full.String(), first) {
					t.Errorf("full form lacks the message %q", first)
				}
			}
		}
	}
	lines, codeColumn := 0, 0
	for _, l := range strings.Split(strings.TrimSuffix(short.String(), "\n"), "\n") {
		if !strings.HasPrefix(l, "  ") || strings.HasPrefix(l, "  added: ") || strings.HasPrefix(l, "  removed: ") {
			continue
		}
		m := findingLine.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("not a finding line: %q", l)
			continue
		}
		lines++
		if col := strings.Index(l, m[2]+" "); codeColumn == 0 {
			codeColumn = col
		} else if col != codeColumn {
			t.Errorf("code at column %d, not %d: %q", col, codeColumn, l)
		}
		if w := safetext.Width(l); w > DefaultWidth && safetext.Width(m[4]) > minMessage {
			t.Errorf("line of %d characters whose message is not as short as it gets: %q", w, l)
		}
	}
	if lines != want {
		t.Errorf("%d finding lines, want %d:\n%s", lines, want, short.String())
	}
	return short.String()
}

// TestWriteTextShort checks the short form on part of the community
// index: one line per finding or group, within the width unless the names
// take the room, severity and code aligned over the report; eclipse-che's
// 78 bundles that need devworkspace-operator >=0.11.0 one line; and the
// full form has every message whole.
func TestWriteTextShort(t *testing.T) {
	cat := editedShipped(t, communityIndex, onlyPackages("eclipse-che", "3scale-community-operator", "multicluster-operators-subscription", "skupper-operator", "cert-manager"))
	rep, err := Run(t.Context(), []Input{{Name: "community", Catalog: cat}}, Options{CEL: testCEL})
	if err != nil {
		t.Fatal(err)
	}
	short := checkText(t, rep)
	const eclipse = "  warning  not-installable             stable, 78 bundles eclipse-che.v7.44.0 … v7.120.0: requires package devworkspace-operator >=0.11.0: unmet ("
	if !strings.Contains(short, eclipse) {
		t.Errorf("short form lacks eclipse-che's group %q:\n%s", eclipse, short)
	}
	reports, err := rep.ByCatalog()
	if err != nil {
		t.Fatal(err)
	}
	groups := reports.Catalogs[0].Groups
	// JSON lists every finding and the groups beside them.
	js, err := json.Marshal(reports)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Catalogs []struct {
			Findings []json.RawMessage `json:"findings"`
			Groups   []Group           `json:"groups"`
		} `json:"catalogs"`
	}
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if c := back.Catalogs[0]; len(c.Findings) != len(reports.Catalogs[0].Findings) || len(c.Groups) != len(groups) {
		t.Errorf("JSON: %d findings and %d groups, want %d and %d", len(c.Findings), len(c.Groups), len(reports.Catalogs[0].Findings), len(groups))
	}
	var md strings.Builder
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if want := "- warning `not-installable` channel `stable` 78 bundles `eclipse-che.v7.44.0` … `eclipse-che.v7.120.0`: requires package devworkspace-operator &gt;=0.11.0: unmet (`"; !strings.Contains(md.String(), want) {
		t.Errorf("Markdown lacks the group %q:\n%s", want, md.String())
	}
}

// TestShortenedKeepsWords: the three cuts. A brief that does not
// fit keeps the phrase that says what is wrong ("no path to head 1.16.5
// any more", never "no path to head … more"); a suppression's reason, the
// user's words, is never shortened, in text or Markdown; a message's list
// cut in Markdown says how many items it left out, and no item is cut.
func TestShortenedKeepsWords(t *testing.T) {
	long := strings.Repeat("x", 60)
	const brief = "no path to head 1.16.5 any more (1 hop before): its upgrades end at 1.12.3 and 1.13.0"
	const reason = "the nightly and minor streams start fresh on purpose, as the release notes of every stream say at length"
	var items []string
	for i := range 18 {
		items = append(items, fmt.Sprintf("example.com/v1alpha%d Kind%02d (Kind%02d still served at v1)", i, i, i))
	}
	msg := "the upgrade from \"a.v1\" (1.0.0) to \"a.v2\" (2.0.0) drops 18 APIs: " + strings.Join(items, ", ")
	at := graph.Position{File: "c.json", Line: 3, Column: 1}
	rep := &Report{
		Catalogs: []CatalogSummary{{Name: "c"}},
		Findings: []Finding{{Severity: graph.SeverityError, Code: CodeUpgradePathLost, Catalog: "c", Package: "p", Channel: "stable", Bundle: "p.v" + long,
			Message: "m", Brief: brief, Pos: at}},
		Suppressed: []Finding{{Severity: graph.SeverityWarning, Code: CodeAPIDroppedOnUpgrade, Catalog: "c", Package: "p", Channel: "stable", Bundle: "p.v2",
			Message: msg, Brief: "from 1.0.0 drops Kind00 v1alpha0 and 17 more APIs", Pos: at,
			Suppression: &Suppression{Code: CodeAPIDroppedOnUpgrade, Package: "p", Reason: reason, Pos: graph.Position{File: ".sextant.yaml", Line: 4}}}},
	}
	var text, md strings.Builder
	if err := rep.WriteText(&text, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"stable p.v" + long + ": no path to head 1.16.5 any more (1 hop before)", "by line 4: " + reason + " (c.json:3)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	if !strings.Contains(md.String(), "suppressed: "+reason) {
		t.Errorf("Markdown lacks the whole reason %q:\n%s", reason, md.String())
	}
	// The message is longer than the Markdown's budget for it: cut at
	// list items, with their count.
	details := md.String()[strings.Index(md.String(), "<summary>message</summary>"):]
	shown := strings.Count(details, " still served at v1)")
	more := regexp.MustCompile(`… (\d+) more, `).FindStringSubmatch(details)
	if more == nil {
		t.Fatalf("the cut list does not say how many it left out:\n%s", details)
	}
	if n, _ := strconv.Atoi(more[1]); n+shown != 18 {
		t.Errorf("the list shows %d items and says %d more; the message has 18", shown, n)
	}
}
