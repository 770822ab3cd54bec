package resolver

import (
	"errors"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

func TestCatalogError(t *testing.T) {
	b := graph.NewBuilder()
	b.AddPackage("a", "stable")
	b.AddChannel("a", "stable", graph.Entry{Name: "a.v1"}, graph.Entry{Name: "a.v2"})
	for _, v := range []string{"1", "2"} {
		if err := b.AddBundle("a.v"+v, "a", "example.com/a:"+v, graph.PackageProperty("a", v+".0.0")); err != nil {
			t.Fatal(err)
		}
	}
	cat, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	key := CatalogKey{Namespace: "olm", Name: "broken"}
	r, err := New([]Catalog{{Key: key, Catalog: cat}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	state := &cluster.State{Subscriptions: []cluster.Subscription{{
		Name: "a", Namespace: "operators", Package: "a", Channel: "stable", Source: "broken", SourceNamespace: "olm",
	}}}
	_, err = r.Resolve(t.Context(), "operators", state)
	var ce *CatalogError
	if !errors.As(err, &ce) {
		t.Fatalf("error %v is not a *CatalogError", err)
	}
	if ce.Catalog != key || ce.Package != "a" || ce.Channel != "stable" || ce.Bundle != "" {
		t.Errorf("CatalogError = %+v", ce)
	}
	const want = `subscription "a" in namespace "operators": catalog olm/broken: package "a" is invalid (opm serve refuses it): multiple-heads: channel "stable" of package "a" has 2 heads (entries that nothing replaces or skips): a.v1, a.v2`
	if err.Error() != want {
		t.Errorf("error = %q\nwant    %q", err, want)
	}
}
