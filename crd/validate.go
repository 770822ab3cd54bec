package crd

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"weak"
)

// Violation is one problem OLM v0 finds validating an existing custom
// resource against a CRD's schema, as Kubernetes writes it
// (k8s.io/apimachinery's field.Error): "spec.replicas: Invalid value:
// \"string\": spec.replicas in body must be of type integer: \"string\"".
type Violation struct {
	// Type is what Kubernetes writes first: "Required value", "Invalid
	// value", "Unsupported value", "Too long", "Too many".
	Type string
	// Field is the dotted path of the field ("spec.replicas",
	// "spec.ports[0].name"); "" for the object itself.
	Field string
	// Body is what follows the field and its colon, exactly as Kubernetes
	// writes it ("Required value", "Invalid value: 3: spec.size in body
	// should be less than or equal to 2").
	Body string
}

// String returns v as Kubernetes writes it with a field path rooted at
// root: OLM v0 roots its paths at an empty path, which Kubernetes writes
// "[]" ("[].spec.replicas: Invalid value: …").
func (v Violation) String() string { return v.Rooted("") }

// Rooted returns v as Kubernetes writes it, its field under root ("" for
// none; OLM v0 uses "[]").
func (v Violation) Rooted(root string) string {
	f := v.Field
	switch {
	case root != "" && f != "":
		f = root + "." + f
	case root != "":
		f = root
	}
	return f + ": " + v.Body
}

// ViolationsText joins violations as Kubernetes' error aggregate writes a
// field.ErrorList (ToAggregate): each once, one alone as it is, several
// as "[a, b]"; fields rooted at root (OLM v0: "[]").
func ViolationsText(vs []Violation, root string) string {
	var seen []string
	for _, v := range vs {
		if s := v.Rooted(root); !slices.Contains(seen, s) {
			seen = append(seen, s)
		}
	}
	if len(seen) == 1 {
		return seen[0]
	}
	return "[" + strings.Join(seen, ", ") + "]"
}

// ValidateObject validates obj, a custom resource as a JSON or YAML decoder
// gives it (objects map[string]any, lists []any, numbers json.Number,
// int, int64, uint64 or float64), against the schema of version as OLM
// v0.28 validates existing custom resources before it replaces a CRD:
// Kubernetes' OpenAPI schema validator alone (apiextensions-apiserver's
// ValidateCustomResource) — types, nullable, x-kubernetes-int-or-string,
// enum, required, properties and additionalProperties, items, bounds,
// lengths, pattern, the formats the API server keeps, allOf, anyOf, oneOf
// and not —, without defaults, pruning, x-kubernetes-validations or
// embedded-resource checks, which OLM v0 does not run. Fields the schema
// does not name pass. A version without a schema takes every object; a
// version d does not define is an error.
//
// The violations are in a fixed order (properties by name); OLM v0's
// own order varies from run to run (Go map order), so compare them as a
// set. The result is nil when obj passes.
func (d *Definition) ValidateObject(version string, obj any) ([]Violation, error) {
	v := d.Version(version)
	if v == nil {
		return nil, fmt.Errorf("CRD %s defines no version %q", d.Name, version)
	}
	if v.Schema == nil {
		return nil, nil
	}
	return v.Schema.Validate(obj), nil
}

// Validate validates obj against s as [Definition.ValidateObject] does.
func (s *Schema) Validate(obj any) []Violation {
	if s == nil {
		return nil
	}
	r := validateValue(s, "", obj)
	out := make([]Violation, 0, len(r.errs))
	for _, e := range r.errs {
		out = append(out, e.violation())
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// Normalize returns v with its numbers as Kubernetes' unstructured JSON
// holds them: an integer that fits an int64 as int64, any other number as
// float64; objects and lists are copied, other values kept.
func Normalize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = Normalize(x)
		}
		return m
	case []any:
		l := make([]any, len(v))
		for i, x := range v {
			l[i] = Normalize(x)
		}
		return l
	}
	return scalar(v)
}

// scalar returns a number as Normalize does; any other value as it is
// (objects and lists are validated member by member, each normalized
// when met, without a copy).
func scalar(v any) any {
	switch v := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return i
		}
		f, _ := strconv.ParseFloat(string(v), 64)
		return f
	case int:
		return int64(v)
	case int32:
		return int64(v)
	case uint64:
		if v <= math.MaxInt64 {
			return int64(v)
		}
		return float64(v)
	case float32:
		return float64(v)
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<63 && !strings.ContainsAny(strconv.FormatFloat(v, 'g', -1, 64), "e.") {
			return int64(v)
		}
		return v
	}
	return v
}

// code is the kind of a problem the schema validator reports, which
// decides how Kubernetes writes it.
type code int

const (
	codeInvalid   code = iota // field.Invalid with the message
	codeType                  // field.TypeInvalid
	codeRequired              // field.Required
	codeEnum                  // field.NotSupported
	codeTooLong               // field.TooLongMaxLength
	codeMaxItems              // field.TooMany
	codeMaxProps              // field.TooMany
	codeComposite             // an error of no field: "[]: Invalid value: \"\": …"
)

// verr is one problem: its code, the validator's dotted name for the
// field, the value at fault and the validator's message.
type verr struct {
	code   code
	name   string
	value  any
	hasVal bool
	limit  int64
	enum   []any
	msg    string
}

// violation returns e as apiextensions-apiserver turns the validator's
// error into a field.Error.
func (e verr) violation() Violation {
	field := strings.TrimPrefix(e.name, ".")
	if e.name == "." {
		field = ""
	}
	value := e.value
	if !e.hasVal {
		value = ""
	}
	switch e.code {
	case codeRequired:
		return Violation{Type: "Required value", Field: field, Body: "Required value"}
	case codeEnum:
		vals := make([]string, len(e.enum))
		for i, x := range e.enum {
			if s, ok := x.(string); ok {
				vals[i] = strconv.Quote(s)
			} else {
				b, _ := json.Marshal(x)
				vals[i] = strconv.Quote(string(b))
			}
		}
		body := "Unsupported value: " + badValue(e.value)
		if len(vals) > 0 {
			body += ": supported values: " + strings.Join(vals, ", ")
		}
		return Violation{Type: "Unsupported value", Field: field, Body: body}
	case codeTooLong:
		return Violation{Type: "Too long", Field: field, Body: fmt.Sprintf("Too long: may not be longer than %d", e.limit)}
	case codeMaxItems, codeMaxProps:
		return Violation{Type: "Too many", Field: field, Body: fmt.Sprintf("Too many: %d: must have at most %d items", e.value, e.limit)}
	case codeComposite:
		return Violation{Type: "Invalid value", Body: `Invalid value: "": ` + e.msg}
	}
	return Violation{Type: "Invalid value", Field: field, Body: "Invalid value: " + badValue(value) + ": " + e.msg}
}

// badValue writes a value as field.Error does: simple values plainly,
// strings quoted, null as null, anything else as Go's %#v.
func badValue(v any) string {
	switch t := v.(type) {
	case nil:
		return `"null"` // field.Error writes a nil value as the string "null"
	case int64, float64, bool:
		return fmt.Sprintf("%v", t)
	case string:
		return strconv.Quote(t)
	}
	return fmt.Sprintf("%#v", Normalize(v))
}

// result is what validating a value found: its problems, each once (by
// message, as the validator keeps them), and the number of checks that
// ran, by which anyOf and oneOf pick the alternative to report.
type result struct {
	errs  []verr
	count int
}

func (r *result) add(e verr) {
	s := e.message()
	for _, x := range r.errs {
		if x.message() == s {
			return
		}
	}
	r.errs = append(r.errs, e)
}

func (r *result) merge(o *result) {
	if o == nil {
		return
	}
	for _, e := range o.errs {
		r.add(e)
	}
	r.count += o.count
}

func (r *result) ok() bool { return r == nil || len(r.errs) == 0 }

func fail(e verr) *result { return &result{errs: []verr{e}} }

// message is the validator's own text of e, by which it keeps each once.
func (e verr) message() string { return fmt.Sprint(e.code, "\x00", e.name, "\x00", e.msg) }

// JSON types, as the validator names them.
const (
	jsObject  = "object"
	jsArray   = "array"
	jsString  = "string"
	jsInteger = "integer"
	jsNumber  = "number"
	jsBoolean = "boolean"
	jsNull    = "null"
)

// types returns the types s allows: x-kubernetes-int-or-string is
// integer or string.
func types(s *Schema) []string {
	if s.XIntOrString {
		return []string{jsInteger, jsString}
	}
	if s.Type != "" {
		return []string{s.Type}
	}
	return nil
}

// format returns the format of s the API server keeps (the others are
// dropped before validation), normalized without dashes.
func format(s *Schema) string {
	f := strings.ReplaceAll(s.Format, "-", "")
	if _, ok := formats[f]; ok {
		return f
	}
	return ""
}

// typeOf names the JSON type of a normalized value, and its Go format.
func typeOf(v any) (string, string) {
	switch v.(type) {
	case bool:
		return jsBoolean, ""
	case string:
		return jsString, ""
	case int64:
		return jsInteger, "int64"
	case float64:
		return jsNumber, "float64"
	case []any:
		return jsArray, ""
	case map[string]any:
		return jsObject, ""
	}
	return "", ""
}

// validateValue validates v at name against s, in the validator's order:
// type, composition (allOf, anyOf, oneOf, not), string, format, number,
// array, enum, object.
func validateValue(s *Schema, name string, v any) *result {
	res := &result{}
	v = scalar(v)
	if v == nil {
		res.merge(validateType(s, name, nil))
		res.merge(validateEnum(s, name, nil))
		return res
	}
	kind, _ := typeOf(v)
	fmtName := format(s)
	run := func(r *result) {
		res.merge(r)
		res.count++
	}
	if len(types(s)) > 0 || fmtName != "" {
		run(validateType(s, name, v))
	}
	run(validateComposition(s, name, v))
	if kind == jsString {
		run(validateString(s, name, v.(string)))
		if fmtName != "" {
			run(validateFormat(fmtName, s.Format, name, v.(string)))
		}
	}
	if kind == jsInteger || kind == jsNumber {
		run(validateNumber(s, name, v))
	}
	if kind == jsArray {
		run(validateArray(s, name, v.([]any)))
	}
	run(validateEnum(s, name, v))
	if kind == jsObject {
		run(validateObject(s, name, v.(map[string]any)))
	}
	res.count++
	return res
}

func typeErr(name, typ string, value any) verr {
	msg := fmt.Sprintf("%s in body must be of type %s", name, typ)
	if s, ok := value.(string); ok {
		msg += ": " + strconv.Quote(s)
	}
	return verr{code: codeType, name: name, value: value, hasVal: true, msg: msg}
}

func validateType(s *Schema, name string, v any) *result {
	ts := types(s)
	if v == nil {
		if len(ts) > 0 && !slices.Contains(ts, jsNull) && !s.Nullable {
			return fail(typeErr(name, strings.Join(ts, ","), jsNull))
		}
		return &result{count: 1}
	}
	kind, gofmt := typeOf(v)
	f := format(s)
	isFloatInt := kind == jsNumber && isJSONInteger(v.(float64)) && slices.Contains(ts, jsInteger)
	isIntFloat := kind == jsInteger && slices.Contains(ts, jsNumber)
	if kind != jsString && kind != jsArray && f != "" && !(slices.Contains(ts, kind) || gofmt == f || isFloatInt || isIntFloat) {
		return fail(typeErr(name, s.Format, gofmt))
	}
	if !(slices.Contains(ts, jsNumber) || slices.Contains(ts, jsInteger)) && f != "" && (kind == jsString || kind == jsArray) {
		return &result{count: 1}
	}
	if !(slices.Contains(ts, kind) || isFloatInt || isIntFloat) {
		return fail(typeErr(name, strings.Join(ts, ","), kind))
	}
	return &result{count: 1}
}

// isJSONInteger reports whether f is an integer JSON numbers hold exactly
// (within ±2^53).
func isJSONInteger(f float64) bool {
	if math.IsNaN(f) || math.IsInf(f, 0) || f < -(1<<53) || f > 1<<53-1 {
		return false
	}
	return f == math.Trunc(f)
}

func validateComposition(s *Schema, name string, v any) *result {
	main := &result{}
	if len(s.AnyOf) > 0 {
		var best, first *result
		ok := false
		for i := range s.AnyOf {
			r := validateValue(&s.AnyOf[i], name, v)
			if r.ok() {
				best, ok = nil, true
				first = r
				break
			}
			if best == nil || r.count > best.count {
				best = r
			}
		}
		if !ok {
			main.add(verr{code: codeComposite, name: name, msg: fmt.Sprintf("%q must validate at least one schema (anyOf)", name)})
		}
		if best != nil {
			main.merge(best)
		} else if first != nil {
			main.merge(first)
		}
	}
	if len(s.OneOf) > 0 {
		var best, first *result
		valid := 0
		for i := range s.OneOf {
			r := validateValue(&s.OneOf[i], name, v)
			if r.ok() {
				valid++
				best = nil
				if first == nil {
					first = r
				}
				continue
			}
			if valid == 0 && (best == nil || r.count > best.count) {
				best = r
			}
		}
		if valid != 1 {
			extra := "Found none valid"
			if valid > 1 {
				extra = fmt.Sprintf("Found %d valid alternatives", valid)
			}
			main.add(verr{code: codeComposite, name: name, msg: fmt.Sprintf("%q must validate one and only one schema (oneOf). %s", name, extra)})
			if best != nil {
				main.merge(best)
			}
		} else if first != nil {
			main.merge(first)
		}
	}
	if len(s.AllOf) > 0 {
		valid := 0
		for i := range s.AllOf {
			r := validateValue(&s.AllOf[i], name, v)
			if r.ok() {
				valid++
			}
			main.merge(r)
		}
		if valid != len(s.AllOf) {
			extra := ""
			if valid == 0 {
				extra = ". None validated"
			}
			main.add(verr{code: codeComposite, name: name, msg: fmt.Sprintf("%q must validate all the schemas (allOf)%s", name, extra)})
		}
	}
	if s.Not != nil && validateValue(s.Not, name, v).ok() {
		main.add(verr{code: codeComposite, name: name, msg: fmt.Sprintf("%q must not validate the schema (not)", name)})
	}
	main.count++
	return main
}

func validateString(s *Schema, name, v string) *result {
	n := int64(utf8.RuneCountInString(v))
	if s.MaxLength != nil && n > *s.MaxLength {
		return fail(verr{code: codeTooLong, name: name, value: v, hasVal: true, limit: *s.MaxLength,
			msg: fmt.Sprintf("%s in body should be at most %d chars long", name, *s.MaxLength)})
	}
	if s.MinLength != nil && n < *s.MinLength {
		return fail(verr{name: name, value: v, hasVal: true,
			msg: fmt.Sprintf("%s in body should be at least %d chars long", name, *s.MinLength)})
	}
	if s.Pattern != "" {
		re, err := compilePattern(s.Pattern)
		switch {
		case err != nil:
			return fail(verr{name: name, value: v, hasVal: true,
				msg: fmt.Sprintf("%s in body should match '%s, but pattern is invalid: %s'", name, s.Pattern, err)})
		case !re.MatchString(v):
			return fail(verr{name: name, value: v, hasVal: true,
				msg: fmt.Sprintf("%s in body should match '%s'", name, s.Pattern)})
		}
	}
	return nil
}

var patterns sync.Map // pattern → *regexp.Regexp or error

// compilePattern compiles a schema's pattern once.
func compilePattern(p string) (*regexp.Regexp, error) {
	if x, ok := patterns.Load(p); ok {
		if re, ok := x.(*regexp.Regexp); ok {
			return re, nil
		}
		return nil, x.(error)
	}
	re, err := regexp.Compile(p)
	if err != nil {
		patterns.Store(p, err)
		return nil, err
	}
	patterns.Store(p, re)
	return re, nil
}

// validateFormat checks v against the format f (written as written, in
// the message).
func validateFormat(f, written, name, v string) *result {
	if formats[f](v) {
		return nil
	}
	return &result{errs: []verr{{name: name, value: v, hasVal: true,
		msg: fmt.Sprintf("%s in body must be of type %s: %q", name, written, v)}}}
}

func validateNumber(s *Schema, name string, v any) *result {
	res := &result{}
	i, isInt := v.(int64)
	f := asFloat(v)
	if s.MultipleOf != nil {
		m := *s.MultipleOf
		var bad bool
		var factor any = m
		switch {
		case m <= 0:
			res.add(verr{name: name, value: m, hasVal: true, msg: fmt.Sprintf("factor MultipleOf declared for %s must be positive: %v", name, m)})
		case isInt && int64(m) > 0:
			factor = int64(m)
			bad = (i/int64(m))*int64(m) != i
		case isInt:
			// An integer's factor is truncated: 0.5 becomes 0.
			res.add(verr{name: name, value: int64(m), hasVal: true, msg: fmt.Sprintf("factor MultipleOf declared for %s must be positive: %v", name, int64(m))})
		default:
			q := f / m
			if m < 1 {
				q = 1 / m * f
			}
			bad = !isJSONInteger(q)
		}
		if bad {
			res.add(verr{name: name, value: v, hasVal: true, msg: fmt.Sprintf("%s in body should be a multiple of %v", name, factor)})
		}
	}
	if s.Minimum != nil {
		m := *s.Minimum
		var bad bool
		var bound any = m
		if isInt {
			bound = int64(m)
			bad = i < int64(m) || (s.ExclusiveMinimum && i <= int64(m))
		} else {
			bad = f < m || (s.ExclusiveMinimum && f <= m)
		}
		if bad {
			word := "greater than or equal to"
			if s.ExclusiveMinimum {
				word = "greater than"
			}
			res.add(verr{name: name, value: v, hasVal: true, msg: fmt.Sprintf("%s in body should be %s %v", name, word, bound)})
		}
	}
	if s.Maximum != nil {
		m := *s.Maximum
		var bad bool
		var bound any = m
		if isInt {
			bound = int64(m)
			bad = i > int64(m) || (s.ExclusiveMaximum && i >= int64(m))
		} else {
			bad = f > m || (s.ExclusiveMaximum && f >= m)
		}
		if bad {
			word := "less than or equal to"
			if s.ExclusiveMaximum {
				word = "less than"
			}
			res.add(verr{name: name, value: v, hasVal: true, msg: fmt.Sprintf("%s in body should be %s %v", name, word, bound)})
		}
	}
	res.count++
	return res
}

func asFloat(v any) float64 {
	switch v := v.(type) {
	case int64:
		return float64(v)
	case float64:
		return v
	}
	return 0
}

func validateArray(s *Schema, name string, v []any) *result {
	res := &result{}
	if s.Items != nil && s.Items.Schema != nil {
		for i, x := range v {
			res.merge(validateValue(s.Items.Schema, fmt.Sprintf("%s[%d]", name, i), x))
		}
	}
	if s.Items != nil {
		for i := range s.Items.Schemas {
			if i >= len(v) {
				break
			}
			res.merge(validateValue(&s.Items.Schemas[i], fmt.Sprintf("%s[%d]", name, i), v[i]))
		}
	}
	n := int64(len(v))
	if s.MinItems != nil && n < *s.MinItems {
		res.add(verr{name: name, value: n, hasVal: true, msg: fmt.Sprintf("%s in body should have at least %d items", name, *s.MinItems)})
	}
	if s.MaxItems != nil && n > *s.MaxItems {
		res.add(verr{code: codeMaxItems, name: name, value: n, hasVal: true, limit: *s.MaxItems, msg: fmt.Sprintf("%s in body should have at most %d items", name, *s.MaxItems)})
	}
	if s.UniqueItems {
		for i := range v {
			vi := Normalize(v[i])
			if slices.ContainsFunc(v[:i], func(x any) bool { return reflect.DeepEqual(Normalize(x), vi) }) {
				res.add(verr{name: name, msg: fmt.Sprintf("%s in body shouldn't contain duplicates", name)})
				break
			}
		}
	}
	res.count++
	return res
}

// validateEnum checks v against s's enum as the validator does: equal to
// one of its values (decoded as Kubernetes decodes JSON: integers int64,
// other numbers float64) once converted to that value's Go type where Go
// converts it — an integer to a float and back (truncating), an integer
// to a string (the code point) —, so 5.5 passes an enum of 5.
func validateEnum(s *Schema, name string, v any) *result {
	if len(s.Enum) == 0 {
		return nil
	}
	values := enumValues(s.Enum)
	for _, x := range values {
		if enumEqual(v, x) {
			return nil
		}
	}
	return fail(verr{code: codeEnum, name: name, value: v, hasVal: true, enum: values,
		msg: fmt.Sprintf("%s in body should be one of %v", name, values)})
}

// enums holds the decoded values of each enum met, by a weak pointer to
// its first value (shared by every copy of its schema); an entry goes
// when its enum does.
var enums sync.Map

// enumValues returns the values of enum decoded as Kubernetes decodes
// JSON (integers int64, other numbers float64), once per enum.
func enumValues(enum []JSON) []any {
	key := weak.Make(&enum[0])
	if x, ok := enums.Load(key); ok {
		return x.([]any)
	}
	values := make([]any, 0, len(enum))
	for _, e := range enum {
		dec := json.NewDecoder(strings.NewReader(string(e)))
		dec.UseNumber()
		var x any
		if dec.Decode(&x) != nil {
			continue
		}
		values = append(values, Normalize(x))
	}
	if x, loaded := enums.LoadOrStore(key, values); loaded {
		return x.([]any)
	}
	runtime.AddCleanup(&enum[0], func(k weak.Pointer[JSON]) { enums.Delete(k) }, key)
	return values
}

// enumEqual reports whether data, converted to the Go type of the enum
// value e where Go converts it, equals e.
func enumEqual(data, e any) bool {
	if data == nil || e == nil {
		return false
	}
	switch e := e.(type) {
	case int64:
		switch d := data.(type) {
		case int64:
			return d == e
		case float64:
			return int64(d) == e
		}
		return false
	case float64:
		switch d := data.(type) {
		case int64:
			return float64(d) == e
		case float64:
			return d == e
		}
		return false
	case string:
		switch d := data.(type) {
		case string:
			return d == e
		case int64:
			return intToString(d) == e
		}
		return false
	}
	return reflect.DeepEqual(Normalize(data), e)
}

// intToString is Go's conversion of an integer to a string: its code
// point, U+FFFD when it is none.
func intToString(i int64) string {
	if i < 0 || i > utf8.MaxRune {
		return string(utf8.RuneError)
	}
	return string(rune(i))
}

func validateObject(s *Schema, name string, v map[string]any) *result {
	res := &result{}
	n := int64(len(v))
	if s.MinProperties != nil && n < *s.MinProperties {
		res.add(verr{name: name, value: n, hasVal: true, msg: fmt.Sprintf("%s in body should have at least %d properties", name, *s.MinProperties)})
	}
	if s.MaxProperties != nil && n > *s.MaxProperties {
		res.add(verr{code: codeMaxProps, name: name, value: n, hasVal: true, limit: *s.MaxProperties, msg: fmt.Sprintf("%s in body should have at most %d properties", name, *s.MaxProperties)})
	}
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if ap := s.AdditionalProperties; ap != nil && !ap.Allows && ap.Schema == nil {
		for _, k := range keys {
			if _, ok := s.Properties[k]; !ok {
				res.add(verr{name: name, value: k, hasVal: true, msg: fmt.Sprintf("%s.%s in body is a forbidden property", name, k)})
			}
		}
	} else if ap != nil && ap.Schema != nil {
		for _, k := range keys {
			if _, ok := s.Properties[k]; !ok {
				res.merge(validateValue(ap.Schema, name+"."+k, v[k]))
			}
		}
	}
	props := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		props = append(props, k)
	}
	slices.Sort(props)
	for _, k := range props {
		if x, ok := v[k]; ok {
			sub := s.Properties[k]
			child := k
			if name != "" {
				child = name + "." + k
			}
			res.merge(validateValue(&sub, child, x))
		}
	}
	for _, k := range s.Required {
		if _, ok := v[k]; !ok {
			res.add(verr{code: codeRequired, name: name + "." + k, msg: fmt.Sprintf("%s.%s in body is required", name, k)})
		}
	}
	return res
}
