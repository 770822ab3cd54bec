package graph

import (
	"fmt"
	"testing"

	"github.com/blang/semver/v4"
)

// builderFrom returns a Builder holding copies of cat's packages, channels
// and bundles, typed fields already derived: Build on it measures indexing
// alone, without decoding or property parsing.
func builderFrom(cat *Catalog) *Builder {
	b := NewBuilder()
	n, nc := 0, 0
	for _, p := range cat.Packages() {
		n += len(p.Bundles)
		nc += len(p.Channels)
	}
	b.Grow(n, nc)
	for _, p := range cat.Packages() {
		if p.Declared() {
			b.addPackage(p.Pos, p.Name, p.DefaultChannel)
		}
		for _, ch := range p.Channels {
			b.addChannel(ch.Pos, ch.Package, ch.Name, ch.Entries, ch.entryPos)
		}
		for _, bd := range p.Bundles {
			b.slab = append(b.slab, *bd)
			cp := &b.slab[len(b.slab)-1]
			cp.Channels = nil
			b.bundles = append(b.bundles, cp)
		}
		if len(p.depBlobs) > 0 {
			b.addDeprecations(p.depBlobs[0], p.Name, p.Deprecations)
		}
	}
	return b
}

func loadBench(b *testing.B, name string) *Catalog {
	b.Helper()
	cat, err := LoadFile(catalogPath(b, name))
	if err != nil {
		b.Fatal(err)
	}
	return cat
}

// BenchmarkBuild measures Builder.Build alone (indexes, channel graphs) on
// the community index catalog: 315 packages, 5,624 bundles, 7,693 entries.
func BenchmarkBuild(b *testing.B) {
	benchBuild(b, loadBench(b, "community-operators-prod.v4.20-index"))
}

// benchBuild measures Builder.Build of a copy of cat (see builderFrom),
// each made with the timer stopped.
func benchBuild(b *testing.B, cat *Catalog) {
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		bl := builderFrom(cat)
		b.StartTimer()
		if _, err := bl.Build(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSuccessors asks every entry of every channel of the community
// index for its successors at its bundle's version, as resolution does for
// installed operators; the figure is per call.
func BenchmarkSuccessors(b *testing.B) {
	cat := loadBench(b, "community-operators-prod.v4.20-index")
	type q struct {
		ch   *Channel
		name string
		v    semver.Version
	}
	var qs []q
	for _, p := range cat.Packages() {
		for _, ch := range p.Channels {
			for _, e := range ch.Entries {
				if bd := p.Bundle(e.Name); bd != nil {
					qs = append(qs, q{ch, e.Name, bd.Version})
				}
			}
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		x := qs[i%len(qs)]
		x.ch.Successors(x.name, x.v)
		i++
	}
}

// BenchmarkValidate measures the structural checks on the community index.
func BenchmarkValidate(b *testing.B) {
	cat := loadBench(b, "community-operators-prod.v4.20-index")
	b.ReportAllocs()
	for b.Loop() {
		cat.Validate()
	}
}

// BenchmarkReachable runs Reachable from the last entry of the largest
// channel of the community index.
func BenchmarkReachable(b *testing.B) {
	cat := loadBench(b, "community-operators-prod.v4.20-index")
	var big *Channel
	for _, p := range cat.Packages() {
		for _, ch := range p.Channels {
			if big == nil || len(ch.Entries) > len(big.Entries) {
				big = ch
			}
		}
	}
	order := big.Order()
	from := order[len(order)-1]
	b.Logf("channel %s: %d entries", big.Ref(), len(big.Entries))
	b.ReportAllocs()
	for b.Loop() {
		big.Reachable(from)
	}
}

// generatedBuilder returns a builder for a seeded synthetic catalog: pkgs
// packages of chans channels, each channel a replaces chain of n entries
// where every fourth entry also skips the one before and every eighth has a
// skipRange over the previous minor versions.
func generatedBuilder(pkgs, chans, n int) *Builder {
	b := NewBuilder()
	b.Grow(pkgs*n, pkgs*chans)
	for p := 0; p < pkgs; p++ {
		pkg := fmt.Sprintf("pkg%03d", p)
		b.AddPackage(pkg, "c0")
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("%s.v1.%d.0", pkg, i)
			g := GVK{Group: fmt.Sprintf("g%d.example.com", p%50), Version: "v1", Kind: fmt.Sprintf("K%d", i%7)}
			if err := b.AddBundle(names[i], pkg, "img", PackageProperty(pkg, fmt.Sprintf("1.%d.0", i)), GVKProperty(g)); err != nil {
				panic(err)
			}
		}
		for c := 0; c < chans; c++ {
			entries := make([]Entry, 0, n)
			for i := c; i < n; i++ { // later channels start later
				e := Entry{Name: names[i]}
				if i > c {
					e.Replaces = names[i-1]
				}
				if i%4 == 0 && i > c+1 {
					e.Replaces, e.Skips = names[i-2], []string{names[i-1]}
				}
				if i%8 == 0 {
					e.SkipRange = mustRange(fmt.Sprintf(">=1.%d.0 <1.%d.0", max(0, i-8), i))
				}
				entries = append(entries, e)
			}
			b.AddChannel(pkg, fmt.Sprintf("c%d", c), entries...)
		}
	}
	return b
}

// BenchmarkBuildGenerated measures Build on a generated catalog of 500
// packages × 3 channels × 40 entries (20,000 bundles, 58,500 entries).
func BenchmarkBuildGenerated(b *testing.B) {
	src := mustBuild(b, generatedBuilder(500, 3, 40))
	if fs := src.Validate(); len(fs) > 0 {
		b.Fatalf("generated catalog is not sound: %v", fs[0])
	}
	benchBuild(b, src)
}

// BenchmarkReachableLongChannel runs Reachable and ShortestPath from the
// tail of the chain of a generated 2,000-entry channel with a skipRange on every eighth
// entry.
func BenchmarkReachableLongChannel(b *testing.B) {
	cat := mustBuild(b, generatedBuilder(1, 1, 2000))
	ch := cat.Package("pkg000").Channel("c0")
	chain := ch.Chain()
	tail, head := chain[len(chain)-1], chain[0]
	b.ReportAllocs()
	for b.Loop() {
		if len(ch.Reachable(tail)) != len(ch.Entries)-1 {
			b.Fatal("not everything reachable")
		}
		if _, ok := ch.ShortestPath(tail, head); !ok {
			b.Fatal("no path")
		}
	}
}
