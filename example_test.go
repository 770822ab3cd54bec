package sextant_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/celrule"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

// Example builds the world of the README's sample — the community catalog
// and a cluster's manifests — and resolves it as `sextant resolve` does:
// the same plan, the same predicted failure, the same fix.
func Example() {
	ctx := context.Background()
	w, err := sextant.Load(ctx, sextant.Input{
		Catalogs:  []sextant.CatalogInput{{Path: "testdata/catalogs/community-operators-prod.v4.20-index.json.gz"}},
		Manifests: []sextant.File{{Path: "testdata/examples/cluster.yaml"}},
	}, sextant.Options{CEL: celrule.New()})
	if err != nil {
		log.Fatal(err) // every problem of the inputs, each naming its file
	}
	for _, n := range w.Notes {
		fmt.Printf("note (%s): %.60s…\n", n.Code, n.Text)
	}
	fmt.Println("catalog:", w.Catalogs[0].Key, "namespace:", w.Namespaces[0])
	a, err := w.Resolve(ctx, sextant.AnswerOptions{})
	if err != nil {
		log.Fatal(err) // input the resolution cannot use: no answer
	}
	plan := a.Namespaces[0].Plan
	fmt.Printf("%d steps; answer no: %v; %d fix\n", len(plan.Steps), a.No(), len(plan.Fixes))
	if err := a.WriteText(os.Stdout, sextant.TextOptions{}); err != nil { // as sextant resolve prints it
		log.Fatal(err)
	}
	// Output:
	// note (operatorgroup-from-csvs): no OperatorGroup in the manifests: read OperatorGroup operat…
	// catalog: olm/community-operators-prod.v4.20-index namespace: operators
	// 5 steps; answer no: true; 1 fix
	// namespace operators: 5 steps, 1 will fail
	//   in flight: CSV etcdoperator.v0.9.2 failed; resolution counts it as installed and, as OLM, may upgrade it
	//  1. upgrade cert-manager.v1.16.1 -> cert-manager.v1.16.5
	//     package cert-manager 1.16.5, channel stable, catalog olm/community-operators-prod.v4.20-index
	//     reason: subscription cert-manager
	//  2. install alloydb-omni-operator.v1.8.0
	//     package alloydb-omni-operator 1.8.0, channel stable, catalog olm/community-operators-prod.v4.20-index
	//     reason: subscription alloydb-omni-operator
	//  3. upgrade etcdoperator.v0.9.2 -> etcdoperator.v0.9.4
	//     package etcd 0.9.4, channel singlenamespace-alpha, catalog olm/community-operators-prod.v4.20-index
	//     reason: subscription etcd
	//     will fail: UnsupportedOperatorGroup: OperatorGroup operators/global-operators targets all namespaces, which needs install mode AllNamespaces, and etcdoperator.v0.9.4 supports only OwnNamespace and SingleNamespace
	//  4. install rabbitmq-cluster-operator.v2.22.3 (dependency: OLM creates a subscription)
	//     package rabbitmq-cluster-operator 2.22.3, channel stable, catalog olm/community-operators-prod.v4.20-index
	//     reason: required by rabbitmq-messaging-topology-operator.v1.19.3 (olm.gvk.required rabbitmq.com/v1beta1 RabbitmqCluster)
	//  5. install rabbitmq-messaging-topology-operator.v1.19.3
	//     package rabbitmq-messaging-topology-operator 1.19.3, channel stable, catalog olm/community-operators-prod.v4.20-index
	//     reason: subscription rabbitmq-messaging-topology-operator
	// fixes (each re-solved and confirmed):
	//   1. move subscription etcd to a new namespace etcd with OperatorGroup etcd targeting only its own namespace etcd (spec.targetNamespaces: [etcd]), removing installed CSV etcdoperator.v0.9.2 from operators: in namespace etcd, installs etcdoperator.v0.9.4 (channel singlenamespace-alpha, catalog olm/community-operators-prod.v4.20-index)
}

// ExampleWorld_Rollout rolls the README's sample out as `sextant rollout`
// does: round 1 is Resolve's plan, with its predicted failure, so the
// rollout is not settled and its answer is no.
func ExampleWorld_Rollout() {
	ctx := context.Background()
	w, err := sextant.Load(ctx, sextant.Input{
		Catalogs:  []sextant.CatalogInput{{Path: "testdata/catalogs/community-operators-prod.v4.20-index.json.gz"}},
		Manifests: []sextant.File{{Path: "testdata/examples/cluster.yaml"}},
	}, sextant.Options{CEL: celrule.New()})
	if err != nil {
		log.Fatal(err)
	}
	ro, err := w.Rollout(ctx, resolver.RolloutOptions{MaxRounds: 100}, sextant.AnswerOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d round(s), settled: %v, predicted to fail: rounds %v, answer no: %v\n", len(ro.Rounds), ro.Settled, ro.Failing, ro.No())
	for _, s := range ro.Rounds[0].Steps {
		fmt.Println(s.Action, s.Bundle)
	}
	// Output:
	// 1 round(s), settled: false, predicted to fail: rounds [1], answer no: true
	// upgrade cert-manager.v1.16.5
	// install alloydb-omni-operator.v1.8.0
	// upgrade etcdoperator.v0.9.4
	// install rabbitmq-cluster-operator.v2.22.3
	// install rabbitmq-messaging-topology-operator.v1.19.3
}

// ExampleWorld_Provides asks a world of catalogs alone (no manifests)
// which packages provide an API, as `sextant provides` does.
func ExampleWorld_Provides() {
	w, err := sextant.Load(context.Background(), sextant.Input{
		Catalogs: []sextant.CatalogInput{{Path: "testdata/catalogs/community-operators-prod.v4.20-index.json.gz"}},
	}, sextant.Options{})
	if err != nil {
		log.Fatal(err)
	}
	q, err := resolver.ParseAPIQuery("EtcdCluster")
	if err != nil {
		log.Fatal(err)
	}
	a, err := w.Provides(q)
	if err != nil {
		log.Fatal(err)
	}
	if err := a.WriteText(os.Stdout, sextant.TextOptions{}); err != nil {
		log.Fatal(err)
	}
	fmt.Println("channels not listed:", a.Unlisted(sextant.TextOptions{}))
	// Output:
	// catalog olm/community-operators-prod.v4.20-index:
	//   etcd.database.coreos.com/v1beta2 EtcdCluster: etcd
	//     channel singlenamespace-alpha (default), head etcdoperator.v0.9.4: 0.9.4, 0.9.2, 0.9.0
	//     other channels (2): alpha, clusterwide-alpha
	// channels not listed: 2
}

// ExampleReadBundles reads bundle folders as Input.Bundles does, finds a
// catalog bundle's contents by its CSV's name, and notes the folders no
// piece of work asked for.
func ExampleReadBundles() {
	ctx := context.Background()
	set, err := sextant.ReadBundles(ctx, []string{"testdata/cli/crds/bundles"}, sextant.Limits{}, nil,
		func(n sextant.Note) { fmt.Println("note:", n.Text) })
	if err != nil {
		log.Fatal(err)
	}
	cat, err := graph.Loader{}.Load(ctx, "testdata/cli/crds/catalog.yaml")
	if err != nil {
		log.Fatal(err)
	}
	b := cat.Package("widgets").Bundle("widgets.v2.0.0")
	contents, _, err := set.For(ctx, b)
	if err != nil {
		log.Fatal(err)
	}
	for _, crd := range contents.CRDs {
		fmt.Println(contents.CSV.Name, "carries a CRD in", crd.File)
	}
	if n, ok := sextant.UnusedBundles(set, "no bundle the example asked for"); ok {
		fmt.Println("note:", n.Text)
	}
	// Output:
	// note: bundles: 6 bundle folders read
	// widgets.v2.0.0 carries a CRD in manifests/gadgets.crd.yaml
	// widgets.v2.0.0 carries a CRD in manifests/widgets.crd.yaml
	// note: bundles: 5 bundle folders not used (their CSVs name no bundle the example asked for): widgets.v0.9.0 (testdata/cli/crds/bundles/widgets/0.9.0), widgets.v1.0.0 (testdata/cli/crds/bundles/widgets/1.0.0), widgets.v1.1.0 (testdata/cli/crds/bundles/widgets/1.1.0), and 2 more
}
