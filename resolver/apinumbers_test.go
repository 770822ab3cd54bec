package resolver

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

// TestManyAPIsSameProblem holds the numbering of long properties
// annotations (once per Resolver, each a run of numbers) to the numbering
// one API at a time: the same constraints, in the same order, with the
// same APIs named, resolution after resolution.
func TestManyAPIsSameProblem(t *testing.T) {
	r := manyAPIsResolver(t)
	csv := manyAPIsCSV
	sub := manyAPIsSub
	for _, tc := range []struct {
		name string
		csvs []cluster.CSV
	}{
		{"one long, alone", []cluster.CSV{csv("a", "pa", 0, 400, false)}},
		{"one long, its APIs twice", []cluster.CSV{csv("a", "pa", 0, 400, true)}},
		{"two long, overlapping", []cluster.CSV{csv("a", "pa", 0, 400, false), csv("b", "pb", 300, 700, false)}},
		{"two long, apart", []cluster.CSV{csv("a", "pa", 0, 400, false), csv("b", "pb", 400, 800, false)}},
		{"short before long, overlapping", []cluster.CSV{csv("a", "pa", 390, 395, false), csv("b", "pb", 0, 400, false)}},
		{"long before short, overlapping", []cluster.CSV{csv("a", "pa", 0, 400, false), csv("b", "pb", 390, 395, false)}},
		{"three, one package", []cluster.CSV{csv("a", "pa", 0, 400, false), csv("b", "pa", 100, 500, false), csv("c", "pc", 450, 460, false)}},
		{"long without a package", []cluster.CSV{csv("a", "", 0, 300, false), csv("b", "pb", 299, 600, false)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &cluster.State{CSVs: tc.csvs, Subscriptions: []cluster.Subscription{sub}}
			problem := func(many int) string {
				defer func(old int) { manyAPIs = old }(manyAPIs)
				manyAPIs = many
				res, err := r.prepare(context.Background(), "ns", st, nil)
				if err != nil {
					t.Fatal(err)
				}
				var sb strings.Builder
				for _, c := range res.p.Constraints() {
					fmt.Fprintf(&sb, "%v %s %s", c.Kind, c.Reason.kind, c.Reason.pkg)
					if c.Reason.gvk != nil {
						fmt.Fprintf(&sb, " %v", *c.Reason.gvk)
					}
					for _, v := range append([]variable{c.Subject}, c.Vars...) {
						fmt.Fprintf(&sb, " %d/%d", v.kind, v.idx)
					}
					sb.WriteByte('\n')
				}
				return sb.String()
			}
			want := problem(1 << 30)
			for range 2 { // the second time from the Resolver's numbers
				if got := problem(256); got != want {
					t.Errorf("numbered in runs:\n%s\none at a time:\n%s", got, want)
				}
			}
			if !strings.Contains(want, "at most one-per-api") {
				t.Errorf("no constraint at all:\n%s", want)
			}
		})
	}
}

// manyAPIsShared is the API the catalog's one bundle provides, and every
// CSV of manyAPIsCSV.
var manyAPIsShared = graph.GVK{Group: "shared.example.com", Version: "v1", Kind: "Shared"}

// manyAPIsSub subscribes to the catalog's one package.
var manyAPIsSub = cluster.Subscription{Name: "cat", Namespace: "ns", Package: "cat", Channel: "stable", Source: "c", SourceNamespace: "olm"}

// manyAPIsResolver resolves against a catalog of one bundle, which provides
// manyAPIsShared.
func manyAPIsResolver(t *testing.T) *Resolver {
	t.Helper()
	b := graph.NewBuilder()
	b.AddPackage("cat", "stable")
	b.AddChannel("cat", "stable", graph.Entry{Name: "cat.v1.0.0"})
	if err := b.AddBundle("cat.v1.0.0", "cat", "img", graph.PackageProperty("cat", "1.0.0"), graph.GVKProperty(manyAPIsShared)); err != nil {
		t.Fatal(err)
	}
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := New([]Catalog{{Key: CatalogKey{Namespace: "olm", Name: "c"}, Catalog: c}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// manyAPIsCSV is an installed CSV of package pkg providing the APIs
// numbered from lo to hi (each listed twice when twice is set), and
// manyAPIsShared.
func manyAPIsCSV(name, pkg string, lo, hi int, twice bool) cluster.CSV {
	props := []graph.Property{graph.PackageProperty(pkg, "1.0.0")}
	for i := lo; i < hi; i++ {
		g := graph.GVK{Group: fmt.Sprintf("g%04d.example.com", i), Version: "v1", Kind: "K"}
		props = append(props, graph.GVKProperty(g))
		if twice {
			props = append(props, graph.GVKProperty(g))
		}
	}
	props = append(props, graph.GVKProperty(manyAPIsShared))
	return cluster.CSV{Name: name, Namespace: "ns", Properties: cluster.NewCSVProperties(props...), Phase: cluster.CSVPhaseSucceeded}
}

// TestManyAPIsConcurrent resolves one namespace from several goroutines
// at once with a new Resolver, whose long annotations are numbered by the
// first resolution that asks (run with -race): every answer the same.
func TestManyAPIsConcurrent(t *testing.T) {
	r := manyAPIsResolver(t)
	st := &cluster.State{
		CSVs:          []cluster.CSV{manyAPIsCSV("a", "pa", 0, 400, false), manyAPIsCSV("b", "pb", 300, 700, false), manyAPIsCSV("c", "pc", 650, 660, false)},
		Subscriptions: []cluster.Subscription{manyAPIsSub},
	}
	answer := func() string {
		res, err := r.Resolve(context.Background(), "ns", st)
		if err != nil {
			return err.Error()
		}
		return res.Plan().String()
	}
	const n = 4
	got := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { got[i] = answer() })
	}
	wg.Wait()
	want := answer()
	if !strings.Contains(want, "g0300.example.com") {
		t.Fatalf("the answer names no API the CSVs share:\n%s", want)
	}
	for i, g := range got {
		if g != want {
			t.Errorf("goroutine %d:\n%s\nwant:\n%s", i, g, want)
		}
	}
}
