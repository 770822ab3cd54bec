package olmapi_test

import (
	"context"
	"testing"

	operatorsv1alpha1 "github.com/operator-framework/api/pkg/operators/v1alpha1"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/olmapi"
	"github.com/sextantdev/sextant/resolver"
)

func TestInstallPlanObjects(t *testing.T) {
	b := graph.NewBuilder()
	widget := graph.GVK{Group: "example.com", Version: "v1", Kind: "Widget"}
	for _, p := range []struct {
		name string
		prop graph.Property
	}{{"widgets", graph.GVKProperty(widget)}, {"app", graph.RequiredGVKProperty(widget)}} {
		b.AddPackage(p.name, "stable")
		b.AddChannel(p.name, "stable", graph.Entry{Name: p.name + ".v1"})
		if err := b.AddBundle(p.name+".v1", p.name, "example.com/"+p.name+":1", graph.PackageProperty(p.name, "1.0.0"), p.prop); err != nil {
			t.Fatal(err)
		}
	}
	cat, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := resolver.New([]resolver.Catalog{{Key: resolver.CatalogKey{Namespace: "olm", Name: "community"}, Catalog: cat}}, resolver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	state := &cluster.State{Subscriptions: []cluster.Subscription{{Name: "app", Namespace: "operators", Package: "app", Channel: "stable",
		Source: "community", SourceNamespace: "olm", InstallPlanApproval: cluster.ApprovalManual}}}
	res, err := r.Resolve(context.Background(), "operators", state)
	if err != nil {
		t.Fatal(err)
	}
	p, err := res.InstallPlan()
	if err != nil {
		t.Fatal(err)
	}
	ip, subs, err := olmapi.InstallPlanObjects(p)
	if err != nil {
		t.Fatal(err)
	}
	if ip.GenerateName != "install-" || ip.Namespace != "operators" || ip.Spec.Approval != operatorsv1alpha1.ApprovalManual || ip.Spec.Approved ||
		ip.Status.Phase != operatorsv1alpha1.InstallPlanPhaseRequiresApproval || len(ip.Spec.ClusterServiceVersionNames) != 2 {
		t.Errorf("install plan = %+v", ip)
	}
	if n := len(ip.Status.BundleLookups); n != 2 || ip.Status.BundleLookups[0].Identifier != "widgets.v1" || ip.Status.BundleLookups[0].Path == "" ||
		ip.Status.BundleLookups[0].CatalogSourceRef == nil || ip.Status.BundleLookups[0].CatalogSourceRef.Name != "community" {
		t.Errorf("bundle lookups = %+v", ip.Status.BundleLookups)
	}
	if len(subs) != 1 || subs[0].Name != "widgets-stable-community-olm" || subs[0].Spec == nil || subs[0].Spec.StartingCSV != "widgets.v1" ||
		subs[0].Spec.InstallPlanApproval != operatorsv1alpha1.ApprovalAutomatic || subs[0].Spec.Package != "widgets" {
		t.Errorf("subscriptions = %+v", subs)
	}
	if ip, subs, err := olmapi.InstallPlanObjects(nil); err != nil || ip != nil || subs != nil {
		t.Errorf("InstallPlanObjects(nil) = %v, %v, %v", ip, subs, err)
	}
}
