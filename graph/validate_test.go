package graph

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/internal/words"
)

// sound adds a sound package "p": channel "c" with p.v2 replacing p.v1.
func sound(b *Builder) {
	b.AddPackage("p", "c")
	b.AddChannel("p", "c", Entry{Name: "p.v1"}, Entry{Name: "p.v2", Replaces: "p.v1"})
	bundles(b, "p", "p.v1", "p.v2")
}

// bundle adds a bundle with an image and an olm.package property.
func bundle(b *Builder, name, pkg, version string, props ...Property) {
	props = append([]Property{PackageProperty(pkg, version)}, props...)
	_ = b.AddBundle(name, pkg, "img/"+name, props...)
}

// strs returns the String forms of list, nil when it is empty.
func strs[T fmt.Stringer](list []T) []string {
	var out []string
	for _, x := range list {
		out = append(out, x.String())
	}
	return out
}

// bundles adds a bundle (as bundle does) to package pkg for each of names,
// at versions 1.0.0, 2.0.0, … in order.
func bundles(b *Builder, pkg string, names ...string) {
	for i, name := range names {
		bundle(b, name, pkg, fmt.Sprintf("%d.0.0", i+1))
	}
}

// oneBundle adds to package pkg a channel "c" holding one bundle, name, at
// version 1.0.0.
func oneBundle(b *Builder, pkg, name string) {
	b.AddChannel(pkg, "c", Entry{Name: name})
	bundle(b, name, pkg, "1.0.0")
}

// ident renders a finding without its message: "severity code pkg/ch/bundle".
func ident(f Finding) string {
	return fmt.Sprintf("%s %s %s/%s/%s", f.Severity, f.Code, f.Package, f.Channel, f.Bundle)
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		build  func(b *Builder)
		want   []string // brief forms, in Validate's order
	}{
		{name: "sound", build: sound, want: nil},
		{
			name: "missing olm.package",
			build: func(b *Builder) {
				oneBundle(b, "p", "p.v1")
			},
			want: []string{"error missing-package p//"},
		},
		{
			name: "invalid package name",
			build: func(b *Builder) {
				b.AddPackage("P_q", "c")
				oneBundle(b, "P_q", "x")
			},
			want: []string{"error invalid-package-name P_q//"},
		},
		{
			name: "default channel",
			build: func(b *Builder) {
				b.AddPackage("p", "")
				oneBundle(b, "p", "p.v1")
				b.AddPackage("q", "nope")
				oneBundle(b, "q", "q.v1")
			},
			want: []string{"error no-default-channel p//", "error unknown-default-channel q//"},
		},
		{
			name:  "no channels",
			build: func(b *Builder) { b.AddPackage("p", "c") },
			want:  []string{"error no-channels p//", "error unknown-default-channel p//"},
		},
		{
			name: "empty channel",
			build: func(b *Builder) {
				sound(b)
				b.AddChannel("p", "empty")
			},
			want: []string{"error empty-channel p/empty/"},
		},
		{
			name: "duplicate versions",
			build: func(b *Builder) {
				b.AddPackage("p", "c")
				b.AddChannel("p", "c", Entry{Name: "p.a"}, Entry{Name: "p.b", Replaces: "p.a"}, Entry{Name: "p.c", Replaces: "p.b"})
				bundle(b, "p.a", "p", "1.0.0")
				bundle(b, "p.b", "p", "v1.0")
				bundle(b, "p.c", "p", "1.0.0+build")
			},
			reason: "v1.0 reads as 1.0.0; 1.0.0+build differs from 1.0.0 in text, as opm compares",
			want: []string{
				"error duplicate-version p//",
				"warning non-strict-version p//p.b",
			},
		},
		{
			name: "entries",
			build: func(b *Builder) {
				b.AddPackage("p", "c")
				b.AddChannel("p", "c",
					Entry{Name: "p.v1", Replaces: "p.v0"},
					Entry{Name: "p.v2", Replaces: "p.v1", Skips: []string{"", "p.gone"}},
					Entry{Name: "p.v1"},
					Entry{Name: "p.v3", Replaces: "p.v2", SkipRange: mustRange(">=1.0.0 <3.0.0")},
					Entry{Name: "p.v4", Replaces: "p.v3", SkipRange: Range{text: "1.x.x.x"}},
				)
				bundles(b, "p", "p.v1", "p.v2", "p.v3")
			},
			want: []string{
				"warning dangling-replaces p/c/p.v1",
				"error duplicate-entry p/c/p.v1",
				"warning dangling-skip p/c/p.v2",
				"error empty-skip p/c/p.v2",
				"warning invalid-skip-range p/c/p.v4",
				"error unknown-bundle p/c/p.v4",
			},
		},
		{
			name: "multiple heads",
			build: func(b *Builder) {
				sound(b)
				b.AddChannel("p", "d", Entry{Name: "p.v1"}, Entry{Name: "p.v2"})
			},
			reason: "opm stops at the heads: no stranded finding",
			want:   []string{"error multiple-heads p/d/"},
		},
		{
			name: "no head and cycle",
			build: func(b *Builder) {
				b.AddPackage("p", "c")
				b.AddChannel("p", "c", Entry{Name: "p.v1", Replaces: "p.v2"}, Entry{Name: "p.v2", Replaces: "p.v1"})
				bundles(b, "p", "p.v1", "p.v2")
			},
			want: []string{"error cycle p/c/", "error no-head p/c/"},
		},
		{
			name: "cycle below the head",
			build: func(b *Builder) {
				b.AddPackage("p", "c")
				b.AddChannel("p", "c",
					Entry{Name: "p.v3", Replaces: "p.v2"},
					Entry{Name: "p.v2", Replaces: "p.v1"},
					Entry{Name: "p.v1", Replaces: "p.v2"},
					Entry{Name: "p.x"},
				)
				bundles(b, "p", "p.v1", "p.v2", "p.v3")
			},
			reason: "p.x is a second head, so opm reports the heads; the cycle is reported anyway",
			want:   []string{"error cycle p/c/", "error multiple-heads p/c/", "error unknown-bundle p/c/p.x"},
		},
		{
			name: "cycle through skips",
			build: func(b *Builder) {
				b.AddPackage("p", "c")
				b.AddChannel("p", "c",
					Entry{Name: "p.v3", Replaces: "p.v2"},
					Entry{Name: "p.v2", Replaces: "p.v1"},
					Entry{Name: "p.v1", Skips: []string{"p.v2"}},
				)
				bundles(b, "p", "p.v1", "p.v2", "p.v3")
			},
			want: []string{"error cycle p/c/"},
		},
		{
			name: "stranded",
			build: func(b *Builder) {
				b.AddPackage("p", "c")
				b.AddChannel("p", "c",
					Entry{Name: "p.v1"},
					Entry{Name: "p.v2", Replaces: "p.v1"},
					Entry{Name: "p.v3", Replaces: "p.v2", Skips: []string{"p.y"}},
					Entry{Name: "p.y", Skips: []string{"p.x"}},
					Entry{Name: "p.x"},
				)
				bundles(b, "p", "p.v1", "p.v2", "p.v3", "p.y", "p.x")
			},
			reason: "p.x is skipped by p.y, which is not on the chain: opm does not call it stranded",
			want:   nil,
		},
		{
			name: "skip cycle with no head",
			build: func(b *Builder) {
				b.AddPackage("p", "c")
				b.AddChannel("p", "c",
					Entry{Name: "p.v1"},
					Entry{Name: "p.v2", Replaces: "p.v1", Skips: []string{"p.v3"}},
					Entry{Name: "p.v3", Replaces: "p.v2"},
				)
				bundles(b, "p", "p.v1", "p.v2", "p.v3")
			},
			want: []string{"error cycle p/c/", "error no-head p/c/"},
		},
		{
			name: "stranded entries",
			build: func(b *Builder) {
				b.AddPackage("p", "c")
				b.AddChannel("p", "c",
					Entry{Name: "p.v1"},
					Entry{Name: "p.v2", Replaces: "p.v1", SkipRange: mustRange("<2.0.0")},
					Entry{Name: "p.v1.5"},
				)
				bundles(b, "p", "p.v1", "p.v2")
				bundle(b, "p.v1.5", "p", "1.5.0")
			},
			reason: "a skipRange does not keep an entry from being stranded, and without an edge it is a second head",
			want:   []string{"error multiple-heads p/c/"},
		},
		{
			name: "stranded by a second chain",
			build: func(b *Builder) {
				b.AddPackage("p", "c")
				b.AddChannel("p", "c",
					Entry{Name: "p.v1"},
					Entry{Name: "p.v2", Replaces: "p.v1", Skips: []string{"p.x2"}},
					Entry{Name: "p.x1"},
					Entry{Name: "p.x2", Replaces: "p.x1"},
				)
				bundles(b, "p", "p.v1", "p.v2")
				bundle(b, "p.x1", "p", "1.1.0")
				bundle(b, "p.x2", "p", "1.2.0")
			},
			want: []string{"error stranded-bundles p/c/"},
		},
		{
			name: "bundles",
			build: func(b *Builder) {
				sound(b)
				bundle(b, "p.loose", "p", "9.0.0")
				_ = b.AddBundle("p.noimage", "p", "", PackageProperty("p", "3.0.0"))
				_ = b.AddBundle("p.objects", "p", "", PackageProperty("p", "3.5.0"), Property{Type: "olm.bundle.object", Value: []byte(`{"data":"e30="}`)})
				_ = b.AddBundle("p.noprop", "p", "img")
				_ = b.AddBundle("p.twoprops", "p", "img", PackageProperty("p", "4.0.0"), PackageProperty("p", "4.0.1"))
				_ = b.AddBundle("p.other", "p", "img", PackageProperty("q", "5.0.0"))
				_ = b.AddBundle("p.badver", "p", "img", PackageProperty("p", "five"))
				b.AddChannel("p", "all",
					Entry{Name: "p.objects"},
					Entry{Name: "p.noimage", Replaces: "p.objects"},
					Entry{Name: "p.noprop", Replaces: "p.noimage"},
					Entry{Name: "p.twoprops", Replaces: "p.noprop"},
					Entry{Name: "p.other", Replaces: "p.twoprops"},
					Entry{Name: "p.badver", Replaces: "p.other"},
				)
			},
			want: []string{
				"error invalid-version p//p.badver",
				"error bundle-not-in-channel p//p.loose",
				"error missing-image p//p.noimage",
				"error missing-package-property p//p.noprop",
				"error package-property-mismatch p//p.other",
				"error multiple-package-properties p//p.twoprops",
			},
		},
		{
			name: "no names, a malformed property",
			build: func(b *Builder) {
				sound(b)
				b.AddChannel("p", "", Entry{Name: "p.v1"})
				_ = b.AddBundle("", "p", "img", PackageProperty("p", "7.0.0"))
				_ = b.AddBundle("p.bad", "p", "img", PackageProperty("p", "8.0.0"),
					Property{Type: TypeGVK, Value: []byte(`"nope"`)}, Property{Type: TypeGVK, Value: []byte(`1`)})
				b.AddChannel("p", "bad", Entry{Name: "p.bad"})
			},
			reason: "two malformed properties are one finding, its brief on one line",
			want: []string{
				"error bundle-not-in-channel p//",
				"error missing-bundle-name p//",
				"error missing-channel-name p//",
				"error invalid-property p//p.bad",
			},
		},
		{
			name: "deprecations",
			build: func(b *Builder) {
				sound(b)
				b.AddDeprecations("p",
					Deprecation{Reference: DeprecationRef{Schema: "olm.package"}},
					Deprecation{Reference: DeprecationRef{Schema: "olm.channel", Name: "c"}},
					Deprecation{Reference: DeprecationRef{Schema: "olm.bundle", Name: "p.v1"}},
					Deprecation{Reference: DeprecationRef{Schema: "olm.bundle", Name: "p.v9"}},
					Deprecation{Reference: DeprecationRef{Schema: "olm.channel", Name: "nope"}},
					Deprecation{Reference: DeprecationRef{Schema: "olm.bundle", Name: "p.v1"}},
					Deprecation{Reference: DeprecationRef{Schema: "olm.thing", Name: "x"}},
					Deprecation{Reference: DeprecationRef{Schema: "olm.package", Name: "p"}},
					Deprecation{Reference: DeprecationRef{}},
				)
				b.AddDeprecations("p")
			},
			want: []string{
				"error invalid-deprecation p//",
				"error invalid-deprecation p//",
				"error invalid-deprecation p//",
				"error invalid-deprecation p//",
				"error invalid-deprecation p//",
				"error invalid-deprecation p//",
				"error multiple-deprecations p//",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBuilder()
			tt.build(b)
			cat := mustBuild(t, b)
			fs := cat.Validate()
			var got []string
			for _, f := range fs {
				got = append(got, ident(f))
				if f.Message == "" {
					t.Errorf("finding %s has no message", ident(f))
				}
				checkBrief(t, f)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Validate():\n%s\nwant:\n%s", strings.Join(strs(fs), "\n"), strings.Join(tt.want, "\n"))
			}
			if !slices.IsSortedFunc(fs, CompareFindings) {
				t.Error("findings not sorted")
			}
		})
	}
}

// checkBrief checks a finding's brief: one line, shorter than its message
// and without the names of its own package, channel or bundle quoted, which
// the line that shows the brief names already.
func checkBrief(t *testing.T, f Finding) {
	t.Helper()
	switch {
	case f.Brief == "":
		t.Errorf("finding %s has no brief", ident(f))
	case strings.Contains(f.Brief, "\n"):
		t.Errorf("finding %s: brief %q is not one line", ident(f), f.Brief)
	case len(f.Brief) >= len(f.Message):
		t.Errorf("finding %s: brief %q is no shorter than the message %q", ident(f), f.Brief, f.Message)
	}
	for _, own := range []string{f.Package, f.Channel, f.Bundle} {
		if own != "" && strings.Contains(f.Brief, fmt.Sprintf("%q", own)) {
			t.Errorf("finding %s: brief %q names its own %q", ident(f), f.Brief, own)
		}
	}
}

func TestValidateMessages(t *testing.T) {
	b := NewBuilder()
	b.AddPackage("p", "c")
	b.AddChannel("p", "c",
		Entry{Name: "p.v3", Replaces: "p.v2"},
		Entry{Name: "p.v2", Replaces: "p.v1"},
		Entry{Name: "p.v1", Replaces: "p.v2"},
	)
	bundles(b, "p", "p.v1", "p.v2", "p.v3")
	b.AddChannel("p", "d", Entry{Name: "p.v1"}, Entry{Name: "p.v3"})
	cat := mustBuild(t, b)
	got := strs(cat.Validate())
	want := []string{
		`error cycle p/c: channel "c" of package "p" has a cycle through replaces and skips: p.v1 -> p.v2 -> p.v1`,
		`error multiple-heads p/d: channel "d" of package "p" has 2 heads (entries that nothing replaces or skips): p.v1, p.v3`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("messages:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var briefs []string
	for _, f := range cat.Validate() {
		briefs = append(briefs, f.Brief)
	}
	wantBriefs := []string{"p.v1 -> p.v2 -> p.v1", "2 heads: p.v1, p.v3"}
	if !slices.Equal(briefs, wantBriefs) {
		t.Errorf("briefs %q, want %q", briefs, wantBriefs)
	}
}

func TestBriefLists(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{cycleBrief([]string{"a", "b", "a"}), "a -> b -> a"},
		{cycleBrief([]string{"a", "b", "c", "d", "a"}), "a -> b -> c -> d -> a"},
		{cycleBrief([]string{"a", "b", "c", "d", "e", "a"}), "a -> b -> c -> … (5 entries)"},
		{words.First([]string{"a", "b", "c", "d"}, 2), "a, b and 2 more"},
		{words.First([]string{"a"}, 2), "a"},
		{quoteFirst([]string{"a", "b"}, 1), `"a" and 1 more`},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func mustRange(s string) Range {
	r, err := ParseRange(s)
	if err != nil {
		panic(err)
	}
	return r
}
