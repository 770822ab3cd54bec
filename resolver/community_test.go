package resolver_test

import (
	"slices"
	"sync"
	"testing"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolvertest"
)

// The community index, shared by the tests and benchmarks that resolve
// real catalog data.
const communityIndex = "../testdata/catalogs/community-operators-prod.v4.20-index.json.gz"

var community = sync.OnceValues(func() (*graph.Catalog, error) { return graph.LoadFile(communityIndex) })

// communityResolver returns a resolver over the community index as catalog
// olm/community.
func communityResolver(tb testing.TB) (*resolver.Resolver, *graph.Catalog) {
	tb.Helper()
	return communityResolverAs(tb, "community", resolver.Options{})
}

// communityResolverAs returns a resolver with opts over the community index
// as catalog olm/name.
func communityResolverAs(tb testing.TB, name string, opts resolver.Options) (*resolver.Resolver, *graph.Catalog) {
	tb.Helper()
	gc, err := community()
	if err != nil {
		tb.Fatal(err)
	}
	r, err := resolver.New([]resolver.Catalog{{Key: resolver.CatalogKey{Namespace: "olm", Name: name}, Catalog: gc}}, opts)
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

// twentySubscriptions builds the cluster state of namespace ns for the
// 20-subscription request: installed CSVs carry their bundle's properties,
// as OLM projects them.
func twentySubscriptions(tb testing.TB, gc *graph.Catalog) *resolvertest.State {
	tb.Helper()
	st := resolvertest.NewState("ns")
	for _, name := range installedBehind {
		chain := defaultChain(tb, gc, name)
		if len(chain) < 2 {
			tb.Fatalf("package %q: default channel chain %q is too short", name, chain)
		}
		subscribeInstalled(st, gc, name, chain[1])
	}
	for _, name := range slices.Concat(withDependencies, fresh) {
		st.Subscribe(name, name).Channel(gc.Package(name).DefaultChannel).Source("olm", "community")
	}
	return st
}

// oldestInstalled returns a state where package name's oldest entry of its
// default channel chain is installed under a subscription.
func oldestInstalled(tb testing.TB, gc *graph.Catalog, name string) *resolvertest.State {
	tb.Helper()
	chain := defaultChain(tb, gc, name)
	st := resolvertest.NewState("ns")
	subscribeInstalled(st, gc, name, chain[len(chain)-1])
	return st
}

// defaultChain returns the replaces chain of package name's default
// channel, head first.
func defaultChain(tb testing.TB, gc *graph.Catalog, name string) []string {
	tb.Helper()
	p := gc.Package(name)
	if p == nil {
		tb.Fatalf("community index has no package %q", name)
	}
	return p.Channel(p.DefaultChannel).Chain()
}

// subscribeInstalled installs bundle of package name and subscribes to
// the package's default channel with it installed.
func subscribeInstalled(st *resolvertest.State, gc *graph.Catalog, name, bundle string) {
	p := gc.Package(name)
	st.InstallBundle(p.Bundle(bundle))
	st.Subscribe(name, name).Channel(p.DefaultChannel).Source("olm", "community").Installed(bundle)
}
