package olmapi

import (
	operatorsv1alpha1 "github.com/operator-framework/api/pkg/operators/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/sextantdev/sextant/cluster"
)

// Subscription returns s as a typed Subscription, kind and API version
// set: the spec (package, channel, catalog, startingCSV, approval) and the
// status fields package cluster reads. Converting it back with [State]
// gives s. It is for a controller that creates or updates a subscription
// Sextant suggests (a confirmed suggestion's changed subscription, say).
func Subscription(s cluster.Subscription) *operatorsv1alpha1.Subscription {
	sub := &operatorsv1alpha1.Subscription{
		TypeMeta:   metav1.TypeMeta{Kind: cluster.KindSubscription, APIVersion: apiVersionV1alpha1},
		ObjectMeta: metav1.ObjectMeta{Name: s.Name, Namespace: s.Namespace},
		Spec: &operatorsv1alpha1.SubscriptionSpec{
			Package: s.Package, Channel: s.Channel, StartingCSV: s.StartingCSV,
			CatalogSource: s.Source, CatalogSourceNamespace: s.SourceNamespace,
			InstallPlanApproval: operatorsv1alpha1.Approval(s.InstallPlanApproval),
		},
		Status: operatorsv1alpha1.SubscriptionStatus{
			InstalledCSV: s.InstalledCSV, CurrentCSV: s.CurrentCSV,
			State: operatorsv1alpha1.SubscriptionState(s.State),
		},
	}
	if s.InstallPlanRef != "" {
		sub.Status.InstallPlanRef = &corev1.ObjectReference{Kind: cluster.KindInstallPlan, Namespace: s.Namespace, Name: s.InstallPlanRef}
	}
	return sub
}
