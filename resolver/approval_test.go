package resolver_test

import (
	"context"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolvertest"
)

// manualCatalog is package etcd (addEtcd) and widgets, one bundle.
func manualCatalog() *resolvertest.Catalog {
	c := etcdCatalog()
	c.Package("widgets", "stable").Bundle("widgets.v1.0.0", "1.0.0")
	return c
}

// manualState is etcd.v1 installed by a Manual subscription on channel
// alpha (etcd.v1 → etcd.v2 → etcd.v3: two approvals to the head), and a
// subscription to widgets.
func manualState() *cluster.State {
	s := resolvertest.NewState("ns")
	s.Install(manualCatalog().Lookup("etcd").Lookup("etcd.v1"))
	s.Subscribe("etcd", "etcd").Channel("alpha").Source("olm", "community").Installed("etcd.v1").Manual()
	s.Subscribe("widgets", "widgets").Channel("stable").Source("olm", "community")
	return s.State()
}

func TestApprovalPlan(t *testing.T) {
	r := resolvertest.NewResolver(t, resolver.Options{}, manualCatalog())
	planRes, err := r.Resolve(context.Background(), "ns", manualState())
	if err != nil {
		t.Fatal(err)
	}
	plan := planRes.Plan()
	if plan.Approval.Mode != cluster.ApprovalManual || len(plan.Approval.Subscriptions) != 1 || plan.Approval.Subscriptions[0] != "etcd" || !plan.Waits() {
		t.Errorf("plan approval = %+v, Waits %v; want Manual by etcd, waiting", plan.Approval, plan.Waits())
	}
	for _, st := range plan.Steps {
		// widgets is Automatic, but the namespace's InstallPlan is Manual.
		if st.Approval.Mode != cluster.ApprovalManual || st.Approval.Subscription != "etcd" || !st.Approval.Waits() {
			t.Errorf("step %s approval = %+v, want Manual by etcd", st.Bundle, st.Approval)
		}
	}
}

func TestRolloutApproval(t *testing.T) {
	r := resolvertest.NewResolver(t, resolver.Options{}, manualCatalog())
	ctx := context.Background()
	ro, err := r.Rollout(ctx, "ns", manualState(), resolver.RolloutOptions{MaxRounds: 10})
	if err != nil {
		t.Fatal(err)
	}
	rounds := ro.Rounds
	if len(rounds) != 1 || !rounds[0].Waiting || rounds[0].Approved || rounds[0].State.CSV("ns", "etcd.v1") == nil {
		t.Fatalf("rollout without approval = %d rounds (%+v), want one waiting round in the initial state", len(rounds), rounds)
	}
	ro, err = r.Rollout(ctx, "ns", manualState(), resolver.RolloutOptions{MaxRounds: 10, Approve: true})
	if err != nil {
		t.Fatal(err)
	}
	rounds = ro.Rounds
	if len(rounds) != 2 || !rounds[0].Approved || !rounds[1].Approved || rounds[1].Waiting {
		t.Fatalf("rollout with approval = %+v, want two approved rounds", rounds)
	}
	final := rounds[1].State
	if s := final.Subscription("ns", "etcd"); s == nil || s.InstalledCSV != "etcd.v3" || !s.Manual() {
		t.Errorf("final etcd subscription = %+v, want etcd.v3, still Manual", s)
	}
}
