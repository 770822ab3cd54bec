package fastjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// validCases are texts around what JSON takes.
var validCases = []string{
	``, ` `, `{}`, ` {} `, `[]`, `[ ]`, `{ }`, `{"a":1}`, `{"a" : [1, 2.5, -0, 1e5, 1E+5, 1e-5, -0.0e0]}`,
	`"x"`, `"\"\\\/\b\f\n\r\t\u00e9\uD83D"`, `"\x"`, `"\u12"`, `"\u12g4"`, "\"a\x01\"", "\"a\x7f\xff\"",
	`true`, `false`, `null`, `tru`, `nul`, `truex`, `nulll`, `[true,false,null]`,
	`01`, `-`, `-01`, `1.`, `1.e5`, `.5`, `+1`, `1e`, `1e+`, `0x1`, `1 2`, `[1,]`, `[,1]`, `{"a":1,}`,
	`{"a"}`, `{"a":}`, `{1:2}`, `{"a":1 "b":2}`, `[1 2]`, `[}`, `{]`, `[[[]]]`, `[[[]]`, `"abc`, `"abc\`,
	"{\"a\":\"b\"}\n", "\t[\r\n1\n]\t", `{"items":[{"kind":"x"},{"apiVersion":"v1"}],"kind":"List"}`,
	"\xef\xbb\xbf{}", "{}x", `{"a":{"b":{"c":[{"d":"e"}]}}}`,
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000),
	strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001),
}

// TestValid: Valid answers as encoding/json.Valid does.
func TestValid(t *testing.T) {
	for _, c := range validCases {
		if got, want := Valid([]byte(c)), json.Valid([]byte(c)); got != want {
			t.Errorf("Valid(%.60q) = %v, encoding/json says %v", c, got, want)
		}
	}
}

// checkWalk fails t unless, in valid JSON, End, Members and Elements find
// the values encoding/json finds.
func checkWalk(t *testing.T, data []byte) {
	t.Helper()
	i := space(data, 0)
	if e := End(data, i); space(data, e) != len(data) {
		t.Fatalf("End(%q) = %d, want the value's end", data, e)
	}
	var v any
	if err := unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	top, ok := ValidObject(data)
	if !ok {
		t.Fatalf("ValidObject(%q) is not ok", data)
	}
	switch v := v.(type) {
	case map[string]any:
		var members []Member
		for m := range Members(data, i) {
			members = append(members, m)
		}
		if fmt.Sprint(members) != fmt.Sprint(top) {
			t.Fatalf("ValidObject(%q) = %v, Members %v", data, top, members)
		}
		got := map[string]any{}
		for _, m := range members {
			var mv any
			if err := unmarshal(data[m.Start:m.End], &mv); err != nil {
				t.Fatalf("member %q of %q: value %q: %v", m.Key, data, data[m.Start:m.End], err)
			}
			got[Key(m.Key)] = mv
		}
		if a, b := mustJSON(t, got), mustJSON(t, v); !bytes.Equal(a, b) {
			t.Fatalf("members of %q: %s, want %s", data, a, b)
		}
	case []any:
		if top != nil {
			t.Fatalf("ValidObject(%q) = %v, want no members", data, top)
		}
		// The elements as cluster walks them: End, then After.
		var got []any
		for k := After(data, i+1); data[k] != ']'; {
			e := End(data, k)
			var ev any
			if err := unmarshal(data[k:e], &ev); err != nil {
				t.Fatalf("element of %q: %q: %v", data, data[k:e], err)
			}
			got = append(got, ev)
			if k = After(data, e); data[k] == ',' {
				k = After(data, k+1)
			}
		}
		if a, b := mustJSON(t, got), mustJSON(t, v); len(v) > 0 && !bytes.Equal(a, b) {
			t.Fatalf("elements of %q: %s, want %s", data, a, b)
		}
	default:
		if top != nil {
			t.Fatalf("ValidObject(%q) = %v, want no members", data, top)
		}
	}
}

// unmarshal decodes data as cluster does, numbers as json.Number (a
// number too large for a float64 is valid JSON).
func unmarshal(data []byte, v *any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestWalk: End, Members and Elements find what encoding/json finds.
func TestWalk(t *testing.T) {
	for _, c := range validCases {
		if json.Valid([]byte(c)) {
			checkWalk(t, []byte(c))
		}
	}
}

// FuzzValid: whatever the text, Valid answers as encoding/json.Valid
// does, and in valid JSON End, Members and Elements find what it finds.
func FuzzValid(f *testing.F) {
	for _, c := range validCases {
		if len(c) < 1000 {
			f.Add([]byte(c))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, want := Valid(data), json.Valid(data)
		if got != want {
			t.Fatalf("Valid(%q) = %v, encoding/json says %v", data, got, want)
		}
		if want {
			checkWalk(t, data)
		}
	})
}
