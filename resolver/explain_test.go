package resolver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	goldenfile "github.com/sextantdev/sextant/internal/golden"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolvertest"
)

// chainPkg is a package whose channel chName (the default) is a replaces
// chain of one bundle per version, oldest first in versions; every bundle
// has props.
func chainPkg(name, chName string, versions []string, props ...graph.Property) pkg {
	p := pkg{name: name, def: chName}
	var entries []graph.Entry
	prev := ""
	for _, v := range versions {
		b := name + ".v" + v
		p.bundles = append(p.bundles, bdl{b, v, props})
		entries = append([]graph.Entry{e(b, prev)}, entries...)
		prev = b
	}
	p.channels = []ch{{chName, entries}}
	return p
}

// withCSV returns a CSV installed by hand that provides gvks (from its CRDs,
// with no properties annotation).
func withCSV(name, version string, gvks ...graph.GVK) cluster.CSV {
	c := csv(name, version)
	c.Provides = gvks
	return c
}

// bundleCSV returns the installed CSV of a catalog bundle, with the
// bundle's properties as OLM projects them.
func bundleCSV(t *testing.T, c cat, pkgName, bundle string) cluster.CSV {
	t.Helper()
	b := buildCatalog(t, c).Catalog.Bundle(graph.BundleRef{Package: pkgName, Name: bundle})
	if b == nil {
		t.Fatalf("no bundle %s/%s", pkgName, bundle)
	}
	return cluster.CSV{Name: b.Name, Namespace: "ns", Version: b.Version, VersionText: b.VersionText, Phase: "Succeeded",
		HasProperties: true, Properties: b.Properties, Provides: b.Provides}
}

type explainCase struct {
	name   string
	reason string
	cats   []cat
	state  func(t *testing.T, cats []cat) *cluster.State
}

var (
	gizmo     = gvk("example.com", "v1", "Gizmo")
	etcdAPI   = gvk("etcd.database.coreos.com", "v1beta2", "EtcdCluster")
	backupAPI = gvk("etcd.database.coreos.com", "v1beta2", "EtcdBackup")
)

func subs(ss ...cluster.Subscription) func(*testing.T, []cat) *cluster.State {
	return func(*testing.T, []cat) *cluster.State { return &cluster.State{Subscriptions: ss} }
}

func explainCases() []explainCase {
	twoChannels := pkg{name: "etcd", def: "alpha",
		channels: []ch{{"alpha", []graph.Entry{e("etcd.v1", "")}}, {"beta", []graph.Entry{e("etcd.v2", "")}}},
		bundles:  []bdl{{"etcd.v1", "1.0.0", nil}, {"etcd.v2", "2.0.0", nil}}}
	return []explainCase{
		{
			name:   "gvk_nobody_provides",
			reason: "a required API that no bundle of any visible catalog provides",
			cats:   []cat{{pkgs: []pkg{single("app", "1.0.0", requires(widget))}}},
			state:  subs(sub("app", "app", "stable")),
		},
		{
			name:   "two_providers",
			reason: "two subscriptions whose only bundles provide the same API",
			cats:   []cat{{pkgs: []pkg{single("a", "1.0.0", provides(widget)), single("b", "1.0.0", provides(widget))}}},
			state:  subs(sub("a", "a", "stable"), sub("b", "b", "stable")),
		},
		{
			name:   "package_range_nothing",
			reason: "a package range no version satisfies: the note lists the versions that exist",
			cats: []cat{{pkgs: []pkg{single("app", "1.0.0", needsPkg("etcd", ">=2.0.0")),
				chainPkg("etcd", "alpha", []string{"0.9.0", "0.9.1", "0.9.2", "0.9.3", "0.9.4"})}}},
			state: subs(sub("app", "app", "stable")),
		},
		{
			name:   "installed_csv_blocks",
			reason: "the OLM example: a hand-installed CSV owns the API the subscription's bundle provides; removing it is confirmed",
			cats:   []cat{{pkgs: []pkg{single("widget-operator", "1.0.0", provides(widget))}}},
			state: func(*testing.T, []cat) *cluster.State {
				return &cluster.State{CSVs: []cluster.CSV{withCSV("legacy-widget.v1.0.0", "1.0.0", widget)},
					Subscriptions: []cluster.Subscription{sub("widget-operator", "widget-operator", "stable")}}
			},
		},
		{
			name:   "two_subscriptions_channels",
			reason: "two subscriptions to one package in channels with no bundle in common",
			cats:   []cat{{pkgs: []pkg{twoChannels}}},
			state:  subs(sub("etcd-a", "etcd", "alpha"), sub("etcd-b", "etcd", "beta")),
		},
		{
			name:   "only_candidate_deprecated",
			reason: "the channel's only bundle carries olm.deprecated",
			cats: []cat{{pkgs: []pkg{single("a", "1.0.0", graph.DeprecatedProperty()),
				{name: "a2", def: "stable", channels: []ch{{"stable", []graph.Entry{e("a2.v1", "")}}}, bundles: []bdl{{"a2.v1", "1.0.0", nil}}}}}},
			state: subs(sub("a", "a", "stable")),
		},
		{
			name:   "only_provider_skipped",
			reason: "the only provider of a required API is skipped by the channel head, so it is never a candidate; the note says so",
			cats: []cat{{pkgs: []pkg{single("app", "1.0.0", requires(widget)),
				{name: "widgets", def: "stable", channels: []ch{{"stable", []graph.Entry{e("widgets.v2", "", "widgets.v1"), e("widgets.v1", "")}}},
					bundles: []bdl{{"widgets.v1", "1.0.0", []graph.Property{provides(widget)}}, {"widgets.v2", "2.0.0", nil}}}}}},
			state: subs(sub("app", "app", "stable")),
		},
		{
			name:   "constraint_not",
			reason: "an olm.constraint all of package legacy and not the Gadget API: the only legacy bundle provides Gadget; its failureMessage is shown",
			cats: []cat{{pkgs: []pkg{single("app", "1.0.0", raw("olm.constraint", `{"failureMessage":"app needs a legacy without gadgets","all":{"constraints":[{"package":{"packageName":"legacy","versionRange":">=0.0.0"}},{"not":{"constraints":[{"gvk":{"group":"example.com","version":"v1","kind":"Gadget"}}]}}]}}`)),
				single("legacy", "1.0.0", provides(graph.GVK{Group: "example.com", Version: "v1", Kind: "Gadget"}))}}},
			state: subs(sub("app", "app", "stable")),
		},
		{
			name:   "exclude_global_dependency",
			reason: "the OperatorGroup excludes the global catalogs: the only Widget provider is in olm/community, and the derivation says why it does not count",
			cats: []cat{
				{key: key("ns", "own"), pkgs: []pkg{single("app", "1.0.0", requires(widget))}},
				{pkgs: []pkg{single("widgets", "1.0.0", provides(widget))}},
			},
			state: func(*testing.T, []cat) *cluster.State {
				s := sub("app", "app", "stable")
				s.Source, s.SourceNamespace = "own", "ns"
				return &cluster.State{
					Subscriptions: []cluster.Subscription{s},
					OperatorGroups: []cluster.OperatorGroup{{Name: "og", Namespace: "ns",
						Annotations: map[string]string{cluster.ExcludeGlobalCatalogsAnnotation: "true"}}},
				}
			},
		},
		{
			name:   "constraint_any",
			reason: "an olm.constraint any of a Gadget API or lib >=2.0.0: lib only has 1.0.0 and nothing provides Gadget",
			cats: []cat{{pkgs: []pkg{single("app", "1.0.0", raw("olm.constraint", `{"failureMessage":"app needs a gadget or lib 2","any":{"constraints":[{"gvk":{"group":"example.com","version":"v1","kind":"Gadget"}},{"package":{"packageName":"lib","versionRange":">=2.0.0"}}]}}`)),
				single("lib", "1.0.0")}}},
			state: subs(sub("app", "app", "stable")),
		},
		{
			name:   "chain_three_packages",
			reason: "a requires b, b requires c, c requires an API nobody provides: the derivation follows the chain",
			cats: []cat{{pkgs: []pkg{single("a", "1.0.0", needsPkg("b", ">=1.0.0")), single("b", "1.0.0", needsPkg("c", ">=1.0.0")),
				single("c", "1.0.0", requires(gizmo))}}},
			state: subs(sub("a", "a", "stable")),
		},
		{
			name:   "missing_catalog",
			reason: "the subscription names a catalog that does not exist; another catalog has the package",
			cats:   []cat{{pkgs: []pkg{etcd()}}},
			state: subs(func() cluster.Subscription {
				s := sub("etcd", "etcd", "alpha")
				s.Source = "communty"
				return s
			}()),
		},
		{
			name:   "missing_package",
			reason: "the named catalog has no such package; another catalog has it",
			cats:   []cat{{pkgs: []pkg{single("app", "1.0.0")}}, {key: key("olm", "certified"), pkgs: []pkg{etcd()}}},
			state:  subs(sub("etcd", "etcd", "alpha")),
		},
		{
			name:   "missing_channel",
			reason: "the package has no channel of that name",
			cats:   []cat{{pkgs: []pkg{etcd()}}},
			state:  subs(sub("etcd", "etcd", "gamma")),
		},
		{
			name:   "missing_starting_csv",
			reason: "the channel has no bundle named by startingCSV (it is in another channel)",
			cats:   []cat{{pkgs: []pkg{etcd()}}},
			state: subs(func() cluster.Subscription {
				s := sub("etcd", "etcd", "alpha")
				s.StartingCSV = "etcd.v4"
				return s
			}()),
		},
		{
			name: "upgrade_blocked_by_range",
			reason: "the installed a.v1 was deprecated in the catalog, so subscription a must upgrade to a.v2; installed b.v1.0.0 " +
				"(no subscription) requires a <2.0.0, met only by a.v1 or a.v1.5 of channel maintenance; switching channel is confirmed",
			cats: []cat{{pkgs: []pkg{{name: "a", def: "stable",
				channels: []ch{{"stable", []graph.Entry{e("a.v2", "a.v1"), e("a.v1", "")}}, {"maintenance", []graph.Entry{e("a.v1.5", "a.v1"), e("a.v1", "")}}},
				bundles:  []bdl{{"a.v1", "1.0.0", []graph.Property{graph.DeprecatedProperty()}}, {"a.v1.5", "1.5.0", nil}, {"a.v2", "2.0.0", nil}}},
				single("b", "1.0.0", needsPkg("a", "<2.0.0"))}}},
			state: func(t *testing.T, cats []cat) *cluster.State {
				return &cluster.State{
					CSVs:          []cluster.CSV{bundleCSV(t, cats[0], "a", "a.v1"), bundleCSV(t, cats[0], "b", "b.v1.0.0")},
					Subscriptions: []cluster.Subscription{installedSub("a", "a", "stable", "a.v1")},
				}
			},
		},
		{
			name:   "collapse_runs",
			reason: "five etcd bundles of one channel all require an API nothing provides: one clause for the run",
			cats:   []cat{{pkgs: []pkg{chainPkg("etcd", "alpha", []string{"0.9.0", "0.9.1", "0.9.2", "0.9.3", "0.9.4"}, provides(etcdAPI), requires(backupAPI))}}},
			state:  subs(sub("etcd", "etcd", "alpha")),
		},
		{
			name: "installed_provider_of_required_api",
			reason: "DESIGN §5's example: etcd 0.9.4 provides EtcdCluster, which installed etcd-legacy also provides and must keep; " +
				"switching to the channel whose bundle does not own it is confirmed",
			cats: []cat{{pkgs: []pkg{{name: "etcd", def: "alpha",
				channels: []ch{{"alpha", []graph.Entry{e("etcdoperator.v0.9.4", "")}}, {"proxy", []graph.Entry{e("etcd-proxy.v0.1.0", "")}}},
				bundles: []bdl{{"etcdoperator.v0.9.4", "0.9.4", []graph.Property{provides(etcdAPI)}},
					{"etcd-proxy.v0.1.0", "0.1.0", []graph.Property{requires(etcdAPI)}}}}}}},
			state: func(*testing.T, []cat) *cluster.State {
				return &cluster.State{CSVs: []cluster.CSV{withCSV("etcd-legacy.v0.6.1", "0.6.1", etcdAPI)},
					Subscriptions: []cluster.Subscription{sub("etcd", "etcd", "alpha")}}
			},
		},
		{
			name:   "installed_keep",
			reason: "no subscription takes part: two hand-installed CSVs own the same API",
			cats:   []cat{{pkgs: []pkg{single("a", "1.0.0")}}},
			state: func(*testing.T, []cat) *cluster.State {
				return &cluster.State{CSVs: []cluster.CSV{withCSV("x.v1", "1.0.0", widget), withCSV("y.v1", "1.0.0", widget)}}
			},
		},
		{
			name:   "long_chain",
			reason: "a chain through eleven packages: the default text stops at ten lines, the full one has every step",
			cats: []cat{{pkgs: func() []pkg {
				var ps []pkg
				for i := 0; i < 11; i++ {
					var props []graph.Property
					if i < 10 {
						props = append(props, needsPkg(fmt.Sprintf("p%02d", i+1), ">=1.0.0"))
					} else {
						props = append(props, requires(gizmo))
					}
					ps = append(ps, single(fmt.Sprintf("p%02d", i), "1.0.0", props...))
				}
				return ps
			}()}},
			state: subs(sub("p00", "p00", "stable")),
		},
		{
			name:   "many_providers_deprecated",
			reason: "ten packages provide the required API and every one is deprecated: long lists are cut, the deprecations are one clause",
			cats: []cat{{pkgs: func() []pkg {
				ps := []pkg{single("app", "1.0.0", requires(widget))}
				for i := 0; i < 10; i++ {
					ps = append(ps, single(fmt.Sprintf("w%d", i), "1.0.0", provides(widget), graph.DeprecatedProperty()))
				}
				return ps
			}()}},
			state: subs(sub("app", "app", "stable")),
		},
		{
			name:   "two_catalogs_switch",
			reason: "the named catalog's etcd needs an API nobody provides; another catalog's etcd does not, and switching to it is confirmed",
			cats: []cat{{pkgs: []pkg{chainPkg("etcd", "alpha", []string{"1.0.0"}, requires(gizmo))}},
				{key: key("olm", "certified"), pkgs: []pkg{chainPkg("etcd", "alpha", []string{"1.0.0"})}}},
			state: subs(sub("etcd", "etcd", "alpha")),
		},
	}
}

// TestExplainGolden explains each conflict shape and compares the text
// with testdata/explain/<name>.golden (-update rewrites them). It also
// checks, for every case, that the explanation is well formed and that
// every suggestion, applied to the state from its structured form alone,
// resolves to the plan it shows.
func TestExplainGolden(t *testing.T) {
	for _, tc := range explainCases() {
		t.Run(tc.name, func(t *testing.T) {
			r := newResolver(t, resolver.Options{}, tc.cats...)
			st := tc.state(t, tc.cats)
			_, err := r.Resolve(context.Background(), "ns", st)
			var ce *resolver.ConflictError
			if !errors.As(err, &ce) {
				t.Fatalf("Resolve = %v, want a conflict", err)
			}
			ex, err := r.Explain(context.Background(), "ns", st, ce, resolver.ExplainOptions{Budget: -1})
			if err != nil {
				t.Fatal(err)
			}
			checkExplanation(t, ex)
			checkSuggestions(t, r, st, ex)
			got := "# " + tc.reason + "\n" + ex.String()
			if full := ex.Full(); full != ex.String() {
				got += "# full\n" + full
			}
			golden(t, filepath.Join("..", "testdata", "explain", tc.name+".golden"), got)
			if tc.name == "installed_csv_blocks" {
				js, err := json.MarshalIndent(ex, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				golden(t, filepath.Join("..", "testdata", "explain", tc.name+".json"), string(js)+"\n")
			}
			// The JSON form carries everything the text says.
			js, err := json.Marshal(ex)
			if err != nil {
				t.Fatal(err)
			}
			var back resolver.Explanation
			if err := json.Unmarshal(js, &back); err != nil {
				t.Fatal(err)
			}
			if back.Full() != ex.Full() {
				t.Errorf("decoded explanation reads\n%s\nwant\n%s", back.Full(), ex.Full())
			}
			// Stable: a second resolution explains in the same words.
			_, err2 := r.Resolve(context.Background(), "ns", st)
			ex2, _ := r.Explain(context.Background(), "ns", st, err2.(*resolver.ConflictError), resolver.ExplainOptions{Budget: -1})
			if ex2.Full() != ex.Full() {
				t.Errorf("second explanation differs:\n%s", resolvertest.Diff(ex.Full(), ex2.Full()))
			}
		})
	}
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	goldenfile.Check(t, path, []byte(got), *update)
}

// checkExplanation checks the shape of an explanation: a verdict line,
// every fact cited exactly once, connectives in order, at most ten lines
// before the suggestions by default.
func checkExplanation(t *testing.T, ex *resolver.Explanation) {
	t.Helper()
	if !strings.HasPrefix(ex.Verdict.Text, "cannot ") || strings.Contains(ex.Verdict.Text, "\n") {
		t.Errorf("verdict %q", ex.Verdict.Text)
	}
	cited := make([]int, len(ex.Facts))
	for i, c := range ex.Derivation {
		want := "and"
		switch i {
		case 0:
			want = "because"
		case len(ex.Derivation) - 1:
			want = "so"
		}
		if c.Connective != want {
			t.Errorf("clause %d: connective %q, want %q", i, c.Connective, want)
		}
		for _, f := range c.Facts {
			cited[f]++
		}
	}
	for i, n := range cited {
		if n != 1 {
			t.Errorf("fact %d (%s) cited %d times", i, ex.Facts[i].String(), n)
		}
	}
	text := ex.String()
	if i := strings.Index(text, "suggestions"); i >= 0 {
		text = text[:i]
	}
	if n := strings.Count(text, "\n"); n > 10 {
		t.Errorf("default text has %d lines, want at most 10:\n%s", n, text)
	}
	if len(ex.Suggestions) > resolver.DefaultMaxSuggestions {
		t.Errorf("%d suggestions", len(ex.Suggestions))
	}
}

// applySuggestion applies a suggestion to a copy of st from its structured
// fields alone.
func applySuggestion(t *testing.T, st *cluster.State, s resolver.Suggestion) *cluster.State {
	t.Helper()
	c := st.Clone()
	subOf := func() *cluster.Subscription {
		x := c.Subscription("ns", s.Subscription)
		if x == nil {
			t.Fatalf("suggestion %q: no subscription %q", s.Change, s.Subscription)
		}
		return x
	}
	switch s.Kind {
	case resolver.SuggestDropStartingCSV:
		subOf().StartingCSV = ""
	case resolver.SuggestSwitchChannel:
		subOf().Channel = s.Channel
	case resolver.SuggestAnyChannel:
		subOf().Channel = ""
	case resolver.SuggestSwitchCatalog:
		x := subOf()
		x.Source, x.SourceNamespace = s.Catalog.Name, s.Catalog.Namespace
	case resolver.SuggestAnyCatalog:
		x := subOf()
		x.Source, x.SourceNamespace = "", ""
	case resolver.SuggestRemoveCSV:
		n := len(c.CSVs)
		c.CSVs = slices.DeleteFunc(c.CSVs, func(x cluster.CSV) bool { return x.Namespace == "ns" && x.Name == s.CSV })
		if len(c.CSVs) == n {
			t.Fatalf("suggestion %q: no CSV %q", s.Change, s.CSV)
		}
	case resolver.SuggestRemoveSubscription:
		subOf()
		c.Subscriptions = slices.DeleteFunc(c.Subscriptions, func(x cluster.Subscription) bool { return x.Namespace == "ns" && x.Name == s.Subscription })
	default:
		t.Fatalf("unknown suggestion kind %q", s.Kind)
	}
	return c
}

// checkSuggestions re-resolves every suggestion, applied independently of
// Explain, and requires the plan it shows.
func checkSuggestions(t *testing.T, r *resolver.Resolver, st *cluster.State, ex *resolver.Explanation) {
	t.Helper()
	for _, s := range ex.Suggestions {
		plan, err := r.Resolve(context.Background(), "ns", applySuggestion(t, st, s))
		if err != nil {
			t.Errorf("suggestion %q does not resolve: %v", s.Change, err)
			continue
		}
		if s.Plan == nil || plan.String() != s.Plan.String() {
			t.Errorf("suggestion %q: plan\n%s\nwant the one shown\n%v", s.Change, plan, s.Plan)
		}
	}
}

// TestExplainOptions checks the knobs and the errors of Explain.
func TestExplainOptions(t *testing.T) {
	tc := explainCases()[4] // two_subscriptions_channels: two suggestions
	if tc.name != "two_subscriptions_channels" {
		t.Fatalf("case %q", tc.name)
	}
	r := newResolver(t, resolver.Options{}, tc.cats...)
	st := tc.state(t, tc.cats)
	_, err := r.Resolve(context.Background(), "ns", st)
	ce := err.(*resolver.ConflictError)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		reason  string
		ctx     context.Context
		opts    resolver.ExplainOptions
		want    int // suggestions
		wantErr error
	}{
		{name: "default", ctx: context.Background(), want: 2},
		{name: "max one", ctx: context.Background(), opts: resolver.ExplainOptions{MaxSuggestions: 1}, want: 1},
		{name: "none", reason: "a negative maximum never solves", ctx: context.Background(), opts: resolver.ExplainOptions{MaxSuggestions: -1}, want: 0},
		{name: "budget spent", reason: "the budget running out is not an error", ctx: context.Background(), opts: resolver.ExplainOptions{Budget: time.Nanosecond}, want: 0},
		{name: "cancelled", reason: "the caller's context ending is", ctx: cancelled, want: 0, wantErr: context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ex, err := r.Explain(tt.ctx, "ns", st, ce, tt.opts)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Fatalf("Explain error = %v, want %v", err, tt.wantErr)
			}
			if ex == nil || ex.Verdict.Text == "" || len(ex.Suggestions) != tt.want {
				t.Fatalf("Explain = %+v, want a verdict and %d suggestion(s)", ex, tt.want)
			}
		})
	}
	if _, err := r.Explain(context.Background(), "ns", st, nil, resolver.ExplainOptions{}); err == nil {
		t.Error("Explain(nil conflict) succeeded")
	}
}

// TestExplanationHandMade explains conflicts built by hand (as a tool that
// decoded one from JSON would): an empty one, and one whose facts are
// given in an unusual order.
func TestExplanationHandMade(t *testing.T) {
	tests := []struct {
		name  string
		facts []resolver.Fact
		want  string
	}{
		{name: "no facts", want: "cannot resolve the namespace: no facts\n  so the namespace cannot be resolved\n"},
		{
			name: "rule before roots",
			facts: []resolver.Fact{
				{Kind: resolver.FactOnePerPackage, Package: "p", Candidates: []resolver.Candidate{{Bundle: "p.v1", Installed: true}, {Bundle: "p.v2", Installed: true}}},
				{Kind: resolver.FactInstalled, CSV: "p.v1"},
				{Kind: resolver.FactInstalled, CSV: "p.v2"},
			},
			want: "cannot keep installed CSVs p.v1 and p.v2 together: they conflict (one bundle of package p)\n" +
				"  because installed CSV p.v1 has no subscription, so it must stay as it is\n" +
				"  and installed CSV p.v2 has no subscription, so it must stay as it is\n" +
				"  and p.v1 (installed) and p.v2 (installed) are both of package p, and at most one bundle of a package can be installed\n" +
				"  so installed CSVs p.v1 and p.v2 cannot both stay\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ce := &resolver.ConflictError{Namespace: "ns", Facts: tt.facts}
			ex := ce.Explanation()
			if got := ex.String(); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			if ce.Error() != strings.TrimSuffix(tt.want, "\n") {
				t.Errorf("Error() = %q", ce.Error())
			}
		})
	}
}

// FuzzConflictExplanation explains conflicts decoded from arbitrary JSON,
// as a tool would receive them: no panic, every fact cited exactly once,
// the same text twice.
func FuzzConflictExplanation(f *testing.F) {
	f.Add([]byte(`{"namespace":"ns","facts":[{"kind":"installed","csv":"x"},{"kind":"deprecated","csv":"x"}]}`))
	f.Add([]byte(`{"namespace":"ns","facts":[{"kind":"subscription","subscription":"a","package":"a"},{"kind":"subscription-candidates","subscription":"a","candidates":[{"bundle":"a.v1","channel":"c","catalog":"o/c","version":"1"},{"bundle":"a.v2","channel":"c","catalog":"o/c","version":"2"},{"bundle":"a.v3","channel":"c","catalog":"o/c","version":"x"}]},{"kind":"requirement","bundle":"a.v1","channel":"c","catalog":"o/c","property":"olm.gvk.required"},{"kind":"one-per-api","candidates":[{"bundle":"a.v1"},{"bundle":"b","installed":true}]},{"kind":"mystery"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var ce resolver.ConflictError
		if json.Unmarshal(data, &ce) != nil {
			return
		}
		ex := ce.Explanation()
		cited := make([]int, len(ex.Facts))
		for _, c := range ex.Derivation {
			for _, i := range c.Facts {
				cited[i]++
			}
		}
		for i, n := range cited {
			if n != 1 {
				t.Fatalf("fact %d cited %d times:\n%s", i, n, ex.Full())
			}
		}
		if ce.Error() != ce.Error() || ex.Full() != ce.Explanation().Full() {
			t.Fatal("two explanations differ")
		}
	})
}

func TestConflictJSON(t *testing.T) {
	r := newResolver(t, resolver.Options{}, cat{pkgs: []pkg{single("app", "1.0.0", raw("olm.constraint", `{"failureMessage":"app needs a gadget","gvk":{"group":"example.com","version":"v1","kind":"Gadget"}}`))}})
	_, err := r.Resolve(context.Background(), "ns", &cluster.State{Subscriptions: []cluster.Subscription{sub("app", "app", "stable")}})
	var ce *resolver.ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("Resolve = %v, want a *ConflictError", err)
	}
	js, err := json.Marshal(ce)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"namespace":"ns","facts":[` +
		`{"kind":"subscription","subscription":"app","catalog":"olm/community","package":"app","channel":"stable"},` +
		`{"kind":"subscription-candidates","subscription":"app","catalog":"olm/community","package":"app","channel":"stable","candidates":[{"catalog":"olm/community","package":"app","channel":"stable","bundle":"app.v1.0.0","version":"1.0.0"}]},` +
		`{"kind":"requirement","catalog":"olm/community","package":"app","channel":"stable","bundle":"app.v1.0.0","version":"1.0.0","property":"olm.constraint","value":"{\"failureMessage\":\"app needs a gadget\",\"gvk\":{\"group\":\"example.com\",\"version\":\"v1\",\"kind\":\"Gadget\"}}","requirement":"gvk example.com/v1 Gadget","failureMessage":"app needs a gadget"}]}`
	if string(js) != want {
		t.Errorf("JSON:\n%s\nwant\n%s", js, want)
	}
	var back resolver.ConflictError
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if back.Error() != ce.Error() {
		t.Errorf("decoded conflict reads\n%s\nwant\n%s", back.Error(), ce.Error())
	}
	if !strings.Contains(ce.Error(), `app.v1.0.0 requires gvk example.com/v1 Gadget (olm.constraint, failureMessage "app needs a gadget"), which nothing satisfies`) {
		t.Errorf("Error() = %s", ce.Error())
	}
}
