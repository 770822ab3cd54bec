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
// document Fast takes is written from its value as encoding/json writes it
// (object keys sorted, HTML characters escaped), any other is parsed by
// the parser YAMLToJSON uses and converted as YAMLToJSON converts it. A
// panic in the YAML library (it has had some on hostile input) becomes an
// error.
//
// Where YAMLToJSON's answer is a coin toss, ToJSON's is not. A mapping
// with a key written two ways (0 and "0", or 0 and ! 0) is one object key
// twice to JSON: YAMLToJSON keeps whichever value its map iteration meets
// last, ToJSON gives the error Value gives. Two errors in one document
// (two compound keys, say) are met in key order, not at random.
func ToJSON(doc []byte) (j []byte, err error) {
	if v, ok := Fast(doc); ok {
		return appendJSON(make([]byte, 0, len(doc)+len(doc)/4), v), nil
	}
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

// appendJSON appends the JSON of v, a value Fast gives (nil, bool, string,
// json.Number, []any, map[string]any), as encoding/json.Marshal writes it.
func appendJSON(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		if v {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case string:
		return appendString(b, v)
	case json.Number:
		return append(b, v...)
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSON(b, e)
		}
		return append(b, ']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			b = appendJSON(b, v[k])
		}
		return append(b, '}')
	}
	panic(fmt.Sprintf("fastyaml: a value of type %T", v)) // Fast gives none
}

// appendString appends s as encoding/json writes a string: the printable
// ASCII that needs no escape as it is, anything else by encoding/json.
func appendString(b []byte, s string) []byte {
	if strings.IndexFunc(s, needsEscape) < 0 {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	q, _ := json.Marshal(s) // a string always marshals
	return append(b, q...)
}

// needsEscape reports whether encoding/json may write r otherwise than as
// itself: control characters, quotes, backslashes, HTML characters and
// everything beyond ASCII (U+2028, U+2029, invalid UTF-8).
func needsEscape(r rune) bool {
	return r < 0x20 || r >= 0x7f || r == '"' || r == '\\' || r == '<' || r == '>' || r == '&'
}
