package catalogimage

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// refNameAnnotation is the annotation of an OCI layout's index that tags
// an image.
const refNameAnnotation = "org.opencontainers.image.ref.name"

// source is a reference resolved to a digest: what the cache is keyed by,
// and how to get the image when the cache lacks it.
type source struct {
	digest v1.Hash
	// image returns the image; nil when it may not be fetched (offline),
	// and then missing says why.
	image   func() (v1.Image, error)
	missing error
	// layerName names a layer in messages: by its digest, or, in a docker
	// archive (whose layers may be stored uncompressed), by its diff ID.
	byDiffID bool
}

// open resolves ref to a digest.
func (r *Reader) open(ctx context.Context, ref Reference) (*source, error) {
	switch ref.Form {
	case Registry:
		return r.openRegistry(ctx, ref)
	case OCILayout:
		return openLayout(ref)
	case DockerArchive:
		return openArchive(ref)
	}
	return nil, errors.New("no image reference")
}

// openLayout finds the image of an OCI layout: the one tagged ref.Tag, or
// the only one.
func openLayout(ref Reference) (*source, error) {
	if _, err := os.Stat(ref.Path); err != nil {
		return nil, pathErr(err)
	}
	p, err := layout.FromPath(ref.Path)
	if err != nil {
		return nil, fmt.Errorf("not an OCI image layout (no readable index.json and oci-layout): %w", err)
	}
	idx, err := p.ImageIndex()
	if err != nil {
		return nil, err
	}
	im, err := idx.IndexManifest()
	if err != nil {
		return nil, err
	}
	var found []v1.Descriptor
	var tags []string
	for _, d := range im.Manifests {
		tag := d.Annotations[refNameAnnotation]
		if tag != "" {
			tags = append(tags, tag)
		}
		// skopeo writes the tag, some tools a whole reference ending in it.
		if ref.Tag == "" || tag == ref.Tag || strings.HasSuffix(tag, ":"+ref.Tag) {
			found = append(found, d)
		}
	}
	slices.Sort(tags)
	switch {
	case len(found) == 0 && ref.Tag != "":
		return nil, fmt.Errorf("no image tagged %q in the layout (tags: %s)", ref.Tag, listOrNone(tags))
	case len(found) == 0:
		return nil, errors.New("the layout holds no image")
	case len(found) > 1:
		return nil, fmt.Errorf("the layout holds %d images: choose one as oci:DIR:TAG (tags: %s)", len(found), listOrNone(tags))
	}
	d := found[0]
	return &source{digest: d.Digest, image: func() (v1.Image, error) {
		if d.MediaType.IsIndex() {
			child, err := idx.ImageIndex(d.Digest)
			if err != nil {
				return nil, err
			}
			return pickPlatform(child)
		}
		return idx.Image(d.Digest)
	}}, nil
}

// openArchive opens a docker archive; its digest is its config's (the
// archive holds no manifest digest).
func openArchive(ref Reference) (*source, error) {
	if _, err := os.Stat(ref.Path); err != nil {
		return nil, pathErr(err)
	}
	img, err := tarball.ImageFromPath(ref.Path, nil)
	if err != nil {
		return nil, fmt.Errorf("not a docker save or crane pull tarball: %w", err)
	}
	d, err := img.ConfigName()
	if err != nil {
		return nil, err
	}
	return &source{digest: d, image: func() (v1.Image, error) { return img, nil }, byDiffID: true}, nil
}

// openRegistry resolves a registry reference: a digest is its own; a tag
// is resolved once per Reader, from the cache when the policy allows.
func (r *Reader) openRegistry(ctx context.Context, ref Reference) (*source, error) {
	var nopts []name.Option
	if r.insecure(registryOf(ref.Image)) {
		nopts = append(nopts, name.Insecure)
	}
	nref, err := name.ParseReference(ref.Image, nopts...)
	if err != nil {
		return nil, err
	}
	ropts := r.remoteOptions(ctx)
	if dg, ok := nref.(name.Digest); ok {
		h, err := v1.NewHash(dg.DigestStr())
		if err != nil {
			return nil, err
		}
		src := &source{digest: h}
		if refusal := r.refusal(ref); refusal != nil {
			src.missing = refusal
		} else {
			src.image = func() (v1.Image, error) { return fetch(nref, ropts) }
		}
		return src, nil
	}
	key := nref.Name()
	r.mu.Lock()
	h, ok := r.tags[key]
	r.mu.Unlock()
	if !ok && (r.opts.Pull != PullAlways || r.opts.Offline) {
		h, ok = r.readTag(key)
	}
	if ok {
		src := &source{digest: h}
		if refusal := r.refusal(ref); refusal != nil {
			src.missing = refusal
		} else {
			dref := nref.Context().Digest(h.String())
			src.image = func() (v1.Image, error) { return fetch(dref, ropts) }
		}
		r.remember(key, h)
		return src, nil
	}
	if refusal := r.refusal(ref); refusal != nil {
		return nil, refusal
	}
	desc, err := remote.Get(nref, ropts...)
	if err != nil {
		return nil, err
	}
	r.remember(key, desc.Digest)
	r.writeTag(key, desc.Digest)
	return &source{digest: desc.Digest, image: func() (v1.Image, error) { return imageOf(desc) }}, nil
}

// refusal is the error of a pull the options forbid, or nil.
func (r *Reader) refusal(ref Reference) error {
	switch {
	case r.opts.Offline:
		return &OfflineError{Image: ref.Image, Policy: "offline"}
	case r.opts.Pull == PullNever:
		return &OfflineError{Image: ref.Image, Policy: "pull policy never"}
	}
	return nil
}

// remember records that tag key resolved to h, for this Reader's life.
func (r *Reader) remember(key string, h v1.Hash) {
	r.mu.Lock()
	r.tags[key] = h
	r.mu.Unlock()
}

// fetch gets the image ref names from its registry.
func fetch(ref name.Reference, ropts []remote.Option) (v1.Image, error) {
	desc, err := remote.Get(ref, ropts...)
	if err != nil {
		return nil, err
	}
	return imageOf(desc)
}

// imageOf returns the image of a registry descriptor, choosing a platform
// when it is an index.
func imageOf(desc *remote.Descriptor) (v1.Image, error) {
	if desc.MediaType.IsIndex() {
		idx, err := desc.ImageIndex()
		if err != nil {
			return nil, err
		}
		return pickPlatform(idx)
	}
	return desc.Image()
}

// pickPlatform chooses the image of an index a catalog is read from: the
// catalog is the same on every platform, so linux/amd64 when the index has
// it (for the same answer on every machine), else its first image.
func pickPlatform(idx v1.ImageIndex) (v1.Image, error) {
	im, err := idx.IndexManifest()
	if err != nil {
		return nil, err
	}
	var first *v1.Descriptor
	for i, d := range im.Manifests {
		if !d.MediaType.IsImage() {
			continue
		}
		if d.Platform != nil && d.Platform.OS == "linux" && d.Platform.Architecture == "amd64" {
			return idx.Image(d.Digest)
		}
		if first == nil {
			first = &im.Manifests[i]
		}
	}
	if first == nil {
		return nil, errors.New("the image index lists no image")
	}
	return idx.Image(first.Digest)
}

// remoteOptions are the options of every registry request.
func (r *Reader) remoteOptions(ctx context.Context) []remote.Option {
	kc := r.opts.Keychain
	if kc == nil {
		kc = authn.DefaultKeychain
	}
	base := r.opts.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	return []remote.Option{
		remote.WithContext(ctx),
		remote.WithAuthFromKeychain(kc),
		remote.WithTransport(&httpsOnly{base: base, r: r}),
		remote.WithUserAgent("sextant"),
		remote.WithRetryBackoff(remote.Backoff{Duration: 200 * time.Millisecond, Factor: 2, Jitter: 0.1, Steps: 3}),
	}
}

// insecure reports whether registry may be reached over plain HTTP.
func (r *Reader) insecure(registry string) bool {
	return slices.Contains(r.opts.Insecure, registry)
}

// registryOf returns the registry of a full registry reference.
func registryOf(image string) string {
	host, _, _ := strings.Cut(image, "/")
	return host
}

// httpsOnly refuses plain HTTP to the registries not named insecure
// (go-containerregistry would otherwise fall back to HTTP for loopback and
// private addresses on its own).
type httpsOnly struct {
	base http.RoundTripper
	r    *Reader
}

func (t *httpsOnly) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Scheme == "http" && !t.r.insecure(req.URL.Host) {
		return nil, &PlainHTTPError{Registry: req.URL.Host}
	}
	return t.base.RoundTrip(req)
}

// pathErr turns "stat PATH: no such file" into "no such file or directory"
// (the reference already names the path).
func pathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// listOrNone joins names, or says "none".
func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
