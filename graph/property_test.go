package graph

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/internal/testcatalog"
)

func prop(typ, value string) Property { return Property{Type: typ, Value: []byte(value)} }

// wantVersion returns a check of a bundle's version: its text as written
// and the version it parses to.
func wantVersion(text string, v semver.Version) func(t *testing.T, b *Bundle) {
	return func(t *testing.T, b *Bundle) {
		if b.VersionText != text || !b.Version.Equals(v) {
			t.Errorf("version = %q %v", b.VersionText, b.Version)
		}
	}
}

func TestParseProperties(t *testing.T) {
	tests := []struct {
		name    string
		reason  string
		props   []Property
		check   func(t *testing.T, b *Bundle)
		wantErr string // substring; empty means no error
	}{
		{
			name:  "package version",
			props: []Property{prop(TypePackage, `{"packageName":"etcd","version":"0.9.4"}`)},
			check: wantVersion("0.9.4", semver.MustParse("0.9.4")),
		},
		{
			name:   "tolerant version",
			reason: "OLM parses bundle versions tolerantly: v1.2 is 1.2.0",
			props:  []Property{prop(TypePackage, `{"packageName":"etcd","version":"v1.2"}`)},
			check:  wantVersion("v1.2", semver.MustParse("1.2.0")),
		},
		{
			name:   "unparsable version kept as text",
			reason: "validation reports it; decoding keeps the text and a zero version",
			props:  []Property{prop(TypePackage, `{"packageName":"etcd","version":"latest"}`)},
			check:  wantVersion("latest", semver.Version{}),
		},
		{
			name: "gvks labels deprecated and unknown",
			props: []Property{
				prop(TypeGVK, `{"group":"etcd.database.coreos.com","kind":"EtcdCluster","version":"v1beta2"}`),
				prop(TypeGVKRequired, `{"group":"","kind":"Pod","version":"v1"}`),
				prop(TypeLabel, `{"label":"fast"}`),
				prop(TypeLabelRequired, `{"label":"slow"}`),
				prop(TypeDeprecated, `{}`),
				prop("olm.maxOpenShiftVersion", `"4.12"`),
			},
			check: func(t *testing.T, b *Bundle) {
				if len(b.Provides) != 1 || b.Provides[0] != (GVK{"etcd.database.coreos.com", "v1beta2", "EtcdCluster"}) {
					t.Errorf("Provides = %v", b.Provides)
				}
				if len(b.RequiresGVK) != 1 || b.RequiresGVK[0] != (GVK{"", "v1", "Pod"}) {
					t.Errorf("RequiresGVK = %v", b.RequiresGVK)
				}
				if len(b.Labels) != 1 || b.Labels[0] != "fast" || len(b.RequiresLabel) != 1 || b.RequiresLabel[0] != "slow" {
					t.Errorf("labels = %v %v", b.Labels, b.RequiresLabel)
				}
				if !b.Deprecated {
					t.Error("not deprecated")
				}
				if len(b.Properties) != 6 {
					t.Errorf("Properties has %d, want 6", len(b.Properties))
				}
			},
		},
		{
			name:  "package required",
			props: []Property{prop(TypePackageRequired, `{"packageName":"etcd","versionRange":">=0.9.0 <1.0.0"}`)},
			check: func(t *testing.T, b *Bundle) {
				if len(b.RequiresPackage) != 1 {
					t.Fatalf("RequiresPackage = %v", b.RequiresPackage)
				}
				r := b.RequiresPackage[0]
				if r.Package != "etcd" || r.Range.String() != ">=0.9.0 <1.0.0" || !r.Range.Contains(semver.MustParse("0.9.4")) || r.Range.Contains(semver.MustParse("1.0.0")) {
					t.Errorf("requirement = %+v", r)
				}
			},
		},
		{
			name:    "bad range",
			props:   []Property{prop(TypePackageRequired, `{"packageName":"etcd","versionRange":"<=v0.10.1 garbage"}`)},
			wantErr: `olm.package.required`,
		},
		{
			name:    "wrong field type",
			props:   []Property{prop(TypeGVK, `{"group":1,"kind":"X","version":"v1"}`)},
			wantErr: `field "group" is a number, want a string`,
		},
		{
			name:    "value not an object",
			props:   []Property{prop(TypeLabel, `"fast"`)},
			wantErr: `value is a string, want an object`,
		},
		{
			name: "constraint tree",
			props: []Property{prop(TypeConstraint, `{"failureMessage":"need one","any":{"constraints":[
				{"package":{"packageName":"a","versionRange":">=1.0.0"}},
				{"gvk":{"group":"g","version":"v1","kind":"K"}},
				{"not":{"constraints":[{"cel":{"rule":"properties.exists(p, p.type == 'x')"}}]}},
				{"all":{"constraints":[]}}]}}`)},
			check: func(t *testing.T, b *Bundle) {
				if len(b.Constraints) != 1 {
					t.Fatalf("Constraints = %v", b.Constraints)
				}
				c := b.Constraints[0]
				if c.Kind != ConstraintAny || c.FailureMessage != "need one" || len(c.Children) != 4 {
					t.Fatalf("root = %+v", c)
				}
				if k := c.Children[0]; k.Kind != ConstraintPackage || k.Package.Package != "a" || !k.Package.Range.Valid() {
					t.Errorf("child 0 = %+v", k)
				}
				if k := c.Children[1]; k.Kind != ConstraintGVK || k.GVK != (GVK{"g", "v1", "K"}) {
					t.Errorf("child 1 = %+v", k)
				}
				if k := c.Children[2]; k.Kind != ConstraintNot || len(k.Children) != 1 || k.Children[0].Kind != ConstraintCEL || !strings.Contains(k.Children[0].CEL, "p.type") {
					t.Errorf("child 2 = %+v", k)
				}
				if k := c.Children[3]; k.Kind != ConstraintAll || len(k.Children) != 0 {
					t.Errorf("child 3 = %+v", k)
				}
			},
		},
		{
			name:    "empty constraint",
			props:   []Property{prop(TypeConstraint, `{"failureMessage":"x"}`)},
			wantErr: `constraint has none of`,
		},
		{
			name:    "constraint with bad child",
			props:   []Property{prop(TypeConstraint, `{"all":{"constraints":[{"package":{"packageName":"a","versionRange":"!!"}}]}}`)},
			wantErr: `constraint 0`,
		},
		{
			name:    "several errors",
			reason:  "every malformed property is reported, not only the first",
			props:   []Property{prop(TypeGVK, `[]`), prop(TypeLabel, `{"label":true}`)},
			wantErr: `field "label" is a boolean`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := ParseProperties(tt.props)
			done := testcatalog.WantErr(t, err, tt.wantErr)
			if b == nil {
				t.Fatal("ParseProperties returned a nil Bundle") // with an error too
			}
			if done {
				return
			}
			if b.Name != "" || b.Package != "" || b.Image != "" || b.Channels != nil || b.Pos != (Position{}) {
				t.Errorf("fields not derived from properties are set: %+v", b)
			}
			tt.check(t, b)
		})
	}
}

func TestPropertyConstructors(t *testing.T) {
	props := []Property{
		PackageProperty("etcd", "0.9.4"),
		GVKProperty(GVK{"etcd.database.coreos.com", "v1beta2", "EtcdCluster"}),
		RequiredGVKProperty(GVK{"", "v1", "Pod"}),
		RequiredPackageProperty("prometheus", ">=0.14.0"),
		LabelProperty("a\"b"),
		RequiredLabelProperty("c"),
		DeprecatedProperty(),
	}
	want := []string{
		`{"packageName":"etcd","version":"0.9.4"}`,
		`{"group":"etcd.database.coreos.com","kind":"EtcdCluster","version":"v1beta2"}`,
		`{"group":"","kind":"Pod","version":"v1"}`,
		`{"packageName":"prometheus","versionRange":">=0.14.0"}`,
		`{"label":"a\"b"}`,
		`{"label":"c"}`,
		`{}`,
	}
	for i, p := range props {
		if string(p.Value) != want[i] {
			t.Errorf("%s value = %s, want %s", p.Type, p.Value, want[i])
		}
	}
	var b Bundle
	if applyProperties(&b, props, nil); b.propErr != nil {
		t.Fatal(b.propErr)
	}
	if b.VersionText != "0.9.4" || len(b.Provides) != 1 || len(b.RequiresGVK) != 1 || len(b.RequiresPackage) != 1 ||
		b.Labels[0] != "a\"b" || b.RequiresLabel[0] != "c" || !b.Deprecated {
		t.Errorf("bundle = %+v", b)
	}
}

// FuzzPropertyFastPath checks that the fast path of property parsing agrees
// with the encoding/json slow path whenever it accepts a value.
func FuzzPropertyFastPath(f *testing.F) {
	for _, v := range []string{
		`{"group":"g","version":"v1","kind":"K"}`, `{"group":"g","kind":1}`, `{"packageName":"p","version":"1.0.0","x":[1,{}]}`,
		`{"label":"a"}`, `{"label":null}`, `{"packageName":"p","versionRange":">=1.0.0"}`, `{}`, `[]`, `{"group":"\u00e9"}`, ` {"kind" : "K" } `,
	} {
		f.Add([]byte(v))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		if !utf8.Valid(v) {
			t.Skip("encoding/json replaces invalid UTF-8; the fast path keeps it")
		}
		if f, ok := fastFields(v, "group", "version", "kind"); ok {
			g, err := parseGVKValue(v)
			if err != nil || g != (GVK{string(f[0]), string(f[1]), string(f[2])}) {
				t.Fatalf("gvk %s: fast %q, slow %v %v", v, f, g, err)
			}
		}
		if f, ok := fastFields(v, "packageName", "version", ""); ok {
			name, nameOK, ver, err := parsePackageValue(v)
			if err != nil || !nameOK || name != string(f[0]) || ver != string(f[1]) {
				t.Fatalf("package %s: fast %q, slow %q %v", v, f, ver, err)
			}
		}
		if f, ok := fastFields(v, "label", "", ""); ok {
			l, err := parseLabelValue(v)
			if err != nil || l != string(f[0]) {
				t.Fatalf("label %s: fast %q, slow %q %v", v, f, l, err)
			}
		}
	})
}

func TestParsePropertiesPartial(t *testing.T) {
	// A malformed property is reported by index and type; the others are
	// read all the same, as Builder.AddBundle reads them.
	props := []Property{
		prop(TypeGVK, `{"group":"g","version":"v1","kind":"A"}`),
		prop(TypeGVK, `{"group":1}`),
		prop(TypeLabel, `{"label":"fast"}`),
	}
	b, err := ParseProperties(props)
	if err == nil || !strings.HasPrefix(err.Error(), "property 1 (olm.gvk): ") {
		t.Fatalf("err = %v, want it to start with %q", err, "property 1 (olm.gvk): ")
	}
	if len(b.Provides) != 1 || b.Provides[0] != (GVK{"g", "v1", "A"}) || len(b.Labels) != 1 || b.Labels[0] != "fast" {
		t.Errorf("partial bundle: Provides %v, Labels %v", b.Provides, b.Labels)
	}
	if &b.Properties[0] != &props[0] {
		t.Error("Properties does not share the caller's slice")
	}

	// The same properties added to a Builder give the same typed fields and
	// the same error, wrapped with the bundle's name.
	bl := NewBuilder()
	berr := bl.AddBundle("x", "p", "img", props...)
	if berr == nil || !strings.HasSuffix(berr.Error(), err.Error()) {
		t.Errorf("Builder error %v does not end with ParseProperties' %v", berr, err)
	}
	cat, cerr := bl.Build()
	if cerr != nil {
		t.Fatal(cerr)
	}
	got := cat.Bundle(BundleRef{Package: "p", Name: "x"})
	if !slices.Equal(got.Provides, b.Provides) || !slices.Equal(got.Labels, b.Labels) {
		t.Errorf("Builder bundle %v %v, ParseProperties %v %v", got.Provides, got.Labels, b.Provides, b.Labels)
	}
}
