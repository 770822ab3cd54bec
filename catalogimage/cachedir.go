package catalogimage

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
)

// DefaultCacheMaxBytes is the most the cache holds when
// Options.CacheMaxBytes is zero: room for dozens of the largest public
// catalogs (the community index is 14 MB of FBC).
const DefaultCacheMaxBytes = 2 << 30

// DefaultCacheDir returns the cache folder a Reader uses when
// Options.CacheDir is empty: sextant in os.UserCacheDir().
func DefaultCacheDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache: %w", err)
	}
	return filepath.Join(dir, "sextant"), nil
}

// CacheEntry is the catalog of one image in the cache.
type CacheEntry struct {
	// Digest is the digest the image's reference resolved to.
	Digest string `json:"digest"`
	// Reference is the reference it was first read by.
	Reference string `json:"reference"`
	// Tags are the tags the cache records as resolving to Digest, sorted.
	Tags []string `json:"tags,omitempty"`
	// CatalogDir is the image's catalog folder (its label's value); for a
	// bundle image, its manifests folder.
	CatalogDir string `json:"catalogDir"`
	// Kind is "bundle" for a bundle image's files, "" for a catalog's.
	Kind string `json:"kind,omitempty"`
	// Path is the entry's folder on disk.
	Path string `json:"path"`
	// Size is the bytes of the catalog's files.
	Size int64 `json:"size"`
	// LastUsed is when the entry was last read or written.
	LastUsed time.Time `json:"lastUsed"`
}

// ListCache returns the entries of the cache in dir, the most recently
// used first (then by digest). A folder that does not exist is an empty
// cache; an entry whose meta.json cannot be read is left out. The caller
// owns the returned slice.
func ListCache(dir string) ([]CacheEntry, error) {
	des, err := os.ReadDir(filepath.Join(dir, "catalogs"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	tags := cacheTags(dir)
	var out []CacheEntry
	for _, de := range des {
		if !de.IsDir() || strings.HasPrefix(de.Name(), ".") {
			continue
		}
		path := filepath.Join(dir, "catalogs", de.Name())
		metaFile := filepath.Join(path, "meta.json")
		data, err := os.ReadFile(metaFile)
		if err != nil {
			continue
		}
		var meta entryMeta
		if json.Unmarshal(data, &meta) != nil || meta.Digest == "" {
			continue
		}
		fi, err := os.Stat(metaFile)
		if err != nil {
			continue
		}
		size := meta.Size
		if size == 0 {
			size = folderSize(filepath.Join(path, "fs"))
		}
		out = append(out, CacheEntry{
			Digest: meta.Digest, Reference: meta.Reference, Tags: tags[meta.Digest],
			CatalogDir: meta.Dir, Kind: meta.Kind, Path: path, Size: size, LastUsed: fi.ModTime(),
		})
	}
	slices.SortFunc(out, func(a, b CacheEntry) int {
		return cmp.Or(b.LastUsed.Compare(a.LastUsed), strings.Compare(a.Digest, b.Digest))
	})
	return out, nil
}

// cacheTags reads the tag records of the cache in dir: digest → tags.
func cacheTags(dir string) map[string][]string {
	out := map[string][]string{}
	des, err := os.ReadDir(filepath.Join(dir, "tags"))
	if err != nil {
		return out
	}
	for _, de := range des {
		if !strings.HasSuffix(de.Name(), ".json") || strings.HasPrefix(de.Name(), ".") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, "tags", de.Name()))
		if err != nil {
			continue
		}
		var rec tagRecord
		if json.Unmarshal(data, &rec) == nil && rec.Image != "" {
			out[rec.Digest] = append(out[rec.Digest], rec.Image)
		}
	}
	for _, t := range out {
		slices.Sort(t)
	}
	return out
}

// folderSize is the bytes of the regular files under dir.
func folderSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// PruneOptions says what PruneCache removes: every entry with All, else
// the entries not used for UnusedFor, then the least recently used ones
// until the cache holds at most MaxBytes. The zero value removes nothing
// but what is left of interrupted runs.
type PruneOptions struct {
	All bool
	// UnusedFor removes the entries last used longer ago; zero: none by
	// age.
	UnusedFor time.Duration
	// MaxBytes is the most the entries kept may hold; zero or less: no
	// limit.
	MaxBytes int64
	// Keep is the digest of an entry never removed (but with All).
	Keep string
	// Now is the time ages are measured from; zero: time.Now().
	Now time.Time
}

// PruneResult says what PruneCache did.
type PruneResult struct {
	// Removed are the entries removed, in ListCache's order.
	Removed []CacheEntry `json:"removed"`
	// Kept are the entries left, in ListCache's order.
	Kept []CacheEntry `json:"kept"`
	// Freed is the bytes of the entries removed.
	Freed int64 `json:"freed"`
}

// PruneCache removes entries of the cache in dir as opts says, with the
// tag records that named them, and the leftovers of runs interrupted more
// than a day ago. An entry is renamed away before it is removed, so that
// a run reading the cache meanwhile finds it whole or not at all (and
// then reads the image again). It returns what it removed and kept, and
// every error met (what could be removed is).
func PruneCache(dir string, opts PruneOptions) (*PruneResult, error) {
	entries, err := ListCache(dir)
	if err != nil {
		return nil, err
	}
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	res := &PruneResult{}
	var total int64
	for _, e := range entries {
		total += e.Size
	}
	remove := make([]bool, len(entries))
	for i, e := range entries {
		keep := e.Digest == opts.Keep && !opts.All
		remove[i] = !keep && (opts.All || (opts.UnusedFor > 0 && now.Sub(e.LastUsed) > opts.UnusedFor))
		if remove[i] {
			total -= e.Size
		}
	}
	// Least recently used first: from the end of the list.
	for i := len(entries) - 1; i >= 0 && opts.MaxBytes > 0 && total > opts.MaxBytes; i-- {
		if !remove[i] && entries[i].Digest != opts.Keep {
			remove[i] = true
			total -= entries[i].Size
		}
	}
	var errs []error
	gone := map[string]bool{}
	for i, e := range entries {
		if !remove[i] {
			res.Kept = append(res.Kept, e)
			continue
		}
		if err := removeEntry(e.Path); err != nil {
			errs = append(errs, err)
			res.Kept = append(res.Kept, e)
			continue
		}
		gone[e.Digest] = true
		res.Removed = append(res.Removed, e)
		res.Freed += e.Size
	}
	errs = append(errs, removeTags(dir, gone))
	removeStale(filepath.Join(dir, "catalogs"))
	removeStale(filepath.Join(dir, "tags"))
	return res, errors.Join(errs...)
}

// removeTags removes the tag records of the cache in dir that name a
// digest of gone.
func removeTags(dir string, gone map[string]bool) error {
	if len(gone) == 0 {
		return nil
	}
	des, err := os.ReadDir(filepath.Join(dir, "tags"))
	if err != nil {
		return nil
	}
	var errs []error
	for _, de := range des {
		name := filepath.Join(dir, "tags", de.Name())
		data, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		var rec tagRecord
		if json.Unmarshal(data, &rec) == nil && gone[rec.Digest] {
			if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// limitCache keeps the cache within Options.CacheMaxBytes once the entry
// of digest d was written, removing the least recently used others.
func (r *Reader) limitCache(d v1.Hash) ([]CacheEntry, error) {
	limit := r.opts.CacheMaxBytes
	switch {
	case limit < 0:
		return nil, nil
	case limit == 0:
		limit = DefaultCacheMaxBytes
	}
	res, err := PruneCache(r.cacheDir, PruneOptions{MaxBytes: limit, Keep: d.String()})
	if err != nil && res == nil {
		return nil, err
	}
	return res.Removed, err
}
