package catalogimage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing/fstest"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/docstream"
	"github.com/sextantdev/sextant/registryv1"
)

// BundleManifestsLabel is the label of a registry+v1 bundle image that
// names the folder of its manifests (operators.operatorframework.io.
// bundle.manifests.v1, as its metadata/annotations.yaml); manifests/ when
// the image has none.
const BundleManifestsLabel = registryv1.AnnotationManifests

// bundleKind is the kind of a cache entry holding a bundle's files.
const bundleKind = "bundle"

// LoadBundle reads the bundle image ref (a registry+v1 bundle, as a
// catalog's olm.bundle image names it): the regular files of its
// metadata/ folder and of its manifests folder (BundleManifestsLabel),
// each layer read as a stream within the limits, whiteouts honoured,
// checked against its digest, as Load reads a catalog image. A registry
// image's files are cached by digest as catalogs are (the same cache,
// limit and pruning; an entry of kind "bundle"), and the returned file
// system reads them there; an OCI layout's or a docker archive's are held
// in memory. Errors are as Load's: an *Error naming the reference, or a
// context error; an *OfflineError in it when the image would be pulled
// offline. Info.Dir is the manifests folder.
func (r *Reader) LoadBundle(ctx context.Context, ref Reference) (fs.FS, Info, error) {
	info := Info{Reference: ref}
	if err := ctx.Err(); err != nil {
		return nil, info, err
	}
	src, err := r.open(ctx, ref)
	if err != nil {
		return nil, info, r.wrap(ref, "", err)
	}
	info.Digest = src.digest.String()
	cached := ref.Form == Registry && r.cacheDir != ""
	if cached {
		if fsys, dir, ok := r.bundleFromCache(src.digest); ok {
			info.Dir, info.Cached = dir, true
			return fsys, info, nil
		}
	}
	if src.image == nil {
		return nil, info, r.wrap(ref, info.Digest, src.missing)
	}
	img, err := src.image()
	if err != nil {
		return nil, info, r.wrap(ref, info.Digest, err)
	}
	files, err := r.extractBundle(ctx, img, &info, src.byDiffID)
	if err != nil {
		var le *Error
		if errors.As(err, &le) {
			le.Reference, le.Digest = ref, info.Digest
			return nil, info, le
		}
		return nil, info, r.wrap(ref, info.Digest, err)
	}
	if !cached {
		if ref.Form == Registry {
			info.CacheErr = r.cacheErr
		}
		return files.fs(), info, nil
	}
	if info.CacheErr = r.store(src.digest, ref, info.Dir, files); info.CacheErr != nil {
		return files.fs(), info, nil
	}
	info.Pruned, info.PruneErr = r.limitCache(src.digest)
	if fsys, _, ok := r.bundleFromCache(src.digest); ok {
		return fsys, info, nil // the files on disk: the memory is given back
	}
	return files.fs(), info, nil
}

// extractBundle reads the bundle files of img: its metadata/ folder and
// its manifests folder.
func (r *Reader) extractBundle(ctx context.Context, img v1.Image, info *Info, byDiffID bool) (*files, error) {
	cfg, err := img.ConfigFile()
	if err != nil {
		return nil, fmt.Errorf("reading the image config: %w", err)
	}
	labels := cfg.Config.Labels
	if labels[ConfigsLabel] != "" || labels[DatabaseLabel] != "" {
		return nil, errors.New("a catalog image, not a bundle image")
	}
	mdir := path.Clean(strings.Trim(labels[BundleManifestsLabel], "/"))
	if labels[BundleManifestsLabel] == "" {
		mdir = "manifests"
	}
	if !fs.ValidPath(mdir) || mdir == "." {
		return nil, fmt.Errorf("label %s names %q, not a folder inside the image", BundleManifestsLabel, labels[BundleManifestsLabel])
	}
	info.Dir = "/" + mdir + "/"
	layers, err := img.Layers()
	if err != nil {
		return nil, fmt.Errorf("listing the layers: %w", err)
	}
	diffIDs := cfg.RootFS.DiffIDs
	if len(diffIDs) != len(layers) {
		return nil, fmt.Errorf("the config lists %d diff IDs for %d layers", len(diffIDs), len(layers))
	}
	maxBytes := docstream.Limit(r.opts.Loader.MaxBytes, graph.DefaultMaxBytes)
	out := &files{m: fstest.MapFS{}, bundle: true}
	above := newHidden()
	var kept int64
	keep := under("metadata", mdir)
	for i := len(layers) - 1; i >= 0; i-- {
		l := layers[i]
		lh, err := r.readLayer(ctx, l, diffIDs[i], byDiffID, keep, above, out, &kept, maxBytes, info, nil)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, &Error{Layer: i + 1, Layers: len(layers), LayerDigest: layerName(l, diffIDs[i], byDiffID), Err: err}
		}
		above.merge(lh)
	}
	if _, ok := out.m[registryv1.AnnotationsFile]; !ok {
		return nil, fmt.Errorf("no %s: not a registry+v1 bundle image", registryv1.AnnotationsFile)
	}
	return out, nil
}

// bundleFromCache returns the files of the bundle entry of digest d, read
// from the cache's folder, and its manifests folder; ok is false when the
// cache has no such entry (or one of another kind, or unreadable: read the
// image again).
func (r *Reader) bundleFromCache(d v1.Hash) (fs.FS, string, bool) {
	if r.cacheDir == "" || d.Hex == "" {
		return nil, "", false
	}
	entry := r.entryDir(d)
	metaFile := filepath.Join(entry, "meta.json")
	data, err := os.ReadFile(metaFile)
	if err != nil {
		return nil, "", false
	}
	var meta entryMeta
	if json.Unmarshal(data, &meta) != nil || meta.Kind != bundleKind {
		return nil, "", false
	}
	root := filepath.Join(entry, "fs")
	if st, err := os.Stat(filepath.Join(root, filepath.FromSlash(registryv1.AnnotationsFile))); err != nil || !st.Mode().IsRegular() {
		return nil, "", false
	}
	now := time.Now()
	_ = os.Chtimes(metaFile, now, now) // last used; best effort
	return os.DirFS(root), meta.Dir, true
}

// BundleSource returns r as the reader of bundle images of a
// registryv1.Set (its Images): each reference read as a CatalogSource's
// spec.image is (ImageReference: a catalog's bundle images are written
// out, with their registry and digest), then LoadBundle.
func (r *Reader) BundleSource() registryv1.ImageSource { return bundleSource{r} }

type bundleSource struct{ r *Reader }

func (s bundleSource) ReadBundle(ctx context.Context, text string) (registryv1.Image, error) {
	ref, err := ImageReference(text)
	if err != nil {
		return registryv1.Image{}, fmt.Errorf("bundle image %q: %w", text, err)
	}
	fsys, info, err := s.r.LoadBundle(ctx, ref)
	if err != nil {
		return registryv1.Image{}, err
	}
	return registryv1.Image{FS: fsys, Digest: info.Digest, Cached: info.Cached}, nil
}
