package resolver_test

import (
	"context"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/resolver"
)

// heldBackCount counts the held-back items of a plan.
func heldBackCount(p *resolver.Plan) int {
	n := 0
	for _, s := range p.Steps {
		if s.HeldBack != nil {
			n++
		}
	}
	for _, u := range p.Unchanged {
		if u.HeldBack != nil {
			n++
		}
	}
	return n
}

// benchHeldBack measures Resolve then Resolution.HeldBack, reporting the
// held-back items found.
func benchHeldBack(b *testing.B, r *resolver.Resolver, st *cluster.State, opts resolver.HeldBackOptions) {
	ctx := context.Background()
	b.ReportAllocs()
	items := 0
	for b.Loop() {
		planRes, err := r.Resolve(ctx, "ns", st)
		if err != nil {
			b.Fatal(err)
		}
		plan, err := planRes.HeldBack(ctx, opts)
		if err != nil {
			b.Fatal(err)
		}
		items = heldBackCount(plan)
	}
	b.ReportMetric(float64(items), "held-back")
}

// BenchmarkHeldBackCommunity20: the 20-subscription request, with its
// held-back reasons (one solve each, no change search).
func BenchmarkHeldBackCommunity20(b *testing.B) {
	r, gc := communityResolver(b)
	benchHeldBack(b, r, twentySubscriptions(b, gc).State(), resolver.HeldBackOptions{ReasonsOnly: true})
}

// BenchmarkWhyCommunity: resolve --why on the README example's dependency.
func BenchmarkWhyCommunity(b *testing.B) {
	r, _ := communityResolverAs(b, "community-operators-prod.v4.20-index", resolver.Options{})
	st, err := cluster.LoadFiles("../testdata/examples/cluster.yaml")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := whyOf(ctx, r, "operators", st, "rabbitmq-cluster-operator", resolver.WhyOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
