package catalogimage_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sextantdev/sextant/catalogimage"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/imagetest"
	"github.com/sextantdev/sextant/internal/testcatalog"
)

const communityIndex = "community-operators-prod.v4.20-index.json.gz"

// BenchmarkCommunity reads the community catalog (13.7 MB of FBC) from the
// shipped .json.gz file, and from a catalog image in an OCI layout (a
// stand-in opm layer, then the FBC layer): with no cache, into an empty
// cache (the catalog written to it meanwhile), and from the cache. Targets:
// the layout at most 1.5× the file, the cache at most 1.1×.
func BenchmarkCommunity(b *testing.B) {
	ctx := context.Background()
	file := testcatalog.Path(b, communityIndex)
	img := imagetest.CatalogImage(b, map[string][]byte{"catalog.json": testcatalog.Read(b, communityIndex)})
	dir := imagetest.WriteLayout(b, filepath.Join(b.TempDir(), "layout"), "", img)
	ref, err := catalogimage.ParseReference("oci:" + dir)
	if err != nil {
		b.Fatal(err)
	}
	check := func(cat *graph.Catalog, err error) {
		if err != nil {
			b.Fatal(err)
		}
		if n := len(cat.Packages()); n != 315 {
			b.Fatalf("%d packages", n)
		}
	}
	b.Run("file", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			check(graph.Loader{}.LoadFile(ctx, file))
		}
	})
	b.Run("layout", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			cat, _, err := catalogimage.New(catalogimage.Options{NoCache: true}).Load(ctx, ref)
			check(cat, err)
		}
	})
	b.Run("layout-into-cache", func(b *testing.B) {
		b.ReportAllocs()
		root := b.TempDir()
		i := 0
		for b.Loop() {
			i++
			cache := filepath.Join(root, "c"+string(rune('a'+i%26))+filepath.Base(b.Name()))
			os.RemoveAll(cache)
			cat, info, err := catalogimage.New(catalogimage.Options{CacheDir: cache}).Load(ctx, ref)
			check(cat, err)
			if info.Cached || info.CacheErr != nil {
				b.Fatalf("%+v", info)
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		b.ReportAllocs()
		cache := b.TempDir()
		if _, _, err := catalogimage.New(catalogimage.Options{CacheDir: cache}).Load(ctx, ref); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			cat, info, err := catalogimage.New(catalogimage.Options{CacheDir: cache}).Load(ctx, ref)
			check(cat, err)
			if !info.Cached {
				b.Fatal("not cached")
			}
		}
	})
}
