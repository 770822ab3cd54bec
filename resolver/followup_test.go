package resolver_test

import (
	"context"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/resolver"
)

// The tests below ask follow-ups of a namespace and a state they keep;
// these resolve once and ask the Resolution.

// explainOf explains the conflict of namespace ns of state.
func explainOf(ctx context.Context, r *resolver.Resolver, ns string, state *cluster.State, opts resolver.ExplainOptions) (*resolver.Explanation, error) {
	res, err := r.Resolve(ctx, ns, state)
	if err != nil && res == nil {
		return nil, err
	}
	return res.Explain(ctx, opts)
}

// whyOf asks why name is (not) in the plan of namespace ns of state.
func whyOf(ctx context.Context, r *resolver.Resolver, ns string, state *cluster.State, name string, opts resolver.WhyOptions) (*resolver.Why, error) {
	res, err := r.Resolve(ctx, ns, state)
	if err != nil {
		return nil, err
	}
	return res.Why(ctx, name, opts)
}

// stopsOf says where the subscriptions of namespace ns of state stop.
func stopsOf(ctx context.Context, r *resolver.Resolver, ns string, state *cluster.State, opts resolver.HeldBackOptions) ([]resolver.Stop, error) {
	res, err := r.Resolve(ctx, ns, state)
	if err != nil {
		return nil, err
	}
	return res.Stops(ctx, opts)
}
