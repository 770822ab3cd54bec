package graph

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unsafe"

	"github.com/blang/semver/v4"
	"github.com/sextantdev/sextant/graph/internal/jsonscan"
)

// The property types Sextant interprets. Properties of any other type are
// kept in Bundle.Properties and otherwise ignored.
const (
	TypePackage         = "olm.package"
	TypeGVK             = "olm.gvk"
	TypeGVKRequired     = "olm.gvk.required"
	TypePackageRequired = "olm.package.required"
	TypeLabel           = "olm.label"
	TypeLabelRequired   = "olm.label.required"
	TypeConstraint      = "olm.constraint"
	TypeDeprecated      = "olm.deprecated"
	TypeCSVMetadata     = "olm.csv.metadata"
	TypeMaxOpenShift    = "olm.maxOpenShiftVersion"
)

// ParseProperties derives the typed view of a list of properties found
// outside a catalog — the operatorframework.io/properties annotation of an
// installed CSV, say — exactly as a catalog's bundles get theirs: the
// returned Bundle has Properties set to props and Version, VersionText,
// Provides, RequiresGVK, RequiresPackage, Labels, RequiresLabel,
// Constraints and Deprecated derived from them; Name, Package, Image,
// Channels and Pos are zero. The first olm.package property gives the
// version; properties of unknown types are kept and otherwise ignored.
//
// The Bundle is never nil. When a property of a known type is malformed, the
// error reports every such property ("property 2 (olm.gvk): ...", joined)
// and the Bundle holds what could be read. The Bundle shares props with the
// caller, and its strings share the memory of the values (no copy of a long
// list's names): neither ParseProperties nor the Bundle modifies them, and
// the caller must not modify props or the bytes of their values after.
// ParseProperties is safe for concurrent use.
func ParseProperties(props []Property) (*Bundle, error) {
	b := new(Bundle)
	applyProperties(b, props, nil)
	return b, b.propErr
}

// applyProperties sets b.Properties to props and derives the bundle's typed
// fields from them. The first olm.package property gives the version and
// the declared package, the first olm.csv.metadata the metadata; later ones
// are kept in Properties only (validation reports them). The malformed
// properties are recorded in b.propErr, each error naming the property's
// index and type; the caller adds the bundle. in, when not nil, shares
// strings, parsed ranges and lists with the other bundles of the catalog.
func applyProperties(b *Bundle, props []Property, in *interner) {
	resetProperties(b, props)
	var errs []error
	havePackage := false
	for i := range props {
		p := &props[i]
		if err := b.applyProperty(p, in, &havePackage); err != nil {
			errs = append(errs, fmt.Errorf("property %d (%s): %w", i, p.Type, err))
		}
	}
	b.propErr = errors.Join(errs...)
}

// resetProperties sets b.Properties to props, clears the fields derived
// from properties, and sizes the typed lists once.
func resetProperties(b *Bundle, props []Property) {
	b.Properties = props
	b.Version, b.VersionText, b.versionOK = semver.Version{}, "", false
	b.DeclaredPackage, b.declaredOK = "", false
	b.Provides, b.RequiresGVK, b.RequiresPackage = nil, nil, nil
	b.Labels, b.RequiresLabel, b.Constraints = nil, nil, nil
	b.CSVMetadata, b.MaxOpenShiftVersion = nil, nil
	b.Deprecated = false

	var nGVK, nReqGVK, nLabel int
	for i := range props {
		switch props[i].Type {
		case TypeGVK:
			nGVK++
		case TypeGVKRequired:
			nReqGVK++
		case TypeLabel:
			nLabel++
		}
	}
	if nGVK > 0 {
		b.Provides = make([]GVK, 0, nGVK)
	}
	if nReqGVK > 0 {
		b.RequiresGVK = make([]GVK, 0, nReqGVK)
	}
	if nLabel > 0 {
		b.Labels = make([]string, 0, nLabel)
	}
}

// applyProperty derives b's typed fields from property p; havePackage
// says whether an olm.package property came before. It returns what is
// wrong with the property's value.
func (b *Bundle) applyProperty(p *Property, in *interner, havePackage *bool) error {
	switch p.Type {
	case TypePackage:
		if *havePackage {
			return nil
		}
		*havePackage = true
		return b.applyPackage(p.Value, in)
	case TypeCSVMetadata:
		if b.CSVMetadata != nil {
			return nil
		}
		var err error
		b.CSVMetadata, err = parseCSVMetadata(p.Value, in)
		return err
	case TypeMaxOpenShift:
		m := parseMaxOpenShiftVersion(p.Value)
		if b.MaxOpenShiftVersion != nil {
			b.MaxOpenShiftVersion.Version = semver.Version{}
			b.MaxOpenShiftVersion.Err = fmt.Errorf("defining more than one %q property is not allowed", TypeMaxOpenShift)
			return nil
		}
		b.MaxOpenShiftVersion = m
	case TypeGVK, TypeGVKRequired:
		return b.applyGVK(p, in)
	case TypePackageRequired:
		return b.applyPackageRequired(p.Value, in)
	case TypeLabel, TypeLabelRequired:
		return b.applyLabel(p, in)
	case TypeConstraint:
		c, err := parseConstraintValue(p.Value)
		if err == nil {
			b.Constraints = append(b.Constraints, c)
		}
		return err
	case TypeDeprecated:
		b.Deprecated = true
	}
	return nil
}

// applyPackage reads the first olm.package property: the declared package
// and the version.
func (b *Bundle) applyPackage(v []byte, in *interner) error {
	var name, version string
	var err error
	if f, ok := fastFields(v, "packageName", "version", ""); ok {
		name, version = in.intern(f[0]), string(f[1])
		b.declaredOK = true
	} else {
		var nameOK bool
		name, nameOK, version, err = parsePackageValue(v)
		b.declaredOK = nameOK
	}
	b.DeclaredPackage = name
	if err == nil {
		b.VersionText = version
		var verr error
		b.Version, verr = ParseVersion(version)
		b.versionOK = verr == nil
	}
	return err
}

// applyGVK reads an olm.gvk or olm.gvk.required property.
func (b *Bundle) applyGVK(p *Property, in *interner) error {
	var g GVK
	var err error
	if f, ok := fastFields(p.Value, "group", "version", "kind"); ok {
		g = GVK{Group: in.intern(f[0]), Version: in.intern(f[1]), Kind: in.intern(f[2])}
	} else {
		g, err = parseGVKValue(p.Value)
	}
	if err == nil {
		if p.Type == TypeGVK {
			b.Provides = append(b.Provides, g)
		} else {
			b.RequiresGVK = append(b.RequiresGVK, g)
		}
	}
	return err
}

// applyPackageRequired reads an olm.package.required property.
func (b *Bundle) applyPackageRequired(v []byte, in *interner) error {
	var r PackageRequirement
	var err error
	if f, ok := fastFields(v, "packageName", "versionRange", ""); ok {
		r.Package = in.intern(f[0])
		r.Range, err = in.parseRange(string(f[1]))
		if err != nil {
			err = fmt.Errorf("field \"versionRange\": %w", err)
		}
	} else {
		r, err = parsePackageRequiredValue(v)
	}
	if err == nil {
		b.RequiresPackage = append(b.RequiresPackage, r)
	}
	return err
}

// applyLabel reads an olm.label or olm.label.required property.
func (b *Bundle) applyLabel(p *Property, in *interner) error {
	var l string
	var err error
	if f, ok := fastFields(p.Value, "label", "", ""); ok {
		l = in.intern(f[0])
	} else {
		l, err = parseLabelValue(p.Value)
	}
	if err == nil {
		if p.Type == TypeLabel {
			b.Labels = append(b.Labels, l)
		} else {
			b.RequiresLabel = append(b.RequiresLabel, l)
		}
	}
	return err
}

// fastFields reads a property value of the common shape: an object whose
// fields k0, k1, k2 (an empty key is unused) are plain strings without
// escapes. It returns their raw text; ok is false when the value has any
// other shape (a field missing or null reads as ""), and the caller then
// takes the slow path, which also words the errors.
func fastFields(v []byte, k0, k1, k2 string) (f [3][]byte, ok bool) {
	s := jsonscan.Scanner{Data: v}
	if s.BeginObject() != nil {
		return f, false
	}
	for first := true; ; first = false {
		key, esc, more, err := s.NextKey(first)
		if err != nil || esc {
			return f, false
		}
		if !more {
			break
		}
		i := -1
		switch string(key) {
		case k0:
			i = 0
		case k1:
			i = 1
		case k2:
			i = 2
		}
		if i < 0 || len(key) == 0 {
			if s.Skip() != nil {
				return f, false
			}
			continue
		}
		raw, esc, err := s.String()
		if err != nil || esc {
			return f, false
		}
		f[i] = raw
	}
	return f, s.AtEnd()
}

// interner shares the strings of property values (groups, versions, kinds,
// package names, labels) between the bundles of one catalog, parsed ranges
// between the requirements that state the same range, and the install mode
// and keyword lists of olm.csv.metadata values (by their raw JSON text:
// versions of one operator repeat them). Each Builder owns one, so loads
// never share or lock tables. A nil *interner interns nothing: its strings
// share the memory of the values they are read from (see intern).
type interner struct {
	stringTable
	ranges map[string]rangeResult
	modes  map[string][]InstallMode
	words  map[string][]string
}

type rangeResult struct {
	r   Range
	err error
}

func newInterner() *interner {
	return &interner{
		stringTable: stringTable{strs: make(map[string]string, 1024)},
		ranges:      make(map[string]rangeResult),
		modes:       make(map[string][]InstallMode),
		words:       make(map[string][]string),
	}
}

// intern returns b as a string, shared with equal strings interned before.
// A nil *interner (ParseProperties') returns a string that shares b's
// memory, which is never modified after.
func (in *interner) intern(b []byte) string {
	if in == nil {
		return unsafe.String(unsafe.SliceData(b), len(b))
	}
	return in.stringTable.intern(b)
}

func (in *interner) parseRange(text string) (Range, error) {
	if in == nil {
		return ParseRange(text)
	}
	if rr, ok := in.ranges[text]; ok {
		return rr.r, rr.err
	}
	r, err := ParseRange(text)
	in.ranges[text] = rangeResult{r, err}
	return r, err
}

// ParseVersion parses a bundle or CSV version tolerantly, as OLM does:
// surrounding space and a leading "v" are ignored and missing minor and
// patch numbers are zero (v1.2 → 1.2.0). Bundles get their Version this
// way; cluster reads a CSV's spec.version with it too.
func ParseVersion(s string) (semver.Version, error) {
	if v, err := semver.Parse(s); err == nil {
		return v, nil
	}
	return semver.ParseTolerant(s)
}

// jsonKind names the JSON type of a value for error messages, as
// jsonscan.Kind does.
func jsonKind(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return jsonscan.Kind(0)
	}
	return jsonscan.Kind(v[0])
}

// objectFields decodes a JSON object into its raw fields. A value that is
// not an object is an error.
func objectFields(v []byte) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(v, &m); err != nil || m == nil {
		if k := jsonKind(v); k != "an object" {
			return nil, fmt.Errorf("value is %s, want an object", k)
		}
		return nil, fmt.Errorf("invalid value: %w", err)
	}
	return m, nil
}

// stringField returns the string field name of m; a missing field or null is
// "", another type is an error naming the field.
func stringField(m map[string]json.RawMessage, name string) (string, error) {
	raw, ok := m[name]
	if !ok {
		return "", nil
	}
	var s *string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("field %q is %s, want a string", name, jsonKind(raw))
	}
	if s == nil {
		return "", nil
	}
	return *s, nil
}

// parsePackageValue reads an olm.package value; nameOK reports that the
// packageName could be read even when the version could not.
func parsePackageValue(v []byte) (name string, nameOK bool, version string, err error) {
	m, err := objectFields(v)
	if err != nil {
		return "", false, "", err
	}
	if name, err = stringField(m, "packageName"); err != nil {
		return "", false, "", err
	}
	version, err = stringField(m, "version")
	return name, true, version, err
}

func gvkFromFields(m map[string]json.RawMessage) (GVK, error) {
	var g GVK
	var err error
	if g.Group, err = stringField(m, "group"); err != nil {
		return GVK{}, err
	}
	if g.Version, err = stringField(m, "version"); err != nil {
		return GVK{}, err
	}
	if g.Kind, err = stringField(m, "kind"); err != nil {
		return GVK{}, err
	}
	return g, nil
}

func parseGVKValue(v []byte) (GVK, error) {
	m, err := objectFields(v)
	if err != nil {
		return GVK{}, err
	}
	return gvkFromFields(m)
}

func packageRequirementFromFields(m map[string]json.RawMessage) (PackageRequirement, error) {
	pkg, err := stringField(m, "packageName")
	if err != nil {
		return PackageRequirement{}, err
	}
	text, err := stringField(m, "versionRange")
	if err != nil {
		return PackageRequirement{}, err
	}
	r, err := ParseRange(text)
	if err != nil {
		return PackageRequirement{}, fmt.Errorf("field \"versionRange\": %w", err)
	}
	return PackageRequirement{Package: pkg, Range: r}, nil
}

func parsePackageRequiredValue(v []byte) (PackageRequirement, error) {
	m, err := objectFields(v)
	if err != nil {
		return PackageRequirement{}, err
	}
	return packageRequirementFromFields(m)
}

func parseLabelValue(v []byte) (string, error) {
	m, err := objectFields(v)
	if err != nil {
		return "", err
	}
	return stringField(m, "label")
}

// maxConstraintDepth bounds the nesting of olm.constraint values, so that a
// hostile input cannot exhaust the stack.
const maxConstraintDepth = 64

func parseConstraintValue(v []byte) (Constraint, error) {
	return parseConstraint(v, 0)
}

func parseConstraint(v []byte, depth int) (Constraint, error) {
	if depth > maxConstraintDepth {
		return Constraint{}, fmt.Errorf("constraint nested more than %d deep", maxConstraintDepth)
	}
	m, err := objectFields(v)
	if err != nil {
		return Constraint{}, err
	}
	var c Constraint
	if c.FailureMessage, err = stringField(m, "failureMessage"); err != nil {
		return Constraint{}, err
	}
	var kinds []string
	for _, k := range [...]string{"package", "gvk", "all", "any", "not", "cel"} {
		if raw, ok := m[k]; ok && !bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			kinds = append(kinds, k)
		}
	}
	switch len(kinds) {
	case 0:
		return Constraint{}, errors.New(`constraint has none of "package", "gvk", "all", "any", "not" or "cel"`)
	case 1:
	default:
		return Constraint{}, fmt.Errorf("constraint has several kinds %q, want one", kinds)
	}
	k := kinds[0]
	f, err := objectFields(m[k])
	if err != nil {
		return Constraint{}, fmt.Errorf("field %q: %w", k, err)
	}
	switch k {
	case "package":
		c.Kind = ConstraintPackage
		c.Package, err = packageRequirementFromFields(f)
	case "gvk":
		c.Kind = ConstraintGVK
		c.GVK, err = gvkFromFields(f)
	case "cel":
		c.Kind = ConstraintCEL
		c.CEL, err = stringField(f, "rule")
	default: // all, any, not
		switch k {
		case "all":
			c.Kind = ConstraintAll
		case "any":
			c.Kind = ConstraintAny
		default:
			c.Kind = ConstraintNot
		}
		list, ok := f["constraints"]
		if !ok {
			break
		}
		var items []json.RawMessage
		if err := json.Unmarshal(list, &items); err != nil {
			return Constraint{}, fmt.Errorf("field %q: field \"constraints\" is %s, want an array", k, jsonKind(list))
		}
		for i, item := range items {
			child, err := parseConstraint(item, depth+1)
			if err != nil {
				return Constraint{}, fmt.Errorf("field %q: constraint %d: %w", k, i, err)
			}
			c.Children = append(c.Children, child)
		}
	}
	if err != nil {
		return Constraint{}, fmt.Errorf("field %q: %w", k, err)
	}
	return c, nil
}

// Property constructors, for building catalogs in code. The values they
// return are the JSON opm writes for these property types; each call returns
// a fresh Value the caller may keep.

// PackageProperty returns an olm.package property: the bundle's package and
// version.
func PackageProperty(pkg, version string) Property {
	return marshalProperty(TypePackage, struct {
		PackageName string `json:"packageName"`
		Version     string `json:"version"`
	}{pkg, version})
}

// gvkValue is the JSON form of olm.gvk and olm.gvk.required, fields in the
// order opm writes them.
type gvkValue struct {
	Group   string `json:"group"`
	Kind    string `json:"kind"`
	Version string `json:"version"`
}

// GVKProperty returns an olm.gvk property: the bundle provides g.
func GVKProperty(g GVK) Property {
	return marshalProperty(TypeGVK, gvkValue{g.Group, g.Kind, g.Version})
}

// RequiredGVKProperty returns an olm.gvk.required property: the bundle needs
// some bundle that provides g.
func RequiredGVKProperty(g GVK) Property {
	return marshalProperty(TypeGVKRequired, gvkValue{g.Group, g.Kind, g.Version})
}

// RequiredPackageProperty returns an olm.package.required property: the
// bundle needs a bundle of pkg whose version is in versionRange (blang/semver
// range syntax). The range is not checked here; AddBundle reports a bad one.
func RequiredPackageProperty(pkg, versionRange string) Property {
	return marshalProperty(TypePackageRequired, struct {
		PackageName  string `json:"packageName"`
		VersionRange string `json:"versionRange"`
	}{pkg, versionRange})
}

// LabelProperty returns an olm.label property: the bundle provides label.
func LabelProperty(label string) Property {
	return marshalProperty(TypeLabel, struct {
		Label string `json:"label"`
	}{label})
}

// RequiredLabelProperty returns an olm.label.required property: the bundle
// needs some bundle that provides label.
func RequiredLabelProperty(label string) Property {
	return marshalProperty(TypeLabelRequired, struct {
		Label string `json:"label"`
	}{label})
}

// DeprecatedProperty returns an olm.deprecated property: the bundle is never
// selected.
func DeprecatedProperty() Property {
	return Property{Type: TypeDeprecated, Value: []byte("{}")}
}

func marshalProperty(typ string, v any) Property {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Structs of strings always marshal.
		panic(fmt.Sprintf("graph: marshal %s property: %v", typ, err))
	}
	return Property{Type: typ, Value: bytes.TrimSuffix(buf.Bytes(), []byte("\n"))}
}
