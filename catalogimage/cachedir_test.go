package catalogimage_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sextantdev/sextant/catalogimage"
	"github.com/sextantdev/sextant/internal/imagetest"
)

// catalogFile returns a catalog file of the cache entry of digest d.
func catalogFile(t *testing.T, cache, d string) string {
	t.Helper()
	var found string
	_ = filepath.WalkDir(filepath.Join(cache, "catalogs", strings.Replace(d, ":", "-", 1), "fs"), func(p string, de os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, "catalog.json") && found == "" {
			found = p
		}
		return nil
	})
	if found == "" {
		t.Fatalf("no catalog file in the cache entry of %s", d)
	}
	return found
}

// TestDamagedCacheEntry: a cache entry that no longer decodes is read
// again from the registry, and replaced, whenever the registry may be
// reached; otherwise the error names the folder to delete.
func TestDamagedCacheEntry(t *testing.T) {
	reg := imagetest.NewRegistry(t)
	ref, d := reg.Push(t, "olm/catalog:v1", twoPackages(t))
	cache := t.TempDir()
	load := func(o catalogimage.Options) (catalogimage.Info, error) {
		o.CacheDir = cache
		_, info, err := reader(t, reg, o).Load(context.Background(), mustRef(t, ref))
		return info, err
	}
	if _, err := load(catalogimage.Options{}); err != nil {
		t.Fatal(err)
	}
	damage := func() {
		if err := os.WriteFile(catalogFile(t, cache, d.String()), []byte(`{"schema":`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	entry := filepath.Join(cache, "catalogs", "sha256-"+d.Hex)

	damage()
	_, err := load(catalogimage.Options{Pull: catalogimage.PullNever})
	var de *catalogimage.CacheDamagedError
	if !errors.As(err, &de) || de.Entry != entry || !strings.Contains(err.Error(), "the cached copy in "+entry+" cannot be read (delete the folder to read the image again)") {
		t.Fatalf("pull never: error %v, want the entry named", err)
	}
	for _, pull := range []catalogimage.Pull{catalogimage.PullAlways, catalogimage.PullMissing} {
		damage()
		info, err := load(catalogimage.Options{Pull: pull})
		if err != nil || info.Damaged == nil || info.Damaged.Entry != entry || info.Cached {
			t.Fatalf("pull %s: %v, damaged %v, cached %v: want the image read again", pull, err, info.Damaged, info.Cached)
		}
		info, err = load(catalogimage.Options{Pull: catalogimage.PullNever})
		if err != nil || !info.Cached || info.Damaged != nil {
			t.Fatalf("pull %s, then never: %v cached %v: want the entry replaced", pull, err, info.Cached)
		}
	}
}

// TestUndecodableNotCached: an image whose catalog does not decode is not
// kept, so that the next read says what is wrong with the image, not with
// the cache.
func TestUndecodableNotCached(t *testing.T) {
	reg := imagetest.NewRegistry(t)
	img := imagetest.CatalogImage(t, map[string][]byte{"a/catalog.json": []byte(`{"schema":"olm.package","name":null}`)})
	ref, _ := reg.Push(t, "olm/bad:v1", img)
	cache := t.TempDir()
	for i := range 2 {
		_, _, err := reader(t, reg, catalogimage.Options{CacheDir: cache}).Load(context.Background(), mustRef(t, ref))
		if err == nil || strings.Contains(err.Error(), "cached copy") {
			t.Fatalf("run %d: error %v, want the image's", i, err)
		}
	}
	if entries, _ := catalogimage.ListCache(cache); len(entries) != 0 {
		t.Errorf("cache holds %+v", entries)
	}
}

// TestCacheListPruneLimit: the cache lists its entries, most recently used
// first, with their tags and sizes; prune removes by age, by size (least
// recently used first) or all, with their tag records; and a Reader keeps
// the cache within CacheMaxBytes, never removing what it just wrote.
func TestCacheListPruneLimit(t *testing.T) {
	reg := imagetest.NewRegistry(t)
	var refs []string
	var digests []string
	for i, v := range []string{"1.0.0", "2.0.0", "3.0.0"} {
		img := imagetest.CatalogImage(t, map[string][]byte{"a/catalog.json": fbc("a", v)})
		ref, d := reg.Push(t, "olm/catalog:v"+string(rune('1'+i)), img)
		refs, digests = append(refs, ref), append(digests, d.String())
	}
	cache := t.TempDir()
	r := reader(t, reg, catalogimage.Options{CacheDir: cache})
	for _, ref := range refs {
		if _, _, err := r.Load(context.Background(), mustRef(t, ref)); err != nil {
			t.Fatal(err)
		}
	}
	// Ages: v1 used an hour ago, v2 ten days ago, v3 now.
	now := time.Now()
	for i, age := range []time.Duration{time.Hour, 240 * time.Hour, 0} {
		meta := filepath.Join(cache, "catalogs", strings.Replace(digests[i], ":", "-", 1), "meta.json")
		if err := os.Chtimes(meta, now.Add(-age), now.Add(-age)); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := catalogimage.ListCache(cache)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, e := range entries {
		order = append(order, e.Digest)
		if e.Size == 0 || len(e.Tags) != 1 || e.CatalogDir != "/configs" {
			t.Errorf("entry %+v", e)
		}
	}
	if want := []string{digests[2], digests[0], digests[1]}; strings.Join(order, " ") != strings.Join(want, " ") {
		t.Fatalf("order %v, want %v", order, want)
	}
	size := entries[0].Size

	res, err := catalogimage.PruneCache(cache, catalogimage.PruneOptions{UnusedFor: 24 * time.Hour, Now: now})
	if err != nil || len(res.Removed) != 1 || res.Removed[0].Digest != digests[1] || len(res.Kept) != 2 {
		t.Fatalf("prune by age: %+v, %v", res, err)
	}
	res, err = catalogimage.PruneCache(cache, catalogimage.PruneOptions{MaxBytes: size, Now: now})
	if err != nil || len(res.Removed) != 1 || res.Removed[0].Digest != digests[0] {
		t.Fatalf("prune by size: %+v, %v", res, err)
	}
	if tags, _ := os.ReadDir(filepath.Join(cache, "tags")); len(tags) != 1 {
		t.Errorf("%d tag records left, want 1", len(tags))
	}

	// A Reader with a limit of one entry keeps the one it wrote.
	small := reader(t, reg, catalogimage.Options{CacheDir: cache, CacheMaxBytes: size})
	_, info, err := small.Load(context.Background(), mustRef(t, refs[0]))
	if err != nil || len(info.Pruned) != 1 || info.Pruned[0].Digest != digests[2] {
		t.Fatalf("limit: %v, pruned %+v", err, info.Pruned)
	}
	if entries, _ := catalogimage.ListCache(cache); len(entries) != 1 || entries[0].Digest != digests[0] {
		t.Errorf("after the limit: %+v", entries)
	}
	res, err = catalogimage.PruneCache(cache, catalogimage.PruneOptions{All: true})
	if err != nil || len(res.Kept) != 0 || len(res.Removed) != 1 {
		t.Fatalf("prune all: %+v, %v", res, err)
	}
	if entries, _ := catalogimage.ListCache(filepath.Join(t.TempDir(), "none")); entries != nil {
		t.Errorf("a cache that does not exist lists %v", entries)
	}
}
