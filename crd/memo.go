package crd

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
)

// unhandled is the unhandled check's report on two schemas (what
// compareProperty leaves of them): crdify's text and operator-
// controller's summary of it.
type unhandled struct{ raw, concise string }

// maxUnhandled bounds the reports a Checker keeps: at that many it starts
// again.
const maxUnhandled = 4096

// unhandledDiff returns the unhandled check's report on a and b, once per
// pair of contents for the Checker: the edges of a package compare one
// property's same two texts many times over (a skipRange lists many
// sources whose property is word for word the same), and go-cmp's report
// is the costliest step of a comparison. Two pairs are the same when the
// SHA-256 of their exact encoding (schemaKey) is, as bundle manifests are
// one CRD when the SHA-256 of their texts is.
func (c *Checker) unhandledDiff(a, b *Schema) unhandled {
	c.key = c.key[:0]
	c.key = appendSchema(c.key, a)
	c.key = appendSchema(c.key, b)
	k := sha256.Sum256(c.key)
	if u, ok := c.diffs[k]; ok {
		return u
	}
	diff := cmpDiff(a, b)
	u := unhandled{diff, conciseUnhandled(diff)}
	if c.diffs == nil || len(c.diffs) >= maxUnhandled {
		c.diffs = map[[sha256.Size]byte]unhandled{}
	}
	c.diffs[k] = u
	return u
}

// The encoding of a schema for unhandledDiff's key: every field in
// order, a string by its length then its bytes, a pointer, slice or map
// by a mark saying whether it is nil then its contents (a slice or map
// by its length, a map's entries by key), so that two schemas have one
// encoding only when go-cmp sees them equal.
func appendSchema(b []byte, s *Schema) []byte {
	if s == nil {
		return append(b, 0)
	}
	b = append(b, 1)
	b = appendString(b, s.ID)
	b = appendString(b, s.SchemaURI)
	b = appendPtrString(b, s.Ref)
	b = appendString(b, s.Description)
	b = appendString(b, s.Type)
	b = appendString(b, s.Format)
	b = appendString(b, s.Title)
	b = appendJSON(b, s.Default)
	b = appendFloat(b, s.Maximum)
	b = appendBool(b, s.ExclusiveMaximum)
	b = appendFloat(b, s.Minimum)
	b = appendBool(b, s.ExclusiveMinimum)
	b = appendInt(b, s.MaxLength)
	b = appendInt(b, s.MinLength)
	b = appendString(b, s.Pattern)
	b = appendInt(b, s.MaxItems)
	b = appendInt(b, s.MinItems)
	b = appendBool(b, s.UniqueItems)
	b = appendFloat(b, s.MultipleOf)
	b = appendLen(b, s.Enum == nil, len(s.Enum))
	for _, e := range s.Enum {
		b = appendString(b, string(e))
	}
	b = appendInt(b, s.MaxProperties)
	b = appendInt(b, s.MinProperties)
	b = appendStrings(b, s.Required)
	if s.Items == nil {
		b = append(b, 0)
	} else {
		b = append(b, 1)
		b = appendSchema(b, s.Items.Schema)
		b = appendSchemas(b, s.Items.Schemas)
	}
	b = appendSchemas(b, s.AllOf)
	b = appendSchemas(b, s.OneOf)
	b = appendSchemas(b, s.AnyOf)
	b = appendSchema(b, s.Not)
	b = appendSchemaMap(b, s.Properties)
	b = appendOrBool(b, s.AdditionalProperties)
	b = appendSchemaMap(b, s.PatternProperties)
	b = appendLen(b, s.Dependencies == nil, len(s.Dependencies))
	for _, k := range sortedMapKeys(s.Dependencies) {
		d := s.Dependencies[k]
		b = appendString(b, k)
		b = appendSchema(b, d.Schema)
		b = appendStrings(b, d.Property)
	}
	b = appendOrBool(b, s.AdditionalItems)
	b = appendSchemaMap(b, s.Definitions)
	if s.ExternalDocs == nil {
		b = append(b, 0)
	} else {
		b = append(b, 1)
		b = appendString(b, s.ExternalDocs.Description)
		b = appendString(b, s.ExternalDocs.URL)
	}
	b = appendJSON(b, s.Example)
	b = appendBool(b, s.Nullable)
	if p := s.XPreserveUnknownFields; p == nil {
		b = append(b, 0)
	} else {
		b = append(b, 1)
		b = appendBool(b, *p)
	}
	b = appendBool(b, s.XEmbeddedResource)
	b = appendBool(b, s.XIntOrString)
	b = appendStrings(b, s.XListMapKeys)
	b = appendPtrString(b, s.XListType)
	b = appendPtrString(b, s.XMapType)
	b = appendLen(b, s.XValidations == nil, len(s.XValidations))
	for _, r := range s.XValidations {
		b = appendString(b, r.Rule)
		b = appendString(b, r.Message)
		b = appendString(b, r.MessageExpression)
		b = appendPtrString(b, r.Reason)
		b = appendString(b, r.FieldPath)
		if r.OptionalOldSelf == nil {
			b = append(b, 0)
		} else {
			b = append(b, 1)
			b = appendBool(b, *r.OptionalOldSelf)
		}
	}
	return b
}

func appendLen(b []byte, isNil bool, n int) []byte {
	if isNil {
		return append(b, 0)
	}
	return binary.AppendUvarint(append(b, 1), uint64(n))
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func appendPtrString(b []byte, p *string) []byte {
	if p == nil {
		return append(b, 0)
	}
	return appendString(append(b, 1), *p)
}

func appendJSON(b []byte, p *JSON) []byte {
	if p == nil {
		return append(b, 0)
	}
	return appendString(append(b, 1), string(*p))
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

func appendInt(b []byte, p *int64) []byte {
	if p == nil {
		return append(b, 0)
	}
	return binary.LittleEndian.AppendUint64(append(b, 1), uint64(*p))
}

func appendFloat(b []byte, p *float64) []byte {
	if p == nil {
		return append(b, 0)
	}
	return binary.LittleEndian.AppendUint64(append(b, 1), math.Float64bits(*p))
}

func appendStrings(b []byte, l []string) []byte {
	b = appendLen(b, l == nil, len(l))
	for _, s := range l {
		b = appendString(b, s)
	}
	return b
}

func appendSchemas(b []byte, l []Schema) []byte {
	b = appendLen(b, l == nil, len(l))
	for i := range l {
		b = appendSchema(b, &l[i])
	}
	return b
}

func appendSchemaMap(b []byte, m map[string]Schema) []byte {
	b = appendLen(b, m == nil, len(m))
	for _, k := range sortedMapKeys(m) {
		s := m[k]
		b = appendString(b, k)
		b = appendSchema(b, &s)
	}
	return b
}

func appendOrBool(b []byte, p *SchemaOrBool) []byte {
	if p == nil {
		return append(b, 0)
	}
	b = appendBool(append(b, 1), p.Allows)
	return appendSchema(b, p.Schema)
}
