package resolver_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

const communityIndex = "../testdata/catalogs/community-operators-prod.v4.20-index.json.gz"

var community = sync.OnceValues(func() (*graph.Catalog, error) { return graph.LoadFile(communityIndex) })

// communityResolver returns a resolver over the community index as catalog
// olm/community.
func communityResolver(tb testing.TB) (*resolver.Resolver, *graph.Catalog) {
	tb.Helper()
	gc, err := community()
	if err != nil {
		tb.Fatal(err)
	}
	r, err := resolver.New([]resolver.Catalog{{Key: key("olm", "community"), Catalog: gc}}, resolver.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return r, gc
}

// The 20-subscription request on the community index, chosen by hand among
// packages that resolve alone on their default channel:
//   - installedBehind: installed one hop behind the head of the default
//     channel (the entry the head replaces), with a subscription;
//   - withDependencies: not installed; their heads pull in 6 dependencies
//     (authorino-operator, dns-operator, limitador-operator; grafana-operator,
//     prometheus; cert-manager);
//   - fresh: not installed, no dependencies.
var (
	installedBehind  = []string{"argocd-operator", "etcd", "jaeger", "keycloak-operator", "mariadb-operator", "strimzi-kafka-operator", "tempo-operator"}
	withDependencies = []string{"alloydb-omni-operator", "kuadrant-operator", "pelorus-operator"}
	fresh            = []string{"camel-k", "cockroachdb", "flux", "loki-operator", "mongodb-atlas-kubernetes", "node-healthcheck-operator", "opentelemetry-operator", "redis-operator", "sailoperator", "vault-config-operator"}
)

// twentySubscriptions builds the cluster state of the 20-subscription
// request: installed CSVs carry their bundle's properties, as OLM projects
// them.
func twentySubscriptions(tb testing.TB, gc *graph.Catalog) *cluster.State {
	tb.Helper()
	st := &cluster.State{}
	subscribe := func(name string) *cluster.Subscription {
		p := gc.Package(name)
		if p == nil {
			tb.Fatalf("community index has no package %q", name)
		}
		st.Subscriptions = append(st.Subscriptions, cluster.Subscription{Name: name, Namespace: "ns", Package: name, Channel: p.DefaultChannel, Source: "community", SourceNamespace: "olm"})
		return &st.Subscriptions[len(st.Subscriptions)-1]
	}
	for _, name := range installedBehind {
		p := gc.Package(name)
		chain := p.Channel(p.DefaultChannel).Chain()
		if len(chain) < 2 {
			tb.Fatalf("package %q: default channel chain %q is too short", name, chain)
		}
		b := p.Bundle(chain[1])
		st.CSVs = append(st.CSVs, cluster.CSV{Name: b.Name, Namespace: "ns", Version: b.Version, VersionText: b.VersionText,
			Provides: b.Provides, Requires: b.RequiresGVK, HasProperties: true, Properties: b.Properties, Phase: "Succeeded"})
		s := subscribe(name)
		s.InstalledCSV, s.CurrentCSV = b.Name, b.Name
	}
	for _, name := range withDependencies {
		subscribe(name)
	}
	for _, name := range fresh {
		subscribe(name)
	}
	st.Sort()
	return st
}

func TestCommunityTwentySubscriptions(t *testing.T) {
	r, gc := communityResolver(t)
	plan, err := r.Resolve(context.Background(), "ns", twentySubscriptions(t, gc))
	if err != nil {
		t.Fatal(err)
	}
	var upgrades, deps, installs int
	for _, s := range plan.Steps {
		switch {
		case s.Dependency:
			deps++
		case s.Action == resolver.ActionUpgrade:
			upgrades++
		default:
			installs++
		}
	}
	if upgrades != 7 || deps != 6 || installs != 13 || len(plan.Unchanged) != 0 {
		t.Errorf("plan has %d upgrades, %d dependencies, %d installs, %d unchanged; want 7, 6, 13, 0:\n%s", upgrades, deps, installs, len(plan.Unchanged), plan)
	}
}

func BenchmarkResolveCommunity20(b *testing.B) {
	r, gc := communityResolver(b)
	st := twentySubscriptions(b, gc)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Resolve(ctx, "ns", st); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResolveCommunityEtcd(b *testing.B) {
	r, _ := communityResolver(b)
	st := &cluster.State{Subscriptions: []cluster.Subscription{{Name: "etcd", Namespace: "ns", Package: "etcd", Channel: "singlenamespace-alpha", Source: "community", SourceNamespace: "olm"}}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Resolve(ctx, "ns", st); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkResolveCommunityAll subscribes to every package of the community
// index at once. Packages providing the same APIs cannot all be installed:
// the result is a conflict, explained — the benchmark measures the whole
// resolution either way.
func BenchmarkResolveCommunityAll(b *testing.B) {
	r, gc := communityResolver(b)
	st := &cluster.State{}
	for _, p := range gc.Packages() {
		st.Subscriptions = append(st.Subscriptions, cluster.Subscription{Name: p.Name, Namespace: "ns", Package: p.Name, Source: "community", SourceNamespace: "olm"})
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		_, err := r.Resolve(ctx, "ns", st)
		var ce *resolver.ConflictError
		if err != nil && !errorsAs(err, &ce) {
			b.Fatal(err)
		}
	}
}

func BenchmarkResolveTiny(b *testing.B) {
	r := newResolver(b, resolver.Options{}, cat{pkgs: []pkg{
		single("app", "1.0.0", requires(widget)),
		single("widgets", "1.0.0", provides(widget)),
	}})
	st := &cluster.State{Subscriptions: []cluster.Subscription{sub("app", "app", "stable")}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Resolve(ctx, "ns", st); err != nil {
			b.Fatal(err)
		}
	}
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }

// oldestInstalled returns a state where pkg's oldest entry of its default
// channel chain is installed under a subscription.
func oldestInstalled(tb testing.TB, gc *graph.Catalog, name string) *cluster.State {
	tb.Helper()
	p := gc.Package(name)
	chain := p.Channel(p.DefaultChannel).Chain()
	b := p.Bundle(chain[len(chain)-1])
	return &cluster.State{
		CSVs: []cluster.CSV{{Name: b.Name, Namespace: "ns", Version: b.Version, VersionText: b.VersionText,
			Provides: b.Provides, Requires: b.RequiresGVK, HasProperties: true, Properties: b.Properties, Phase: "Succeeded"}},
		Subscriptions: []cluster.Subscription{{Name: name, Namespace: "ns", Package: name, Channel: p.DefaultChannel,
			Source: "community", SourceNamespace: "olm", InstalledCSV: b.Name, CurrentCSV: b.Name}},
	}
}

func TestCommunityRollout(t *testing.T) {
	r, gc := communityResolver(t)
	rounds, err := r.Rollout(context.Background(), "ns", oldestInstalled(t, gc, "etcd"), 50)
	if err != nil {
		t.Fatal(err)
	}
	var hops []string
	for _, round := range rounds {
		for _, s := range round.Plan.Steps {
			hops = append(hops, s.Replaces+"->"+s.Bundle)
		}
	}
	want := "etcdoperator.v0.9.0->etcdoperator.v0.9.2; etcdoperator.v0.9.2->etcdoperator.v0.9.4"
	if got := strings.Join(hops, "; "); got != want {
		t.Errorf("hops %s\nwant %s", got, want)
	}
}

func BenchmarkRolloutCommunityKeycloak(b *testing.B) {
	r, gc := communityResolver(b)
	st := oldestInstalled(b, gc, "keycloak-operator")
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Rollout(ctx, "ns", st, 200); err != nil {
			b.Fatal(err)
		}
	}
}
