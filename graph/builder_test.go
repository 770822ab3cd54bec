package graph

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/blang/semver/v4"
)

func names(bs []*Bundle) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.Package+"/"+b.Name)
	}
	return out
}

func TestBuildIndexes(t *testing.T) {
	crd := GVK{Group: "example.com", Version: "v1", Kind: "Widget"}
	other := GVK{Group: "example.com", Version: "v1", Kind: "Gadget"}
	b := NewBuilder()
	b.AddPackage("zeta", "stable")
	b.AddPackage("alpha", "stable")
	b.AddChannel("zeta", "stable", Entry{Name: "z.v1"})
	b.AddChannel("alpha", "stable", Entry{Name: "a.v2", Replaces: "a.v1"}, Entry{Name: "a.v1"})
	b.AddChannel("alpha", "fast", Entry{Name: "a.v2"})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(b.AddBundle("z.v1", "zeta", "img/z:1", PackageProperty("zeta", "1.0.0"), GVKProperty(crd), GVKProperty(crd), LabelProperty("l")))
	must(b.AddBundle("a.v2", "alpha", "img/a:2", PackageProperty("alpha", "2.0.0"), GVKProperty(crd), GVKProperty(other)))
	must(b.AddBundle("a.v1", "alpha", "img/a:1", PackageProperty("alpha", "v1.0"), LabelProperty("l")))
	// A bundle named like another package's bundle.
	b.AddChannel("zeta", "stable2", Entry{Name: "a.v1"})
	must(b.AddBundle("a.v1", "zeta", "img/z:0", PackageProperty("zeta", "0.1.0")))
	b.AddMeta(Meta{Schema: "olm.custom", Name: "m1"})
	b.AddMeta(Meta{Schema: "olm.custom", Name: "m0"})
	cat := mustBuild(t, b)

	var pkgs []string
	for _, p := range cat.Packages() {
		pkgs = append(pkgs, p.Name)
	}
	if want := []string{"alpha", "zeta"}; !slices.Equal(pkgs, want) {
		t.Errorf("Packages() = %q, want %q", pkgs, want)
	}
	alpha := cat.Package("alpha")
	if alpha == nil || cat.Package("nope") != nil {
		t.Fatalf("Package lookups wrong: alpha=%v", alpha)
	}
	var chans []string
	for _, c := range alpha.Channels {
		chans = append(chans, c.Name)
	}
	if want := []string{"fast", "stable"}; !slices.Equal(chans, want) {
		t.Errorf("alpha channels = %q, want %q", chans, want)
	}
	if alpha.Channel("fast") == nil || alpha.Channel("slow") != nil {
		t.Error("Package.Channel lookups wrong")
	}
	if got := names(alpha.Bundles); !slices.Equal(got, []string{"alpha/a.v1", "alpha/a.v2"}) {
		t.Errorf("alpha bundles = %q", got)
	}
	a2 := cat.Bundle(BundleRef{Package: "alpha", Name: "a.v2"})
	if a2 == nil || a2.Image != "img/a:2" || alpha.Bundle("a.v2") != a2 {
		t.Fatalf("Bundle(alpha/a.v2) = %+v", a2)
	}
	if !slices.Equal(a2.Channels, []string{"fast", "stable"}) {
		t.Errorf("a.v2 Channels = %q", a2.Channels)
	}
	if got := names(cat.BundlesNamed("a.v1")); !slices.Equal(got, []string{"alpha/a.v1", "zeta/a.v1"}) {
		t.Errorf("BundlesNamed(a.v1) = %q", got)
	}
	if got := names(cat.Providers(crd)); !slices.Equal(got, []string{"alpha/a.v2", "zeta/z.v1"}) {
		t.Errorf("Providers(%v) = %q (a bundle stating a GVK twice is listed once)", crd, got)
	}
	if got := names(cat.Providers(GVK{Kind: "None"})); got != nil {
		t.Errorf("Providers(none) = %q", got)
	}
	if got := names(cat.LabelProviders("l")); !slices.Equal(got, []string{"alpha/a.v1", "zeta/z.v1"}) {
		t.Errorf("LabelProviders(l) = %q", got)
	}
	if got := names(cat.BundlesWithVersion("alpha", semver.MustParse("1.0.0"))); !slices.Equal(got, []string{"alpha/a.v1"}) {
		t.Errorf("BundlesWithVersion(alpha, 1.0.0) = %q (v1.0 parses tolerantly)", got)
	}
	if got := cat.BundlesWithVersion("alpha", semver.MustParse("1.5.0")); got != nil {
		t.Errorf("BundlesWithVersion(alpha, 1.5.0) = %q", names(got))
	}
	if got := cat.BundlesWithVersion("nope", semver.MustParse("1.0.0")); got != nil {
		t.Errorf("BundlesWithVersion(nope) = %q", names(got))
	}
	if o := cat.Others(); len(o) != 2 || o[0].Name != "m1" || o[1].Name != "m0" {
		t.Errorf("Others() = %+v, want source order", o)
	}
}

func TestBuildDuplicates(t *testing.T) {
	pos := func(line int) Position { return Position{File: "cat.json", Line: line} }
	b := NewBuilder()
	b.addPackage(pos(1), "p", "c")
	b.addPackage(pos(2), "p", "c")
	b.addChannel(pos(3), "p", "c", []Entry{{Name: "b1"}}, nil)
	b.addChannel(pos(4), "p", "c", []Entry{{Name: "b1"}}, nil)
	b.addChannel(pos(5), "q", "c", nil, nil)
	b.addChannel(pos(6), "q", "c", nil, nil)
	_ = b.addBundle(pos(7), "b1", "p", "i", []Property{PackageProperty("p", "1.0.0")})
	_ = b.addBundle(pos(8), "b1", "p", "i", []Property{PackageProperty("p", "1.0.0")})
	_ = b.addBundle(pos(9), "b1", "q", "i", []Property{PackageProperty("q", "1.0.0")})
	cat, err := b.Build()
	if err == nil || cat != nil {
		t.Fatalf("Build() = %v, %v; want an error", cat, err)
	}
	var got []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var d *DuplicateError
		if !errors.As(e, &d) {
			t.Fatalf("error %v is not a *DuplicateError", e)
		}
		got = append(got, d.Error())
	}
	want := []string{
		`duplicate olm.package "p" at cat.json:2 (first at cat.json:1)`,
		`package "p": duplicate channel "c" at cat.json:4 (first at cat.json:3)`,
		`package "p": duplicate bundle "b1" at cat.json:8 (first at cat.json:7)`,
		`package "q": duplicate channel "c" at cat.json:6 (first at cat.json:5)`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestBuildImplicitPackage(t *testing.T) {
	b := NewBuilder()
	b.AddChannel("ghost", "c", Entry{Name: "g1"})
	if err := b.AddBundle("g1", "ghost", "i", PackageProperty("ghost", "1.0.0")); err != nil {
		t.Fatal(err)
	}
	b.AddDeprecations("shade", Deprecation{Reference: DeprecationRef{Schema: "olm.package"}, Message: "gone"})
	cat := mustBuild(t, b)
	g := cat.Package("ghost")
	if g == nil || g.Declared() || g.Pos != (Position{}) || len(g.Channels) != 1 || len(g.Bundles) != 1 {
		t.Fatalf("implicit package ghost = %+v", g)
	}
	if s := cat.Package("shade"); s == nil || len(s.Deprecations) != 1 {
		t.Fatalf("implicit package shade = %+v", s)
	}
}

func TestAddBundleMalformedProperty(t *testing.T) {
	b := NewBuilder()
	b.AddPackage("p", "c")
	b.AddChannel("p", "c", Entry{Name: "b1"})
	err := b.AddBundle("b1", "p", "i", PackageProperty("p", "1.0.0"), Property{Type: TypeGVK, Value: []byte(`"nope"`)})
	if err == nil || !strings.Contains(err.Error(), `bundle "b1" of package "p"`) || !strings.Contains(err.Error(), TypeGVK) {
		t.Fatalf("AddBundle error = %v; want one naming the bundle and olm.gvk", err)
	}
	cat := mustBuild(t, b)
	if cat.Package("p").Bundle("b1") == nil {
		t.Fatal("the bundle with a malformed property was dropped")
	}
	if fs := cat.Validate(); !hasCode(fs, CodeInvalidProperty) {
		t.Errorf("Validate() = %v; want %s", fs, CodeInvalidProperty)
	}
}

func TestBuildTwice(t *testing.T) {
	b := NewBuilder()
	if _, err := b.Build(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Build(); err == nil {
		t.Fatal("second Build succeeded")
	}
}

func TestZeroCatalog(t *testing.T) {
	var c Catalog
	if c.Packages() != nil || c.Package("p") != nil || c.Bundle(BundleRef{}) != nil || c.Validate() != nil {
		t.Error("zero Catalog is not empty")
	}
}

func hasCode(fs []Finding, code string) bool {
	return slices.ContainsFunc(fs, func(f Finding) bool { return f.Code == code })
}

func TestDuplicateErrorWithoutPositions(t *testing.T) {
	b := NewBuilder()
	b.AddPackage("p", "c")
	b.AddPackage("p", "c")
	_, err := b.Build()
	if err == nil || err.Error() != `duplicate olm.package "p"` {
		t.Errorf("Build() error = %v", err)
	}
}

func TestBuilderZeroValue(t *testing.T) {
	var b Builder // as documented: usable without NewBuilder
	b.AddPackage("p", "c")
	b.AddChannel("p", "c", Entry{Name: "p.v1"})
	if err := b.AddBundle("p.v1", "p", "example.com/p:1", PackageProperty("p", "1.0.0")); err != nil {
		t.Fatal(err)
	}
	cat := mustBuild(t, &b)
	if h, ok := cat.Package("p").Channel("c").Head(); !ok || h != "p.v1" {
		t.Errorf("head %q, %v", h, ok)
	}
}

// mustBuild returns b's catalog, failing tb when Build fails.
func mustBuild(tb testing.TB, b *Builder) *Catalog {
	tb.Helper()
	cat, err := b.Build()
	if err != nil {
		tb.Fatal(err)
	}
	return cat
}
