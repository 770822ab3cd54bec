package resolvertest_test

import (
	"context"
	"fmt"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/resolvertest"
)

// A catalog and a cluster state built in code, resolved once: etcd moves
// one hop, and backup, which needs etcd's API, comes after it. In a test,
// put such cases in a table and call resolvertest.Run(t, cases).
func ExampleCase() {
	cat := resolvertest.NewCatalog("olm", "community")
	etcd := cat.Package("etcd", "alpha")
	v090 := etcd.Bundle("etcd.v0.9.0", "0.9.0").Provides("etcd.database.coreos.com", "v1beta2", "EtcdCluster")
	etcd.Bundle("etcd.v0.9.2", "0.9.2").Replaces("etcd.v0.9.0").Provides("etcd.database.coreos.com", "v1beta2", "EtcdCluster")
	cat.Package("backup", "stable").Bundle("backup.v1", "1.0.0").RequiresGVK("etcd.database.coreos.com", "v1beta2", "EtcdCluster")

	state := resolvertest.NewState("operators")
	state.Install(v090) // the installed CSV, as OLM leaves it
	state.Subscribe("etcd", "etcd").Channel("alpha").Source("olm", "community").Installed("etcd.v0.9.0")
	state.Subscribe("backup", "backup").Source("olm", "community")

	c := resolvertest.Case{Catalogs: []*resolvertest.Catalog{cat}, State: state}
	text, err := c.Result(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(text)
	// Output:
	// namespace operators: 2 step(s)
	// 1. upgrade etcd.v0.9.2 0.9.2 (package etcd, channel alpha, catalog olm/community) replacing etcd.v0.9.0: subscription etcd
	// 2. install backup.v1 1.0.0 (package backup, channel stable, catalog olm/community): subscription backup
}

// A rollout shows every hop to the channel head.
func ExampleCase_rollout() {
	cat := resolvertest.NewCatalog("olm", "community")
	p := cat.Package("a", "stable")
	v1 := p.Bundle("a.v1", "1.0.0")
	p.Bundle("a.v2", "2.0.0").Replaces("a.v1")
	p.Bundle("a.v3", "3.0.0").Replaces("a.v2").Skips("a.v1")
	p.Bundle("a.v4", "4.0.0").Replaces("a.v3")

	state := resolvertest.NewState("operators")
	state.Install(v1)
	state.Subscribe("a", "a").Installed("a.v1")

	c := resolvertest.Case{Catalogs: []*resolvertest.Catalog{cat}, State: state, Rollout: 10}
	text, _ := c.Result(context.Background())
	fmt.Print(text)
	// Output:
	// == round 1 ==
	// namespace operators: 1 step(s)
	// 1. upgrade a.v3 3.0.0 (package a, channel stable, catalog olm/community) replacing a.v1: subscription a
	// == round 2 ==
	// namespace operators: 1 step(s)
	// 1. upgrade a.v4 4.0.0 (package a, channel stable, catalog olm/community) replacing a.v3: subscription a
	// == settled after 2 round(s) ==
	// installed a.v4 4.0.0
	// subscription a: a.v4
}

func ExampleDiff() {
	fmt.Print(resolvertest.Diff(
		"namespace operators: 1 step(s)\n1. install a.v1\n",
		"namespace operators: 1 step(s)\n1. install a.v2\n",
	))
	// Output:
	//   namespace operators: 1 step(s)
	// - 1. install a.v1
	// + 1. install a.v2
}

// Approval and upgrades in flight in code: a Manual subscription with an
// approved InstallPlan in flight, and a CSV mid-upgrade whose replacement
// failed, which the OperatorGroup lets OLM fail forward from.
func ExampleCase_approval() {
	cat := resolvertest.NewCatalog("olm", "community")
	a := cat.Package("a", "stable")
	a1 := a.Bundle("a.v1", "1.0.0")
	a.Bundle("a.v2", "2.0.0").Replaces("a.v1")
	a.Bundle("a.v3", "3.0.0").Replaces("a.v2")
	b := cat.Package("b", "stable")
	b1 := b.Bundle("b.v1", "1.0.0")
	b2 := b.Bundle("b.v2", "2.0.0").Replaces("b.v1")
	b.Bundle("b.v3", "3.0.0").Replaces("b.v2")

	state := resolvertest.NewState("operators")
	state.OperatorGroupStrategy("global", cluster.UpgradeStrategyUnsafeFailForward)
	state.Install(a1)
	state.Subscribe("a", "a").Installed("a.v1").Manual().Pending("a.v2", "install-1")
	state.InstallPlan("install-1", cluster.ApprovalManual, true, cluster.PhaseRequiresApproval, "a.v2")
	state.Install(b1).Phase(cluster.CSVPhaseReplacing)
	state.Install(b2).Replaces("b.v1").Phase(cluster.CSVPhaseFailed)
	state.Subscribe("b", "b").Installed("b.v2")

	c := resolvertest.Case{Catalogs: []*resolvertest.Catalog{cat}, State: state}
	text, _ := c.Result(context.Background())
	fmt.Print(text)
	// Output:
	// namespace operators: 2 step(s)
	// approval Manual (subscription a): waits for approval
	// in flight: CSV b.v1 (Replacing) was being replaced by b.v2, which failed; the OperatorGroup allows failing forward (TechPreviewUnsafeFailForward), so OLM leaves b.v1 out and upgrades from b.v2
	// in flight: InstallPlan install-1 (Manual, approved) runs next; it installs a.v2
	// 1. upgrade a.v2 2.0.0 (package a, channel stable, catalog olm/community) replacing a.v1: subscription a; approval Manual (subscription a), InstallPlan install-1, approved
	// 2. upgrade b.v3 3.0.0 (package b, channel stable, catalog olm/community) replacing b.v2: subscription b; approval Manual (subscription a), waits for approval
	// note: install modes not checked for bundles without olm.csv.metadata: a.v2, b.v3
}
