package registryv1

import (
	"context"
	"io/fs"
)

// ImageSource reads bundle images. Implementations must be safe for
// concurrent use; package catalogimage's Reader gives one
// (catalogimage.Reader.BundleSource), which pulls through its cache.
type ImageSource interface {
	// ReadBundle reads the bundle image ref, as a catalog's bundle names
	// it (its image field): the files of the image's metadata/ and
	// manifests/ folders (or the folder its annotations name for the
	// manifests), as a file system rooted at the image's root.
	ReadBundle(ctx context.Context, ref string) (Image, error)
}

// Image is a bundle image read by an ImageSource.
type Image struct {
	// FS holds the image's bundle files: metadata/annotations.yaml and
	// the manifests. Its files must implement io.ReaderAt (os.DirFS's
	// and fstest.MapFS's do): a CRD's manifest is read again when parsed.
	FS fs.FS
	// Digest is the digest the reference resolved to ("sha256:…").
	Digest string
	// Cached reports that the image was read from a cache.
	Cached bool
}
