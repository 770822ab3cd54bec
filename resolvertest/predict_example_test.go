package resolvertest_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolvertest"
)

// Predictions of what OLM fails after resolution (DESIGN §8): a bundle's
// install modes against the namespace's OperatorGroup, and its
// minKubeVersion against the cluster's version.
func ExampleCase_predictions() {
	cat := resolvertest.NewCatalog("olm", "community")
	cat.Package("etcd", "stable").Bundle("etcd.v0.9.4", "0.9.4").
		CSVMetadata("", graph.InstallModeOwnNamespace, graph.InstallModeSingleNamespace)
	cat.Package("rabbitmq", "stable").Bundle("rabbitmq.v2.22.3", "2.22.3").
		CSVMetadata("1.26.0", graph.InstallModeAllNamespaces)

	state := resolvertest.NewState("operators")
	state.OperatorGroup("operators", "global") // no targets: all namespaces
	state.Subscribe("etcd", "etcd")
	state.Subscribe("rabbitmq", "rabbitmq")

	c := resolvertest.Case{Catalogs: []*resolvertest.Catalog{cat}, State: state,
		Options: resolver.Options{KubeVersion: "1.25.3"}}
	text, err := c.Result(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(text)
	// Output:
	// namespace operators: 2 step(s)
	// 1. install etcd.v0.9.4 0.9.4 (package etcd, channel stable, catalog olm/community): subscription etcd
	//    will fail: UnsupportedOperatorGroup: OperatorGroup operators/global targets all namespaces, which needs install mode AllNamespaces, and etcd.v0.9.4 supports only OwnNamespace and SingleNamespace
	// 2. install rabbitmq.v2.22.3 2.22.3 (package rabbitmq, channel stable, catalog olm/community): subscription rabbitmq
	//    will fail: RequirementsNotMet: rabbitmq.v2.22.3 needs Kubernetes 1.26.0 or later: minKubeVersion (1.26.0) > server version (1.25.3)
	// fix: move subscription etcd to a new namespace etcd with OperatorGroup etcd targeting only its own namespace etcd (spec.targetNamespaces: [etcd]): in namespace etcd, installs etcd.v0.9.4 (channel stable, catalog olm/community)
}

// TestCaseOperatorGroups checks the OperatorGroup builders: targets,
// status, the providedAPIs annotation, staticProvidedAPIs, installed CSVs'
// install modes, and AllNamespaces.
func TestCaseOperatorGroups(t *testing.T) {
	cat := resolvertest.NewCatalog("olm", "community")
	cat.Package("w", "stable").Bundle("w.v1", "1.0.0").Provides("example.com", "v1", "Widget").
		CSVMetadata("", graph.InstallModeOwnNamespace, graph.InstallModeAllNamespaces)

	all := resolvertest.NewState("a")
	all.OperatorGroup("a", "og").Status("")
	all.OperatorGroup("b", "og", "b").ProvidedAPIs("Widget.v1.example.com").Static()
	all.CSV("legacy.v1", "1.0.0").Provides("example.com", "v1", "Widget").InstallModes(graph.InstallModeOwnNamespace)
	twoGroups := resolvertest.NewState("b")
	twoGroups.OperatorGroup("a", "og").ProvidedAPIs("Widget.v1.example.com").Static()
	twoGroups.OperatorGroup("b", "og", "b").ProvidedAPIs("Widget.v1.example.com").Static()
	twoGroups.Subscribe("w", "w")
	resolvertest.Run(t, []resolvertest.Case{
		{
			Name:     "installed CSV under an all-namespaces group, and an intersecting group providing its API",
			Reason:   "legacy.v1 supports only OwnNamespace; group b (static) lists Widget, and group a targets all namespaces",
			Catalogs: []*resolvertest.Catalog{cat}, State: all, Namespace: "a",
			Want: `namespace a: 0 step(s)
unchanged legacy.v1 1.0.0
   will fail: UnsupportedOperatorGroup: OperatorGroup a/og targets all namespaces, which needs install mode AllNamespaces, and legacy.v1 supports only OwnNamespace
fix: make OperatorGroup a/og target only its own namespace a (spec.targetNamespaces: [a]): resolves with no install or upgrade
`,
		},
		{
			Name:     "every namespace",
			Reason:   "both groups list Widget and are static; a's targets all namespaces, so for w.v1 in b OLM would have to remove Widget from b's static annotation",
			Catalogs: []*resolvertest.Catalog{cat}, State: twoGroups, AllNamespaces: true,
			Want: `== namespace a ==
namespace a: 0 step(s)
== namespace b ==
namespace b: 1 step(s)
1. install w.v1 1.0.0 (package w, channel stable, catalog olm/community): subscription w
   will fail: CannotModifyStaticOperatorGroupProvidedAPIs: OperatorGroup b/og has spec.staticProvidedAPIs and lists API example.com/v1 Widget, which intersecting OperatorGroup a/og (all namespaces) provides too: OLM would have to remove them from its olm.providedAPIs annotation
`,
		},
	})
}
