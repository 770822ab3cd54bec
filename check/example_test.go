package check_test

import (
	"context"
	"fmt"
	"os"

	"github.com/sextantdev/sextant/check"
	"github.com/sextantdev/sextant/graph"
)

// A channel whose newest bundle replaces 0.9.2 but nothing leads from 0.9.0:
// a cluster running 0.9.0 is stranded.
func Example() {
	b := graph.NewBuilder()
	b.AddPackage("etcd", "stable")
	for _, v := range []string{"0.9.0", "0.9.2", "0.9.4"} {
		if err := b.AddBundle("etcd.v"+v, "etcd", "quay.io/etcd:"+v, graph.PackageProperty("etcd", v)); err != nil {
			panic(err)
		}
	}
	b.AddChannel("etcd", "stable",
		graph.Entry{Name: "etcd.v0.9.4", Replaces: "etcd.v0.9.2"},
		graph.Entry{Name: "etcd.v0.9.2"},
		graph.Entry{Name: "etcd.v0.9.0"},
	)
	cat, err := b.Build()
	if err != nil {
		panic(err)
	}
	rep, err := check.Run(context.Background(), []check.Input{{Name: "community", Catalog: cat}},
		check.Options{Checks: []check.Check{check.Reachability}})
	if err != nil {
		panic(err)
	}
	for _, f := range rep.Findings {
		fmt.Println(f)
	}
	// Output:
	// warning no-upgrade-path etcd/stable etcd.v0.9.0: "etcd.v0.9.0" cannot upgrade to the channel head "etcd.v0.9.4" (the channel has 2 heads): no entry replaces it, skips it or has a skipRange containing its version
}

// Report.WriteText groups the findings by package and counts them per code.
func ExampleReport_WriteText() {
	b := graph.NewBuilder()
	b.AddPackage("widget", "stable")
	for _, v := range []string{"1.0.0", "2.0.0"} {
		if err := b.AddBundle("widget.v"+v, "widget", "quay.io/widget:"+v, graph.PackageProperty("widget", v)); err != nil {
			panic(err)
		}
	}
	b.AddChannel("widget", "stable",
		graph.Entry{Name: "widget.v1.0.0", Replaces: "widget.v2.0.0"},
		graph.Entry{Name: "widget.v2.0.0"},
	)
	cat, err := b.Build()
	if err != nil {
		panic(err)
	}
	rep, err := check.Run(context.Background(), []check.Input{{Name: "mine", Catalog: cat}},
		check.Options{Checks: []check.Check{check.Direction, check.Reachability}})
	if err != nil {
		panic(err)
	}
	if err := rep.WriteText(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// catalog mine: 1 package, 1 channel, 2 bundles: 0 errors, 1 warning, 0 info
	//
	// package widget
	//   warning downgrade-edge stable widget.v1.0.0: "widget.v1.0.0" (1.0.0) replaces "widget.v2.0.0" (2.0.0): the upgrade goes to a lower version
	//
	// upgrade paths (mine): 1 entry below a channel head, 0 stranded; the longest takes 1 hop (package widget)
	//
	// counts (mine):
	//   warning downgrade-edge                   1
	//
}

// Installability resolves each bundle on an empty cluster; a failure carries
// the resolver's facts, as text in the message and as data in Explanation.
func Example_installability() {
	b := graph.NewBuilder()
	b.AddPackage("widget", "stable")
	err := b.AddBundle("widget.v1.0.0", "widget", "quay.io/widget:1.0.0",
		graph.PackageProperty("widget", "1.0.0"),
		graph.RequiredPackageProperty("gizmo", ">=2.0.0"))
	if err != nil {
		panic(err)
	}
	b.AddChannel("widget", "stable", graph.Entry{Name: "widget.v1.0.0"})
	b.AddPackage("gizmo", "stable")
	if err := b.AddBundle("gizmo.v1.5.0", "gizmo", "quay.io/gizmo:1.5.0", graph.PackageProperty("gizmo", "1.5.0")); err != nil {
		panic(err)
	}
	b.AddChannel("gizmo", "stable", graph.Entry{Name: "gizmo.v1.5.0"})
	cat, err := b.Build()
	if err != nil {
		panic(err)
	}
	rep, err := check.Run(context.Background(), []check.Input{{Name: "mine", Catalog: cat}},
		check.Options{Checks: []check.Check{check.Installability}})
	if err != nil {
		panic(err)
	}
	for _, f := range rep.Findings {
		fmt.Println(f)
		for _, fact := range f.Explanation.Facts {
			fmt.Printf("fact %s: %s %s\n", fact.Kind, fact.Property, fact.Requirement)
		}
	}
	// Output:
	// error head-not-installable widget/stable widget.v1.0.0: "widget.v1.0.0", the head of channel "stable", cannot be installed on an empty cluster from this catalog alone: bundle widget.v1.0.0 requires olm.package.required gizmo >=2.0.0, which nothing satisfies
	// fact requirement: olm.package.required gizmo >=2.0.0
}
