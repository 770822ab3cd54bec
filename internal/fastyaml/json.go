package fastyaml

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	yamlv2 "go.yaml.in/yaml/v2"
)

// ToJSON converts one YAML document to JSON exactly as
// sigs.k8s.io/yaml.YAMLToJSON does, byte for byte and error for error: a
// document in the subset Fast reads is written straight from the parse as
// encoding/json writes its value (object keys sorted, HTML characters
// escaped), any other is parsed by the parser YAMLToJSON uses and converted
// as YAMLToJSON converts it. A panic in the YAML library (it has had some
// on hostile input) becomes an error.
//
// Where YAMLToJSON's answer is a coin toss, ToJSON's is not. A mapping
// with a key written two ways (0 and "0", or 0 and ! 0) is one object key
// twice to JSON: YAMLToJSON keeps whichever value its map iteration meets
// last, ToJSON gives the error Value gives. Two errors in one document
// (two compound keys, say) are met in key order, not at random.
func ToJSON(doc []byte) ([]byte, error) {
	var c Converter
	c.w.out = make([]byte, 0, len(doc)+len(doc)/4)
	return c.Convert(doc)
}

// A Converter converts YAML documents to JSON as ToJSON does, reusing its
// memory from one document to the next, and tells where in the document
// each JSON object of the last one comes from (Object). The zero value is
// ready to use; a Converter is not safe for concurrent use.
type Converter struct {
	p parser
	w jsonWriter
}

// Convert converts doc as ToJSON does. The JSON is valid until the next
// call.
func (c *Converter) Convert(doc []byte) ([]byte, error) {
	c.w.reset()
	if c.p.parse(doc, &c.w) {
		c.w.finish()
		return c.w.out, nil
	}
	c.w.reset()
	return libraryJSON(doc)
}

// Object returns where the JSON object whose '{' is at byte off of the
// last JSON Convert gave comes from in the document: the 0-based line, the
// 1-based column in characters and the byte offset of the mapping's first
// key (or of its "{}"). ok is false when off starts no object, or the
// document went the library's way, which keeps no positions.
func (c *Converter) Object(off int) (line, col, docOff int, ok bool) {
	objs := c.w.objs
	i, found := slices.BinarySearchFunc(objs, off, func(o objectPos, off int) int { return o.json - off })
	if !found {
		return 0, 0, 0, false
	}
	m := objs[i].at
	return m.line, m.col, m.off, true
}

// libraryJSON is ToJSON by the YAML library.
func libraryJSON(doc []byte) (j []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			j, err = nil, fmt.Errorf("yaml: %v", r)
		}
	}()
	var y any
	if err := yamlv2.Unmarshal(doc, &y); err != nil {
		return nil, err
	}
	obj, err := jsonObject(y)
	if err != nil {
		return nil, err
	}
	return json.Marshal(obj)
}

// jsonObject converts y, a value of the YAML parser, to what
// sigs.k8s.io/yaml's YAMLToJSON hands encoding/json: mappings become
// map[string]any, their keys written as YAMLToJSON writes them, and every
// other value stays as it is. Unlike YAMLToJSON it visits a mapping's
// entries in the order of their keys, so that the first error is always
// the same one, and it refuses a key written two ways.
func jsonObject(y any) (any, error) {
	switch y := y.(type) {
	case map[any]any:
		type entry struct {
			key string
			v   any
		}
		entries := make([]entry, 0, len(y))
		var bad error
		for k, v := range y {
			key, ok := jsonKey(k)
			if !ok {
				err := fmt.Errorf("unsupported map key of type: %s, key: %+#v, value: %+#v", reflect.TypeOf(k), k, v)
				if bad == nil || err.Error() < bad.Error() {
					bad = err
				}
				continue
			}
			entries = append(entries, entry{key, v})
		}
		if bad != nil {
			return nil, bad
		}
		slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.key, b.key) })
		out := make(map[string]any, len(entries))
		for i, e := range entries {
			if i > 0 && entries[i-1].key == e.key {
				return nil, &keyTwiceError{e.key}
			}
			v, err := jsonObject(e.v)
			if err != nil {
				return nil, err
			}
			out[e.key] = v
		}
		return out, nil
	case []any:
		out := make([]any, len(y))
		for i, e := range y {
			v, err := jsonObject(e)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}
	return y, nil
}

// jsonKey writes a mapping key of the YAML parser as YAMLToJSON writes it
// for a JSON object, or reports false for a key YAMLToJSON refuses (null,
// a sequence, a mapping).
func jsonKey(k any) (string, bool) {
	switch k := k.(type) {
	case string:
		return k, true
	case int:
		return strconv.Itoa(k), true
	case int64:
		return strconv.FormatInt(k, 10), true
	case bool:
		return strconv.FormatBool(k), true
	case float64:
		switch s := strconv.FormatFloat(k, 'g', -1, 32); s {
		case "+Inf":
			return ".inf", true
		case "-Inf":
			return "-.inf", true
		case "NaN":
			return ".nan", true
		default:
			return s, true
		}
	}
	return "", false
}
