package resolver_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

// predictionState is the 20-subscription request with what the
// predictions read: the installed CSVs' install modes, an OperatorGroup for
// the namespace (all namespaces), and others namespaces, each with an
// OperatorGroup of its own and an installed CSV of the community index,
// whose APIs the intersection check compares with every step's.
func predictionState(tb testing.TB, gc *graph.Catalog, others int) *cluster.State {
	tb.Helper()
	st := twentySubscriptions(tb, gc).State()
	for i := range st.CSVs {
		c := &st.CSVs[i]
		if b := bundleNamed(gc, c.Name); b != nil && b.CSVMetadata != nil {
			c.InstallModes = b.CSVMetadata.InstallModes
			c.MinKubeVersion = b.CSVMetadata.MinKubeVersion
		}
	}
	st.OperatorGroups = append(st.OperatorGroups, cluster.OperatorGroup{Name: "og", Namespace: "ns"})
	pkgs := gc.Packages()
	for i := 0; i < others && i < len(pkgs); i++ {
		ns := fmt.Sprintf("team-%03d", i)
		p := pkgs[i]
		chain := p.Channel(p.DefaultChannel).Chain()
		if len(chain) == 0 {
			continue
		}
		b := p.Bundle(chain[0])
		if b == nil {
			continue
		}
		st.OperatorGroups = append(st.OperatorGroups, cluster.OperatorGroup{Name: "og", Namespace: ns, TargetNamespaces: []string{ns}})
		st.CSVs = append(st.CSVs, cluster.CSV{Name: b.Name, Namespace: ns, Version: b.Version, VersionText: b.VersionText,
			Provides: b.Provides, Requires: b.RequiresGVK, Phase: cluster.CSVPhaseSucceeded})
	}
	st.Sort()
	return st
}

func bundleNamed(gc *graph.Catalog, name string) *graph.Bundle {
	for _, p := range gc.Packages() {
		if b := p.Bundle(name); b != nil {
			return b
		}
	}
	return nil
}

// BenchmarkPredictions measures what the predictions of DESIGN §8 add to a
// resolution: the 20-subscription request resolved with them (an
// OperatorGroup, 50 other namespaces with groups and operators, a
// Kubernetes and an OpenShift version) and without (the same state with no
// OperatorGroup and no versions, where nothing is predicted). The
// difference is their cost; "only" runs the predictions alone, as Resolve
// computes them for the plan of "with".
func BenchmarkPredictions(b *testing.B) {
	gc, err := community()
	if err != nil {
		b.Fatal(err)
	}
	with := predictionState(b, gc, 50)
	without := with.Clone()
	without.OperatorGroups = nil
	for _, tc := range []struct {
		name  string
		state *cluster.State
		opts  resolver.Options
	}{
		{"with", with, resolver.Options{KubeVersion: "1.30.0", OpenShiftVersion: "4.18"}},
		{"without", without, resolver.Options{}},
	} {
		r, _ := communityResolverAs(b, "community", tc.opts)
		ctx := context.Background()
		planRes, err := r.Resolve(ctx, "ns", tc.state)
		if err != nil {
			b.Fatal(err)
		}
		plan := planRes.Plan()
		if n := predictionCount(plan); (n == 0) != (tc.name == "without") {
			b.Fatalf("%s: %d predictions", tc.name, n)
		}
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.Resolve(ctx, "ns", tc.state); err != nil {
					b.Fatal(err)
				}
			}
		})
		if tc.name != "with" {
			continue
		}
		predict, err := resolver.PredictionsOf(ctx, r, "ns", tc.state)
		if err != nil {
			b.Fatal(err)
		}
		// The predictions alone, as Resolve computes them for the plan.
		b.Run("only", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if predict() == 0 {
					b.Fatal("no prediction")
				}
			}
		})
	}
}

func predictionCount(p *resolver.Plan) int {
	n := 0
	for _, s := range p.Steps {
		n += len(s.Predictions)
	}
	for _, u := range p.Unchanged {
		n += len(u.Predictions)
	}
	return n
}
