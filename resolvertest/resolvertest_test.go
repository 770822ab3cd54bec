package resolvertest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolvertest"
)

// fakeTB records what a helper reports, so that tests can prove the
// helpers fail when they should. Fatal and Skip stop the calling goroutine,
// as testing.T's do; run the helper with run.
type fakeTB struct {
	testing.TB // nil: calling anything not overridden panics

	mu      sync.Mutex
	errors  []string
	fatal   bool
	skipped bool
}

func (f *fakeTB) Helper() {}

func (f *fakeTB) Errorf(format string, args ...any) { f.record(fmt.Sprintf(format, args...)) }
func (f *fakeTB) Error(args ...any)                 { f.record(fmt.Sprint(args...)) }

func (f *fakeTB) Fatalf(format string, args ...any) {
	f.record(fmt.Sprintf(format, args...))
	f.mu.Lock()
	f.fatal = true
	f.mu.Unlock()
	runtime.Goexit()
}

func (f *fakeTB) Fatal(args ...any) { f.Fatalf("%s", fmt.Sprint(args...)) }

func (f *fakeTB) Skipf(format string, args ...any) {
	f.mu.Lock()
	f.skipped = true
	f.mu.Unlock()
	runtime.Goexit()
}

func (f *fakeTB) record(msg string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errors = append(f.errors, msg)
}

// run calls fn with a fresh fakeTB in its own goroutine and returns the
// fake once fn has returned or stopped.
func run(fn func(tb testing.TB)) *fakeTB {
	f := &fakeTB{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(f)
	}()
	<-done
	return f
}

func (f *fakeTB) text() string { return strings.Join(f.errors, "\n") }

var widget = graph.GVK{Group: "example.com", Version: "v1", Kind: "Widget"}

// community is a catalog used by several tests: app needs Widget, widgets
// provides it, and a has a three-hop chain.
func community() *resolvertest.Catalog {
	c := resolvertest.NewCatalog("olm", "community")
	c.Package("app", "stable").Bundle("app.v1", "1.0.0").RequiresGVK("example.com", "v1", "Widget")
	c.Package("widgets", "stable").Bundle("widgets.v1", "1.0.0").Provides("example.com", "v1", "Widget")
	a := c.Package("a", "stable")
	a.Bundle("a.v1", "1.0.0")
	a.Bundle("a.v2", "2.0.0").Replaces("a.v1")
	a.Bundle("a.v3", "3.0.0").Replaces("a.v2")
	return c
}

func TestCase(t *testing.T) {
	state := func(f func(s *resolvertest.State)) *resolvertest.State {
		s := resolvertest.NewState("operators")
		f(s)
		return s
	}
	resolvertest.Run(t, []resolvertest.Case{
		{
			Name:     "install with a dependency",
			Catalogs: []*resolvertest.Catalog{community()},
			State: state(func(s *resolvertest.State) {
				s.Subscribe("app", "app").Channel("stable").Source("olm", "community")
			}),
			Want: `namespace operators: 2 step(s)
1. install widgets.v1 1.0.0 (package widgets, channel stable, catalog olm/community): required by app.v1 (olm.gvk.required example.com/v1 Widget); creates a subscription
2. install app.v1 1.0.0 (package app, channel stable, catalog olm/community): subscription app
`,
		},
		{
			Name:     "upgrade one hop",
			Reason:   "State.Install makes the CSV from the catalog bundle, with its properties",
			Catalogs: []*resolvertest.Catalog{community()},
			State: state(func(s *resolvertest.State) {
				s.Install(community().Package("a", "stable").Lookup("a.v1"))
				s.Subscribe("a", "a").Installed("a.v1")
			}),
			Want: `namespace operators: 1 step(s)
1. upgrade a.v2 2.0.0 (package a, channel stable, catalog olm/community) replacing a.v1: subscription a
`,
		},
		{
			Name:     "conflict: an installed CSV without subscription owns the API",
			Catalogs: []*resolvertest.Catalog{community()},
			State: state(func(s *resolvertest.State) {
				s.CSV("legacy.v1", "1.0.0").Provides("example.com", "v1", "Widget")
				s.Subscribe("widgets", "widgets")
			}),
			Want: `conflict in namespace operators:
- subscription widgets wants package widgets
- installed CSV legacy.v1 has no subscription and must stay
- subscription widgets can only be satisfied by widgets.v1 (channel stable, catalog olm/community)
- at most one provider of API example.com/v1 Widget can be installed: installed legacy.v1 and widgets.v1 (channel stable, catalog olm/community)
`,
		},
		{
			Name:     "rollout",
			Catalogs: []*resolvertest.Catalog{community()},
			State: state(func(s *resolvertest.State) {
				s.CSV("a.v1", "1.0.0").Property(graph.TypePackage, `{"packageName":"a","version":"1.0.0"}`)
				s.Subscribe("a", "a").Channel("stable").Installed("a.v1")
			}),
			Rollout: 5,
			Want: `== round 1 ==
namespace operators: 1 step(s)
1. upgrade a.v2 2.0.0 (package a, channel stable, catalog olm/community) replacing a.v1: subscription a
== round 2 ==
namespace operators: 1 step(s)
1. upgrade a.v3 3.0.0 (package a, channel stable, catalog olm/community) replacing a.v2: subscription a
== settled after 2 round(s) ==
installed a.v3 3.0.0
subscription a: a.v3
`,
		},
		{
			Name:     "catalog priority from a CatalogSource",
			Reason:   "both catalogs have package a; the CatalogSource's priority overrides the builder's",
			Catalogs: []*resolvertest.Catalog{community(), resolvertest.NewCatalog("olm", "aaa").Priority(-1).Package("a", "fast").Bundle("a.v9", "9.0.0").Package().Catalog()},
			State: state(func(s *resolvertest.State) {
				s.CatalogSource("olm", "aaa", 1)
				s.Subscribe("a", "a")
			}),
			Want: `namespace operators: 1 step(s)
1. install a.v9 9.0.0 (package a, channel fast, catalog olm/aaa): subscription a
`,
		},
		{
			Name: "empty namespace",
			Want: "namespace operators: 0 step(s)\n",
		},
	})
}

// TestCaseFails proves that a Case with a wrong Want fails, with a diff
// and its reason.
func TestCaseFails(t *testing.T) {
	c := resolvertest.Case{
		Name:     "wrong",
		Reason:   "the head is a.v3",
		Catalogs: []*resolvertest.Catalog{community()},
		State:    resolvertest.NewState("operators"),
		Want:     "namespace operators: 1 step(s)\n1. install a.v2\n",
	}
	c.State.Subscribe("a", "a")
	f := run(c.Run)
	got := f.text()
	for _, want := range []string{
		"wrong: result differs from want (-want +got)",
		"- 1. install a.v2\n",
		"+ 1. install a.v3 3.0.0 (package a, channel stable, catalog olm/community): subscription a\n",
		"  namespace operators: 1 step(s)\n",
		"reason: the head is a.v3",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("Case.Run reported:\n%s\nwant it to contain %q", got, want)
		}
	}
	if f.fatal {
		t.Error("a wrong Want is not fatal, got Fatal")
	}

	bad := resolvertest.NewCatalog("olm", "bad")
	bad.Package("a", "stable").Bundle("a.v1", "1.0.0").SkipRange("not a range")
	f = run((&resolvertest.Case{Name: "bad", Catalogs: []*resolvertest.Catalog{bad}}).Run)
	if !f.fatal || !strings.Contains(f.text(), `skipRange: invalid semver range "not a range"`) {
		t.Errorf("a catalog that does not build: fatal %v, reported %q", f.fatal, f.text())
	}
}

func TestCatalogBuild(t *testing.T) {
	c := resolvertest.NewCatalog("olm", "community").Priority(3)
	p := c.Package("etcd", "alpha")
	p.Bundle("etcd.v1", "0.1.0")
	p.Bundle("etcd.v2", "0.2.0").Replaces("etcd.v1").In("alpha", "beta")
	p.Bundle("etcd.v3", "0.3.0").Replaces("etcd.v2").Skips("etcd.v1").SkipRange("<0.2.0").
		Provides("etcd.database.coreos.com", "v1beta2", "EtcdCluster").
		RequiresGVK("example.com", "v1", "Widget").RequiresPackage("lib", ">=1.0.0").
		Label("l1").RequiresLabel("l2").Constraint(`{"gvk":{"group":"g","version":"v","kind":"K"}}`).
		Property("example.com/unknown", `{"x":1}`)
	p.Bundle("etcd.v0", "0.0.1").Deprecated().In("old")
	p.Channel("beta", graph.Entry{Name: "etcd.v1"})
	p.Channel("empty")
	p.DeprecatePackage("gone").DeprecateChannel("beta", "use alpha").DeprecateBundle("etcd.v1", "old")

	if c.Key() != (resolver.CatalogKey{Namespace: "olm", Name: "community"}) || p.Name() != "etcd" || p.Catalog() != c ||
		p.Lookup("etcd.v3").Name() != "etcd.v3" || p.Lookup("etcd.v3").Package() != p || p.Lookup("nosuch") != nil ||
		p.Lookup("etcd.v3").Version() != "0.3.0" || c.Lookup("etcd") != p || c.Lookup("nosuch") != nil ||
		len(c.Packages()) != 1 || c.Packages()[0] != p || len(p.Bundles()) != 4 || p.Bundles()[3].Name() != "etcd.v0" {
		t.Error("builder accessors disagree with what was built")
	}
	if got, want := strings.Join(p.Channels(), " "), "beta empty alpha old"; got != want {
		t.Errorf("Channels() = %q, want %q (declared ones first, then the bundles')", got, want)
	}
	rc := c.MustBuild(t)
	if rc.Key != (resolver.CatalogKey{Namespace: "olm", Name: "community"}) || rc.Priority != 3 {
		t.Errorf("key %v priority %d, want olm/community 3", rc.Key, rc.Priority)
	}
	pkg := rc.Catalog.Package("etcd")
	if pkg == nil || pkg.DefaultChannel != "alpha" {
		t.Fatalf("package etcd: %+v", pkg)
	}
	var chans []string
	for _, ch := range pkg.Channels {
		var names []string
		for _, e := range ch.Entries {
			names = append(names, e.Name)
		}
		chans = append(chans, ch.Name+":"+strings.Join(names, ","))
	}
	if got, want := strings.Join(chans, " "), "alpha:etcd.v1,etcd.v2,etcd.v3 beta:etcd.v1,etcd.v2 empty: old:etcd.v0"; got != want {
		t.Errorf("channels %q, want %q", got, want)
	}
	head, _ := pkg.Channel("alpha").Head()
	if head != "etcd.v3" {
		t.Errorf("alpha head %q, want etcd.v3", head)
	}
	e, _ := pkg.Channel("alpha").Entry("etcd.v3")
	if e.Replaces != "etcd.v2" || len(e.Skips) != 1 || e.SkipRange.String() != "<0.2.0" {
		t.Errorf("etcd.v3 entry %+v", e)
	}
	b := pkg.Bundle("etcd.v3")
	if b.VersionText != "0.3.0" || len(b.Provides) != 1 || len(b.RequiresGVK) != 1 || len(b.RequiresPackage) != 1 ||
		len(b.Labels) != 1 || len(b.RequiresLabel) != 1 || len(b.Constraints) != 1 || len(b.Properties) != 8 {
		t.Errorf("etcd.v3 bundle %+v", b)
	}
	if !pkg.Bundle("etcd.v0").Deprecated {
		t.Error("etcd.v0 is not deprecated")
	}
	if len(pkg.Deprecations) != 3 {
		t.Errorf("deprecations %+v, want 3", pkg.Deprecations)
	}
	// Build can be called again and gives a fresh catalog.
	if rc2 := c.MustBuild(t); rc2.Catalog == rc.Catalog {
		t.Error("Build returned the same catalog twice")
	}
}

func TestCatalogBuildErrors(t *testing.T) {
	c := resolvertest.NewCatalog("olm", "bad")
	c.Package("a", "stable").Bundle("a.v1", "1.0.0").RequiresPackage("lib", "not a range")
	c.Package("a", "other")
	c.Package("b", "stable").Bundle("b.v1", "1.0.0")
	c.Package("b", "stable").Bundle("b.v1", "1.0.0")
	_, err := c.Build()
	if err == nil {
		t.Fatal("Build succeeded")
	}
	for _, want := range []string{`catalog olm/bad`, `package "a" added twice with default channels "stable" and "other"`, `bundle "a.v1" of package "a"`, `duplicate bundle "b.v1"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
}

func TestState(t *testing.T) {
	s := resolvertest.NewState("ns")
	cat := resolvertest.NewCatalog("olm", "c")
	b := cat.Package("w", "stable").Bundle("w.v1", "v1.2").Provides("example.com", "v1", "Widget").RequiresGVK("example.com", "v1", "Gadget").Label("x")
	s.Install(b)
	s.CSV("old.v1", "1.0.0").Provides("example.com", "v1", "Thing").Requires("example.com", "v1", "Other").Phase(cluster.CSVPhaseFailed)
	s.CSV("copy.v1", "1.0.0").Copied().Property(graph.TypePackage, `{"packageName":"copy","version":"1.0.0"}`).With(graph.DeprecatedProperty())
	s.Subscribe("w", "w").Channel("stable").Source("olm", "c").StartingCSV("w.v1").Installed("w.v1")
	s.CatalogSource("olm", "c", 7)
	s.OperatorGroup("ns", "og").Annotate(cluster.ExcludeGlobalCatalogsAnnotation, "true").ProvidedAPIs("Widget.v1.example.com")
	st := s.State()
	if len(st.CSVs) != 3 || len(st.Subscriptions) != 1 || len(st.CatalogSources) != 1 {
		t.Fatalf("state %+v", st)
	}
	w := st.CSV("ns", "w.v1")
	if w == nil || w.VersionText != "v1.2" || w.Version.String() != "1.2.0" || w.Properties == nil || len(w.Properties.List()) != 4 ||
		len(w.Provides) != 1 || w.Provides[0] != widget || len(w.Requires) != 1 || w.Phase != cluster.CSVPhaseSucceeded {
		t.Errorf("installed bundle %+v", w)
	}
	old := st.CSV("ns", "old.v1")
	if old == nil || old.Properties != nil || len(old.Provides) != 1 || len(old.Requires) != 1 || old.Phase != cluster.CSVPhaseFailed {
		t.Errorf("CSV %+v", old)
	}
	if cp := st.CSV("ns", "copy.v1"); cp == nil || !cp.Copied || cp.Properties == nil || len(cp.Properties.List()) != 2 || !cp.Properties.Typed().Deprecated {
		t.Errorf("copied CSV %+v", cp)
	}
	sub := st.Subscription("ns", "w")
	if sub == nil || sub.Package != "w" || sub.Channel != "stable" || sub.Source != "c" || sub.SourceNamespace != "olm" ||
		sub.StartingCSV != "w.v1" || sub.InstalledCSV != "w.v1" || sub.CurrentCSV != "w.v1" {
		t.Errorf("subscription %+v", sub)
	}
	if og := st.OperatorGroups[0]; og.Name != "og" || og.Annotations[cluster.ExcludeGlobalCatalogsAnnotation] != "true" || og.Annotations[cluster.ProvidedAPIsAnnotation] != "Widget.v1.example.com" {
		t.Errorf("operator group %+v", og)
	}
	if cs := st.CatalogSources[0]; cs.Namespace != "olm" || cs.Name != "c" || cs.Priority != 7 {
		t.Errorf("catalog source %+v", cs)
	}
	// State returns a copy.
	st.CSVs[0].Name = "changed"
	if s.State().CSVs[0].Name == "changed" {
		t.Error("State shares its CSVs with the builder")
	}
}

// TestInstallFromProperties checks that Install takes a bundle's APIs from
// its properties, however they were added, and that InstallBundle makes
// the same CSV from the built catalog's bundle.
func TestInstallFromProperties(t *testing.T) {
	cat := resolvertest.NewCatalog("olm", "c")
	b := cat.Package("w", "stable").Bundle("w.v1", "1.0.0").
		With(graph.GVKProperty(widget), graph.RequiredGVKProperty(graph.GVK{Group: "example.com", Version: "v1", Kind: "Gadget"}))
	s := resolvertest.NewState("ns")
	s.Install(b)
	built := cat.MustBuild(t).Catalog.Bundle(graph.BundleRef{Package: "w", Name: "w.v1"})
	s2 := resolvertest.NewState("ns")
	s2.InstallBundle(built)
	got, fromGraph := s.State().CSV("ns", "w.v1"), s2.State().CSV("ns", "w.v1")
	if len(got.Provides) != 1 || got.Provides[0] != widget || len(got.Requires) != 1 || got.Requires[0].Kind != "Gadget" {
		t.Errorf("Install: provides %v requires %v, want Widget and Gadget from the properties", got.Provides, got.Requires)
	}
	if !reflect.DeepEqual(got, fromGraph) {
		t.Errorf("Install made\n%+v\nInstallBundle made\n%+v", got, fromGraph)
	}
}

// TestDropProperties builds a variant of a catalog without a requirement.
func TestDropProperties(t *testing.T) {
	c := community()
	app := c.Lookup("app").Lookup("app.v1").DropProperties(func(p graph.Property) bool { return p.Type == graph.TypeGVKRequired })
	props := app.Package().Catalog().MustBuild(t).Catalog.Bundle(graph.BundleRef{Package: "app", Name: "app.v1"}).Properties
	if len(props) != 1 || props[0].Type != graph.TypePackage {
		t.Errorf("properties after DropProperties: %v, want olm.package alone", props)
	}
}

func TestNewResolver(t *testing.T) {
	r := resolvertest.NewResolver(t, resolver.Options{}, community())
	s := resolvertest.NewState("operators")
	s.Subscribe("a", "a")
	res, err := r.Resolve(context.Background(), "operators", s.State())
	resolvertest.CheckResult(t, res.Plan(), err, "namespace operators: 1 step(s)\n1. install a.v3 3.0.0 (package a, channel stable, catalog olm/community): subscription a\n")

	bad := resolvertest.NewCatalog("olm", "bad")
	bad.Package("a", "stable").Bundle("a.v1", "1.0.0").SkipRange("not a range")
	if f := run(func(tb testing.TB) { resolvertest.NewResolver(tb, resolver.Options{}, bad) }); !f.fatal || !strings.Contains(f.text(), "catalog olm/bad") {
		t.Errorf("a catalog that does not build: fatal %v, reported %q", f.fatal, f.text())
	}
	if f := run(func(tb testing.TB) { resolvertest.NewResolver(tb, resolver.Options{}, community(), community()) }); !f.fatal || !strings.Contains(f.text(), "given twice") {
		t.Errorf("a catalog given twice: fatal %v, reported %q", f.fatal, f.text())
	}
}

func TestDiff(t *testing.T) {
	tests := []struct {
		name, want, got, diff string
	}{
		{name: "equal", want: "a\nb\n", got: "a\nb\n", diff: ""},
		{name: "changed line", want: "a\nb\nc\n", got: "a\nx\nc\n", diff: "  a\n- b\n+ x\n  c\n"},
		{name: "added line", want: "a\n", got: "a\nb\n", diff: "  a\n+ b\n"},
		{name: "removed line", want: "a\nb\n", got: "b\n", diff: "- a\n  b\n"},
		{name: "empty want", want: "", got: "a\n", diff: "+ a\n"},
		{name: "final newline", want: "a\n", got: "a", diff: "(the texts differ only in their final newline)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := resolvertest.Diff(tt.want, tt.got); got != tt.diff {
				t.Errorf("Diff(%q, %q) = %q, want %q", tt.want, tt.got, got, tt.diff)
			}
		})
	}
}

func TestCheckResult(t *testing.T) {
	r, err := resolver.New([]resolver.Catalog{community().MustBuild(t)}, resolver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := resolvertest.NewState("operators")
	s.Subscribe("a", "a")
	res, err := r.Resolve(context.Background(), "operators", s.State())
	want := "namespace operators: 1 step(s)\n1. install a.v3 3.0.0 (package a, channel stable, catalog olm/community): subscription a\n"
	if !resolvertest.CheckResult(t, res.Plan(), err, want) {
		return
	}
	plan := res.Plan()
	f := run(func(tb testing.TB) { resolvertest.CheckResult(tb, plan, err, "namespace operators: 0 step(s)\n") })
	if got := f.text(); !strings.Contains(got, "- namespace operators: 0 step(s)\n+ namespace operators: 1 step(s)\n+ 1. install a.v3") {
		t.Errorf("CheckResult reported %q", got)
	}
}

func TestCheckText(t *testing.T) {
	f := run(func(tb testing.TB) {
		if resolvertest.CheckText(tb, "a\nb\n", "a\nc\n") {
			tb.Error("CheckText returned true")
		}
	})
	if got := f.text(); !strings.Contains(got, "- c\n+ b\n") {
		t.Errorf("CheckText reported %q", got)
	}
	f = run(func(tb testing.TB) {
		if !resolvertest.CheckText(tb, "a\n", "a\n") {
			tb.Error("CheckText returned false")
		}
	})
	if len(f.errors) > 0 {
		t.Errorf("CheckText of equal texts reported %q", f.text())
	}
}

const goodScenario = `Installs the channel head.
-- catalog/olm/community.yaml --
schema: olm.package
name: a
defaultChannel: stable
---
schema: olm.channel
package: a
name: stable
entries:
- name: a.v1
- name: a.v2
  replaces: a.v1
---
schema: olm.bundle
name: a.v1
package: a
image: example.com/a:1
properties:
- {type: olm.package, value: {packageName: a, version: 1.0.0}}
---
schema: olm.bundle
name: a.v2
package: a
image: example.com/a:2
properties:
- {type: olm.package, value: {packageName: a, version: 2.0.0}}
-- cluster.yaml --
apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: a, namespace: operators}
spec: {name: a, channel: stable, source: community, sourceNamespace: olm}
`

const goodWant = `-- want --
namespace operators: 1 step(s)
1. install a.v2 2.0.0 (package a, channel stable, catalog olm/community): subscription a
`

func writeScenario(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunFile(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		content string
		// errors is what the fake must have been told (substrings), in
		// one report; fatal and skipped what it must have done.
		errors  []string
		fatal   bool
		skipped bool
	}{
		{name: "pass", content: goodScenario + goodWant},
		{
			name:    "wrong want fails with a diff",
			content: goodScenario + "-- want --\nnamespace operators: 1 step(s)\n1. install a.v1 1.0.0 (package a, channel stable, catalog olm/community): subscription a\n",
			errors: []string{
				"result differs from want (-want +got)",
				"- 1. install a.v1 1.0.0",
				"+ 1. install a.v2 2.0.0",
			},
		},
		{
			name:    "missing want",
			content: goodScenario,
			errors:  []string{`no "want" file (run with the update option to write it)`},
			fatal:   true,
		},
		{
			name:    "no comment",
			content: "-- want --\n",
			errors:  []string{"no comment: say what the scenario proves and why"},
			fatal:   true,
		},
		{
			name:    "unknown file",
			content: "Comment.\n-- cluster.yml --\n-- want --\n",
			errors:  []string{`unknown file "cluster.yml"`},
			fatal:   true,
		},
		{
			name:    "bad catalog path",
			content: "Comment.\n-- catalog/community.yaml --\n-- catalog/olm/c.txt --\n-- want --\n",
			errors:  []string{`catalog file "catalog/community.yaml": want catalog/<namespace>/<name>.yaml`, `catalog file "catalog/olm/c.txt": want a .yaml, .yml or .json file`},
			fatal:   true,
		},
		{
			name:    "bad options",
			content: "Comment.\n-- options.yaml --\nrounds: 3\n-- want --\n",
			errors:  []string{`options.yaml: error unmarshaling JSON: while decoding JSON: json: unknown field "rounds"`},
			fatal:   true,
		},
		{
			name:    "catalog that does not decode",
			content: "Comment.\n-- catalog/olm/c.yaml --\nname: a\n-- want --\n",
			errors:  []string{"catalog olm/c: catalog/olm/c.yaml:1"},
			fatal:   true,
		},
		{
			name:    "skip",
			content: goodScenario + "-- skip --\nknown bug: see issue 9\n-- want --\nwrong\n",
			skipped: true,
		},
		{
			name:    "empty skip",
			content: goodScenario + "-- skip --\n" + goodWant,
			errors:  []string{"skip: empty: give the reason the scenario is skipped"},
			fatal:   true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeScenario(t, dir, strings.ReplaceAll(tt.name, " ", "_")+".txtar", tt.content)
			f := run(func(tb testing.TB) { resolvertest.RunFile(tb, p) })
			got := f.text()
			if len(tt.errors) == 0 && got != "" {
				t.Errorf("reported %q, want nothing", got)
			}
			for _, want := range tt.errors {
				if !strings.Contains(got, want) {
					t.Errorf("reported %q, want it to contain %q", got, want)
				}
			}
			if f.fatal != tt.fatal || f.skipped != tt.skipped {
				t.Errorf("fatal %v skipped %v, want %v %v", f.fatal, f.skipped, tt.fatal, tt.skipped)
			}
		})
	}
}

func TestRunFileUpdate(t *testing.T) {
	dir := t.TempDir()
	skipped := goodScenario + "-- skip --\nknown bug\n-- want --\nhand-written\n"
	for _, tt := range []struct {
		name, content, want string
	}{
		{name: "stale want is rewritten", content: goodScenario + "-- want --\nstale\n", want: goodScenario + goodWant},
		{name: "a scenario without want gets one", content: goodScenario, want: goodScenario + goodWant},
		{name: "a skipped scenario is left alone", content: skipped, want: skipped},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := writeScenario(t, dir, strings.ReplaceAll(tt.name, " ", "_")+".txtar", tt.content)
			if f := run(func(tb testing.TB) { resolvertest.RunFile(tb, p, resolvertest.Update(true)) }); f.text() != "" {
				t.Fatalf("update reported %q", f.text())
			}
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if string(data) != tt.want {
				t.Errorf("updated file:\n%s\nwant:\n%s", data, tt.want)
			}
			// The updated file passes.
			if f := run(func(tb testing.TB) { resolvertest.RunFile(tb, p) }); f.text() != "" {
				t.Errorf("updated scenario reported %q", f.text())
			}
		})
	}
}

func TestRunDir(t *testing.T) {
	dir := t.TempDir()
	writeScenario(t, dir, "a_one.txtar", goodScenario+goodWant)
	writeScenario(t, dir, "b_two.txtar", goodScenario+goodWant)
	writeScenario(t, dir, "ignored.yaml", "not a scenario")
	resolvertest.RunDir(t, dir)
}

func TestFormatError(t *testing.T) {
	err := fmt.Errorf("resolve: %w", &resolver.ConflictError{Namespace: "ns", Facts: []resolver.Fact{
		{Kind: resolver.FactInstalled, CSV: "x.v1"},
	}})
	want := "conflict in namespace ns:\n- installed CSV x.v1 has no subscription and must stay\n"
	if got := resolvertest.FormatError(err); got != want {
		t.Errorf("FormatError(conflict) = %q, want %q", got, want)
	}
	if got := resolvertest.FormatError(fmt.Errorf("boom\n")); got != "error: boom\n" {
		t.Errorf("FormatError(boom) = %q", got)
	}
	if got := resolvertest.FormatResult(nil, nil); got != "no plan\n" {
		t.Errorf("FormatResult(nil, nil) = %q", got)
	}
}

func TestResultCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c := resolvertest.Case{Catalogs: []*resolvertest.Catalog{community()}}
	got, err := c.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "error: ") || !strings.Contains(got, "context canceled") {
		t.Errorf("cancelled resolution: %q", got)
	}
}
