package resolver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

// widgetCatalog has widget-operator in two channels: stable's bundle
// provides the Widget API, v2's works with an existing provider.
func widgetCatalog() *graph.Catalog {
	return buildExample(func(b *graph.Builder) error {
		b.AddPackage("widget-operator", "stable")
		b.AddChannel("widget-operator", "stable", graph.Entry{Name: "widget-operator.v1.0.0"})
		b.AddChannel("widget-operator", "v2", graph.Entry{Name: "widget-operator.v2.0.0"})
		return errors.Join(
			b.AddBundle("widget-operator.v1.0.0", "widget-operator", "example.com/widget-operator:1.0.0",
				graph.PackageProperty("widget-operator", "1.0.0"), graph.GVKProperty(widget)),
			b.AddBundle("widget-operator.v2.0.0", "widget-operator", "example.com/widget-operator:2.0.0",
				graph.PackageProperty("widget-operator", "2.0.0"), graph.RequiredGVKProperty(widget)))
	})
}

// widgetState is the cluster of OLM's indecipherable example: a CSV
// installed by hand owns the Widget CRD, and a new subscription asks for
// widget-operator, whose bundle provides Widget too.
func widgetState() *cluster.State {
	return &cluster.State{
		CSVs: []cluster.CSV{{Name: "legacy-widget.v1.0.0", Namespace: "operators", VersionText: "1.0.0",
			Provides: []graph.GVK{widget}}},
		Subscriptions: []cluster.Subscription{{Name: "widget-operator", Namespace: "operators",
			Package: "widget-operator", Channel: "stable", Source: "community", SourceNamespace: "olm"}},
	}
}

// widgetConflict resolves widgetState against widgetCatalog and returns
// the resolution, whose error is a *ConflictError.
func widgetConflict() *resolver.Resolution {
	r := newExampleResolver(widgetCatalog())
	res, err := r.Resolve(context.Background(), "operators", widgetState())
	var conflict *resolver.ConflictError
	if !errors.As(err, &conflict) {
		panic(err)
	}
	return res
}

// A controller resolves (widgetConflict: a *ConflictError); on a conflict
// it asks the resolution to explain it, with suggestions that were
// re-solved before being shown.
func ExampleResolution_Explain() {
	res := widgetConflict()
	ex, err := res.Explain(context.Background(), resolver.ExplainOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Print(ex)
	// Output:
	// cannot install widget-operator: it conflicts with installed CSV legacy-widget.v1.0.0 (one provider of API example.com/v1 Widget)
	//   because subscription operators/widget-operator wants package widget-operator (channel stable, catalog olm/community); its only candidate is widget-operator.v1.0.0 (channel stable, catalog olm/community)
	//   and installed CSV legacy-widget.v1.0.0 (version 1.0.0) has no subscription, so it must stay as it is
	//   and legacy-widget.v1.0.0 (installed) and widget-operator.v1.0.0 both provide API example.com/v1 Widget (olm.gvk), and at most one provider of an API can be installed
	//   so subscription operators/widget-operator cannot be satisfied and widget-operator cannot be installed
	// suggestions (each re-solved and confirmed):
	//   1. switch subscription widget-operator to channel v2: installs widget-operator.v2.0.0 (channel v2, catalog olm/community)
	//   2. remove installed CSV legacy-widget.v1.0.0, which no subscription references: installs widget-operator.v1.0.0 (channel stable, catalog olm/community)
}

// The explanation is plain data for tools: the verdict, the facts, the
// derivation and the suggestions encode to JSON.
func ExampleExplanation_json() {
	ex, _ := widgetConflict().Explain(context.Background(), resolver.ExplainOptions{MaxSuggestions: 1})
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(ex.Verdict); err != nil {
		panic(err)
	}
	fmt.Println(ex.Suggestions[0].Kind, ex.Suggestions[0].Channel, len(ex.Suggestions[0].Plan.Steps))
	// Output:
	// {
	//   "action": "install",
	//   "subscription": "widget-operator",
	//   "package": "widget-operator",
	//   "reason": "it conflicts with installed CSV legacy-widget.v1.0.0 (one provider of API example.com/v1 Widget)",
	//   "text": "cannot install widget-operator: it conflicts with installed CSV legacy-widget.v1.0.0 (one provider of API example.com/v1 Widget)"
	// }
	// switch-channel v2 1
}

// Without the resolver, a conflict still explains itself from its facts:
// Error returns the verdict and the derivation.
func ExampleConflictError_Explanation() {
	conflict := widgetConflict().Conflict()
	ex := conflict.Explanation()
	fmt.Println(ex.Verdict.Action, ex.Verdict.Package)
	for _, c := range ex.Derivation {
		fmt.Println(c.Connective, c.Facts)
	}
	// Output:
	// install widget-operator
	// because [0 2]
	// and [1]
	// and [3]
	// so []
}
