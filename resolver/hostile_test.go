package resolver_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/testcatalog"
	"github.com/sextantdev/sextant/resolver"
)

// manySubscriptions builds a catalog of n packages, each with a channel of
// two bundles (1.1.0 replaces 1.0.0), and a namespace subscribed to every
// package, every other one installed at 1.0.0.
func manySubscriptions(tb testing.TB, n int) (*resolver.Resolver, *cluster.State) {
	tb.Helper()
	b := graph.NewBuilder()
	b.Grow(2*n, n)
	st := &cluster.State{}
	for i := range n {
		pkg := fmt.Sprintf("p%05d", i)
		b.AddPackage(pkg, "stable")
		old, cur := pkg+".v1.0.0", pkg+".v1.1.0"
		b.AddChannel(pkg, "stable", graph.Entry{Name: old}, graph.Entry{Name: cur, Replaces: old})
		gvk := graph.GVK{Group: pkg + ".example.com", Version: "v1", Kind: "K"}
		for _, v := range []struct{ name, version string }{{old, "1.0.0"}, {cur, "1.1.0"}} {
			if err := b.AddBundle(v.name, pkg, "img", graph.PackageProperty(pkg, v.version), graph.GVKProperty(gvk)); err != nil {
				tb.Fatal(err)
			}
		}
		sub := cluster.Subscription{Name: pkg, Namespace: "ns", Package: pkg, Channel: "stable", Source: "c", SourceNamespace: "olm"}
		if i%2 == 0 {
			sub.InstalledCSV, sub.CurrentCSV = old, old
			st.CSVs = append(st.CSVs, cluster.CSV{Name: old, Namespace: "ns", VersionText: "1.0.0", Provides: []graph.GVK{gvk},
				Properties: cluster.NewCSVProperties(graph.PackageProperty(pkg, "1.0.0"), graph.GVKProperty(gvk)), Phase: cluster.CSVPhaseSucceeded})
		}
		st.Subscriptions = append(st.Subscriptions, sub)
	}
	for i := range st.CSVs {
		st.CSVs[i].Version = semver.MustParse(st.CSVs[i].VersionText)
	}
	cat, err := b.Build()
	if err != nil {
		tb.Fatal(err)
	}
	r, err := resolver.New([]resolver.Catalog{{Key: resolver.CatalogKey{Namespace: "olm", Name: "c"}, Catalog: cat}}, resolver.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	st.Sort()
	return r, st
}

// benchManySubscriptions runs run on the namespace of manySubscriptions
// with 5,000 and 20,000 subscriptions (the larger skipped with -short).
func benchManySubscriptions(b *testing.B, run func(r *resolver.Resolver, st *cluster.State, n int) error) {
	for i, n := range []int{5000, 20000} {
		if i > 0 && testing.Short() {
			continue
		}
		r, st := manySubscriptions(b, n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := run(r, st, n); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkResolveManySubscriptions resolves a namespace with 5,000 and
// 20,000 subscriptions: the cost must grow about linearly.
func BenchmarkResolveManySubscriptions(b *testing.B) {
	benchManySubscriptions(b, func(r *resolver.Resolver, st *cluster.State, n int) error {
		res, err := r.Resolve(context.Background(), "ns", st)
		if err != nil {
			return err
		}
		if plan := res.Plan(); len(plan.Steps) != n {
			return fmt.Errorf("%d steps, want %d", len(plan.Steps), n)
		}
		return nil
	})
}

// BenchmarkRolloutManySubscriptions rolls the same namespace out (one round
// of upgrades and installs, then nothing left).
func BenchmarkRolloutManySubscriptions(b *testing.B) {
	benchManySubscriptions(b, func(r *resolver.Resolver, st *cluster.State, _ int) error {
		_, err := r.Rollout(context.Background(), "ns", st, resolver.RolloutOptions{MaxRounds: 10})
		return err
	})
}

// TestResolveCancel cancels a resolution of a large namespace before it
// starts, which must return the context's error, and shortly after it
// starts: it returns the context's error soon after.
func TestResolveCancel(t *testing.T) {
	n := 50000
	if testing.Short() {
		n = 10000
	}
	r, st := manySubscriptions(t, n)
	for _, tt := range []struct {
		name string
		run  func(ctx context.Context) error
	}{
		{"Resolve", func(ctx context.Context) error { _, err := r.Resolve(ctx, "ns", st); return err }},
		{"Rollout", func(ctx context.Context) error {
			_, err := r.Rollout(ctx, "ns", st, resolver.RolloutOptions{MaxRounds: 10})
			return err
		}},
	} {
		for _, after := range []time.Duration{0, time.Millisecond, 10 * time.Millisecond} {
			t.Run(fmt.Sprintf("%s/%v", tt.name, after), func(t *testing.T) {
				testcatalog.CheckCancel(t, after, testcatalog.CancelBudget, tt.run)
			})
		}
	}
}

// BenchmarkCancel measures how long Resolve takes to return after its
// context is cancelled 1 ms into a resolution of 50,000 subscriptions
// (metric ms-after-cancel; the goal is under 50).
func BenchmarkCancel(b *testing.B) {
	r, st := manySubscriptions(b, 50000)
	var total time.Duration
	n := 0
	for b.Loop() {
		late, err := testcatalog.CancelAfter(time.Millisecond, func(ctx context.Context) error {
			_, err := r.Resolve(ctx, "ns", st)
			return err
		})
		if err != nil {
			total += late
			n++
		}
	}
	if n > 0 {
		b.ReportMetric(float64(total.Milliseconds())/float64(n), "ms-after-cancel")
	}
}

// TestNewContextCancelled: indexing honours the context.
func TestNewContextCancelled(t *testing.T) {
	gc, err := community()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := resolver.NewContext(ctx, []resolver.Catalog{{Key: resolver.CatalogKey{Namespace: "olm", Name: "c"}, Catalog: gc}}, resolver.Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("NewContext with a cancelled context: %v", err)
	}
	if _, err := resolver.NewContext(context.Background(), []resolver.Catalog{{Key: resolver.CatalogKey{Namespace: "olm", Name: "c"}, Catalog: gc}}, resolver.Options{}); err != nil {
		t.Errorf("NewContext: %v", err)
	}
}
