package crd

import (
	"strings"

	"github.com/sextantdev/sextant/crd/internal/godiff"
)

// The Go types of apiextensions.k8s.io/v1 that a JSONSchemaProps holds, as
// go-cmp names and walks them (package k8s.io/apiextensions-apiserver/
// pkg/apis/apiextensions/v1, named "v1").
var (
	tString  = &godiff.Type{Name: "string", Named: true, Kind: godiff.String}
	tBool    = &godiff.Type{Name: "bool", Named: true, Kind: godiff.Bool}
	tInt64   = &godiff.Type{Name: "int64", Named: true, Kind: godiff.Int}
	tFloat64 = &godiff.Type{Name: "float64", Named: true, Kind: godiff.Float}
	tUint8   = &godiff.Type{Name: "uint8", Named: true, Kind: godiff.Uint8}
	tURL     = &godiff.Type{Name: "v1.JSONSchemaURL", Named: true, Kind: godiff.String}
	tReason  = &godiff.Type{Name: "v1.FieldValueErrorReason", Named: true, Kind: godiff.String}

	tPtrString = &godiff.Type{Name: "*string", Kind: godiff.Ptr, Elem: tString}
	tPtrBool   = &godiff.Type{Name: "*bool", Kind: godiff.Ptr, Elem: tBool}
	tPtrInt64  = &godiff.Type{Name: "*int64", Kind: godiff.Ptr, Elem: tInt64}
	tPtrFloat  = &godiff.Type{Name: "*float64", Kind: godiff.Ptr, Elem: tFloat64}
	tPtrReason = &godiff.Type{Name: "*v1.FieldValueErrorReason", Kind: godiff.Ptr, Elem: tReason}
	tBytes     = &godiff.Type{Name: "[]uint8", Kind: godiff.Slice, Elem: tUint8}
	tStrings   = &godiff.Type{Name: "[]string", Kind: godiff.Slice, Elem: tString}

	tJSON    = &godiff.Type{Name: "v1.JSON", Named: true, Kind: godiff.Struct, Fields: []string{"Raw"}}
	tPtrJSON = &godiff.Type{Name: "*v1.JSON", Kind: godiff.Ptr, Elem: tJSON,
		Stringer: func(v *godiff.Value) string { return v.Ref.(*JSON).gostring() }}
	tJSONs = &godiff.Type{Name: "[]v1.JSON", Kind: godiff.Slice, Elem: tJSON}

	tDocs    = &godiff.Type{Name: "v1.ExternalDocumentation", Named: true, Kind: godiff.Struct, Fields: []string{"Description", "URL"}}
	tPtrDocs = &godiff.Type{Name: "*v1.ExternalDocumentation", Kind: godiff.Ptr, Elem: tDocs,
		Stringer: func(v *godiff.Value) string { return v.Ref.(*ExternalDocs).gostring() }}

	tRule = &godiff.Type{Name: "v1.ValidationRule", Named: true, Kind: godiff.Struct,
		Fields: []string{"Rule", "Message", "MessageExpression", "Reason", "FieldPath", "OptionalOldSelf"}}
	tRules = &godiff.Type{Name: "v1.ValidationRules", Named: true, Kind: godiff.Slice, Elem: tRule}

	tSchema = &godiff.Type{Name: "v1.JSONSchemaProps", Named: true, Kind: godiff.Struct, Fields: []string{
		"ID", "Schema", "Ref", "Description", "Type", "Format", "Title", "Default", "Maximum", "ExclusiveMaximum",
		"Minimum", "ExclusiveMinimum", "MaxLength", "MinLength", "Pattern", "MaxItems", "MinItems", "UniqueItems",
		"MultipleOf", "Enum", "MaxProperties", "MinProperties", "Required", "Items", "AllOf", "OneOf", "AnyOf", "Not",
		"Properties", "AdditionalProperties", "PatternProperties", "Dependencies", "AdditionalItems", "Definitions",
		"ExternalDocs", "Example", "Nullable", "XPreserveUnknownFields", "XEmbeddedResource", "XIntOrString",
		"XListMapKeys", "XListType", "XMapType", "XValidations"}}
	tPtrSchema = &godiff.Type{Name: "*v1.JSONSchemaProps", Kind: godiff.Ptr, Elem: tSchema,
		Stringer: func(v *godiff.Value) string { return v.Ref.(*Schema).gostring(&addresser{}) }}
	tSchemas   = &godiff.Type{Name: "[]v1.JSONSchemaProps", Kind: godiff.Slice, Elem: tSchema}
	tSchemaMap = &godiff.Type{Name: "map[string]v1.JSONSchemaProps", Kind: godiff.Map, Elem: tSchema}
	tDefs      = &godiff.Type{Name: "v1.JSONSchemaDefinitions", Named: true, Kind: godiff.Map, Elem: tSchema}

	tOrArray    = &godiff.Type{Name: "v1.JSONSchemaPropsOrArray", Named: true, Kind: godiff.Struct, Fields: []string{"Schema", "JSONSchemas"}}
	tPtrOrArray = &godiff.Type{Name: "*v1.JSONSchemaPropsOrArray", Kind: godiff.Ptr, Elem: tOrArray,
		Stringer: func(v *godiff.Value) string { return v.Ref.(*SchemaOrArray).gostring(&addresser{}) }}
	tOrBool    = &godiff.Type{Name: "v1.JSONSchemaPropsOrBool", Named: true, Kind: godiff.Struct, Fields: []string{"Allows", "Schema"}}
	tPtrOrBool = &godiff.Type{Name: "*v1.JSONSchemaPropsOrBool", Kind: godiff.Ptr, Elem: tOrBool,
		Stringer: func(v *godiff.Value) string { return v.Ref.(*SchemaOrBool).gostring(&addresser{}) }}
	tOrStrings = &godiff.Type{Name: "v1.JSONSchemaPropsOrStringArray", Named: true, Kind: godiff.Struct, Fields: []string{"Schema", "Property"}}
	tDeps      = &godiff.Type{Name: "v1.JSONSchemaDependencies", Named: true, Kind: godiff.Map, Elem: tOrStrings}
)

func str(t *godiff.Type, s string) *godiff.Value { return &godiff.Value{T: t, Str: s} }
func boolean(b bool) *godiff.Value               { return &godiff.Value{T: tBool, Bool: b} }
func null(t *godiff.Type) *godiff.Value          { return &godiff.Value{T: t, Nil: true} }

func ptr[T any](t *godiff.Type, p *T, elem func(T) *godiff.Value) *godiff.Value {
	if p == nil {
		return null(t)
	}
	return &godiff.Value{T: t, Elem: elem(*p), Ref: p}
}

func stringsValue(l []string) *godiff.Value {
	if l == nil {
		return null(tStrings)
	}
	v := &godiff.Value{T: tStrings, Elems: make([]*godiff.Value, len(l))}
	for i, s := range l {
		v.Elems[i] = str(tString, s)
	}
	return v
}

func jsonValue(j JSON) *godiff.Value {
	raw := &godiff.Value{T: tBytes, Elems: make([]*godiff.Value, len(j))}
	for i := 0; i < len(j); i++ {
		raw.Elems[i] = &godiff.Value{T: tUint8, Int: int64(j[i])}
	}
	if len(j) == 0 {
		raw.Nil = true
	}
	return &godiff.Value{T: tJSON, Fields: []*godiff.Value{raw}}
}

func jsonPtr(j *JSON) *godiff.Value {
	if j == nil {
		return null(tPtrJSON)
	}
	return &godiff.Value{T: tPtrJSON, Elem: jsonValue(*j), Ref: j}
}

func schemaPtr(s *Schema) *godiff.Value {
	if s == nil {
		return null(tPtrSchema)
	}
	return &godiff.Value{T: tPtrSchema, Elem: s.value(), Ref: s}
}

func schemasValue(l []Schema) *godiff.Value {
	if l == nil {
		return null(tSchemas)
	}
	v := &godiff.Value{T: tSchemas, Elems: make([]*godiff.Value, len(l))}
	for i := range l {
		v.Elems[i] = l[i].value()
	}
	return v
}

func mapValue[V any](t *godiff.Type, m map[string]V, elem func(V) *godiff.Value) *godiff.Value {
	if m == nil {
		return null(t)
	}
	v := &godiff.Value{T: t, Keys: sortedMapKeys(m)}
	v.Vals = make([]*godiff.Value, len(v.Keys))
	for i, k := range v.Keys {
		v.Vals[i] = elem(m[k])
	}
	return v
}

func orBool(p *SchemaOrBool) *godiff.Value {
	if p == nil {
		return null(tPtrOrBool)
	}
	return &godiff.Value{T: tPtrOrBool, Ref: p, Elem: &godiff.Value{T: tOrBool,
		Fields: []*godiff.Value{boolean(p.Allows), schemaPtr(p.Schema)}}}
}

// value describes s as the Go value go-cmp walks.
func (s Schema) value() *godiff.Value {
	var items *godiff.Value
	if s.Items == nil {
		items = null(tPtrOrArray)
	} else {
		items = &godiff.Value{T: tPtrOrArray, Ref: s.Items, Elem: &godiff.Value{T: tOrArray,
			Fields: []*godiff.Value{schemaPtr(s.Items.Schema), schemasValue(s.Items.Schemas)}}}
	}
	enum := null(tJSONs)
	if s.Enum != nil {
		enum = &godiff.Value{T: tJSONs, Elems: make([]*godiff.Value, len(s.Enum))}
		for i, e := range s.Enum {
			enum.Elems[i] = jsonValue(e)
		}
	}
	rules := null(tRules)
	if s.XValidations != nil {
		rules = &godiff.Value{T: tRules, Elems: make([]*godiff.Value, len(s.XValidations))}
		for i, r := range s.XValidations {
			rules.Elems[i] = &godiff.Value{T: tRule, Fields: []*godiff.Value{
				str(tString, r.Rule), str(tString, r.Message), str(tString, r.MessageExpression),
				ptr(tPtrReason, r.Reason, func(s string) *godiff.Value { return str(tReason, s) }),
				str(tString, r.FieldPath), ptr(tPtrBool, r.OptionalOldSelf, boolean),
			}}
		}
	}
	var docs *godiff.Value
	if s.ExternalDocs == nil {
		docs = null(tPtrDocs)
	} else {
		docs = &godiff.Value{T: tPtrDocs, Ref: s.ExternalDocs, Elem: &godiff.Value{T: tDocs,
			Fields: []*godiff.Value{str(tString, s.ExternalDocs.Description), str(tString, s.ExternalDocs.URL)}}}
	}
	pstr := func(p *string) *godiff.Value {
		return ptr(tPtrString, p, func(s string) *godiff.Value { return str(tString, s) })
	}
	pint := func(p *int64) *godiff.Value {
		return ptr(tPtrInt64, p, func(i int64) *godiff.Value { return &godiff.Value{T: tInt64, Int: i} })
	}
	pfloat := func(p *float64) *godiff.Value {
		return ptr(tPtrFloat, p, func(f float64) *godiff.Value { return &godiff.Value{T: tFloat64, Float: f} })
	}
	fields := []*godiff.Value{
		str(tString, s.ID), str(tURL, s.SchemaURI), pstr(s.Ref), str(tString, s.Description), str(tString, s.Type),
		str(tString, s.Format), str(tString, s.Title), jsonPtr(s.Default), pfloat(s.Maximum), boolean(s.ExclusiveMaximum),
		pfloat(s.Minimum), boolean(s.ExclusiveMinimum), pint(s.MaxLength), pint(s.MinLength), str(tString, s.Pattern),
		pint(s.MaxItems), pint(s.MinItems), boolean(s.UniqueItems), pfloat(s.MultipleOf), enum,
		pint(s.MaxProperties), pint(s.MinProperties), stringsValue(s.Required), items,
		schemasValue(s.AllOf), schemasValue(s.OneOf), schemasValue(s.AnyOf), schemaPtr(s.Not),
		mapValue(tSchemaMap, s.Properties, Schema.value), orBool(s.AdditionalProperties),
		mapValue(tSchemaMap, s.PatternProperties, Schema.value),
		mapValue(tDeps, s.Dependencies, func(d SchemaOrStringArray) *godiff.Value {
			return &godiff.Value{T: tOrStrings, Fields: []*godiff.Value{schemaPtr(d.Schema), stringsValue(d.Property)}}
		}),
		orBool(s.AdditionalItems), mapValue(tDefs, s.Definitions, Schema.value), docs, jsonPtr(s.Example),
		boolean(s.Nullable), ptr(tPtrBool, s.XPreserveUnknownFields, boolean), boolean(s.XEmbeddedResource),
		boolean(s.XIntOrString), stringsValue(s.XListMapKeys), pstr(s.XListType), pstr(s.XMapType), rules,
	}
	return &godiff.Value{T: tSchema, Fields: fields}
}

// cmpDiff is go-cmp's Diff of two schemas, cmp.Diff(a, b) for a, b
// *JSONSchemaProps.
func cmpDiff(a, b *Schema) string {
	return godiff.Diff(tPtrSchema, schemaPtr(a), schemaPtr(b))
}

// conciseUnhandled is operator-controller's summary of crdify's
// "unhandled" report (crdupgradesafety's conciseUnhandledMessage): each
// field that a line of the report removes or inserts, first seen first,
// as "Field before -> after".
func conciseUnhandled(diff string) string {
	const prefix = "unhandled changes found"
	type entry struct{ before, after, beforeRaw, afterRaw string }
	entries := map[string]*entry{}
	var order []string
	for _, line := range strings.Split(diff, "\n") {
		t := strings.TrimSpace(line)
		if len(t) < 2 || t[0] != '-' && t[0] != '+' {
			continue
		}
		field, value, raw := parseDiffValue(t[1:])
		if field == "" {
			continue
		}
		e := entries[field]
		if e == nil {
			e = &entry{}
			entries[field] = e
			order = append(order, field)
		}
		if t[0] == '-' {
			e.before, e.beforeRaw = value, raw
		} else {
			e.after, e.afterRaw = value, raw
		}
	}
	var details []string
	for _, f := range order {
		e := entries[f]
		if e.before == "" && e.after == "" || e.before == e.after && e.beforeRaw == e.afterRaw {
			continue
		}
		before, after := e.before, e.after
		if before == "" {
			before = "<empty>"
		}
		if after == "" {
			after = "<empty>"
		}
		if e.before == e.after && e.beforeRaw != e.afterRaw {
			after += " (changed)"
		}
		details = append(details, f+" "+before+" -> "+after)
	}
	if len(details) == 0 {
		return prefix
	}
	return prefix + " (" + strings.Join(details, "; ") + ")"
}

func parseDiffValue(fragment string) (field, value, raw string) {
	c := strings.TrimSpace(fragment)
	c = strings.TrimSpace(strings.TrimPrefix(c, "\t"))
	c = strings.TrimSuffix(c, ",")
	f, r, ok := strings.Cut(c, ":")
	if !ok {
		return "", "", ""
	}
	field = strings.TrimSpace(f)
	raw = strings.TrimSpace(r)
	if field == "" {
		return "", "", ""
	}
	v := strings.TrimSpace(strings.TrimSuffix(raw, ","))
	switch v {
	case "":
		v = "<empty>"
	case `""`:
	default:
		v = strings.ReplaceAll(v, "v1.", "")
		if strings.Contains(v, "JSONSchemaProps") {
			v = "<complex value>"
		}
	}
	return field, v, raw
}
