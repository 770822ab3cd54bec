package olmv1_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/olmv1"
	"github.com/sextantdev/sextant/registryv1"
)

const exampleCatalog = `
schema: olm.package
name: widgets
defaultChannel: stable
---
schema: olm.channel
package: widgets
name: stable
entries:
- {name: widgets.v1.0.0}
---
schema: olm.channel
package: widgets
name: fast
entries:
- {name: widgets.v1.0.0}
- {name: widgets.v1.5.0, replaces: widgets.v1.0.0}
---
schema: olm.bundle
package: widgets
name: widgets.v1.0.0
image: example.com/widgets:1.0.0
properties: [{type: olm.package, value: {packageName: widgets, version: 1.0.0}}]
---
schema: olm.bundle
package: widgets
name: widgets.v1.5.0
image: example.com/widgets:1.5.0
properties: [{type: olm.package, value: {packageName: widgets, version: 1.5.0}}]
`

const exampleManifests = `
apiVersion: olm.operatorframework.io/v1
kind: ClusterExtension
metadata: {name: widgets}
spec:
  namespace: widgets
  serviceAccount: {name: installer}
  source: {sourceType: Catalog, catalog: {packageName: widgets}}
`

// A ClusterExtension that names no channel: OLM v1 takes the highest
// version of every channel, not the default channel's head.
func ExampleResolver_Resolve() {
	content, err := graph.Decode(strings.NewReader(exampleCatalog), "catalog.yaml")
	if err != nil {
		panic(err)
	}
	state, err := cluster.Decode(strings.NewReader(exampleManifests), "extensions.yaml")
	if err != nil {
		panic(err)
	}
	r, err := olmv1.New([]olmv1.Catalog{{ClusterCatalog: cluster.NewClusterCatalog("community"), Content: content}}, olmv1.Options{})
	if err != nil {
		panic(err)
	}
	res, err := r.Resolve(context.Background(), state)
	if err != nil {
		panic(err)
	}
	if err := res.WriteText(os.Stdout, olmv1.TextOptions{}); err != nil {
		panic(err)
	}
	// Output:
	// clusterextension widgets: install widgets.v1.5.0 1.5.0 (package widgets, catalog community)
	//   why: the highest version of every channel (the extension names none); it is in channel(s) fast
	//   passed over: widgets.v1.0.0 1.0.0 (catalog community; head of the default channel stable, what OLM v0 installs): lower-version: below 1.5.0 (widgets.v1.5.0)
	//   next: stays (no upgrade from widgets.v1.5.0)
}

// Choose is operator-controller's choice alone: a bundle and its catalog,
// or its error, word for word.
func ExampleResolver_Choose() {
	content, err := graph.Decode(strings.NewReader(exampleCatalog), "catalog.yaml")
	if err != nil {
		panic(err)
	}
	r, err := olmv1.New([]olmv1.Catalog{{ClusterCatalog: cluster.NewClusterCatalog("community"), Content: content}}, olmv1.Options{})
	if err != nil {
		panic(err)
	}
	ext := &cluster.ClusterExtension{Package: "widgets", Channels: []string{"stable"}}
	b, cat, err := r.Choose(ext, nil)
	fmt.Println(b.Name, cat, err)
	_, _, err = r.Choose(&cluster.ClusterExtension{Package: "widgets", Version: ">=2.0.0"}, nil)
	fmt.Println(err)
	// Output:
	// widgets.v1.0.0 community <nil>
	// no bundles found for package "widgets" matching version ">=2.0.0"
}

// A bundle that supports OwnNamespace only, with operator-controller's
// SingleOwnNamespaceInstallSupport gate on, for an extension that watches
// another namespace: the prediction says why in Sextant's words and what
// operator-controller will write in the extension's Progressing condition.
func ExamplePrediction_v1Message() {
	cat, err := graph.Decode(strings.NewReader(`
schema: olm.package
name: gauges
---
schema: olm.channel
package: gauges
name: stable
entries: [{name: gauges.v1.0.0}]
---
schema: olm.bundle
package: gauges
name: gauges.v1.0.0
image: example.com/gauges:1.0.0
properties:
- {type: olm.package, value: {packageName: gauges, version: 1.0.0}}
- {type: olm.csv.metadata, value: {installModes: [{type: OwnNamespace, supported: true}]}}
`), "catalog.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := olmv1.New([]olmv1.Catalog{{ClusterCatalog: cluster.NewClusterCatalog("internal"), Content: cat}}, olmv1.Options{SingleOwnNamespace: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	res := r.ResolveExtension(&cluster.ClusterExtension{Name: "gauges", Namespace: "gauges", SourceType: "Catalog",
		Package: "gauges", Config: []byte(`{"watchNamespace":"team-a"}`)})
	for _, p := range res.Predictions {
		fmt.Printf("%s %s\n  Sextant: %s\n  operator-controller: %s\n", p.Severity, p.Reason, p.Message, p.V1Message)
	}
	// Output:
	// failure Configuration
	//   Sextant: watchNamespace "team-a" is not the install namespace "gauges", and the bundle supports [OwnNamespace]: OwnNamespace, not SingleNamespace
	//   operator-controller: error for resolved bundle "gauges.v1.0.0" with version "1.0.0": invalid ClusterExtension configuration: invalid configuration: invalid format for field "watchNamespace": 'team-a' is not valid ownNamespaceInstallMode: invalid value "team-a": must be "gauges" (the namespace where the operator is installed) because this operator only supports OwnNamespace install mode
}

// ExampleResolver_CRDPreflight predicts OLM v1's CRD upgrade safety
// preflight for an upgrade: the bundle's CRDs, read from its folder,
// against the cluster's CRD, as operator-controller compares them.
func ExampleResolver_CRDPreflight() {
	ctx := context.Background()
	cat, err := graph.Loader{}.Load(ctx, "../testdata/cli/crds/catalog.yaml")
	if err != nil {
		log.Fatal(err)
	}
	bundles, err := registryv1.Loader{}.ReadDirs(ctx, "../testdata/cli/crds/bundles")
	if err != nil {
		log.Fatal(err)
	}
	f, err := os.Open("../testdata/cli/crds/cluster-v1-crds.yaml")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	state, err := cluster.Decode(f, "cluster-v1-crds.yaml")
	if err != nil {
		log.Fatal(err)
	}
	r, err := olmv1.New([]olmv1.Catalog{{ClusterCatalog: cluster.NewClusterCatalog("widgets"), Content: cat}}, olmv1.Options{Bundles: bundles})
	if err != nil {
		log.Fatal(err)
	}
	next := cat.Package("widgets").Bundle("widgets.v2.0.0")
	preds, _ := r.CRDPreflight(ctx, &state.ClusterExtensions[0], next, "2.0.0", state.CRDs)
	for _, p := range preds {
		fmt.Println(p.V1Message)
	}
	// Output:
	// error for resolved bundle "widgets.v2.0.0" with version "2.0.0": validating upgrade for CRD "widgets.example.com": existingFieldRemoval: removed field : v1.^.spec.color
	// v1: ^.spec.color: type: type changed : "string" -> ""
}
