package graph_test

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/sextantdev/sextant/graph"
)

func ExampleDecode() {
	const fbc = `{"schema":"olm.package","name":"etcd","defaultChannel":"alpha"}
{"schema":"olm.channel","package":"etcd","name":"alpha","entries":[{"name":"etcd.v0.9.4","replaces":"etcd.v0.9.2"},{"name":"etcd.v0.9.2"}]}
{"schema":"olm.bundle","name":"etcd.v0.9.2","package":"etcd","image":"quay.io/etcd:v0.9.2","properties":[{"type":"olm.package","value":{"packageName":"etcd","version":"0.9.2"}}]}
{"schema":"olm.bundle","name":"etcd.v0.9.4","package":"etcd","image":"quay.io/etcd:v0.9.4","properties":[{"type":"olm.package","value":{"packageName":"etcd","version":"0.9.4"}},{"type":"olm.gvk","value":{"group":"etcd.database.coreos.com","kind":"EtcdCluster","version":"v1beta2"}}]}
`
	c, err := graph.Decode(strings.NewReader(fbc), "etcd.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	p := c.Package("etcd")
	head, _ := p.Channel(p.DefaultChannel).Head()
	fmt.Println("head of", p.DefaultChannel+":", head)
	for _, b := range p.Bundles {
		fmt.Println(b.Name, b.Version, b.Provides)
	}
	// Output:
	// head of alpha: etcd.v0.9.4
	// etcd.v0.9.2 0.9.2 []
	// etcd.v0.9.4 0.9.4 [etcd.database.coreos.com/v1beta2 EtcdCluster]
}

func ExampleLoadFile() {
	// LoadFile reads JSON streams and multi-document YAML, gzip-compressed
	// or not.
	c, err := graph.LoadFile("testdata/decode/etcd.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, b := range c.Package("etcd").Bundles {
		fmt.Printf("%s %s (written %q) deprecated=%v at line %d\n", b.Name, b.Version, b.VersionText, b.Deprecated, b.Pos.Line)
	}
	// Output:
	// etcdoperator.v0.9.2 0.9.2 (written "v0.9.2") deprecated=true at line 70
	// etcdoperator.v0.9.3 0.9.3 (written "0.9.3") deprecated=false at line 87
	// etcdoperator.v0.9.4 0.9.4 (written "0.9.4") deprecated=false at line 23
}

func ExampleDecodeError() {
	const fbc = `{"schema":"olm.package","name":"etcd"}
{"name":"etcd.v0.9.2","package":"etcd"}
{"schema":"olm.bundle","name":"etcd.v0.9.4","package":"etcd","image":["quay.io/etcd:v0.9.4"]}
`
	_, err := graph.Decode(strings.NewReader(fbc), "etcd.json")
	// Every problem is reported; each is a *DecodeError.
	fmt.Println(err)
	var de *graph.DecodeError
	if errors.As(err, &de) {
		fmt.Println("first problem at line", de.Line)
	}
	// Output:
	// etcd.json:2: blob "etcd.v0.9.2": blob has no "schema"
	// etcd.json:3: olm.bundle "etcd.v0.9.4": field "image" is an array, want a string
	// first problem at line 2
}

func ExampleEncode() {
	b := graph.NewBuilder()
	b.AddPackage("etcd", "alpha")
	b.AddChannel("etcd", "alpha", graph.Entry{Name: "etcd.v0.9.4"})
	if err := b.AddBundle("etcd.v0.9.4", "etcd", "quay.io/etcd:v0.9.4", graph.PackageProperty("etcd", "0.9.4")); err != nil {
		fmt.Println(err)
		return
	}
	c, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := graph.Encode(os.Stdout, c); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {"schema":"olm.package","name":"etcd","defaultChannel":"alpha"}
	// {"schema":"olm.channel","package":"etcd","name":"alpha","entries":[{"name":"etcd.v0.9.4"}]}
	// {"schema":"olm.bundle","name":"etcd.v0.9.4","package":"etcd","image":"quay.io/etcd:v0.9.4","properties":[{"type":"olm.package","value":{"packageName":"etcd","version":"0.9.4"}}]}
}

// Kubernetes manifests given as a catalog are one *NotCatalogError per
// file, which says what they are: a program can tell its user where they
// go instead.
func ExampleNotCatalogError() {
	const state = `apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata:
  name: etcd
---
apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: etcdoperator.v0.9.4
`
	_, err := graph.Decode(strings.NewReader(state), "cluster.yaml")
	fmt.Println(err)
	var nc *graph.NotCatalogError
	if errors.As(err, &nc) && nc.What == graph.NotCatalogManifests {
		fmt.Printf("%d objects, the first a %s: the cluster state, not a catalog\n", nc.Objects, nc.Kind)
	}
	// Output:
	// cluster.yaml:1: Kubernetes manifests (2 objects, the first of kind Subscription), not a File-Based Catalog (whose blobs have a "schema")
	// 2 objects, the first a Subscription: the cluster state, not a catalog
}
