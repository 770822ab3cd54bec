// Package catalogimage reads File-Based Catalogs out of catalog images:
// images in a registry, OCI image layouts and docker archives (docker save,
// crane pull), as [graph.Catalog] values.
//
// A catalog image names its catalog folder with the label
// operators.operatorframework.io.index.configs.v1. A [Reader] reads the
// image's layers as streams, top layer first, within the limits of its
// [graph.Loader], honouring whiteouts (opaque ones too), keeps only the
// files under that folder, checks every layer against its digest, and
// decodes them as graph.Loader.LoadFS decodes a folder. An image without
// the label is refused by name, and an SQLite-based index (label
// operators.operatorframework.io.index.database.v1) with the advice to run
// opm migrate.
//
// What was read from a registry is kept in a cache keyed by digest (see
// [Options]): a tag is resolved to a digest once per Reader, a digest
// already read is never downloaded again, and a cached catalog is read as
// fast as the same FBC from a folder. OCI layouts and docker archives are
// on disk already and are read in place, every time. Credentials are those of the Docker config file and its
// credential helpers (and podman's auth file), as crane, skopeo and podman
// use them.
//
// This package is the only one of the module that compiles
// go-containerregistry: resolver, graph and cluster do not import it.
package catalogimage

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/google/go-containerregistry/pkg/authn"
	v1 "github.com/google/go-containerregistry/pkg/v1"

	"github.com/sextantdev/sextant/graph"
)

// Labels of catalog images.
const (
	// ConfigsLabel names the folder of the image that holds its
	// File-Based Catalog.
	ConfigsLabel = "operators.operatorframework.io.index.configs.v1"
	// DatabaseLabel names the SQLite database of an index image of the
	// older kind, which this package does not read.
	DatabaseLabel = "operators.operatorframework.io.index.database.v1"
)

// Pull says when a registry is asked for an image.
type Pull int

// Pull policies. The zero value is PullAlways.
const (
	// PullAlways resolves each tag on its registry (once per Reader); the
	// layers of a digest already in the cache are not downloaded again.
	PullAlways Pull = iota
	// PullMissing asks the registry only for what the cache lacks: a tag
	// read before is not resolved again.
	PullMissing
	// PullNever reads only the cache; an image not in it is an error.
	PullNever
)

// String returns "always", "missing" or "never".
func (p Pull) String() string {
	switch p {
	case PullAlways:
		return "always"
	case PullMissing:
		return "missing"
	case PullNever:
		return "never"
	}
	return fmt.Sprintf("Pull(%d)", int(p))
}

// ParsePull reads "always", "missing" or "never".
func ParsePull(s string) (Pull, error) {
	for _, p := range []Pull{PullAlways, PullMissing, PullNever} {
		if p.String() == s {
			return p, nil
		}
	}
	return 0, fmt.Errorf("pull policy %q: want always, missing or never", s)
}

// Options configure a [Reader]. The zero value reads with the default
// limits, caches under os.UserCacheDir()/sextant, resolves tags on their
// registries, reaches registries over HTTPS only, and takes credentials
// from the Docker config file.
type Options struct {
	// Loader holds the size limits: Loader.MaxBytes bounds the
	// uncompressed size of each layer and of the catalog kept from the
	// image; Loader.MaxBlob bounds one JSON blob or YAML document.
	Loader graph.Loader
	// CacheDir is the folder of the cache of registry images; empty:
	// sextant under os.UserCacheDir(). Entries are written atomically (a temporary
	// folder renamed into place), so an interrupted run never leaves an
	// entry half written and several processes may share the folder.
	CacheDir string
	// NoCache neither reads nor writes the cache.
	NoCache bool
	// CacheMaxBytes is the most the cache may hold: once an image's
	// catalog is written, the least recently read entries are removed
	// until the cache fits (never the one just written, see
	// [PruneCache]); zero means DefaultCacheMaxBytes, a negative value no
	// limit.
	CacheMaxBytes int64
	// Pull says when to ask a registry; see [Pull].
	Pull Pull
	// Offline refuses to reach any registry: a registry image the cache
	// cannot answer is an [*OfflineError] naming what would be pulled. A
	// tag read before answers from the cache, as with PullMissing.
	Offline bool
	// Insecure lists the registries (host or host:port, as in the image
	// reference) that may be reached over plain HTTP. Every other
	// registry, loopback addresses included, is reached over HTTPS only.
	Insecure []string
	// Keychain supplies credentials; nil: authn.DefaultKeychain, which
	// reads $DOCKER_CONFIG/config.json (else ~/.docker/config.json) with
	// its credential helpers, else podman's auth.json.
	Keychain authn.Keychain
	// Transport carries the HTTP requests; nil: http.DefaultTransport.
	Transport http.RoundTripper
}

// Reader reads catalogs from images. It remembers, for its lifetime, the
// digest each tag resolved to, so that one tag is asked for once. A Reader
// is safe for concurrent use.
type Reader struct {
	opts     Options
	cacheDir string // "" when there is no cache
	cacheErr error  // why there is no cache, when one was wanted

	mu   sync.Mutex
	tags map[string]v1.Hash // registry tag → digest, this Reader's
}

// New returns a Reader with the options o.
func New(o Options) *Reader {
	r := &Reader{opts: o, tags: map[string]v1.Hash{}}
	if !o.NoCache {
		r.cacheDir = o.CacheDir
		if r.cacheDir == "" {
			r.cacheDir, r.cacheErr = DefaultCacheDir()
		}
	}
	return r
}

// Info says what a [Reader.Load] read.
type Info struct {
	// Reference is the reference read.
	Reference Reference
	// Digest is the digest of what the reference resolved to: the
	// manifest or index of a registry image or OCI layout, the config of
	// a docker archive ("sha256:…").
	Digest string
	// Dir is the catalog folder the image's label names, e.g. "/configs".
	Dir string
	// Cached is true when the catalog of a registry image was read from
	// the cache, with no layer read.
	Cached bool
	// CacheErr is why the catalog could not be cached, if it could not;
	// the load itself succeeded.
	CacheErr error
	// Skipped counts the entries under the catalog folder that are not
	// regular files (links, devices) and were not read.
	Skipped int
	// Damaged is the cache entry of the digest that could not be read,
	// removed before the image was read again; nil when none was.
	Damaged *CacheDamagedError
	// Pruned lists the cache entries removed to keep the cache within
	// Options.CacheMaxBytes once this image's was written; PruneErr is
	// what kept others from being removed.
	Pruned   []CacheEntry
	PruneErr error
}

// Error is a problem reading an image: it names the reference (and how it
// was understood) and, for a problem in a layer, the layer.
type Error struct {
	Reference Reference
	// Digest is the image's digest, when known.
	Digest string
	// Layer is the 1-based index of the layer (bottom first), 0 for a
	// problem of the image as a whole; LayerDigest is its digest.
	Layer, Layers int
	LayerDigest   string
	Err           error
}

// Error returns "REF (FORM): layer N of M (sha256:…): what is wrong".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Reference.Text)
	b.WriteString(" (")
	if e.Reference.Form == Registry && e.Reference.Image == e.Reference.Text {
		b.WriteString(Registry.String())
	} else {
		b.WriteString(e.Reference.Describe())
	}
	if e.Digest != "" && !strings.Contains(e.Reference.Text, e.Digest) {
		b.WriteString(", ")
		b.WriteString(e.Digest)
	}
	b.WriteString(")")
	if e.Layer > 0 {
		fmt.Fprintf(&b, ": layer %d of %d (%s)", e.Layer, e.Layers, e.LayerDigest)
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// PlainHTTPError is the error of a request over plain HTTP to a registry
// that Options.Insecure does not name: Sextant reaches registries over
// HTTPS only, except those (go-containerregistry's own fallback to plain
// HTTP for loopback and private addresses is refused).
type PlainHTTPError struct {
	// Registry is the registry's host, with its port when one was given.
	Registry string
}

// Error returns "plain HTTP to HOST refused: only registries named insecure
// are reached without TLS".
func (e *PlainHTTPError) Error() string {
	return fmt.Sprintf("plain HTTP to %s refused: only registries named insecure are reached without TLS", e.Registry)
}

// OfflineError is the error of a load that would have pulled an image
// while offline (or with PullNever).
type OfflineError struct {
	// Image is the registry reference that would have been pulled.
	Image string
	// Policy is "offline" or "pull policy never".
	Policy string
}

// Error returns "offline: would pull IMAGE (not in the cache)".
func (e *OfflineError) Error() string {
	return fmt.Sprintf("%s: would pull %s (not in the cache)", e.Policy, e.Image)
}

// NotCatalogError is the error for an image without the
// [ConfigsLabel] label.
type NotCatalogError struct {
	// SQLite is true for an index of the older, SQLite-based kind (with
	// the [DatabaseLabel] label).
	SQLite bool
	// Labels are the image's label names, sorted.
	Labels []string
}

// Error says what the image is not, and, for an SQLite-based index, how
// to make a File-Based Catalog of it.
func (e *NotCatalogError) Error() string {
	if e.SQLite {
		return fmt.Sprintf("an SQLite-based index image (label %s), not a File-Based Catalog: convert it with opm migrate (then build and push the catalog image it writes)", DatabaseLabel)
	}
	have := "no labels"
	if len(e.Labels) > 0 {
		have = "labels: " + strings.Join(e.Labels, ", ")
	}
	return fmt.Sprintf("not a catalog image: no label %s naming the catalog folder (%s)", ConfigsLabel, have)
}

// Load reads the catalog of the image ref. Every error is an [*Error]
// naming the reference, or a context error; errors.As finds an
// [*OfflineError] or [*NotCatalogError] in it. A decode error of the
// catalog names each file by its path in the image, e.g.
// configs/etcd/catalog.json:12.
func (r *Reader) Load(ctx context.Context, ref Reference) (*graph.Catalog, Info, error) {
	info := Info{Reference: ref}
	if err := ctx.Err(); err != nil {
		return nil, info, err
	}
	src, err := r.open(ctx, ref)
	if err != nil {
		return nil, info, r.wrap(ref, "", err)
	}
	info.Digest = src.digest.String()
	// Only what comes from a registry is cached: a layout or an archive is
	// on disk already, and reads at about the cost of the FBC file.
	cached := ref.Form == Registry && r.cacheDir != ""
	if cached {
		cat, dir, ok, err := r.fromCache(ctx, src.digest)
		var damaged *CacheDamagedError
		switch {
		case errors.As(err, &damaged) && src.image != nil:
			info.Damaged = damaged
			r.discard(src.digest) // and read the image again
		case err != nil:
			return nil, info, r.wrap(ref, info.Digest, err)
		case ok:
			info.Dir, info.Cached = dir, true
			return cat, info, nil
		}
	}
	if src.image == nil {
		return nil, info, r.wrap(ref, info.Digest, src.missing)
	}
	img, err := src.image()
	if err != nil {
		return nil, info, r.wrap(ref, info.Digest, err)
	}
	// Decode the files as they come out of the layers, on a second core.
	stream := r.startDecode(ctx)
	files, err := r.extract(ctx, img, &info, src.byDiffID, stream)
	if err != nil {
		stream.abandon()
		var le *Error
		if errors.As(err, &le) {
			le.Reference, le.Digest = ref, info.Digest
			return nil, info, le
		}
		return nil, info, r.wrap(ref, info.Digest, err)
	}
	// Write the cache while the decoding finishes.
	var wg sync.WaitGroup
	if cached {
		wg.Add(1)
		go func() {
			defer wg.Done()
			info.CacheErr = r.store(src.digest, ref, info.Dir, files)
		}()
	} else if ref.Form == Registry {
		info.CacheErr = r.cacheErr
	}
	cat, ok, err := stream.result()
	if !ok {
		// The files did not come in the order of a folder's walk: decode
		// them again in that order, for the same answer as from a folder.
		cat, err = r.opts.Loader.LoadFS(ctx, files.fs(), files.root)
	}
	wg.Wait()
	if err != nil {
		if cached && info.CacheErr == nil {
			r.discard(src.digest) // a catalog that does not decode is not kept
		}
		return nil, info, r.wrap(ref, info.Digest, err)
	}
	if cached && info.CacheErr == nil {
		info.Pruned, info.PruneErr = r.limitCache(src.digest)
	}
	return cat, info, nil
}

// wrap makes err an *Error of ref (a context error stays as it is).
func (r *Reader) wrap(ref Reference, digest string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return &Error{Reference: ref, Digest: digest, Err: err}
}

// sortedKeys returns the keys of m, sorted.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
