package graph

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"sigs.k8s.io/yaml"
)

// FuzzDecode decodes arbitrary input and checks properties, not only that
// nothing panics:
//   - every error is a *DecodeError or a *DuplicateError, and no catalog is
//     returned with it;
//   - reading the input through a tiny window gives the same result;
//   - decode → Encode → decode → Encode gives the same bytes and the same
//     model (stability);
//   - the YAML form of the encoded catalog decodes to the same model as its
//     JSON form.
func FuzzDecode(f *testing.F) {
	for _, name := range []string{"etcd.json", "etcd.yaml", "bad.json", "dir/a.json", "dir/sub/b.yaml", "errors/pretty-truncated.json", "errors/documents.yaml"} {
		data, err := os.ReadFile(filepath.Join("testdata", "decode", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"schema":"olm.bundle","name":"x","package":"p","properties":[{"type":"olm.constraint","value":{"not":{"constraints":[{"cel":{"rule":"true"}}]}}}]}`))
	f.Add([]byte(`{"schema":"olm.channel","package":"p","name":"c","entries":[{"name":"a","skipRange":">=1.0.0 <2.0.0","skips":["b"]},{"name":"b"}]}`))
	f.Add([]byte("{\"schema\":\"x\",\"name\":\"\\u00e9\\n\\\"q\\\"\",\"value\":[1.5e3,true,null]}\n{\"schema\":\"olm.package\",\"name\":\"p\"}"))
	f.Add([]byte("schema: olm.package\nname: yes\n---\nschema: olm.bundle\nname: '1.0'\npackage: yes\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		c, err := Decode(bytes.NewReader(in), "fuzz")
		// Reading through a tiny window changes nothing.
		cw, errw := decodeWindow(in, "fuzz", 5)
		if fmt.Sprint(err) != fmt.Sprint(errw) {
			t.Fatalf("window 5: error\n%v\nwant\n%v", errw, err)
		}
		if c != nil && modelText(t, cw) != modelText(t, c) {
			t.Fatal("window 5: another model")
		}
		if err != nil {
			if c != nil {
				t.Fatal("catalog returned with an error")
			}
			checkErrorTypes(t, err)
			return
		}
		var enc1 bytes.Buffer
		if err := Encode(&enc1, c); err != nil {
			t.Fatalf("encode: %v", err)
		}
		model := modelText(t, c)

		c2, err := Decode(bytes.NewReader(enc1.Bytes()), "encoded")
		if err != nil {
			t.Fatalf("decode of encoded catalog: %v\n%s", err, enc1.Bytes())
		}
		if got := modelText(t, c2); got != model {
			t.Fatalf("decode → encode → decode changed the model:\n%s\nwant:\n%s", got, model)
		}
		var enc2 bytes.Buffer
		if err := Encode(&enc2, c2); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(enc1.Bytes(), enc2.Bytes()) {
			t.Fatalf("encoding is not stable:\n%s\nthen:\n%s", enc1.Bytes(), enc2.Bytes())
		}

		// The same catalog as multi-document YAML.
		if !utf8.Valid(enc1.Bytes()) {
			return // YAML is UTF-8 only
		}
		var ybuf bytes.Buffer
		for _, line := range strings.SplitAfter(enc1.String(), "\n") {
			if line == "" {
				continue
			}
			y, err := yaml.JSONToYAML([]byte(line))
			if err != nil {
				return // not expressible in YAML (e.g. duplicate keys in an unknown blob)
			}
			if _, err := yaml.YAMLToJSON(y); err != nil {
				return // not expressible in YAML (e.g. a number out of float64's range)
			}
			ybuf.WriteString("---\n")
			ybuf.Write(y)
		}
		c3, err := Decode(&ybuf, "encoded.yaml")
		if err != nil {
			t.Fatalf("decode of the YAML form: %v\n%s", err, ybuf.Bytes())
		}
		if got := modelText(t, c3); got != model {
			t.Fatalf("YAML form decodes to another model:\n%s\nwant:\n%s\nYAML:\n%s", got, model, ybuf.Bytes())
		}
	})
}

// checkErrorTypes checks that every error joined in err is typed.
func checkErrorTypes(t *testing.T, err error) {
	t.Helper()
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			checkErrorTypes(t, e)
		}
		return
	}
	var de *DecodeError
	var dup *DuplicateError
	if !errors.As(err, &de) && !errors.As(err, &dup) {
		t.Fatalf("untyped error %T: %v", err, err)
	}
	if de != nil && de.Err == nil {
		t.Fatalf("DecodeError without Err: %+v", de)
	}
}
