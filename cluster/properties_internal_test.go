package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/graph"
)

// decodedAnnotation reads the annotation with encoding/json alone, item
// by item: the reading parsePropertiesAnnotation must agree with.
func decodedAnnotation(s string) ([]graph.Property, error) {
	var anno map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &anno); err != nil || anno == nil {
		return nil, fmt.Errorf("invalid properties annotation: want a JSON object {\"properties\": [...]}")
	}
	raw, ok := anno["properties"]
	if !ok || string(bytes.TrimSpace(raw)) == "null" {
		return nil, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("properties annotation: \"properties\" is not an array")
	}
	var props []graph.Property
	var errs []error
	for i, item := range items {
		p, err := decodeProperty(i, item)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		props = append(props, p)
	}
	return props, errors.Join(errs...)
}

// agree checks parsePropertiesAnnotation against decodedAnnotation: the
// same properties (type and value bytes) and, when the list itself has a
// problem, the same error.
func agree(t *testing.T, s string) {
	t.Helper()
	want, wantErr := decodedAnnotation(s)
	p, err := parsePropertiesAnnotation(s)
	if got := p.List(); !(len(got) == 0 && len(want) == 0) && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: properties\n%q\nwant\n%q", s, got, want)
	}
	if wantErr == nil && len(want) > 0 {
		wantErr = NewCSVProperties(want...).Err()
	}
	if fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("%q: error %v, want %v", s, err, wantErr)
	}
}

func TestPropertiesAnnotationAgrees(t *testing.T) {
	for _, s := range []string{
		`{"properties":[{"type":"olm.gvk","value":{"group":"g","kind":"K","version":"v1"}},{"type":"olm.package","value":{"packageName":"p","version":"1.0.0"}}]}`,
		` { "properties" : [ { "type" : "olm.gvk" , "value" : { "group" : "g" , "kind" : "K" , "version" : "v1" } } ] } `,
		`{"properties":[{"value":{"packageName":"p","version":"1.0.0"},"type":"olm.package"}]}`,
		`{"properties":[{"type":"olm.label","value":{"label":"a b"}}]}`,
		`{"properties":[{"Type":"olm.label","VALUE":{"label":"x"}}]}`,
		`{"properties":[{"type":"olm.label","type":"x","value":1}]}`,
		`{"properties":[{"type":"olm.label","value":1,"value":2}]}`,
		`{"properties":[{"type":"olm.\u0067vk","value":{}}]}`,
		`{"properties":[{"type":"\xff","value":{}}]}`,
		`{"properties":[{"type":"","value":{}}, {"type":1,"value":{}}, null, 1, [], {"value":2}, {"type":"t"}, {"type":"t","value":null}, {"type":"t","other":1,"value":2}]}`,
		`{"properties":null}`, `{"properties": null }`, `{}`, `null`, `[]`, `{"properties":{}}`, `{"properties":"x"}`,
		`{"PROPERTIES":[{"type":"t","value":1}]}`, `{"properties":[{"type":"a","value":1}],"properties":[{"type":"b","value":2}]}`,
		`{"propert\u0069es":[{"type":"t","value":1}]}`, `{"properties":[{"type":"t","value":1}]`, ``, `{"properties":[]}`,
	} {
		agree(t, s)
	}
}

func FuzzPropertiesAnnotation(f *testing.F) {
	f.Add(`{"properties":[{"type":"olm.gvk","value":{"group":"g","kind":"K","version":"v1"}}]}`)
	f.Add(`{"properties":[{"type":"t","value":{"a":[1, "b c",null]}},{"type":"u","value":"x"}]}`)
	f.Add(`{"properties":[{"Type":"t","value":1},{"type":"t","type":"u"},1]}`)
	f.Fuzz(func(t *testing.T, s string) {
		agree(t, s)
	})
}

// BenchmarkPropertiesAnnotation reads an annotation of 600,000 GVKs (60 MB).
func BenchmarkPropertiesAnnotation(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"properties":[`)
	for i := range 600000 {
		fmt.Fprintf(&sb, `{"type":"olm.gvk","value":{"group":"g%06d.example.com","kind":"Kind%06d","version":"v1alpha1"}},`, i, i)
	}
	sb.WriteString(`{"type":"olm.package","value":{"packageName":"p","version":"1.0.0"}}]}`)
	s := sb.String()
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		if p, err := parsePropertiesAnnotation(s); err != nil || len(p.List()) != 600001 {
			b.Fatal(err)
		}
	}
}

// TestLongAnnotationReadInPlace: a long properties annotation is read
// where it lies in the manifest's text — neither the YAML scalar nor the
// properties' values nor their names copy it — as a document of its own
// and as a List's item: the load allocates under three times the text
// (over four when the scalar and the values were copies).
func TestLongAnnotationReadInPlace(t *testing.T) {
	var anno strings.Builder
	anno.WriteString(`{"properties":[`)
	for i := range 20000 {
		fmt.Fprintf(&anno, `{"type":"olm.gvk","value":{"group":"g%06d.example.com","kind":"Kind%06d","version":"v1alpha1"}},`, i, i)
	}
	anno.WriteString(`{"type":"olm.package","value":{"packageName":"p","version":"1.0.0"}}]}`)
	csv := "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: p.v1.0.0\n  namespace: ns\n" +
		"  annotations:\n    operatorframework.io/properties: '" + anno.String() + "'\nspec:\n  version: 1.0.0\n"
	list := "apiVersion: v1\nitems:\n- " + strings.ReplaceAll(strings.TrimSuffix(csv, "\n"), "\n", "\n  ") + "\nkind: List\n"
	for _, c := range []struct{ name, text string }{{"document", csv}, {"list", list}} {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			st, err := Loader{}.Decode(context.Background(), strings.NewReader(c.text), "in.yaml")
			runtime.ReadMemStats(&after)
			if err != nil || len(st.CSVs) != 1 {
				t.Fatalf("%v, %d CSVs", err, len(st.CSVs))
			}
			p := st.CSVs[0].Properties
			if len(p.List()) != 20001 || len(p.Typed().Provides) != 20000 || p.Typed().Provides[19999].Kind != "Kind019999" {
				t.Fatalf("%d properties, %d APIs provided", len(p.List()), len(p.Typed().Provides))
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("%.2f times the text allocated", float64(alloc)/float64(len(c.text)))
			if alloc > 3*uint64(len(c.text)) {
				t.Errorf("the load allocated %d bytes for a text of %d: the annotation was copied", alloc, len(c.text))
			}
		})
	}
}
