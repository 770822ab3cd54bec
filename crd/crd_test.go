package crd

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/internal/golden"
	"github.com/sextantdev/sextant/internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the expected messages of testdata/upgrade")

// decodeJSON reads a JSON object as the YAML and JSON decoders give it
// (numbers as json.Number).
func decodeJSON(t testing.TB, data []byte) map[string]any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

func readSchema(t testing.TB, data []byte) *Schema {
	t.Helper()
	var r reader
	s := r.schema(decodeJSON(t, data), nil)
	if len(r.errs) > 0 {
		t.Fatal(errors.Join(r.errs...))
	}
	return &s
}

// TestGoDiff holds the go-cmp emulation to go-cmp's own output: each case
// of testdata/godiff is two schemas and what go-cmp v0.7.0's Diff printed
// for them (in its deterministic mode), byte for byte.
func TestGoDiff(t *testing.T) {
	files, _ := filepath.Glob("testdata/godiff/*.txtar")
	if len(files) == 0 {
		t.Fatal("no cases")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			a := txtar.Parse(data)
			x, _ := a.Get("x.json")
			y, _ := a.Get("y.json")
			want, _ := a.Get("diff")
			got := cmpDiff(readSchema(t, x), readSchema(t, y))
			if got != string(want) {
				t.Errorf("go-cmp wrote:\n%s\nSextant writes:\n%s", want, got)
			}
		})
	}
}

// TestUpgrade runs the preflight on each case of testdata/upgrade: a live
// CRD, a new one, and operator-controller's message for them (recorded from
// its own preflight at df2c201). Sextant's message must hold the same lines
// (operator-controller's order varies from run to run), and is kept in the
// case as a golden (-update rewrites it).
func TestUpgrade(t *testing.T) {
	files, _ := filepath.Glob("testdata/upgrade/*.txtar")
	if len(files) == 0 {
		t.Fatal("no cases")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			a := txtar.Parse(data)
			liveData, _ := a.Get("live.json")
			newData, _ := a.Get("new.json")
			preflight, _ := a.Get("preflight")
			live, _, err := Decode(decodeJSON(t, liveData))
			if err != nil {
				t.Fatal(err)
			}
			next, _, err := Decode(decodeJSON(t, newData))
			if err != nil {
				t.Fatal(err)
			}
			if conv, ok := a.Get("conversion-webhook"); ok && len(bytes.TrimSpace(conv)) > 0 {
				next.ConversionStrategy = "Webhook"
			}
			u := CheckUpgrade(live, next)
			msg := u.Message()
			if want, got := lineSet(string(preflight)), lineSet(msg); !slices.Equal(want, got) {
				t.Errorf("operator-controller's lines:\n%s\nSextant's:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
			}
			if u.Safe() != (len(bytes.TrimSpace(preflight)) == 0) {
				t.Errorf("Safe() = %v for preflight %q", u.Safe(), preflight)
			}
			if *update {
				a.Set("message", []byte(msg))
				if err := os.WriteFile(f, txtar.Format(a), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, _ := a.Get("message")
			if d, ok := golden.FirstDiff(bytes.TrimSuffix(want, []byte("\n")), []byte(msg)); ok {
				t.Errorf("%s: message differs (go test -update accepts it):\n%s", f, d)
			}
		})
	}
}

// TestCheckerShared runs every case of testdata/upgrade, both ways and
// twice, through one Checker, each definition forgotten after its second
// round: the messages are those of a fresh CheckUpgrade (what a Checker
// keeps — schemas read, go-cmp reports by contents — never changes an
// answer).
func TestCheckerShared(t *testing.T) {
	files, _ := filepath.Glob("testdata/upgrade/*.txtar")
	var defs [][2]*Definition
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		a := txtar.Parse(data)
		liveData, _ := a.Get("live.json")
		newData, _ := a.Get("new.json")
		live, _, err1 := Decode(decodeJSON(t, liveData))
		next, _, err2 := Decode(decodeJSON(t, newData))
		if err1 != nil || err2 != nil {
			t.Fatal(f, err1, err2)
		}
		defs = append(defs, [2]*Definition{live, next})
	}
	var c Checker
	for round := range 2 {
		for i, d := range defs {
			for _, p := range [][2]*Definition{{d[0], d[1]}, {d[1].Live(), d[0]}} {
				if got, want := c.CheckUpgrade(p[0], p[1]).Message(), CheckUpgrade(p[0], p[1]).Message(); got != want {
					t.Errorf("%s (round %d): a shared Checker says\n%s\nwant\n%s", files[i], round, got, want)
				}
			}
			if round == 1 {
				c.Forget(d[0])
				c.Forget(d[1])
			}
		}
	}
	if len(c.index) != 0 || len(c.served) != 0 {
		t.Errorf("after Forget: %d schemas, %d definitions' served pairs kept; want none", len(c.index), len(c.served))
	}
}

var (
	crdPrefix = regexp.MustCompile(`^validating upgrade for CRD "[^"]*": `)
	required  = regexp.MustCompile(`new required fields: \[(.*)\]$`)
)

// lineSet is a message's lines as a sorted set, with the CRD prefix of the
// first line apart and the lists crdify writes in random order sorted.
func lineSet(msg string) []string {
	msg = strings.TrimSpace(msg)
	if msg == "" {
		return nil
	}
	head := crdPrefix.FindString(msg)
	lines := strings.Split(msg[len(head):], "\n")
	for i, l := range lines {
		if m := required.FindStringSubmatchIndex(l); m != nil {
			fields := strings.Fields(l[m[2]:m[3]])
			slices.Sort(fields)
			lines[i] = l[:m[2]] + strings.Join(fields, " ") + "]"
		}
	}
	slices.Sort(lines)
	return append([]string{head}, lines...)
}

func TestDecodeProblems(t *testing.T) {
	base := func() map[string]any {
		return decodeJSON(t, []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
			"metadata":{"name":"widgets.example.com"},
			"spec":{"group":"example.com","names":{"plural":"widgets","kind":"Widget"},"scope":"Namespaced",
			"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}}]}}`))
	}
	schemaOf := func(m map[string]any) map[string]any {
		v := m["spec"].(map[string]any)["versions"].([]any)[0].(map[string]any)
		return v["schema"].(map[string]any)["openAPIV3Schema"].(map[string]any)
	}
	tests := []struct {
		name    string
		edit    func(m map[string]any)
		errs    []string // FieldError texts, in order
		unknown []string
	}{
		{name: "valid", edit: func(map[string]any) {}},
		{name: "wrong types", edit: func(m map[string]any) {
			s := schemaOf(m)
			s["type"] = json.Number("1")
			s["maxLength"] = "5"
			s["required"] = []any{"a", true}
			s["properties"] = map[string]any{"a": "string"}
		}, errs: []string{
			`field spec.versions[0].schema.openAPIV3Schema.maxLength: is a string "5", want an integer`,
			`field spec.versions[0].schema.openAPIV3Schema.properties.a: is a string "string", want an object`,
			`field spec.versions[0].schema.openAPIV3Schema.required[1]: is a boolean, want a string`,
			`field spec.versions[0].schema.openAPIV3Schema.type: is a number, want a string`,
		}},
		{name: "missing", edit: func(m map[string]any) {
			delete(m["spec"].(map[string]any), "group")
			delete(m["spec"].(map[string]any)["versions"].([]any)[0].(map[string]any), "schema")
		}, errs: []string{
			`field spec.group: missing`,
			`field spec.versions[0].schema.openAPIV3Schema: missing: the API server requires a schema for every version of an apiextensions.k8s.io/v1 CRD`,
		}},
		{name: "unknown fields noted", edit: func(m map[string]any) {
			s := schemaOf(m)
			s["typ"] = "string"
			s["properties"] = map[string]any{"a": map[string]any{"x-kubernetes-foo": true}}
			m["spec"].(map[string]any)["scopes"] = "Cluster"
		}, unknown: []string{"spec.scopes", "spec.versions[0].schema.openAPIV3Schema.properties.a.x-kubernetes-foo", "spec.versions[0].schema.openAPIV3Schema.typ"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := base()
			tt.edit(m)
			d, dec, err := Decode(m)
			var got []string
			if err != nil {
				for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
					var fe *FieldError
					if !errors.As(e, &fe) {
						t.Fatalf("%T is not a *FieldError", e)
					}
					got = append(got, fe.Error())
				}
				if d != nil {
					t.Error("a definition with an error")
				}
			}
			if !slices.Equal(got, tt.errs) {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.errs, "\n"))
			}
			if !slices.Equal(dec.Unknown, tt.unknown) {
				t.Errorf("unknown %q, want %q", dec.Unknown, tt.unknown)
			}
		})
	}
}

func TestDecodeVersion(t *testing.T) {
	_, _, err := Decode(map[string]any{"apiVersion": "apiextensions.k8s.io/v1beta1", "kind": Kind})
	var ve *VersionError
	if !errors.As(err, &ve) || ve.APIVersion != "apiextensions.k8s.io/v1beta1" {
		t.Fatalf("err = %v, want a *VersionError", err)
	}
}

func TestCanonicalJSON(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want JSON
	}{
		{"integer", `1`, `1`},
		{"float that is whole", `1.0`, `1`},
		{"exponent", `1e3`, `1000`},
		{"large", `1e21`, `1e+21`},
		{"beyond int64", `100000000000000000000`, `100000000000000000000`},
		{"keys sorted", `{"b":1,"a":[true,null]}`, `{"a":[true,null],"b":1}`},
		{"html escaped", `"<a&b>"`, `"\u003ca\u0026b\u003e"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := json.NewDecoder(strings.NewReader(tt.in))
			d.UseNumber()
			var v any
			if err := d.Decode(&v); err != nil {
				t.Fatal(err)
			}
			if got := canonical(v); got != tt.want {
				t.Errorf("canonical(%s) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestCompareKubeVersions(t *testing.T) {
	// Kubernetes' order, lowest first.
	want := []string{"zeta", "alpha", "v1alpha1", "v2alpha1", "v1beta1", "v1beta2", "v1", "v2", "v10"}
	got := slices.Clone(want)
	slices.Reverse(got)
	slices.SortStableFunc(got, compareKubeVersions)
	if !slices.Equal(got, want) {
		t.Errorf("sorted %q, want %q", got, want)
	}
}

func TestConciseUnhandled(t *testing.T) {
	tests := []struct {
		name, diff, want string
	}{
		{"nothing", "  &v1.JSONSchemaProps{\n  }\n", "unhandled changes found"},
		{"a field", "- \tFormat: \"\",\n+ \tFormat: \"date-time\",\n", `unhandled changes found (Format "" -> "date-time")`},
		{"removed only", "- \tXListType: &\"map\",\n", `unhandled changes found (XListType &"map" -> <empty>)`},
		{"complex", "- \tNot: nil,\n+ \tNot: s\"&JSONSchemaProps{ID:,}\",\n", "unhandled changes found (Not nil -> <complex value>)"},
		{"package dropped", "- \tXValidations: nil,\n+ \tXValidations: v1.ValidationRules{{Rule: \"x\"}},\n",
			`unhandled changes found (XValidations nil -> ValidationRules{{Rule: "x"}})`},
		{"same text once normalized", "- \tA: v1.X{},\n+ \tA: X{},\n", "unhandled changes found (A X{} -> X{} (changed))"},
		{"no colon", "- \t\"a\",\n+ \t\"b\",\n", "unhandled changes found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := conciseUnhandled(tt.diff); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
