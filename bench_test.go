package sextant_test

import (
	"context"
	"testing"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/celrule"
	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

// BenchmarkLoadGiven is what a controller pays per reconcile to answer as
// `sextant resolve` does: the world of a state already read (the README's
// sample) and the community index loaded once — catalogs placed and
// indexed, OperatorGroups read from the annotations — then Resolve (the
// plan, its held-back reasons and fixes).
func BenchmarkLoadGiven(b *testing.B) {
	cat, err := graph.LoadFile("testdata/catalogs/community-operators-prod.v4.20-index.json.gz")
	if err != nil {
		b.Fatal(err)
	}
	state, err := cluster.LoadFiles("testdata/examples/cluster.yaml")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	in := sextant.Input{State: state, Catalogs: []sextant.CatalogInput{{Name: "community-operators-prod.v4.20-index", Catalog: cat}}}
	opts := sextant.Options{CEL: celrule.New()}
	b.Run("Load", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := sextant.Load(ctx, in, opts); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("LoadResolve", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			w, err := sextant.Load(ctx, in, opts)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := w.Resolve(ctx, sextant.AnswerOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
