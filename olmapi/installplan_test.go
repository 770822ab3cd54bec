package olmapi_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	operatorsv1alpha1 "github.com/operator-framework/api/pkg/operators/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/olmapi"
	"github.com/sextantdev/sextant/resolver"
)

// depCatalog is a catalog where app needs the API Widget, which package
// widget provides: resolving a subscription to app pulls in widget.
const depCatalog = `{"schema":"olm.package","name":"app","defaultChannel":"stable"}
{"schema":"olm.channel","package":"app","name":"stable","entries":[{"name":"app.v1"}]}
{"schema":"olm.bundle","name":"app.v1","package":"app","image":"quay.io/example/app:v1","properties":[{"type":"olm.package","value":{"packageName":"app","version":"1.0.0"}},{"type":"olm.gvk.required","value":{"group":"example.com","version":"v1","kind":"Widget"}}]}
{"schema":"olm.package","name":"widget","defaultChannel":"stable"}
{"schema":"olm.channel","package":"widget","name":"stable","entries":[{"name":"widget.v1"}]}
{"schema":"olm.bundle","name":"widget.v1","package":"widget","image":"quay.io/example/widget:v1","properties":[{"type":"olm.package","value":{"packageName":"widget","version":"1.0.0"}},{"type":"olm.gvk","value":{"group":"example.com","version":"v1","kind":"Widget"}}]}
`

// TestInstallPlan checks that the typed InstallPlan and Subscriptions are
// the objects of resolver.InstallPlan's Manifest (what `sextant resolve -o
// installplan` writes), field for field, for an Automatic and a Manual
// plan.
func TestInstallPlan(t *testing.T) {
	cat, err := graph.Decode(strings.NewReader(depCatalog), "catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := resolver.New([]resolver.Catalog{{Key: resolver.CatalogKey{Namespace: "olm", Name: "community"}, Catalog: cat}}, resolver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, approval := range []operatorsv1alpha1.Approval{operatorsv1alpha1.ApprovalAutomatic, operatorsv1alpha1.ApprovalManual} {
		t.Run(string(approval), func(t *testing.T) {
			s := sub("operators", "app", "app")
			s.Spec.CatalogSource, s.Spec.InstallPlanApproval = "community", approval
			state, err := olmapi.State(olmapi.Objects{Subscriptions: []*operatorsv1alpha1.Subscription{s}})
			if err != nil {
				t.Fatal(err)
			}
			plan, err := r.Resolve(context.Background(), "operators", state)
			if err != nil {
				t.Fatal(err)
			}
			ip, err := r.InstallPlan(plan)
			if err != nil {
				t.Fatal(err)
			}
			gotPlan, gotSubs := olmapi.InstallPlan(ip)
			if gotPlan == nil || len(gotSubs) != 1 {
				t.Fatalf("InstallPlan = %v, %d subscriptions; want a plan and 1 subscription", gotPlan, len(gotSubs))
			}

			// The same objects, read from the manifest.
			js, err := json.Marshal(ip.Manifest())
			if err != nil {
				t.Fatal(err)
			}
			var list struct{ Items []json.RawMessage }
			if err := json.Unmarshal(js, &list); err != nil || len(list.Items) != 2 {
				t.Fatalf("manifest %s: %v", js, err)
			}
			var wantPlan operatorsv1alpha1.InstallPlan
			var wantSub operatorsv1alpha1.Subscription
			if err := json.Unmarshal(list.Items[0], &wantPlan); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(list.Items[1], &wantSub); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(gotPlan, &wantPlan) {
				t.Errorf("InstallPlan:\n%+v\nwant (from the manifest)\n%+v", gotPlan, &wantPlan)
			}
			if !reflect.DeepEqual(gotSubs[0], &wantSub) {
				t.Errorf("Subscription:\n%+v\nwant (from the manifest)\n%+v", gotSubs[0], &wantSub)
			}
			if gotPlan.Spec.Approval != approval || gotPlan.Spec.ClusterServiceVersionNames[0] != "widget.v1" ||
				gotPlan.Status.BundleLookups[0].Path != "quay.io/example/widget:v1" || gotSubs[0].Spec.StartingCSV != "widget.v1" {
				t.Errorf("InstallPlan %+v, subscription %+v", gotPlan, gotSubs[0])
			}
		})
	}
	if p, subs := olmapi.InstallPlan(nil); p != nil || subs != nil {
		t.Errorf("InstallPlan(nil) = %v, %v", p, subs)
	}
}

// TestSubscriptionRoundTrip checks that a cluster.Subscription made typed
// and converted back is the same subscription.
func TestSubscriptionRoundTrip(t *testing.T) {
	want := cluster.Subscription{
		Name: "etcd", Namespace: "operators", Package: "etcd", Channel: "alpha", StartingCSV: "etcd.v1",
		Source: "community", SourceNamespace: "olm", InstalledCSV: "etcd.v1", CurrentCSV: "etcd.v2",
		InstallPlanApproval: cluster.ApprovalManual, State: cluster.SubscriptionState("UpgradePending"), InstallPlanRef: "install-abc",
	}
	typed := olmapi.Subscription(want)
	typed.TypeMeta = metav1.TypeMeta{} // as a lister returns it
	state, err := olmapi.State(olmapi.Objects{Subscriptions: []*operatorsv1alpha1.Subscription{typed}})
	if err != nil {
		t.Fatal(err)
	}
	if len(state.Subscriptions) != 1 || state.Subscriptions[0] != want {
		t.Errorf("round trip = %+v\nwant %+v", state.Subscriptions, want)
	}
}
