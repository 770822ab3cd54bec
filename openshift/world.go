package openshift

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	sextant "github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/olmv1"
	"github.com/sextantdev/sextant/resolver"
)

// WorldOptions ask for the plan of a world's cluster. The zero value of
// everything but Target reads the cluster's version from its
// ClusterVersion and every later minor's catalogs from the images the
// default CatalogSources follow.
type WorldOptions struct {
	Options
	// Catalogs gives the catalog of a CatalogSource (or ClusterCatalog) at
	// a minor: `--catalog NAME@4.22=PATH|IMAGE`. Given for a minor, it
	// replaces what the platform would serve there.
	Catalogs []MinorCatalog
	// Images reads the catalog images of the later minors: the world's
	// own image source (sextant.Options.Images). nil: an image to read is
	// an error.
	Images sextant.ImageSource
	// Limits bound the catalogs read from files (sextant.Options.Limits).
	Limits sextant.Limits
}

// MinorCatalog is a catalog given for one minor: Name is the
// CatalogSource's (or ClusterCatalog's) name; Path a catalog file, folder
// or image reference (a path that exists is a path).
type MinorCatalog struct {
	Minor Minor
	Name  string
	Path  string
}

// ParseMinorCatalog reads `NAME@MINOR=PATH|IMAGE`.
func ParseMinorCatalog(s string) (MinorCatalog, error) {
	name, rest, ok := strings.Cut(s, "@")
	minor, path, ok2 := strings.Cut(rest, "=")
	if !ok || !ok2 || name == "" || path == "" {
		return MinorCatalog{}, fmt.Errorf("catalog %q: want NAME@MINOR=PATH or NAME@MINOR=IMAGE (such as community-operators@4.18=index.json)", s)
	}
	m, err := ParseMinor(minor)
	if err != nil {
		return MinorCatalog{}, fmt.Errorf("catalog %q: %w", s, err)
	}
	return MinorCatalog{Minor: m, Name: name, Path: path}, nil
}

// ImagesError lists every catalog image the plan needs and could not
// read (with an offline image source: every image not in its cache),
// before the plan is made.
type ImagesError struct {
	// Images are the references, each with the minors that need it and
	// why it could not be read.
	Images []ImageNeed
}

// ImageNeed is one catalog image the plan needs and could not read.
type ImageNeed struct {
	Image  string
	Minors []Minor
	Err    error
}

// Error returns "catalog image IMAGE, needed at 4.17, 4.18: why" (the
// image not repeated when why names it).
func (n *ImageNeed) Error() string {
	var ms []string
	for _, m := range n.Minors {
		ms = append(ms, m.String())
	}
	if strings.Contains(n.Err.Error(), n.Image) {
		return fmt.Sprintf("needed at %s: %v", strings.Join(ms, ", "), n.Err)
	}
	return fmt.Sprintf("catalog image %s, needed at %s: %v", n.Image, strings.Join(ms, ", "), n.Err)
}

// Unwrap returns why the image could not be read.
func (n *ImageNeed) Unwrap() error { return n.Err }

func (e *ImagesError) Error() string {
	lines := make([]string, len(e.Images))
	for i := range e.Images {
		lines[i] = e.Images[i].Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns one error per image.
func (e *ImagesError) Unwrap() []error {
	out := make([]error, len(e.Images))
	for i := range e.Images {
		out[i] = &e.Images[i]
	}
	return out
}

// Upgrade plans the upgrade of w's cluster (all its namespaces: load the
// world with Input.AllNamespaces) to opts.Target: see [Make]. Each later
// minor's catalogs are w's catalogs, a default CatalogSource's read at
// that minor's index (through opts.Images) unless opts.Catalogs gives
// it. Every image is read before the plan is made, and every one that
// fails is listed in one *ImagesError.
func Upgrade(ctx context.Context, w *sextant.World, opts WorldOptions) (*Plan, error) {
	release, _, _, err := ClusterRelease(w.State, opts.Version)
	if err != nil {
		return nil, err
	}
	path, err := NewPath(release, opts.Target, opts.Via)
	if err != nil {
		return nil, err
	}
	b := &builder{w: w, opts: opts, images: map[string]*imageLoad{}, slots: map[Minor][]slot{}, v1: map[Minor][]slot{}, srcs: map[Minor][]Source{}, first: MinorOf(release),
		last: map[resolver.CatalogKey]slot{}, lastV1: map[string]slot{}, lastSrc: map[resolver.CatalogKey]Source{},
		pulls: map[Minor][]string{}, lastPull: map[resolver.CatalogKey]string{}}
	for _, mc := range opts.Catalogs {
		if mc.Minor.Compare(MinorOf(release)) < 0 || mc.Minor.Compare(opts.Target) > 0 {
			return nil, fmt.Errorf("catalog %s@%s: %s is not on the path from %s to %s", mc.Name, mc.Minor, mc.Minor, MinorOf(release), opts.Target)
		}
		if !b.known(mc.Name) {
			return nil, fmt.Errorf("catalog %s@%s: no catalog of the world, CatalogSource or ClusterCatalog is named %q", mc.Name, mc.Minor, mc.Name)
		}
	}
	minors := []Minor{MinorOf(release)}
	for _, h := range path.Hops {
		minors = append(minors, h.To)
	}
	for _, m := range minors {
		b.plan(m)
	}
	if err := b.load(ctx); err != nil {
		return nil, err
	}
	built := map[Minor]*Catalogs{}
	for _, m := range minors {
		c, err := b.build(ctx, m)
		if err != nil {
			return nil, err
		}
		built[m] = c
	}
	return Make(ctx, w.State, opts.Options, func(ctx context.Context, m Minor, _ *cluster.State) (*Catalogs, error) {
		return built[m], nil
	})
}

// builder reads the catalogs of every minor of a path.
type builder struct {
	w      *sextant.World
	opts   WorldOptions
	images map[string]*imageLoad // by reference
	slots  map[Minor][]slot
	v1     map[Minor][]slot
	srcs   map[Minor][]Source
	first  Minor // the cluster's minor
	// last, lastV1 and lastSrc are each catalog's slot and source at the
	// minor planned last.
	last    map[resolver.CatalogKey]slot
	lastV1  map[string]slot
	lastSrc map[resolver.CatalogKey]Source
	// pulls are the catalog images the cluster's CatalogSources and
	// ClusterCatalogs pull at each minor (a catalog given for a minor
	// stands in for its content, not for its image); lastPull each one's
	// at the minor planned last.
	pulls    map[Minor][]string
	lastPull map[resolver.CatalogKey]string
}

// slot is one catalog at one minor: kept (cat), or read (load).
type slot struct {
	key      resolver.CatalogKey
	priority int
	cluster  *cluster.ClusterCatalog
	cat      *graph.Catalog
	load     *imageLoad
}

// imageLoad is one catalog to read, a file or an image, once whatever the
// minors that need it.
type imageLoad struct {
	ref    string
	given  bool // given with NAME@MINOR=…: a path that exists is a path
	minors []Minor
	cat    *graph.Catalog
	err    error
}

// known reports whether name is a catalog, CatalogSource or ClusterCatalog
// of the world.
func (b *builder) known(name string) bool {
	for _, c := range b.w.Catalogs {
		if c.Key.Name == name {
			return true
		}
	}
	for _, cs := range b.w.State.CatalogSources {
		if cs.Name == name {
			return true
		}
	}
	for _, cc := range b.w.State.ClusterCatalogs {
		if cc.Name == name {
			return true
		}
	}
	return false
}

// given returns the catalog given for name at m.
func (b *builder) given(name string, m Minor) (MinorCatalog, bool) {
	for _, mc := range b.opts.Catalogs {
		if mc.Name == name && mc.Minor == m {
			return mc, true
		}
	}
	return MinorCatalog{}, false
}

// need records that ref is read at m.
func (b *builder) need(ref string, given bool, m Minor) *imageLoad {
	l := b.images[ref]
	if l == nil {
		l = &imageLoad{ref: ref, given: given}
		b.images[ref] = l
	}
	if !slices.Contains(l.minors, m) {
		l.minors = append(l.minors, m)
	}
	return l
}

// plan decides what each catalog is at m; it is called for each minor of
// the path in order. A catalog that does not move at m (not given for m,
// not following the platform's index there) keeps what it served at the
// minor before: a default CatalogSource the release no longer ships keeps
// the last index it followed, a catalog given for an earlier minor stays.
func (b *builder) plan(m Minor) {
	current := m == b.first
	for _, c := range b.w.Catalogs {
		s := slot{key: c.Key, priority: c.Priority, cat: c.Catalog}
		prev, carried := b.last[c.Key]
		if mc, ok := b.given(c.Key.Name, m); ok {
			s.cat, s.load = nil, b.need(mc.Path, true, m)
		} else if !current {
			if cs := catalogSource(b.w.State, c.Key); cs != nil && SourceAt(*cs, m).Kind == SourceFollows {
				s.cat, s.load = nil, b.need(SourceAt(*cs, m).Image, false, m)
			} else if carried {
				s.cat, s.load = prev.cat, prev.load
			}
		}
		b.last[c.Key] = s
		b.slots[m] = append(b.slots[m], s)
	}
	for _, cs := range b.w.State.CatalogSources {
		src := SourceAt(cs, m)
		key := resolver.CatalogKey{Namespace: cs.Namespace, Name: cs.Name}
		pull := src.Image
		if prev, ok := b.lastPull[key]; ok && !current && src.Kind == SourceNoLongerDefault {
			pull = prev
		}
		b.lastPull[key] = pull
		if pull != "" {
			b.pulls[m] = appendOnce(b.pulls[m], pull)
		}
		if mc, ok := b.given(cs.Name, m); ok {
			src.Kind, src.Image, src.Why = SourceGiven, mc.Path, fmt.Sprintf("given for %s", m)
		} else if prev, ok := b.lastSrc[key]; ok && !current && src.Kind != SourceFollows {
			switch {
			case src.Kind == SourceNoLongerDefault:
				src.Image = prev.Image
				if prev.Kind == SourceGiven {
					src.Why += "; it keeps the catalog " + prev.Why
				}
			case prev.Kind == SourceGiven:
				src = prev
				src.Why += ", kept"
			}
		}
		b.lastSrc[key] = src
		b.srcs[m] = append(b.srcs[m], src)
	}
	if b.w.V1 == nil {
		return
	}
	for _, cc := range b.w.V1.Catalogs() {
		cc := cc
		s := slot{cluster: &cc.ClusterCatalog, cat: cc.Content}
		key := resolver.CatalogKey{Name: cc.Name}
		prev, carried := b.lastV1[cc.Name]
		src := Source{Name: cc.Name, Kind: SourceCustom, Image: cc.Image, Why: "a ClusterCatalog whose image is not the platform's index: it keeps its catalog"}
		pull := cc.Image
		if ref, ok := platformImageAt(cc.Image, m); ok {
			pull = ref
		}
		if pull != "" {
			b.pulls[m] = appendOnce(b.pulls[m], pull)
		}
		if mc, ok := b.given(cc.Name, m); ok {
			s.cat, s.load = nil, b.need(mc.Path, true, m)
			src.Kind, src.Image, src.Why = SourceGiven, mc.Path, fmt.Sprintf("given for %s", m)
		} else if ref, ok := platformImageAt(cc.Image, m); ok {
			if !current {
				s.cat, s.load = nil, b.need(ref, false, m)
			}
			src.Kind, src.Image, src.Why = SourceFollows, ref, fmt.Sprintf("a ClusterCatalog of the platform's index: at %s it serves the %s index", m, m)
		} else if carried && !current {
			s.cat, s.load = prev.cat, prev.load
			if p, ok := b.lastSrc[key]; ok && p.Kind == SourceGiven {
				src = p
				src.Why += ", kept"
			}
		}
		b.lastV1[cc.Name] = s
		b.lastSrc[key] = src
		b.v1[m] = append(b.v1[m], s)
		if b.w.State.ClusterCatalog(cc.Name) != nil {
			b.srcs[m] = append(b.srcs[m], src)
		}
	}
}

// platformImageAt returns a ClusterCatalog's image, when it is the
// platform's index at some minor (REGISTRY/redhat/NAME-index:v4.N on a
// platform registry), at minor m.
func platformImageAt(ref string, m Minor) (string, bool) {
	registry, repo, tag, digest := splitImage(ref)
	if !isPlatformRegistry(registry) || !isIndexRepo(repo) || !strings.HasPrefix(tag, "v4.") || digest != "" {
		return "", false
	}
	return fmt.Sprintf("%s/%s:v%s", registry, repo, m), true
}

// load reads every file and image the minors need, files first, and
// lists every image that cannot be read in one *ImagesError.
func (b *builder) load(ctx context.Context) error {
	refs := make([]string, 0, len(b.images))
	for ref := range b.images {
		refs = append(refs, ref)
	}
	slices.Sort(refs)
	loader := graph.Loader{MaxBytes: b.opts.Limits.MaxBytes, MaxBlob: b.opts.Limits.MaxDocument}
	var images []*imageLoad
	var errs []error
	for _, ref := range refs {
		l := b.images[ref]
		if l.given {
			if _, err := os.Stat(ref); err == nil {
				if l.cat, l.err = loader.Load(ctx, ref); l.err != nil {
					errs = append(errs, l.err)
				}
				continue
			}
		}
		images = append(images, l)
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	var failed []ImageNeed
	for _, l := range images {
		if err := ctx.Err(); err != nil {
			return err
		}
		l.cat, l.err = b.readImage(ctx, l)
		if l.err != nil {
			if errCtx(ctx, l.err) {
				return l.err
			}
			failed = append(failed, ImageNeed{Image: l.ref, Minors: l.minors, Err: l.err})
		}
	}
	if len(failed) > 0 {
		return &ImagesError{Images: failed}
	}
	return nil
}

// readImage reads one image: a CatalogSource's spec.image (defaulted as the
// kubelet defaults it), or one given.
func (b *builder) readImage(ctx context.Context, l *imageLoad) (*graph.Catalog, error) {
	if b.opts.Images == nil {
		return nil, errors.New("no image source to read it with")
	}
	parse := b.opts.Images.SpecImage
	if l.given {
		parse = b.opts.Images.ParseImage
	}
	img, err := parse(l.ref)
	if err != nil {
		return nil, err
	}
	cat, _, err := b.opts.Images.LoadImage(ctx, img)
	return cat, err
}

// build makes the resolvers of minor m.
func (b *builder) build(ctx context.Context, m Minor) (*Catalogs, error) {
	opts := b.w.ResolverOptions()
	opts.KubeVersion, opts.OpenShiftVersion = "", ""
	c := &Catalogs{Minor: m, Options: opts, Sources: b.srcs[m], Images: b.pulls[m]}
	for _, s := range b.slots[m] {
		cat := s.cat
		if s.load != nil {
			cat = s.load.cat
		}
		c.Catalogs = append(c.Catalogs, resolver.Catalog{Key: s.key, Priority: s.priority, Catalog: cat})
	}
	r, err := resolver.NewContext(ctx, c.Catalogs, opts)
	if err != nil {
		return nil, err
	}
	c.Resolver = r
	if b.w.V1 == nil {
		return c, nil
	}
	var v1cats []olmv1.Catalog
	for _, s := range b.v1[m] {
		cat := s.cat
		if s.load != nil {
			cat = s.load.cat
		}
		v1cats = append(v1cats, olmv1.Catalog{ClusterCatalog: *s.cluster, Content: cat})
	}
	v1opts := b.w.V1Options()
	v1opts.KubeVersion, v1opts.OpenShiftVersion = "", ""
	if c.V1, err = olmv1.New(v1cats, v1opts); err != nil {
		return nil, err
	}
	return c, nil
}

// catalogSource returns the CatalogSource of catalog key in st, or nil.
func catalogSource(st *cluster.State, key resolver.CatalogKey) *cluster.CatalogSource {
	for i := range st.CatalogSources {
		if cs := &st.CatalogSources[i]; cs.Namespace == key.Namespace && cs.Name == key.Name {
			return cs
		}
	}
	return nil
}

// CheckImages reads, through opts.Images, every catalog image a plan of
// state would read — the spec.image of each CatalogSource whose name no
// catalog given now (given) takes, and at each later minor the index each
// default CatalogSource follows, or the image opts.Catalogs gives — and
// lists every one that cannot be read in one *ImagesError. With an
// offline image source it reaches no registry: it names every image the
// cache lacks before anything else is read (world.Load reads the
// CatalogSources' images one by one and stops at the first).
func CheckImages(ctx context.Context, state *cluster.State, given []string, opts WorldOptions) error {
	release, _, _, err := ClusterRelease(state, opts.Version)
	if err != nil {
		return err
	}
	path, err := NewPath(release, opts.Target, opts.Via)
	if err != nil {
		return err
	}
	b := &builder{opts: opts, images: map[string]*imageLoad{}}
	now := MinorOf(release)
	for _, cs := range state.CatalogSources {
		if cs.Image != "" && !slices.Contains(given, cs.Name) {
			b.need(cs.Image, false, now)
		}
	}
	minors := []Minor{now}
	for _, h := range path.Hops {
		minors = append(minors, h.To)
	}
	for _, m := range minors {
		for _, cs := range state.CatalogSources {
			if mc, ok := b.given(cs.Name, m); ok {
				b.need(mc.Path, true, m)
			} else if src := SourceAt(cs, m); m != now && src.Kind == SourceFollows {
				b.need(src.Image, false, m)
			}
		}
	}
	return b.load(ctx)
}
