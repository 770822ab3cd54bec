package resolver_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/celrule"
	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

var (
	widget = gvk("example.com", "v1", "Widget")
	gadget = gvk("example.com", "v1", "Gadget")
)

// etcd is a package with a three-entry chain on "alpha" (the default) and a
// "beta" channel whose head is etcd.v4.
func etcd(extra ...bdl) pkg {
	return pkg{
		name: "etcd", def: "alpha",
		channels: []ch{
			{"alpha", []graph.Entry{e("etcd.v3", "etcd.v2"), e("etcd.v2", "etcd.v1"), e("etcd.v1", "")}},
			{"beta", []graph.Entry{e("etcd.v4", "etcd.v3"), e("etcd.v3", "")}},
		},
		bundles: append([]bdl{
			{"etcd.v1", "0.1.0", nil}, {"etcd.v2", "0.2.0", nil}, {"etcd.v3", "0.3.0", nil}, {"etcd.v4", "0.4.0", nil},
		}, extra...),
	}
}

// single is a package with one channel "stable" holding one bundle.
func single(name, version string, props ...graph.Property) pkg {
	b := name + ".v" + version
	return pkg{name: name, def: "stable", channels: []ch{{"stable", []graph.Entry{e(b, "")}}}, bundles: []bdl{{b, version, props}}}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		opts   resolver.Options
		cats   []cat
		state  cluster.State
		want   string
		// wantErr, if set, is a substring of the error; wantFacts the kinds
		// of a *ConflictError's facts.
		wantErr   string
		wantFacts []resolver.FactKind
	}{
		{
			name:  "install channel head",
			cats:  []cat{{pkgs: []pkg{etcd()}}},
			state: cluster.State{Subscriptions: []cluster.Subscription{sub("etcd", "etcd", "alpha")}},
			want:  "install etcd.v3 [community alpha] subscription etcd",
		},
		{
			name:  "named channel",
			cats:  []cat{{pkgs: []pkg{etcd()}}},
			state: cluster.State{Subscriptions: []cluster.Subscription{sub("etcd", "etcd", "beta")}},
			want:  "install etcd.v4 [community beta] subscription etcd",
		},
		{
			name:  "empty channel means the default channel first",
			cats:  []cat{{pkgs: []pkg{etcd()}}},
			state: cluster.State{Subscriptions: []cluster.Subscription{sub("etcd", "etcd", "")}},
			want:  "install etcd.v3 [community alpha] subscription etcd",
		},
		{
			name:   "empty channel falls back to other channels",
			reason: "every entry of the default channel needs an API nobody provides; beta's head does not",
			cats: []cat{{pkgs: []pkg{{
				name: "etcd", def: "alpha",
				channels: []ch{{"alpha", []graph.Entry{e("etcd.v1", "")}}, {"beta", []graph.Entry{e("etcd.v2", "")}}},
				bundles:  []bdl{{"etcd.v1", "1.0.0", []graph.Property{requires(widget)}}, {"etcd.v2", "2.0.0", nil}},
			}}}},
			state: cluster.State{Subscriptions: []cluster.Subscription{sub("etcd", "etcd", "")}},
			want:  "install etcd.v2 [community beta] subscription etcd",
		},
		{
			name:  "startingCSV",
			cats:  []cat{{pkgs: []pkg{etcd()}}},
			state: cluster.State{Subscriptions: []cluster.Subscription{func() cluster.Subscription { s := sub("etcd", "etcd", "alpha"); s.StartingCSV = "etcd.v1"; return s }()}},
			want:  "install etcd.v1 [community alpha] subscription etcd",
		},
		{
			name:   "startingCSV may name a skipped entry",
			reason: "OLM filters for the startingCSV before its chain walk",
			cats: []cat{{pkgs: []pkg{{
				name: "a", def: "stable",
				channels: []ch{{"stable", []graph.Entry{e("a.v3", "a.v1", "a.v2"), e("a.v2", "a.v1"), e("a.v1", "")}}},
				bundles:  []bdl{{"a.v1", "1.0.0", nil}, {"a.v2", "2.0.0", nil}, {"a.v3", "3.0.0", nil}},
			}}}},
			state: cluster.State{Subscriptions: []cluster.Subscription{func() cluster.Subscription { s := sub("a", "a", "stable"); s.StartingCSV = "a.v2"; return s }()}},
			want:  "install a.v2 [community stable] subscription a",
		},
		{
			name:   "skipped entries are never candidates",
			reason: "the head cannot be installed; a.v2 is skipped, so a.v1 is chosen",
			cats: []cat{{pkgs: []pkg{{
				name: "a", def: "stable",
				channels: []ch{{"stable", []graph.Entry{e("a.v3", "a.v1", "a.v2"), e("a.v2", "a.v1"), e("a.v1", "")}}},
				bundles:  []bdl{{"a.v1", "1.0.0", nil}, {"a.v2", "2.0.0", nil}, {"a.v3", "3.0.0", []graph.Property{requires(widget)}}},
			}}}},
			state: cluster.State{Subscriptions: []cluster.Subscription{sub("a", "a", "stable")}},
			want:  "install a.v1 [community stable] subscription a",
		},
		{
			name:  "installed: one hop along replaces",
			cats:  []cat{{pkgs: []pkg{etcd()}}},
			state: cluster.State{CSVs: []cluster.CSV{csv("etcd.v1", "0.1.0")}, Subscriptions: []cluster.Subscription{installedSub("etcd", "etcd", "alpha", "etcd.v1")}},
			want:  "upgrade etcd.v1->etcd.v2 [community alpha] subscription etcd",
		},
		{
			name: "installed: skips jump",
			cats: []cat{{pkgs: []pkg{{
				name: "a", def: "stable",
				channels: []ch{{"stable", []graph.Entry{e("a.v3", "a.v2", "a.v1"), e("a.v2", "a.v1"), e("a.v1", "")}}},
				bundles:  []bdl{{"a.v1", "1.0.0", nil}, {"a.v2", "2.0.0", nil}, {"a.v3", "3.0.0", nil}},
			}}}},
			state: cluster.State{CSVs: []cluster.CSV{csv("a.v1", "1.0.0")}, Subscriptions: []cluster.Subscription{installedSub("a", "a", "stable", "a.v1")}},
			want:  "upgrade a.v1->a.v3 [community stable] subscription a",
		},
		{
			name: "installed: skipRange jump",
			cats: []cat{{pkgs: []pkg{{
				name: "a", def: "stable",
				channels: []ch{{"stable", []graph.Entry{eRange("a.v3", "a.v2", "<3.0.0"), e("a.v2", "a.v1"), e("a.v1", "")}}},
				bundles:  []bdl{{"a.v1", "1.0.0", nil}, {"a.v2", "2.0.0", nil}, {"a.v3", "3.0.0", nil}},
			}}}},
			state: cluster.State{CSVs: []cluster.CSV{csv("a.v1", "1.0.0")}, Subscriptions: []cluster.Subscription{installedSub("a", "a", "stable", "a.v1")}},
			want:  "upgrade a.v1->a.v3 [community stable] subscription a",
		},
		{
			name:  "installed at the head stays",
			cats:  []cat{{pkgs: []pkg{etcd()}}},
			state: cluster.State{CSVs: []cluster.CSV{csv("etcd.v3", "0.3.0")}, Subscriptions: []cluster.Subscription{installedSub("etcd", "etcd", "alpha", "etcd.v3")}},
			want:  "keep etcd.v3",
		},
		{
			name:   "installed: staying is the last choice",
			reason: "the successor needs an API nobody provides, so the installed CSV stays",
			cats: []cat{{pkgs: []pkg{{
				name: "a", def: "stable",
				channels: []ch{{"stable", []graph.Entry{e("a.v2", "a.v1"), e("a.v1", "")}}},
				bundles:  []bdl{{"a.v1", "1.0.0", nil}, {"a.v2", "2.0.0", []graph.Property{requires(widget)}}},
			}}}},
			state: cluster.State{CSVs: []cluster.CSV{csv("a.v1", "1.0.0")}, Subscriptions: []cluster.Subscription{installedSub("a", "a", "stable", "a.v1")}},
			want:  "keep a.v1",
		},
		{
			name: "GVK dependency is installed first, with a subscription",
			cats: []cat{{pkgs: []pkg{
				single("app", "1.0.0", requires(widget)),
				single("widgets", "1.0.0", provides(widget)),
			}}},
			state: cluster.State{Subscriptions: []cluster.Subscription{sub("app", "app", "stable")}},
			want: "install widgets.v1.0.0 [community stable] required by app.v1.0.0 (olm.gvk.required example.com/v1 Widget) +sub\n" +
				"install app.v1.0.0 [community stable] subscription app",
		},
		{
			name: "package range dependency takes the most preferred bundle in range",
			cats: []cat{{pkgs: []pkg{
				single("app", "1.0.0", needsPkg("lib", ">=1.0.0 <2.0.0")),
				{
					name: "lib", def: "stable",
					channels: []ch{{"stable", []graph.Entry{e("lib.v2", "lib.v1.5"), e("lib.v1.5", "lib.v1"), e("lib.v1", "")}}},
					bundles:  []bdl{{"lib.v1", "1.0.0", nil}, {"lib.v1.5", "1.5.0", nil}, {"lib.v2", "2.0.0", nil}},
				},
			}}},
			state: cluster.State{Subscriptions: []cluster.Subscription{sub("app", "app", "stable")}},
			want: "install lib.v1.5 [community stable] required by app.v1.0.0 (olm.package.required lib >=1.0.0 <2.0.0) +sub\n" +
				"install app.v1.0.0 [community stable] subscription app",
		},
		{
			name: "label dependency",
			cats: []cat{{pkgs: []pkg{
				single("app", "1.0.0", graph.RequiredLabelProperty("fast")),
				single("lib", "1.0.0", graph.LabelProperty("fast")),
			}}},
			state: cluster.State{Subscriptions: []cluster.Subscription{sub("app", "app", "stable")}},
			want: "install lib.v1.0.0 [community stable] required by app.v1.0.0 (olm.label.required fast) +sub\n" +
				"install app.v1.0.0 [community stable] subscription app",
		},
		{
			name:   "olm.constraint all/not is a predicate over one bundle",
			reason: "only lib.v1 provides Widget and is not in range >=2.0.0",
			cats: []cat{{pkgs: []pkg{
				single("app", "1.0.0", raw("olm.constraint", `{"failureMessage":"need an old widget","all":{"constraints":[{"gvk":{"group":"example.com","version":"v1","kind":"Widget"}},{"not":{"constraints":[{"package":{"packageName":"lib","versionRange":">=2.0.0"}}]}}]}}`)),
				{
					name: "lib", def: "stable",
					channels: []ch{{"stable", []graph.Entry{e("lib.v2", "lib.v1"), e("lib.v1", "")}}},
					bundles:  []bdl{{"lib.v1", "1.0.0", []graph.Property{provides(widget)}}, {"lib.v2", "2.0.0", []graph.Property{provides(widget)}}},
				},
			}}},
			state: cluster.State{Subscriptions: []cluster.Subscription{sub("app", "app", "stable")}},
			want: "install lib.v1 [community stable] required by app.v1.0.0 (olm.constraint all of (gvk example.com/v1 Widget, none of (package lib >=2.0.0))) +sub\n" +
				"install app.v1.0.0 [community stable] subscription app",
		},
		{
			name: "olm.constraint any",
			cats: []cat{{pkgs: []pkg{
				single("app", "1.0.0", raw("olm.constraint", `{"any":{"constraints":[{"gvk":{"group":"example.com","version":"v1","kind":"Gadget"}},{"package":{"packageName":"lib","versionRange":">=1.0.0"}}]}}`)),
				single("lib", "1.0.0"),
			}}},
			state: cluster.State{Subscriptions: []cluster.Subscription{sub("app", "app", "stable")}},
			want: "install lib.v1.0.0 [community stable] required by app.v1.0.0 (olm.constraint any of (gvk example.com/v1 Gadget, package lib >=1.0.0)) +sub\n" +
				"install app.v1.0.0 [community stable] subscription app",
		},
		{
			name:    "olm.constraint cel without an evaluator",
			reason:  "a reached cel rule without Options.CEL is an error that says how to enable it",
			cats:    []cat{{pkgs: []pkg{single("app", "1.0.0", raw("olm.constraint", `{"cel":{"rule":"true"}}`))}}},
			state:   cluster.State{Subscriptions: []cluster.Subscription{sub("app", "app", "stable")}},
			wantErr: `bundle "app.v1.0.0" (package "app", catalog olm/community): olm.constraint with a cel rule ("true"): no cel evaluator: set resolver.Options.CEL`,
		},
		{
			name:  "olm.constraint cel with an evaluator",
			opts:  resolver.Options{CEL: celrule.New()},
			cats:  []cat{{pkgs: []pkg{single("app", "1.0.0", raw("olm.constraint", `{"cel":{"rule":"properties.exists(p, p.type == \"olm.package\" && p.value.packageName == \"lib\")"}}`)), single("lib", "1.0.0")}}},
			state: cluster.State{Subscriptions: []cluster.Subscription{sub("app", "app", "stable")}},
			want:  "install lib.v1.0.0 [community stable] required by app.v1.0.0 (olm.constraint cel properties.exists(p, p.type == \"olm.package\" && p.value.packageName == \"lib\")) +sub\ninstall app.v1.0.0 [community stable] subscription app",
		},
		{
			name:   "an invalid cel rule on a deprecated candidate",
			reason: "as in OLM, which compiles the rules of every bundle it reaches, deprecated ones included",
			opts:   resolver.Options{CEL: celrule.New()},
			cats: []cat{{pkgs: []pkg{{
				name: "app", def: "stable",
				channels: []ch{{"stable", []graph.Entry{e("app.v2", "app.v1"), e("app.v1", "")}}},
				bundles: []bdl{{"app.v1", "1.0.0", []graph.Property{raw("olm.deprecated", `{}`), raw("olm.constraint", `{"cel":{"rule":"1 + 1"}}`)}},
					{"app.v2", "2.0.0", nil}},
			}}}},
			state:   cluster.State{Subscriptions: []cluster.Subscription{sub("app", "app", "stable")}},
			wantErr: `olm.constraint with an invalid cel rule ("1 + 1")`,
		},
		{
			name:    "olm.constraint with an invalid cel rule",
			reason:  "as in OLM, a rule that does not compile fails the resolution",
			opts:    resolver.Options{CEL: celrule.New()},
			cats:    []cat{{pkgs: []pkg{single("app", "1.0.0", raw("olm.constraint", `{"cel":{"rule":"1 + 1"}}`))}}},
			state:   cluster.State{Subscriptions: []cluster.Subscription{sub("app", "app", "stable")}},
			wantErr: `bundle "app.v1.0.0" (package "app", catalog olm/community): olm.constraint with an invalid cel rule ("1 + 1"): a cel rule must be of type bool, not int`,
		},
		{
			name:      "requirement nothing satisfies",
			cats:      []cat{{pkgs: []pkg{single("app", "1.0.0", requires(widget))}}},
			state:     cluster.State{Subscriptions: []cluster.Subscription{sub("app", "app", "stable")}},
			wantErr:   "cannot install app: app.v1.0.0 requires API example.com/v1 Widget (olm.gvk.required), which nothing satisfies\n  because subscription ns/app wants package app (channel stable, catalog olm/community); its only candidate is app.v1.0.0 (channel stable, catalog olm/community)\n  and app.v1.0.0 requires API example.com/v1 Widget (olm.gvk.required), which nothing satisfies\n  so subscription ns/app cannot be satisfied and app cannot be installed",
			wantFacts: []resolver.FactKind{resolver.FactSubscription, resolver.FactSubscriptionCandidates, resolver.FactRequirement},
		},
		{
			name:   "a bundle meets its own requirement",
			reason: "app.v2 requires Widget, which it provides itself (as in OLM); app.v1 provides it too but cannot be chosen beside app.v2",
			cats: []cat{{pkgs: []pkg{{
				name: "app", def: "stable",
				channels: []ch{{"stable", []graph.Entry{e("app.v2", "app.v1"), e("app.v1", "")}}},
				bundles:  []bdl{{"app.v1", "1.0.0", []graph.Property{provides(widget)}}, {"app.v2", "2.0.0", []graph.Property{provides(widget), requires(widget)}}},
			}}}},
			state: cluster.State{Subscriptions: []cluster.Subscription{sub("app", "app", "stable")}},
			want:  "install app.v2 [community stable] subscription app",
		},
		{
			name: "one bundle per package",
			cats: []cat{{pkgs: []pkg{etcd()}}},
			state: cluster.State{Subscriptions: []cluster.Subscription{
				func() cluster.Subscription { s := sub("a", "etcd", "alpha"); s.StartingCSV = "etcd.v1"; return s }(),
				func() cluster.Subscription { s := sub("b", "etcd", "alpha"); s.StartingCSV = "etcd.v2"; return s }(),
			}},
			wantFacts: []resolver.FactKind{resolver.FactSubscription, resolver.FactSubscription, resolver.FactSubscriptionCandidates, resolver.FactSubscriptionCandidates, resolver.FactOnePerPackage},
		},
		{
			name: "one provider per API",
			cats: []cat{{pkgs: []pkg{single("a", "1.0.0", provides(widget)), single("b", "1.0.0", provides(widget))}}},
			state: cluster.State{Subscriptions: []cluster.Subscription{
				sub("a", "a", "stable"), sub("b", "b", "stable"),
			}},
			wantErr:   "a.v1.0.0 and b.v1.0.0 both provide API example.com/v1 Widget (olm.gvk), and at most one provider of an API can be installed",
			wantFacts: []resolver.FactKind{resolver.FactSubscription, resolver.FactSubscription, resolver.FactSubscriptionCandidates, resolver.FactSubscriptionCandidates, resolver.FactOnePerAPI},
		},
		{
			name:   "installed CSV without subscription stays and provides",
			reason: "the installed provider is preferred to the catalog's",
			cats:   []cat{{pkgs: []pkg{single("app", "1.0.0", requires(widget)), single("widgets", "2.0.0", provides(widget))}}},
			state: cluster.State{
				CSVs:          []cluster.CSV{func() cluster.CSV { c := csv("old-widgets.v1", "1.0.0"); c.Provides = []graph.GVK{widget}; return c }()},
				Subscriptions: []cluster.Subscription{sub("app", "app", "stable")},
			},
			want: "install app.v1.0.0 [community stable] subscription app\nkeep old-widgets.v1",
		},
		{
			name:   "installed CSV without subscription blocks a second provider",
			cats:   []cat{{pkgs: []pkg{single("a", "1.0.0", provides(widget))}}},
			reason: "the installed CSV's derived API collides with the subscription's only candidate",
			state: cluster.State{
				CSVs:          []cluster.CSV{func() cluster.CSV { c := csv("legacy.v1", "1.0.0"); c.Provides = []graph.GVK{widget}; return c }()},
				Subscriptions: []cluster.Subscription{sub("a", "a", "stable")},
			},
			wantFacts: []resolver.FactKind{resolver.FactSubscription, resolver.FactInstalled, resolver.FactSubscriptionCandidates, resolver.FactOnePerAPI},
		},
		{
			name: "deprecated bundles are never selected",
			cats: []cat{{pkgs: []pkg{{
				name: "a", def: "stable",
				channels: []ch{{"stable", []graph.Entry{e("a.v2", "a.v1"), e("a.v1", "")}}},
				bundles:  []bdl{{"a.v1", "1.0.0", nil}, {"a.v2", "2.0.0", []graph.Property{graph.DeprecatedProperty()}}},
			}}}},
			state: cluster.State{Subscriptions: []cluster.Subscription{sub("a", "a", "stable")}},
			want:  "install a.v1 [community stable] subscription a",
		},
		{
			name:      "deprecated: the only candidate",
			cats:      []cat{{pkgs: []pkg{single("a", "1.0.0", graph.DeprecatedProperty())}}},
			state:     cluster.State{Subscriptions: []cluster.Subscription{sub("a", "a", "stable")}},
			wantErr:   "cannot install a: its only candidate is deprecated",
			wantFacts: []resolver.FactKind{resolver.FactSubscription, resolver.FactSubscriptionCandidates, resolver.FactDeprecated},
		},
		{
			name: "olm.deprecations are warnings",
			cats: []cat{{pkgs: []pkg{func() pkg {
				p := single("a", "1.0.0")
				p.channels = append(p.channels, ch{"other", []graph.Entry{e("a.v1.0.0", "")}})
				p.deps = []graph.Deprecation{
					{Reference: graph.DeprecationRef{Schema: "olm.bundle", Name: "a.v1.0.0"}, Message: "use 2.0"},
					{Reference: graph.DeprecationRef{Schema: "olm.package"}, Message: "moved"},
					{Reference: graph.DeprecationRef{Schema: "olm.channel", Name: "other"}, Message: "not this one"},
				}
				return p
			}()}}},
			state: cluster.State{Subscriptions: []cluster.Subscription{sub("a", "a", "stable")}},
			want:  "install a.v1.0.0 [community stable] subscription a !package a is deprecated: moved !bundle a.v1.0.0 is deprecated: use 2.0",
		},
		{
			name:   "preference: the dependent's catalog before higher priority",
			reason: "OLM prefers the catalog of the bundle that needs the API",
			cats: []cat{
				{key: key("olm", "community"), pkgs: []pkg{single("app", "1.0.0", requires(widget)), single("w1", "1.0.0", provides(widget))}},
				{key: key("olm", "certified"), priority: 10, pkgs: []pkg{single("w2", "1.0.0", provides(widget))}},
			},
			state: cluster.State{Subscriptions: []cluster.Subscription{sub("app", "app", "stable")}},
			want:  "install w1.v1.0.0 [community stable] required by app.v1.0.0 (olm.gvk.required example.com/v1 Widget) +sub\ninstall app.v1.0.0 [community stable] subscription app",
		},
		{
			name: "preference: higher priority, then the namespace's catalog, then name",
			cats: []cat{
				{key: key("olm", "apps"), pkgs: []pkg{single("app", "1.0.0", requires(widget))}},
				{key: key("olm", "a-low"), priority: -1, pkgs: []pkg{single("w1", "1.0.0", provides(widget))}},
				{key: key("olm", "b"), pkgs: []pkg{single("w2", "1.0.0", provides(widget))}},
				{key: key("ns", "z"), pkgs: []pkg{single("w3", "1.0.0", provides(widget))}},
				{key: key("olm", "c"), pkgs: []pkg{single("w4", "1.0.0", provides(widget))}},
			},
			state: cluster.State{Subscriptions: []cluster.Subscription{func() cluster.Subscription { s := sub("app", "app", "stable"); s.Source = "apps"; return s }()}},
			want:  "install w3.v1.0.0 [z stable] required by app.v1.0.0 (olm.gvk.required example.com/v1 Widget) +sub\ninstall app.v1.0.0 [apps stable] subscription app",
		},
		{
			name: "preference: CatalogSource priority in the state",
			cats: []cat{{key: key("olm", "apps"), pkgs: []pkg{single("app", "1.0.0", requires(widget))}}, {key: key("olm", "b"), pkgs: []pkg{single("w2", "1.0.0", provides(widget))}}, {key: key("olm", "c"), pkgs: []pkg{single("w4", "1.0.0", provides(widget))}}},
			state: cluster.State{
				Subscriptions:  []cluster.Subscription{func() cluster.Subscription { s := sub("app", "app", "stable"); s.Source = "apps"; return s }()},
				CatalogSources: []cluster.CatalogSource{{Name: "c", Namespace: "olm", Priority: 5}},
			},
			want: "install w4.v1.0.0 [c stable] required by app.v1.0.0 (olm.gvk.required example.com/v1 Widget) +sub\ninstall app.v1.0.0 [apps stable] subscription app",
		},
		{
			name:   "preference: default channel, then package, then channel",
			reason: "zeta's default channel beats alpha's other channel",
			cats: []cat{{pkgs: []pkg{
				single("app", "1.0.0", requires(widget)),
				{name: "alpha", def: "main", channels: []ch{{"main", []graph.Entry{e("alpha.v1", "")}}, {"extra", []graph.Entry{e("alpha.v2", "")}}},
					bundles: []bdl{{"alpha.v1", "1.0.0", nil}, {"alpha.v2", "2.0.0", []graph.Property{provides(widget)}}}},
				single("zeta", "1.0.0", provides(widget)),
			}}},
			state: cluster.State{Subscriptions: []cluster.Subscription{sub("app", "app", "stable")}},
			want:  "install zeta.v1.0.0 [community stable] required by app.v1.0.0 (olm.gvk.required example.com/v1 Widget) +sub\ninstall app.v1.0.0 [community stable] subscription app",
		},
		{
			name:   "preference over minimality",
			reason: "the preferred provider drags a further dependency in; a smaller solution exists but is less preferred",
			cats: []cat{{pkgs: []pkg{
				single("app", "1.0.0", requires(widget)),
				single("a-widgets", "1.0.0", provides(widget), requires(gadget)),
				single("b-widgets", "1.0.0", provides(widget)),
				single("gadgets", "1.0.0", provides(gadget)),
			}}},
			state: cluster.State{Subscriptions: []cluster.Subscription{sub("app", "app", "stable")}},
			want: "install gadgets.v1.0.0 [community stable] required by a-widgets.v1.0.0 (olm.gvk.required example.com/v1 Gadget) +sub\n" +
				"install a-widgets.v1.0.0 [community stable] required by app.v1.0.0 (olm.gvk.required example.com/v1 Widget) +sub\n" +
				"install app.v1.0.0 [community stable] subscription app",
		},
		{
			name:      "no catalog",
			cats:      []cat{{pkgs: []pkg{etcd()}}},
			state:     cluster.State{Subscriptions: []cluster.Subscription{func() cluster.Subscription { s := sub("etcd", "etcd", "alpha"); s.Source = "missing"; return s }()}},
			wantErr:   "cannot install etcd: catalog olm/missing does not exist or serves no operators to this namespace",
			wantFacts: []resolver.FactKind{resolver.FactSubscription, resolver.FactNoCatalog},
		},
		{
			name:      "catalog of another namespace is not visible",
			cats:      []cat{{key: key("other", "community"), pkgs: []pkg{etcd()}}},
			state:     cluster.State{Subscriptions: []cluster.Subscription{func() cluster.Subscription { s := sub("etcd", "etcd", "alpha"); s.SourceNamespace = "other"; return s }()}},
			wantFacts: []resolver.FactKind{resolver.FactSubscription, resolver.FactNoCatalog},
		},
		{
			name:      "no package",
			cats:      []cat{{pkgs: []pkg{etcd()}}},
			state:     cluster.State{Subscriptions: []cluster.Subscription{sub("x", "nope", "alpha")}},
			wantErr:   "cannot install nope (subscription x): catalog olm/community has no package nope",
			wantFacts: []resolver.FactKind{resolver.FactSubscription, resolver.FactNoPackage},
		},
		{
			name:      "no channel",
			cats:      []cat{{pkgs: []pkg{etcd()}}},
			state:     cluster.State{Subscriptions: []cluster.Subscription{sub("etcd", "etcd", "gamma")}},
			wantErr:   "cannot install etcd: package etcd has no channel gamma",
			wantFacts: []resolver.FactKind{resolver.FactSubscription, resolver.FactNoChannel},
		},
		{
			name:      "no startingCSV in the channel",
			cats:      []cat{{pkgs: []pkg{etcd()}}},
			state:     cluster.State{Subscriptions: []cluster.Subscription{func() cluster.Subscription { s := sub("etcd", "etcd", "beta"); s.StartingCSV = "etcd.v1"; return s }()}},
			wantErr:   "cannot install etcd: channel beta of package etcd has no bundle etcd.v1 (the startingCSV)",
			wantFacts: []resolver.FactKind{resolver.FactSubscription, resolver.FactNoStartingCSV},
		},
		{
			name: "any catalog when the subscription names none",
			cats: []cat{
				{key: key("olm", "a"), pkgs: []pkg{single("x", "1.0.0")}},
				{key: key("olm", "b"), priority: 1, pkgs: []pkg{single("x", "2.0.0")}},
			},
			state: cluster.State{Subscriptions: []cluster.Subscription{{Name: "x", Namespace: "ns", Package: "x"}}},
			want:  "install x.v2.0.0 [b stable] subscription x",
		},
		{
			name: "semver upgrades: the highest of the same major",
			opts: resolver.Options{SemverUpgrades: true},
			cats: []cat{{pkgs: []pkg{{
				name: "a", def: "stable",
				channels: []ch{{"stable", []graph.Entry{e("a.v3", "a.v2"), e("a.v2", "a.v1.1"), e("a.v1.1", "a.v1"), e("a.v1", "")}}},
				bundles:  []bdl{{"a.v1", "1.0.0", nil}, {"a.v1.1", "1.1.0", nil}, {"a.v2", "1.2.0", nil}, {"a.v3", "2.0.0", nil}},
			}}}},
			state: cluster.State{CSVs: []cluster.CSV{csv("a.v1", "1.0.0")}, Subscriptions: []cluster.Subscription{installedSub("a", "a", "stable", "a.v1")}},
			want:  "upgrade a.v1->a.v2 [community stable] subscription a",
		},
		{
			name: "semver upgrades across majors when allowed",
			opts: resolver.Options{SemverUpgrades: true, SemverAllowMajor: true},
			cats: []cat{{pkgs: []pkg{{
				name: "a", def: "stable",
				channels: []ch{{"stable", []graph.Entry{e("a.v3", "a.v2"), e("a.v2", "a.v1.1"), e("a.v1.1", "a.v1"), e("a.v1", "")}}},
				bundles:  []bdl{{"a.v1", "1.0.0", nil}, {"a.v1.1", "1.1.0", nil}, {"a.v2", "1.2.0", nil}, {"a.v3", "2.0.0", nil}},
			}}}},
			state: cluster.State{CSVs: []cluster.CSV{csv("a.v1", "1.0.0")}, Subscriptions: []cluster.Subscription{installedSub("a", "a", "stable", "a.v1")}},
			want:  "upgrade a.v1->a.v3 [community stable] subscription a",
		},
		{
			name:   "installed CSV properties annotation replaces derived APIs",
			reason: "the annotation says the CSV provides Widget although it owns no CRD",
			cats:   []cat{{pkgs: []pkg{single("app", "1.0.0", requires(widget)), single("widgets", "1.0.0", provides(widget))}}},
			state: cluster.State{
				CSVs: []cluster.CSV{func() cluster.CSV {
					c := csv("w.v0", "0.1.0", graph.PackageProperty("wpkg", "0.1.0"), provides(widget))
					c.Provides = []graph.GVK{gadget}
					return c
				}()},
				Subscriptions: []cluster.Subscription{sub("app", "app", "stable")},
			},
			want: "install app.v1.0.0 [community stable] subscription app\nkeep w.v0",
		},
		{
			name:   "upgrade of a dependency through its subscription",
			reason: "the installed dependency's successor still provides the API",
			cats: []cat{{pkgs: []pkg{
				single("app", "1.0.0", requires(widget)),
				{name: "widgets", def: "stable", channels: []ch{{"stable", []graph.Entry{e("widgets.v2", "widgets.v1"), e("widgets.v1", "")}}},
					bundles: []bdl{{"widgets.v1", "1.0.0", []graph.Property{provides(widget)}}, {"widgets.v2", "2.0.0", []graph.Property{provides(widget)}}}},
			}}},
			state: cluster.State{
				CSVs: []cluster.CSV{
					csv("app.v1.0.0", "1.0.0", graph.PackageProperty("app", "1.0.0"), requires(widget)),
					csv("widgets.v1", "1.0.0", graph.PackageProperty("widgets", "1.0.0"), provides(widget)),
				},
				Subscriptions: []cluster.Subscription{installedSub("app", "app", "stable", "app.v1.0.0"), installedSub("widgets", "widgets", "stable", "widgets.v1")},
			},
			want: "upgrade widgets.v1->widgets.v2 [community stable] subscription widgets\nkeep app.v1.0.0",
		},
		{
			name:    "subscription with a source and no sourceNamespace",
			cats:    []cat{{pkgs: []pkg{etcd()}}},
			state:   cluster.State{Subscriptions: []cluster.Subscription{func() cluster.Subscription { s := sub("etcd", "etcd", "alpha"); s.SourceNamespace = ""; return s }()}},
			wantErr: `subscription "etcd" in namespace "ns": spec.source "community" and spec.sourceNamespace "" must be both set or both empty`,
		},
		{
			name:  "objects of other namespaces are ignored",
			cats:  []cat{{pkgs: []pkg{etcd()}}},
			state: cluster.State{Subscriptions: []cluster.Subscription{sub("etcd", "etcd", "alpha"), {Name: "x", Namespace: "elsewhere", Package: "nope"}}, CSVs: []cluster.CSV{{Name: "y", Namespace: "elsewhere"}}},
			want:  "install etcd.v3 [community alpha] subscription etcd",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newResolver(t, tt.opts, tt.cats...)
			state := tt.state
			before := summaryState(&state)
			plan, err := r.Resolve(context.Background(), "ns", &state)
			if after := summaryState(&state); after != before {
				t.Errorf("Resolve modified the state:\n%s\nwant\n%s", after, before)
			}
			if tt.wantErr != "" || tt.wantFacts != nil {
				if err == nil {
					t.Fatalf("Resolve = plan\n%s\nwant an error", summary(plan))
				}
				if !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("error = %v\nwant it to contain %q", err, tt.wantErr)
				}
				if tt.wantFacts != nil {
					var ce *resolver.ConflictError
					if !errors.As(err, &ce) {
						t.Fatalf("error %v is not a *ConflictError", err)
					}
					var kinds []resolver.FactKind
					for _, f := range ce.Facts {
						kinds = append(kinds, f.Kind)
					}
					if !equal(kinds, tt.wantFacts) {
						t.Errorf("facts = %q, want %q\n%v", kinds, tt.wantFacts, err)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("Resolve: %v", err)
			}
			if got := summary(plan); got != tt.want {
				t.Errorf("plan:\n%s\nwant:\n%s", got, tt.want)
			}
			// Deterministic: a second resolution gives the same plan.
			again, err := r.Resolve(context.Background(), "ns", &state)
			if err != nil || summary(again) != summary(plan) {
				t.Errorf("second Resolve = %v, %v; want the same plan", again, err)
			}
		})
	}
}

func equal[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func summaryState(s *cluster.State) string {
	var b strings.Builder
	if err := cluster.Encode(&b, s); err != nil {
		return err.Error()
	}
	return b.String()
}
