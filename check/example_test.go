package check_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

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

// Report.WriteText lists the findings by package, then the upgrade paths
// and the counts per code.
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
	if err := rep.WriteText(os.Stdout, check.TextOptions{}); err != nil {
		panic(err)
	}
	// Output:
	// catalog mine: 1 package, 1 channel, 2 bundles
	// widget
	//   warning  downgrade-edge  stable widget.v1.0.0: replaces higher 2.0.0
	// mine: 0 errors, 1 warning, 0 info in 1 of 1 package
	// upgrade paths: 1 entry below a channel head, 0 stranded; the longest takes 1 hop (package widget)
	// counts:
	//   warning  downgrade-edge  1
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

// etcdCatalog builds a package etcd whose channel stable holds the given
// versions, each replacing the one before.
func etcdCatalog(versions ...string) *graph.Catalog {
	b := graph.NewBuilder()
	b.AddPackage("etcd", "stable")
	var entries []graph.Entry
	for i, v := range versions {
		if err := b.AddBundle("etcd.v"+v, "etcd", "quay.io/etcd:"+v, graph.PackageProperty("etcd", v)); err != nil {
			panic(err)
		}
		e := graph.Entry{Name: "etcd.v" + v}
		if i > 0 {
			e.Replaces = "etcd.v" + versions[i-1]
		}
		entries = append(entries, e)
	}
	b.AddChannel("etcd", "stable", entries...)
	cat, err := b.Build()
	if err != nil {
		panic(err)
	}
	return cat
}

// With a baseline, Run reports what a catalog change does to the clusters
// that use the catalog: here the new version drops the channel head 0.9.4.
// OnlyNew keeps what the change introduced, for CI to fail on.
func ExampleOptions_baseline() {
	old := etcdCatalog("0.9.0", "0.9.2", "0.9.4")
	cur := etcdCatalog("0.9.0", "0.9.2")
	rep, err := check.Run(context.Background(), []check.Input{{Name: "community", Catalog: cur}},
		check.Options{Baseline: []check.Input{{Name: "community", Catalog: old}}})
	if err != nil {
		panic(err)
	}
	for _, f := range rep.OnlyNew().Findings {
		fmt.Println(f.Status, f)
	}
	// Output:
	// new error channel-head-lowered etcd/stable etcd.v0.9.2: the head of channel "stable" is "etcd.v0.9.2" (0.9.2), lower than "etcd.v0.9.4" (0.9.4) in the baseline: new subscriptions get an older version and clusters at 0.9.4 have no upgrade
	// new error head-removed etcd/stable etcd.v0.9.4: "etcd.v0.9.4" (0.9.4), the head of channel "stable" in the baseline, is gone from it (its bundle is gone from the catalog); the head is now "etcd.v0.9.2" (0.9.2)
}

// Report.WriteMarkdown renders the report as a pull-request comment.
func ExampleReport_WriteMarkdown() {
	old := etcdCatalog("0.9.0", "0.9.2")
	cur := etcdCatalog("0.9.2")
	rep, err := check.Run(context.Background(), []check.Input{{Name: "community", Catalog: cur}},
		check.Options{Baseline: []check.Input{{Name: "community", Catalog: old}}})
	if err != nil {
		panic(err)
	}
	if err := rep.WriteMarkdown(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// ### Sextant check: `community`
	//
	// 1 package, 1 channel, 1 bundle. Against the baseline: **1 new finding** (1 regression), 0 existing, 0 resolved; packages +0 −0, channels +0 −0, bundles +0 −1. Removed: bundles etcd/etcd.v0.9.0.
	//
	// | severity | code | new | existing |
	// | --- | --- | ---: | ---: |
	// | error | `upgrade-path-lost` | **1** | 0 |
	//
	// #### New findings (1)
	//
	// **etcd**
	//
	// - error `upgrade-path-lost` channel `stable` `etcd.v0.9.0`: gone; its clusters have no path to head 0.9.2 (1 hop before): no upgrade from it
	//   <details><summary>message</summary>"etcd.v0.9.0" (0.9.0) is gone from the channel; it reached the channel head "etcd.v0.9.2" in the baseline (1 hop), and a cluster running it cannot reach the head "etcd.v0.9.2": no entry replaces it, skips it or has a skipRange containing its version</details>
}

// Report.ByCatalog splits a report by catalog; its WriteText is the text
// `sextant check` prints (its JSON form is `sextant check -o json`). The
// three bundles that need a package the catalog lacks are one error (the
// channel's head) and one line for the other two, whose cause is the same.
func ExampleCatalogReports_WriteText() {
	b := graph.NewBuilder()
	b.AddPackage("widget", "stable")
	for _, v := range []string{"1.0.0", "1.1.0", "1.10.0"} {
		if err := b.AddBundle("widget.v"+v, "widget", "quay.io/widget:"+v,
			graph.PackageProperty("widget", v), graph.RequiredPackageProperty("gadget", ">=1.0.0")); err != nil {
			panic(err)
		}
	}
	b.AddChannel("widget", "stable",
		graph.Entry{Name: "widget.v1.10.0", Replaces: "widget.v1.1.0"},
		graph.Entry{Name: "widget.v1.1.0", Replaces: "widget.v1.0.0"},
		graph.Entry{Name: "widget.v1.0.0"},
	)
	cat, err := b.Build()
	if err != nil {
		panic(err)
	}
	rep, err := check.Run(context.Background(), []check.Input{{Name: "mine", Catalog: cat}},
		check.Options{Checks: []check.Check{check.Installability}})
	if err != nil {
		panic(err)
	}
	reports, err := rep.ByCatalog()
	if err != nil {
		panic(err)
	}
	if err := reports.WriteText(os.Stdout, check.TextOptions{}); err != nil {
		panic(err)
	}
	g := reports.Catalogs[0].Groups[0]
	fmt.Printf("group: %d findings of %s, %s to %s\n", g.Count, g.Code, g.First, g.Last)
	// Output:
	// catalog mine: 1 package, 1 channel, 3 bundles
	// widget
	//   warning  not-installable       stable, 2 bundles widget.v1.0.0 … v1.1.0: requires package gadget >=1.0.0: unmet
	//   error    head-not-installable  stable widget.v1.10.0: requires package gadget >=1.0.0: unmet
	// mine: 1 error, 2 warnings, 0 info in 1 of 1 package
	// group: 2 findings of not-installable, widget.v1.0.0 to widget.v1.1.0
}

// Report.WriteSARIF with a Root names every file relative to it (uriBaseId
// %SRCROOT%), the same whatever folder the names are relative to: here the
// catalog's file is named from inside the repository's catalog folder.
func ExampleReport_WriteSARIF() {
	const fbc = `{"schema": "olm.package", "name": "etcd", "defaultChannel": "stable"}
{"schema": "olm.channel", "package": "etcd", "name": "stable", "entries": [
  {"name": "etcd.v0.9.2", "replaces": "etcd.v0.9.0"}]}
{"schema": "olm.bundle", "package": "etcd", "name": "etcd.v0.9.2", "image": "quay.io/etcd:0.9.2",
 "properties": [{"type": "olm.package", "value": {"packageName": "etcd", "version": "0.9.2"}}]}
`
	cat, err := graph.Decode(strings.NewReader(fbc), "etcd.json")
	if err != nil {
		panic(err)
	}
	rep, err := check.Run(context.Background(), []check.Input{{Name: "etcd.json", Catalog: cat}},
		check.Options{Checks: []check.Check{check.Structural}})
	if err != nil {
		panic(err)
	}
	var out bytes.Buffer
	opts := check.SARIFOptions{Root: "/src/catalogs", Dir: "/src/catalogs/operators", ToolVersion: "v1.4.0"}
	if err := rep.WriteSARIF(&out, opts); err != nil {
		panic(err)
	}
	var log struct {
		Runs []struct {
			OriginalURIBaseIDs map[string]struct{ URI string } `json:"originalUriBaseIds"`
			Results            []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI, URIBaseID string }
						Region           struct{ StartLine int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &log); err != nil {
		panic(err)
	}
	fmt.Println("%SRCROOT% =", log.Runs[0].OriginalURIBaseIDs["%SRCROOT%"].URI)
	for _, r := range log.Runs[0].Results {
		l := r.Locations[0].PhysicalLocation
		fmt.Printf("%s at %s %s line %d\n", r.RuleID, l.ArtifactLocation.URIBaseID, l.ArtifactLocation.URI, l.Region.StartLine)
	}
	// Output:
	// %SRCROOT% = file:///src/catalogs/
	// dangling-replaces at %SRCROOT% operators/etcd.json line 3
}
