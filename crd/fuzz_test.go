package crd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// FuzzUpgrade decodes two CRD manifests (JSON) and checks properties of the
// comparison: no panic; a CRD replacing itself is safe; the verdict and
// its message are the same every time, from a Checker that has compared
// them before too; and two schemas differ to go-cmp (its report is not
// empty) exactly when they differ semantically, and exactly when their
// encodings for a Checker's reports differ.
func FuzzUpgrade(f *testing.F) {
	const crd = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"a.b"},
"spec":{"group":"b","names":{"plural":"a","kind":"A"},"scope":"%s","versions":[
{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":%s}},
{"name":"v2","served":true,"storage":false,"schema":{"openAPIV3Schema":%s}}]}}`
	for _, c := range [][4]string{
		{"Namespaced", `{"type":"object","properties":{"a":{"type":"string","enum":["x"]}}}`, "Namespaced", `{"type":"object","properties":{"a":{"type":"integer","x-kubernetes-validations":[{"rule":"self > 0"}]}}}`},
		{"Namespaced", `{"type":"object","additionalProperties":{"type":"string","description":"a\nb\nc\nd"}}`, "Cluster", `{"type":"object","oneOf":[{"required":["a"]}],"default":{"a":1}}`},
		{"Namespaced", `{"type":"array","items":[{"type":"string"}],"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"]}`, "Namespaced", `{"type":"array","maxItems":3,"items":{"type":"object","required":["name","port"]}}`},
	} {
		f.Add([]byte(fmt.Sprintf(crd, c[0], c[1], c[1])), []byte(fmt.Sprintf(crd, c[2], c[3], c[1])))
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		x, ok1 := fuzzDecode(a)
		y, ok2 := fuzzDecode(b)
		if !ok1 || !ok2 {
			return
		}
		if u := CheckUpgrade(x.Live(), x); !u.Safe() {
			t.Fatalf("a CRD replacing itself is refused:\n%s", u.Message())
		}
		u1, u2 := CheckUpgrade(x, y), CheckUpgrade(x, y)
		var c Checker
		c.CheckUpgrade(y, x)
		u3 := c.CheckUpgrade(x, y)
		if u1.Message() != u2.Message() || u1.Message() != u3.Message() {
			t.Fatalf("messages differ:\n%s\n%s\n%s", u1.Message(), u2.Message(), u3.Message())
		}
		for _, v := range x.Versions {
			w := y.Version(v.Name)
			if w == nil {
				continue
			}
			diff := cmpDiff(v.Schema, w.Schema)
			if eq := semanticEqual(v.Schema, w.Schema); eq != (diff == "") {
				t.Fatalf("semantically equal %v, go-cmp report:\n%s", eq, diff)
			}
			if same := bytes.Equal(appendSchema(nil, v.Schema), appendSchema(nil, w.Schema)); same != (diff == "") {
				t.Fatalf("encodings equal %v, go-cmp report:\n%s", same, diff)
			}
		}
	})
}

func fuzzDecode(data []byte) (*Definition, bool) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var m map[string]any
	if d.Decode(&m) != nil {
		return nil, false
	}
	def, _, err := Decode(m)
	return def, err == nil
}
