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
