package cluster_test

import (
	"fmt"
	"strings"

	"github.com/sextantdev/sextant/cluster"
)

func ExampleDecode() {
	manifests := `
apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata:
  name: etcd
  namespace: operators
spec:
  name: etcd
  channel: alpha
  source: community-operators
  sourceNamespace: olm
status:
  installedCSV: etcdoperator.v0.9.2
---
apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: etcdoperator.v0.9.2
  namespace: operators
spec:
  version: 0.9.2
  customresourcedefinitions:
    owned:
    - name: etcdclusters.etcd.database.coreos.com
      version: v1beta2
      kind: EtcdCluster
`
	state, err := cluster.Decode(strings.NewReader(manifests), "cluster.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range state.CSVs {
		fmt.Println("CSV", c.Name, c.Version, c.Provides)
	}
	for _, s := range state.Subscriptions {
		fmt.Println("subscription", s.Name, "to", s.Package, "on", s.Channel, "installed", s.InstalledCSV)
	}

	_, err = cluster.Decode(strings.NewReader(strings.Replace(manifests, "channel: alpha", "channel: 1", 1)), "cluster.yaml")
	fmt.Println(err)
	// Output:
	// CSV etcdoperator.v0.9.2 0.9.2 [etcd.database.coreos.com/v1beta2 EtcdCluster]
	// subscription etcd to etcd on alpha installed etcdoperator.v0.9.2
	// cluster.yaml:2: Subscription "operators/etcd": field spec.channel: is a number, want a string
}

// ExampleState_ClaimCustomResources reads a CRD and two objects of kinds
// no reader takes: the Memcached, whose kind the CRD defines, is a custom
// resource once claimed; the Widget, of no CRD, stays ignored.
func ExampleState_ClaimCustomResources() {
	s, err := cluster.Decode(strings.NewReader(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: memcacheds.cache.example.com}
spec:
  group: cache.example.com
  names: {kind: Memcached, plural: memcacheds}
  scope: Namespaced
  versions: [{name: v1alpha1, served: true, storage: true}]
---
apiVersion: cache.example.com/v1alpha1
kind: Memcached
metadata: {name: cache, namespace: app}
spec: {size: 5}
---
apiVersion: other.example.com/v1
kind: Widget
metadata: {name: w}
`), "cluster.yaml")
	if err != nil {
		panic(err)
	}
	fmt.Println("ignored:", s.IgnoredText())
	s.ClaimCustomResources()
	for _, c := range s.CustomResources {
		fmt.Printf("%s %s %s (%s:%d)\n", c.APIVersion(), c.Kind, c.Key(), c.File, c.Line)
	}
	fmt.Println("ignored:", s.IgnoredText())
	// Output:
	// ignored: 1 Memcached, 1 Widget
	// cache.example.com/v1alpha1 Memcached app/cache (cluster.yaml:10)
	// ignored: 1 Widget
}
