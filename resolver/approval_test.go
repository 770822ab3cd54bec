package resolver_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

// manualState is etcd.v1 installed by a Manual subscription on channel
// alpha (etcd.v1 → etcd.v2 → etcd.v3: two approvals to the head).
func manualState() *cluster.State {
	s := installedSub("etcd", "etcd", "alpha", "etcd.v1")
	s.InstallPlanApproval = cluster.ApprovalManual
	return &cluster.State{
		CSVs:          []cluster.CSV{csv("etcd.v1", "0.1.0", graph.PackageProperty("etcd", "0.1.0"))},
		Subscriptions: []cluster.Subscription{s, sub("widgets", "widgets", "stable")},
	}
}

func TestApprovalPlan(t *testing.T) {
	r := newResolver(t, resolver.Options{}, cat{pkgs: []pkg{etcd(), single("widgets", "1.0.0")}})
	plan, err := r.Resolve(context.Background(), "ns", manualState())
	if err != nil {
		t.Fatal(err)
	}
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
	r := newResolver(t, resolver.Options{}, cat{pkgs: []pkg{etcd(), single("widgets", "1.0.0")}})
	ctx := context.Background()
	rounds, err := r.Rollout(ctx, "ns", manualState(), 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(rounds) != 1 || !rounds[0].Waiting || rounds[0].Approved || rounds[0].State.CSV("ns", "etcd.v1") == nil {
		t.Fatalf("rollout without approval = %d rounds (%+v), want one waiting round in the initial state", len(rounds), rounds)
	}
	rounds, err = r.RolloutWith(ctx, "ns", manualState(), resolver.RolloutOptions{MaxRounds: 10, Approve: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(rounds) != 2 || !rounds[0].Approved || !rounds[1].Approved || rounds[1].Waiting {
		t.Fatalf("rollout with approval = %+v, want two approved rounds", rounds)
	}
	final := rounds[1].State
	if s := final.Subscription("ns", "etcd"); s == nil || s.InstalledCSV != "etcd.v3" || !s.Manual() {
		t.Errorf("final etcd subscription = %+v, want etcd.v3, still Manual", s)
	}
}

func TestInFlightErrors(t *testing.T) {
	r := newResolver(t, resolver.Options{}, cat{pkgs: []pkg{etcd()}})
	ctx := context.Background()
	failed := csv("etcd.v2", "0.2.0", graph.PackageProperty("etcd", "0.2.0"))
	failed.Replaces, failed.Phase = "etcd.v1", "Failed"
	replacing := csv("etcd.v1", "0.1.0", graph.PackageProperty("etcd", "0.1.0"))
	replacing.Phase = "Replacing"
	stuck := &cluster.State{
		CSVs:          []cluster.CSV{replacing, failed},
		Subscriptions: []cluster.Subscription{installedSub("etcd", "etcd", "alpha", "etcd.v2")},
	}
	_, err := r.Resolve(ctx, "ns", stuck)
	var se *resolver.StuckError
	if !errors.As(err, &se) || se.Subscription != "etcd" || se.CSV != "etcd.v2" || se.Replaces != "etcd.v1" || se.Strategy != cluster.UpgradeStrategyDefault {
		t.Errorf("Resolve of a failed upgrade = %v (%+v), want a *StuckError for etcd.v1 → etcd.v2", err, se)
	}
	forward := stuck.Clone()
	forward.OperatorGroups = []cluster.OperatorGroup{{Name: "og", Namespace: "ns", UpgradeStrategy: cluster.UpgradeStrategyUnsafeFailForward}}
	plan, err := r.Resolve(ctx, "ns", forward)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Steps) != 1 || plan.Steps[0].Bundle != "etcd.v3" || plan.Steps[0].Replaces != "etcd.v2" || len(plan.InFlight) != 1 || plan.InFlight[0].Kind != resolver.InFlightReplaced {
		t.Errorf("fail-forward plan = %s, in flight %+v; want etcd.v2 → etcd.v3 and etcd.v1 replaced", plan, plan.InFlight)
	}
	missing := &cluster.State{Subscriptions: []cluster.Subscription{installedSub("etcd", "etcd", "alpha", "etcd.v2")}}
	_, err = r.Resolve(ctx, "ns", missing)
	var ie *resolver.IncompleteError
	if !errors.As(err, &ie) || len(ie.Missing) != 1 || ie.Missing[0] != (resolver.MissingCSV{Subscription: "etcd", CSV: "etcd.v2"}) {
		t.Errorf("Resolve with the installed CSV missing = %v, want an *IncompleteError naming etcd and etcd.v2", err)
	}
}

func TestInstallPlan(t *testing.T) {
	r := newResolver(t, resolver.Options{}, cat{pkgs: []pkg{etcd(), single("widgets", "1.0.0")}})
	ctx := context.Background()
	plan, err := r.Resolve(ctx, "ns", manualState())
	if err != nil {
		t.Fatal(err)
	}
	ip, err := r.InstallPlan(plan)
	if err != nil {
		t.Fatal(err)
	}
	if ip.GenerateName != "install-" || ip.Namespace != "ns" || ip.Approval != cluster.ApprovalManual || ip.Approved || ip.Phase != cluster.PhaseRequiresApproval ||
		strings.Join(ip.CSVNames, ",") != "etcd.v2,widgets.v1.0.0" || strings.Join(ip.CatalogSources, ",") != "community" {
		t.Errorf("install plan = %+v", ip)
	}
	if len(ip.BundleLookups) != 2 || ip.BundleLookups[0] != (resolver.BundleLookup{Path: "img/etcd.v2", Identifier: "etcd.v2", Replaces: "etcd.v1",
		CatalogSourceRef: key("olm", "community"), Properties: `{"properties":[{"type":"olm.package","value":{"packageName":"etcd","version":"0.2.0"}}]}`}) {
		t.Errorf("bundle lookups = %+v", ip.BundleLookups)
	}
	// widgets has a subscription: no dependency subscription.
	if len(ip.Subscriptions) != 0 {
		t.Errorf("subscriptions = %+v, want none", ip.Subscriptions)
	}
	// Steps an InstallPlan in flight holds are not planned again.
	held := manualState()
	held.InstallPlans = []cluster.InstallPlan{{Name: "install-1", Namespace: "ns", Approval: cluster.ApprovalManual, CSVNames: []string{"etcd.v2", "widgets.v1.0.0"}, Phase: cluster.PhaseRequiresApproval}}
	plan, err = r.Resolve(ctx, "ns", held)
	if err != nil {
		t.Fatal(err)
	}
	if ip, err := r.InstallPlan(plan); ip != nil || err != nil {
		t.Errorf("InstallPlan with every step in flight = %+v, %v; want nil", ip, err)
	}
	if _, err := r.InstallPlan(nil); err == nil {
		t.Error("InstallPlan(nil) succeeded")
	}
}

func TestInFlightChains(t *testing.T) {
	r := newResolver(t, resolver.Options{}, cat{pkgs: []pkg{etcd()}})
	mk := func(name, version, replaces, phase string) cluster.CSV {
		c := csv(name, version, graph.PackageProperty("etcd", version))
		c.Replaces, c.Phase = replaces, phase
		return c
	}
	tests := []struct {
		name  string
		state cluster.State
		want  string
	}{{
		name: "a chain of two replacements goes on from its end",
		state: cluster.State{
			CSVs:          []cluster.CSV{mk("etcd.v1", "0.1.0", "", "Replacing"), mk("etcd.v2", "0.2.0", "etcd.v1", "Replacing"), mk("etcd.v3", "0.3.0", "etcd.v2", "Installing")},
			Subscriptions: []cluster.Subscription{installedSub("etcd", "etcd", "alpha", "etcd.v1")},
		},
		want: "keep etcd.v3",
	}, {
		name: "a replacement cycle leaves nothing out",
		state: cluster.State{
			CSVs:          []cluster.CSV{mk("etcd.v1", "0.1.0", "etcd.v2", "Succeeded"), mk("etcd.v2", "0.2.0", "etcd.v1", "Succeeded")},
			Subscriptions: []cluster.Subscription{installedSub("etcd", "etcd", "alpha", "etcd.v2")},
		},
		want: "error",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan, err := r.Resolve(context.Background(), "ns", &tt.state)
			got := "error"
			if err == nil {
				got = summary(plan)
			}
			if got != tt.want {
				t.Errorf("Resolve = %q (%v), want %q", got, err, tt.want)
			}
		})
	}
}

// TestInFlightNeverSuggestedForRemoval: in a namespace caught mid-upgrade
// that also has a real conflict, the CSV the upgrade replaces is no fact of
// the conflict and no suggestion removes it (DESIGN §9).
func TestInFlightNeverSuggestedForRemoval(t *testing.T) {
	widget := gvk("example.com", "v1", "Widget")
	r := newResolver(t, resolver.Options{}, cat{pkgs: []pkg{etcd(), single("widgets", "1.0.0", provides(widget))}})
	old := csv("etcd.v1", "0.1.0", graph.PackageProperty("etcd", "0.1.0"), provides(widget))
	old.Phase = "Replacing"
	cur := csv("etcd.v2", "0.2.0", graph.PackageProperty("etcd", "0.2.0"), provides(widget))
	cur.Replaces, cur.Phase = "etcd.v1", "Installing"
	etcdSub := installedSub("etcd", "etcd", "beta", "etcd.v1") // no successor of etcd.v2 in beta: it stays
	etcdSub.CurrentCSV = "etcd.v2"
	state := &cluster.State{CSVs: []cluster.CSV{old, cur}, Subscriptions: []cluster.Subscription{etcdSub, sub("widgets", "widgets", "stable")}}
	ctx := context.Background()
	_, err := r.Resolve(ctx, "ns", state)
	var ce *resolver.ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("Resolve = %v, want a conflict between widgets and etcd", err)
	}
	ex, err := r.Explain(ctx, "ns", state, ce, resolver.ExplainOptions{MaxSuggestions: 10, Budget: -1})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(ex.Full(), "etcd.v1") {
		t.Errorf("explanation names the CSV being replaced:\n%s", ex.Full())
	}
	for _, s := range ex.Suggestions {
		if s.Kind == resolver.SuggestRemoveCSV {
			t.Errorf("suggestion %q removes an installed CSV of an upgrade in flight", s.Change)
		}
	}
}
