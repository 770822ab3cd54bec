package migrate_test

import (
	"context"
	"fmt"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/migrate"
	"github.com/sextantdev/sextant/registryv1"
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

// The service account operator-controller v1.0 to v1.10 install a
// ClusterExtension as, derived from its bundle's contents: here a bundle
// folder of testdata/migrate/bundles (ack-ecr-controller 1.8.1 from
// community-operators-prod), installed in namespace operators for all
// namespaces.
func ExampleDeriveInstaller() {
	set, err := registryv1.Loader{}.ReadDirs(context.Background(), "../testdata/migrate/bundles/ack-ecr-controller/1.8.1")
	if err != nil {
		fmt.Println(err)
		return
	}
	b := set.Named("ack-ecr-controller.v1.8.1")[0]
	in, err := migrate.DeriveInstaller(b, nil, "ack-ecr-controller", "operators", "", cluster.FeatureSetStandard)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(in.Summary())
	for _, m := range in.Manifests() {
		meta := m["metadata"].(map[string]any)
		fmt.Println(m["kind"], meta["name"])
	}
	// Output:
	// ServiceAccount operators/ack-ecr-controller-installer: ClusterRole ack-ecr-controller-installer-clusterrole (11 rules), ClusterRole ack-ecr-controller-installer-rbac-clusterrole (11 rules), Role operators/ack-ecr-controller-installer-role (11 rules)
	// ServiceAccount ack-ecr-controller-installer
	// ClusterRole ack-ecr-controller-installer-clusterrole
	// ClusterRoleBinding ack-ecr-controller-installer-clusterrole
	// ClusterRole ack-ecr-controller-installer-rbac-clusterrole
	// ClusterRoleBinding ack-ecr-controller-installer-rbac-clusterrole
	// Role ack-ecr-controller-installer-role
	// RoleBinding ack-ecr-controller-installer-role
}
