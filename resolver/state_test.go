package resolver_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolvertest"
)

// TestResolveRejectsObjectsWithoutNamespace checks that an object built in
// code without a namespace or a name is an error, not left out of the plan.
func TestResolveRejectsObjectsWithoutNamespace(t *testing.T) {
	cat := resolvertest.NewCatalog("olm", "community")
	cat.Package("etcd", "stable").Bundle("etcd.v1", "1.0.0")
	r, err := resolver.New([]resolver.Catalog{cat.MustBuild(t)}, resolver.Options{})
	if err != nil {
		t.Fatal(err)
	}
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
			plan, err := r.Resolve(context.Background(), tt.ns, &tt.state)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Resolve = %v, %v; want an error containing %q", plan, err, tt.wantErr)
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
