package crd

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// APIVersion is the apiVersion of the CustomResourceDefinitions this
// package reads; Kind their kind.
const (
	APIVersion = "apiextensions.k8s.io/v1"
	Kind       = "CustomResourceDefinition"
)

// FieldError is a field of a CRD manifest that cannot be read: of the
// wrong type, or missing where the API server requires it.
type FieldError struct {
	// Field is the field's path, "spec.versions[0].schema.openAPIV3Schema.type".
	Field string
	Msg   string
}

func (e *FieldError) Error() string { return "field " + e.Field + ": " + e.Msg }

// VersionError is a CustomResourceDefinition of another apiVersion than
// apiextensions.k8s.io/v1 (v1beta1 is not served since Kubernetes 1.22,
// and operator-controller's preflight checks v1 CRDs only).
type VersionError struct{ APIVersion string }

func (e *VersionError) Error() string {
	return fmt.Sprintf("apiVersion is %q, want %q", e.APIVersion, APIVersion)
}

// Decoded is what Decode reads of a manifest besides the definition.
type Decoded struct {
	// Unknown lists the fields of the manifest that apiextensions.k8s.io/v1
	// does not define, sorted: the API server and OLM drop them, and so
	// does Decode.
	Unknown []string
}

// Decode reads a CustomResourceDefinition manifest, as a YAML or JSON
// decoder gives it (objects map[string]any, lists []any, numbers
// json.Number, float64 or int64). A manifest of another apiVersion is a
// *VersionError; fields of the wrong type, a version without a schema,
// and a missing name, group, kind or plural are *FieldError values, every
// one reported (errors.Join, sorted by field). Fields the API server does not define are
// listed in Decoded.Unknown and otherwise ignored. An empty list or
// object is read as absent, as the API server serves it. The definition
// is nil when the error is not.
func Decode(m map[string]any) (*Definition, Decoded, error) {
	if av, _ := m["apiVersion"].(string); av != APIVersion {
		return nil, Decoded{}, &VersionError{APIVersion: av}
	}
	var r reader
	d := &Definition{}
	r.fields(m, nil, topKeys)
	meta := r.object(m, "metadata", nil)
	d.Name = r.str(meta, "name", pathOf("metadata"))
	specPath := pathOf("spec")
	spec := r.object(m, "spec", nil)
	r.fields(spec, specPath, specKeys)
	d.Group = r.str(spec, "group", specPath)
	d.Scope = r.str(spec, "scope", specPath)
	d.PreserveUnknownFields = r.boolean(spec, "preserveUnknownFields", specPath)
	namesPath := specPath.key("names")
	names := r.object(spec, "names", specPath)
	r.fields(names, namesPath, namesKeys)
	d.Names = Names{
		Plural:     r.str(names, "plural", namesPath),
		Singular:   r.str(names, "singular", namesPath),
		Kind:       r.str(names, "kind", namesPath),
		ListKind:   r.str(names, "listKind", namesPath),
		ShortNames: r.strs(names, "shortNames", namesPath),
		Categories: r.strs(names, "categories", namesPath),
	}
	if conv := r.object(spec, "conversion", specPath); conv != nil {
		r.fields(conv, specPath.key("conversion"), conversionKeys)
		d.ConversionStrategy = r.str(conv, "strategy", specPath.key("conversion"))
	}
	versionsPath := specPath.key("versions")
	for i, raw := range r.list(spec, "versions", specPath) {
		vm, ok := raw.(map[string]any)
		if !ok {
			r.typeErr(versionsPath.at(i), raw, "an object")
			continue
		}
		d.Versions = append(d.Versions, r.version(vm, versionsPath.at(i)))
	}
	status := r.object(m, "status", nil)
	r.fields(status, pathOf("status"), statusKeys)
	d.StoredVersions = r.strs(status, "storedVersions", pathOf("status"))
	for _, f := range [...]struct {
		v     string
		field *path
	}{{d.Name, pathOf("metadata").key("name")}, {d.Group, specPath.key("group")}, {d.Names.Kind, namesPath.key("kind")}, {d.Names.Plural, namesPath.key("plural")}} {
		if f.v == "" {
			r.errorf(f.field, "missing")
		}
	}
	slices.Sort(r.unknown)
	if len(r.errs) > 0 {
		slices.SortStableFunc(r.errs, func(a, b error) int {
			return strings.Compare(a.(*FieldError).Field, b.(*FieldError).Field)
		})
		return nil, Decoded{Unknown: r.unknown}, errors.Join(r.errs...)
	}
	return d, Decoded{Unknown: r.unknown}, nil
}

func keySet(keys ...string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}

// The fields of a CustomResourceDefinition, by object.
var (
	topKeys        = keySet("apiVersion", "kind", "metadata", "spec", "status")
	specKeys       = keySet("group", "names", "scope", "versions", "conversion", "preserveUnknownFields")
	namesKeys      = keySet("plural", "singular", "kind", "listKind", "shortNames", "categories")
	conversionKeys = keySet("strategy", "webhook")
	statusKeys     = keySet("acceptedNames", "conditions", "storedVersions")
	versionKeys    = keySet("name", "served", "storage", "deprecated", "deprecationWarning", "schema",
		"subresources", "additionalPrinterColumns", "selectableFields")
	validationKeys = keySet("openAPIV3Schema")
	docsKeys       = keySet("description", "url")
	ruleKeys       = keySet("rule", "message", "messageExpression", "reason", "fieldPath", "optionalOldSelf")
	// schemaKeys are the fields of JSONSchemaProps.
	schemaKeys = keySet("id", "$schema", "$ref", "description", "type", "format", "title", "default",
		"maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern",
		"maxItems", "minItems", "uniqueItems", "multipleOf", "enum", "maxProperties", "minProperties",
		"required", "items", "allOf", "oneOf", "anyOf", "not", "properties", "additionalProperties",
		"patternProperties", "dependencies", "additionalItems", "definitions", "externalDocs", "example",
		"nullable", "x-kubernetes-preserve-unknown-fields", "x-kubernetes-embedded-resource",
		"x-kubernetes-int-or-string", "x-kubernetes-list-map-keys", "x-kubernetes-list-type",
		"x-kubernetes-map-type", "x-kubernetes-validations")
)

func (r *reader) version(vm map[string]any, p *path) Version {
	r.fields(vm, p, versionKeys)
	v := Version{
		Name:       r.str(vm, "name", p),
		Served:     r.boolean(vm, "served", p),
		Storage:    r.boolean(vm, "storage", p),
		Deprecated: r.boolean(vm, "deprecated", p),
	}
	sp := p.key("schema")
	if sm := r.object(vm, "schema", p); sm != nil {
		r.fields(sm, sp, validationKeys)
		if om := r.object(sm, "openAPIV3Schema", sp); om != nil {
			s := r.schema(om, sp.key("openAPIV3Schema"))
			v.Schema = &s
		}
	}
	if v.Schema == nil {
		r.errorf(sp.key("openAPIV3Schema"), "missing: the API server requires a schema for every version of an %s CRD", APIVersion)
	}
	return v
}

// schema reads a JSON schema object at p.
func (r *reader) schema(m map[string]any, p *path) Schema {
	r.fields(m, p, schemaKeys)
	var s Schema
	for k, raw := range m {
		if raw == nil {
			continue
		}
		switch k {
		case "id":
			s.ID = r.str(m, k, p)
		case "$schema":
			s.SchemaURI = r.str(m, k, p)
		case "$ref":
			s.Ref = r.strPtr(m, k, p)
		case "description":
			s.Description = r.str(m, k, p)
		case "type":
			s.Type = r.str(m, k, p)
		case "format":
			s.Format = r.str(m, k, p)
		case "title":
			s.Title = r.str(m, k, p)
		case "default":
			s.Default = canonicalPtr(raw)
		case "maximum":
			s.Maximum = r.float(m, k, p)
		case "exclusiveMaximum":
			s.ExclusiveMaximum = r.boolean(m, k, p)
		case "minimum":
			s.Minimum = r.float(m, k, p)
		case "exclusiveMinimum":
			s.ExclusiveMinimum = r.boolean(m, k, p)
		case "maxLength":
			s.MaxLength = r.int(m, k, p)
		case "minLength":
			s.MinLength = r.int(m, k, p)
		case "pattern":
			s.Pattern = r.str(m, k, p)
		case "maxItems":
			s.MaxItems = r.int(m, k, p)
		case "minItems":
			s.MinItems = r.int(m, k, p)
		case "uniqueItems":
			s.UniqueItems = r.boolean(m, k, p)
		case "multipleOf":
			s.MultipleOf = r.float(m, k, p)
		case "enum":
			s.Enum = r.enum(raw, p.key(k))
		case "maxProperties":
			s.MaxProperties = r.int(m, k, p)
		case "minProperties":
			s.MinProperties = r.int(m, k, p)
		case "required":
			s.Required = r.strs(m, k, p)
		case "items":
			s.Items = r.items(raw, p.key(k))
		case "allOf":
			s.AllOf = r.schemas(raw, p.key(k))
		case "oneOf":
			s.OneOf = r.schemas(raw, p.key(k))
		case "anyOf":
			s.AnyOf = r.schemas(raw, p.key(k))
		case "not":
			if nm := r.object(m, k, p); nm != nil {
				not := r.schema(nm, p.key(k))
				s.Not = &not
			}
		case "properties":
			s.Properties = r.schemaMap(m, k, p)
		case "additionalProperties":
			s.AdditionalProperties = r.schemaOrBool(raw, p.key(k))
		case "patternProperties":
			s.PatternProperties = r.schemaMap(m, k, p)
		case "dependencies":
			s.Dependencies = r.dependencies(m, k, p)
		case "additionalItems":
			s.AdditionalItems = r.schemaOrBool(raw, p.key(k))
		case "definitions":
			s.Definitions = r.schemaMap(m, k, p)
		case "externalDocs":
			if em := r.object(m, k, p); em != nil {
				dp := p.key(k)
				r.fields(em, dp, docsKeys)
				s.ExternalDocs = &ExternalDocs{Description: r.str(em, "description", dp), URL: r.str(em, "url", dp)}
			}
		case "example":
			s.Example = canonicalPtr(raw)
		case "nullable":
			s.Nullable = r.boolean(m, k, p)
		case "x-kubernetes-preserve-unknown-fields":
			s.XPreserveUnknownFields = r.boolPtr(m, k, p)
		case "x-kubernetes-embedded-resource":
			s.XEmbeddedResource = r.boolean(m, k, p)
		case "x-kubernetes-int-or-string":
			s.XIntOrString = r.boolean(m, k, p)
		case "x-kubernetes-list-map-keys":
			s.XListMapKeys = r.strs(m, k, p)
		case "x-kubernetes-list-type":
			s.XListType = r.strPtr(m, k, p)
		case "x-kubernetes-map-type":
			s.XMapType = r.strPtr(m, k, p)
		case "x-kubernetes-validations":
			s.XValidations = r.rules(raw, p.key(k))
		}
	}
	return s
}

func (r *reader) enum(raw any, p *path) []JSON {
	l, ok := raw.([]any)
	if !ok {
		r.typeErr(p, raw, "a list")
		return nil
	}
	if len(l) == 0 {
		return nil
	}
	out := make([]JSON, len(l))
	for i, v := range l {
		out[i] = canonical(v)
	}
	return out
}

func (r *reader) items(raw any, p *path) *SchemaOrArray {
	switch v := raw.(type) {
	case map[string]any:
		item := r.schema(v, p)
		return &SchemaOrArray{Schema: &item}
	case []any:
		if len(v) == 0 {
			return nil
		}
		return &SchemaOrArray{Schemas: r.schemaList(v, p)}
	}
	r.typeErr(p, raw, "an object or a list")
	return nil
}

func (r *reader) rules(raw any, p *path) []ValidationRule {
	l, ok := raw.([]any)
	if !ok {
		r.typeErr(p, raw, "a list")
		return nil
	}
	var out []ValidationRule
	for i, item := range l {
		ip := p.at(i)
		vm, ok := item.(map[string]any)
		if !ok {
			r.typeErr(ip, item, "an object")
			continue
		}
		r.fields(vm, ip, ruleKeys)
		out = append(out, ValidationRule{
			Rule:              r.str(vm, "rule", ip),
			Message:           r.str(vm, "message", ip),
			MessageExpression: r.str(vm, "messageExpression", ip),
			Reason:            r.strPtr(vm, "reason", ip),
			FieldPath:         r.str(vm, "fieldPath", ip),
			OptionalOldSelf:   r.boolPtr(vm, "optionalOldSelf", ip),
		})
	}
	return out
}

func (r *reader) schemas(raw any, p *path) []Schema {
	l, ok := raw.([]any)
	if !ok {
		r.typeErr(p, raw, "a list")
		return nil
	}
	return r.schemaList(l, p)
}

func (r *reader) schemaList(l []any, p *path) []Schema {
	if len(l) == 0 {
		return nil
	}
	out := make([]Schema, 0, len(l))
	for i, item := range l {
		sm, ok := item.(map[string]any)
		if !ok {
			r.typeErr(p.at(i), item, "an object")
			continue
		}
		out = append(out, r.schema(sm, p.at(i)))
	}
	return out
}

func (r *reader) schemaMap(m map[string]any, key string, p *path) map[string]Schema {
	om := r.object(m, key, p)
	if len(om) == 0 {
		return nil
	}
	mp := p.key(key)
	out := make(map[string]Schema, len(om))
	for k, raw := range om {
		switch v := raw.(type) {
		case map[string]any:
			out[k] = r.schema(v, mp.key(k))
		case nil:
			out[k] = Schema{}
		default:
			r.typeErr(mp.key(k), v, "an object")
		}
	}
	return out
}

func (r *reader) dependencies(m map[string]any, key string, p *path) map[string]SchemaOrStringArray {
	dm := r.object(m, key, p)
	if len(dm) == 0 {
		return nil
	}
	dp := p.key(key)
	out := make(map[string]SchemaOrStringArray, len(dm))
	for k, raw := range dm {
		switch v := raw.(type) {
		case map[string]any:
			sub := r.schema(v, dp.key(k))
			out[k] = SchemaOrStringArray{Schema: &sub}
		case []any:
			out[k] = SchemaOrStringArray{Property: r.strList(v, dp.key(k))}
		case nil:
			out[k] = SchemaOrStringArray{}
		default:
			r.typeErr(dp.key(k), v, "an object or a list")
		}
	}
	return out
}

func (r *reader) schemaOrBool(raw any, p *path) *SchemaOrBool {
	switch v := raw.(type) {
	case bool:
		return &SchemaOrBool{Allows: v}
	case map[string]any:
		s := r.schema(v, p)
		return &SchemaOrBool{Allows: true, Schema: &s}
	}
	r.typeErr(p, raw, "a boolean or an object")
	return nil
}

// reader reads the fields of a manifest, collecting errors and unknown
// fields.
type reader struct {
	errs    []error
	unknown []string
}

// path is where a field is, written out only when needed: a field name of
// parent, or an element (name "", index) of its list.
type path struct {
	parent *path
	name   string
	index  int
}

func pathOf(name string) *path        { return &path{name: name} }
func (p *path) key(name string) *path { return &path{parent: p, name: name} }
func (p *path) at(i int) *path        { return &path{parent: p, index: i} }

func (p *path) String() string {
	if p == nil {
		return ""
	}
	parent := p.parent.String()
	switch {
	case p.name == "":
		return parent + "[" + strconv.Itoa(p.index) + "]"
	case parent == "":
		return p.name
	}
	return parent + "." + p.name
}

func (r *reader) errorf(p *path, format string, args ...any) {
	r.errs = append(r.errs, &FieldError{Field: p.String(), Msg: fmt.Sprintf(format, args...)})
}

func (r *reader) typeErr(p *path, v any, want string) {
	r.errorf(p, "is %s, want %s", kindOf(v), want)
}

// fields lists the keys of m that known does not hold as unknown.
func (r *reader) fields(m map[string]any, p *path, known map[string]bool) {
	var extra []string
	for k := range m {
		if !known[k] {
			extra = append(extra, k)
		}
	}
	slices.Sort(extra)
	for _, k := range extra {
		r.unknown = append(r.unknown, p.key(k).String())
	}
}

func (r *reader) object(m map[string]any, key string, p *path) map[string]any {
	raw := m[key]
	if raw == nil {
		return nil
	}
	o, ok := raw.(map[string]any)
	if !ok {
		r.typeErr(p.key(key), raw, "an object")
	}
	return o
}

func (r *reader) list(m map[string]any, key string, p *path) []any {
	raw := m[key]
	if raw == nil {
		return nil
	}
	l, ok := raw.([]any)
	if !ok {
		r.typeErr(p.key(key), raw, "a list")
	}
	return l
}

func (r *reader) str(m map[string]any, key string, p *path) string {
	raw := m[key]
	if raw == nil {
		return ""
	}
	s, ok := raw.(string)
	if !ok {
		r.typeErr(p.key(key), raw, "a string")
	}
	return s
}

func (r *reader) strPtr(m map[string]any, key string, p *path) *string {
	if m[key] == nil {
		return nil
	}
	s := r.str(m, key, p)
	return &s
}

func (r *reader) boolean(m map[string]any, key string, p *path) bool {
	raw := m[key]
	if raw == nil {
		return false
	}
	b, ok := raw.(bool)
	if !ok {
		r.typeErr(p.key(key), raw, "a boolean")
	}
	return b
}

func (r *reader) boolPtr(m map[string]any, key string, p *path) *bool {
	if m[key] == nil {
		return nil
	}
	b := r.boolean(m, key, p)
	return &b
}

func (r *reader) strs(m map[string]any, key string, p *path) []string {
	raw := m[key]
	if raw == nil {
		return nil
	}
	l, ok := raw.([]any)
	if !ok {
		r.typeErr(p.key(key), raw, "a list")
		return nil
	}
	return r.strList(l, p.key(key))
}

func (r *reader) strList(l []any, p *path) []string {
	if len(l) == 0 {
		return nil
	}
	out := make([]string, 0, len(l))
	for i, item := range l {
		s, ok := item.(string)
		if !ok {
			r.typeErr(p.at(i), item, "a string")
			continue
		}
		out = append(out, s)
	}
	return out
}

func (r *reader) float(m map[string]any, key string, p *path) *float64 {
	raw := m[key]
	if raw == nil {
		return nil
	}
	f, ok := number(raw)
	if !ok {
		r.typeErr(p.key(key), raw, "a number")
		return nil
	}
	return &f
}

func (r *reader) int(m map[string]any, key string, p *path) *int64 {
	raw := m[key]
	if raw == nil {
		return nil
	}
	if n, ok := raw.(json.Number); ok {
		if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
			return &i
		}
	}
	f, ok := number(raw)
	if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<62 {
		r.typeErr(p.key(key), raw, "an integer")
		return nil
	}
	i := int64(f)
	return &i
}

// canonicalPtr returns the canonical form of a JSON value.
func canonicalPtr(raw any) *JSON {
	j := canonical(raw)
	return &j
}

// number reads a JSON number.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(n), 64)
		return f, err == nil
	case float64:
		return n, true
	case int64:
		return float64(n), true
	case int:
		return float64(n), true
	}
	return 0, false
}

// canonical writes v as the API server keeps a JSON field of a schema:
// numbers read as Kubernetes reads them (an int64 when the text is an
// integer that fits, else a float64), then encoding/json's writing
// (object keys sorted; <, > and & escaped).
func canonical(v any) JSON {
	b, err := json.Marshal(normalize(v))
	if err != nil {
		return JSON("null")
	}
	return JSON(b)
}

func normalize(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return i
		}
		f, _ := strconv.ParseFloat(string(x), 64)
		return f
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normalize(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalize(e)
		}
		return out
	}
	return v
}

// kindOf names the JSON type of v for errors.
func kindOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return "a string " + strconv.Quote(shorten(x))
	case bool:
		return "a boolean"
	case json.Number, float64, int64, int:
		return "a number"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func shorten(s string) string {
	if len(s) <= 40 {
		return s
	}
	i := 37
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return strings.TrimSpace(s[:i]) + "..."
}
