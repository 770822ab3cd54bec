package check

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/graph"
)

const communityIndex = "community-operators-prod.v4.20-index"

// newKeys returns "code package/channel bundle" for every new finding.
func newKeys(rep *Report) []string {
	var out []string
	for _, f := range rep.Findings {
		if f.Status == StatusNew {
			out = append(out, strings.TrimPrefix(key(f), f.Catalog+" "))
		}
	}
	return out
}

func runBaselinePair(t testing.TB, old, cur *graph.Catalog, checks ...Check) *Report {
	t.Helper()
	rep, err := Run(t.Context(), []Input{{Name: "community", Catalog: cur}},
		Options{CEL: testCEL, Checks: checks, Baseline: []Input{{Name: "community", Catalog: old}}})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestBaselineSelf: a catalog against itself has no regression and no new
// finding, and resolves nothing.
func TestBaselineSelf(t *testing.T) {
	cat := loadShipped(t, communityIndex)
	rep := runBaselinePair(t, cat, cat)
	if got := newKeys(rep); len(got) > 0 {
		t.Fatalf("new findings against itself: %q", got)
	}
	if len(rep.Resolved) > 0 {
		t.Fatalf("resolved findings against itself: %d", len(rep.Resolved))
	}
	b := rep.Catalogs[0].Baseline
	if b == nil || b.Existing != len(rep.Findings) || b.Existing == 0 || !reflect.DeepEqual(*b, BaselineSummary{Name: "community", Existing: b.Existing}) {
		t.Fatalf("baseline summary %+v, want only %d existing", b, len(rep.Findings))
	}
	// The same findings as without a baseline, each marked existing.
	plain, err := Run(t.Context(), []Input{{Name: "community", Catalog: cat}}, Options{CEL: testCEL})
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Findings) != len(rep.Findings) {
		t.Fatalf("%d findings with a baseline, %d without", len(rep.Findings), len(plain.Findings))
	}
	for i := range plain.Findings {
		f := rep.Findings[i]
		f.Status = StatusNone
		if f.String() != plain.Findings[i].String() {
			t.Fatalf("finding %d: %s, without a baseline %s", i, f, plain.Findings[i])
		}
	}
}

// TestBaselineEdits compares copies of the community index, edited in the
// test, with the original: the regressions and new findings each edit
// makes.
func TestBaselineEdits(t *testing.T) {
	orig := loadShipped(t, communityIndex)
	cases := []struct {
		name   string
		reason string
		edits  []edit
		checks []Check
		want   []string
		// messages holds substrings of the new findings' messages, in
		// order (empty: not checked).
		messages []string
	}{
		{
			name:   "remove a channel head",
			reason: "etcdoperator.v0.9.4 heads singlenamespace-alpha; without it the head is 0.9.2, lower",
			edits:  []edit{removeBundle("etcd", "etcdoperator.v0.9.4")},
			want: []string{
				"channel-head-lowered etcd/singlenamespace-alpha etcdoperator.v0.9.2",
				"head-removed etcd/singlenamespace-alpha etcdoperator.v0.9.4",
			},
			messages: []string{
				`the head of channel "singlenamespace-alpha" is "etcdoperator.v0.9.2" (0.9.2), lower than "etcdoperator.v0.9.4" (0.9.4) in the baseline`,
				`"etcdoperator.v0.9.4" (0.9.4), the head of channel "singlenamespace-alpha" in the baseline, is gone from it (its bundle is gone from the catalog); the head is now "etcdoperator.v0.9.2" (0.9.2)`,
			},
		},
		{
			name:   "remove a bundle in the middle of a chain",
			reason: "0.9.4 replaces 0.9.2, which replaces 0.9.0: without 0.9.2, 0.9.0 has no upgrade; a cluster on 0.9.2 still upgrades by the dangling replaces",
			edits:  []edit{removeBundle("etcd", "etcdoperator.v0.9.2")},
			want: []string{
				"bundle-removed etcd/singlenamespace-alpha etcdoperator.v0.9.2",
				"upgrade-path-lost etcd/singlenamespace-alpha etcdoperator.v0.9.0",
				// The structural findings the edit introduces.
				"dangling-replaces etcd/singlenamespace-alpha etcdoperator.v0.9.4",
				"multiple-heads etcd/singlenamespace-alpha",
				"no-upgrade-path etcd/singlenamespace-alpha etcdoperator.v0.9.0",
			},
			messages: []string{
				`"etcdoperator.v0.9.0" (0.9.0) reached the channel head "etcdoperator.v0.9.4" in the baseline (2 hops); it cannot reach the head "etcdoperator.v0.9.4": no entry replaces it`,
				`"etcdoperator.v0.9.2" (0.9.2) is gone from channel "singlenamespace-alpha" (its bundle is gone from the catalog); clusters running it can upgrade to "etcdoperator.v0.9.4"`,
			},
		},
		{
			name:  "rename a channel",
			edits: []edit{renameChannel("etcd", "clusterwide-alpha", "clusterwide")},
			// The channel's install-mode-dropped finding names the channel,
			// so under the new name it is new too.
			want: []string{"channel-removed etcd/clusterwide-alpha", "install-mode-dropped etcd/clusterwide etcdoperator.v0.9.2-clusterwide"},
			messages: []string{
				`channel "clusterwide-alpha" of "etcd" is gone (3 entries in the baseline): subscriptions to it no longer resolve; its head "etcdoperator.v0.9.4-clusterwide" is in channel clusterwide`,
			},
		},
		{
			name:  "change a default channel",
			edits: []edit{setDefaultChannel("cert-manager", "candidate")},
			want:  []string{"default-channel-changed cert-manager/candidate"},
			messages: []string{
				`the default channel of "cert-manager" is "candidate", was "stable": subscriptions that name no channel follow "candidate" (head "cert-manager.v1.16.5" (1.16.5), was "cert-manager.v1.16.5" (1.16.5))`,
			},
		},
		{
			name:   "drop an API from a head",
			reason: "cert-manager's head (of stable and candidate) stops providing Certificate: the upgrade to it drops the API, a new finding; the bundles that need the API still have older cert-manager bundles to meet it",
			edits:  []edit{dropAPI("cert-manager", "cert-manager.v1.16.5", "cert-manager.io", "v1", "Certificate")},
			want:   []string{"api-dropped-on-upgrade cert-manager/candidate cert-manager.v1.16.5"},
		},
		{
			name:   "deprecate a channel",
			edits:  []edit{deprecate("etcd", "olm.channel", "alpha", "use singlenamespace-alpha")},
			checks: []Check{Structural, Deprecations},
			want:   []string{"deprecation-added etcd/alpha"},
			messages: []string{
				`channel "alpha" is deprecated (olm.deprecations): "use singlenamespace-alpha"`,
			},
		},
		{
			name: "remove a package",
			edits: []edit{func(t testing.TB, blobs []*blob) []*blob {
				return slices.DeleteFunc(blobs, func(b *blob) bool { return b.Package == "etcd" })
			}},
			want: []string{"package-removed etcd"},
			messages: []string{
				`package "etcd" is gone (3 channels, 6 bundles in the baseline): its subscriptions no longer resolve`,
			},
		},
	}
	// Installability resolves thousands of bundles per run and none of the
	// edits changes what is installable (TestBaselineSpecs covers
	// no-longer-installable), so the cases leave it out unless they ask.
	var noInstall []Check
	for _, c := range AllChecks() {
		if c != Installability {
			noInstall = append(noInstall, c)
		}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cur := editedShipped(t, communityIndex, tc.edits...)
			checks := tc.checks
			if checks == nil {
				checks = noInstall
			}
			rep := runBaselinePair(t, orig, cur, checks...)
			got := newKeys(rep)
			if tc.want == nil {
				t.Fatalf("new findings: %q", got)
			}
			if !slices.Equal(got, sortedKeys(tc.want)) {
				t.Fatalf("new findings (%s):\n got %q\nwant %q", tc.reason, got, sortedKeys(tc.want))
			}
			var regs []Finding
			for _, f := range rep.Findings {
				if IsRegression(f.Code) {
					regs = append(regs, f)
				}
			}
			for i, m := range tc.messages {
				if i >= len(regs) {
					t.Fatalf("want message %q, only %d regressions", m, len(regs))
				}
				if !strings.Contains(regs[i].Message, m) {
					t.Errorf("regression %d message:\n%s\ndoes not contain\n%s", i, regs[i].Message, m)
				}
			}
		})
	}
}

// sortedKeys sorts keys as the report sorts findings: by package,
// channel, bundle, then code.
func sortedKeys(keys []string) []string {
	type k struct{ code, pkg, channel, bundle, all string }
	parse := func(s string) k {
		code, obj, _ := strings.Cut(s, " ")
		pc, bundle, _ := strings.Cut(obj, " ")
		pkg, channel, _ := strings.Cut(pc, "/")
		return k{code, pkg, channel, bundle, s}
	}
	ks := make([]k, len(keys))
	for i, s := range keys {
		ks[i] = parse(s)
	}
	slices.SortFunc(ks, func(a, b k) int {
		return strings.Compare(fmt.Sprint(a.pkg, "\x00", a.channel, "\x00", a.bundle, "\x00", a.code),
			fmt.Sprint(b.pkg, "\x00", b.channel, "\x00", b.bundle, "\x00", b.code))
	})
	out := make([]string, len(ks))
	for i, x := range ks {
		out[i] = x.all
	}
	return out
}

// TestBaselineSpecs compares small catalogs built in code with their
// baselines.
func TestBaselineSpecs(t *testing.T) {
	cases := []struct {
		name   string
		reason string
		old    string
		// edits make the current catalog from old: each replaces a text
		// that occurs once in old with another.
		edits    []specEdit
		want     []string // "status code package/channel bundle", new findings first
		messages []string // substrings of the regressions' messages, in order
		resolved []string // keys of Report.Resolved
	}{
		{
			name:   "fix an unknown default channel",
			reason: "the baseline's default channel named no channel (unknown-default-channel): making it stable is a fix, not a default-channel-changed regression",
			old: `
package app nosuch
bundle app app.v1 1.0.0
channel app stable
  entry app.v1
`,
			edits:    []specEdit{{"package app nosuch", "package app stable"}},
			resolved: []string{"a unknown-default-channel app"},
		},
		{
			name:   "requirement loses its provider",
			reason: "lib.v1 stops providing g/v1 A: app's requirement is newly unmet and its head no longer installable",
			old: `
package app stable
bundle app app.v1 1.0.0 requires-gvk=g/v1/A
channel app stable
  entry app.v1
package lib stable
bundle lib lib.v1 1.0.0 gvk=g/v1/A
channel lib stable
  entry lib.v1
`,
			edits: []specEdit{{"bundle lib lib.v1 1.0.0 gvk=g/v1/A", "bundle lib lib.v1 1.0.0 gvk=g/v1/B"}},
			want: []string{
				"new requirement-newly-unmet app app.v1",
				"new head-not-installable app/stable app.v1",
				"new no-longer-installable app/stable app.v1",
			},
			messages: []string{
				`"app.v1" requires olm.gvk.required g/v1 A: the baseline met it ("lib.v1"), no candidate of the catalog does`,
				`"app.v1", the head of channel "stable", was installable on an empty cluster from the baseline and is not from this catalog: bundle app.v1 requires olm.gvk.required g/v1 A, which nothing satisfies`,
			},
		},
		{
			name:   "an edge removed strands a version that stays",
			reason: "p.v3 no longer replaces p.v2: p.v2 and p.v1 are still entries but cannot reach p.v3",
			old:    soundChain,
			edits:  []specEdit{{"entry p.v3 replaces=p.v2", "entry p.v3"}},
			want: []string{
				"new multiple-heads p/stable",
				"new no-upgrade-path p/stable p.v1",
				"new upgrade-path-lost p/stable p.v1",
				"new no-upgrade-path p/stable p.v2",
				"new upgrade-path-lost p/stable p.v2",
			},
			messages: []string{
				`"p.v1" (1.0.0) reached the channel head "p.v3" in the baseline (2 hops); it cannot reach the head "p.v3": its upgrades (1 reachable entry) end at "p.v2"`,
				`"p.v2" (2.0.0) reached the channel head "p.v3" in the baseline (1 hop); it cannot reach the head "p.v3": no entry replaces it`,
			},
		},
		{
			name:   "a finding whose wording changes stays existing; a fixed one is resolved",
			reason: "the downgrade of p.v2 stays (its message names another version); q's stranded entry is fixed",
			old: `
package p stable
bundle p p.v1 5.0.0
bundle p p.v2 2.0.0
channel p stable
  entry p.v2 replaces=p.v1
  entry p.v1
package q stable
bundle q q.v1 1.0.0
bundle q q.v2 2.0.0
channel q stable
  entry q.v2 skips=q.v0
  entry q.v1
`,
			edits: []specEdit{
				{"bundle p p.v1 5.0.0", "bundle p p.v1 6.0.0"},
				{"entry q.v2 skips=q.v0", "entry q.v2 replaces=q.v1"},
			},
			want: []string{
				"existing downgrade-edge p/stable p.v2",
			},
			resolved: []string{
				"a multiple-heads q/stable",
				"a no-upgrade-path q/stable q.v1",
				"a dangling-skip q/stable q.v2",
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			old, cur := buildSpec(t, tc.old), buildSpec(t, editSpec(t, tc.old, tc.edits...))
			rep, err := Run(t.Context(), []Input{{Name: "a", Catalog: cur}}, Options{CEL: testCEL, Baseline: []Input{{Name: "a", Catalog: old}}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			var regs []Finding
			for _, f := range rep.Findings {
				got = append(got, string(f.Status)+" "+strings.TrimPrefix(key(f), "a "))
				if IsRegression(f.Code) {
					regs = append(regs, f)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("findings (%s):\n got %q\nwant %q\n%s", tc.reason, got, tc.want, listing(rep))
			}
			for i, m := range tc.messages {
				if i >= len(regs) || !strings.Contains(regs[i].Message, m) {
					t.Errorf("regression %d: want a message containing %q; regressions:\n%s", i, m, listing(&Report{Findings: regs}))
				}
			}
			var res []string
			for _, f := range rep.Resolved {
				res = append(res, key(f))
			}
			if !slices.Equal(res, tc.resolved) {
				t.Errorf("resolved:\n got %q\nwant %q", res, tc.resolved)
			}
		})
	}
}

// specEdit replaces the text from, which must occur once in a spec, with to.
type specEdit struct{ from, to string }

// editSpec returns spec with edits applied in order.
func editSpec(t testing.TB, spec string, edits ...specEdit) string {
	t.Helper()
	for _, e := range edits {
		if n := strings.Count(spec, e.from); n != 1 {
			t.Fatalf("spec edit %q: %d occurrences in the spec, want 1", e.from, n)
		}
		spec = strings.Replace(spec, e.from, e.to, 1)
	}
	return spec
}

// TestBaselineSeveralCatalogs: with several inputs and a baseline for one,
// the baseline is checked beside the other inputs, so the Catalogs check
// finds the same requirement met elsewhere and nothing is new.
func TestBaselineSeveralCatalogs(t *testing.T) {
	app := buildSpec(t, `
package app stable
bundle app app.v1 1.0.0 requires-package=db:>=1.0.0
channel app stable
  entry app.v1
`)
	db := buildSpec(t, `
package db stable
bundle db db.v1 1.0.0
channel db stable
  entry db.v1
`)
	ins := []Input{{Name: "app", Catalog: app}, {Name: "db", Catalog: db}}
	rep, err := Run(t.Context(), ins, Options{CEL: testCEL, Baseline: []Input{{Name: "app", Catalog: app}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) == 0 {
		t.Fatal("no findings: the case needs app's requirement met by catalog db")
	}
	for _, f := range rep.Findings {
		want := StatusExisting
		if f.Catalog == "db" {
			want = StatusNone
		}
		if f.Status != want {
			t.Errorf("%s %s: status %q, want %q", f.Catalog, f, f.Status, want)
		}
	}
	if rep.Catalogs[1].Baseline != nil {
		t.Errorf("catalog db has no baseline, got a comparison %+v", rep.Catalogs[1].Baseline)
	}
}

// TestBaselineErrors: a baseline must name an input, once, with a catalog.
func TestBaselineErrors(t *testing.T) {
	cat := buildSpec(t, "package p stable\nbundle p p.v1 1.0.0\nchannel p stable\n  entry p.v1\n")
	ins := []Input{{Name: "a", Catalog: cat}}
	for _, tc := range []struct {
		name     string
		baseline []Input
		want     string
	}{
		{"names no input", []Input{{Name: "b", Catalog: cat}}, `baseline 0: "b" names no input`},
		{"twice", []Input{{Name: "a", Catalog: cat}, {Name: "a", Catalog: cat}}, `baseline 1: duplicate baseline name "a"`},
		{"no catalog", []Input{{Name: "a"}}, `baseline 0 ("a"): no catalog`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(t.Context(), ins, Options{CEL: testCEL, Baseline: tc.baseline})
			if err == nil || err.Error() != tc.want {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}
