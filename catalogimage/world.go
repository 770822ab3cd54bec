package catalogimage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/tarball"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/graph"
)

// containerdNameAnnotation is the annotation of an OCI layout's index
// that names an image by its whole reference (containerd and docker
// export it so).
const containerdNameAnnotation = "io.containerd.image.name"

// Source returns r as the image source of a world
// (sextant.Options.Images).
func (r *Reader) Source() sextant.ImageSource { return worldSource{r} }

// worldSource is a Reader as a sextant.ImageSource.
type worldSource struct{ r *Reader }

// ParseImage reads text with ParseReference; an OCI layout's or a docker
// archive's names are the registry references it records.
func (s worldSource) ParseImage(text string) (sextant.Image, error) {
	ref, err := ParseReference(text)
	if errors.Is(err, ErrNotReference) {
		return sextant.Image{}, fmt.Errorf("%w: %w", sextant.ErrNotImage, err)
	}
	if err != nil {
		return sextant.Image{}, err
	}
	img := sextant.Image{Text: text, Kind: ref.Form.String(), BaseName: ref.BaseName()}
	switch ref.Form {
	case Registry:
		img.Names = []string{ref.Image}
	case OCILayout:
		img.Names = layoutNames(ref)
	case DockerArchive:
		img.Names = archiveNames(ref.Path)
	}
	return img, nil
}

// SpecImage reads text with ImageReference.
func (s worldSource) SpecImage(text string) (sextant.Image, error) {
	ref, err := ImageReference(text)
	if err != nil {
		return sextant.Image{}, err
	}
	return sextant.Image{Text: text, Spec: true, Kind: ref.Form.String(), Names: []string{ref.Image}, BaseName: ref.BaseName()}, nil
}

// LoadImage reads the image with Reader.Load.
func (s worldSource) LoadImage(ctx context.Context, img sextant.Image) (*graph.Catalog, sextant.ImageRead, error) {
	parse := ParseReference
	if img.Spec {
		parse = ImageReference
	}
	ref, err := parse(img.Text)
	if err != nil {
		return nil, sextant.ImageRead{}, err
	}
	cat, info, err := s.r.Load(ctx, ref)
	return cat, imageRead(info), err // the read is told with its error too
}

// imageRead is what the world is told of one image read.
func imageRead(info Info) sextant.ImageRead {
	read := sextant.ImageRead{Digest: info.Digest, Dir: info.Dir, Cached: info.Cached, CacheErr: info.CacheErr, Skipped: info.Skipped, PruneErr: info.PruneErr}
	if info.Damaged != nil {
		read.Damaged = info.Damaged
	}
	for _, e := range info.Pruned {
		read.Pruned = append(read.Pruned, e.Reference+" "+e.Digest)
	}
	return read
}

// fullName returns the registry reference s names in full, as the
// kubelet reads an image (name.ParseReference's defaults), when s is one
// written with its repository path (a bare tag is not).
func fullName(s string) (string, bool) {
	if !strings.Contains(s, "/") {
		return "", false
	}
	ref, err := name.ParseReference(s)
	if err != nil {
		return "", false
	}
	return ref.Name(), true
}

// layoutNames returns the whole references an OCI layout's index records
// for the image ref selects (io.containerd.image.name, or an
// org.opencontainers.image.ref.name that is a whole reference), sorted;
// none when the layout cannot be read.
func layoutNames(ref Reference) []string {
	if _, err := os.Stat(ref.Path); err != nil {
		return nil
	}
	p, err := layout.FromPath(ref.Path)
	if err != nil {
		return nil
	}
	idx, err := p.ImageIndex()
	if err != nil {
		return nil
	}
	im, err := idx.IndexManifest()
	if err != nil {
		return nil
	}
	var out []string
	for _, d := range im.Manifests {
		tag := d.Annotations[refNameAnnotation]
		if ref.Tag != "" && tag != ref.Tag && !strings.HasSuffix(tag, ":"+ref.Tag) {
			continue
		}
		for _, s := range []string{d.Annotations[containerdNameAnnotation], tag} {
			if n, ok := fullName(s); ok {
				out = append(out, n)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// archiveNames returns the references a docker archive's manifest records
// (RepoTags), sorted; none when it cannot be read.
func archiveNames(path string) []string {
	m, err := tarball.LoadManifest(func() (io.ReadCloser, error) { return os.Open(path) })
	if err != nil {
		return nil
	}
	var out []string
	for _, d := range m {
		for _, t := range d.RepoTags {
			if n, ok := fullName(t); ok {
				out = append(out, n)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
