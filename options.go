package sextant

import (
	"context"
	"errors"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/registryv1"
	"github.com/sextantdev/sextant/resolver"
)

// Options tunes how a world is built and resolved. The zero value reads
// within the default limits, reads no image, evaluates no cel rule and
// resolves as OLM does.
type Options struct {
	// Limits bound what is read from each input.
	Limits Limits
	// Images reads catalog images: an image given as a catalog, and the
	// spec.image of the CatalogSources the subscriptions name. nil: an
	// image is an error (*NoImageSourceError). Package catalogimage's
	// Reader is one (catalogimage.Reader.Source).
	Images ImageSource
	// BundleImages reads bundle images: the contents of a catalog bundle
	// that no folder of Input.Bundles holds and that has no
	// olm.bundle.object property are read from its image (the bundle's
	// image field). nil: no bundle image is read. Package catalogimage's
	// Reader gives one (catalogimage.Reader.BundleSource).
	BundleImages registryv1.ImageSource
	// Bundles, if not nil, are bundle contents already read (ReadBundles,
	// or World.Bundles of another world): the world finds bundles' contents
	// in it instead of reading Input.Bundles (then empty) and
	// BundleImages (then nil).
	Bundles *registryv1.Set
	// CEL evaluates the cel rules of olm.constraint properties
	// (resolver.Options.CEL); package celrule's evaluator is OLM v0.28's.
	// nil: a resolution that reaches a cel rule fails.
	CEL resolver.CEL
	// KubeVersion is the cluster's Kubernetes version ("1.25.3"): v0 and
	// v1 predict minKubeVersion failures against it. "": not checked.
	KubeVersion string
	// OpenShiftVersion is the cluster's OpenShift version ("4.16"): v0
	// and v1 warn of olm.maxOpenShiftVersion. "": not checked.
	OpenShiftVersion string
	// SemverUpgrades and SemverAllowMajor add upgrade edges derived from
	// versions (resolver.Options, DESIGN §7).
	SemverUpgrades, SemverAllowMajor bool
	// AllowInvalid leaves out the packages opm serve would refuse
	// (resolver.Options.AllowInvalid).
	AllowInvalid bool
	// V1 are the OLM v1 feature gates (olmv1.Options).
	V1 V1Gates
	// Tracer, if not nil, observes every v0 resolution.
	Tracer resolver.Tracer
	// OnNote, if not nil, is called with each note of the world as it
	// arises (World.Notes holds them all), from the goroutine that calls
	// Load — also when Load then fails.
	OnNote func(Note)
}

// V1Gates are operator-controller's feature gates that change OLM v1's
// answers (see olmv1.Options). The zero value is operator-controller's
// default.
type V1Gates struct {
	SingleOwnNamespace bool // SingleOwnNamespaceInstallSupport on
	BundleRelease      bool // BundleReleaseSupport on
	NoWebhookProvider  bool // both WebhookProvider* gates off
	// FeatureSet picks the CRDs the ClusterExtensions and ClusterCatalogs
	// of the manifests are checked against (cluster.Loader.V1FeatureSet):
	// only the experimental ones have spec.config. It turns no gate on;
	// operator-controller's experimental install also has
	// SingleOwnNamespace and BundleRelease on.
	FeatureSet cluster.FeatureSet
}

// Limits bound the size of what is read: MaxBytes each file or stream
// (uncompressed), MaxDocument each YAML document, JSON value or catalog
// blob. 0 means the default (graph.DefaultMaxBytes,
// graph.DefaultMaxBlob), a negative value no limit.
type Limits struct {
	MaxBytes, MaxDocument int64
}

// CatalogLoader returns the catalog loader of the limits.
func (l Limits) CatalogLoader() graph.Loader {
	return graph.Loader{MaxBytes: l.MaxBytes, MaxBlob: l.MaxDocument}
}

// ManifestLoader returns the manifest loader of the limits.
func (l Limits) ManifestLoader() cluster.Loader {
	return cluster.Loader{MaxBytes: l.MaxBytes, MaxDocument: l.MaxDocument}
}

// ImageSource reads catalogs from images. Implementations must be safe
// for concurrent use; package catalogimage's Reader is one
// (catalogimage.Reader.Source).
type ImageSource interface {
	// ParseImage reads text, given as a catalog, as an image reference.
	// Text that has none of the image forms (most likely a path) is an
	// error wrapping ErrNotImage; a malformed reference is an error
	// saying which form it was read as. It reaches no registry (it may
	// read the index of an OCI layout or the manifest of a docker
	// archive, for the references they record).
	ParseImage(text string) (Image, error)
	// SpecImage reads a CatalogSource's spec.image as the kubelet reads
	// an image reference (a missing registry is docker.io, a missing tag
	// :latest).
	SpecImage(text string) (Image, error)
	// LoadImage reads the catalog of an image ParseImage or SpecImage
	// returned. ctx ends the reading (the error then matches
	// errors.Is(err, ctx.Err())).
	LoadImage(ctx context.Context, img Image) (*graph.Catalog, ImageRead, error)
}

// ErrNotImage is wrapped by ImageSource.ParseImage's error for text that
// is no image reference.
var ErrNotImage = errors.New("not an image reference")

// Image is a catalog image reference as an ImageSource reads it.
type Image struct {
	// Text is the reference as written.
	Text string
	// Spec reports a CatalogSource's spec.image (SpecImage), not a
	// reference given as a catalog (ParseImage).
	Spec bool
	// Kind says how it was understood: "registry image", "OCI layout" or
	// "docker archive".
	Kind string
	// Names are the registry references the image stands for, each in
	// full as the kubelet normalizes spec.image
	// ("docker.io/library/x:latest"): a registry image's own; the
	// references an OCI layout's index or a docker archive's manifest
	// records (none when it records none, or only a tag).
	Names []string
	// BaseName is the name its catalog takes when nothing else names it:
	// the last element of the repository, or the base name of the folder
	// or file.
	BaseName string
}

// ImageRead says what LoadImage read.
type ImageRead struct {
	// Digest is what the reference resolved to ("sha256:…").
	Digest string
	// Dir is the catalog folder in the image ("/configs").
	Dir string
	// Cached reports a catalog read from a cache, without a registry.
	Cached bool
	// CacheErr is why the catalog could not be cached, if it could not.
	CacheErr error
	// Skipped counts the entries under Dir that are not regular files
	// (links, devices), not read.
	Skipped int
	// Damaged is why the cached copy could not be read, when the image
	// was read again in its stead; nil otherwise.
	Damaged error
	// Pruned is the cache entries removed to keep the cache within its
	// limit once this image's was written; PruneErr what kept others from
	// being removed.
	Pruned   []string
	PruneErr error
}
