package resolver_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

// widget is the API the examples' operators provide and require.
var widget = graph.GVK{Group: "example.com", Version: "v1", Kind: "Widget"}

// buildExample builds the catalog add describes; the examples' catalogs are
// well formed.
func buildExample(add func(b *graph.Builder) error) *graph.Catalog {
	b := graph.NewBuilder()
	if err := add(b); err != nil {
		panic(err)
	}
	c, err := b.Build()
	if err != nil {
		panic(err)
	}
	return c
}

// exampleCatalog is a catalog with an app that needs a Widget API, which
// the widgets package provides.
func exampleCatalog() *graph.Catalog {
	return buildExample(func(b *graph.Builder) error {
		b.AddPackage("app", "stable")
		b.AddChannel("app", "stable", graph.Entry{Name: "app.v1.1.0", Replaces: "app.v1.0.0"}, graph.Entry{Name: "app.v1.0.0"})
		b.AddPackage("widgets", "stable")
		b.AddChannel("widgets", "stable", graph.Entry{Name: "widgets.v2.0.0"})
		return errors.Join(
			b.AddBundle("app.v1.0.0", "app", "example.com/app:1.0.0", graph.PackageProperty("app", "1.0.0"), graph.RequiredGVKProperty(widget)),
			b.AddBundle("app.v1.1.0", "app", "example.com/app:1.1.0", graph.PackageProperty("app", "1.1.0"), graph.RequiredGVKProperty(widget)),
			b.AddBundle("widgets.v2.0.0", "widgets", "example.com/widgets:2.0.0", graph.PackageProperty("widgets", "2.0.0"), graph.GVKProperty(widget)))
	})
}

// newExampleResolver returns a resolver over c as catalog olm/community.
func newExampleResolver(c *graph.Catalog) *resolver.Resolver {
	r, err := resolver.New([]resolver.Catalog{{Key: resolver.CatalogKey{Namespace: "olm", Name: "community"}, Catalog: c}}, resolver.Options{})
	if err != nil {
		panic(err)
	}
	return r
}

func ExampleResolver_Resolve() {
	r, err := resolver.New([]resolver.Catalog{{Key: resolver.CatalogKey{Namespace: "olm", Name: "community"}, Catalog: exampleCatalog()}}, resolver.Options{})
	if err != nil {
		panic(err)
	}
	state := &cluster.State{Subscriptions: []cluster.Subscription{{
		Name: "my-app", Namespace: "team-a", Package: "app", Channel: "stable",
		Source: "community", SourceNamespace: "olm",
	}}}
	planRes, err := r.Resolve(context.Background(), "team-a", state)
	if err != nil {
		panic(err)
	}
	plan := planRes.Plan()
	fmt.Print(plan)
	// Output:
	// namespace team-a: 2 steps
	//  1. install widgets.v2.0.0 (dependency: OLM creates a subscription)
	//     package widgets 2.0.0, channel stable, catalog olm/community
	//     reason: required by app.v1.1.0 (olm.gvk.required example.com/v1 Widget)
	//  2. install app.v1.1.0
	//     package app 1.1.0, channel stable, catalog olm/community
	//     reason: subscription my-app
}

func ExampleConflictError() {
	r := newExampleResolver(exampleCatalog())
	// An operator installed by hand already provides Widget, and no
	// subscription owns it: the catalog's widgets cannot be installed, and
	// the subscription to widgets cannot be satisfied.
	state := &cluster.State{
		CSVs: []cluster.CSV{{Name: "homemade-widgets.v0.1.0", Namespace: "team-a", VersionText: "0.1.0",
			Provides: []graph.GVK{widget}}},
		Subscriptions: []cluster.Subscription{{Name: "widgets", Namespace: "team-a", Package: "widgets"}},
	}
	_, err := r.Resolve(context.Background(), "team-a", state)
	var conflict *resolver.ConflictError
	if errors.As(err, &conflict) {
		for _, f := range conflict.Facts {
			fmt.Printf("%s: %s\n", f.Kind, &f)
		}
	}
	// Output:
	// subscription: subscription widgets wants package widgets
	// installed: installed CSV homemade-widgets.v0.1.0 has no subscription and must stay
	// subscription-candidates: subscription widgets can only be satisfied by widgets.v2.0.0 (channel stable, catalog olm/community)
	// one-per-api: at most one provider of API example.com/v1 Widget can be installed: installed homemade-widgets.v0.1.0 and widgets.v2.0.0 (channel stable, catalog olm/community)
}

func ExampleResolver_Rollout() {
	r := newExampleResolver(exampleCatalog())
	state := &cluster.State{Subscriptions: []cluster.Subscription{{
		Name: "my-app", Namespace: "team-a", Package: "app", Channel: "stable",
		Source: "community", SourceNamespace: "olm", StartingCSV: "app.v1.0.0",
	}}}
	ro, err := r.Rollout(context.Background(), "team-a", state, resolver.RolloutOptions{MaxRounds: 10})
	if err != nil {
		panic(err)
	}
	rounds := ro.Rounds
	for i, round := range rounds {
		for _, s := range round.Plan.Steps {
			fmt.Printf("round %d: %s %s (%s)\n", i+1, s.Action, s.Bundle, s.Reason)
		}
	}
	// Output:
	// round 1: install widgets.v2.0.0 (required by app.v1.0.0 (olm.gvk.required example.com/v1 Widget))
	// round 1: install app.v1.0.0 (subscription my-app)
	// round 2: upgrade app.v1.1.0 (subscription my-app)
}

// A Manual subscription makes the namespace's InstallPlan Manual: the
// rollout stops at the plan that waits, and with Approve it goes on, one
// approval per round. InstallPlan gives what OLM would create for the plan.
func ExampleResolver_Rollout_approval() {
	r := newExampleResolver(exampleCatalog())
	state := &cluster.State{Subscriptions: []cluster.Subscription{{
		Name: "my-app", Namespace: "team-a", Package: "app", Channel: "stable",
		Source: "community", SourceNamespace: "olm", InstallPlanApproval: cluster.ApprovalManual,
	}}}
	ctx := context.Background()
	ro, err := r.Rollout(ctx, "team-a", state, resolver.RolloutOptions{MaxRounds: 10})
	if err != nil {
		panic(err)
	}
	rounds := ro.Rounds
	last := rounds[len(rounds)-1]
	fmt.Println(ro.Outcome, "approval:", last.Plan.Approval.Mode, last.Plan.Approval.Subscriptions)
	ip, err := ro.Last().InstallPlan()
	if err != nil {
		panic(err)
	}
	fmt.Println("InstallPlan:", ip.Approval, ip.Phase, ip.CSVNames, "creates subscription", ip.Subscriptions[0].Name, ip.Subscriptions[0].InstallPlanApproval)
	ro, err = r.Rollout(ctx, "team-a", state, resolver.RolloutOptions{MaxRounds: 10, Approve: true})
	if err != nil {
		panic(err)
	}
	rounds = ro.Rounds
	fmt.Println(ro.Outcome, "after", len(rounds), "round(s), approved:", rounds[0].Approved)
	// Output:
	// waiting approval: Manual [my-app]
	// InstallPlan: Manual RequiresApproval [widgets.v2.0.0 app.v1.1.0] creates subscription widgets-stable-community-olm Automatic
	// settled after 1 round(s), approved: true
}

// SubscriptionCatalog reads the catalog a subscription names from its
// spec.source and spec.sourceNamespace; one that names none may take from
// any catalog its namespace sees.
func ExampleSubscriptionCatalog() {
	for _, s := range []cluster.Subscription{
		{Name: "etcd", Namespace: "operators", Package: "etcd", Source: "community", SourceNamespace: "olm"},
		{Name: "any", Namespace: "operators", Package: "etcd"},
	} {
		if k, ok := resolver.SubscriptionCatalog(&s); ok {
			fmt.Printf("%s: catalog %s\n", s.Name, k)
		} else {
			fmt.Printf("%s: any catalog\n", s.Name)
		}
	}
	// Output:
	// etcd: catalog olm/community
	// any: any catalog
}
