package celrule_test

import (
	"context"
	"fmt"

	"github.com/sextantdev/sextant/celrule"
	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

// A rule evaluated directly over a bundle's properties.
func ExampleRule_Eval() {
	e := celrule.New()
	rule, err := e.CompileRule(`properties.exists(p, p.type == "olm.package" && semver_compare(p.value.version, "v2") >= 0)`)
	if err != nil {
		panic(err)
	}
	for _, v := range []string{"1.9.0", "2.0.0"} {
		ok, err := rule.Eval([]graph.Property{graph.PackageProperty("lib", v)})
		fmt.Println(v, ok, err)
	}
	_, err = e.CompileRule(`properties.size()`)
	fmt.Println(err)
	// Output:
	// 1.9.0 false <nil>
	// 2.0.0 true <nil>
	// a cel rule must be of type bool, not int
}

// The evaluator given to a resolver: app needs a lib below 2.0.0, so the
// dependency takes lib 1.5.0 rather than the channel head.
func Example_resolver() {
	b := graph.NewBuilder()
	b.AddPackage("app", "stable")
	b.AddChannel("app", "stable", graph.Entry{Name: "app.v1"})
	b.AddBundle("app.v1", "app", "example.com/app:1", graph.PackageProperty("app", "1.0.0"), graph.Property{
		Type:  graph.TypeConstraint,
		Value: []byte(`{"failureMessage":"app needs lib 1.x","cel":{"rule":"properties.exists(p, p.type == \"olm.package\" && p.value.packageName == \"lib\" && semver_compare(p.value.version, \"2.0.0\") < 0)"}}`),
	})
	b.AddPackage("lib", "stable")
	b.AddChannel("lib", "stable", graph.Entry{Name: "lib.v2", Replaces: "lib.v1.5"}, graph.Entry{Name: "lib.v1.5"})
	b.AddBundle("lib.v1.5", "lib", "example.com/lib:1.5", graph.PackageProperty("lib", "1.5.0"))
	b.AddBundle("lib.v2", "lib", "example.com/lib:2", graph.PackageProperty("lib", "2.0.0"))
	cat, err := b.Build()
	if err != nil {
		panic(err)
	}
	key := resolver.CatalogKey{Namespace: "olm", Name: "community"}
	r, err := resolver.New([]resolver.Catalog{{Key: key, Catalog: cat}}, resolver.Options{CEL: celrule.New()})
	if err != nil {
		panic(err)
	}
	res, err := r.Resolve(context.Background(), "team-a", &cluster.State{Subscriptions: []cluster.Subscription{{
		Name: "app", Namespace: "team-a", Package: "app", Channel: "stable", Source: key.Name, SourceNamespace: key.Namespace,
	}}})
	if err != nil {
		panic(err)
	}
	for _, s := range res.Plan().Steps {
		fmt.Println(s.Action, s.Bundle, s.Version)
	}
	// Output:
	// install lib.v1.5 1.5.0
	// install app.v1 1.0.0
}
