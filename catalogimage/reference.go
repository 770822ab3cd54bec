package catalogimage

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"
)

// Form is where a catalog image is read from.
type Form int

// The forms of a [Reference].
const (
	// Registry is an image in a registry: REGISTRY/REPO:TAG or
	// REGISTRY/REPO@sha256:….
	Registry Form = iota + 1
	// OCILayout is an OCI image layout on disk: oci:DIR or oci:DIR:TAG, as
	// skopeo copy … oci:DIR and oras copy --to-oci-layout write it.
	OCILayout
	// DockerArchive is a tarball on disk as docker save or crane pull
	// write it: docker-archive:FILE.
	DockerArchive
)

// String names the form in messages: "registry image", "OCI layout" or
// "docker archive".
func (f Form) String() string {
	switch f {
	case Registry:
		return "registry image"
	case OCILayout:
		return "OCI layout"
	case DockerArchive:
		return "docker archive"
	}
	return "unknown form"
}

// Reference names a catalog image. Build one with [ParseReference] (what a
// user types) or [ImageReference] (a CatalogSource's spec.image); the zero
// value names nothing. A Reference is a comparable value.
type Reference struct {
	// Form is where the image is.
	Form Form
	// Text is the reference as given, e.g. "oci:/srv/catalog:v4.20".
	Text string
	// Image is the registry reference (Form Registry), in full:
	// "quay.io/operatorhubio/catalog:latest".
	Image string
	// Path is the folder of an OCI layout or the file of a docker archive.
	Path string
	// Tag selects an image of an OCI layout by its
	// org.opencontainers.image.ref.name annotation; empty: the layout must
	// hold one image.
	Tag string
}

// String returns the reference as given.
func (r Reference) String() string { return r.Text }

// Describe says how the reference was understood, for messages:
// `registry image quay.io/x/catalog:v1`, `OCI layout /srv/cat (tag v1)`,
// `docker archive cat.tar`.
func (r Reference) Describe() string {
	switch r.Form {
	case Registry:
		return "registry image " + r.Image
	case OCILayout:
		if r.Tag != "" {
			return fmt.Sprintf("OCI layout %s (tag %s)", r.Path, r.Tag)
		}
		return "OCI layout " + r.Path
	case DockerArchive:
		return "docker archive " + r.Path
	}
	return "no image"
}

// ErrNotReference is returned (wrapped) by [ParseReference] for text that
// has none of the image forms: most likely a file path.
var ErrNotReference = errors.New("not an image reference")

// Prefixes of the forms on disk.
const (
	ociPrefix     = "oci:"
	archivePrefix = "docker-archive:"
)

// ParseReference reads an image reference as a user types it:
//
//   - oci:DIR or oci:DIR:TAG, an OCI image layout (a DIR that exists
//     with its colon is taken whole: oci:a:b is folder "a:b" if it exists,
//     else tag b of folder a);
//   - docker-archive:FILE, a docker save or crane pull tarball;
//   - REGISTRY/REPO:TAG or REGISTRY/REPO@sha256:…, a registry image. The
//     registry is always written (quay.io, localhost:5000, 10.0.0.1:5000 —
//     a host with a dot or a port, or localhost), and so is a tag or a
//     digest: nothing is defaulted (no Docker Hub, no :latest).
//
// Text with a registry's shape but that names a catalog file
// (…/catalog.json, …/index.yaml.gz) is not a reference. Text with none of
// the forms is an error wrapping [ErrNotReference]; a reference of one of
// the forms that is malformed is an error that says which form it was read as.
func ParseReference(s string) (Reference, error) {
	r := Reference{Text: s}
	switch {
	case strings.HasPrefix(s, ociPrefix):
		r.Form = OCILayout
		rest := s[len(ociPrefix):]
		r.Path = rest
		if _, err := os.Stat(rest); err != nil {
			if i := strings.LastIndexByte(rest, ':'); i >= 0 && !strings.ContainsRune(rest[i:], '/') {
				r.Path, r.Tag = rest[:i], rest[i+1:]
				if r.Tag == "" {
					return Reference{}, fmt.Errorf("%q: OCI layout %s: empty tag after the colon", s, r.Path)
				}
			}
		}
		if r.Path == "" {
			return Reference{}, fmt.Errorf("%q: OCI layout: no folder after %q", s, ociPrefix)
		}
		return r, nil
	case strings.HasPrefix(s, archivePrefix):
		r.Form, r.Path = DockerArchive, s[len(archivePrefix):]
		if r.Path == "" {
			return Reference{}, fmt.Errorf("%q: docker archive: no file after %q", s, archivePrefix)
		}
		return r, nil
	}
	host, _, ok := strings.Cut(s, "/")
	if !ok || !(strings.ContainsAny(host, ".:") || host == "localhost") || looksLikeCatalogFile(s) {
		if ok && shorthand(s) {
			return Reference{}, fmt.Errorf("%q: no such file or folder, and not an image reference: a registry image is written with its registry, as in quay.io/%s or docker.io/%s (nothing is defaulted)", s, s, s)
		}
		return Reference{}, fmt.Errorf("%q: %w (not oci:DIR, docker-archive:FILE or REGISTRY/REPO:TAG)", s, ErrNotReference)
	}
	ref, err := name.ParseReference(s, name.StrictValidation)
	if err != nil {
		if !strings.ContainsAny(s[len(host):], ":@") {
			return Reference{}, fmt.Errorf("%q: registry image with no tag or digest: add one (:latest, @sha256:…)", s)
		}
		if why := whyNotReference(s, host); why != "" {
			return Reference{}, fmt.Errorf("%q: registry image: %s", s, why)
		}
		return Reference{}, fmt.Errorf("%q: registry image: %w", s, err)
	}
	r.Form, r.Image = Registry, ref.Name()
	return r, nil
}

// ImageReference reads a CatalogSource's spec.image as the kubelet reads
// an image: a missing registry is docker.io, a missing tag :latest.
func ImageReference(s string) (Reference, error) {
	ref, err := name.ParseReference(s)
	if err != nil {
		return Reference{}, fmt.Errorf("image %q: %w", s, err)
	}
	return Reference{Form: Registry, Text: s, Image: ref.Name()}, nil
}

// shorthand reports whether s, a path that does not exist, is an image
// reference as docker pull reads one, with the registry left out
// (operatorhubio/catalog:latest): a repository path and a tag or digest.
func shorthand(s string) bool {
	if looksLikeCatalogFile(s) {
		return false
	}
	if _, err := os.Lstat(s); err == nil {
		return false // a path
	}
	last := s[strings.LastIndexByte(s, '/')+1:]
	if !strings.ContainsAny(last, ":@") {
		return false
	}
	_, err := name.ParseReference(s)
	return err == nil
}

// whyNotReference says what is wrong with s, a registry reference whose
// host is host, that go-containerregistry refuses without saying why; ""
// when it cannot tell.
func whyNotReference(s, host string) string {
	rest := s[len(host)+1:]
	repo, digest, hasDigest := strings.Cut(rest, "@")
	tag := ""
	if i := strings.LastIndexByte(repo, ':'); i >= 0 {
		repo, tag = repo[:i], repo[i+1:]
	}
	switch {
	case repo != strings.ToLower(repo):
		fixed := host + "/" + strings.ToLower(repo) + strings.TrimPrefix(rest, repo)
		return fmt.Sprintf("a repository name is lower case (%s)", fixed)
	case repo == "" || strings.Contains(repo, "//") || strings.HasSuffix(repo, "/"):
		return fmt.Sprintf("the repository path %q has an empty part", repo)
	case tag != "" && !validTag(tag):
		return fmt.Sprintf("tag %q: a tag is letters, digits, '_', '.' and '-', at most 128, not starting with '.' or '-'", tag)
	case hasDigest && !validDigest(digest):
		return fmt.Sprintf("digest %q: a digest is sha256: and 64 lower-case hexadecimal digits", digest)
	}
	return ""
}

// validTag reports whether t is a tag as the distribution spec has them.
func validTag(t string) bool {
	if t == "" || len(t) > 128 || t[0] == '.' || t[0] == '-' {
		return false
	}
	for _, c := range []byte(t) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// validDigest reports whether d is a sha256 digest.
func validDigest(d string) bool {
	hex, ok := strings.CutPrefix(d, "sha256:")
	if !ok || len(hex) != 64 {
		return false
	}
	for _, c := range []byte(hex) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// looksLikeCatalogFile reports whether s ends like a catalog file name.
func looksLikeCatalogFile(s string) bool {
	s = strings.TrimSuffix(s, ".gz")
	for _, ext := range []string{".json", ".yaml", ".yml"} {
		if strings.HasSuffix(s, ext) {
			return true
		}
	}
	return false
}

// BaseName returns a short name for the catalog of the image: the last
// element of the repository (quay.io/operatorhubio/catalog:latest →
// "catalog"), or the base name of the folder or file (docker-archive:x/cat.tar
// → "cat").
func (r Reference) BaseName() string {
	var s string
	switch r.Form {
	case Registry:
		s = r.Image
		if i := strings.IndexByte(s, '@'); i >= 0 {
			s = s[:i]
		}
		if i := strings.LastIndexByte(s, '/'); i >= 0 {
			s = s[i+1:]
		}
		if i := strings.IndexByte(s, ':'); i >= 0 {
			s = s[:i]
		}
	default:
		s = strings.TrimRight(r.Path, "/")
		if i := strings.LastIndexByte(s, '/'); i >= 0 {
			s = s[i+1:]
		}
		for _, ext := range []string{".tar.gz", ".tgz", ".tar"} {
			if b, ok := strings.CutSuffix(s, ext); ok {
				s = b
				break
			}
		}
	}
	return s
}
