package resolver_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolvertest"
)

// addEtcd adds package etcd to c: channel alpha (the default) is the chain
// etcd.v1 → etcd.v2 → etcd.v3, channel beta holds etcd.v3 and its
// successor etcd.v4.
func addEtcd(c *resolvertest.Catalog) *resolvertest.Package {
	p := c.Package("etcd", "alpha")
	p.Bundle("etcd.v1", "0.1.0")
	p.Bundle("etcd.v2", "0.2.0").Replaces("etcd.v1")
	p.Bundle("etcd.v3", "0.3.0").Replaces("etcd.v2")
	p.Bundle("etcd.v4", "0.4.0").In("beta").Replaces("etcd.v3")
	return p.Channel("beta", graph.Entry{Name: "etcd.v3"})
}

// etcdCatalog is catalog olm/community with package etcd (addEtcd).
func etcdCatalog() *resolvertest.Catalog {
	c := resolvertest.NewCatalog("olm", "community")
	addEtcd(c)
	return c
}

// fixture builds the catalogs and the cluster state of a test case.
type fixture func() ([]*resolvertest.Catalog, *resolvertest.State)

// setup builds the fixture's resolver, with no options, and its state.
func (f fixture) setup(t *testing.T) (*resolver.Resolver, *resolvertest.State) {
	t.Helper()
	cats, state := f()
	return resolvertest.NewResolver(t, resolver.Options{}, cats...), state
}

func TestCommunityTwentySubscriptions(t *testing.T) {
	r, gc := communityResolver(t)
	planRes, err := r.Resolve(context.Background(), "ns", twentySubscriptions(t, gc).State())
	if err != nil {
		t.Fatal(err)
	}
	plan := planRes.Plan()
	var upgrades, deps, installs int
	for _, s := range plan.Steps {
		switch {
		case s.Dependency:
			deps++
		case s.Action == resolver.ActionUpgrade:
			upgrades++
		default:
			installs++
		}
	}
	if upgrades != 7 || deps != 6 || installs != 13 || len(plan.Unchanged) != 0 {
		t.Errorf("plan has %d upgrades, %d dependencies, %d installs, %d unchanged; want 7, 6, 13, 0:\n%s", upgrades, deps, installs, len(plan.Unchanged), plan)
	}
}

// TestConcurrentResolve resolves from many goroutines with one Resolver
// (run with -race).
func TestConcurrentResolve(t *testing.T) {
	r, gc := communityResolver(t)
	st := twentySubscriptions(t, gc).State()
	wantRes, err := r.Resolve(context.Background(), "ns", st)
	if err != nil {
		t.Fatal(err)
	}
	want := wantRes.Plan()
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			gotRes, err := r.Resolve(context.Background(), "ns", st)
			if err != nil {
				t.Errorf("concurrent Resolve: %v", err)
				return
			}
			if got := gotRes.Plan(); got.String() != want.String() {
				t.Errorf("concurrent Resolve = %v, want %v", got, want)
			}
		}()
	}
	wg.Wait()
}

type recorder struct{ events []resolver.Event }

func (r *recorder) Trace(e resolver.Event) { r.events = append(r.events, e) }

func TestTracer(t *testing.T) {
	rec := &recorder{}
	r := resolvertest.NewResolver(t, resolver.Options{Tracer: rec}, etcdCatalog())
	state := resolvertest.NewState("ns")
	state.Subscribe("etcd", "etcd").Channel("alpha").Source("olm", "community")
	state.Subscribe("x", "nope").Source("olm", "community")
	if _, err := r.Resolve(context.Background(), "ns", state.State()); err == nil {
		t.Fatal("Resolve succeeded, want a conflict")
	}
	var kinds []string
	for _, e := range rec.events {
		kinds = append(kinds, fmt.Sprintf("%s %s %d", e.Kind, e.Subscription, e.Count))
	}
	want := "candidates etcd 3|candidates x 0|problem  5|solved  0"
	if got := strings.Join(kinds, "|"); got != want {
		t.Errorf("events %q, want %q", got, want)
	}
	if !strings.Contains(rec.events[1].Message, "has no package nope") {
		t.Errorf("candidates event message %q", rec.events[1].Message)
	}
}

func TestCELUnsupported(t *testing.T) {
	c := resolvertest.NewCatalog("olm", "community")
	c.Package("app", "stable").Bundle("app.v1.0.0", "1.0.0").
		Constraint(`{"failureMessage":"x","all":{"constraints":[{"cel":{"rule":"properties.exists(p, p.type == 'certified')"}}]}}`)
	r := resolvertest.NewResolver(t, resolver.Options{}, c)
	state := resolvertest.NewState("ns")
	state.Subscribe("app", "app").Channel("stable").Source("olm", "community")
	_, err := r.Resolve(context.Background(), "ns", state.State())
	if !errors.Is(err, errors.ErrUnsupported) || !strings.Contains(err.Error(), `bundle "app.v1.0.0"`) {
		t.Errorf("Resolve = %v, want errors.ErrUnsupported naming the bundle", err)
	}
}

func TestNewErrors(t *testing.T) {
	c := etcdCatalog().MustBuild(t)
	_, err := resolver.New([]resolver.Catalog{c, c, {Key: resolver.CatalogKey{Name: "x"}, Catalog: c.Catalog}, {Key: resolver.CatalogKey{Namespace: "a", Name: "b"}}}, resolver.Options{})
	if err == nil {
		t.Fatal("New succeeded")
	}
	for _, w := range []string{`catalog "olm/community" given twice`, `catalog "/x": key needs a namespace and a name`, `catalog "a/b": no catalog content`} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("New error %v\nwant it to contain %q", err, w)
		}
	}
}

// TestResolveRejectsObjectsWithoutNamespace checks that an object built in
// code without a namespace or a name is an error, not left out of the plan.
func TestResolveRejectsObjectsWithoutNamespace(t *testing.T) {
	cat := resolvertest.NewCatalog("olm", "community")
	cat.Package("etcd", "stable").Bundle("etcd.v1", "1.0.0")
	r := resolvertest.NewResolver(t, resolver.Options{}, cat)
	tests := []struct {
		name    string
		ns      string
		state   cluster.State
		wantErr string
	}{
		{
			name:    "subscription without namespace",
			ns:      "operators",
			state:   cluster.State{Subscriptions: []cluster.Subscription{{Name: "etcd", Package: "etcd"}}},
			wantErr: `subscription 0 (name "etcd", package "etcd") has no namespace or no name`,
		},
		{
			name:    "CSV without name",
			ns:      "operators",
			state:   cluster.State{CSVs: []cluster.CSV{{Namespace: "operators", VersionText: "1.0.0"}}},
			wantErr: `CSV 0 (name "") has no namespace or no name`,
		},
		{
			name:    "empty namespace to resolve",
			ns:      "",
			state:   cluster.State{Subscriptions: []cluster.Subscription{{Name: "etcd", Namespace: "operators", Package: "etcd"}}},
			wantErr: "no namespace to resolve",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := r.Resolve(context.Background(), tt.ns, &tt.state)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Resolve = %v, %v; want an error containing %q", err, res.Plan(), tt.wantErr)
			}
		})
	}
}

// TestResolveInvalidPackage checks that a package opm serve would refuse
// is an *InvalidPackageError when a resolution reaches it, and is left out,
// named in Plan.Excluded, with AllowInvalid.
func TestResolveInvalidPackage(t *testing.T) {
	b := graph.NewBuilder()
	b.AddPackage("widget", "stable")
	b.AddChannel("widget", "stable", graph.Entry{Name: "widget.v1"})
	if err := b.AddBundle("widget.v1", "widget", "example.com/widget:1"); err != nil { // no olm.package
		t.Fatal(err)
	}
	gc, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	cats := []resolver.Catalog{{Key: resolver.CatalogKey{Namespace: "olm", Name: "community"}, Catalog: gc}}
	state := &cluster.State{Subscriptions: []cluster.Subscription{{Name: "widget", Namespace: "operators", Package: "widget"}}}

	r, err := resolver.New(cats, resolver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Resolve(context.Background(), "operators", state)
	var ie *resolver.InvalidPackageError
	if !errors.As(err, &ie) || ie.Finding.Code != graph.CodeMissingPackageProperty || ie.Catalog.Name != "community" {
		t.Fatalf("Resolve error = %v, want an *InvalidPackageError for missing-package-property", err)
	}

	r, err = resolver.New(cats, resolver.Options{AllowInvalid: true})
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Resolve(context.Background(), "operators", state)
	var ce *resolver.ConflictError
	if !errors.As(err, &ce) || len(ce.Excluded) != 1 || ce.Excluded[0].Package != "widget" {
		t.Fatalf("Resolve with AllowInvalid = %v, want a conflict naming widget as excluded", err)
	}
}

// TestInstalledCSVs checks how installed CSVs are read: their package,
// their requirements, copies, deprecation, a malformed annotation and a
// missing one.
func TestInstalledCSVs(t *testing.T) {
	tests := []struct {
		name, reason string
		state        func(s *resolvertest.State)
		want         string
		wantErr      string
	}{
		{
			name:   "package inferred from the one owning subscription",
			reason: "without the properties annotation, the package comes from the subscription; a second subscription to the package collides",
			state: func(s *resolvertest.State) {
				s.CSV("etcd.v1", "0.1.0")
				s.Subscribe("etcd", "etcd").Channel("alpha").Source("olm", "community").Installed("etcd.v1")
				s.Subscribe("other", "etcd").Channel("beta").Source("olm", "community").StartingCSV("etcd.v4")
			},
			wantErr: "etcd.v1 (installed), etcd.v2 and etcd.v4 are all of package etcd, and at most one bundle of a package can be installed",
		},
		{
			name:   "requirements of installed CSVs are dependencies",
			reason: "the installed CSV requires Widget (derived from its required CRDs): a provider is installed for it",
			state:  func(s *resolvertest.State) { s.CSV("legacy.v1", "1.0.0").Requires("example.com", "v1", "Widget") },
			want: `namespace ns: 1 step(s)
1. install widgets.v1.0.0 1.0.0 (package widgets, channel stable, catalog olm/community): required by legacy.v1 (olm.gvk.required example.com/v1 Widget); creates a subscription
unchanged legacy.v1 1.0.0
`,
		},
		{
			name:   "copied CSVs are ignored",
			reason: "a copy of an operator of another namespace is not installed here",
			state: func(s *resolvertest.State) {
				s.CSV("legacy.v1", "1.0.0").Requires("example.com", "v1", "Widget").Copied()
			},
			want: "namespace ns: 0 step(s)\n",
		},
		{
			name:   "deprecated installed CSV without subscription",
			reason: "OLM prohibits deprecated entries, installed ones included",
			state: func(s *resolvertest.State) {
				s.CSV("old.v1", "1.0.0").With(graph.PackageProperty("old", "1.0.0"), graph.DeprecatedProperty())
			},
			wantErr: "cannot keep installed CSV old.v1: it is deprecated (olm.deprecated) and can never be selected\n  because installed CSV old.v1 (version 1.0.0) has no subscription, so it must stay as it is\n  and installed CSV old.v1 is deprecated (olm.deprecated), so it is never selected\n  so installed CSV old.v1 cannot stay",
		},
		{
			name:    "malformed annotation property",
			state:   func(s *resolvertest.State) { s.CSV("bad.v1", "1.0.0").Property("olm.gvk", `{"group":1}`) },
			wantErr: `installed CSV "bad.v1" in namespace "ns"`,
		},
		{
			name:   "installedCSV naming no CSV is incomplete input",
			reason: "DESIGN §9: the input lacks the CSV the subscription says is installed; planning a fresh install would be wrong",
			state: func(s *resolvertest.State) {
				s.Subscribe("etcd", "etcd").Channel("alpha").Source("olm", "community").Installed("etcd.v1")
			},
			wantErr: `the input is incomplete: subscription "etcd" says CSV "etcd.v1" is installed`,
		},
	}
	c := etcdCatalog()
	c.Package("widgets", "stable").Bundle("widgets.v1.0.0", "1.0.0").Provides("example.com", "v1", "Widget")
	r := resolvertest.NewResolver(t, resolver.Options{}, c)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			state := resolvertest.NewState("ns")
			tt.state(state)
			res, err := r.Resolve(context.Background(), "ns", state.State())
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("Resolve = %v, want an error containing %q", err, tt.wantErr)
				}
				return
			}
			resolvertest.CheckResult(t, res.Plan(), err, tt.want)
		})
	}
}
