package migrate_test

import (
	"context"
	"fmt"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/migrate"
	"github.com/sextantdev/sextant/resolver"
)

// ExampleBuild reports on the fixture of testdata/migrate: each catalog is
// keyed by the CatalogSource that serves it, and becomes the ClusterCatalog
// of that name.
func ExampleBuild() {
	community, err := graph.Load("../testdata/catalogs/community-operators-prod.v4.20-index.json.gz")
	if err != nil {
		panic(err)
	}
	internal, err := graph.Load("../testdata/migrate/internal-operators.json")
	if err != nil {
		panic(err)
	}
	state, err := cluster.LoadFiles("../testdata/migrate/cluster.json")
	if err != nil {
		panic(err)
	}
	cats := []resolver.Catalog{
		{Key: resolver.CatalogKey{Namespace: "olm", Name: "community-operators"}, Priority: -100, Catalog: community},
		{Key: resolver.CatalogKey{Namespace: "olm", Name: "internal-operators"}, Priority: 10, Catalog: internal},
	}
	rep, err := migrate.Build(context.Background(), cats, state, migrate.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(rep.Summary)
	for _, e := range rep.Subscriptions {
		if e.Name == "datadog-operator" {
			fmt.Printf("%s: %s, ClusterExtension version %q, v1 installs %s\n", e.Name, e.Verdict, e.ClusterExtension.Version, e.V1Now.Bundle)
		}
	}
	// Output:
	// 28 subscriptions: 10 ready, 8 ready with changes, 10 blocked
	// datadog-operator: ready with changes, ClusterExtension version ">=1.7.0 <1.8.0", v1 installs datadog-operator.v1.7.0
}
