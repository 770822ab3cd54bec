package olmapi

import (
	"slices"

	operatorsv1alpha1 "github.com/operator-framework/api/pkg/operators/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/resolver"
)

// InstallPlan returns, as typed objects, what OLM creates for a plan (see
// [resolver.Resolver.InstallPlan]): the InstallPlan, with its kind and API
// version set, and the Subscriptions it creates for dependencies, in plan
// order. They are the objects `sextant resolve -o installplan` writes, so a
// controller can create them, or compare them with what OLM created. A nil
// ip (no step, or every step already held by an InstallPlan in flight)
// gives nil and no subscriptions. The result shares nothing with ip.
func InstallPlan(ip *resolver.InstallPlan) (*operatorsv1alpha1.InstallPlan, []*operatorsv1alpha1.Subscription) {
	if ip == nil {
		return nil, nil
	}
	p := &operatorsv1alpha1.InstallPlan{
		TypeMeta:   metav1.TypeMeta{Kind: cluster.KindInstallPlan, APIVersion: apiVersionV1alpha1},
		ObjectMeta: metav1.ObjectMeta{GenerateName: ip.GenerateName, Namespace: ip.Namespace},
		Spec: operatorsv1alpha1.InstallPlanSpec{
			Approval:                   operatorsv1alpha1.Approval(ip.Approval),
			Approved:                   ip.Approved,
			ClusterServiceVersionNames: slices.Clone(ip.CSVNames),
		},
		Status: operatorsv1alpha1.InstallPlanStatus{
			Phase:          operatorsv1alpha1.InstallPlanPhase(ip.Phase),
			CatalogSources: slices.Clone(ip.CatalogSources),
		},
	}
	for _, l := range ip.BundleLookups {
		p.Status.BundleLookups = append(p.Status.BundleLookups, operatorsv1alpha1.BundleLookup{
			Path: l.Path, Identifier: l.Identifier, Replaces: l.Replaces, Properties: l.Properties,
			CatalogSourceRef: &corev1.ObjectReference{Namespace: l.CatalogSourceRef.Namespace, Name: l.CatalogSourceRef.Name},
		})
	}
	subs := make([]*operatorsv1alpha1.Subscription, 0, len(ip.Subscriptions))
	for _, s := range ip.Subscriptions {
		subs = append(subs, Subscription(s))
	}
	return p, subs
}

// Subscription returns s as a typed Subscription, kind and API version
// set: the spec (package, channel, catalog, startingCSV, approval) and
// the status fields cluster reads. Converting it back with [State] gives s.
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
