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
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolvertest"
)

// addChain adds package name to c, whose default channel ch is a replaces
// chain of one bundle per version, oldest first; it returns the bundles.
func addChain(c *resolvertest.Catalog, name, ch string, versions ...string) []*resolvertest.Bundle {
	p := c.Package(name, ch)
	var out []*resolvertest.Bundle
	prev := ""
	for _, v := range versions {
		b := p.Bundle(name+".v"+v, v).Replaces(prev)
		out = append(out, b)
		prev = b.Name()
	}
	return out
}

// subscribe adds to s a subscription to a channel of package pkg in
// catalog olm/community.
func subscribe(s *resolvertest.State, name, pkg, channel string) *resolvertest.Subscription {
	return s.Subscribe(name, pkg).Channel(channel).Source("olm", "community")
}

// conflictCase is a namespace ns that does not resolve.
type conflictCase struct {
	name   string
	reason string
	build  fixture
}

// inCommunity is a fixture of one catalog olm/community and namespace ns,
// both built by build.
func inCommunity(build func(c *resolvertest.Catalog, s *resolvertest.State)) fixture {
	return func() ([]*resolvertest.Catalog, *resolvertest.State) {
		c := resolvertest.NewCatalog("olm", "community")
		s := resolvertest.NewState("ns")
		build(c, s)
		return []*resolvertest.Catalog{c}, s
	}
}

func explainCases() []conflictCase {
	return []conflictCase{
		{
			name:   "gvk_nobody_provides",
			reason: "a required API that no bundle of any visible catalog provides",
			build: inCommunity(func(c *resolvertest.Catalog, s *resolvertest.State) {
				c.Package("app", "stable").Bundle("app.v1.0.0", "1.0.0").RequiresGVK("example.com", "v1", "Widget")
				subscribe(s, "app", "app", "stable")
			}),
		},
		{
			name:   "two_providers",
			reason: "two subscriptions whose only bundles provide the same API",
			build: inCommunity(func(c *resolvertest.Catalog, s *resolvertest.State) {
				c.Package("a", "stable").Bundle("a.v1.0.0", "1.0.0").Provides("example.com", "v1", "Widget")
				c.Package("b", "stable").Bundle("b.v1.0.0", "1.0.0").Provides("example.com", "v1", "Widget")
				subscribe(s, "a", "a", "stable")
				subscribe(s, "b", "b", "stable")
			}),
		},
		{
			name:   "package_range_nothing",
			reason: "a package range no version satisfies: the note lists the versions that exist",
			build: inCommunity(func(c *resolvertest.Catalog, s *resolvertest.State) {
				c.Package("app", "stable").Bundle("app.v1.0.0", "1.0.0").RequiresPackage("etcd", ">=2.0.0")
				addChain(c, "etcd", "alpha", "0.9.0", "0.9.1", "0.9.2", "0.9.3", "0.9.4")
				subscribe(s, "app", "app", "stable")
			}),
		},
		{
			name:   "installed_csv_blocks",
			reason: "the OLM example: a hand-installed CSV owns the API the subscription's bundle provides; removing it is confirmed",
			build: inCommunity(func(c *resolvertest.Catalog, s *resolvertest.State) {
				c.Package("widget-operator", "stable").Bundle("widget-operator.v1.0.0", "1.0.0").Provides("example.com", "v1", "Widget")
				s.CSV("legacy-widget.v1.0.0", "1.0.0").Provides("example.com", "v1", "Widget")
				subscribe(s, "widget-operator", "widget-operator", "stable")
			}),
		},
		{
			name:   "two_subscriptions_channels",
			reason: "two subscriptions to one package in channels with no bundle in common",
			build: inCommunity(func(c *resolvertest.Catalog, s *resolvertest.State) {
				etcd := c.Package("etcd", "alpha")
				etcd.Bundle("etcd.v1", "1.0.0")
				etcd.Bundle("etcd.v2", "2.0.0").In("beta")
				subscribe(s, "etcd-a", "etcd", "alpha")
				subscribe(s, "etcd-b", "etcd", "beta")
			}),
		},
		{
			name:   "only_candidate_deprecated",
			reason: "the channel's only bundle carries olm.deprecated",
			build: inCommunity(func(c *resolvertest.Catalog, s *resolvertest.State) {
				c.Package("a", "stable").Bundle("a.v1.0.0", "1.0.0").Deprecated()
				c.Package("a2", "stable").Bundle("a2.v1", "1.0.0")
				subscribe(s, "a", "a", "stable")
			}),
		},
		{
			name:   "only_provider_skipped",
			reason: "the only provider of a required API is skipped by the channel head, so it is never a candidate; the note says so",
			build: inCommunity(func(c *resolvertest.Catalog, s *resolvertest.State) {
				c.Package("app", "stable").Bundle("app.v1.0.0", "1.0.0").RequiresGVK("example.com", "v1", "Widget")
				w := c.Package("widgets", "stable")
				w.Bundle("widgets.v1", "1.0.0").Provides("example.com", "v1", "Widget")
				w.Bundle("widgets.v2", "2.0.0").Skips("widgets.v1")
				subscribe(s, "app", "app", "stable")
			}),
		},
		{
			name:   "constraint_not",
			reason: "an olm.constraint all of package legacy and not the Gadget API: the only legacy bundle provides Gadget; its failureMessage is shown",
			build: inCommunity(func(c *resolvertest.Catalog, s *resolvertest.State) {
				c.Package("app", "stable").Bundle("app.v1.0.0", "1.0.0").Constraint(`{"failureMessage":"app needs a legacy without gadgets","all":{"constraints":[{"package":{"packageName":"legacy","versionRange":">=0.0.0"}},{"not":{"constraints":[{"gvk":{"group":"example.com","version":"v1","kind":"Gadget"}}]}}]}}`)
				c.Package("legacy", "stable").Bundle("legacy.v1.0.0", "1.0.0").Provides("example.com", "v1", "Gadget")
				subscribe(s, "app", "app", "stable")
			}),
		},
		{
			name:   "exclude_global_dependency",
			reason: "the OperatorGroup excludes the global catalogs: the only Widget provider is in olm/community, and the derivation says why it does not count",
			build: func() ([]*resolvertest.Catalog, *resolvertest.State) {
				own := resolvertest.NewCatalog("ns", "own")
				own.Package("app", "stable").Bundle("app.v1.0.0", "1.0.0").RequiresGVK("example.com", "v1", "Widget")
				c := resolvertest.NewCatalog("olm", "community")
				c.Package("widgets", "stable").Bundle("widgets.v1.0.0", "1.0.0").Provides("example.com", "v1", "Widget")
				s := resolvertest.NewState("ns")
				s.Subscribe("app", "app").Channel("stable").Source("ns", "own")
				s.OperatorGroup("ns", "og").Annotate(cluster.ExcludeGlobalCatalogsAnnotation, "true")
				return []*resolvertest.Catalog{own, c}, s
			},
		},
		{
			name:   "constraint_any",
			reason: "an olm.constraint any of a Gadget API or lib >=2.0.0: lib only has 1.0.0 and nothing provides Gadget",
			build: inCommunity(func(c *resolvertest.Catalog, s *resolvertest.State) {
				c.Package("app", "stable").Bundle("app.v1.0.0", "1.0.0").Constraint(`{"failureMessage":"app needs a gadget or lib 2","any":{"constraints":[{"gvk":{"group":"example.com","version":"v1","kind":"Gadget"}},{"package":{"packageName":"lib","versionRange":">=2.0.0"}}]}}`)
				c.Package("lib", "stable").Bundle("lib.v1.0.0", "1.0.0")
				subscribe(s, "app", "app", "stable")
			}),
		},
		{
			name:   "chain_three_packages",
			reason: "a requires b, b requires c, c requires an API nobody provides: the derivation follows the chain",
			build: inCommunity(func(c *resolvertest.Catalog, s *resolvertest.State) {
				c.Package("a", "stable").Bundle("a.v1.0.0", "1.0.0").RequiresPackage("b", ">=1.0.0")
				c.Package("b", "stable").Bundle("b.v1.0.0", "1.0.0").RequiresPackage("c", ">=1.0.0")
				c.Package("c", "stable").Bundle("c.v1.0.0", "1.0.0").RequiresGVK("example.com", "v1", "Gizmo")
				subscribe(s, "a", "a", "stable")
			}),
		},
		{
			name:   "missing_catalog",
			reason: "the subscription names a catalog that does not exist; another catalog has the package",
			build: inCommunity(func(c *resolvertest.Catalog, s *resolvertest.State) {
				addEtcd(c)
				s.Subscribe("etcd", "etcd").Channel("alpha").Source("olm", "communty")
			}),
		},
		{
			name:   "missing_package",
			reason: "the named catalog has no such package; another catalog has it",
			build: func() ([]*resolvertest.Catalog, *resolvertest.State) {
				c := resolvertest.NewCatalog("olm", "community")
				c.Package("app", "stable").Bundle("app.v1.0.0", "1.0.0")
				certified := resolvertest.NewCatalog("olm", "certified")
				addEtcd(certified)
				s := resolvertest.NewState("ns")
				subscribe(s, "etcd", "etcd", "alpha")
				return []*resolvertest.Catalog{c, certified}, s
			},
		},
		{
			name:   "missing_channel",
			reason: "the package has no channel of that name",
			build: inCommunity(func(c *resolvertest.Catalog, s *resolvertest.State) {
				addEtcd(c)
				subscribe(s, "etcd", "etcd", "gamma")
			}),
		},
		{
			name:   "missing_starting_csv",
			reason: "the channel has no bundle named by startingCSV (it is in another channel)",
			build: inCommunity(func(c *resolvertest.Catalog, s *resolvertest.State) {
				addEtcd(c)
				subscribe(s, "etcd", "etcd", "alpha").StartingCSV("etcd.v4")
			}),
		},
		{
			name: "upgrade_blocked_by_range",
			reason: "the installed a.v1 was deprecated in the catalog, so subscription a must upgrade to a.v2; installed b.v1.0.0 " +
				"(no subscription) requires a <2.0.0, met only by a.v1 or a.v1.5 of channel maintenance; switching channel is confirmed",
			build: inCommunity(func(c *resolvertest.Catalog, s *resolvertest.State) {
				a := c.Package("a", "stable")
				s.Install(a.Bundle("a.v1", "1.0.0").In("stable", "maintenance").Deprecated())
				a.Bundle("a.v1.5", "1.5.0").In("maintenance").Replaces("a.v1")
				a.Bundle("a.v2", "2.0.0").In("stable").Replaces("a.v1")
				s.Install(c.Package("b", "stable").Bundle("b.v1.0.0", "1.0.0").RequiresPackage("a", "<2.0.0"))
				subscribe(s, "a", "a", "stable").Installed("a.v1")
			}),
		},
		{
			name:   "collapse_runs",
			reason: "five etcd bundles of one channel all require an API nothing provides: one clause for the run",
			build: inCommunity(func(c *resolvertest.Catalog, s *resolvertest.State) {
				for _, b := range addChain(c, "etcd", "alpha", "0.9.0", "0.9.1", "0.9.2", "0.9.3", "0.9.4") {
					b.Provides("etcd.database.coreos.com", "v1beta2", "EtcdCluster").RequiresGVK("etcd.database.coreos.com", "v1beta2", "EtcdBackup")
				}
				subscribe(s, "etcd", "etcd", "alpha")
			}),
		},
		{
			name: "installed_provider_of_required_api",
			reason: "DESIGN §5's example: etcd 0.9.4 provides EtcdCluster, which installed etcd-legacy also provides and must keep; " +
				"switching to the channel whose bundle does not own it is confirmed",
			build: inCommunity(func(c *resolvertest.Catalog, s *resolvertest.State) {
				etcd := c.Package("etcd", "alpha")
				etcd.Bundle("etcdoperator.v0.9.4", "0.9.4").Provides("etcd.database.coreos.com", "v1beta2", "EtcdCluster")
				etcd.Bundle("etcd-proxy.v0.1.0", "0.1.0").In("proxy").RequiresGVK("etcd.database.coreos.com", "v1beta2", "EtcdCluster")
				s.CSV("etcd-legacy.v0.6.1", "0.6.1").Provides("etcd.database.coreos.com", "v1beta2", "EtcdCluster")
				subscribe(s, "etcd", "etcd", "alpha")
			}),
		},
		{
			name:   "installed_keep",
			reason: "no subscription takes part: two hand-installed CSVs own the same API",
			build: inCommunity(func(c *resolvertest.Catalog, s *resolvertest.State) {
				c.Package("a", "stable").Bundle("a.v1.0.0", "1.0.0")
				s.CSV("x.v1", "1.0.0").Provides("example.com", "v1", "Widget")
				s.CSV("y.v1", "1.0.0").Provides("example.com", "v1", "Widget")
			}),
		},
		{
			name:   "long_chain",
			reason: "a chain through eleven packages: the default text stops at ten lines, the full one has every step",
			build: inCommunity(func(c *resolvertest.Catalog, s *resolvertest.State) {
				for i := 0; i < 11; i++ {
					name := fmt.Sprintf("p%02d", i)
					b := c.Package(name, "stable").Bundle(name+".v1.0.0", "1.0.0")
					if i < 10 {
						b.RequiresPackage(fmt.Sprintf("p%02d", i+1), ">=1.0.0")
					} else {
						b.RequiresGVK("example.com", "v1", "Gizmo")
					}
				}
				subscribe(s, "p00", "p00", "stable")
			}),
		},
		{
			name:   "many_providers_deprecated",
			reason: "ten packages provide the required API and every one is deprecated: long lists are cut, the deprecations are one clause",
			build: inCommunity(func(c *resolvertest.Catalog, s *resolvertest.State) {
				c.Package("app", "stable").Bundle("app.v1.0.0", "1.0.0").RequiresGVK("example.com", "v1", "Widget")
				for i := 0; i < 10; i++ {
					name := fmt.Sprintf("w%d", i)
					c.Package(name, "stable").Bundle(name+".v1.0.0", "1.0.0").Provides("example.com", "v1", "Widget").Deprecated()
				}
				subscribe(s, "app", "app", "stable")
			}),
		},
		{
			name:   "two_catalogs_switch",
			reason: "the named catalog's etcd needs an API nobody provides; another catalog's etcd does not, and switching to it is confirmed",
			build: func() ([]*resolvertest.Catalog, *resolvertest.State) {
				c := resolvertest.NewCatalog("olm", "community")
				addChain(c, "etcd", "alpha", "1.0.0")[0].RequiresGVK("example.com", "v1", "Gizmo")
				certified := resolvertest.NewCatalog("olm", "certified")
				addChain(certified, "etcd", "alpha", "1.0.0")
				s := resolvertest.NewState("ns")
				subscribe(s, "etcd", "etcd", "alpha")
				return []*resolvertest.Catalog{c, certified}, s
			},
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
			r, state := tc.build.setup(t)
			st := state.State()
			_, err := r.Resolve(context.Background(), "ns", st)
			var ce *resolver.ConflictError
			if !errors.As(err, &ce) {
				t.Fatalf("Resolve = %v, want a conflict", err)
			}
			ex, err := explainOf(context.Background(), r, "ns", st, resolver.ExplainOptions{Budget: -1})
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
			ex2, _ := explainOf(context.Background(), r, "ns", st, resolver.ExplainOptions{Budget: -1})
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
		planRes, err := r.Resolve(context.Background(), "ns", applySuggestion(t, st, s))
		if err != nil {
			t.Errorf("suggestion %q does not resolve: %v", s.Change, err)
			continue
		}
		plan := planRes.Plan()
		if s.Plan == nil || plan.String() != s.Plan.String() {
			t.Errorf("suggestion %q: plan\n%s\nwant the one shown\n%v", s.Change, plan, s.Plan)
		}
	}
}

// communityConflict is the 20-subscription request on the community index
// plus an etcd operator installed by hand, with no subscription, that owns
// the EtcdCluster API every etcd bundle also provides: subscription etcd
// can neither upgrade its installed CSV nor keep it.
func communityConflict(tb testing.TB) (*resolver.Resolver, *cluster.State) {
	tb.Helper()
	r, gc := communityResolver(tb)
	st := twentySubscriptions(tb, gc)
	st.CSV("etcd-legacy.v0.6.1", "0.6.1").Provides("etcd.database.coreos.com", "v1beta2", "EtcdCluster")
	return r, st.State()
}

// explainCommunity resolves the community conflict and explains it.
func explainCommunity(tb testing.TB, r *resolver.Resolver, st *cluster.State, opts resolver.ExplainOptions) *resolver.Explanation {
	res, err := r.Resolve(context.Background(), "ns", st)
	var ce *resolver.ConflictError
	if !errors.As(err, &ce) {
		tb.Fatalf("Resolve = %v, want a conflict", err)
	}
	ex, err := res.Explain(context.Background(), opts)
	if err != nil {
		tb.Fatal(err)
	}
	return ex
}

// TestExplainCommunity explains a conflict on the real community index
// (testdata/explain/community_etcd.golden) and re-resolves its
// suggestions.
func TestExplainCommunity(t *testing.T) {
	r, st := communityConflict(t)
	ex := explainCommunity(t, r, st, resolver.ExplainOptions{Budget: -1})
	checkExplanation(t, ex)
	checkSuggestions(t, r, st, ex)
	if len(ex.Suggestions) == 0 {
		t.Error("no suggestion")
	}
	golden(t, filepath.Join("..", "testdata", "explain", "community_etcd.golden"), ex.Full())
}

// TestExplainOptions checks the knobs and the errors of Explain.
func TestExplainOptions(t *testing.T) {
	tc := explainCases()[4] // two_subscriptions_channels: two suggestions
	if tc.name != "two_subscriptions_channels" {
		t.Fatalf("case %q", tc.name)
	}
	r, state := tc.build.setup(t)
	st := state.State()
	res, err := r.Resolve(context.Background(), "ns", st)
	var ce *resolver.ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("Resolve = %v, want a conflict", err)
	}
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
			ex, err := res.Explain(tt.ctx, tt.opts)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Fatalf("Explain error = %v, want %v", err, tt.wantErr)
			}
			if ex == nil || ex.Verdict.Text == "" || len(ex.Suggestions) != tt.want {
				t.Fatalf("Explain = %+v, want a verdict and %d suggestion(s)", ex, tt.want)
			}
		})
	}
	if _, err := explainOf(context.Background(), r, "ns", resolvertest.NewState("ns").State(), resolver.ExplainOptions{}); err == nil {
		t.Error("Explain of a namespace with a plan succeeded")
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
		if e1, e2 := ce.Error(), ce.Error(); e1 != e2 || ex.Full() != ce.Explanation().Full() {
			t.Fatal("two explanations differ")
		}
	})
}

func TestConflictJSON(t *testing.T) {
	r, state := inCommunity(func(c *resolvertest.Catalog, s *resolvertest.State) {
		c.Package("app", "stable").Bundle("app.v1.0.0", "1.0.0").Constraint(`{"failureMessage":"app needs a gadget","gvk":{"group":"example.com","version":"v1","kind":"Gadget"}}`)
		subscribe(s, "app", "app", "stable")
	}).setup(t)
	_, err := r.Resolve(context.Background(), "ns", state.State())
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
