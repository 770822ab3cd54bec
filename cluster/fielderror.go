package cluster

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// FieldErrorType is the kind of a [FieldError], named as Kubernetes names
// it (k8s.io/apimachinery's field.ErrorType).
type FieldErrorType string

// The types of [FieldError].
const (
	FieldValueRequired     FieldErrorType = "FieldValueRequired"
	FieldValueInvalid      FieldErrorType = "FieldValueInvalid"
	FieldValueTypeInvalid  FieldErrorType = "FieldValueTypeInvalid"
	FieldValueNotSupported FieldErrorType = "FieldValueNotSupported"
	FieldValueForbidden    FieldErrorType = "FieldValueForbidden"
	FieldValueTooLong      FieldErrorType = "FieldValueTooLong"
	FieldValueTooMany      FieldErrorType = "FieldValueTooMany"
	FieldValueDuplicate    FieldErrorType = "FieldValueDuplicate"
)

// String returns the words Kubernetes writes for t ("Required value").
func (t FieldErrorType) String() string {
	switch t {
	case FieldValueRequired:
		return "Required value"
	case FieldValueInvalid, FieldValueTypeInvalid:
		return "Invalid value"
	case FieldValueNotSupported:
		return "Unsupported value"
	case FieldValueForbidden:
		return "Forbidden"
	case FieldValueTooLong:
		return "Too long"
	case FieldValueTooMany:
		return "Too many"
	case FieldValueDuplicate:
		return "Duplicate value"
	}
	return string(t)
}

// blocking reports whether an error of type t stops the API server from
// evaluating a CRD's validation rules (apiextensions-apiserver's
// hasBlockingErr).
func (t FieldErrorType) blocking() bool {
	switch t {
	case FieldValueNotSupported, FieldValueRequired, FieldValueTooLong, FieldValueTooMany, FieldValueTypeInvalid:
		return true
	}
	return false
}

// FieldError is one problem the API server finds in an object, as it
// writes it (k8s.io/apimachinery's field.Error): "spec.namespace: Invalid
// value: \"Foo\": namespace must be a valid DNS1123 label". It is the Err
// of an [*Error] for the OLM v1 kinds, whose Error method puts it after
// the API server's `Kind.group "name" is invalid: `.
type FieldError struct {
	Type FieldErrorType
	// Field is the path of the field ("spec.source.catalog.channels[0]");
	// empty for a problem of no field, which the API server writes
	// "<nil>".
	Field string
	// Value is the value at fault, as written after the type (a string
	// quoted, an integer as is, anything else as JSON); NoValue leaves
	// it out, as Kubernetes does for objects, arrays and lengths.
	Value any
	// Detail says what is wrong ("" for none).
	Detail string
}

// NoValue is a [FieldError] Value that is not written.
var NoValue = noValue{}

type noValue struct{}

// Error returns the problem as the API server writes it.
func (e *FieldError) Error() string {
	f := e.Field
	if f == "" {
		f = "<nil>"
	}
	return f + ": " + e.Body()
}

// Body returns the problem without its field: "Invalid value: \"Foo\":
// namespace must be a valid DNS1123 label".
func (e *FieldError) Body() string {
	s := e.Type.String()
	switch e.Type {
	case FieldValueRequired, FieldValueForbidden, FieldValueTooLong:
	default:
		if e.Value != NoValue {
			s += ": " + valueText(e.Value)
		}
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// valueText writes a bad value as Kubernetes does: simple types as they
// are, strings quoted, anything else as JSON.
func valueText(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case int, int32, int64, bool:
		return fmt.Sprint(v)
	case json.Number:
		return v.String()
	}
	js, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(js)
}

// InvalidHeader returns the API server's words before the problems of an
// object it refuses: `ClusterExtension.olm.operatorframework.io "x" is
// invalid`.
func InvalidHeader(kind, group, name string) string {
	return fmt.Sprintf("%s.%s %q is invalid", kind, group, name)
}

// UnknownFieldError is a field that the object's schema does not have:
// the API server's strict decoding error (`kubectl apply` asks for strict
// field validation), with the nearest known field when one is close.
type UnknownFieldError struct {
	// Field is the field's path ("spec.source.catalog.packagename").
	Field string
	// Near is the nearest known name of the same object, if one is close;
	// Known lists them all when they are few and none is close.
	Near  string
	Known []string
}

func (e *UnknownFieldError) namesField() {}

// Error returns `strict decoding error: unknown field "spec.foo"`, with
// the nearest field.
func (e *UnknownFieldError) Error() string {
	s := fmt.Sprintf("strict decoding error: unknown field %q", e.Field)
	switch {
	case e.Near != "":
		s += fmt.Sprintf(" (did you mean %q?)", e.Near)
	case len(e.Known) > 0:
		s += " (known: " + strings.Join(e.Known, ", ") + ")"
	}
	return s
}

// MetadataTypeError is a field of metadata of the wrong type: the API
// server cannot decode the object's ObjectMeta, and says so in
// encoding/json's words.
type MetadataTypeError struct {
	// Field is the field of ObjectMeta ("labels").
	Field string
	// Got is the JSON type found ("number", "object", …); Want the Go
	// type ObjectMeta holds ("string", "map[string]string", …).
	Got, Want string
}

func (e *MetadataTypeError) namesField() {}

// Error returns `json: cannot unmarshal number into Go struct field
// ObjectMeta.labels of type string`.
func (e *MetadataTypeError) Error() string {
	return fmt.Sprintf("json: cannot unmarshal %s into Go struct field ObjectMeta.%s of type %s", e.Got, e.Field, e.Want)
}
