package catalogimage

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"

	"github.com/sextantdev/sextant/graph"
)

// The cache's folder holds:
//
//	catalogs/sha256-HEX/meta.json   what the entry is (written last)
//	catalogs/sha256-HEX/fs/ROOT/…   the catalog folder's files
//	tags/HEX.json                   a registry tag and the digest it had
//
// An entry is written into a temporary folder beside it and renamed into
// place, a tag record into a temporary file: both appear whole or not at
// all, and a run that loses a race to write the same entry drops its copy.

// entryMeta is the meta.json of a cache entry. Its modification time is
// when the entry was last read (or written): what pruning goes by.
type entryMeta struct {
	Reference string `json:"reference"` // the reference first read
	Digest    string `json:"digest"`
	Dir       string `json:"dir"`            // the label's value
	Root      string `json:"root"`           // the folder under fs/ the catalog is in
	Size      int64  `json:"size,omitempty"` // the bytes of the catalog's files
	Kind      string `json:"kind,omitempty"` // "bundle" for a bundle's files; "" for a catalog
}

// tagRecord is a tag's record.
type tagRecord struct {
	Image  string `json:"image"`
	Digest string `json:"digest"`
}

// entryDir is the folder of the entry of digest d.
func (r *Reader) entryDir(d v1.Hash) string {
	return filepath.Join(r.cacheDir, "catalogs", d.Algorithm+"-"+d.Hex)
}

// fromCache reads the catalog of digest d from the cache. ok is false when
// the cache has no entry for it. An entry that cannot be read is a
// *CacheDamagedError.
func (r *Reader) fromCache(ctx context.Context, d v1.Hash) (cat *graph.Catalog, dir string, ok bool, err error) {
	if r.cacheDir == "" || d.Hex == "" {
		return nil, "", false, nil
	}
	entry := r.entryDir(d)
	metaFile := filepath.Join(entry, "meta.json")
	data, err := os.ReadFile(metaFile)
	if err != nil {
		return nil, "", false, nil
	}
	var meta entryMeta
	if err := json.Unmarshal(data, &meta); err != nil || meta.Kind != "" || meta.Root == "" || !fs.ValidPath(meta.Root) {
		return nil, "", false, nil // not an entry this version wrote: read the image again
	}
	cat, err = r.opts.Loader.LoadFS(ctx, os.DirFS(filepath.Join(entry, "fs")), meta.Root)
	if err != nil {
		if ctx.Err() != nil {
			return nil, meta.Dir, true, err
		}
		return nil, meta.Dir, true, &CacheDamagedError{Entry: entry, Err: err}
	}
	now := time.Now()
	_ = os.Chtimes(metaFile, now, now) // last used; best effort
	return cat, meta.Dir, true, nil
}

// CacheDamagedError is a cache entry that cannot be read: its files were
// changed or cut since they were written (a catalog that does not decode
// is never kept). A Reader that may reach the registry removes it and
// reads the image again (Info.Damaged); one that may not returns this
// error.
type CacheDamagedError struct {
	// Entry is the entry's folder: deleting it makes the next read fetch
	// the image again.
	Entry string
	Err   error
}

// Error says what to delete.
func (e *CacheDamagedError) Error() string {
	return fmt.Sprintf("the cached copy in %s cannot be read (delete the folder to read the image again): %v", e.Entry, e.Err)
}

// Unwrap returns the cause.
func (e *CacheDamagedError) Unwrap() error { return e.Err }

// discard removes the cache entry of digest d: renamed out of the way
// first, so that no reader meets it half removed.
func (r *Reader) discard(d v1.Hash) {
	removeEntry(r.entryDir(d))
}

// removeEntry removes the entry folder dir, renamed away first.
func removeEntry(dir string) error {
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".tmp-gone-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := os.Rename(dir, filepath.Join(tmp, "entry")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// store writes the catalog files of digest d into the cache.
func (r *Reader) store(d v1.Hash, ref Reference, dir string, f *files) error {
	parent := filepath.Join(r.cacheDir, "catalogs")
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	removeStale(parent)
	tmp, err := os.MkdirTemp(parent, ".tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // nothing left once renamed
	for _, p := range sortedKeys(f.m) {
		name := filepath.Join(tmp, "fs", filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(name, f.m[p].Data, 0o644); err != nil {
			return err
		}
	}
	var size int64
	for _, file := range f.m {
		size += int64(len(file.Data))
	}
	kind := ""
	if f.bundle {
		kind = bundleKind
	}
	meta, err := json.Marshal(entryMeta{Reference: ref.Text, Digest: d.String(), Dir: dir, Root: f.root, Size: size, Kind: kind})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, "meta.json"), meta, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, r.entryDir(d)); err != nil {
		if _, serr := os.Stat(filepath.Join(r.entryDir(d), "meta.json")); serr == nil {
			return nil // another run wrote it first
		}
		return err
	}
	return nil
}

// removeStale removes the temporary folders of runs interrupted more than
// a day ago (a running one is younger).
func removeStale(parent string) {
	des, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, de := range des {
		if !strings.HasPrefix(de.Name(), ".tmp-") {
			continue
		}
		if fi, err := de.Info(); err == nil && time.Since(fi.ModTime()) > 24*time.Hour {
			os.RemoveAll(filepath.Join(parent, de.Name()))
		}
	}
}

// tagFile is the record of the tag image.
func (r *Reader) tagFile(image string) string {
	sum := sha256.Sum256([]byte(image))
	return filepath.Join(r.cacheDir, "tags", hex.EncodeToString(sum[:])+".json")
}

// readTag returns the digest the cache recorded for the tag image.
func (r *Reader) readTag(image string) (v1.Hash, bool) {
	if r.cacheDir == "" {
		return v1.Hash{}, false
	}
	data, err := os.ReadFile(r.tagFile(image))
	if err != nil {
		return v1.Hash{}, false
	}
	var rec tagRecord
	if json.Unmarshal(data, &rec) != nil || rec.Image != image {
		return v1.Hash{}, false
	}
	h, err := v1.NewHash(rec.Digest)
	if err != nil {
		return v1.Hash{}, false
	}
	return h, true
}

// writeTag records that the tag image has digest h. A failure only costs
// a later run a request, so it is not reported.
func (r *Reader) writeTag(image string, h v1.Hash) {
	if r.cacheDir == "" {
		return
	}
	_ = writeAtomic(r.tagFile(image), tagRecord{Image: image, Digest: h.String()})
}

// writeAtomic writes v as JSON to name through a temporary file renamed
// into place.
func writeAtomic(name string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(name), ".tmp-")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), name); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}
