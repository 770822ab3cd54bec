package graph

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func mustConstraint(t *testing.T, v string) *Constraint {
	t.Helper()
	c, err := parseConstraintValue([]byte(v))
	if err != nil {
		t.Fatal(err)
	}
	return &c
}

func TestConstraintMatchesAndString(t *testing.T) {
	widget := GVK{Group: "example.com", Version: "v1", Kind: "Widget"}
	lib1, _ := ParseProperties([]Property{PackageProperty("lib", "1.2.0"), GVKProperty(widget)})
	libBad, _ := ParseProperties([]Property{PackageProperty("lib", "not-a-version")})
	lib1.Package, libBad.Package = "lib", "lib"
	yes := func(string) bool { return true }
	tests := []struct {
		name       string
		value      string
		text       string
		lib1, bad  bool // without cel
		lib1WithCE bool // with a cel evaluator that says yes
		reason     string
	}{
		{"package in range", `{"package":{"packageName":"lib","versionRange":">=1.0.0"}}`, "package lib >=1.0.0", true, false, true,
			"a bundle whose version does not parse is in no range, not even one that contains 0.0.0"},
		{"package range with zero", `{"package":{"packageName":"lib","versionRange":"<1.0.0"}}`, "package lib <1.0.0", false, false, false,
			"the drift probe: lib.bad's zero version must not meet <1.0.0"},
		{"gvk", `{"gvk":{"group":"example.com","version":"v1","kind":"Widget"}}`, "gvk example.com/v1 Widget", true, false, true, ""},
		{"all empty", `{"all":{"constraints":[]}}`, "all of ()", true, true, true, "an empty all matches anything"},
		{"any", `{"any":{"constraints":[{"gvk":{"group":"x","version":"v1","kind":"Y"}},{"package":{"packageName":"lib","versionRange":">=1.0.0"}}]}}`,
			"any of (gvk x/v1 Y, package lib >=1.0.0)", true, false, true, ""},
		{"not", `{"not":{"constraints":[{"package":{"packageName":"lib","versionRange":">=1.0.0"}}]}}`, "none of (package lib >=1.0.0)", false, true, false, ""},
		{"cel", `{"cel":{"rule":"properties.exists(p, p.type == 'x')"}}`, "cel properties.exists(p, p.type == 'x')", false, false, true,
			"without an evaluator a cel node never matches"},
		{"all with cel", `{"all":{"constraints":[{"cel":{"rule":"true"}},{"gvk":{"group":"example.com","version":"v1","kind":"Widget"}}]}}`,
			"all of (cel true, gvk example.com/v1 Widget)", false, false, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustConstraint(t, tt.value)
			if got := c.String(); got != tt.text {
				t.Errorf("String() = %q, want %q", got, tt.text)
			}
			if got := c.Matches(lib1.Subject(), nil); got != tt.lib1 {
				t.Errorf("Matches(lib 1.2.0) = %v, want %v %s", got, tt.lib1, tt.reason)
			}
			if got := c.Matches(libBad.Subject(), nil); got != tt.bad {
				t.Errorf("Matches(lib not-a-version) = %v, want %v %s", got, tt.bad, tt.reason)
			}
			if got := c.Matches(lib1.Subject(), yes); got != tt.lib1WithCE {
				t.Errorf("Matches(lib 1.2.0, cel yes) = %v, want %v", got, tt.lib1WithCE)
			}
			if got := c.HasCEL(); got != strings.Contains(tt.name, "cel") {
				t.Errorf("HasCEL() = %v", got)
			}
		})
	}
}

func TestRequirements(t *testing.T) {
	widget := GVK{Group: "example.com", Version: "v1", Kind: "Widget"}
	b, err := ParseProperties([]Property{
		PackageProperty("app", "1.0.0"),
		RequiredPackageProperty("lib", "<1.0.0"),
		RequiredGVKProperty(widget),
		prop(TypeConstraint, `{"failureMessage":"needs a db","gvk":{"group":"db.io","version":"v1","kind":"DB"}}`),
		RequiredLabelProperty("fast"),
	})
	if err != nil {
		t.Fatal(err)
	}
	got := strs(b.Requirements())
	want := []string{
		"olm.package.required lib <1.0.0",
		"olm.gvk.required example.com/v1 Widget",
		"olm.constraint gvk db.io/v1 DB",
		"olm.label.required fast",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Requirements() = %q, want %q (property order)", got, want)
	}
	lib, _ := ParseProperties([]Property{PackageProperty("lib", "0.5.0"), LabelProperty("fast"), GVKProperty(widget)})
	lib.Package = "lib"
	libBad, _ := ParseProperties([]Property{PackageProperty("lib", "not-a-version")})
	libBad.Package = "lib"
	for i, r := range b.Requirements() {
		if got, want := r.Matches(lib.Subject(), nil), i != 2; got != want {
			t.Errorf("%s matches lib 0.5.0: %v, want %v", r, got, want)
		}
		if r.Matches(libBad.Subject(), nil) {
			t.Errorf("%s matches lib not-a-version", r)
		}
	}
	if (Requirement{}).Matches(lib.Subject(), nil) || (Requirement{}).String() != " " {
		t.Error("the zero Requirement matches something or has words")
	}
}

// A requirement says what it needs and matches the bundles that meet it;
// a bundle whose version does not parse is in no version range.
func ExampleRequirement_Matches() {
	app, _ := ParseProperties([]Property{RequiredPackageProperty("lib", "<1.0.0")})
	good, _ := ParseProperties([]Property{PackageProperty("lib", "0.5.0")})
	bad, _ := ParseProperties([]Property{PackageProperty("lib", "not-a-version")})
	good.Package, bad.Package = "lib", "lib"
	req := app.Requirements()[0]
	fmt.Println(req)
	fmt.Println(req.Matches(good.Subject(), nil), req.Matches(bad.Subject(), nil))
	// Output:
	// olm.package.required lib <1.0.0
	// true false
}

func TestGVKCompareAndParseVersion(t *testing.T) {
	a, b := GVK{"a", "v1", "K"}, GVK{"a", "v2", "A"}
	if a.Compare(b) >= 0 || b.Compare(a) <= 0 || a.Compare(a) != 0 || (GVK{"", "v9", "Z"}).Compare(a) >= 0 {
		t.Error("GVK.Compare does not order by group, version, kind")
	}
	for in, want := range map[string]string{"1.2.3": "1.2.3", "v1.2": "1.2.0", " 2 ": "2.0.0"} {
		if v, err := ParseVersion(in); err != nil || v.String() != want {
			t.Errorf("ParseVersion(%q) = %v, %v; want %s", in, v, err, want)
		}
	}
	if _, err := ParseVersion("not-a-version"); err == nil {
		t.Error("ParseVersion accepts not-a-version")
	}
}
