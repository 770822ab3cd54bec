package resolver

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

// InstallPlan is what OLM v0.28's catalog operator creates in a namespace
// for a plan: one InstallPlan holding every step's CSV, and a Subscription
// for each dependency no subscription asks for. It holds plain values, so
// that a tool can review it as a dry run (Manifest writes it as Kubernetes
// objects) and the adapter module can turn it into typed objects.
//
// What OLM fills in only on the cluster is left out: the generated name,
// spec.generation, the owner references to the namespace's subscriptions,
// status.plan (the CRDs, RBAC and other objects unpacked from each bundle
// image) and the bundle lookups' conditions.
type InstallPlan struct {
	Namespace string
	// GenerateName is metadata.generateName, "install-" as OLM sets it.
	GenerateName string
	// Approval is spec.approval: Manual when a subscription of the
	// namespace is Manual, else Automatic; Approved is spec.approved,
	// true exactly for Automatic.
	Approval cluster.Approval
	Approved bool
	// CSVNames is spec.clusterServiceVersionNames, in plan order.
	CSVNames []string
	// Phase is status.phase: RequiresApproval for Manual, Installing for
	// Automatic.
	Phase cluster.InstallPlanPhase
	// CatalogSources is status.catalogSources: the names of the steps'
	// catalogs, sorted.
	CatalogSources []string
	// BundleLookups is status.bundleLookups, one per step in plan order.
	BundleLookups []BundleLookup
	// Subscriptions are the Subscriptions the InstallPlan creates for
	// dependencies, named as OLM names them
	// ("<package>-<channel>-<catalog>-<catalog namespace>"), with the
	// dependency as spec.startingCSV and installPlanApproval Automatic, in
	// plan order.
	Subscriptions []cluster.Subscription
}

// BundleLookup is one bundle an InstallPlan unpacks: its image (Path), its
// CSV (Identifier), the CSV it replaces, its catalog and its properties as
// the operatorframework.io/properties annotation (JSON).
type BundleLookup struct {
	Path             string     `json:"path"`
	Identifier       string     `json:"identifier"`
	Replaces         string     `json:"replaces"`
	CatalogSourceRef CatalogKey `json:"catalogSourceRef"`
	Properties       string     `json:"properties,omitempty"`
}

// InstallPlan returns the InstallPlan OLM would create for the plan: the
// plan's steps that no InstallPlan in flight already holds (see
// Step.Approval), or nil when every step is held by one (OLM creates no
// second InstallPlan for them) or the plan has no step. It returns an
// error for a namespace without a plan.
func (s *Resolution) InstallPlan() (*InstallPlan, error) {
	if s.plan == nil {
		return nil, s.noPlan("install plan")
	}
	return s.r.InstallPlan(s.plan)
}

// InstallPlan returns the InstallPlan OLM would create for plan, whose
// steps are bundles of the resolver's catalogs (an error names a step that
// is not): see Resolution.InstallPlan.
func (r *Resolver) InstallPlan(plan *Plan) (*InstallPlan, error) {
	if plan == nil {
		return nil, errors.New("install plan: no plan")
	}
	ip := &InstallPlan{Namespace: plan.Namespace, GenerateName: "install-", Approval: cluster.ApprovalAutomatic, Approved: true, Phase: cluster.PhaseInstalling}
	if plan.Approval.Mode == cluster.ApprovalManual {
		ip.Approval, ip.Approved, ip.Phase = cluster.ApprovalManual, false, cluster.PhaseRequiresApproval
	}
	for _, st := range plan.Steps {
		if st.Approval.InstallPlan != "" {
			continue
		}
		b, err := r.stepBundle(&st)
		if err != nil {
			return nil, fmt.Errorf("install plan: %w", err)
		}
		props, err := propertiesAnnotation(b.Properties)
		if err != nil {
			return nil, fmt.Errorf("install plan: bundle %q: %w", b.Name, err)
		}
		ip.CSVNames = append(ip.CSVNames, b.Name)
		ip.BundleLookups = append(ip.BundleLookups, BundleLookup{Path: b.Image, Identifier: b.Name, Replaces: st.Replaces, CatalogSourceRef: st.Catalog, Properties: props})
		if !slices.Contains(ip.CatalogSources, st.Catalog.Name) {
			ip.CatalogSources = append(ip.CatalogSources, st.Catalog.Name)
		}
		if st.Dependency {
			ip.Subscriptions = append(ip.Subscriptions, dependencySubscription(plan.Namespace, st))
		}
	}
	if len(ip.CSVNames) == 0 {
		return nil, nil
	}
	slices.Sort(ip.CatalogSources)
	return ip, nil
}

// dependencySubscription is the Subscription OLM creates for a dependency
// step, as its step resolver names and fills it.
func dependencySubscription(ns string, st Step) cluster.Subscription {
	return cluster.Subscription{
		Name:                strings.Join([]string{st.Package, st.Channel, st.Catalog.Name, st.Catalog.Namespace}, "-"),
		Namespace:           ns,
		Package:             st.Package,
		Channel:             st.Channel,
		StartingCSV:         st.Bundle,
		Source:              st.Catalog.Name,
		SourceNamespace:     st.Catalog.Namespace,
		InstallPlanApproval: cluster.ApprovalAutomatic,
	}
}

// propertiesAnnotation encodes properties as OLM's
// operatorframework.io/properties annotation: {"properties":[...]}.
func propertiesAnnotation(props []graph.Property) (string, error) {
	type prop struct {
		Type  string          `json:"type"`
		Value json.RawMessage `json:"value"`
	}
	out := struct {
		Properties []prop `json:"properties,omitempty"`
	}{}
	for _, p := range props {
		out.Properties = append(out.Properties, prop{Type: p.Type, Value: json.RawMessage(cmp.Or(string(p.Value), "null"))})
	}
	b, err := json.Marshal(out)
	return string(b), err
}

// Manifest returns p as Kubernetes objects, ready to be written as YAML or
// JSON: a `kind: List` whose items are the InstallPlan
// (operators.coreos.com/v1alpha1) then its Subscriptions, with the fields
// OLM sets (see InstallPlan). The result is built of maps, slices and
// strings that encoding/json writes in a fixed order.
func (p *InstallPlan) Manifest() map[string]any {
	lookups := make([]any, 0, len(p.BundleLookups))
	for _, l := range p.BundleLookups {
		m := map[string]any{
			"path":             l.Path,
			"identifier":       l.Identifier,
			"replaces":         l.Replaces,
			"catalogSourceRef": map[string]any{"name": l.CatalogSourceRef.Name, "namespace": l.CatalogSourceRef.Namespace},
		}
		if l.Properties != "" {
			m["properties"] = l.Properties
		}
		lookups = append(lookups, m)
	}
	items := []any{map[string]any{
		"apiVersion": cluster.APIGroupV0 + "/v1alpha1",
		"kind":       cluster.KindInstallPlan,
		"metadata":   map[string]any{"generateName": p.GenerateName, "namespace": p.Namespace},
		"spec": map[string]any{
			"approval":                   string(p.Approval),
			"approved":                   p.Approved,
			"clusterServiceVersionNames": slices.Clone(p.CSVNames),
		},
		"status": map[string]any{
			"phase":          string(p.Phase),
			"catalogSources": slices.Clone(p.CatalogSources),
			"bundleLookups":  lookups,
		},
	}}
	for _, s := range p.Subscriptions {
		spec := map[string]any{
			"name":                s.Package,
			"channel":             s.Channel,
			"source":              s.Source,
			"sourceNamespace":     s.SourceNamespace,
			"startingCSV":         s.StartingCSV,
			"installPlanApproval": string(s.InstallPlanApproval),
		}
		items = append(items, map[string]any{
			"apiVersion": cluster.APIGroupV0 + "/v1alpha1",
			"kind":       cluster.KindSubscription,
			"metadata":   map[string]any{"name": s.Name, "namespace": s.Namespace},
			"spec":       spec,
		})
	}
	return map[string]any{"apiVersion": "v1", "kind": "List", "items": items}
}
