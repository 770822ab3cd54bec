package graph_test

import (
	"encoding/base64"
	"fmt"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/graph"
)

// etcd builds a small catalog: channel "stable" of package etcd, where
// v0.9.4 replaces v0.9.2 and skips v0.9.3, and takes any 0.9.x below it
// with its skipRange.
func etcd() *graph.Catalog {
	b := graph.NewBuilder()
	b.AddPackage("etcd", "stable")
	b.AddChannel("etcd", "stable",
		graph.Entry{Name: "etcdoperator.v0.9.0"},
		graph.Entry{Name: "etcdoperator.v0.9.2", Replaces: "etcdoperator.v0.9.0"},
		graph.Entry{Name: "etcdoperator.v0.9.3", Replaces: "etcdoperator.v0.9.2"},
		graph.Entry{
			Name:      "etcdoperator.v0.9.4",
			Replaces:  "etcdoperator.v0.9.2",
			Skips:     []string{"etcdoperator.v0.9.3"},
			SkipRange: mustRange(">=0.9.0 <0.9.4"),
		},
	)
	for _, v := range []string{"0.9.0", "0.9.2", "0.9.3", "0.9.4"} {
		err := b.AddBundle("etcdoperator.v"+v, "etcd", "quay.io/coreos/etcd-operator:v"+v,
			graph.PackageProperty("etcd", v),
			graph.GVKProperty(graph.GVK{Group: "etcd.database.coreos.com", Version: "v1beta2", Kind: "EtcdCluster"}),
		)
		if err != nil {
			panic(err)
		}
	}
	cat, err := b.Build()
	if err != nil {
		panic(err)
	}
	return cat
}

func mustRange(s string) graph.Range {
	r, err := graph.ParseRange(s)
	if err != nil {
		panic(err)
	}
	return r
}

func ExampleBuilder() {
	cat := etcd()
	ch := cat.Package("etcd").Channel("stable")
	head, _ := ch.Head()
	fmt.Println("head:", head)
	fmt.Println("chain:", ch.Chain())
	fmt.Println("order:", ch.Order())
	fmt.Println("skipped v0.9.3:", ch.IsSkipped("etcdoperator.v0.9.3"))
	for _, b := range cat.Providers(graph.GVK{Group: "etcd.database.coreos.com", Version: "v1beta2", Kind: "EtcdCluster"}) {
		fmt.Println("provider:", b.Name, b.Version)
	}
	// Output:
	// head: etcdoperator.v0.9.4
	// chain: [etcdoperator.v0.9.4 etcdoperator.v0.9.2 etcdoperator.v0.9.0]
	// order: [etcdoperator.v0.9.4 etcdoperator.v0.9.2 etcdoperator.v0.9.0 etcdoperator.v0.9.3]
	// skipped v0.9.3: true
	// provider: etcdoperator.v0.9.0 0.9.0
	// provider: etcdoperator.v0.9.2 0.9.2
	// provider: etcdoperator.v0.9.3 0.9.3
	// provider: etcdoperator.v0.9.4 0.9.4
}

func ExampleChannel_Successors() {
	ch := etcd().Package("etcd").Channel("stable")
	// An entry of the channel.
	fmt.Println(ch.Successors("etcdoperator.v0.9.2", semver.MustParse("0.9.2")))
	// An installed CSV the channel never listed: only the skipRange
	// reaches it.
	fmt.Println(ch.Successors("etcdoperator.v0.9.1", semver.MustParse("0.9.1")))
	// Too old for any edge.
	fmt.Println(ch.Successors("etcdoperator.v0.8.0", semver.MustParse("0.8.0")))
	// Output:
	// [etcdoperator.v0.9.4 etcdoperator.v0.9.3]
	// [etcdoperator.v0.9.4]
	// []
}

func ExampleChannel_ShortestPath() {
	ch := etcd().Package("etcd").Channel("stable")
	path, ok := ch.ShortestPath("etcdoperator.v0.9.0", "etcdoperator.v0.9.4")
	fmt.Println(path, ok)
	fmt.Println(ch.Reachable("etcdoperator.v0.9.0"))
	// Output:
	// [etcdoperator.v0.9.0 etcdoperator.v0.9.4] true
	// [etcdoperator.v0.9.4 etcdoperator.v0.9.2 etcdoperator.v0.9.3]
}

// DistancesTo answers "how far is every entry from the head" in one search.
func ExampleChannel_DistancesTo() {
	ch := etcd().Package("etcd").Channel("stable")
	head, _ := ch.Head()
	dist := ch.DistancesTo(head)
	for i, name := range ch.Order() {
		fmt.Println(name, dist[i])
	}
	// Output:
	// etcdoperator.v0.9.4 0
	// etcdoperator.v0.9.2 1
	// etcdoperator.v0.9.0 1
	// etcdoperator.v0.9.3 1
}

func ExampleCatalog_Validate() {
	b := graph.NewBuilder()
	b.AddPackage("demo", "stable")
	b.AddChannel("demo", "stable",
		graph.Entry{Name: "demo.v1"},
		graph.Entry{Name: "demo.v2", Replaces: "demo.v1"},
		graph.Entry{Name: "demo.v3", Replaces: "demo.v1", Skips: []string{"demo.v0"}},
	)
	for i, v := range []string{"1.0.0", "2.0.0", "v3"} {
		_ = b.AddBundle(fmt.Sprintf("demo.v%d", i+1), "demo", "example.com/demo", graph.PackageProperty("demo", v))
	}
	cat, err := b.Build()
	if err != nil {
		panic(err)
	}
	for _, f := range cat.Validate() {
		fmt.Println(f)
	}
	// Output:
	// warning non-strict-version demo demo.v3: bundle "demo.v3" of package "demo" has version "v3", which is semver only when read tolerantly (as 3.0.0); opm rejects it
	// error multiple-heads demo/stable: channel "stable" of package "demo" has 2 heads (entries that nothing replaces or skips): demo.v2, demo.v3
	// warning dangling-skip demo/stable demo.v3: entry "demo.v3" of channel "stable" of package "demo" skips "demo.v0", which is not an entry of the channel
}

// ParseProperties reads properties that come from outside a catalog, such as
// an installed CSV's operatorframework.io/properties annotation.
func ExampleParseProperties() {
	b, err := graph.ParseProperties([]graph.Property{
		{Type: graph.TypePackage, Value: []byte(`{"packageName":"etcd","version":"v0.9.4"}`)},
		{Type: graph.TypeGVK, Value: []byte(`{"group":"etcd.database.coreos.com","version":"v1beta2","kind":"EtcdCluster"}`)},
		{Type: graph.TypeGVKRequired, Value: []byte(`{"group":"","version":"v1","kind":"Pod"}`)},
		{Type: graph.TypeLabel, Value: []byte(`{"label":"fast"}`)},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(b.VersionText, "reads as", b.Version)
	fmt.Println("provides", b.Provides)
	fmt.Println("requires", b.RequiresGVK)
	fmt.Println("labels", b.Labels)

	_, err = graph.ParseProperties([]graph.Property{{Type: graph.TypeLabel, Value: []byte(`{"label":true}`)}})
	fmt.Println(err)
	// Output:
	// v0.9.4 reads as 0.9.4
	// provides [etcd.database.coreos.com/v1beta2 EtcdCluster]
	// requires [v1 Pod]
	// labels [fast]
	// property 0 (olm.label): field "label" is a boolean, want a string
}

// A bundle that embeds its manifests (olm.bundle.object properties, as
// older opm versions render them) tells what they are: each object's kind
// and name, and what the CSV says of install modes, webhooks, deployments
// and owned CRDs.
func ExampleBundle_Manifests() {
	object := func(doc string) graph.Property {
		return graph.Property{Type: graph.TypeBundleObject, Value: []byte(`{"data":"` + base64.StdEncoding.EncodeToString([]byte(doc)) + `"}`)}
	}
	const csv = `apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: etcdoperator.v0.9.4
spec:
  installModes:
  - type: OwnNamespace
    supported: true
  - type: AllNamespaces
    supported: false
  install:
    spec:
      deployments:
      - name: etcd-operator
  customresourcedefinitions:
    owned:
    - name: etcdclusters.etcd.database.coreos.com
`
	const crd = `{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "etcdclusters.etcd.database.coreos.com"}}`
	b := graph.NewBuilder()
	b.AddPackage("etcd", "alpha")
	if err := b.AddBundle("etcdoperator.v0.9.4", "etcd", "", graph.PackageProperty("etcd", "0.9.4"), object(csv), object(crd)); err != nil {
		panic(err)
	}
	b.AddChannel("etcd", "alpha", graph.Entry{Name: "etcdoperator.v0.9.4"})
	cat, err := b.Build()
	if err != nil {
		panic(err)
	}
	m, err := cat.Package("etcd").Bundle("etcdoperator.v0.9.4").Manifests()
	if err != nil {
		panic(err)
	}
	for _, o := range m.Objects {
		fmt.Println(o.Kind, o.Name)
	}
	fmt.Println("install modes:", m.CSV.InstallModes)
	fmt.Println("deployments:", m.CSV.Deployments, "owned CRDs:", m.CSV.OwnedCRDs)
	// Output:
	// ClusterServiceVersion etcdoperator.v0.9.4
	// CustomResourceDefinition etcdclusters.etcd.database.coreos.com
	// install modes: [{OwnNamespace true} {AllNamespaces false}]
	// deployments: [etcd-operator] owned CRDs: [etcdclusters.etcd.database.coreos.com]
}

// A bundle's install modes and owned API services as the catalog records
// them: the CSV manifest the bundle embeds wins over olm.csv.metadata,
// which newer catalogs write instead.
func ExampleBundle_CSVRecord() {
	csv := `{"kind":"ClusterServiceVersion","metadata":{"name":"metrics.v1.0.0"},"spec":{
		"installModes":[{"type":"AllNamespaces","supported":true}],
		"apiservicedefinitions":{"owned":[{"name":"v1beta1.metrics.example.com","group":"metrics.example.com","version":"v1beta1","kind":"NodeMetrics"}]}}}`
	b := graph.NewBuilder()
	b.AddPackage("metrics", "stable")
	for _, bundle := range []struct {
		name  string
		props []graph.Property
	}{
		{"metrics.v1.0.0", []graph.Property{graph.PackageProperty("metrics", "1.0.0"),
			{Type: graph.TypeBundleObject, Value: []byte(`{"data":"` + base64.StdEncoding.EncodeToString([]byte(csv)) + `"}`)}}},
		{"metrics.v1.1.0", []graph.Property{graph.PackageProperty("metrics", "1.1.0"),
			{Type: graph.TypeCSVMetadata, Value: []byte(`{"installModes":[{"type":"OwnNamespace","supported":true}]}`)}}},
		{"metrics.v1.2.0", []graph.Property{graph.PackageProperty("metrics", "1.2.0")}},
	} {
		if err := b.AddBundle(bundle.name, "metrics", "", bundle.props...); err != nil {
			panic(err)
		}
	}
	b.AddChannel("metrics", "stable", graph.Entry{Name: "metrics.v1.2.0", Replaces: "metrics.v1.1.0"},
		graph.Entry{Name: "metrics.v1.1.0", Replaces: "metrics.v1.0.0"}, graph.Entry{Name: "metrics.v1.0.0"})
	cat, err := b.Build()
	if err != nil {
		panic(err)
	}
	for _, name := range []string{"metrics.v1.0.0", "metrics.v1.1.0", "metrics.v1.2.0"} {
		rec, err := cat.Package("metrics").Bundle(name).CSVRecord()
		if err != nil {
			panic(err)
		}
		fmt.Println(name, "from manifest:", rec.FromManifest, "modes known:", rec.ModesKnown, rec.InstallModes, "API services:", len(rec.OwnedAPIServices))
	}
	// Output:
	// metrics.v1.0.0 from manifest: true modes known: true [{AllNamespaces true}] API services: 1
	// metrics.v1.1.0 from manifest: false modes known: true [{OwnNamespace true}] API services: 0
	// metrics.v1.2.0 from manifest: false modes known: false [] API services: 0
}
