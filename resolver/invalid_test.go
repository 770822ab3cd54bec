package resolver_test

import (
	"context"
	"errors"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

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
