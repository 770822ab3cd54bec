// Package fastyaml reads YAML documents into the value Kubernetes' reading
// gives them (sigs.k8s.io/yaml.YAMLToJSON, then encoding/json with
// UseNumber), and into that JSON text itself, fast: the block style that
// kubectl and the YAML libraries print is parsed directly, into the value
// (Fast) or straight into the JSON text (Converter), anything else by the
// YAML library, converted without the JSON round trip where the conversion
// is exact. Package cluster reads manifests with it, package graph YAML
// catalogs. It also splits the List documents `kubectl get -o yaml` prints
// into their items (ListItems).
package fastyaml

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	yamlv2 "go.yaml.in/yaml/v2"
	"sigs.k8s.io/yaml"
)

// Value decodes one YAML document into the value that Kubernetes'
// reading gives it: sigs.k8s.io/yaml.YAMLToJSON, then encoding/json with
// UseNumber (objects are map[string]any, numbers json.Number). It parses
// the YAML once with the parser sigs.k8s.io/yaml uses and converts the
// result in place, without writing and reading JSON text; a value the
// conversion does not know to give exactly as that round trip (a float key,
// an infinite number, text that is not UTF-8, a key written two ways) takes
// the round trip itself, so the value and the errors are the same. One
// difference: a key written two ways (1 and "1") is an error, where the
// round trip keeps one of the two at random.
func Value(doc []byte) (any, error) {
	if v, ok := Fast(doc); ok {
		return v, nil
	}
	return Library(doc)
}

// ValueSharing is Value, except that a long string (64 KiB or more, at
// least half of doc) that doc holds as it is — a scalar on one line
// without escapes, the value of a large annotation, say — is not copied
// into the value: the string shares doc's memory. doc's bytes that such a
// string holds must not change while the value lives (doc's other bytes
// may), and the string keeps doc's memory alive.
func ValueSharing(doc []byte) (any, error) {
	if v, ok := fastTree(doc, shareMin); ok {
		return v, nil
	}
	return Library(doc)
}

// Library is Value by the YAML library alone, without the fast path.
func Library(doc []byte) (any, error) {
	var y any
	if err := yamlv2.Unmarshal(doc, &y); err != nil {
		return nil, err
	}
	v, ok, err := jsonable(y)
	if err != nil || ok {
		return v, err
	}
	return ViaJSON(doc)
}

// keyTwiceError reports a mapping with two keys that are one key in JSON.
type keyTwiceError struct{ key string }

func (e *keyTwiceError) Error() string {
	return fmt.Sprintf("key %q is written twice in one mapping (once not as a string): which value counts is not defined", e.key)
}

// ViaJSON is Value by the JSON round trip it stands for:
// sigs.k8s.io/yaml.YAMLToJSON, then encoding/json with UseNumber.
func ViaJSON(doc []byte) (any, error) {
	js, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// jsonable converts a value of the YAML parser to what encoding/json reads
// back from its JSON form, or reports false for a value it leaves to the
// round trip.
func jsonable(y any) (any, bool, error) {
	switch y := y.(type) {
	case nil, bool:
		return y, true, nil
	case string:
		return y, utf8.ValidString(y), nil
	case int:
		return json.Number(strconv.Itoa(y)), true, nil
	case int64:
		return json.Number(strconv.FormatInt(y, 10)), true, nil
	case uint64:
		return json.Number(strconv.FormatUint(y, 10)), true, nil
	case float64:
		if math.IsInf(y, 0) || math.IsNaN(y) {
			return nil, false, nil // encoding/json refuses them: the round trip says how
		}
		b, err := json.Marshal(y)
		return json.Number(b), err == nil, nil
	case []any:
		out := make([]any, len(y))
		for i, e := range y {
			v, ok, err := jsonable(e)
			if !ok || err != nil {
				return nil, ok, err
			}
			out[i] = v
		}
		return out, true, nil
	case map[any]any:
		out := make(map[string]any, len(y))
		for k, e := range y {
			key, ok := jsonKey(k)
			if !ok || !utf8.ValidString(key) { // null, compound keys, text not UTF-8
				return nil, false, nil
			}
			if _, dup := out[key]; dup {
				return nil, true, &keyTwiceError{key}
			}
			v, ok, err := jsonable(e)
			if !ok || err != nil {
				return nil, ok, err
			}
			out[key] = v
		}
		return out, true, nil
	}
	return nil, false, nil
}
