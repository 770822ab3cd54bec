package olmv1_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/olmv1"
)

// The community index, shared by the tests and benchmarks on real data.
const communityIndex = "../testdata/catalogs/community-operators-prod.v4.20-index.json.gz"

var community = sync.OnceValues(func() (*graph.Catalog, error) { return graph.LoadFile(communityIndex) })

func communityResolver(tb testing.TB) (*olmv1.Resolver, *graph.Catalog) {
	tb.Helper()
	gc, err := community()
	if err != nil {
		tb.Fatal(err)
	}
	r, err := olmv1.New([]olmv1.Catalog{catalog("community", 0, gc)}, olmv1.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return r, gc
}

// sweepCase is one resolution of the sweep: a package, and the bundle
// installed (nil: a fresh install).
type sweepCase struct {
	ext       cluster.ClusterExtension
	installed *cluster.InstalledBundle
}

// sweep returns a fresh install of every package of gc, naming no channel,
// and one upgrade per channel entry: from the entry's bundle, naming its
// channel.
func sweep(gc *graph.Catalog) []sweepCase {
	var cases []sweepCase
	for _, p := range gc.Packages() {
		ext := cluster.ClusterExtension{Name: p.Name, Namespace: p.Name, SourceType: "Catalog", Package: p.Name}
		cases = append(cases, sweepCase{ext: ext})
		for _, ch := range p.Channels {
			in := ext
			in.Channels = []string{ch.Name}
			for _, e := range ch.Entries {
				if b := p.Bundle(e.Name); b != nil {
					cases = append(cases, sweepCase{ext: in, installed: &cluster.InstalledBundle{Name: b.Name, Version: packageVersion(b)}})
				}
			}
		}
	}
	return cases
}

// packageVersion returns the olm.package version of b as written.
func packageVersion(b *graph.Bundle) string {
	for _, p := range b.Properties {
		if p.Type == graph.SchemaPackage {
			var v struct{ Version string }
			if json.Unmarshal(p.Value, &v) == nil {
				return v.Version
			}
		}
	}
	return b.VersionText
}

// TestCommunityFacts holds facts measured with operator-controller's own
// resolver on the community index (see BENCHMARKS.md, the differential).
func TestCommunityFacts(t *testing.T) {
	r, gc := communityResolver(t)
	// sailoperator: v0 installs the default channel's head 1.30.3 (stable);
	// v1 takes the highest version of every channel.
	b, cat, err := r.Choose(&cluster.ClusterExtension{Package: "sailoperator"}, nil)
	if err != nil || b.Name != "sailoperator.v1.31.0-nightly-2026-08-22" || cat != "community" {
		t.Errorf("sailoperator: %v %v %v", b, cat, err)
	}
	// Fresh installs naming no channel that choose another bundle than the
	// default channel's head: 9 packages (a choice v1 then refuses for its
	// dependencies counts too).
	differ := 0
	for _, p := range gc.Packages() {
		b, _, err := r.Choose(&cluster.ClusterExtension{Package: p.Name}, nil)
		ch := p.Default()
		if ch == nil {
			continue
		}
		name := ""
		if err == nil {
			name = b.Name
		} else if rest, ok := strings.CutPrefix(err.Error(), `validating bundle "`); ok {
			name, _, _ = strings.Cut(rest, `"`)
		}
		if head, ok := ch.Head(); ok && name != "" && head != name {
			differ++
		}
	}
	if differ != 9 {
		t.Errorf("%d fresh installs differ from the default channel's head, want 9", differ)
	}
}

// BenchmarkCommunitySweep makes operator-controller's choice, on the
// community index, for a ClusterExtension of every package (fresh install)
// and one upgrade per channel entry: ns/op is the whole sweep, with a new
// Resolver each op (each package's versions read once per sweep, as a
// fresh process reads them).
func BenchmarkCommunitySweep(b *testing.B) {
	_, gc := communityResolver(b)
	cases := sweep(gc)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r, err := olmv1.New([]olmv1.Catalog{catalog("community", 0, gc)}, olmv1.Options{})
		if err != nil {
			b.Fatal(err)
		}
		for i := range cases {
			r.Choose(&cases[i].ext, cases[i].installed)
		}
	}
	b.ReportMetric(float64(len(cases)), "calls/op")
}

// BenchmarkCommunityResolve resolves the same sweep with everything Sextant
// adds (passed over, next hops, predictions), one extension at a time.
func BenchmarkCommunityResolve(b *testing.B) {
	r, gc := communityResolver(b)
	cases := sweep(gc)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i := range cases {
			ext := cases[i].ext
			ext.Installed = cases[i].installed
			if _, err := r.Resolve(context.Background(), &cluster.State{ClusterExtensions: []cluster.ClusterExtension{ext}}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(cases)), "calls/op")
}
