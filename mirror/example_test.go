package mirror_test

import (
	"context"
	"fmt"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/celrule"
	"github.com/sextantdev/sextant/mirror"
)

// The mirror set of the README's sample namespace, whose subscriptions name
// the catalog community-operators-prod.v4.20-index in namespace olm: each
// kept bundle and the first reason it is kept. rabbitmq-cluster-operator
// is in it as a dependency, although no subscription names it.
func ExampleCompute() {
	ctx := context.Background()
	w, err := sextant.Load(ctx, sextant.Input{
		Catalogs:      []sextant.CatalogInput{{Path: "../testdata/catalogs/community-operators-prod.v4.20-index.json.gz"}},
		Manifests:     []sextant.File{{Path: "../testdata/examples/cluster.yaml"}},
		AllNamespaces: true,
	}, sextant.Options{CEL: celrule.New()})
	if err != nil {
		fmt.Println(err)
		return
	}
	set, err := mirror.Compute(ctx, w, mirror.Request{}, mirror.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range set.Catalogs {
		for _, p := range c.Packages {
			for _, b := range p.Bundles {
				fmt.Printf("%s: %s\n", b.Name, b.Reasons[0])
			}
		}
	}
	fmt.Printf("%d bundles, %d images; whole channels: %d bundles\n", set.Kept.Bundles, set.Kept.Images, set.WholeChannels.Bundles)
	// Output:
	// alloydb-omni-operator.v1.8.0: install of subscription operators/alloydb-omni-operator
	// cert-manager.v1.16.5: hop of subscription operators/cert-manager from cert-manager.v1.16.1
	// etcdoperator.v0.9.4: hop of subscription operators/etcd from etcdoperator.v0.9.2
	// rabbitmq-cluster-operator.v2.22.3: dependency of rabbitmq-messaging-topology-operator.v1.19.3 in namespace operators (olm.gvk.required rabbitmq.com/v1beta1 RabbitmqCluster)
	// rabbitmq-messaging-topology-operator.v1.19.3: install of subscription operators/rabbitmq-messaging-topology-operator
	// 5 bundles, 25 images; whole channels: 97 bundles
}
