package olmapi_test

import (
	"testing"

	operatorsv1alpha1 "github.com/operator-framework/api/pkg/operators/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/olmapi"
)

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
