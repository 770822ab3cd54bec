// Package godiff writes the difference between two values as
// github.com/google/go-cmp's Diff writes it for the Go types that stand
// behind them, so that Sextant words a CRD change exactly as crdify's
// "unhandled" comparison does (operator-controller reads the lines of
// that report). The values are described, not reflected: a [Type] names a
// Go type as go-cmp prints it (package-qualified by its package's name,
// "v1.JSONSchemaProps"), and a [Value] holds one value of it.
//
// go-cmp's output is deliberately unstable between processes (the
// direction its edit script searches first, spaces or non-breaking
// spaces); Diff writes what go-cmp writes in its deterministic mode: a
// forward search first, and plain spaces.
package godiff

import "math"

// Kind is the kind of a Go type.
type Kind uint8

// The kinds of Go type described.
const (
	Bool Kind = iota + 1
	Int
	Uint8
	Float
	String
	Struct
	Ptr
	Slice
	Map
)

// Type describes a Go type.
type Type struct {
	// Name is the type as go-cmp writes it: "v1.JSONSchemaProps",
	// "*string", "[]uint8", "map[string]v1.JSONSchemaProps".
	Name string
	// Named is set for a defined (named) type.
	Named bool
	Kind  Kind
	// Elem is the element type of a Ptr, Slice or Map (whose keys are
	// strings).
	Elem *Type
	// Fields names a Struct's fields, in order.
	Fields []string
	// Stringer, for a Ptr, is the String method the pointed-to type has
	// (a pointer receiver): go-cmp prints a non-nil pointer through it.
	Stringer func(v *Value) string
}

// Value is one value of a Type. A nil *Value is an absent value (a slice
// element or a map entry missing on one side).
type Value struct {
	T *Type
	// Nil is set for a nil Ptr, Slice or Map.
	Nil   bool
	Bool  bool
	Int   int64 // Int, Uint8
	Float float64
	Str   string
	// Fields are a Struct's fields, one per T.Fields.
	Fields []*Value
	// Elem is what a non-nil Ptr points to.
	Elem *Value
	// Elems are a Slice's elements.
	Elems []*Value
	// Keys and Vals are a Map's entries, Keys sorted.
	Keys []string
	Vals []*Value
	// Ref is what a Stringer reads.
	Ref any
}

// IsZero reports whether v is its type's zero value, as reflect.Value's
// IsZero does.
func (v *Value) IsZero() bool {
	switch v.T.Kind {
	case Bool:
		return !v.Bool
	case Int, Uint8:
		return v.Int == 0
	case Float:
		return math.Float64bits(v.Float) == 0
	case String:
		return v.Str == ""
	case Ptr, Slice, Map:
		return v.Nil
	case Struct:
		for _, f := range v.Fields {
			if !f.IsZero() {
				return false
			}
		}
		return true
	}
	return false
}

func (v *Value) length() int {
	switch v.T.Kind {
	case String:
		return len(v.Str)
	case Slice:
		return len(v.Elems)
	}
	return 0
}

// bytes returns a []uint8's elements as bytes.
func (v *Value) bytes() []byte {
	b := make([]byte, len(v.Elems))
	for i, e := range v.Elems {
		b[i] = byte(e.Int)
	}
	return b
}
