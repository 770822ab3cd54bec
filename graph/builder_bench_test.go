package graph

import (
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
			b.addChannel(ch.Pos, ch.Package, ch.Name, ch.Entries)
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
	cat, err := LoadFile(catalogPath(name))
	if err != nil {
		b.Fatal(err)
	}
	return cat
}

// BenchmarkBuild measures Builder.Build alone (indexes, channel graphs) on
// the community index catalog: 315 packages, 5,624 bundles, 7,693 entries.
func BenchmarkBuild(b *testing.B) {
	cat := loadBench(b, "community-operators-prod.v4.20-index")
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
