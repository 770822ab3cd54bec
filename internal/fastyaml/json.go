package fastyaml

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"
)

// ToJSON converts one YAML document to JSON exactly as
// sigs.k8s.io/yaml.YAMLToJSON does, byte for byte and error for error: a
// document Fast takes is written from its value as encoding/json writes it
// (object keys sorted, HTML characters escaped), any other is converted by
// YAMLToJSON itself. A panic in the YAML library (it has had some on
// hostile input) becomes an error.
func ToJSON(doc []byte) (j []byte, err error) {
	if v, ok := Fast(doc); ok {
		return appendJSON(make([]byte, 0, len(doc)+len(doc)/4), v), nil
	}
	defer func() {
		if r := recover(); r != nil {
			j, err = nil, fmt.Errorf("yaml: %v", r)
		}
	}()
	return yaml.YAMLToJSON(doc)
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
