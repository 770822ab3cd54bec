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
// shipped .json.gz file, and from a catalog image of it (a stand-in opm
// layer, then the FBC layer): in an OCI layout, in a docker save archive,
// and from the in-process registry — into an empty cache, and from the
// cache by digest and by tag (one manifest request). Targets: the layout
// at most 1.5× the file, the cache at most 1.1×.
func BenchmarkCommunity(b *testing.B) {
	ctx := context.Background()
	file := testcatalog.Path(b, communityIndex)
	img := imagetest.CatalogImage(b, map[string][]byte{"catalog.json": testcatalog.Read(b, communityIndex)})
	dir := b.TempDir()
	layout := imagetest.WriteLayout(b, filepath.Join(dir, "layout"), "", img)
	archive := imagetest.WriteDockerSave(b, filepath.Join(dir, "saved.tar"), img)
	reg := imagetest.NewRegistry(b)
	byTag, digest := reg.Push(b, "olm/community:v4.20", img)
	byDigest := reg.Host + "/olm/community@" + digest.String()
	ref := func(s string) catalogimage.Reference {
		r, err := catalogimage.ParseReference(s)
		if err != nil {
			b.Fatal(err)
		}
		return r
	}
	check := func(cat *graph.Catalog, err error) {
		if err != nil {
			b.Fatal(err)
		}
		if n := len(cat.Packages()); n != 315 {
			b.Fatalf("%d packages", n)
		}
	}
	load := func(o catalogimage.Options, s string, cached bool) {
		o.Insecure = []string{reg.Host}
		cat, info, err := catalogimage.New(o).Load(ctx, ref(s))
		check(cat, err)
		if info.Cached != cached || info.CacheErr != nil {
			b.Fatalf("%+v", info)
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
			load(catalogimage.Options{}, "oci:"+layout, false)
		}
	})
	b.Run("docker-save", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			load(catalogimage.Options{}, "docker-archive:"+archive, false)
		}
	})
	b.Run("registry-into-cache", func(b *testing.B) {
		b.ReportAllocs()
		cache := filepath.Join(b.TempDir(), "cache")
		for b.Loop() {
			os.RemoveAll(cache)
			load(catalogimage.Options{CacheDir: cache}, byDigest, false)
		}
	})
	cache := b.TempDir()
	load(catalogimage.Options{CacheDir: cache}, byTag, false)
	b.Run("cached-digest", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			load(catalogimage.Options{CacheDir: cache}, byDigest, true)
		}
	})
	b.Run("cached-tag", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			load(catalogimage.Options{CacheDir: cache}, byTag, true)
		}
	})
}
