package graph

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/blang/semver/v4"
)

// Channel is one olm.channel of a package with its upgrade graph. Build
// computes the graph once; afterwards a Channel is immutable and its methods
// are safe for concurrent use. Slices returned by its methods are freshly
// allocated unless documented otherwise. A Channel value that Build did not
// make (the zero value, or one assembled by hand) has an empty graph: no
// heads, no order and no successors.
type Channel struct {
	Package string
	Name    string
	// Entries in the order the catalog lists them.
	Entries []Entry
	Pos     Position

	entryPos []Position // per entry, where the decoder found it; nil when unknown
	g        chanGraph  // the upgrade graph, computed by Build
}

// EntryPos returns where the entry named name is in the source (the
// first, if the channel lists it twice): its own line and column, in a
// JSON stream (its '{') and in a YAML document (its first key); the
// channel's position for a YAML document in a style the YAML library reads
// in Sextant's stead (flow collections, anchors, tags: its objects are
// located at the document's start), for a channel built in code, and for a
// name that is not an entry.
func (c *Channel) EntryPos(name string) Position {
	i := -1
	if c.g.ids.built() {
		i = c.entryIndex(name)
	} else {
		i = slices.IndexFunc(c.Entries, func(e Entry) bool { return e.Name == name })
	}
	if i >= 0 && i < len(c.entryPos) {
		return c.entryPos[i]
	}
	return c.Pos
}

// Ref returns the channel's identity.
func (c *Channel) Ref() ChannelRef { return ChannelRef{Package: c.Package, Channel: c.Name} }

// Package is one olm.package with its channels and bundles. A package that
// channels or bundles name but no olm.package blob declares exists all the
// same, with a zero Pos and an empty DefaultChannel; Validate reports it.
type Package struct {
	Name           string
	DefaultChannel string
	// Channels sorted by name.
	Channels []*Channel
	// Bundles sorted by name.
	Bundles []*Bundle
	// Deprecations holds the entries of the package's olm.deprecations
	// blobs, in source order.
	Deprecations []Deprecation
	Pos          Position

	declared bool // an olm.package blob declared it
	// keyFindings are the catalog's key findings about the package's blobs.
	keyFindings []Finding
	nch, nb     int        // channel and bundle counts, during Build
	depBlobs    []Position // where its olm.deprecations blobs start
	byVersion   []*Bundle  // bundles with a valid version, by version then name
}

// Declared reports whether an olm.package blob declares the package.
func (p *Package) Declared() bool { return p.declared }

// Channel returns the channel named name, or nil.
func (p *Package) Channel(name string) *Channel {
	i, ok := slices.BinarySearchFunc(p.Channels, name, func(c *Channel, n string) int { return strings.Compare(c.Name, n) })
	if !ok {
		return nil
	}
	return p.Channels[i]
}

// Bundle returns the bundle named name, or nil.
func (p *Package) Bundle(name string) *Bundle {
	if i := p.bundleIndex(name); i >= 0 {
		return p.Bundles[i]
	}
	return nil
}

// bundleIndex returns the index of the bundle named name in p.Bundles, or -1.
func (p *Package) bundleIndex(name string) int {
	i, ok := slices.BinarySearchFunc(p.Bundles, name, func(b *Bundle, n string) int { return strings.Compare(b.Name, n) })
	if !ok {
		return -1
	}
	return i
}

// BundlesWithVersion returns the bundles of the package whose version equals
// v (build metadata ignored, as semver precedence does), sorted by name. The
// slice is shared and must not be modified.
func (p *Package) BundlesWithVersion(v semver.Version) []*Bundle {
	lo, _ := slices.BinarySearchFunc(p.byVersion, v, func(b *Bundle, v semver.Version) int { return b.Version.Compare(v) })
	hi := lo
	for hi < len(p.byVersion) && p.byVersion[hi].Version.Compare(v) == 0 {
		hi++
	}
	if lo == hi {
		return nil
	}
	return p.byVersion[lo:hi:hi]
}

// Default returns the package's default channel, or nil when it
// names no channel of the package.
func (p *Package) Default() *Channel { return p.Channel(p.DefaultChannel) }

// DeprecationsOf returns the olm.deprecations entries of p that refer to
// the object of schema named name: the package itself (SchemaPackage, name
// ""), one of its channels (SchemaChannel) or one of its bundles
// (SchemaBundle). They come in source order; a valid package has at most
// one per reference (Validate reports repeats). Nil when none; the slice
// belongs to the caller.
func (p *Package) DeprecationsOf(schema, name string) []Deprecation {
	var out []Deprecation
	for _, d := range p.Deprecations {
		if d.Reference.Schema == schema && d.Reference.Name == name {
			out = append(out, d)
		}
	}
	return out
}

// Catalog is an indexed, immutable File-Based Catalog. The zero value is an
// empty catalog. A Catalog is safe for concurrent use by many goroutines;
// everything it returns is shared and must not be modified.
type Catalog struct {
	packages  []*Package
	byName    map[string]*Package
	bundles   map[BundleRef]*Bundle
	named     map[string][]*Bundle
	providers map[GVK][]*Bundle
	labels    map[string][]*Bundle
	others    []Meta
	// keyFindings: the keys and schemas of the blobs that opm does not
	// read as written, in source order.
	keyFindings []Finding
}

// Packages returns the packages sorted by name. The slice is shared.
func (c *Catalog) Packages() []*Package { return c.packages }

// Package returns the package named name, or nil.
func (c *Catalog) Package(name string) *Package { return c.byName[name] }

// Bundle returns the bundle ref names, or nil.
func (c *Catalog) Bundle(ref BundleRef) *Bundle { return c.bundles[ref] }

// BundlesNamed returns the bundles named name in any package, sorted by
// package. The slice is shared.
func (c *Catalog) BundlesNamed(name string) []*Bundle { return c.named[name] }

// BundlesWithVersion returns the bundles of package pkg whose version equals
// v, sorted by name; see Package.BundlesWithVersion.
func (c *Catalog) BundlesWithVersion(pkg string, v semver.Version) []*Bundle {
	p := c.byName[pkg]
	if p == nil {
		return nil
	}
	return p.BundlesWithVersion(v)
}

// Providers returns the bundles with an olm.gvk property for g, sorted by
// package then name. The slice is shared.
func (c *Catalog) Providers(g GVK) []*Bundle { return c.providers[g] }

// LabelProviders returns the bundles with an olm.label property for label,
// sorted by package then name. The slice is shared.
func (c *Catalog) LabelProviders(label string) []*Bundle { return c.labels[label] }

// Others returns the blobs of schemas Sextant does not model, in source order.
// The slice is shared.
func (c *Catalog) Others() []Meta { return c.others }

// KeyFindings returns what the catalog's blobs carry that opm does not
// read as written — keys it does not read (CodeUnknownKey), keys it reads
// as another key written in another case (CodeMiscasedKey), blobs of a
// schema it keeps without reading (CodeUnknownSchema) — each at the key's
// position, in source order. Validate reports them among its findings.
// Nil for a catalog built in code. The slice is shared.
func (c *Catalog) KeyFindings() []Finding { return c.keyFindings }

// Severity ranks a finding.
type Severity int

// Severities, least severe first.
const (
	SeverityInfo Severity = iota
	SeverityWarning
	SeverityError
)

// String returns "info", "warning" or "error".
func (s Severity) String() string {
	switch s {
	case SeverityInfo:
		return "info"
	case SeverityWarning:
		return "warning"
	case SeverityError:
		return "error"
	}
	return "severity(" + strconv.Itoa(int(s)) + ")"
}

// MarshalText writes the severity by name ("info", "warning", "error"); a
// value outside the three is an error.
func (s Severity) MarshalText() ([]byte, error) {
	if s < SeverityInfo || s > SeverityError {
		return nil, fmt.Errorf("invalid severity %d", int(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads "info", "warning" or "error".
func (s *Severity) UnmarshalText(b []byte) error {
	for _, v := range [...]Severity{SeverityInfo, SeverityWarning, SeverityError} {
		if string(b) == v.String() {
			*s = v
			return nil
		}
	}
	return fmt.Errorf("invalid severity %q: want info, warning or error", b)
}

// Finding is one problem a check found in a catalog.
type Finding struct {
	Severity Severity
	// Code is stable and kebab-case, e.g. "multiple-heads".
	Code    string
	Package string
	Channel string
	Bundle  string
	// Message says what is wrong on its own: it names the package, channel
	// and bundle it is about.
	Message string
	// Brief says what is wrong in a few words, for a line that shows the
	// finding's package, channel and bundle already: only the facts that
	// set this finding apart (the name a replaces dangles on, the heads of
	// a channel), never its own object's names again. Never empty for a
	// finding of Validate.
	Brief string
	Pos   Position
}

// String returns "severity code package[/channel][ bundle]: message".
func (f Finding) String() string {
	var sb strings.Builder
	sb.WriteString(f.Severity.String())
	sb.WriteByte(' ')
	sb.WriteString(f.Code)
	sb.WriteByte(' ')
	sb.WriteString(f.Package)
	if f.Channel != "" {
		sb.WriteByte('/')
		sb.WriteString(f.Channel)
	}
	if f.Bundle != "" {
		sb.WriteByte(' ')
		sb.WriteString(f.Bundle)
	}
	sb.WriteString(": ")
	sb.WriteString(f.Message)
	return sb.String()
}
