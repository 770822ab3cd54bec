package graph

import (
	"bytes"
	"encoding/json"
	"maps"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/internal/testcatalog"
)

func TestCSVMetadata(t *testing.T) {
	tests := []struct {
		name    string
		value   string
		want    CSVMetadata
		annots  map[string]string
		labels  map[string]string
		wantErr string // substring; "" for none
	}{
		{
			name: "full",
			value: `{"displayName":"Etcd","installModes":[{"supported":true,"type":"OwnNamespace"},{"type":"AllNamespaces","supported":false}],
				"minKubeVersion":"1.21.0","nativeAPIs":[{"group":"","version":"v1","kind":"Pod"}],"keywords":["etcd","kv"],
				"maturity":"alpha","provider":{"name":"CoreOS","url":"https://coreos.com"},"description":"long text",
				"annotations":{"capabilities":"Basic Install","alm-examples":"[{\"kind\":\"EtcdCluster\"}]"},"labels":{"a":"b"}}`,
			want: CSVMetadata{
				DisplayName:    "Etcd",
				InstallModes:   []InstallMode{{InstallModeOwnNamespace, true}, {InstallModeAllNamespaces, false}},
				MinKubeVersion: "1.21.0",
				NativeAPIs:     []GVK{{Version: "v1", Kind: "Pod"}},
				Keywords:       []string{"etcd", "kv"},
				Maturity:       "alpha",
				Provider:       AppLink{Name: "CoreOS", URL: "https://coreos.com"},
			},
			annots: map[string]string{"capabilities": "Basic Install", "alm-examples": `[{"kind":"EtcdCluster"}]`},
			labels: map[string]string{"a": "b"},
		},
		{name: "empty", value: `{}`},
		{name: "nulls", value: `{"installModes":null,"annotations":null,"provider":null,"minKubeVersion":null}`},
		{
			name:  "unknown install mode type kept",
			value: `{"installModes":[{"type":"OwnNamespacejl","supported":true}]}`,
			want:  CSVMetadata{InstallModes: []InstallMode{{"OwnNamespacejl", true}}},
		},
		{
			name:    "wrong types are reported, the rest is read",
			value:   `{"installModes":[{"type":"OwnNamespace","supported":"yes"},{"type":"AllNamespaces","supported":true}],"keywords":"k","maturity":"beta"}`,
			want:    CSVMetadata{InstallModes: []InstallMode{{InstallModeOwnNamespace, false}, {InstallModeAllNamespaces, true}}, Maturity: "beta"},
			wantErr: `field "installModes": element 0: field "supported": value is a string, want a boolean` + "\n" + `field "keywords": value is a string, want an array`,
		},
		{
			name:    "annotation not a string",
			value:   `{"annotations":{"a":"b","c":1},"maturity":"stable"}`,
			want:    CSVMetadata{Maturity: "stable"},
			wantErr: `field "annotations": key "c": value is a number, want a string`,
		},
		{name: "not an object", value: `[]`, wantErr: "value is an array, want an object"},
		{name: "syntax error", value: `{"maturity":"a",`, want: CSVMetadata{Maturity: "a"}, wantErr: "unexpected end"},
		{
			name: "API service definitions",
			value: `{"apiServiceDefinitions":{"owned":[{"name":"v1beta1.metrics.example.com","group":"metrics.example.com","version":"v1beta1",
				"kind":"Metric","deploymentName":"adapter","displayName":"x","containerPort":443}],"required":[{"group":"g","version":"v1","kind":"K","name":null}]}}`,
			want: CSVMetadata{APIServiceDefinitions: &APIServiceDefinitions{
				Owned:    []APIServiceDescription{{Name: "v1beta1.metrics.example.com", Group: "metrics.example.com", Version: "v1beta1", Kind: "Metric", DeploymentName: "adapter"}},
				Required: []APIServiceDescription{{Group: "g", Version: "v1", Kind: "K"}},
			}},
		},
		{name: "API service definitions recorded empty, as opm writes them", value: `{"apiServiceDefinitions":{}}`, want: CSVMetadata{APIServiceDefinitions: &APIServiceDefinitions{}}},
		{
			name:    "API service definition of the wrong type",
			value:   `{"apiServiceDefinitions":{"owned":[{"name":7,"kind":"K"}]}}`,
			want:    CSVMetadata{APIServiceDefinitions: &APIServiceDefinitions{Owned: []APIServiceDescription{{Kind: "K"}}}},
			wantErr: `field "apiServiceDefinitions": field "owned": element 0: field "name": value is a number, want a string`,
		},
		{
			name:  "repeated key: the last wins",
			value: `{"keywords":["a"],"keywords":["b"]}`,
			want:  CSVMetadata{Keywords: []string{"b"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := ParseProperties([]Property{prop(TypeCSVMetadata, tt.value)})
			testcatalog.WantErr(t, err, tt.wantErr)
			if err != b.PropertyError() {
				t.Errorf("PropertyError() = %v, ParseProperties said %v", b.PropertyError(), err)
			}
			m := b.CSVMetadata
			if m == nil {
				t.Fatal("CSVMetadata is nil")
			}
			got := *m
			got.annotations, got.labels = nil, nil
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("CSVMetadata = %+v\nwant %+v", got, tt.want)
			}
			if a := m.Annotations(); !maps.Equal(a, tt.annots) {
				t.Errorf("Annotations() = %v, want %v", a, tt.annots)
			}
			if l := m.Labels(); !maps.Equal(l, tt.labels) {
				t.Errorf("Labels() = %v, want %v", l, tt.labels)
			}
		})
	}
	b, _ := ParseProperties([]Property{PackageProperty("p", "1.0.0")})
	if b.CSVMetadata != nil || b.MaxOpenShiftVersion != nil {
		t.Errorf("a bundle without the properties has CSVMetadata %v, MaxOpenShiftVersion %v", b.CSVMetadata, b.MaxOpenShiftVersion)
	}
}

func TestCSVMetadataSupportsAndMinKube(t *testing.T) {
	m := &CSVMetadata{InstallModes: []InstallMode{{InstallModeOwnNamespace, true}, {InstallModeAllNamespaces, false}, {InstallModeOwnNamespace, false}}}
	// The last listing of OwnNamespace stands, as OLM records a list.
	if m.Supports(InstallModeOwnNamespace) || m.Supports(InstallModeAllNamespaces) || m.Supports(InstallModeSingleNamespace) || m.Modes().Valid() {
		t.Errorf("Supports: %+v", m.InstallModes)
	}
	for _, tt := range []struct {
		text    string
		want    string
		ok, err bool
	}{
		{"", "0.0.0", false, false},
		{"1.21.0", "1.21.0", true, false},
		{"v1.21.0", "1.21.0", true, false},
		{"v1.21", "0.0.0", true, true}, // OLM wants major.minor.patch
		{"1.19.0-0", "1.19.0-0", true, false},
		{"banana", "0.0.0", true, true},
	} {
		v, ok, err := (&CSVMetadata{MinKubeVersion: tt.text}).MinKube()
		if (err != nil) != tt.err || v.String() != tt.want || ok != tt.ok {
			t.Errorf("MinKube(%q) = %s, %v, %v", tt.text, v, ok, err)
		}
	}
}

func TestMaxOpenShiftVersion(t *testing.T) {
	for _, tt := range []struct {
		values []string
		text   string
		want   string // the version, or the error's substring after "err: "
	}{
		{[]string{`"4.12"`}, "4.12", "4.12.0"},
		{[]string{`4.8`}, "4.8", "4.8.0"},
		{[]string{`"v4.9"`}, "v4.9", "4.9.0"},
		{[]string{`"4.12.1"`}, "4.12.1", "err: property olm.maxOpenShiftVersion must specify only <major>.<minor> version, got invalid value 4.12.1"},
		{[]string{`""`}, "", `err: value cannot be "" (an empty string)`},
		{[]string{`"four"`}, "four", `err: failed to parse "four" as semver: `},
		{[]string{`"4.12"`, `"4.13"`}, "4.12", `err: defining more than one "olm.maxOpenShiftVersion" property is not allowed`},
	} {
		var props []Property
		for _, v := range tt.values {
			props = append(props, prop(TypeMaxOpenShift, v))
		}
		b, err := ParseProperties(props)
		if err != nil {
			t.Errorf("%v: %v (an invalid maxOpenShiftVersion is not a property error)", tt.values, err)
		}
		m := b.MaxOpenShiftVersion
		if m == nil || m.Text != tt.text {
			t.Fatalf("%v: MaxOpenShiftVersion = %+v", tt.values, m)
		}
		if e, isErr := strings.CutPrefix(tt.want, "err: "); isErr {
			if m.Err == nil || !strings.Contains(m.Err.Error(), e) || !m.Version.Equals(semver.Version{}) {
				t.Errorf("%v: %+v, want an error with %q", tt.values, m, e)
			}
		} else if m.Err != nil || m.Version.String() != tt.want {
			t.Errorf("%v: %+v, want %s", tt.values, m, tt.want)
		}
	}
}

func TestDeclaredPackageAndValidVersion(t *testing.T) {
	for _, tt := range []struct {
		name     string
		props    []Property
		declared string
		version  string
		ok       bool
		propErr  bool
	}{
		{"strict", []Property{PackageProperty("p", "1.2.3")}, "p", "1.2.3", true, false},
		{"tolerant", []Property{PackageProperty("p", "v1.2")}, "p", "1.2.0", true, false},
		{"zero is valid", []Property{PackageProperty("p", "0.0.0")}, "p", "0.0.0", true, false},
		{"not a version", []Property{PackageProperty("p", "not-a-version")}, "p", "0.0.0", false, false},
		{"no version", []Property{prop(TypePackage, `{"packageName":"p"}`)}, "p", "0.0.0", false, false},
		{"no property", nil, "", "0.0.0", false, false},
		{"another package", []Property{PackageProperty("q", "1.0.0"), PackageProperty("p", "2.0.0")}, "q", "1.0.0", true, false},
		{"version of the wrong type", []Property{prop(TypePackage, `{"packageName":"p","version":1}`)}, "p", "0.0.0", false, true},
	} {
		b, _ := ParseProperties(tt.props)
		v, ok := b.ValidVersion()
		if b.DeclaredPackage != tt.declared || v.String() != tt.version || ok != tt.ok || (b.PropertyError() != nil) != tt.propErr {
			t.Errorf("%s: DeclaredPackage %q, ValidVersion %s %v, PropertyError %v", tt.name, b.DeclaredPackage, v, ok, b.PropertyError())
		}
	}
}

// refCSVMetadata decodes an olm.csv.metadata value with encoding/json, key by
// key with exact names (encoding/json matches struct fields ignoring case,
// opm's own decoding does too, but the catalogs' keys are exact): the
// second implementation the scanner is compared with.
func refCSVMetadata(v []byte) (CSVMetadata, map[string]string, map[string]string, error) {
	var m CSVMetadata
	var top map[string]json.RawMessage
	if err := json.Unmarshal(v, &top); err != nil {
		return m, nil, nil, err
	}
	str := func(raw json.RawMessage, dst *string) error {
		if raw == nil {
			return nil // absent
		}
		var s *string
		if err := json.Unmarshal(raw, &s); err != nil {
			return err
		}
		if s != nil {
			*dst = *s
		}
		return nil
	}
	objects := func(raw json.RawMessage) ([]map[string]json.RawMessage, error) {
		var list []map[string]json.RawMessage
		err := json.Unmarshal(raw, &list)
		return list, err
	}
	var annots, labels map[string]string
	for k, raw := range top {
		var err error
		switch k {
		case "displayName":
			err = str(raw, &m.DisplayName)
		case "minKubeVersion":
			err = str(raw, &m.MinKubeVersion)
		case "maturity":
			err = str(raw, &m.Maturity)
		case "keywords":
			var ks []*string
			err = json.Unmarshal(raw, &ks)
			for _, k := range ks {
				s := ""
				if k != nil {
					s = *k
				}
				m.Keywords = append(m.Keywords, s)
			}
		case "provider":
			var p map[string]json.RawMessage
			if err = json.Unmarshal(raw, &p); err == nil {
				if err = str(p["name"], &m.Provider.Name); err == nil {
					err = str(p["url"], &m.Provider.URL)
				}
			}
		case "installModes":
			list, e := objects(raw)
			err = e
			for _, o := range list {
				var im InstallMode
				var t string
				if err == nil {
					err = str(o["type"], &t)
				}
				if s, ok := o["supported"]; ok && err == nil {
					var b *bool
					err = json.Unmarshal(s, &b)
					im.Supported = b != nil && *b
				}
				im.Type = InstallModeType(t)
				m.InstallModes = append(m.InstallModes, im)
			}
		case "nativeAPIs":
			list, e := objects(raw)
			err = e
			for _, o := range list {
				var g GVK
				for _, f := range []struct {
					k string
					p *string
				}{{"group", &g.Group}, {"version", &g.Version}, {"kind", &g.Kind}} {
					if err == nil {
						err = str(o[f.k], f.p)
					}
				}
				m.NativeAPIs = append(m.NativeAPIs, g)
			}
		case "apiServiceDefinitions":
			// Keys match exactly, as for every other field here (encoding/json
			// into a struct would also take "NAme" for "name").
			d := new(APIServiceDefinitions)
			var lists map[string]json.RawMessage
			err = json.Unmarshal(raw, &lists)
			for _, l := range []struct {
				k string
				p *[]APIServiceDescription
			}{{"owned", &d.Owned}, {"required", &d.Required}} {
				var list []map[string]json.RawMessage
				if err == nil && lists[l.k] != nil {
					list, err = objects(lists[l.k])
				}
				for _, o := range list {
					var a APIServiceDescription
					for _, f := range []struct {
						k string
						p *string
					}{{"name", &a.Name}, {"group", &a.Group}, {"version", &a.Version}, {"kind", &a.Kind}, {"deploymentName", &a.DeploymentName}} {
						if err == nil {
							err = str(o[f.k], f.p)
						}
					}
					*l.p = append(*l.p, a)
				}
			}
			m.APIServiceDefinitions = d
		case "annotations", "labels":
			var sm map[string]*string
			err = json.Unmarshal(raw, &sm)
			var out map[string]string
			for k, v := range sm {
				if v == nil {
					err = &json.UnmarshalTypeError{Value: "null"}
					break
				}
				if out == nil {
					out = map[string]string{}
				}
				out[k] = *v
			}
			if k == "annotations" {
				annots = out
			} else {
				labels = out
			}
		}
		if err != nil {
			return m, nil, nil, err
		}
	}
	return m, annots, labels, nil
}

// checkCSVMetadataAgrees compares the scanner with encoding/json on one
// value: when encoding/json reads it without error, so does the scanner,
// with the same fields.
func checkCSVMetadataAgrees(t *testing.T, v []byte) {
	t.Helper()
	want, wantAnnots, wantLabels, refErr := refCSVMetadata(v)
	got, err := parseCSVMetadata(v, newInterner())
	if refErr != nil {
		return
	}
	if err != nil {
		t.Fatalf("%s: scanner error %v, encoding/json reads it", v, err)
	}
	plain := *got
	plain.annotations, plain.labels = nil, nil
	if !reflect.DeepEqual(plain, want) {
		t.Fatalf("%s:\nscanner       %+v\nencoding/json %+v", v, plain, want)
	}
	if a := got.Annotations(); !maps.Equal(a, wantAnnots) {
		t.Fatalf("%s: Annotations() = %v, encoding/json %v", v, a, wantAnnots)
	}
	if l := got.Labels(); !maps.Equal(l, wantLabels) {
		t.Fatalf("%s: Labels() = %v, encoding/json %v", v, l, wantLabels)
	}
}

// FuzzCSVMetadata checks the olm.csv.metadata scanner against encoding/json.
func FuzzCSVMetadata(f *testing.F) {
	for _, v := range []string{
		`{"installModes":[{"type":"OwnNamespace","supported":true}],"minKubeVersion":"1.2"}`,
		`{"annotations":{"a":"b\u00e9"},"labels":{},"keywords":["x",null]}`,
		`{"provider":{"name":"n","url":null,"x":[1]},"nativeAPIs":[{"kind":"Pod","version":"v1"}]}`,
		`{"installModes":[{"supported":"no"}]}`, `{"maturity":1}`, `null`, `{}`,
		`{"apiServiceDefinitions":{"owned":[{"name":"n","group":"g","version":"v1","kind":"K","deploymentName":"d"}],"required":null}}`,
	} {
		f.Add([]byte(v))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		if !utf8.Valid(v) || bytes.Contains(v, []byte(`\u`)) {
			t.Skip("encoding/json replaces invalid UTF-8 and lone surrogates; the scanner keeps them")
		}
		checkCSVMetadataAgrees(t, v)
	})
}

// TestCSVMetadataRealCatalogs reads the olm.csv.metadata of every bundle of
// the shipped catalogs: every one parses without error, agrees with
// encoding/json, and every bundle of the community index has install modes.
func TestCSVMetadataRealCatalogs(t *testing.T) {
	forEachShipped(t, 0, func(t *testing.T, sc shippedCatalog, cat *Catalog) {
		n, withModes, maxOCP, withAPIServices := 0, 0, 0, 0
		var invalid []string
		for _, p := range cat.Packages() {
			for _, b := range p.Bundles {
				for _, pr := range b.Properties {
					if pr.Type == TypeCSVMetadata {
						checkCSVMetadataAgrees(t, pr.Value)
						break
					}
				}
				if b.CSVMetadata != nil {
					n++
					if len(b.CSVMetadata.InstallModes) > 0 {
						withModes++
					}
					if b.CSVMetadata.APIServiceDefinitions != nil {
						withAPIServices++
					}
				}
				if m := b.MaxOpenShiftVersion; m != nil {
					maxOCP++
					if m.Err != nil {
						invalid = append(invalid, b.Name)
					}
				}
			}
		}
		t.Logf("%d bundles with olm.csv.metadata, %d with install modes, %d with olm.maxOpenShiftVersion (invalid: %q)", n, withModes, maxOCP, invalid)
		// The certified catalog as declared has two bundles with two
		// olm.maxOpenShiftVersion properties each, which OLM rejects.
		wantInvalid := 0
		if sc.name() == "certified-operators.declared" {
			wantInvalid = 2
		}
		if len(invalid) != wantInvalid {
			t.Errorf("%d bundles with an invalid olm.maxOpenShiftVersion, want %d", len(invalid), wantInvalid)
		}
		// The shipped catalogs were rendered from the bundles' CSVs without
		// their API service definitions: none records any, so no prediction
		// about API services can come from them.
		if withAPIServices != 0 {
			t.Errorf("%d bundles record apiServiceDefinitions; the shipped catalogs record none", withAPIServices)
		}
		if sc.name() == "community-operators-prod.v4.20-index" && (n == 0 || withModes != n) {
			t.Errorf("%d bundles with olm.csv.metadata, %d of them with install modes", n, withModes)
		}
	})
}

func TestParseKubeVersion(t *testing.T) {
	tests := []struct {
		text   string
		server bool
		want   string // "" when it does not parse
		reason string
	}{
		{text: "1.25.3", want: "1.25.3"},
		{text: "v1.25.3", want: "1.25.3"},
		{text: "1.19.0-0", want: "1.19.0-0"},
		{text: "1.25", want: "", reason: "OLM's semver wants major.minor.patch"},
		{text: "1.25.3.4", want: ""},
		{text: "x.1.2", want: ""},
		{text: "", want: ""},
		{text: "v1.25.3-gke.100", server: true, want: "1.25.3", reason: "OLM drops the server version from the first '-'"},
		{text: "v1.25.3+k3s1", server: true, want: "1.25.3+k3s1"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			v, err := ParseKubeVersion(tt.text, tt.server)
			if tt.want == "" {
				if err == nil {
					t.Errorf("got %v, want an error", v)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(v.String(), tt.want) {
				t.Errorf("got %v, want %v", v.String(), tt.want)
			}
		})
	}
}
