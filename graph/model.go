// Package graph is Sextant's catalog model: packages, channels, bundles and
// their properties as File-Based Catalogs (FBC) declare them, the upgrade
// graph of each channel (replaces, skips and skipRange edges) and the
// structural checks a catalog must pass.
//
// A [Catalog] is built once — by decoding FBC with [LoadFile], [LoadDir],
// [LoadFS] or [Decode], or in code with a [Builder] — and is immutable
// afterwards: every method is safe for concurrent use by many goroutines.
// Values returned by a Catalog (packages, channels, bundles and the slices
// they hold) are shared and must not be modified.
//
// # Glossary
//
// The terms of Operator Lifecycle Manager (OLM) catalogs, as this package
// models them:
//
//   - package: an operator, with its channels and bundles ([Package]); its
//     default channel is the one a subscription that names no channel
//     follows.
//   - bundle: one installable version of a package ([Bundle]), with
//     properties: its package and version (olm.package), the APIs it
//     provides (olm.gvk) and its requirements (olm.gvk.required,
//     olm.package.required, olm.label.required, olm.constraint:
//     [Requirement]), the CSV metadata (olm.csv.metadata: [CSVMetadata]).
//   - channel: an upgrade stream of a package ([Channel]): entries, each
//     naming a bundle and the edges that lead to it.
//   - replaces: an entry's one predecessor: a cluster running the replaced
//     bundle may upgrade to the entry. Following replaces from the head
//     gives the replacement chain ([Channel.Chain]).
//   - skips: further predecessors of an entry; a skipped entry is never a
//     resolution candidate itself ([Channel.IsSkipped]).
//   - skipRange: a semver range ([Range]) of versions from which a cluster
//     may upgrade straight to the entry.
//   - edge: one of those three upgrade links, with its kind ([Edge],
//     [Channel.Edges]); the successors of an installed version are the
//     entries it has an edge to ([Channel.Successors]).
//   - head: an entry that no other entry replaces or skips; a sound
//     channel has exactly one, which a new subscription gets first
//     ([Channel.Head]).
//   - deprecation: an olm.deprecations entry that marks a package, channel
//     or bundle as deprecated, with a message ([Deprecation]); the
//     olm.deprecated property instead makes a bundle never selected.
package graph

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/blang/semver/v4"
)

// GVK names a Kubernetes API: group, version and kind. The zero value is no
// API. GVK is comparable and used as a map key.
type GVK struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
}

// Compare orders GVKs by group, version, then kind: -1, 0 or +1.
func (g GVK) Compare(h GVK) int {
	return cmp.Or(strings.Compare(g.Group, h.Group), strings.Compare(g.Version, h.Version), strings.Compare(g.Kind, h.Kind))
}

// String returns "group/version Kind", or "version Kind" for the core group.
func (g GVK) String() string {
	if g.Group == "" {
		return g.Version + " " + g.Kind
	}
	return g.Group + "/" + g.Version + " " + g.Kind
}

// BundleRef identifies a bundle inside one catalog: bundle names are unique
// within a package. BundleRef is comparable and used as a map key.
type BundleRef struct {
	Package string
	Name    string
}

// String returns "package/name".
func (r BundleRef) String() string { return r.Package + "/" + r.Name }

// ChannelRef identifies a channel inside one catalog.
type ChannelRef struct {
	Package string
	Channel string
}

// String returns "package/channel".
func (r ChannelRef) String() string { return r.Package + "/" + r.Channel }

// Range is a semver range such as ">=1.2.0 <2.0.0" that keeps its source text
// next to its parsed form, so it can be printed as the catalog wrote it.
// The zero value is the empty range: it is not valid and contains nothing.
type Range struct {
	text  string
	match semver.Range
}

// ParseRange parses a semver range in blang/semver syntax (the syntax OLM
// uses for skipRange and olm.package.required). Surrounding white space is
// ignored.
func ParseRange(s string) (Range, error) {
	r, err := semver.ParseRange(s)
	if err != nil {
		return Range{text: s}, fmt.Errorf("invalid semver range %q: %w", s, err)
	}
	return Range{text: s, match: r}, nil
}

// String returns the range's source text.
func (r Range) String() string { return r.text }

// Valid reports whether the range parsed.
func (r Range) Valid() bool { return r.match != nil }

// Contains reports whether v is in the range. An invalid range contains
// nothing.
func (r Range) Contains(v semver.Version) bool { return r.match != nil && r.match(v) }

// Position locates an object in its source: the file (empty for a stream
// with no name), the 1-based line, the 1-based column in characters (0 when
// unknown; 1 for a blob of a YAML document, located at the document's
// start), and the byte offset of the object's start.
type Position struct {
	File   string
	Line   int
	Column int
	Offset int64
}

// String returns "file:line", or "offset N" when the line is unknown.
func (p Position) String() string {
	name := p.File
	if name == "" {
		name = "<input>"
	}
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d", name, p.Line)
	}
	return fmt.Sprintf("%s: offset %d", name, p.Offset)
}

// Property is one bundle property exactly as the catalog states it: its type
// and its raw JSON value. Typed views of the properties that matter to
// resolution are on [Bundle]; properties of unknown types are kept here.
type Property struct {
	Type  string
	Value []byte
}

// PackageRequirement is an olm.package.required property (or the package
// part of an olm.constraint): some bundle of Package whose version is in
// Range.
type PackageRequirement struct {
	Package string
	Range   Range
}

// ConstraintKind is the kind of an olm.constraint node.
type ConstraintKind uint8

// The olm.constraint kinds.
const (
	ConstraintPackage ConstraintKind = iota + 1 // package + versionRange
	ConstraintGVK                               // gvk
	ConstraintAll                               // all: every child
	ConstraintAny                               // any: at least one child
	ConstraintNot                               // not: none of the children
	ConstraintCEL                               // cel: a CEL rule (not evaluated)
)

// Constraint is one node of an olm.constraint property. As in OLM, a
// constraint is a predicate over a single bundle; the requirement it
// expresses is "some other selected bundle satisfies it".
type Constraint struct {
	Kind ConstraintKind
	// FailureMessage is the author's message, shown in explanations. Usually
	// set on the root only.
	FailureMessage string
	Package        PackageRequirement // ConstraintPackage
	GVK            GVK                // ConstraintGVK
	Children       []Constraint       // ConstraintAll, ConstraintAny, ConstraintNot
	CEL            string             // ConstraintCEL: the rule's source
}

// Bundle is one olm.bundle: an installable version of a package. Its typed
// fields are derived from its properties when the catalog is built.
type Bundle struct {
	Name    string
	Package string
	Image   string
	// Version is the olm.package property's version, parsed tolerantly
	// (v1.2 → 1.2.0); VersionText is the text as written. When VersionText
	// does not parse, Version is the zero version.
	Version     semver.Version
	VersionText string

	Provides        []GVK                // olm.gvk
	RequiresGVK     []GVK                // olm.gvk.required
	RequiresPackage []PackageRequirement // olm.package.required
	Labels          []string             // olm.label
	RequiresLabel   []string             // olm.label.required
	Constraints     []Constraint         // olm.constraint
	Deprecated      bool                 // olm.deprecated

	// DeclaredPackage is the packageName of the bundle's first olm.package
	// property, "" when it has none or its value is malformed. In a sound
	// catalog it equals Package; Validate reports a mismatch.
	DeclaredPackage string
	// CSVMetadata is the first olm.csv.metadata property; nil when the
	// bundle has none.
	CSVMetadata *CSVMetadata
	// MaxOpenShiftVersion is the olm.maxOpenShiftVersion property; nil
	// when the bundle has none. Its Err says what is wrong with an invalid
	// one (which OLM treats as blocking cluster upgrades).
	MaxOpenShiftVersion *MaxOpenShiftVersion

	// Properties holds every property in source order, of every type.
	Properties []Property
	// RelatedImages are the bundle's relatedImages in source order: the
	// images the operator runs besides its bundle image (its operands), as
	// a disconnected cluster must mirror them.
	RelatedImages []RelatedImage
	// Channels names the channels of the package that list this bundle,
	// sorted.
	Channels []string
	// Pos is where the bundle's blob starts.
	Pos Position

	versionOK  bool  // VersionText parsed
	declaredOK bool  // the first olm.package property's packageName was read
	propErr    error // the malformed properties of known types, joined
}

// Ref returns the bundle's identity within its catalog.
func (b *Bundle) Ref() BundleRef { return BundleRef{Package: b.Package, Name: b.Name} }

// ValidVersion returns the bundle's version and whether it has one: ok is
// false when the bundle has no olm.package version or its text does not
// parse even tolerantly. Every package that compares versions asks this,
// so that a bundle without a valid version is never in a version range, a
// skipRange or a version order anywhere.
func (b *Bundle) ValidVersion() (v semver.Version, ok bool) { return b.Version, b.versionOK }

// PropertyError returns what is wrong with the bundle's properties of known
// types — one error per malformed property ("property 2 (olm.gvk): ..."),
// joined — or nil. The typed fields hold what could be read; Validate
// reports the error as an invalid-property finding.
func (b *Bundle) PropertyError() error { return b.propErr }

// RelatedImage is one entry of an olm.bundle's relatedImages: an image
// reference and its optional name.
type RelatedImage struct {
	Name  string
	Image string
}

// Entry is one entry of a channel: a bundle name and the upgrade edges that
// lead to it.
type Entry struct {
	Name     string
	Replaces string
	Skips    []string
	// SkipRange is the entry's skipRange; the zero Range when it has none.
	// An unparsable skipRange keeps its text and is not Valid.
	SkipRange Range
}

// DeprecationRef is what an olm.deprecations entry refers to.
type DeprecationRef struct {
	Schema string // SchemaPackage, SchemaChannel or SchemaBundle
	Name   string // empty for SchemaPackage
}

// Deprecation is one entry of an olm.deprecations blob.
type Deprecation struct {
	Reference DeprecationRef
	Message   string
}

// Meta is a blob of a schema Sextant does not model: kept, not interpreted.
type Meta struct {
	Schema  string
	Package string
	Name    string
	Blob    []byte
	Pos     Position
}
