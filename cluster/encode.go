package cluster

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/sextantdev/sextant/graph"
)

// Encode writes s as a YAML `kind: List` of Kubernetes manifests — CSVs,
// then Subscriptions, then CatalogSources, then OperatorGroups, then
// InstallPlans, then ClusterExtensions, then ClusterCatalogs, then
// CustomResourceDefinitions, then ClusterVersions, each in the order of s — that
// [Decode] reads back into an equal state. A CSV's provided and required
// APIs with a group are written as CRD definitions named
// "<kind>s.<group>" (lower case), the others as API service definitions.
// An OperatorGroup read from CSV annotations (FromCSVs) is written as the
// group it stands for, and so read back as one the manifests list.
func Encode(w io.Writer, s *State) error {
	items := make([]any, 0, len(s.CSVs)+len(s.Subscriptions)+len(s.CatalogSources)+len(s.OperatorGroups)+len(s.InstallPlans))
	for i := range s.CSVs {
		m, err := csvManifest(&s.CSVs[i])
		if err != nil {
			return err
		}
		items = append(items, m)
	}
	for _, sub := range s.Subscriptions {
		spec := map[string]any{"name": sub.Package}
		setNonEmpty(spec, "channel", sub.Channel)
		setNonEmpty(spec, "startingCSV", sub.StartingCSV)
		setNonEmpty(spec, "source", sub.Source)
		setNonEmpty(spec, "sourceNamespace", sub.SourceNamespace)
		setNonEmpty(spec, "installPlanApproval", string(sub.InstallPlanApproval))
		status := map[string]any{}
		setNonEmpty(status, "installedCSV", sub.InstalledCSV)
		setNonEmpty(status, "currentCSV", sub.CurrentCSV)
		setNonEmpty(status, "state", string(sub.State))
		if sub.InstallPlanRef != "" {
			status["installPlanRef"] = map[string]any{
				"apiVersion": APIGroupV0 + "/v1alpha1", "kind": KindInstallPlan,
				"name": sub.InstallPlanRef, "namespace": sub.Namespace,
			}
		}
		m := manifest(KindSubscription, sub.Namespace, sub.Name)
		if sub.GeneratedBy != "" {
			m["metadata"].(map[string]any)["annotations"] = map[string]any{"olm.generated-by": sub.GeneratedBy}
		}
		m["spec"] = spec
		if len(status) > 0 {
			m["status"] = status
		}
		items = append(items, m)
	}
	for _, cs := range s.CatalogSources {
		m := manifest(KindCatalogSource, cs.Namespace, cs.Name)
		spec := map[string]any{"sourceType": "grpc"}
		if cs.Priority != 0 {
			spec["priority"] = cs.Priority
		}
		setNonEmpty(spec, "image", cs.Image)
		m["spec"] = spec
		if cs.ManagedBy != "" {
			m["metadata"].(map[string]any)["annotations"] = map[string]any{ManagedByAnnotation: cs.ManagedBy}
		}
		items = append(items, m)
	}
	for i := range s.OperatorGroups {
		items = append(items, operatorGroupManifest(&s.OperatorGroups[i]))
	}
	for _, p := range s.InstallPlans {
		m := manifest(KindInstallPlan, p.Namespace, p.Name)
		spec := map[string]any{"approved": p.Approved, "clusterServiceVersionNames": append([]string{}, p.CSVNames...)}
		setNonEmpty(spec, "approval", string(p.Approval))
		m["spec"] = spec
		if p.Phase != "" {
			m["status"] = map[string]any{"phase": string(p.Phase)}
		}
		items = append(items, m)
	}
	for i := range s.ClusterExtensions {
		items = append(items, clusterExtensionManifest(&s.ClusterExtensions[i]))
	}
	for i := range s.ClusterCatalogs {
		items = append(items, clusterCatalogManifest(&s.ClusterCatalogs[i]))
	}
	for i := range s.CRDs {
		items = append(items, crdManifest(&s.CRDs[i]))
	}
	for i := range s.ClusterVersions {
		items = append(items, clusterVersionManifest(&s.ClusterVersions[i]))
	}
	js, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items})
	if err != nil {
		return fmt.Errorf("encode cluster state: %w", err)
	}
	y, err := yaml.JSONToYAML(js)
	if err != nil {
		return fmt.Errorf("encode cluster state: %w", err)
	}
	_, err = w.Write(y)
	return err
}

func manifest(kind, namespace, name string) map[string]any {
	return map[string]any{
		"apiVersion": APIGroupV0 + "/v1alpha1",
		"kind":       kind,
		"metadata":   map[string]any{"name": name, "namespace": namespace},
	}
}

func setNonEmpty(m map[string]any, key, value string) {
	if value != "" {
		m[key] = value
	}
}

func csvManifest(c *CSV) (map[string]any, error) {
	m := manifest(KindCSV, c.Namespace, c.Name)
	spec := map[string]any{}
	setNonEmpty(spec, "version", c.VersionText)
	setNonEmpty(spec, "replaces", c.Replaces)
	setNonEmpty(spec, "minKubeVersion", c.MinKubeVersion)
	if c.InstallModes != nil {
		modes := make([]any, len(c.InstallModes))
		for i, m := range c.InstallModes {
			modes[i] = map[string]any{"type": string(m.Type), "supported": m.Supported}
		}
		spec["installModes"] = modes
	}
	crds, apis := map[string]any{}, map[string]any{}
	addAPIs := func(list string, gvks []graph.GVK) {
		var crdItems, apiItems []any
		for _, g := range gvks {
			_, service := slices.BinarySearchFunc(c.APIServices, g, graph.GVK.Compare)
			if g.Group != "" && !(service && list == "owned") {
				crdItems = append(crdItems, map[string]any{
					"name":    strings.ToLower(g.Kind) + "s." + g.Group,
					"version": g.Version,
					"kind":    g.Kind,
				})
			} else {
				apiItems = append(apiItems, map[string]any{
					"group":   g.Group,
					"version": g.Version,
					"kind":    g.Kind,
					"name":    strings.ToLower(g.Kind) + "s",
				})
			}
		}
		if crdItems != nil {
			crds[list] = crdItems
		}
		if apiItems != nil {
			apis[list] = apiItems
		}
	}
	addAPIs("owned", c.Provides)
	addAPIs("required", c.Requires)
	if len(crds) > 0 {
		spec["customresourcedefinitions"] = crds
	}
	if len(apis) > 0 {
		spec["apiservicedefinitions"] = apis
	}
	m["spec"] = spec
	annotations := map[string]any{}
	if c.Properties != nil {
		props := make([]any, 0, len(c.Properties.List()))
		for _, p := range c.Properties.List() {
			props = append(props, map[string]any{"type": p.Type, "value": json.RawMessage(p.Value)})
		}
		anno, err := json.Marshal(map[string]any{"properties": props})
		if err != nil {
			return nil, fmt.Errorf("encode CSV %q: properties: %w", c.Namespace+"/"+c.Name, err)
		}
		annotations[PropertiesAnnotation] = string(anno)
	}
	setNonEmpty(annotations, OperatorGroupAnnotation, c.Group.Name)
	setNonEmpty(annotations, OperatorNamespaceAnnotation, c.Group.Namespace)
	if c.Group.HasTargets {
		annotations[TargetNamespacesAnnotation] = c.Group.Targets
	}
	if len(annotations) > 0 {
		m["metadata"].(map[string]any)["annotations"] = annotations
	}
	status := map[string]any{}
	setNonEmpty(status, "phase", string(c.Phase))
	if c.Copied {
		status["reason"] = "Copied"
	}
	if len(status) > 0 {
		m["status"] = status
	}
	return m, nil
}

func operatorGroupManifest(g *OperatorGroup) map[string]any {
	m := manifest(KindOperatorGroup, g.Namespace, g.Name)
	m["apiVersion"] = APIGroupV0 + "/v1"
	if len(g.Annotations) > 0 {
		m["metadata"].(map[string]any)["annotations"] = g.Annotations
	}
	spec := map[string]any{}
	if g.TargetNamespaces != nil {
		spec["targetNamespaces"] = g.TargetNamespaces
	}
	if g.Selector != nil {
		sel := map[string]any{}
		if len(g.Selector.MatchLabels) > 0 {
			sel["matchLabels"] = g.Selector.MatchLabels
		}
		if g.Selector.MatchExpressions != nil {
			exprs := make([]any, 0, len(g.Selector.MatchExpressions))
			for _, r := range g.Selector.MatchExpressions {
				e := map[string]any{"key": r.Key, "operator": r.Operator}
				if len(r.Values) > 0 {
					e["values"] = r.Values
				}
				exprs = append(exprs, e)
			}
			sel["matchExpressions"] = exprs
		}
		spec["selector"] = sel
	}
	setNonEmpty(spec, "upgradeStrategy", g.UpgradeStrategy)
	setNonEmpty(spec, "serviceAccountName", g.ServiceAccountName)
	if g.StaticProvidedAPIs {
		spec["staticProvidedAPIs"] = true
	}
	m["spec"] = spec
	if g.StatusNamespaces != nil {
		m["status"] = map[string]any{"namespaces": g.StatusNamespaces}
	}
	return m
}

// clusterExtensionManifest writes a ClusterExtension as
// olm.operatorframework.io/v1 defines it.
func clusterExtensionManifest(e *ClusterExtension) map[string]any {
	cat := map[string]any{"packageName": e.Package}
	setNonEmpty(cat, "version", e.Version)
	if e.Channels != nil {
		cat["channels"] = e.Channels
	}
	if e.Selector != nil {
		cat["selector"] = e.Selector
	}
	setNonEmpty(cat, "upgradeConstraintPolicy", string(e.UpgradeConstraintPolicy))
	spec := map[string]any{
		"namespace": e.Namespace,
		"source":    map[string]any{"sourceType": "Catalog", "catalog": cat},
	}
	if e.ServiceAccount != "" {
		spec["serviceAccount"] = map[string]any{"name": e.ServiceAccount}
	}
	if e.CRDUpgradeSafety != "" {
		spec["install"] = map[string]any{"preflight": map[string]any{"crdUpgradeSafety": map[string]any{"enforcement": e.CRDUpgradeSafety}}}
	}
	if len(e.Config) > 0 {
		spec["config"] = map[string]any{"configType": "Inline", "inline": json.RawMessage(e.Config)}
	}
	m := map[string]any{
		"apiVersion": APIGroupV1 + "/v1", "kind": KindClusterExtension,
		"metadata": map[string]any{"name": e.Name}, "spec": spec,
	}
	if e.Installed != nil {
		m["status"] = map[string]any{"install": map[string]any{"bundle": e.Installed}}
	}
	return m
}

// clusterCatalogManifest writes a ClusterCatalog as
// olm.operatorframework.io/v1 defines it.
func clusterCatalogManifest(c *ClusterCatalog) map[string]any {
	src := map[string]any{"type": "Image"}
	if c.Image != "" {
		src["image"] = map[string]any{"ref": c.Image}
	}
	spec := map[string]any{"source": src}
	if c.Priority != 0 {
		spec["priority"] = c.Priority
	}
	setNonEmpty(spec, "availabilityMode", string(c.AvailabilityMode))
	meta := map[string]any{"name": c.Name}
	if len(c.Labels) > 0 {
		meta["labels"] = c.Labels
	}
	m := map[string]any{"apiVersion": APIGroupV1 + "/v1", "kind": KindClusterCatalog, "metadata": meta, "spec": spec}
	if c.Serving != "" {
		cond := map[string]any{"type": "Serving", "status": c.Serving}
		setNonEmpty(cond, "reason", c.ServingReason)
		m["status"] = map[string]any{"conditions": []any{cond}}
	}
	return m
}

// crdManifest writes a CustomResourceDefinition with what [CRD] holds; its
// plural is the part of its name before the group.
func crdManifest(c *CRD) map[string]any {
	versions := make([]any, len(c.Versions))
	for i, v := range c.Versions {
		versions[i] = map[string]any{"name": v.Name, "served": v.Served, "storage": v.Storage}
	}
	m := map[string]any{
		"apiVersion": crdAPIGroup + "/v1",
		"kind":       KindCRD,
		"metadata":   map[string]any{"name": c.Name},
		"spec": map[string]any{
			"group":    c.Group,
			"names":    map[string]any{"kind": c.Kind, "plural": strings.TrimSuffix(c.Name, "."+c.Group)},
			"versions": versions,
		},
	}
	if c.StoredVersions != nil {
		m["status"] = map[string]any{"storedVersions": append([]string{}, c.StoredVersions...)}
	}
	return m
}
