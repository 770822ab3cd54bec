package resolver_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolvertest"
)

// whyCase is a question to Why.
type whyCase struct {
	name   string
	reason string
	build  fixture
	ask    string // the name asked about
	want   string // Why.Full, or "error: …"
}

// dependencyFromTwoCatalogs: app (catalog a) needs Widget, which a's
// widgets and b's widgets-b provide; b has the higher priority.
func dependencyFromTwoCatalogs() ([]*resolvertest.Catalog, *resolvertest.State) {
	a := resolvertest.NewCatalog("olm", "a")
	a.Package("app", "stable").Bundle("app.v1", "1.0.0").RequiresGVK("example.com", "v1", "Widget")
	a.Package("widgets", "stable").Bundle("widgets.v1", "1.0.0").Provides("example.com", "v1", "Widget")
	a.Package("tools", "stable").Bundle("tools.v1", "1.0.0")
	b := resolvertest.NewCatalog("olm", "b").Priority(10)
	b.Package("widgets-b", "stable").Bundle("widgets-b.v3", "3.0.0").Provides("example.com", "v1", "Widget")
	state := resolvertest.NewState("operators")
	state.Subscribe("app", "app").Source("olm", "a")
	return []*resolvertest.Catalog{a, b}, state
}

// defaultChannelExcluded: app needs lib >=1.0.0; lib's default channel
// holds only lib.v2, which needs an API nothing provides, so lib.v1.5 of
// channel fast is taken.
func defaultChannelExcluded() ([]*resolvertest.Catalog, *resolvertest.State) {
	c := resolvertest.NewCatalog("olm", "community")
	c.Package("app", "stable").Bundle("app.v1", "1.0.0").RequiresPackage("lib", ">=1.0.0")
	lib := c.Package("lib", "stable")
	lib.Bundle("lib.v2", "2.0.0").In("stable").RequiresGVK("example.com", "v1", "Missing")
	lib.Bundle("lib.v1.5", "1.5.0").In("fast")
	state := resolvertest.NewState("operators")
	state.Subscribe("app", "app").Source("olm", "community")
	return []*resolvertest.Catalog{c}, state
}

// heldByRange: installed db-operator 1.5.0, and a new subscription whose
// bundle requires db-operator <2.0.0.
func heldByRange() ([]*resolvertest.Catalog, *resolvertest.State) {
	c := resolvertest.NewCatalog("olm", "community")
	c.Package("app", "stable").Bundle("app.v1.0.0", "1.0.0").RequiresPackage("db-operator", "<2.0.0")
	db := c.Package("db-operator", "stable")
	v15 := db.Bundle("db-operator.v1.5.0", "1.5.0")
	db.Bundle("db-operator.v2.0.0", "2.0.0").Replaces("db-operator.v1.5.0")
	state := resolvertest.NewState("operators")
	state.Install(v15)
	state.Subscribe("db-operator", "db-operator").Channel("stable").Source("olm", "community").Installed("db-operator.v1.5.0")
	state.Subscribe("app", "app").Channel("stable").Source("olm", "community")
	return []*resolvertest.Catalog{c}, state
}

func TestWhy(t *testing.T) {
	cases := []whyCase{{
		name:  "dependency in the requiring bundle's catalog",
		build: dependencyFromTwoCatalogs, ask: "widgets",
		reason: "the dependent's catalog comes before a catalog of higher priority (DESIGN §2.6), and the other catalog's provider is named with that rule",
		want: `the plan installs widgets.v1 (package widgets 1.0.0, channel stable, catalog olm/a)
  widgets.v1 is required by app.v1 through olm.gvk.required example.com/v1 Widget
  app.v1 is the choice of subscription app
  catalog olm/a: the catalog of the requiring bundle app.v1, whose entries come first
  channel stable: the default channel of package widgets, and its only one
  version 1.0.0: the head of channel stable
  passed over:
    widgets-b.v3 (channel stable, catalog olm/b): catalog olm/b is not the requiring bundle's catalog olm/a, which comes first
`,
	}, {
		name:  "default channel excluded",
		build: defaultChannelExcluded, ask: "lib",
		reason: "the default channel's candidates come first; its only one needs an API nothing provides, which the forced solve finds",
		want: `the plan installs lib.v1.5 (package lib 1.5.0, channel fast, catalog olm/community)
  lib.v1.5 is required by app.v1 through olm.package.required lib >=1.0.0
  app.v1 is the choice of subscription app
  catalog olm/community: the catalog of the requiring bundle app.v1, whose entries come first
  channel fast: not the default channel stable of package lib, whose candidates come first but are passed over (below)
  version 1.5.0: the head of channel fast
  passed over:
    lib.v2 (channel stable, catalog olm/community): ranks first but is excluded because it requires example.com/v1 Missing (olm.gvk.required), which nothing satisfies
`,
	}, {
		name:  "installed CSV held back",
		build: heldByRange, ask: "db-operator",
		reason: "issue 16's case: the passed-over successor is forced and the core names the requiring bundle and the range",
		want: `db-operator.v1.5.0 1.5.0 (package db-operator) stays as it is
  installed CSV db-operator.v1.5.0 is the choice of subscription db-operator
  staying is the subscription's last choice: every upgrade candidate is passed over (below)
  passed over:
    db-operator.v2.0.0 (channel stable, catalog olm/community): ranks first but is excluded because app.v1.0.0 requires db-operator <2.0.0 (olm.package.required)
`,
	}, {
		name:  "a candidate not in the plan",
		build: heldByRange, ask: "db-operator.v2.0.0",
		want: `db-operator.v2.0.0 is not in the plan
  db-operator.v2.0.0 is a candidate (channel stable, catalog olm/community) but is not chosen
  it is excluded because app.v1.0.0 requires db-operator <2.0.0 (olm.package.required)
`,
	}, {
		name:  "a package nothing asks for",
		build: dependencyFromTwoCatalogs, ask: "tools",
		want: `package tools is not in the plan
  nothing in namespace operators asks for it: no subscription names package tools and no bundle the plan considers requires what it provides
`,
	}, {
		name:  "a bundle the resolution never reaches",
		build: dependencyFromTwoCatalogs, ask: "tools.v1",
		want: `bundle tools.v1 (package tools 1.0.0) is not in the plan
  no subscription or requirement of namespace operators can take it: it is never a candidate of this resolution
`,
	}, {
		name:  "a name nothing has",
		build: dependencyFromTwoCatalogs, ask: "nothing-here",
		want: `error: why "nothing-here": no subscription of namespace "operators", and no package or bundle of a catalog it sees, has that name`,
	}, {
		name:  "a subscription's own choice",
		build: heldByRange, ask: "app",
		want: `the plan installs app.v1.0.0 (package app 1.0.0, channel stable, catalog olm/community)
  app.v1.0.0 is the choice of subscription app
  catalog olm/community: subscription app names it
  channel stable: subscription app names it
  version 1.0.0: the head of channel stable
`,
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, state := c.build.setup(t)
			w, err := whyOf(context.Background(), r, state.Namespace(), state.State(), c.ask, resolver.WhyOptions{})
			got := ""
			if err != nil {
				got = "error: " + err.Error()
			} else {
				got = w.Full()
			}
			if got != c.want {
				t.Errorf("Why(%q):\n%s\nwant:\n%s\nreason: %s", c.ask, got, c.want, c.reason)
			}
		})
	}
}

func TestWhyConflict(t *testing.T) {
	c := resolvertest.NewCatalog("olm", "community")
	c.Package("app", "stable").Bundle("app.v1", "1.0.0").RequiresGVK("example.com", "v1", "Missing")
	state := resolvertest.NewState("operators")
	state.Subscribe("app", "app").Source("olm", "community")
	r := resolvertest.NewResolver(t, resolver.Options{}, c)
	_, err := whyOf(context.Background(), r, "operators", state.State(), "app", resolver.WhyOptions{})
	var ce *resolver.ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("Why on an unresolvable namespace: %v, want a *ConflictError", err)
	}
}

func TestWhyCancelled(t *testing.T) {
	r, state := fixture(heldByRange).setup(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := whyOf(ctx, r, "operators", state.State(), "db-operator", resolver.WhyOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Why with a cancelled context: %v, want context.Canceled", err)
	}
	res, err := r.Resolve(context.Background(), "operators", state.State())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := res.HeldBack(ctx, resolver.HeldBackOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("HeldBack with a cancelled context: %v, want context.Canceled", err)
	}
}

func TestHeldBack(t *testing.T) {
	r, state := fixture(heldByRange).setup(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name       string
		opts       resolver.HeldBackOptions
		wantChange bool
	}{
		{"reason and change", resolver.HeldBackOptions{}, true},
		{"reason alone", resolver.HeldBackOptions{ReasonsOnly: true}, false},
		{"no limit", resolver.HeldBackOptions{MaxTries: -1}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			planRes, err := r.Resolve(ctx, "operators", state.State())
			if err != nil {
				t.Fatal(err)
			}
			plan, err := planRes.HeldBack(ctx, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(plan.Unchanged) != 1 || plan.Unchanged[0].HeldBack == nil {
				t.Fatalf("unchanged %+v: want db-operator.v1.5.0 held back", plan.Unchanged)
			}
			h := plan.Unchanged[0].HeldBack
			if h.Preferred.Bundle != "db-operator.v2.0.0" || !strings.Contains(h.Reason, "app.v1.0.0 requires db-operator <2.0.0 (olm.package.required)") {
				t.Errorf("held back %+v: want db-operator.v2.0.0 excluded by app.v1.0.0's <2.0.0", h)
			}
			if (h.Change != nil) != tc.wantChange {
				t.Errorf("change %+v: want one: %v", h.Change, tc.wantChange)
			}
			if h.Change != nil && (h.Change.Kind != resolver.SuggestRemoveSubscription || h.Change.Subscription != "app") {
				t.Errorf("change %+v: want remove subscription app", h.Change)
			}
			for _, st := range plan.Steps {
				if st.HeldBack != nil {
					t.Errorf("step %s held back: %s", st.Bundle, st.HeldBack.Reason)
				}
			}
		})
	}
}

func TestStops(t *testing.T) {
	ctx := context.Background()
	t.Run("held back", func(t *testing.T) {
		r, state := fixture(heldByRange).setup(t)
		stops, err := stopsOf(ctx, r, "operators", state.State(), resolver.HeldBackOptions{ReasonsOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(stops) != 1 || stops[0].HeldBack == nil || stops[0].Head != "db-operator.v2.0.0" {
			t.Fatalf("stops %+v: want db-operator held below db-operator.v2.0.0", stops)
		}
	})
	t.Run("no upgrade edge", func(t *testing.T) {
		c := resolvertest.NewCatalog("olm", "community")
		c.Package("a", "stable").Bundle("a.v2", "2.0.0")
		state := resolvertest.NewState("operators")
		state.CSV("a.v0", "0.5.0").Property("olm.package", `{"packageName":"a","version":"0.5.0"}`)
		state.Subscribe("a", "a").Channel("stable").Source("olm", "community").Installed("a.v0")
		r := resolvertest.NewResolver(t, resolver.Options{}, c)
		stops, err := stopsOf(ctx, r, "operators", state.State(), resolver.HeldBackOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := "subscription a stops at a.v0, below the head a.v2 of channel stable: no entry of channel stable upgrades from a.v0 (no replaces, skips or skipRange names it)"
		if len(stops) != 1 || stops[0].String() != want || stops[0].HeldBack != nil {
			t.Fatalf("stops %v: want [%s]", stops, want)
		}
	})
}

func TestStayDeprecations(t *testing.T) {
	c := resolvertest.NewCatalog("olm", "community")
	app := c.Package("app", "alpha")
	v1 := app.Bundle("app.v1", "1.0.0").In("alpha")
	app.Bundle("app.v1.1", "1.1.0").In("alpha").Replaces("app.v1").RequiresGVK("example.com", "v1", "Missing")
	app.Bundle("app.v2", "2.0.0").In("beta")
	app.DeprecateBundle("app.v1", "app.v1 has a known bug").DeprecateChannel("alpha", "").DeprecateChannel("beta", "")
	state := resolvertest.NewState("operators")
	state.Install(v1)
	state.Subscribe("app", "app").Channel("alpha").Source("olm", "community").Installed("app.v1")
	r := resolvertest.NewResolver(t, resolver.Options{}, c)
	planRes, err := r.Resolve(context.Background(), "operators", state.State())
	if err != nil {
		t.Fatal(err)
	}
	plan := planRes.Plan()
	want := []resolver.Deprecation{
		{Condition: resolver.ConditionChannelDeprecated, Message: "channel alpha is deprecated"},
		{Condition: resolver.ConditionBundleDeprecated, Message: "bundle app.v1 is deprecated: app.v1 has a known bug", Alternative: "bundle app.v1.1 (1.1.0, the head of channel alpha)"},
	}
	if len(plan.Unchanged) != 1 || !slices.Equal(plan.Unchanged[0].Deprecations, want) {
		t.Errorf("unchanged %+v:\nwant deprecations %+v (every other channel deprecated too: no channel to move to)", plan.Unchanged, want)
	}
}

func TestWhySkippedAndDeprecated(t *testing.T) {
	c := resolvertest.NewCatalog("olm", "community")
	a := c.Package("a", "stable")
	a.Bundle("a.v1", "1.0.0")
	a.Bundle("a.v2", "2.0.0").Replaces("a.v1")
	a.Bundle("a.v3", "3.0.0").Replaces("a.v2").Deprecated()
	a.Bundle("a.v4", "4.0.0").Replaces("a.v3")
	a.Bundle("a.v5", "5.0.0").Replaces("a.v4").Skips("a.v4").RequiresGVK("example.com", "v1", "Missing")
	state := resolvertest.NewState("operators")
	state.Subscribe("a", "a").Source("olm", "community")
	r := resolvertest.NewResolver(t, resolver.Options{}, c)
	w, err := whyOf(context.Background(), r, "operators", state.State(), "a", resolver.WhyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := `the plan installs a.v2 (package a 2.0.0, channel stable, catalog olm/community)
  a.v2 is the choice of subscription a
  catalog olm/community: subscription a names it
  channel stable: the default channel of package a, and its only one
  version 2.0.0: below the head a.v5 5.0.0 of channel stable, which is passed over (below)
  passed over:
    a.v5 (channel stable, catalog olm/community): ranks first but is excluded because it requires example.com/v1 Missing (olm.gvk.required), which nothing satisfies
    a.v3 (channel stable, catalog olm/community): ranks first but is deprecated (olm.deprecated), so never selected
    a.v4 (channel stable, catalog olm/community): skipped by a.v5, so never a candidate
`
	if got := w.Full(); got != want {
		t.Errorf("Why(a):\n%s\nwant:\n%s\nreason: a higher version that is excluded, deprecated or skipped is each named with its rule", got, want)
	}
}
