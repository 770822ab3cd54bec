package registryv1

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/sextantdev/sextant/crd"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/fastyaml"
)

// Set finds the contents of a catalog's bundles ([Set.For]): the bundles
// read from folders ([Loader.ReadDirs], [Set.Add]), by their CSV's name;
// else a catalog bundle's own olm.bundle.object properties; else, when
// Images is set, the bundle's image. Build a Set, then share it: it is
// safe for concurrent use once built (Add is not).
type Set struct {
	// Loader bounds what For reads from properties and images.
	Loader Loader
	// Images reads bundle images; nil: none is read.
	Images ImageSource
	// Problems are the problems of the bundles read into the set
	// (*Problem values), in the order they were read.
	Problems []error

	bundles []*Bundle
	byName  map[string][]*Bundle

	mu     sync.Mutex
	images map[string]*imageResult
	asked  map[string]bool // the names For was asked for
}

type imageResult struct {
	once     sync.Once
	bundle   *Bundle
	err      error
	problems []error
}

// NewSet returns an empty set.
func NewSet() *Set {
	return &Set{byName: map[string][]*Bundle{}, images: map[string]*imageResult{}, asked: map[string]bool{}}
}

// Add adds a bundle read elsewhere (Loader.ReadFS).
func (s *Set) Add(b *Bundle) {
	s.bundles = append(s.bundles, b)
	s.byName[b.CSV.Name] = append(s.byName[b.CSV.Name], b)
}

// Len returns the number of bundles read into the set.
func (s *Set) Len() int { return len(s.bundles) }

// Bundles returns the bundles read into the set, in the order added
// (ReadDirs: by folder). The slice belongs to the set.
func (s *Set) Bundles() []*Bundle { return s.bundles }

// Named returns the bundles of the set whose CSV is named name (several
// when several folders hold one name), in the order added. The slice
// belongs to the set.
func (s *Set) Named(name string) []*Bundle { return s.byName[name] }

// Unused returns the bundles read into the set whose CSV's name For has
// not been asked for (so far), in the order added: input a piece of work
// did not use. The caller owns the returned slice.
func (s *Set) Unused() []*Bundle {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Bundle
	for _, b := range s.bundles {
		if !s.asked[b.CSV.Name] {
			out = append(out, b)
		}
	}
	return out
}

// AmbiguousError reports a catalog bundle whose name several bundles of a
// set carry, none alone with its version and package.
type AmbiguousError struct {
	Bundle  string
	Version string
	Sources []Source
}

func (e *AmbiguousError) Error() string {
	where := make([]string, len(e.Sources))
	for i, s := range e.Sources {
		where[i] = s.String()
	}
	return fmt.Sprintf("bundle %q (version %s): %d bundle folders hold a CSV of that name, and neither version nor package tells them apart: %s",
		e.Bundle, e.Version, len(e.Sources), strings.Join(where, ", "))
}

// For returns the contents of a catalog's bundle, from the first source
// that has them: a bundle of the set whose CSV has the bundle's name (of
// several, the one whose CSV's spec.version is the bundle's version, else
// whose package is the bundle's; else a *AmbiguousError); the bundle's
// olm.bundle.object properties; its image, when the set has Images (each
// image read once, later calls answer from the first). It returns nil and
// no error when no source has them. A bundle read from properties or an
// image may come with problems: they are in problems, each a *Problem
// (the bundle is nil when they leave none); an image that cannot be read
// is the error.
func (s *Set) For(ctx context.Context, b *graph.Bundle) (contents *Bundle, problems []error, err error) {
	s.mu.Lock()
	s.asked[b.Name] = true
	s.mu.Unlock()
	if c, err := s.folder(b); c != nil || err != nil {
		return c, nil, err
	}
	if c, problems := s.Loader.ReadCatalogBundle(b); c != nil || problems != nil {
		return c, problems, nil
	}
	if s.Images == nil || b.Image == "" {
		return nil, nil, nil
	}
	s.mu.Lock()
	r := s.images[b.Image]
	if r == nil {
		r = &imageResult{}
		s.images[b.Image] = r
	}
	s.mu.Unlock()
	r.once.Do(func() {
		img, err := s.Images.ReadBundle(ctx, b.Image)
		if err != nil {
			r.err = err
			return
		}
		r.bundle, r.problems = s.Loader.ReadFS(img.FS, Source{Kind: FromImage, Image: b.Image, Digest: img.Digest})
	})
	return r.bundle, r.problems, r.err
}

// folder returns the bundle of the set matched to b.
func (s *Set) folder(b *graph.Bundle) (*Bundle, error) {
	l := s.byName[b.Name]
	switch len(l) {
	case 0:
		return nil, nil
	case 1:
		return l[0], nil
	}
	for _, same := range []func(*Bundle) bool{
		func(c *Bundle) bool { return sameVersion(c.CSV.Version, b) },
		func(c *Bundle) bool { return c.Package == b.Package },
	} {
		if m := slices.DeleteFunc(slices.Clone(l), func(c *Bundle) bool { return !same(c) }); len(m) == 1 {
			return m[0], nil
		}
	}
	e := &AmbiguousError{Bundle: b.Name, Version: b.VersionText}
	for _, c := range l {
		e.Sources = append(e.Sources, c.Source)
	}
	slices.SortFunc(e.Sources, func(a, b Source) int { return cmp.Compare(a.String(), b.String()) })
	return nil, e
}

// sameVersion reports whether a CSV's spec.version is the version of a
// catalog's bundle, both read tolerantly (v1.2 is 1.2.0).
func sameVersion(text string, b *graph.Bundle) bool {
	if text == b.VersionText {
		return true
	}
	v, err := graph.ParseVersion(text)
	bv, ok := b.ValidVersion()
	return err == nil && ok && v.EQ(bv)
}

// Parse reads the CRD: its manifest, read again from its file (or held
// in memory), decoded by crd.Decode. A manifest of another apiVersion is a
// *crd.VersionError; one that is not a CRD after all (a kind written so
// that only the full decoding tells) an error saying so.
func (r CRDRef) Parse() (*crd.Definition, crd.Decoded, error) {
	text := r.text
	if text == nil {
		var err error
		if text, err = r.read(); err != nil {
			return nil, crd.Decoded{}, err
		}
	}
	v, err := fastyaml.Value(text)
	if err != nil {
		return nil, crd.Decoded{}, err
	}
	m, ok := v.(map[string]any)
	if !ok || m["kind"] != crd.Kind {
		return nil, crd.Decoded{}, errors.New("not a CustomResourceDefinition")
	}
	return crd.Decode(m)
}

// read reads the manifest's text from its file.
func (r CRDRef) read() ([]byte, error) {
	f, err := r.fsys.Open(r.File)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ra, ok := f.(io.ReaderAt)
	if !ok {
		return nil, fmt.Errorf("%s: cannot be read again at an offset", r.File)
	}
	b := make([]byte, r.size)
	if _, err := ra.ReadAt(b, r.off); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return b, nil
}

// CRDCache parses CRDs once per digest: two manifests of one text are one
// CRD. The definitions it returns are shared (do not change them). It
// holds every CRD it parsed until dropped or forgotten ([CRDCache.Forget]):
// keep one per piece of work (a package's bundles), not one for
// everything. A CRDCache is safe for concurrent use; its zero value is
// ready.
type CRDCache struct {
	mu     sync.Mutex
	m      map[Digest]*parsed
	parses int // the entries made, forgotten ones included
}

type parsed struct {
	once sync.Once
	def  *crd.Definition
	dec  crd.Decoded
	err  error
}

// Parse returns ref parsed (CRDRef.Parse), once per digest.
func (c *CRDCache) Parse(ref CRDRef) (*crd.Definition, crd.Decoded, error) {
	c.mu.Lock()
	if c.m == nil {
		c.m = map[Digest]*parsed{}
	}
	p := c.m[ref.Digest]
	if p == nil {
		p = &parsed{}
		c.m[ref.Digest] = p
		c.parses++
	}
	c.mu.Unlock()
	p.once.Do(func() { p.def, p.dec, p.err = ref.Parse() })
	return p.def, p.dec, p.err
}

// Len returns the number of digests parsed; a digest forgotten and
// parsed again counts twice.
func (c *CRDCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.parses
}

// Forget drops the CRD of digest d, parsed or not: a later Parse of it
// parses it again. A piece of work that knows it is done with a CRD
// (no comparison left that needs it) forgets it so that its definition
// is not kept until the cache is dropped.
func (c *CRDCache) Forget(d Digest) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, d)
}

// Rendered returns d, a CRD of b, as OLM renders it from b: with the
// conversion strategy Webhook when b's CSV defines a conversion webhook
// for it (a copy then; d may be shared, as CRDCache's are).
func (b *Bundle) Rendered(d *crd.Definition) *crd.Definition {
	if b == nil || b.CSV == nil || d.ConversionStrategy == "Webhook" {
		return d
	}
	for _, w := range b.CSV.Webhooks {
		if w.Type == graph.WebhookConversion && slices.Contains(w.ConversionCRDs, d.Name) {
			c := *d
			c.ConversionStrategy = "Webhook"
			return &c
		}
	}
	return d
}
