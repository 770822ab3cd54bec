package olmapi

import (
	"encoding/json"
	"fmt"

	operatorsv1alpha1 "github.com/operator-framework/api/pkg/operators/v1alpha1"

	"github.com/sextantdev/sextant/resolver"
)

// InstallPlanObjects converts the InstallPlan that
// [resolver.Resolver.InstallPlan] returns into the typed objects OLM would
// create: the InstallPlan (metadata.generateName "install-", no name yet)
// and the Subscriptions of the dependencies, in plan order. It goes through
// [resolver.InstallPlan.Manifest], so the objects are exactly what
// `sextant resolve -o installplan` writes. A nil p gives nil objects.
func InstallPlanObjects(p *resolver.InstallPlan) (*operatorsv1alpha1.InstallPlan, []*operatorsv1alpha1.Subscription, error) {
	if p == nil {
		return nil, nil, nil
	}
	js, err := json.Marshal(p.Manifest())
	if err != nil {
		return nil, nil, fmt.Errorf("olmapi: install plan of namespace %q: %w", p.Namespace, err)
	}
	var list struct {
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(js, &list); err != nil || len(list.Items) == 0 {
		return nil, nil, fmt.Errorf("olmapi: install plan of namespace %q: the manifest holds no InstallPlan", p.Namespace)
	}
	ip := &operatorsv1alpha1.InstallPlan{}
	if err := json.Unmarshal(list.Items[0], ip); err != nil {
		return nil, nil, fmt.Errorf("olmapi: install plan of namespace %q: %w", p.Namespace, err)
	}
	subs := make([]*operatorsv1alpha1.Subscription, 0, len(list.Items)-1)
	for _, raw := range list.Items[1:] {
		s := &operatorsv1alpha1.Subscription{}
		if err := json.Unmarshal(raw, s); err != nil {
			return nil, nil, fmt.Errorf("olmapi: install plan of namespace %q: subscription: %w", p.Namespace, err)
		}
		subs = append(subs, s)
	}
	return ip, subs, nil
}
