package resolver_test

import (
	"context"
	"errors"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolvertest"
)

// benchResolve measures Resolve of namespace ns of st. A conflict is a
// failure unless conflictOK.
func benchResolve(b *testing.B, r *resolver.Resolver, st *cluster.State, conflictOK bool) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		_, err := r.Resolve(ctx, "ns", st)
		var ce *resolver.ConflictError
		if err != nil && !(conflictOK && errors.As(err, &ce)) {
			b.Fatal(err)
		}
	}
}

func BenchmarkResolveCommunity20(b *testing.B) {
	r, gc := communityResolver(b)
	benchResolve(b, r, twentySubscriptions(b, gc).State(), false)
}

func BenchmarkResolveCommunityEtcd(b *testing.B) {
	r, _ := communityResolver(b)
	st := resolvertest.NewState("ns")
	st.Subscribe("etcd", "etcd").Channel("singlenamespace-alpha").Source("olm", "community")
	benchResolve(b, r, st.State(), false)
}

// BenchmarkResolveCommunityAll subscribes to every package of the community
// index at once. Packages providing the same APIs cannot all be installed:
// the result is a conflict, explained — the benchmark measures the whole
// resolution either way.
func BenchmarkResolveCommunityAll(b *testing.B) {
	r, gc := communityResolver(b)
	st := resolvertest.NewState("ns")
	for _, p := range gc.Packages() {
		st.Subscribe(p.Name, p.Name).Source("olm", "community")
	}
	benchResolve(b, r, st.State(), true)
}

func BenchmarkResolveTiny(b *testing.B) {
	c := resolvertest.NewCatalog("olm", "community")
	c.Package("app", "stable").Bundle("app.v1.0.0", "1.0.0").RequiresGVK("example.com", "v1", "Widget")
	c.Package("widgets", "stable").Bundle("widgets.v1.0.0", "1.0.0").Provides("example.com", "v1", "Widget")
	r := resolvertest.NewResolver(b, resolver.Options{}, c)
	st := resolvertest.NewState("ns")
	st.Subscribe("app", "app").Channel("stable").Source("olm", "community")
	benchResolve(b, r, st.State(), false)
}

func BenchmarkRolloutCommunityKeycloak(b *testing.B) {
	r, gc := communityResolver(b)
	st := oldestInstalled(b, gc, "keycloak-operator").State()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Rollout(ctx, "ns", st, resolver.RolloutOptions{MaxRounds: 200}); err != nil {
			b.Fatal(err)
		}
	}
}
