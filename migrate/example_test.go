package migrate_test

import (
	"context"
	"fmt"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/migrate"
)

// ExampleBuild reports on the fixture of testdata/migrate, read as
// sextant migrate reads it: each catalog is named after the CatalogSource
// that serves it (which gives its namespace and priority), and becomes the
// ClusterCatalog of that name.
func ExampleBuild() {
	ctx := context.Background()
	w, err := sextant.Load(ctx, sextant.Input{
		Catalogs: []sextant.CatalogInput{
			{Name: "community-operators", Path: "../testdata/catalogs/community-operators-prod.v4.20-index.json.gz"},
			{Name: "internal-operators", Path: "../testdata/migrate/internal-operators.json"},
		},
		Manifests:     []sextant.File{{Path: "../testdata/migrate/cluster.json"}},
		AllNamespaces: true,
	}, sextant.Options{})
	if err != nil {
		panic(err)
	}
	rep, err := migrate.Build(ctx, w)
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
