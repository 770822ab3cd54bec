package resolvertest

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

// Catalog builds a catalog in code: packages, their channels and bundles,
// with the properties that matter to resolution. Methods return the
// receiver (or the package or bundle they add) so that calls chain. A
// Catalog is not safe for concurrent use; build it in one goroutine, then
// call Build as often as needed (each call builds a fresh graph.Catalog).
//
// Create one with NewCatalog; the zero value is not usable.
type Catalog struct {
	key      resolver.CatalogKey
	priority int
	pkgs     []*Package
	errs     []error
}

// NewCatalog returns an empty catalog with identity namespace/name and
// priority 0.
func NewCatalog(namespace, name string) *Catalog {
	return &Catalog{key: resolver.CatalogKey{Namespace: namespace, Name: name}}
}

// Key returns the catalog's identity.
func (c *Catalog) Key() resolver.CatalogKey { return c.key }

// Priority sets the catalog's priority (higher is preferred). A
// CatalogSource of the same identity in the cluster state overrides it.
func (c *Catalog) Priority(p int) *Catalog {
	c.priority = p
	return c
}

// Package adds an olm.package with its default channel and returns it. A
// second call with the same name returns the package already added (and
// records an error if the default channel differs).
func (c *Catalog) Package(name, defaultChannel string) *Package {
	for _, p := range c.pkgs {
		if p.name == name {
			if p.def != defaultChannel {
				c.errs = append(c.errs, fmt.Errorf("package %q added twice with default channels %q and %q", name, p.def, defaultChannel))
			}
			return p
		}
	}
	p := &Package{cat: c, name: name, def: defaultChannel}
	c.pkgs = append(c.pkgs, p)
	return p
}

// Build returns the catalog as a resolver sees it. It fails on a
// malformed property value or skipRange, or on duplicate channels or
// bundles, naming them.
func (c *Catalog) Build() (resolver.Catalog, error) {
	errs := slices.Clone(c.errs)
	b := graph.NewBuilder()
	for _, p := range c.pkgs {
		b.AddPackage(p.name, p.def)
		entries, err := p.entries()
		errs = append(errs, err...)
		for _, ch := range p.Channels() {
			b.AddChannel(p.name, ch, entries[ch]...)
		}
		for _, bd := range p.bundles {
			if err := b.AddBundle(bd.name, p.name, "example.com/bundles/"+bd.name, bd.properties()...); err != nil {
				errs = append(errs, err)
			}
		}
		if len(p.deprecations) > 0 {
			b.AddDeprecations(p.name, p.deprecations...)
		}
	}
	gc, err := b.Build()
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return resolver.Catalog{}, fmt.Errorf("catalog %s: %w", c.key, errors.Join(errs...))
	}
	return resolver.Catalog{Key: c.key, Priority: c.priority, Catalog: gc}, nil
}

// MustBuild is Build for tests: it reports an error with t.Fatal.
func (c *Catalog) MustBuild(t testing.TB) resolver.Catalog {
	t.Helper()
	rc, err := c.Build()
	if err != nil {
		t.Fatal(err)
	}
	return rc
}

// NewResolver builds the catalogs and returns a resolver over them with
// opts as they are: unlike a Case, it adds no cel evaluator. It reports a
// catalog that does not build, or a resolver that cannot be created, with
// t.Fatal.
func NewResolver(t testing.TB, opts resolver.Options, catalogs ...*Catalog) *resolver.Resolver {
	t.Helper()
	rcs := make([]resolver.Catalog, 0, len(catalogs))
	for _, c := range catalogs {
		rcs = append(rcs, c.MustBuild(t))
	}
	r, err := resolver.New(rcs, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Packages returns the catalog's packages in the order they were added.
func (c *Catalog) Packages() []*Package { return slices.Clone(c.pkgs) }

// Lookup returns the package named name added by Package, or nil.
func (c *Catalog) Lookup(name string) *Package {
	for _, p := range c.pkgs {
		if p.name == name {
			return p
		}
	}
	return nil
}

// Package is a package of a Catalog under construction.
type Package struct {
	cat          *Catalog
	name         string
	def          string
	channels     []*channel
	bundles      []*Bundle
	deprecations []graph.Deprecation
}

type channel struct {
	name    string
	entries []graph.Entry
}

// Catalog returns the catalog the package belongs to.
func (p *Package) Catalog() *Catalog { return p.cat }

// Name returns the package name.
func (p *Package) Name() string { return p.name }

// Channel declares a channel of the package with explicit entries, for
// channels whose edges differ from the bundles' own (see Bundle.In). The
// entries are appended to those the bundles add. A channel declared with
// no entries and no bundle is an empty channel.
func (p *Package) Channel(name string, entries ...graph.Entry) *Package {
	for _, ch := range p.channels {
		if ch.name == name {
			ch.entries = append(ch.entries, entries...)
			return p
		}
	}
	p.channels = append(p.channels, &channel{name: name, entries: entries})
	return p
}

// Bundle adds an olm.bundle of the package with its version (the
// olm.package property) and returns it. Unless Bundle.In names channels, it
// is an entry of the package's default channel. Each call adds a bundle:
// use Lookup to find one added before.
func (p *Package) Bundle(name, version string) *Bundle {
	b := &Bundle{pkg: p, name: name, version: version}
	p.bundles = append(p.bundles, b)
	return b
}

// Lookup returns the bundle named name added by Bundle, or nil.
func (p *Package) Lookup(name string) *Bundle {
	for _, b := range p.bundles {
		if b.name == name {
			return b
		}
	}
	return nil
}

// Bundles returns the package's bundles in the order they were added.
func (p *Package) Bundles() []*Bundle { return slices.Clone(p.bundles) }

// Channels returns the names of the package's channels in the order Build
// adds them: those declared by Channel, then those its bundles are in
// (Bundle.In, or the default channel), as each first appears.
func (p *Package) Channels() []string {
	var names []string
	add := func(ch string) {
		if !slices.Contains(names, ch) {
			names = append(names, ch)
		}
	}
	for _, ch := range p.channels {
		add(ch.name)
	}
	for _, b := range p.bundles {
		for _, ch := range b.channelNames() {
			add(ch)
		}
	}
	return names
}

// entries returns the entries of each channel: those given to Channel,
// then one per bundle in it, with the bundle's edges. It returns an error
// for each skipRange that does not parse.
func (p *Package) entries() (map[string][]graph.Entry, []error) {
	out := map[string][]graph.Entry{}
	var errs []error
	for _, ch := range p.channels {
		out[ch.name] = append(out[ch.name], ch.entries...)
	}
	for _, b := range p.bundles {
		var skipRange graph.Range
		if b.skipRange != "" {
			r, err := graph.ParseRange(b.skipRange)
			if err != nil {
				errs = append(errs, fmt.Errorf("bundle %q of package %q: skipRange: %w", b.name, p.name, err))
			}
			skipRange = r
		}
		for _, ch := range b.channelNames() {
			out[ch] = append(out[ch], graph.Entry{Name: b.name, Replaces: b.replaces, Skips: slices.Clone(b.skips), SkipRange: skipRange})
		}
	}
	return out, errs
}

// DeprecatePackage adds an olm.deprecations entry for the whole package.
func (p *Package) DeprecatePackage(message string) *Package {
	p.deprecations = append(p.deprecations, graph.Deprecation{Reference: graph.DeprecationRef{Schema: graph.SchemaPackage}, Message: message})
	return p
}

// DeprecateChannel adds an olm.deprecations entry for a channel.
func (p *Package) DeprecateChannel(channel, message string) *Package {
	p.deprecations = append(p.deprecations, graph.Deprecation{Reference: graph.DeprecationRef{Schema: graph.SchemaChannel, Name: channel}, Message: message})
	return p
}

// DeprecateBundle adds an olm.deprecations entry for a bundle.
func (p *Package) DeprecateBundle(bundle, message string) *Package {
	p.deprecations = append(p.deprecations, graph.Deprecation{Reference: graph.DeprecationRef{Schema: graph.SchemaBundle, Name: bundle}, Message: message})
	return p
}

// Bundle is a bundle of a Package under construction. Its upgrade edges
// (Replaces, Skips, SkipRange) apply to its entry in every channel it is
// in.
type Bundle struct {
	pkg       *Package
	name      string
	version   string
	channels  []string
	replaces  string
	skips     []string
	skipRange string
	props     []graph.Property
}

// Name returns the bundle name.
func (b *Bundle) Name() string { return b.name }

// Version returns the bundle's version, as given to Package.Bundle.
func (b *Bundle) Version() string { return b.version }

// Package returns the package the bundle belongs to.
func (b *Bundle) Package() *Package { return b.pkg }

// channelNames returns the channels the bundle is an entry of: those In
// named, or the package's default channel.
func (b *Bundle) channelNames() []string {
	if len(b.channels) == 0 {
		return []string{b.pkg.def}
	}
	return b.channels
}

// In makes the bundle an entry of the named channels (instead of the
// default channel).
func (b *Bundle) In(channels ...string) *Bundle {
	b.channels = append(b.channels, channels...)
	return b
}

// Replaces sets the entries' replaces edge.
func (b *Bundle) Replaces(name string) *Bundle {
	b.replaces = name
	return b
}

// Skips adds names to the entries' skips.
func (b *Bundle) Skips(names ...string) *Bundle {
	b.skips = append(b.skips, names...)
	return b
}

// SkipRange sets the entries' skipRange (blang/semver syntax).
func (b *Bundle) SkipRange(r string) *Bundle {
	b.skipRange = r
	return b
}

// Provides adds an olm.gvk property.
func (b *Bundle) Provides(group, version, kind string) *Bundle {
	return b.With(graph.GVKProperty(graph.GVK{Group: group, Version: version, Kind: kind}))
}

// RequiresGVK adds an olm.gvk.required property.
func (b *Bundle) RequiresGVK(group, version, kind string) *Bundle {
	return b.With(graph.RequiredGVKProperty(graph.GVK{Group: group, Version: version, Kind: kind}))
}

// RequiresPackage adds an olm.package.required property.
func (b *Bundle) RequiresPackage(pkg, versionRange string) *Bundle {
	return b.With(graph.RequiredPackageProperty(pkg, versionRange))
}

// Label adds an olm.label property.
func (b *Bundle) Label(label string) *Bundle {
	return b.With(graph.LabelProperty(label))
}

// RequiresLabel adds an olm.label.required property.
func (b *Bundle) RequiresLabel(label string) *Bundle {
	return b.With(graph.RequiredLabelProperty(label))
}

// Constraint adds an olm.constraint property whose value is the JSON
// object given, e.g.
//
//	{"failureMessage": "needs etcd", "package": {"packageName": "etcd", "versionRange": ">=1.0.0"}}
func (b *Bundle) Constraint(value string) *Bundle {
	return b.Property(graph.TypeConstraint, value)
}

// Deprecated adds the olm.deprecated property: the bundle is never
// selected.
func (b *Bundle) Deprecated() *Bundle {
	return b.With(graph.DeprecatedProperty())
}

// CSVMetadata adds an olm.csv.metadata property with the install modes
// given supported (the other three of OLM's four listed as not supported)
// and, when not empty, minKubeVersion.
func (b *Bundle) CSVMetadata(minKubeVersion string, supported ...graph.InstallModeType) *Bundle {
	v := map[string]any{"installModes": installModes(supported)}
	if minKubeVersion != "" {
		v["minKubeVersion"] = minKubeVersion
	}
	data, err := json.Marshal(v)
	if err != nil {
		panic(err) // a map of strings and install modes always marshals
	}
	return b.With(graph.Property{Type: graph.TypeCSVMetadata, Value: data})
}

// Property adds a property of any type with its JSON value.
func (b *Bundle) Property(typ, value string) *Bundle {
	return b.With(graph.Property{Type: typ, Value: []byte(value)})
}

// With adds properties as they are. The bundle keeps them.
func (b *Bundle) With(props ...graph.Property) *Bundle {
	b.props = append(b.props, props...)
	return b
}

// DropProperties removes the properties for which drop returns true (never
// the olm.package property, which the bundle's version gives): to build a
// variant of a catalog without one requirement, say.
func (b *Bundle) DropProperties(drop func(graph.Property) bool) *Bundle {
	b.props = slices.DeleteFunc(b.props, drop)
	return b
}

// properties returns the bundle's properties as a catalog states them: the
// olm.package property first.
func (b *Bundle) properties() []graph.Property {
	out := []graph.Property{graph.PackageProperty(b.pkg.name, b.version)}
	for _, p := range b.props {
		out = append(out, graph.Property{Type: p.Type, Value: slices.Clone(p.Value)})
	}
	return out
}
