package resolver_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

// decodeExample decodes a File-Based Catalog written for an example.
func decodeExample(fbc string) *graph.Catalog {
	c, err := graph.Decode(strings.NewReader(fbc), "catalog.json")
	if err != nil {
		panic(err)
	}
	return c
}

// Resolve predicts what OLM's olm-operator will do with each step: here
// the namespace's OperatorGroup targets all namespaces and the bundle
// supports only OwnNamespace. Fixes finds changes that make the failure
// go away, each re-solved.
func ExampleResolution_Fixes() {
	r := newExampleResolver(decodeExample(`
{"schema":"olm.package","name":"op","defaultChannel":"stable"}
{"schema":"olm.channel","package":"op","name":"stable","entries":[{"name":"op.v1"}]}
{"schema":"olm.bundle","name":"op.v1","package":"op","image":"example.com/op:1","properties":[
  {"type":"olm.package","value":{"packageName":"op","version":"1.0.0"}},
  {"type":"olm.csv.metadata","value":{"installModes":[{"type":"OwnNamespace","supported":true},{"type":"AllNamespaces","supported":false}]}}]}
`))
	state := &cluster.State{
		Subscriptions:  []cluster.Subscription{{Name: "op", Namespace: "operators", Package: "op", Channel: "stable"}},
		OperatorGroups: []cluster.OperatorGroup{{Name: "global", Namespace: "operators"}},
	}
	ctx := context.Background()
	planRes, err := r.Resolve(ctx, "operators", state)
	if err != nil {
		fmt.Println(err)
		return
	}
	plan := planRes.Plan()
	fmt.Println("failing:", plan.Failing())
	for _, p := range plan.Steps[0].Predictions {
		fmt.Println(p.Reason)
	}
	fixes, _ := planRes.Fixes(ctx, resolver.ExplainOptions{})
	for _, f := range fixes {
		fmt.Println(f.Kind, f.TargetNamespaces)
	}
	// Output:
	// failing: true
	// UnsupportedOperatorGroup
	// set-operator-group [operators]
	// move-subscription [op]
}

// ResolveAll resolves every namespace of the state, one after another:
// the API that namespace alpha's plan installs counts for beta, whose
// OperatorGroup intersects alpha's all-namespaces one.
func ExampleResolver_ResolveAll() {
	r := newExampleResolver(decodeExample(`
{"schema":"olm.package","name":"widgets","defaultChannel":"stable"}
{"schema":"olm.channel","package":"widgets","name":"stable","entries":[{"name":"widgets.v1"}]}
{"schema":"olm.bundle","name":"widgets.v1","package":"widgets","image":"example.com/w:1","properties":[
  {"type":"olm.package","value":{"packageName":"widgets","version":"1.0.0"}},
  {"type":"olm.gvk","value":{"group":"example.com","version":"v1","kind":"Widget"}}]}
`))
	state := &cluster.State{
		Subscriptions: []cluster.Subscription{
			{Name: "widgets", Namespace: "alpha", Package: "widgets"},
			{Name: "widgets", Namespace: "beta", Package: "widgets"},
		},
		OperatorGroups: []cluster.OperatorGroup{
			{Name: "og", Namespace: "alpha"},
			{Name: "og", Namespace: "beta", TargetNamespaces: []string{"beta"}},
		},
	}
	results, _ := r.ResolveAll(context.Background(), state)
	for _, res := range results {
		plan := res.Plan()
		fmt.Printf("%s: %d step(s), failing %v\n", res.Namespace(), len(plan.Steps), plan.Failing())
	}
	// Output:
	// alpha: 1 step(s), failing false
	// beta: 1 step(s), failing true
}
