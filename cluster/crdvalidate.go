package cluster

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/sextantdev/sextant/internal/kubename"
	"github.com/sextantdev/sextant/internal/suggest"
)

// FeatureSet is operator-controller's feature set (its Helm chart's
// options.featureSet): which of its CRDs the cluster has. The CRDs of the
// experimental set add a ClusterExtension's spec.config and
// spec.progressDeadlineMinutes; the standard set's API server refuses
// them as unknown fields.
type FeatureSet string

// The feature sets of operator-controller.
const (
	// FeatureSetStandard is the default install (the zero value reads as
	// it).
	FeatureSetStandard FeatureSet = "standard"
	// FeatureSetExperimental is the install with the experimental CRDs and
	// feature gates.
	FeatureSetExperimental FeatureSet = "experimental"
)

// ParseFeatureSet reads "standard" or "experimental" ("" is standard).
func ParseFeatureSet(s string) (FeatureSet, error) {
	switch FeatureSet(s) {
	case "", FeatureSetStandard:
		return FeatureSetStandard, nil
	case FeatureSetExperimental:
		return FeatureSetExperimental, nil
	}
	return "", fmt.Errorf("feature set %q, want %s or %s", s, FeatureSetStandard, FeatureSetExperimental)
}

// V1CRDSource names the CRDs the OLM v1 kinds are checked against: the
// module and version of operator-controller whose Helm chart holds them.
const V1CRDSource = v1CRDSource

// v1CRDKey names the schema of one kind in one feature set.
type v1CRDKey struct {
	set  FeatureSet
	kind string
}

// v1Schemas holds the generated schemas, built when first needed.
var v1Schemas = sync.OnceValue(v1CRDs)

// bound is a limit of a schema (maxLength, minimum, …), when set.
type bound struct {
	set bool
	v   int64
}

// crdSchema is the part of a CRD's OpenAPI schema the API server checks
// an object against (see internal/schemagen -validation, which writes
// them from the CRDs).
type crdSchema struct {
	typ    string // object, array, string, integer, boolean, number; "" any
	format string // int32, int64 are checked
	// required lists the properties an object must have.
	required []string
	// enum lists the values allowed (strings, int64).
	enum []any
	// def is the default of a property the object does not have.
	def                                      any
	maxLength, minLength, maxItems, minItems bound
	maxProps, minProps, maximum, minimum     bound
	// rules are the x-kubernetes-validations (create rules only), each
	// compiled to Go.
	rules []crdRule
	// preserve keeps fields the schema does not name
	// (x-kubernetes-preserve-unknown-fields).
	preserve bool
	// status marks the status subtree: its field names are checked, its
	// values not (the API server drops status when an object is created).
	status bool
	// meta marks metadata: the API server's ObjectMeta, checked by the
	// decoder as the API server checks it.
	meta       bool
	props      map[string]*crdSchema
	additional *crdSchema
	items      *crdSchema
}

// crdRule is one x-kubernetes-validations rule: the rule, its message,
// and the rule as Go, true when the value passes.
type crdRule struct {
	rule    string // as the CRD writes it
	message string
	check   func(self any) bool
}

// lazyRegexp returns a function that compiles re when first called.
func lazyRegexp(re string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(re) })
}

// celHas is CEL's has(self.k).
func celHas(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

// celIf is CEL's c ? a : b.
func celIf(c bool, a, b func() bool) bool {
	if c {
		return a()
	}
	return b()
}

// celSize is CEL's size() of a string: its code points.
func celSize(s string) int64 { return int64(utf8.RuneCountInString(s)) }

// celSubstring is CEL's substring(i) (code points); "" past the end,
// where CEL would fail (the generated rules never go there).
func celSubstring(s string, i int64) string {
	for n := int64(0); n < i; n++ {
		_, size := utf8.DecodeRuneInString(s)
		if size == 0 {
			return ""
		}
		s = s[size:]
	}
	return s
}

// crdCheck holds what checking one object against its CRD found.
type crdCheck struct {
	unknown []*UnknownFieldError
	errs    []*FieldError
}

// prune walks v (at path, of schema s) as the API server's decoder does:
// every field the schema does not name is unknown (strict field
// validation); a null where the schema allows none and has no default is
// dropped; an absent property with a default gets it. metadata's fields
// are checked by the caller.
func (c *crdCheck) prune(v any, s *crdSchema, path string) {
	if s == nil || s.meta || s.preserve {
		return
	}
	switch v := v.(type) {
	case map[string]any:
		if s.props == nil && s.additional == nil {
			for _, k := range slices.Sorted(maps.Keys(v)) {
				c.unknownField(v, join(path, k), k, nil)
			}
			return
		}
		for _, k := range slices.Sorted(maps.Keys(v)) {
			sub := s.props[k]
			if sub == nil && s.additional != nil {
				sub = s.additional
			}
			if sub == nil {
				c.unknownField(v, join(path, k), k, slices.Sorted(maps.Keys(s.props)))
				continue
			}
			if v[k] == nil {
				if sub.def == nil {
					delete(v, k)
				}
				continue
			}
			c.prune(v[k], sub, join(path, k))
		}
		if !s.status {
			for _, k := range slices.Sorted(maps.Keys(s.props)) {
				if d := s.props[k].def; d != nil && v[k] == nil {
					v[k] = defaultValue(d)
				}
			}
		}
	case []any:
		for i, item := range v {
			c.prune(item, s.items, fmt.Sprintf("%s[%d]", path, i))
		}
	}
}

// defaultValue returns a schema's default as the decoder holds values.
func defaultValue(d any) any {
	if n, ok := d.(int64); ok {
		return json.Number(strconv.FormatInt(n, 10))
	}
	return d
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// unknownField records an unknown field, with the nearest of known.
func (c *crdCheck) unknownField(_ map[string]any, path, key string, known []string) {
	e := &UnknownFieldError{Field: path, Near: suggest.Nearest(key, known)}
	if e.Near == "" && len(known) > 0 && len(known) <= 12 {
		e.Known = known
	}
	c.unknown = append(c.unknown, e)
}

func (c *crdCheck) add(t FieldErrorType, path string, value any, detail string) {
	c.errs = append(c.errs, &FieldError{Type: t, Field: path, Value: value, Detail: detail})
}

// jsonType names the type of a decoded value as the API server's OpenAPI
// validation does.
func jsonType(v any) string {
	switch v := v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number:
		if _, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "null"
}

// validate checks v (at path) against s as the API server's OpenAPI
// validation does: type, required, enum, lengths, counts, bounds, format.
// Status and metadata are not looked at here.
func (c *crdCheck) validate(v any, s *crdSchema, path string) {
	if s == nil || s.status || s.meta {
		return
	}
	if got := jsonType(v); s.typ == "integer" && got == "number" {
		// kube-openapi's words for a fraction where an integer goes.
		if s.format == "" {
			c.add(FieldValueTypeInvalid, path, got, fmt.Sprintf("%s in body must be of type integer: %q", path, got))
			c.add(FieldValueInvalid, "", "", "Checked value must be of type integer (default format) in "+path)
		} else {
			c.add(FieldValueTypeInvalid, path, "float64", fmt.Sprintf("%s in body must be of type %s: %q", path, s.format, "float64"))
			c.add(FieldValueInvalid, "", "", fmt.Sprintf("Checked value must be of type integer with format %s in %s", s.format, path))
		}
		c.enum(v, s, path)
		return
	} else if s.typ == "integer" && s.format != "" && (got == "boolean" || got == "object") {
		// kube-openapi's format check speaks first, and names no type.
		c.add(FieldValueTypeInvalid, path, "", fmt.Sprintf("%s in body must be of type %s: %q", path, s.format, ""))
		c.enum(v, s, path)
		return
	} else if s.typ != "" && got != s.typ && (s.typ != "number" || got != "integer") {
		c.add(FieldValueTypeInvalid, path, got, fmt.Sprintf("%s in body must be of type %s: %q", path, s.typ, got))
		c.enum(v, s, path)
		return
	}
	c.enum(v, s, path)
	switch v := v.(type) {
	case string:
		n := int64(utf8.RuneCountInString(v))
		if s.maxLength.set && n > s.maxLength.v {
			c.add(FieldValueTooLong, path, NoValue, fmt.Sprintf("may not be more than %d %s", s.maxLength.v, plural(s.maxLength.v, "byte", "bytes")))
		}
		if s.minLength.set && n < s.minLength.v {
			c.add(FieldValueInvalid, path, v, fmt.Sprintf("%s in body should be at least %d chars long", path, s.minLength.v))
		}
	case json.Number:
		c.number(v, s, path)
	case []any:
		n := int64(len(v))
		if s.maxItems.set && n > s.maxItems.v {
			c.add(FieldValueTooMany, path, n, fmt.Sprintf("must have at most %d %s", s.maxItems.v, plural(s.maxItems.v, "item", "items")))
		}
		if s.minItems.set && n < s.minItems.v {
			c.add(FieldValueInvalid, path, n, fmt.Sprintf("%s in body should have at least %d items", path, s.minItems.v))
		}
		for i, item := range v {
			c.validate(item, s.items, fmt.Sprintf("%s[%d]", path, i))
		}
	case map[string]any:
		n := int64(len(v))
		if s.maxProps.set && n > s.maxProps.v {
			c.add(FieldValueTooMany, path, n, fmt.Sprintf("must have at most %d %s", s.maxProps.v, plural(s.maxProps.v, "item", "items")))
		}
		if s.minProps.set && n < s.minProps.v {
			c.add(FieldValueInvalid, path, n, fmt.Sprintf("%s in body should have at least %d properties", path, s.minProps.v))
		}
		for _, r := range s.required {
			if _, ok := v[r]; !ok {
				c.add(FieldValueRequired, join(path, r), "", "")
			}
		}
		for _, k := range slices.Sorted(maps.Keys(v)) {
			sub := s.props[k]
			if sub == nil {
				sub = s.additional
			}
			c.validate(v[k], sub, join(path, k))
		}
	}
}

// enum checks v against s's enum.
func (c *crdCheck) enum(v any, s *crdSchema, path string) {
	if len(s.enum) == 0 {
		return
	}
	for _, e := range s.enum {
		if n, ok := e.(int64); ok {
			if num, isNum := v.(json.Number); isNum && string(num) == strconv.FormatInt(n, 10) {
				return
			}
		} else if e == v {
			return
		}
	}
	values := make([]string, len(s.enum))
	for i, e := range s.enum {
		values[i] = strconv.Quote(fmt.Sprint(e))
	}
	c.add(FieldValueNotSupported, path, badValue(v), "supported values: "+strings.Join(values, ", "))
}

// badValue is v as a FieldError value: an integer as int64.
func badValue(v any) any {
	if n, ok := v.(json.Number); ok {
		if i, err := n.Int64(); err == nil {
			return i
		}
	}
	return v
}

// number checks an integer against its bounds and format.
func (c *crdCheck) number(v json.Number, s *crdSchema, path string) {
	i, err := v.Int64()
	if err != nil {
		return // a number that is not an int64: its type error was given
	}
	if s.format == "int32" && (i < math.MinInt32 || i > math.MaxInt32) {
		c.add(FieldValueInvalid, "", "", "Checked value must be of type integer with format int32 in "+path)
	}
	if s.minimum.set && i < s.minimum.v {
		c.add(FieldValueInvalid, path, i, fmt.Sprintf("%s in body should be greater than or equal to %d", path, s.minimum.v))
	}
	if s.maximum.set && i > s.maximum.v {
		c.add(FieldValueInvalid, path, i, fmt.Sprintf("%s in body should be less than or equal to %d", path, s.maximum.v))
	}
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// rules evaluates the CRD's validation rules of v (at path) and below,
// as the API server does once the OpenAPI validation leaves no blocking
// error: an object or array that fails is written without its value.
func (c *crdCheck) rules(v any, s *crdSchema, path string) {
	if s == nil || s.status || s.meta {
		return
	}
	for _, r := range s.rules {
		if r.check(v) {
			continue
		}
		value := any(NoValue)
		if s.typ != "object" && s.typ != "array" {
			value = badValue(v)
		}
		c.add(FieldValueInvalid, path, value, r.message)
	}
	switch v := v.(type) {
	case []any:
		for i, item := range v {
			c.rules(item, s.items, fmt.Sprintf("%s[%d]", path, i))
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			sub := s.props[k]
			if sub == nil {
				sub = s.additional
			}
			c.rules(v[k], sub, join(path, k))
		}
	}
}

// notChecked is the API server's word when blocking errors keep it from
// evaluating the validation rules.
const notChecked = "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"

// checkCRD checks object m of an OLM v1 kind against its CRD in set, as
// the API server checks a create: the unknown fields (strict field
// validation), then, defaults applied and status left out, the OpenAPI
// schema, metadata and the validation rules. m is pruned of dropped nulls
// and gets the defaults.
func checkCRD(m map[string]any, kind string, set FeatureSet) *crdCheck {
	if set == "" {
		set = FeatureSetStandard
	}
	s := v1Schemas()[v1CRDKey{set, kind}]
	c := &crdCheck{}
	c.prune(m, s, "")
	c.validate(m, s, "")
	c.metadata(m)
	if slices.ContainsFunc(c.errs, func(e *FieldError) bool { return e.Type.blocking() }) {
		c.add(FieldValueInvalid, "", nil, notChecked)
	} else {
		c.rules(m, s, "")
	}
	return c
}

// metadata checks metadata as the API server checks a cluster-scoped
// custom resource's: its name a DNS-1123 subdomain, its labels and its
// annotations' keys. The field names and types are the decoder's.
func (c *crdCheck) metadata(m map[string]any) {
	meta, _ := m["metadata"].(map[string]any)
	if name, ok := meta["name"].(string); ok && name != "" {
		for _, msg := range kubename.DNS1123Subdomain(name, kubename.Characters) {
			c.add(FieldValueInvalid, "metadata.name", name, msg)
		}
	}
	if labels, ok := meta["labels"].(map[string]any); ok {
		for _, k := range slices.Sorted(maps.Keys(labels)) {
			for _, msg := range kubename.LabelKey(k) {
				c.add(FieldValueInvalid, "metadata.labels", k, msg)
			}
			if v, ok := labels[k].(string); ok {
				for _, msg := range kubename.LabelValue(v) {
					c.add(FieldValueInvalid, "metadata.labels", v, msg)
				}
			}
		}
	}
	if ann, ok := meta["annotations"].(map[string]any); ok {
		size := 0
		for _, k := range slices.Sorted(maps.Keys(ann)) {
			for _, msg := range kubename.LabelKey(strings.ToLower(k)) {
				c.add(FieldValueInvalid, "metadata.annotations", k, msg)
			}
			v, _ := ann[k].(string)
			size += len(k) + len(v)
		}
		if size > 256*1024 {
			c.add(FieldValueTooLong, "metadata.annotations", NoValue, "may not be more than 262144 bytes")
		}
	}
}

// metaTypes are the Go types of ObjectMeta's fields, as encoding/json
// names them: what a metadata field must decode into.
var metaTypes = map[string]string{
	"name": "string", "generateName": "string", "namespace": "string", "selfLink": "string", "uid": "types.UID",
	"resourceVersion": "string", "generation": "int64", "creationTimestamp": "v1.Time", "deletionTimestamp": "v1.Time",
	"deletionGracePeriodSeconds": "int64", "labels": "map[string]string", "annotations": "map[string]string",
	"ownerReferences": "[]v1.OwnerReference", "finalizers": "[]string", "managedFields": "[]v1.ManagedFieldsEntry",
}

// metadataTypeError returns the first field of meta (in key order, as the
// API server reads it) whose value ObjectMeta cannot hold, or nil.
func metadataTypeError(meta map[string]any) *MetadataTypeError {
	for _, k := range slices.Sorted(maps.Keys(meta)) {
		want, ok := metaTypes[k]
		v := meta[k]
		if !ok || v == nil {
			continue
		}
		got := jsonKind(v)
		switch want {
		case "string", "types.UID", "v1.Time":
			if got != "string" {
				return &MetadataTypeError{Field: k, Got: got, Want: want}
			}
		case "int64":
			if n, isNum := v.(json.Number); !isNum {
				return &MetadataTypeError{Field: k, Got: got, Want: want}
			} else if _, err := n.Int64(); err != nil {
				return &MetadataTypeError{Field: k, Got: "number " + string(n), Want: want}
			}
		case "map[string]string":
			m, isMap := v.(map[string]any)
			if !isMap {
				return &MetadataTypeError{Field: k, Got: got, Want: want}
			}
			for _, mk := range slices.Sorted(maps.Keys(m)) {
				if mv := m[mk]; mv != nil {
					if _, isStr := mv.(string); !isStr {
						return &MetadataTypeError{Field: k, Got: jsonKind(mv), Want: "string"}
					}
				}
			}
		case "[]string":
			items, isArr := v.([]any)
			if !isArr {
				return &MetadataTypeError{Field: k, Got: got, Want: want}
			}
			for _, it := range items {
				if it != nil {
					if _, isStr := it.(string); !isStr {
						return &MetadataTypeError{Field: k, Got: jsonKind(it), Want: "string"}
					}
				}
			}
		default: // lists of objects
			if _, isArr := v.([]any); !isArr {
				return &MetadataTypeError{Field: k, Got: got, Want: want}
			}
		}
	}
	return nil
}

// jsonKind names a decoded value's JSON type as encoding/json does in
// its errors.
func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case bool:
		return "bool"
	case json.Number:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "null"
}
