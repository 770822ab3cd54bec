package resolver_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

// communityConflict is the 20-subscription request on the community index
// plus an etcd operator installed by hand, with no subscription, that owns
// the EtcdCluster API every etcd bundle also provides: subscription etcd
// can neither upgrade its installed CSV nor keep it.
func communityConflict(tb testing.TB) (*resolver.Resolver, *cluster.State) {
	tb.Helper()
	r, gc := communityResolver(tb)
	st := twentySubscriptions(tb, gc)
	st.CSVs = append(st.CSVs, cluster.CSV{Name: "etcd-legacy.v0.6.1", Namespace: "ns", VersionText: "0.6.1", Phase: "Succeeded",
		Provides: []graph.GVK{{Group: "etcd.database.coreos.com", Version: "v1beta2", Kind: "EtcdCluster"}}})
	st.Sort()
	return r, st
}

// explainCommunity resolves the community conflict and explains it.
func explainCommunity(tb testing.TB, r *resolver.Resolver, st *cluster.State, opts resolver.ExplainOptions) *resolver.Explanation {
	_, err := r.Resolve(context.Background(), "ns", st)
	var ce *resolver.ConflictError
	if !errors.As(err, &ce) {
		tb.Fatalf("Resolve = %v, want a conflict", err)
	}
	ex, err := r.Explain(context.Background(), "ns", st, ce, opts)
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

// BenchmarkExplainCommunity resolves an unsatisfiable request on the
// community index and explains it, suggestions included (each re-solved),
// with the default options. The catalog is loaded and indexed outside the
// loop.
func BenchmarkExplainCommunity(b *testing.B) {
	r, st := communityConflict(b)
	b.ReportAllocs()
	for b.Loop() {
		ex := explainCommunity(b, r, st, resolver.ExplainOptions{Budget: -1})
		if len(ex.Suggestions) == 0 {
			b.Fatal("no suggestion")
		}
	}
}
