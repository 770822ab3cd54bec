package graph

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Builder assembles a catalog in code, or from a decoder. The zero value is
// an empty builder ready to use, as NewBuilder's is. A Builder is not safe
// for concurrent use, and it must not be used after Build.
type Builder struct {
	packages []*Package
	channels []*Channel
	bundles  []*Bundle
	deps     []deprecationBlob
	others   []Meta
	// keyFindings are the decoder's: keys and schemas opm does not read
	// as written, in source order.
	keyFindings []Finding

	// slab hands out Bundles in chunks, so that a large catalog does not
	// pay one allocation per bundle.
	slab []Bundle
	// chanSlab does the same for channels.
	chanSlab []Channel
	built    bool

	// in interns the strings of property values and parsed ranges for
	// this builder's catalog; nil until the first bundle.
	in *interner
	// ctx, when set (by a Loader), stops Build early once done.
	ctx context.Context
}

// deprecationBlob is one olm.deprecations blob as added.
type deprecationBlob struct {
	pkg     string
	entries []Deprecation
	pos     Position
}

// NewBuilder returns an empty builder.
func NewBuilder() *Builder { return &Builder{} }

// Grow tells the builder how many bundles and channels to expect, so that it
// allocates once. It is only a hint.
func (b *Builder) Grow(bundles, channels int) {
	if bundles > 0 && cap(b.bundles)-len(b.bundles) < bundles {
		b.bundles = slices.Grow(b.bundles, bundles)
		b.slab = make([]Bundle, 0, bundles)
	}
	if channels > 0 && cap(b.channels)-len(b.channels) < channels {
		b.channels = slices.Grow(b.channels, channels)
		b.chanSlab = make([]Channel, 0, channels)
	}
}

// AddPackage adds an olm.package.
func (b *Builder) AddPackage(name, defaultChannel string) {
	b.addPackage(Position{}, name, defaultChannel)
}

// AddChannel adds an olm.channel. The builder keeps entries; the caller must
// not modify them afterwards.
func (b *Builder) AddChannel(pkg, name string, entries ...Entry) {
	b.addChannel(Position{}, pkg, name, entries, nil)
}

// AddBundle adds an olm.bundle; its typed fields are derived from props.
// It fails when a property value of a known type is malformed; the bundle is
// added all the same (with the properties that could be read), so that Build
// and Validate still see it. The builder keeps props; the caller must not
// modify them afterwards.
func (b *Builder) AddBundle(name, pkg, image string, props ...Property) error {
	if err := b.addBundle(Position{}, name, pkg, image, props); err != nil {
		return fmt.Errorf("bundle %q of package %q: %w", name, pkg, err)
	}
	return nil
}

// AddDeprecations adds an olm.deprecations blob's entries for pkg. A package
// should have at most one such blob; Validate reports more.
func (b *Builder) AddDeprecations(pkg string, ds ...Deprecation) {
	b.addDeprecations(Position{}, pkg, ds)
}

// AddMeta adds a blob of a schema Sextant does not model. It is kept and
// returned by Catalog.Others.
func (b *Builder) AddMeta(m Meta) { b.addMeta(m) }

// addPackage adds an olm.package blob found at pos.
func (b *Builder) addPackage(pos Position, name, defaultChannel string) {
	b.packages = append(b.packages, &Package{
		Name:           name,
		DefaultChannel: defaultChannel,
		Pos:            pos,
		declared:       true,
	})
}

// addChannel adds an olm.channel blob found at pos.
func (b *Builder) addChannel(pos Position, pkg, name string, entries []Entry, entryPos []Position) {
	if len(b.chanSlab) == cap(b.chanSlab) {
		b.chanSlab = make([]Channel, 0, 64)
	}
	b.chanSlab = append(b.chanSlab, Channel{Package: pkg, Name: name, Entries: entries, Pos: pos, entryPos: entryPos})
	b.channels = append(b.channels, &b.chanSlab[len(b.chanSlab)-1])
}

// addBundle adds an olm.bundle blob found at pos and derives its typed fields
// from props. On a malformed property it still adds the bundle and returns
// the error, which does not name the bundle: the caller does.
func (b *Builder) addBundle(pos Position, name, pkg, image string, props []Property) error {
	if len(b.slab) == cap(b.slab) {
		b.slab = make([]Bundle, 0, 256)
	}
	b.slab = append(b.slab, Bundle{Name: name, Package: pkg, Image: image, Pos: pos})
	bd := &b.slab[len(b.slab)-1]
	b.bundles = append(b.bundles, bd)
	if b.in == nil {
		b.in = newInterner()
	}
	applyProperties(bd, props, b.in)
	return bd.propErr
}

// newBundle adds an olm.bundle blob found at pos without typing its
// properties: the caller has applyProperties run on it (with b.in) before
// Build.
func (b *Builder) newBundle(pos Position, name, pkg, image string, props []Property) *Bundle {
	if len(b.slab) == cap(b.slab) {
		b.slab = make([]Bundle, 0, 256)
	}
	b.slab = append(b.slab, Bundle{Name: name, Package: pkg, Image: image, Pos: pos, Properties: props})
	bd := &b.slab[len(b.slab)-1]
	b.bundles = append(b.bundles, bd)
	return bd
}

// addDeprecations adds an olm.deprecations blob found at pos.
func (b *Builder) addDeprecations(pos Position, pkg string, ds []Deprecation) {
	b.deps = append(b.deps, deprecationBlob{pkg: pkg, entries: ds, pos: pos})
}

// addMeta adds a blob of an unmodelled schema.
func (b *Builder) addMeta(m Meta) { b.others = append(b.others, m) }

// DuplicateError reports objects that cannot form a model because their
// identities collide: two olm.package blobs with one name, two channels or
// two bundles with one name in one package. Build joins one DuplicateError
// per collision.
type DuplicateError struct {
	Schema  string // SchemaPackage, SchemaChannel or SchemaBundle
	Package string
	Name    string // the channel or bundle name; empty for olm.package
	First   Position
	Second  Position
}

// Error implements error. Positions are left out when unknown (a catalog
// built in code).
func (e *DuplicateError) Error() string {
	var what string
	switch e.Schema {
	case SchemaPackage:
		what = fmt.Sprintf("duplicate olm.package %q", e.Package)
	case SchemaChannel:
		what = fmt.Sprintf("package %q: duplicate channel %q", e.Package, e.Name)
	default:
		what = fmt.Sprintf("package %q: duplicate bundle %q", e.Package, e.Name)
	}
	if e.First == (Position{}) && e.Second == (Position{}) {
		return what
	}
	return fmt.Sprintf("%s at %s (first at %s)", what, e.Second, e.First)
}

// Build indexes what was added into a Catalog. It fails only on input that
// cannot form a model — two olm.package blobs with one name, two channels or
// two bundles with one name in one package — and then reports every such
// collision, each a *DuplicateError, joined. Channels, bundles and
// deprecations of a package with no olm.package blob get an implicit package
// (zero Pos) that Validate reports. Everything else is reported by Validate.
func (b *Builder) Build() (*Catalog, error) {
	if b.built {
		return nil, errors.New("graph: Builder.Build called twice")
	}
	b.built = true
	c := &Catalog{
		byName: make(map[string]*Package, len(b.packages)),
		others: b.others,
	}
	errs := b.collectPackages(c)
	b.distribute(c)
	c.bundles = make(map[BundleRef]*Bundle, len(b.bundles))
	ar, chanNames := b.channelStorage()
	var counts []int32
	for _, p := range c.packages {
		errs = p.dropDuplicates(errs)
		if len(errs) > 0 {
			continue
		}
		if b.ctx != nil && b.ctx.Err() != nil {
			return nil, b.ctx.Err()
		}
		p.index()
		for _, ch := range p.Channels {
			ch.build(p, &ar)
		}
		chanNames, counts = p.listBundleChannels(chanNames, counts)
		for _, bd := range p.Bundles {
			c.bundles[bd.Ref()] = bd
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	c.invertIndexes(b.bundles)
	return c, nil
}

// collectPackages fills c's packages, sorted by name: the olm.package blobs
// added (a second blob with one name is a *DuplicateError, returned) and an
// implicit package for every name that only channels, bundles or
// deprecations mention. It counts each package's channels and bundles.
func (b *Builder) collectPackages(c *Catalog) (errs []error) {
	for _, p := range b.packages {
		if q := c.byName[p.Name]; q != nil {
			errs = append(errs, &DuplicateError{Schema: SchemaPackage, Package: p.Name, First: q.Pos, Second: p.Pos})
			continue
		}
		c.byName[p.Name] = p
		c.packages = append(c.packages, p)
	}
	pkgOf := func(name string) *Package {
		if p := c.byName[name]; p != nil {
			return p
		}
		p := &Package{Name: name}
		c.byName[name] = p
		c.packages = append(c.packages, p)
		return p
	}
	for _, ch := range b.channels {
		pkgOf(ch.Package).nch++
	}
	for _, bd := range b.bundles {
		pkgOf(bd.Package).nb++
	}
	for _, d := range b.deps {
		pkgOf(d.pkg)
	}
	slices.SortFunc(c.packages, func(x, y *Package) int { return strings.Compare(x.Name, y.Name) })
	return errs
}

// distribute hands the channels, bundles and deprecations added to their
// packages, in the order added. Each package's channels and bundles are
// carved from one shared backing array per kind.
func (b *Builder) distribute(c *Catalog) {
	chanBack := make([]*Channel, len(b.channels))
	bundleBack := make([]*Bundle, len(b.bundles))
	off, boff := 0, 0
	for _, p := range c.packages {
		p.Channels = chanBack[off : off : off+p.nch]
		off += p.nch
		p.Bundles = bundleBack[boff : boff : boff+p.nb]
		boff += p.nb
	}
	for _, ch := range b.channels {
		p := c.byName[ch.Package]
		p.Channels = append(p.Channels, ch)
	}
	for _, bd := range b.bundles {
		p := c.byName[bd.Package]
		p.Bundles = append(p.Bundles, bd)
	}
	for _, d := range b.deps {
		p := c.byName[d.pkg]
		p.Deprecations = append(p.Deprecations, d.entries...)
		p.depBlobs = append(p.depBlobs, d.pos)
	}
	c.keyFindings = b.keyFindings
	for _, f := range b.keyFindings {
		if p := c.byName[f.Package]; p != nil {
			p.keyFindings = append(p.keyFindings, f)
		}
	}
}

// channelStorage returns the arena for every channel graph of the catalog
// and an empty slice with room for every entry's channel name (the backing
// array of Bundle.Channels).
func (b *Builder) channelStorage() (arena, []string) {
	nEntries, nEdges := 0, 0
	for _, ch := range b.channels {
		nEntries += len(ch.Entries)
		for i := range ch.Entries {
			nEdges += len(ch.Entries[i].Skips)
			if ch.Entries[i].Replaces != "" {
				nEdges++
			}
		}
	}
	return newArena(len(b.channels), nEntries, nEdges), make([]string, 0, nEntries)
}

// dropDuplicates sorts the package's channels and bundles by name and drops
// the second of two with one name, appending a *DuplicateError for each to
// errs.
func (p *Package) dropDuplicates(errs []error) []error {
	// Stable sorts keep the first of two duplicates first, so the
	// error and the model both name the first one added.
	slices.SortStableFunc(p.Channels, func(x, y *Channel) int { return strings.Compare(x.Name, y.Name) })
	slices.SortStableFunc(p.Bundles, func(x, y *Bundle) int { return strings.Compare(x.Name, y.Name) })
	p.Channels = dedupe(p.Channels, func(x *Channel) string { return x.Name }, func(first, dup *Channel) {
		errs = append(errs, &DuplicateError{Schema: SchemaChannel, Package: p.Name, Name: dup.Name, First: first.Pos, Second: dup.Pos})
	})
	p.Bundles = dedupe(p.Bundles, func(x *Bundle) string { return x.Name }, func(first, dup *Bundle) {
		errs = append(errs, &DuplicateError{Schema: SchemaBundle, Package: p.Name, Name: dup.Name, First: first.Pos, Second: dup.Pos})
	})
	return errs
}

// listBundleChannels fills Bundle.Channels for the package's bundles, once
// its channel graphs are built. Channels are sorted, so appending in
// channel order keeps every list sorted. The lists are carved from
// chanNames, which it returns grown; counts is scratch space, returned for
// reuse.
func (p *Package) listBundleChannels(chanNames []string, counts []int32) ([]string, []int32) {
	counts = slices.Grow(counts[:0], len(p.Bundles))[:len(p.Bundles)]
	clear(counts)
	for _, ch := range p.Channels {
		for _, bi := range ch.g.bundle {
			if bi >= 0 {
				counts[bi]++
			}
		}
	}
	for i, bd := range p.Bundles {
		if n := int(counts[i]); n > 0 {
			bd.Channels = chanNames[len(chanNames) : len(chanNames) : len(chanNames)+n]
			chanNames = chanNames[:len(chanNames)+n]
		}
	}
	for _, ch := range p.Channels {
		for _, bi := range ch.g.bundle {
			if bi >= 0 {
				bd := p.Bundles[bi]
				bd.Channels = append(bd.Channels, ch.Name)
			}
		}
	}
	return chanNames, counts
}

// invertIndexes builds the catalog's lookups by bundle name, provided API
// and label. Packages and their bundles are sorted, so every inverted list
// is sorted by package then name. bundles are all the bundles added.
func (c *Catalog) invertIndexes(bundles []*Bundle) {
	c.named = invert(c.packages, len(bundles), len(bundles), func(bd *Bundle, yield func(string)) { yield(bd.Name) })
	nProvides, nLabels := 0, 0
	for _, bd := range bundles {
		nProvides += len(bd.Provides)
		nLabels += len(bd.Labels)
	}
	c.providers = invert(c.packages, nProvides, nProvides/16, func(bd *Bundle, yield func(GVK)) {
		for _, g := range bd.Provides {
			yield(g)
		}
	})
	c.labels = invert(c.packages, nLabels, 0, func(bd *Bundle, yield func(string)) {
		for _, l := range bd.Labels {
			yield(l)
		}
	})
}

// invert maps each key that keys yields for some bundle to the bundles that
// yield it, in package then bundle order, each bundle once per key. The
// lists share one backing array; there is one map operation per key
// occurrence plus one per distinct key. hint is the expected number of
// occurrences, distinctHint of distinct keys (0: unknown).
func invert[K comparable](pkgs []*Package, hint, distinctHint int, keys func(*Bundle, func(K))) map[K][]*Bundle {
	ids := make(map[K]int32, distinctHint)
	var distinct []K
	var counts []int32
	occ := make([]int32, 0, hint)
	count := func(k K) {
		id, ok := ids[k]
		if !ok {
			id = int32(len(distinct))
			ids[k] = id
			distinct = append(distinct, k)
			counts = append(counts, 0)
		}
		counts[id]++
		occ = append(occ, id)
	}
	for _, p := range pkgs {
		for _, bd := range p.Bundles {
			keys(bd, count)
		}
	}
	if len(distinct) == 0 {
		return nil
	}
	// Offsets, then fill; a bundle yielding one key twice is listed once.
	back := make([]*Bundle, len(occ))
	next := counts // reuse as fill cursors
	off := int32(0)
	for id, n := range counts {
		next[id] = off
		off += n
	}
	startOf := slices.Clone(next)
	i := 0
	var cur *Bundle
	fill := func(K) {
		id := occ[i]
		i++
		if at := next[id]; at > startOf[id] && back[at-1] == cur {
			return
		}
		back[next[id]] = cur
		next[id]++
	}
	for _, p := range pkgs {
		for _, bd := range p.Bundles {
			cur = bd
			keys(bd, fill)
		}
	}
	out := make(map[K][]*Bundle, len(distinct))
	for id, k := range distinct {
		out[k] = back[startOf[id]:next[id]:next[id]]
	}
	return out
}

// dedupe removes from a sorted slice the elements whose key equals the
// previous one's, calling dup for each.
func dedupe[T any](s []T, key func(T) string, dup func(first, dup T)) []T {
	if len(s) < 2 {
		return s
	}
	out := s[:1]
	for _, x := range s[1:] {
		last := out[len(out)-1]
		if key(x) == key(last) {
			dup(last, x)
			continue
		}
		out = append(out, x)
	}
	return out
}

// index prepares the package's lookups: bundles by version.
func (p *Package) index() {
	p.byVersion = make([]*Bundle, 0, len(p.Bundles))
	for _, bd := range p.Bundles {
		if bd.versionOK {
			p.byVersion = append(p.byVersion, bd)
		}
	}
	slices.SortStableFunc(p.byVersion, func(x, y *Bundle) int {
		return cmp.Or(x.Version.Compare(y.Version), strings.Compare(x.Name, y.Name))
	})
}
