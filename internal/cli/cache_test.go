package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/catalogimage"
	"github.com/sextantdev/sextant/internal/imagetest"
)

// TestCacheCommand: check names the digest of each image it reads; cache
// list shows the image, cache prune removes it; a damaged entry is read
// again from the registry, or named for deletion when the registry may not
// be reached.
func TestCacheCommand(t *testing.T) {
	data, err := os.ReadFile("testdata/cli/catalogs/etcd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	img := imagetest.CatalogImage(t, map[string][]byte{"etcd/catalog.yaml": data})
	reg := imagetest.NewRegistry(t)
	ref, digest := reg.Push(t, "olm/etcd-catalog:v1", img)
	cache := t.TempDir()
	flags := []string{"--cache-dir", cache, "--insecure", reg.Host}
	sextant := func(args ...string) (string, string, int) { return run("", append(args, flags...)...) }

	_, stderr, code := sextant("check", ref)
	if code == ExitBadInput || !strings.Contains(stderr, "sextant check: note: read catalog image "+ref+" "+digest.String()+"\n") {
		t.Fatalf("check: exit %d, stderr:\n%s", code, stderr)
	}
	_, stderr, _ = sextant("check", ref)
	if !strings.Contains(stderr, "read catalog image "+ref+" "+digest.String()+" (cached)\n") {
		t.Errorf("check again: stderr:\n%s", stderr)
	}

	out, stderr, code := sextant("cache", "list")
	if code != ExitOK || !strings.HasPrefix(out, "cache "+cache+": 1 image, ") || !strings.Contains(out, "\n  "+digest.String()+"  ") || !strings.Contains(out, ref+"\n") {
		t.Errorf("cache list: exit %d\n%s%s", code, out, stderr)
	}
	out, _, _ = sextant("cache", "list", "-o", "json")
	var list struct {
		Dir     string
		Entries []catalogimage.CacheEntry
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil || list.Dir != cache || len(list.Entries) != 1 || list.Entries[0].Digest != digest.String() || list.Entries[0].Reference != ref {
		t.Errorf("cache list -o json: %v\n%s", err, out)
	}

	// Damage the entry's catalog file.
	entry := filepath.Join(cache, "catalogs", "sha256-"+digest.Hex)
	file := filepath.Join(entry, "fs", "configs", "etcd", "catalog.yaml")
	if err := os.WriteFile(file, []byte("schema: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = sextant("check", ref, "--pull", "never")
	if code != ExitBadInput || !strings.Contains(stderr, "the cached copy in "+entry+" cannot be read (delete the folder to read the image again)") {
		t.Errorf("damaged, pull never: exit %d\n%s", code, stderr)
	}
	_, stderr, code = sextant("check", ref)
	if code == ExitBadInput || !strings.Contains(stderr, "sextant check: note: "+ref+": read again, and the cache entry replaced: the cached copy in "+entry) {
		t.Errorf("damaged, pull always: exit %d\n%s", code, stderr)
	}

	out, stderr, code = sextant("cache", "prune", "--unused-for", "0", "--max-size", "1")
	if code != ExitOK || !strings.HasPrefix(out, "removed "+digest.String()) || !strings.Contains(out, ": removed 1 image (") {
		t.Errorf("cache prune: exit %d\n%s%s", code, out, stderr)
	}
	out, _, _ = sextant("cache", "list")
	if !strings.HasPrefix(out, "cache "+cache+": 0 images, 0 bytes (limit 2 GiB)\n") {
		t.Errorf("after prune: %s", out)
	}
}
