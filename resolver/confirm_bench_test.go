package resolver_test

import (
	"context"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/internal/testcatalog"
	"github.com/sextantdev/sextant/resolver"
)

// fixesState is the predictions' state (predictionState) with the
// namespace's OperatorGroup targeting the namespace alone: the operators
// without OwnNamespace are predicted to fail (UnsupportedOperatorGroup),
// and Fixes looks for changes that make them install.
func fixesState(tb testing.TB) (*resolver.Resolver, *cluster.State) {
	tb.Helper()
	r, gc := communityResolver(tb)
	st := predictionState(tb, gc, 5)
	for i := range st.OperatorGroups {
		if og := &st.OperatorGroups[i]; og.Namespace == "ns" {
			og.TargetNamespaces = []string{"ns"}
		}
	}
	return r, st
}

// BenchmarkFixesCommunity measures Resolution.Fixes with the default
// options on a community plan that OLM is predicted to fail: each candidate
// change re-solved, up to DefaultMaxTries. Resolve runs once, outside the
// loop (Fixes keeps no answer).
func BenchmarkFixesCommunity(b *testing.B) {
	r, st := fixesState(b)
	ctx := context.Background()
	res, err := r.Resolve(ctx, "ns", st)
	if err != nil {
		b.Fatal(err)
	}
	if !res.Plan().Failing() {
		b.Fatal("no predicted failure")
	}
	b.ReportAllocs()
	defer testcatalog.ReportCPU(b)()
	n := 0
	for b.Loop() {
		fixes, err := res.Fixes(ctx, resolver.ExplainOptions{})
		if err != nil {
			b.Fatal(err)
		}
		n = len(fixes)
	}
	b.ReportMetric(float64(n), "fixes")
}

// BenchmarkHeldBackChangesCommunity measures Resolve then HeldBack with
// the default options on the community conflict's state without its
// hand-installed etcd CSV: the held-back reasons and, for each, up to
// DefaultHeldBackTries candidate changes re-solved.
func BenchmarkHeldBackChangesCommunity(b *testing.B) {
	r, gc := communityResolver(b)
	st := twentySubscriptions(b, gc).State()
	ctx := context.Background()
	b.ReportAllocs()
	defer testcatalog.ReportCPU(b)()
	items, changes := 0, 0
	for b.Loop() {
		res, err := r.Resolve(ctx, "ns", st)
		if err != nil {
			b.Fatal(err)
		}
		plan, err := res.HeldBack(ctx, resolver.HeldBackOptions{})
		if err != nil {
			b.Fatal(err)
		}
		items, changes = 0, 0
		for _, s := range plan.Steps {
			if s.HeldBack != nil {
				items++
				if s.HeldBack.Change != nil {
					changes++
				}
			}
		}
		for _, u := range plan.Unchanged {
			if u.HeldBack != nil {
				items++
				if u.HeldBack.Change != nil {
					changes++
				}
			}
		}
	}
	b.ReportMetric(float64(items), "held-back")
	b.ReportMetric(float64(changes), "changes")
}
