package crd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

// decodeJSON decodes s as the manifest readers do (numbers json.Number).
func decodeValue(t testing.TB, s string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

// crdWith returns a CRD manifest with one version v1 whose object has
// spec of schema spec (JSON).
func crdWith(spec any) map[string]any {
	return map[string]any{"apiVersion": APIVersion, "kind": Kind, "metadata": map[string]any{"name": "xs.x.io"},
		"spec": map[string]any{"group": "x.io", "scope": "Namespaced", "names": map[string]any{"plural": "xs", "kind": "X"},
			"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true, "schema": map[string]any{
				"openAPIV3Schema": map[string]any{"type": "object", "properties": map[string]any{
					"apiVersion": map[string]any{"type": "string"}, "kind": map[string]any{"type": "string"},
					"metadata": map[string]any{"type": "object"}, "spec": spec}}}}}}}
}

func object(spec any) map[string]any {
	return map[string]any{"apiVersion": "x.io/v1", "kind": "X", "metadata": map[string]any{"name": "a"}, "spec": spec}
}

func rooted(vs []Violation) []string {
	out := []string{}
	for _, v := range vs {
		if s := v.Rooted("[]"); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// TestValidateAgreesWithOLM holds ValidateObject to what OLM v0.28's
// validator (apiextensions-apiserver v0.29.3's ValidateCustomResource, as
// validateExistingCRs calls it) answered on 240 generated schema and
// object pairs kept in testdata/olmv0validate (120 refused, 120 taken):
// the same violations, as a set (OLM's order follows Go's map order).
func TestValidateAgreesWithOLM(t *testing.T) {
	f, err := os.Open("testdata/olmv0validate/cases.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		n++
		var c struct {
			Schema json.RawMessage `json:"schema"`
			Spec   json.RawMessage `json:"spec"`
			OLM    []string        `json:"olm"`
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		def, _, err := Decode(crdWith(decodeValue(t, string(c.Schema))))
		if err != nil {
			t.Fatalf("case %d: %v", n, err)
		}
		vs, err := def.ValidateObject("v1", object(decodeValue(t, string(c.Spec))))
		if err != nil {
			t.Fatal(err)
		}
		if got := rooted(vs); !slices.Equal(got, c.OLM) {
			t.Errorf("case %d: %s on %s\n got %q\nwant %q", n, c.Schema, c.Spec, got, c.OLM)
		}
	}
	if n != 240 {
		t.Fatalf("%d cases, want 240", n)
	}
}

func TestValidateObject(t *testing.T) {
	for _, c := range []struct {
		name, schema, spec string
		want               string // ViolationsText rooted at "[]"; "" when valid
	}{
		{"valid", `{"type":"object","properties":{"replicas":{"type":"integer"}}}`, `{"replicas":3}`, ""},
		{"unknown fields pass", `{"type":"object","properties":{"replicas":{"type":"integer"}}}`, `{"other":"x"}`, ""},
		{"type", `{"type":"object","properties":{"replicas":{"type":"integer"}}}`, `{"replicas":"3"}`,
			`[].spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`},
		{"required and enum", `{"type":"object","required":["size"],"properties":{"mode":{"type":"string","enum":["a","b"]}}}`, `{"mode":"c"}`,
			`[[].spec.mode: Unsupported value: "c": supported values: "a", "b", [].spec.size: Required value]`},
		{"int-or-string", `{"type":"object","properties":{"port":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}}}`, `{"port":"http"}`, ""},
		{"nullable", `{"type":"object","properties":{"a":{"type":"string","nullable":true},"b":{"type":"string"}}}`, `{"a":null,"b":null}`,
			`[].spec.b: Invalid value: "null": spec.b in body must be of type string: "null"`},
		{"length counts code points", `{"type":"object","properties":{"a":{"type":"string","maxLength":1}}}`, `{"a":"Ω"}`, ""},
		{"too long", `{"type":"object","properties":{"a":{"type":"string","maxLength":1}}}`, `{"a":"ab"}`, `[].spec.a: Too long: may not be longer than 1`},
		{"bounds", `{"type":"object","properties":{"a":{"type":"integer","maximum":2}}}`, `{"a":3}`,
			`[].spec.a: Invalid value: 3: spec.a in body should be less than or equal to 2`},
		{"items", `{"type":"object","properties":{"a":{"type":"array","maxItems":1,"items":{"type":"string","pattern":"^x"}}}}`, `{"a":["y","x"]}`,
			`[[].spec.a[0]: Invalid value: "y": spec.a[0] in body should match '^x', [].spec.a: Too many: 2: must have at most 1 items]`},
		{"format kept", `{"type":"object","properties":{"t":{"type":"string","format":"date-time"}}}`, `{"t":"yesterday"}`,
			`[].spec.t: Invalid value: "yesterday": spec.t in body must be of type date-time: "yesterday"`},
		{"format dropped", `{"type":"object","properties":{"t":{"type":"string","format":"k8s-name"}}}`, `{"t":"Yesterday!"}`, ""},
		{"no CEL", `{"type":"object","x-kubernetes-validations":[{"rule":"false"}]}`, `{}`, ""},
		{"no defaults", `{"type":"object","required":["a"],"properties":{"a":{"type":"string","default":"x"}}}`, `{}`, `[].spec.a: Required value`},
	} {
		t.Run(c.name, func(t *testing.T) {
			def, _, err := Decode(crdWith(decodeValue(t, c.schema)))
			if err != nil {
				t.Fatal(err)
			}
			vs, err := def.ValidateObject("v1", object(decodeValue(t, c.spec)))
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if vs != nil {
				got = ViolationsText(vs, "[]")
			}
			if got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestValidateObjectVersion(t *testing.T) {
	def, _, err := Decode(crdWith(map[string]any{"type": "object"}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := def.ValidateObject("v2", object(nil)); err == nil || err.Error() != `CRD xs.x.io defines no version "v2"` {
		t.Errorf("err = %v", err)
	}
	def.Versions[0].Schema = nil
	vs, err := def.ValidateObject("v1", object("anything"))
	if err != nil {
		t.Fatal(err)
	}
	if vs != nil {
		t.Errorf("a version without a schema: %v", vs)
	}
}

// FuzzValidateObject validates fuzzed objects against fuzzed schemas: no
// panic, the same violations every time, each naming a field inside the
// object or none, and an object that passes passes again once normalized.
func FuzzValidateObject(f *testing.F) {
	f.Add([]byte(`{"type":"object","required":["a"],"properties":{"a":{"type":"integer","maximum":3,"multipleOf":0.5}}}`), []byte(`{"a":4.5}`))
	f.Add([]byte(`{"type":"object","additionalProperties":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}}`), []byte(`{"a":true,"b":"1"}`))
	f.Add([]byte(`{"type":"object","oneOf":[{"required":["a"]},{"required":["b"]}],"not":{"required":["c"]},"properties":{"a":{"type":"array","items":{"type":"string","enum":["x",1],"format":"uuid"}}}}`), []byte(`{"a":["x",65,null],"b":1,"c":{}}`))
	f.Fuzz(func(t *testing.T, schema, spec []byte) {
		var s, o any
		d := json.NewDecoder(bytes.NewReader(schema))
		d.UseNumber()
		if d.Decode(&s) != nil {
			return
		}
		d = json.NewDecoder(bytes.NewReader(spec))
		d.UseNumber()
		if d.Decode(&o) != nil {
			return
		}
		def, _, err := Decode(crdWith(s))
		if err != nil {
			return
		}
		obj := object(o)
		v1, err1 := def.ValidateObject("v1", obj)
		v2, err2 := def.ValidateObject("v1", obj)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !slices.Equal(v1, v2) {
			t.Fatalf("two answers:\n%v\n%v", v1, v2)
		}
		for _, v := range v1 {
			if v.Field != "" && !strings.HasPrefix(v.Field, "spec") && !strings.HasPrefix(v.Field, "apiVersion") &&
				!strings.HasPrefix(v.Field, "kind") && !strings.HasPrefix(v.Field, "metadata") {
				t.Fatalf("violation outside the object: %q", v.Rooted("[]"))
			}
		}
		if v1 == nil {
			if again, _ := def.ValidateObject("v1", Normalize(obj)); again != nil {
				t.Fatalf("normalized, the object fails: %v", again)
			}
		}
	})
}
