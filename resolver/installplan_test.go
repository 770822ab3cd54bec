package resolver_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolvertest"
)

func TestInstallPlan(t *testing.T) {
	r := resolvertest.NewResolver(t, resolver.Options{}, manualCatalog())
	ctx := context.Background()
	planRes, err := r.Resolve(ctx, "ns", manualState())
	if err != nil {
		t.Fatal(err)
	}
	plan := planRes.Plan()
	ip, err := r.InstallPlan(plan)
	if err != nil {
		t.Fatal(err)
	}
	if ip.GenerateName != "install-" || ip.Namespace != "ns" || ip.Approval != cluster.ApprovalManual || ip.Approved || ip.Phase != cluster.PhaseRequiresApproval ||
		strings.Join(ip.CSVNames, ",") != "etcd.v2,widgets.v1.0.0" || strings.Join(ip.CatalogSources, ",") != "community" {
		t.Errorf("install plan = %+v", ip)
	}
	if len(ip.BundleLookups) != 2 || ip.BundleLookups[0] != (resolver.BundleLookup{Path: "example.com/bundles/etcd.v2", Identifier: "etcd.v2", Replaces: "etcd.v1",
		CatalogSourceRef: resolver.CatalogKey{Namespace: "olm", Name: "community"}, Properties: `{"properties":[{"type":"olm.package","value":{"packageName":"etcd","version":"0.2.0"}}]}`}) {
		t.Errorf("bundle lookups = %+v", ip.BundleLookups)
	}
	// widgets has a subscription: no dependency subscription.
	if len(ip.Subscriptions) != 0 {
		t.Errorf("subscriptions = %+v, want none", ip.Subscriptions)
	}
	// Steps an InstallPlan in flight holds are not planned again.
	held := manualState()
	held.InstallPlans = []cluster.InstallPlan{{Name: "install-1", Namespace: "ns", Approval: cluster.ApprovalManual, CSVNames: []string{"etcd.v2", "widgets.v1.0.0"}, Phase: cluster.PhaseRequiresApproval}}
	heldRes, err := r.Resolve(ctx, "ns", held)
	if err != nil {
		t.Fatal(err)
	}
	plan = heldRes.Plan()
	if ip, err := r.InstallPlan(plan); err != nil || ip != nil {
		t.Errorf("InstallPlan with every step in flight = %+v, %v; want nil", ip, err)
	}
	if _, err := r.InstallPlan(nil); err == nil {
		t.Error("InstallPlan(nil) succeeded")
	}
}
