package cluster

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
	"unsafe"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/fastjson"
)

// CSVProperties is a CSV's operatorframework.io/properties annotation,
// read once where it enters: the properties as listed, and their typed
// view, read as graph reads a catalog bundle's properties (the olm.package
// version tolerantly). When a CSV carries the annotation, OLM takes the
// CSV's package, version, provided and required APIs, labels and
// deprecation from it instead of from the CSV's spec.
//
// A CSVProperties is immutable and safe for concurrent use: to change the
// properties of a CSV, make a new one. The zero value has no properties.
// Its JSON form is the list of properties, [{"type": …, "value": …}, …].
type CSVProperties struct {
	list  []graph.Property
	typed *graph.Bundle
	err   error
}

// NewCSVProperties reads props, which the CSVProperties keeps (the caller
// must not modify them after). Properties of the types Sextant interprets
// that do not parse are reported by Err; what they would add is left out,
// as graph leaves it out of a catalog bundle.
func NewCSVProperties(props ...graph.Property) *CSVProperties {
	p := &CSVProperties{list: props}
	p.typed, p.err = graph.ParseProperties(props)
	return p
}

// PropertiesOf returns the properties of catalog bundle b as OLM projects
// them onto the CSV it installs from b; their typed view (and Err) is b's
// own, not read again. b must not be modified after.
func PropertiesOf(b *graph.Bundle) *CSVProperties {
	return &CSVProperties{list: b.Properties, typed: b, err: b.PropertyError()}
}

// List returns the properties in annotation order. The slice is shared
// and must not be modified.
func (p *CSVProperties) List() []graph.Property {
	if p == nil {
		return nil
	}
	return p.list
}

// Typed returns the typed view of the properties: a bundle whose
// DeclaredPackage, Version, Provides, RequiresGVK, RequiresPackage, Labels,
// Constraints, Deprecated and MaxOpenShiftVersion come from the
// properties (its Name and Package are empty). It is shared and must not
// be modified.
func (p *CSVProperties) Typed() *graph.Bundle {
	if p == nil || p.typed == nil {
		return new(graph.Bundle)
	}
	return p.typed
}

// Err says which properties of the types Sextant interprets do not parse;
// nil when all do.
func (p *CSVProperties) Err() error {
	if p == nil {
		return nil
	}
	return p.err
}

// MarshalJSON writes the properties as a JSON list, values as they are.
func (p *CSVProperties) MarshalJSON() ([]byte, error) {
	type prop struct {
		Type  string          `json:"type"`
		Value json.RawMessage `json:"value"`
	}
	out := make([]prop, len(p.List()))
	for i, q := range p.List() {
		out[i] = prop{Type: q.Type, Value: q.Value}
		if len(q.Value) == 0 {
			out[i].Value = json.RawMessage("null")
		}
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads a list of properties as MarshalJSON writes it.
func (p *CSVProperties) UnmarshalJSON(data []byte) error {
	props, err := parsePropertyList(data)
	if err != nil {
		return err
	}
	*p = *NewCSVProperties(props...)
	return nil
}

// parsePropertiesAnnotation reads the operatorframework.io/properties
// annotation: {"properties":[{"type": ..., "value": ...}, ...]}. Values are
// kept as compact JSON. Known property types are checked as graph checks
// bundle properties; the properties that could be read are returned with
// the error. The values point into s's memory (read, never written: no
// copy of a long annotation).
func parsePropertiesAnnotation(s string) (*CSVProperties, error) {
	data := unsafe.Slice(unsafe.StringData(s), len(s))
	members, ok := fastjson.ValidObject(data)
	if !ok || members == nil {
		return NewCSVProperties(), fmt.Errorf("invalid properties annotation: want a JSON object {\"properties\": [...]}")
	}
	var raw []byte
	for _, m := range members {
		if fastjson.Key(m.Key) == "properties" { // the last one, as a map reads them
			raw = data[m.Start:m.End]
		}
	}
	if raw == nil || string(raw) == "null" {
		return NewCSVProperties(), nil
	}
	props, err := propertyList(raw)
	p := NewCSVProperties(props...)
	if err == nil && len(props) > 0 {
		err = p.Err()
	}
	return p, err
}

// parsePropertyList reads a JSON list of properties; values are kept as
// compact JSON. Every malformed property is reported; the others are
// returned.
func parsePropertyList(raw []byte) ([]graph.Property, error) {
	if !fastjson.Valid(raw) {
		return nil, errNotArray
	}
	i := fastjson.After(raw, 0)
	if string(raw[i:fastjson.End(raw, i)]) == "null" {
		return nil, nil
	}
	return propertyList(raw[i:])
}

var errNotArray = fmt.Errorf("properties annotation: \"properties\" is not an array")

// propertyList reads the list of properties that starts at raw[0], in
// valid JSON (the values are kept in raw's memory).
func propertyList(raw []byte) ([]graph.Property, error) {
	if raw[0] != '[' {
		return nil, errNotArray
	}
	// Room for the properties written plainly, counted by their first key.
	props := make([]graph.Property, 0, bytes.Count(raw, []byte(`{"type":`)))
	var errs []error
	var typ string // the last type read, for the next property of that type
	i := fastjson.After(raw, 1)
	for n := 0; raw[i] != ']'; n++ {
		if p, e, ok := canonicalProperty(raw, i, typ); ok {
			typ = p.Type
			props = append(props, p)
			i = fastjson.After(raw, e)
			if raw[i] == ',' {
				i = fastjson.After(raw, i+1)
			}
			continue
		}
		e := fastjson.End(raw, i)
		item := raw[i:e]
		if p, ok := plainProperty(item, typ); ok {
			typ = p.Type
			props = append(props, p)
		} else if p, err := decodeProperty(n, item); err != nil {
			errs = append(errs, err)
		} else {
			props = append(props, p)
		}
		i = fastjson.After(raw, e)
		if raw[i] == ',' {
			i = fastjson.After(raw, i+1)
		}
	}
	return props, errors.Join(errs...)
}

// canonicalProperty reads the property that starts at raw[i] when it is
// written as encoding/json writes it, {"type":"<type>","value":<value>},
// with a type without escapes and a value without white space, in one pass:
// plainProperty's property, and the index past it; ok is false for any
// other form (plainProperty reads it). A type equal to last is last.
func canonicalProperty(raw []byte, i int, last string) (p graph.Property, end int, ok bool) {
	const head, mid = `{"type":"`, `","value":`
	if !bytes.HasPrefix(raw[i:], []byte(head)) {
		return p, 0, false
	}
	i += len(head)
	q := bytes.IndexByte(raw[i:], '"')
	if q <= 0 || !bytes.HasPrefix(raw[i+q:], []byte(mid)) {
		return p, 0, false
	}
	typ := raw[i : i+q]
	v := i + q + len(mid)
	e := fastjson.End(raw, v)
	if e == v || e == len(raw) || raw[e] != '}' || bytes.IndexByte(typ, '\\') >= 0 || !utf8.Valid(typ) || hasSpace(raw[v:e]) {
		return p, 0, false
	}
	t := last
	if string(typ) != last {
		t = string(typ)
	}
	return graph.Property{Type: t, Value: raw[v:e:e]}, e + 1, true
}

// plainProperty reads a property written plainly — an object of a "type"
// string without escapes and a "value" without white space, each once —
// as decodeProperty would, without decoding it; ok is false for any other
// item (decodeProperty reads it). A type equal to last is last.
func plainProperty(item []byte, last string) (p graph.Property, ok bool) {
	if item[0] != '{' {
		return p, false
	}
	var typ, value []byte
	for m := range fastjson.Members(item, 0) {
		switch {
		case string(m.Key) == "type" && typ == nil:
			typ = item[m.Start:m.End]
		case string(m.Key) == "value" && value == nil:
			value = item[m.Start:m.End]
		default:
			return p, false
		}
	}
	if len(typ) < 3 || typ[0] != '"' || value == nil || bytes.IndexByte(typ, '\\') >= 0 || !utf8.Valid(typ) || hasSpace(value) {
		return p, false
	}
	t := last
	if string(typ[1:len(typ)-1]) != last {
		t = string(typ[1 : len(typ)-1])
	}
	return graph.Property{Type: t, Value: value[:len(value):len(value)]}, true
}

// hasSpace reports whether b holds a byte of JSON white space (inside a
// string or not).
func hasSpace(b []byte) bool {
	return bytes.ContainsAny(b, " \t\n\r")
}

// decodeProperty reads item, property n of a list, through encoding/json.
func decodeProperty(n int, item []byte) (graph.Property, error) {
	var p struct {
		Type  *string         `json:"type"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(item, &p); err != nil {
		return graph.Property{}, fmt.Errorf("property %d: want an object with a string \"type\" and a \"value\"", n)
	}
	if p.Type == nil || *p.Type == "" {
		return graph.Property{}, fmt.Errorf("property %d: missing \"type\"", n)
	}
	var buf bytes.Buffer
	if len(p.Value) == 0 {
		buf.WriteString("null")
	} else if err := json.Compact(&buf, p.Value); err != nil {
		return graph.Property{}, fmt.Errorf("property %d (%s): invalid value: %v", n, *p.Type, err)
	}
	return graph.Property{Type: *p.Type, Value: buf.Bytes()}, nil
}
