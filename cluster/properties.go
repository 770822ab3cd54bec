package cluster

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/sextantdev/sextant/graph"
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
// the error.
func parsePropertiesAnnotation(s string) (*CSVProperties, error) {
	var anno map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &anno); err != nil || anno == nil {
		return NewCSVProperties(), fmt.Errorf("invalid properties annotation: want a JSON object {\"properties\": [...]}")
	}
	raw, ok := anno["properties"]
	if !ok || string(bytes.TrimSpace(raw)) == "null" {
		return NewCSVProperties(), nil
	}
	props, err := parsePropertyList(raw)
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
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("properties annotation: \"properties\" is not an array")
	}
	var props []graph.Property
	var errs []error
	for i, item := range items {
		var p struct {
			Type  *string         `json:"type"`
			Value json.RawMessage `json:"value"`
		}
		if err := json.Unmarshal(item, &p); err != nil {
			errs = append(errs, fmt.Errorf("property %d: want an object with a string \"type\" and a \"value\"", i))
			continue
		}
		if p.Type == nil || *p.Type == "" {
			errs = append(errs, fmt.Errorf("property %d: missing \"type\"", i))
			continue
		}
		var buf bytes.Buffer
		if len(p.Value) == 0 {
			buf.WriteString("null")
		} else if err := json.Compact(&buf, p.Value); err != nil {
			errs = append(errs, fmt.Errorf("property %d (%s): invalid value: %v", i, *p.Type, err))
			continue
		}
		props = append(props, graph.Property{Type: *p.Type, Value: buf.Bytes()})
	}
	return props, errors.Join(errs...)
}
