package graph

import (
	"github.com/blang/semver/v4"
)

// CONTRACT FILE: the signatures below are the API other packages build on.
// Bodies marked "not implemented" are filled in by the graph work; the
// signatures and documented semantics must stay.

// Channel is one olm.channel of a package with its upgrade graph.
type Channel struct {
	Package string
	Name    string
	// Entries in the order the catalog lists them.
	Entries []Entry
	Pos     Position
}

// Ref returns the channel's identity.
func (c *Channel) Ref() ChannelRef { return ChannelRef{Package: c.Package, Channel: c.Name} }

// Entry returns the entry named name.
func (c *Channel) Entry(name string) (Entry, bool) { panic("not implemented") }

// Heads returns the entries that no other entry of the channel replaces or
// skips, sorted by name. A sound channel has exactly one.
func (c *Channel) Heads() []string { panic("not implemented") }

// Head returns the channel's single head; ok is false when there is none or
// there are several.
func (c *Channel) Head() (name string, ok bool) { panic("not implemented") }

// Chain returns the replacement chain: the head, the entry it replaces, and
// so on along replaces, head first. It stops at an entry missing from the
// channel or at a cycle. Nil when the channel has no single head.
func (c *Channel) Chain() []string { panic("not implemented") }

// Order returns every entry of the channel in preference order: the Chain
// first, then the remaining entries by descending version, then name. This
// is the "position in the channel, head first" of resolution.
func (c *Channel) Order() []string { panic("not implemented") }

// Position returns the index of name in Order, or -1.
func (c *Channel) Position(name string) int { panic("not implemented") }

// IsSkipped reports whether some entry of the channel lists name in its
// skips. Skipped entries are never resolution candidates.
func (c *Channel) IsSkipped(name string) bool { panic("not implemented") }

// Successors returns the direct successors of a bundle named name at version
// v — which need not be an entry of the channel (an installed CSV): entries
// that replace name, list it in skips, or whose valid skipRange contains v.
// name itself is excluded. The result is in Order.
func (c *Channel) Successors(name string, v semver.Version) []string { panic("not implemented") }

// Reachable returns every entry reachable from name along successor edges
// (excluding name), in Order.
func (c *Channel) Reachable(name string) []string { panic("not implemented") }

// ShortestPath returns the fewest-hop upgrade path from one entry to
// another, both included; ties are broken by taking successors in Order.
// ok is false when to is not reachable from from.
func (c *Channel) ShortestPath(from, to string) (path []string, ok bool) { panic("not implemented") }

// Package is one olm.package with its channels and bundles.
type Package struct {
	Name           string
	DefaultChannel string
	// Channels sorted by name.
	Channels []*Channel
	// Bundles sorted by name.
	Bundles      []*Bundle
	Deprecations []Deprecation
	Pos          Position
}

// Channel returns the channel named name, or nil.
func (p *Package) Channel(name string) *Channel { panic("not implemented") }

// Bundle returns the bundle named name, or nil.
func (p *Package) Bundle(name string) *Bundle { panic("not implemented") }

// Catalog is an indexed, immutable File-Based Catalog.
type Catalog struct{}

// Packages returns the packages sorted by name.
func (c *Catalog) Packages() []*Package { panic("not implemented") }

// Package returns the package named name, or nil.
func (c *Catalog) Package(name string) *Package { panic("not implemented") }

// Bundle returns the bundle ref names, or nil.
func (c *Catalog) Bundle(ref BundleRef) *Bundle { panic("not implemented") }

// BundlesNamed returns the bundles named name in any package, sorted by
// package.
func (c *Catalog) BundlesNamed(name string) []*Bundle { panic("not implemented") }

// Providers returns the bundles with an olm.gvk property for g, sorted by
// package then name.
func (c *Catalog) Providers(g GVK) []*Bundle { panic("not implemented") }

// LabelProviders returns the bundles with an olm.label property for label,
// sorted by package then name.
func (c *Catalog) LabelProviders(label string) []*Bundle { panic("not implemented") }

// Others returns the blobs of schemas Sextant does not model, in source order.
func (c *Catalog) Others() []Meta { panic("not implemented") }

// Builder assembles a catalog in code. The zero value is not usable; call
// NewBuilder.
type Builder struct{}

// NewBuilder returns an empty builder.
func NewBuilder() *Builder { panic("not implemented") }

// AddPackage adds an olm.package.
func (b *Builder) AddPackage(name, defaultChannel string) { panic("not implemented") }

// AddChannel adds an olm.channel.
func (b *Builder) AddChannel(pkg, name string, entries ...Entry) { panic("not implemented") }

// AddBundle adds an olm.bundle; its typed fields are derived from props.
// It fails when a property value of a known type is malformed.
func (b *Builder) AddBundle(name, pkg, image string, props ...Property) error {
	panic("not implemented")
}

// AddDeprecations adds an olm.deprecations blob's entries for pkg.
func (b *Builder) AddDeprecations(pkg string, ds ...Deprecation) { panic("not implemented") }

// Build indexes what was added into a Catalog. It fails only on input that
// cannot form a model (such as two bundles of one name in one package);
// everything else is reported by Validate.
func (b *Builder) Build() (*Catalog, error) { panic("not implemented") }

// Severity ranks a finding.
type Severity int

// Severities, least severe first.
const (
	SeverityInfo Severity = iota
	SeverityWarning
	SeverityError
)

// Finding is one problem a check found in a catalog.
type Finding struct {
	Severity Severity
	// Code is stable and kebab-case, e.g. "multiple-heads".
	Code    string
	Package string
	Channel string
	Bundle  string
	Message string
	Pos     Position
}

// Validate runs the structural checks and returns their findings sorted by
// package, channel, bundle, code.
func (c *Catalog) Validate() []Finding { panic("not implemented") }
