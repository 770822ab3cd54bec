package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant/catalogimage"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/docstream"
)

// imageFlags are the flags of catalog images, for every command, and the
// one reader of a run (so a tag is resolved once per run).
type imageFlags struct {
	cacheDir string
	cacheMax sizeFlag
	pull     *choice
	insecure []string
	offline  bool

	once   sync.Once
	reader *catalogimage.Reader
}

// addImageFlags adds the flags of catalog images, for every command.
func addImageFlags(root *cobra.Command, f *imageFlags) {
	pf := root.PersistentFlags()
	pf.StringVar(&f.cacheDir, "cache-dir", "", "the catalog image cache `DIR` (default: in the user's cache folder)")
	pf.Var(&f.cacheMax, "cache-max-size", fmt.Sprintf("most the image cache holds (default %s; -1: no limit)", docstream.Size(catalogimage.DefaultCacheMaxBytes)))
	f.pull = &choice{value: "always", allowed: []string{"always", "missing", "never"}}
	pf.Var(f.pull, "pull", "when to ask a registry: always|missing|never")
	pf.StringArrayVar(&f.insecure, "insecure", nil, "a registry `HOST[:PORT]` reached over plain HTTP (repeatable)")
	pf.BoolVar(&f.offline, "offline", false, "reach no registry: an image the cache lacks is an error naming it")
}

// imageReader returns the run's reader of catalog images.
func (e *env) imageReader() *catalogimage.Reader {
	if e.images == nil {
		e.images = &imageFlags{}
	}
	f := e.images
	f.once.Do(func() {
		var pull catalogimage.Pull
		if f.pull != nil {
			pull, _ = catalogimage.ParsePull(f.pull.value) // the flag allows only valid words
		}
		f.reader = catalogimage.New(catalogimage.Options{
			Loader:        e.limits.catalogLoader(),
			CacheDir:      f.cacheDir,
			CacheMaxBytes: int64(f.cacheMax),
			Pull:          pull,
			Offline:       f.offline,
			Insecure:      f.insecure,
		})
	})
	return f.reader
}

// imageReference tells whether path, given where a catalog is taken,
// names an image: a path that exists is always a path; one that does not
// is an image when it has one of the image forms (oci:DIR[:TAG],
// docker-archive:FILE, REGISTRY/REPO:TAG or @sha256:…). err is set for a
// path that does not exist and is not an image, or for an image reference
// that is malformed.
func imageReference(path string) (ref catalogimage.Reference, isImage bool, err error) {
	if path == "-" {
		return ref, false, nil
	}
	_, serr := os.Stat(path)
	if serr == nil || !errors.Is(serr, fs.ErrNotExist) {
		return ref, false, nil
	}
	ref, err = catalogimage.ParseReference(path)
	if errors.Is(err, catalogimage.ErrNotReference) {
		return ref, false, nil
	}
	if err != nil {
		return ref, false, err
	}
	return ref, true, nil
}

// loadImage reads the catalog of an image; a cache that could not be
// written or links that were not read are noted.
func (e *env) loadImage(ref catalogimage.Reference) (*graph.Catalog, catalogimage.Info, error) {
	cat, info, err := e.imageReader().Load(e.context(), ref)
	if err != nil {
		return nil, info, err
	}
	if info.CacheErr != nil {
		e.notef("%s: not cached: %v", ref, info.CacheErr)
	}
	if info.Skipped > 0 {
		e.notef("%s: not read: %d entries under %s that are not regular files (links, devices)", ref, info.Skipped, info.Dir)
	}
	if info.Damaged != nil {
		e.notef("%s: read again, and the cache entry replaced: %v", ref, info.Damaged)
	}
	if len(info.Pruned) > 0 {
		var gone []string
		for _, p := range info.Pruned {
			gone = append(gone, p.Reference+" "+p.Digest)
		}
		e.notef("the image cache is kept within its limit (--cache-max-size): removed the least recently used %s", strings.Join(gone, ", "))
	}
	if info.PruneErr != nil {
		e.notef("the image cache could not be kept within its limit: %v", info.PruneErr)
	}
	return cat, info, nil
}

// imageSummary says what an image read was: "REF (sha256:…)", with
// ", cached" when the cache answered.
func imageSummary(info catalogimage.Info) string {
	var b strings.Builder
	b.WriteString(info.Reference.String())
	if !strings.Contains(info.Reference.String(), info.Digest) {
		b.WriteString(" ")
		b.WriteString(info.Digest)
	}
	if info.Cached {
		b.WriteString(" (cached)")
	}
	return b.String()
}
