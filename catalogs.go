package sextant

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/fileerr"
	"github.com/sextantdev/sextant/resolver"
)

// catalogSpec is one catalog while the world is built.
type catalogSpec struct {
	in    CatalogInput
	name  string
	named NameRule
	path  string // how messages name it
	from  string // what a name NamedByPath comes from
	img   *Image // the image, when it is one
	cat   *graph.Catalog
	read  ImageRead
	// source is the CatalogSource whose spec.image it is
	// (NamedCatalogSource); file its file; err why its image cannot be
	// read.
	source cluster.Ref
	file   string
	err    error

	key      resolver.CatalogKey
	priority int
}

// catalog returns the world's Catalog of the spec.
func (c *catalogSpec) catalog() Catalog {
	o := Origin{Path: c.path, CatalogSource: c.source, Named: c.named}
	if c.img != nil {
		o.Image = &ImageOrigin{Image: *c.img, ImageRead: c.read}
	}
	return Catalog{Key: c.key, Priority: c.priority, Catalog: c.cat, Origin: o}
}

// noteEmpty notes a catalog with no blob at all (an empty file or
// stream, a folder with no catalog file, an image whose catalog folder
// holds none): it serves nothing, as catalogd and opm serve it, and the
// world goes on without packages from it. in says where it was looked
// for when that is not its path (an image's catalog folder).
func (l *loader) noteEmpty(c *catalogSpec, cat *graph.Catalog, folder bool, in string) {
	if !empty(cat) {
		return
	}
	what := "no blob in it (olm.package, olm.channel, olm.bundle, …)"
	if folder {
		what = "no catalog file in the folder (.json, .yaml or .yml, plain or .gz, with a blob)"
	}
	if in != "" {
		what = "no blob in its catalog folder " + in
	}
	name := c.path
	if c.name != "" && c.name != c.path {
		name = fmt.Sprintf("%q (%s)", c.name, c.path)
	}
	l.note(Note{Code: NoteEmptyCatalog, File: c.path,
		Text: fmt.Sprintf("catalog %s serves nothing: %s", name, what)})
}

// catalogSpecs reads the catalogs of the input: what each is (a path, an
// image, a stream, a catalog) and, but for unnamed images, its name. No
// catalog is read yet.
func (l *loader) catalogSpecs() ([]*catalogSpec, error) {
	var out []*catalogSpec
	var errs []error
	for i, in := range l.in.Catalogs {
		c := &catalogSpec{in: in, name: in.Name, named: NamedGiven, path: in.Path}
		switch {
		case in.Catalog != nil || in.Reader != nil:
			c.cat = in.Catalog
			if c.path == "" {
				c.path = fmt.Sprintf("catalog %d", i+1)
			}
			if in.Name == "" {
				errs = append(errs, &InputError{Field: "Catalogs", Value: c.path, Err: errors.New("a catalog given as a stream or loaded needs a name")})
			}
		default:
			if err := l.pathOrImage(c); err != nil {
				errs = append(errs, err)
				continue
			}
		}
		out = append(out, c)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, checkNames(out)
}

// pathOrImage tells whether c's path is a path or an image: a path that
// exists is always a path; one that does not is an image when it has one
// of the image forms. An unnamed path is named after its file or folder.
func (l *loader) pathOrImage(c *catalogSpec) error {
	path := c.in.Path
	fi, serr := os.Stat(path)
	if serr != nil && errors.Is(serr, fs.ErrNotExist) {
		if l.opts.Images == nil {
			if looksLikeImage(path) {
				return &NoImageSourceError{Image: path}
			}
		} else {
			img, err := l.opts.Images.ParseImage(path)
			switch {
			case errors.Is(err, ErrNotImage):
			case err != nil:
				return err
			default:
				c.img = &img
				c.from = imageNameFrom(img.Kind)
				return nil
			}
		}
	}
	if c.name == "" {
		c.name, c.named, c.from = PathCatalogName(path), NamedByPath, "file"
		if serr == nil && fi.IsDir() {
			c.from = "folder"
		}
	}
	return nil
}

// imageNameFrom says what the base name of an image of kind comes from.
func imageNameFrom(kind string) string {
	switch kind {
	case "OCI layout":
		return "OCI layout folder"
	case "docker archive":
		return "docker archive file"
	}
	return "repository"
}

// looksLikeImage reports whether s has the shape of an image reference:
// for an input that names an image while no ImageSource reads images.
func looksLikeImage(s string) bool {
	if strings.HasPrefix(s, "oci:") || strings.HasPrefix(s, "docker-archive:") {
		return true
	}
	host, rest, ok := strings.Cut(s, "/")
	return ok && (strings.ContainsAny(host, ".:") || host == "localhost") && strings.ContainsAny(rest, ":@")
}

// checkNames reports two catalogs of one name (the names known so far).
func checkNames(cats []*catalogSpec) error {
	byName := map[string]*catalogSpec{}
	for _, c := range cats {
		if c.name == "" {
			continue
		}
		if prev, ok := byName[c.name]; ok {
			return &CatalogNameError{Name: c.name, Paths: [2]string{prev.path, c.path}}
		}
		byName[c.name] = c
	}
	return nil
}

// loadFiles loads the catalogs of cats that are files, folders or
// streams, in order; it returns the errors of those that cannot be read,
// each naming its path.
func (l *loader) loadFiles(cats []*catalogSpec) []error {
	var errs []error
	for _, c := range cats {
		if c.img != nil || c.cat != nil {
			continue
		}
		cat, err := l.loadCatalog(c)
		if err != nil {
			errs = appendErrors(errs, err)
			continue
		}
		c.cat = cat
	}
	return errs
}

// loadCatalog reads the catalog of a file, folder or stream. A catalog
// with no blob at all is noted (noteEmpty) and serves nothing.
func (l *loader) loadCatalog(c *catalogSpec) (*graph.Catalog, error) {
	loader := l.opts.Limits.CatalogLoader()
	if c.in.Reader != nil {
		cat, err := loader.Decode(l.ctx, c.in.Reader, c.path)
		if err != nil {
			return nil, fileerr.Name(err, c.path)
		}
		l.noteEmpty(c, cat, false, "")
		return cat, nil
	}
	fi, err := os.Stat(c.path)
	if err != nil {
		return nil, fileerr.Path(c.path, err)
	}
	cat, err := loader.Load(l.ctx, c.path)
	if err != nil {
		return nil, fileerr.Name(err, c.path)
	}
	l.noteEmpty(c, cat, fi.IsDir(), "")
	return cat, nil
}

// empty reports a catalog with no blob.
func empty(cat *graph.Catalog) bool { return len(cat.Packages()) == 0 && len(cat.Others()) == 0 }

// nameImages names the images given without a name: after the
// CatalogSources whose spec.image they are, when those share one name,
// else after their repository, folder or file. No image is read.
func (l *loader) nameImages(state *cluster.State, cats []*catalogSpec) error {
	for _, c := range cats {
		if c.img == nil || c.name != "" {
			continue
		}
		if name, sources := l.sourceNamed(state, c.img); name != "" {
			c.name, c.named = name, NamedByCatalogSource
			var which []string
			for _, cs := range sources {
				which = append(which, cs.Namespace+"/"+cs.Name)
			}
			l.note(Note{Code: NoteImageNamed, Text: fmt.Sprintf("catalog image %s is named %s after CatalogSource %s, whose spec.image it is", c.path, name, strings.Join(which, ", "))})
			continue
		}
		c.name, c.named = c.img.BaseName, NamedByPath
	}
	return checkNames(cats)
}

// sourceNamed returns the name of the CatalogSources whose spec.image
// names img, when they share one, and those CatalogSources.
func (l *loader) sourceNamed(state *cluster.State, img *Image) (string, []cluster.CatalogSource) {
	var found []cluster.CatalogSource
	names := map[string]bool{}
	for _, cs := range state.CatalogSources {
		if cs.Image == "" {
			continue
		}
		spec, err := l.opts.Images.SpecImage(cs.Image)
		if err != nil {
			continue
		}
		if slices.ContainsFunc(spec.Names, func(n string) bool { return slices.Contains(img.Names, n) }) {
			found = append(found, cs)
			names[cs.Name] = true
		}
	}
	if len(names) != 1 {
		return "", nil
	}
	return found[0].Name, found
}

// sourceImages returns the catalogs to read from the images of the
// CatalogSources that the subscriptions of nss (every namespace when nss
// is nil) name and that no catalog given stands for: each CatalogSource
// with a spec.image, once, by namespace then name. None without an
// ImageSource.
func (l *loader) sourceImages(state *cluster.State, nss []string, cats []*catalogSpec) []*catalogSpec {
	if l.opts.Images == nil {
		return nil
	}
	given := map[string]bool{}
	for _, c := range cats {
		given[c.name] = true
	}
	var todo []cluster.CatalogSource
	for _, sub := range state.Subscriptions {
		if !inNamespaces(sub.Namespace, nss) || sub.Source == "" || given[sub.Source] {
			continue
		}
		if cs := imageSource(state, sub); cs != nil {
			todo = append(todo, *cs)
			given[sub.Source] = true
		}
	}
	slices.SortFunc(todo, func(a, b cluster.CatalogSource) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	var out []*catalogSpec
	for _, cs := range todo {
		ref := cluster.Ref{Kind: cluster.KindCatalogSource, Namespace: cs.Namespace, Name: cs.Name}
		c := &catalogSpec{name: cs.Name, named: NamedCatalogSource, path: cs.Image, source: ref, file: l.files[ref]}
		img, err := l.opts.Images.SpecImage(cs.Image)
		if err != nil {
			c.err = &SourceImageError{File: c.file, CatalogSource: ref, Err: err}
		}
		c.img = &img
		out = append(out, c)
	}
	return out
}

// imageSource returns the CatalogSource with a spec.image that sub names,
// or nil.
func imageSource(state *cluster.State, sub cluster.Subscription) *cluster.CatalogSource {
	key, ok := resolver.SubscriptionCatalog(&sub)
	if !ok {
		return nil
	}
	i := slices.IndexFunc(state.CatalogSources, func(cs cluster.CatalogSource) bool {
		return cs.Name == key.Name && cs.Namespace == key.Namespace && cs.Image != ""
	})
	if i < 0 {
		return nil
	}
	return &state.CatalogSources[i]
}

// inNamespaces reports whether ns is one of nss; every namespace is when
// nss is nil.
func inNamespaces(ns string, nss []string) bool { return nss == nil || slices.Contains(nss, ns) }

// checkSources reports every subscription of nss whose spec.source names
// no catalog given and no CatalogSource image to read (srcs), and the
// CatalogSource images that cannot be read as references. Where a
// catalog was given without a name and no subscription names it, it is
// likely the catalog meant: a subscription that would have its
// CatalogSource's image read is then an error too, naming the fix, so
// that nothing is pulled in its place.
func (l *loader) checkSources(state *cluster.State, nss []string, cats, srcs []*catalogSpec) error {
	var names []string
	known, pulled := map[string]bool{}, map[string]bool{}
	for _, c := range cats {
		names = append(names, c.name)
		known[c.name] = true
	}
	slices.Sort(names)
	var errs []error
	for _, c := range srcs {
		pulled[c.name] = true
		if c.err != nil {
			errs = append(errs, c.err)
		}
	}
	unnamed := unusedUnnamed(state, nss, cats)
	for _, sub := range state.Subscriptions {
		if !inNamespaces(sub.Namespace, nss) || sub.Source == "" || known[sub.Source] || (pulled[sub.Source] && len(unnamed) == 0) {
			continue
		}
		ref := cluster.Ref{Kind: cluster.KindSubscription, Namespace: sub.Namespace, Name: sub.Name}
		e := &SourceError{File: l.files[ref], Subscription: ref, Source: sub.Source, Catalogs: names, Unnamed: unnamed}
		if cs := imageSource(state, sub); cs != nil {
			e.Image = cs.Image
		}
		errs = append(errs, e)
	}
	return errors.Join(errs...)
}

// unusedUnnamed returns the catalogs given without a name whose name no
// subscription of nss names.
func unusedUnnamed(state *cluster.State, nss []string, cats []*catalogSpec) []UnnamedCatalog {
	used := map[string]bool{}
	for _, sub := range state.Subscriptions {
		if inNamespaces(sub.Namespace, nss) {
			used[sub.Source] = true
		}
	}
	var out []UnnamedCatalog
	for _, c := range cats {
		if c.named == NamedByPath && !used[c.name] {
			out = append(out, UnnamedCatalog{Path: c.path, Name: c.name, From: c.from})
		}
	}
	return out
}

// loadImages reads the images of cats not read yet; every image that
// cannot be read is reported.
func (l *loader) loadImages(cats []*catalogSpec) error {
	var errs []error
	for _, c := range cats {
		if c.img == nil || c.cat != nil {
			continue
		}
		if err := l.loadImage(c); err != nil {
			errs = appendErrors(errs, err)
		}
	}
	return errors.Join(errs...)
}

// loadImage reads the catalog of an image; a cache that could not be
// written or links that were not read are noted.
func (l *loader) loadImage(c *catalogSpec) error {
	if l.opts.Images == nil {
		return &NoImageSourceError{Image: c.path}
	}
	cat, read, err := l.opts.Images.LoadImage(l.ctx, *c.img)
	if err != nil {
		return err
	}
	c.read = read
	if read.CacheErr != nil {
		l.note(Note{Code: NoteImageNotCached, Text: fmt.Sprintf("%s: not cached: %v", c.path, read.CacheErr)})
	}
	if read.Skipped > 0 {
		l.note(Note{Code: NoteImageSkipped, Text: fmt.Sprintf("%s: not read: %d entries under %s that are not regular files (links, devices)", c.path, read.Skipped, read.Dir)})
	}
	if read.Damaged != nil {
		l.note(Note{Code: NoteImageCache, Text: fmt.Sprintf("%s: read again, and the cache entry replaced: %v", c.path, read.Damaged)})
	}
	if len(read.Pruned) > 0 {
		l.note(Note{Code: NoteImageCache, Text: fmt.Sprintf("the image cache is kept within its limit: removed the least recently used %s", strings.Join(read.Pruned, ", "))})
	}
	if read.PruneErr != nil {
		l.note(Note{Code: NoteImageCache, Text: fmt.Sprintf("the image cache could not be kept within its limit: %v", read.PruneErr)})
	}
	l.noteEmpty(c, cat, false, read.Dir)
	c.cat = cat
	return nil
}

// SourceImageError is the image of a CatalogSource that cannot be read
// (Err says why: an *OfflineError of the image source when it would be
// pulled offline, …).
type SourceImageError struct {
	File          string
	CatalogSource cluster.Ref
	Err           error
}

func (e *SourceImageError) Error() string {
	return fmt.Sprintf("%sCatalogSource %q: spec.image: %v", inFile(e.File), e.CatalogSource.Namespace+"/"+e.CatalogSource.Name, e.Err)
}

func (e *SourceImageError) Unwrap() error { return e.Err }

// loadSourceImages reads the images of the CatalogSources (srcs); one
// note lists the images read. Every image that cannot be read is an
// error naming the CatalogSource's file.
func (l *loader) loadSourceImages(srcs []*catalogSpec) error {
	var read []string
	var errs []error
	for _, c := range srcs {
		if err := l.loadImage(c); err != nil {
			errs = append(errs, &SourceImageError{File: c.file, CatalogSource: c.source, Err: err})
			continue
		}
		read = append(read, c.source.Namespace+"/"+c.source.Name+" "+imageSummary(c.path, c.read))
	}
	if len(read) > 0 {
		l.notef(NoteSourceImages, "read the catalog images of the CatalogSources that no catalog given stands for: %s", strings.Join(read, ", "))
	}
	return errors.Join(errs...)
}

// noteImagesRead notes the images of cats that were read, with their
// digests, in one note.
func (l *loader) noteImagesRead(cats []*catalogSpec) {
	var read []string
	for _, c := range cats {
		if c.img != nil && c.read.Digest != "" {
			read = append(read, imageSummary(c.path, c.read))
		}
	}
	if len(read) > 0 {
		what := "image"
		if len(read) > 1 {
			what = "images"
		}
		l.notef(NoteImagesRead, "read catalog %s %s", what, strings.Join(read, ", "))
	}
}

// noteUnreadKeys notes, once per catalog of cats, the keys and schemas it
// carries that opm does not read as written.
func (l *loader) noteUnreadKeys(cats []*catalogSpec) {
	for _, c := range cats {
		if c.cat == nil {
			continue
		}
		kf := c.cat.KeyFindings()
		if len(kf) == 0 {
			continue
		}
		first := kf[0]
		what, more := "1 key or schema", ""
		if len(kf) > 1 {
			what, more = fmt.Sprintf("%d keys or schemas", len(kf)), fmt.Sprintf(", and %d more", len(kf)-1)
		}
		l.note(Note{Code: NoteUnreadKeys, Catalog: c.key, File: first.Pos.File,
			Text: fmt.Sprintf("catalog %s: %s that opm does not read as written (%s: %s%s); the catalog checks list them",
				c.path, what, first.Pos, first.Brief, more)})
	}
}

// imageSummary says what an image read was: "REF sha256:…", with
// " (cached)" when the cache answered.
func imageSummary(ref string, read ImageRead) string {
	var b strings.Builder
	b.WriteString(ref)
	if !strings.Contains(ref, read.Digest) {
		b.WriteString(" ")
		b.WriteString(read.Digest)
	}
	if read.Cached {
		b.WriteString(" (cached)")
	}
	return b.String()
}
