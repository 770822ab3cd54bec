package cluster

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The annotations OLM's olm-operator puts on every CSV it installs under
// an OperatorGroup.
const (
	// OperatorGroupAnnotation names the OperatorGroup.
	OperatorGroupAnnotation = "olm.operatorGroup"
	// OperatorNamespaceAnnotation names the OperatorGroup's namespace (on
	// a copy, the namespace of the original CSV).
	OperatorNamespaceAnnotation = "olm.operatorNamespace"
	// TargetNamespacesAnnotation lists the group's target namespaces,
	// comma-separated; empty means all namespaces.
	TargetNamespacesAnnotation = "olm.targetNamespaces"
)

// CSVGroup is what a CSV's annotations say of the OperatorGroup that OLM
// installed it under ([OperatorGroupAnnotation], [OperatorNamespaceAnnotation],
// [TargetNamespacesAnnotation]). The zero value says nothing.
type CSVGroup struct {
	// Name is the group's name; "" when the CSV has no olm.operatorGroup
	// annotation.
	Name string `json:"name,omitempty"`
	// Namespace is the group's namespace as annotated ("" when absent).
	Namespace string `json:"namespace,omitempty"`
	// Targets is olm.targetNamespaces as written, when HasTargets: ""
	// means all namespaces.
	Targets    string `json:"targets,omitempty"`
	HasTargets bool   `json:"hasTargets,omitempty"`
}

// targetList returns the target namespaces of the annotation, as OLM
// writes status.namespaces: [""] for all namespaces.
func (g CSVGroup) targetList() []string {
	var out []string
	for _, ns := range strings.Split(g.Targets, ",") {
		if ns = strings.TrimSpace(ns); ns != "" {
			out = append(out, ns)
		}
	}
	if len(out) == 0 {
		return []string{""}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// ListsOperatorGroups reports whether s holds an OperatorGroup of the
// manifests (not one [State.InferOperatorGroups] read from CSVs).
func (s *State) ListsOperatorGroups() bool {
	for i := range s.OperatorGroups {
		if !s.OperatorGroups[i].FromCSVs {
			return true
		}
	}
	return false
}

// InferOperatorGroups reads, when the manifests list no OperatorGroup —
// `kubectl get csv,sub,catsrc` prints none — the OperatorGroups that the
// installed CSVs' annotations name, and adds them to s.OperatorGroups with
// FromCSVs set: one per namespace whose CSVs (copies aside) carry
// olm.operatorGroup and olm.targetNamespaces with olm.operatorNamespace
// naming their own namespace, all naming the same group and targets. Its
// target namespaces are the annotation's, as status.namespaces (all
// namespaces when it is empty); its olm.providedAPIs are unknown, so the
// CSVs' APIs stand for them. A namespace whose CSVs say nothing keeps no
// group (resolution assumes a plain one, see [State.NamespaceOperatorGroup]);
// one whose CSVs disagree keeps none either, and is returned, one
// Disagreement per namespace, by namespace. When s lists an OperatorGroup, or
// has already been inferred, nothing changes and nil is returned.
func (s *State) InferOperatorGroups() []GroupDisagreement {
	if len(s.OperatorGroups) > 0 {
		return nil
	}
	var disagree []GroupDisagreement
	type seen struct {
		g   CSVGroup
		csv string
	}
	byNS := map[string][]seen{}
	var order []string
	for i := range s.CSVs {
		c := &s.CSVs[i]
		if c.Copied || c.Group.Name == "" || !c.Group.HasTargets || (c.Group.Namespace != "" && c.Group.Namespace != c.Namespace) {
			continue
		}
		if _, ok := byNS[c.Namespace]; !ok {
			order = append(order, c.Namespace)
		}
		byNS[c.Namespace] = append(byNS[c.Namespace], seen{c.Group, c.Name})
	}
	slices.Sort(order)
	for _, ns := range order {
		csvs := byNS[ns]
		first := csvs[0]
		agree := true
		for _, x := range csvs[1:] {
			if x.g.Name != first.g.Name || !slices.Equal(x.g.targetList(), first.g.targetList()) {
				agree = false
				disagree = append(disagree, GroupDisagreement{Namespace: ns, CSVs: [2]string{first.csv, x.csv}, Groups: [2]CSVGroup{first.g, x.g}})
				break
			}
		}
		if agree {
			s.OperatorGroups = append(s.OperatorGroups, OperatorGroup{Name: first.g.Name, Namespace: ns, StatusNamespaces: first.g.targetList(), FromCSVs: true})
		}
	}
	return disagree
}

// GroupDisagreement is a namespace whose CSVs name different
// OperatorGroups in their annotations: no group is read from them
// ([State.InferOperatorGroups]).
type GroupDisagreement struct {
	Namespace string
	// CSVs are the first CSV of the namespace that names a group and the
	// first that names another; Groups what each names.
	CSVs   [2]string
	Groups [2]CSVGroup
}

// String says it in words: "namespace NS: CSVs a and b name different
// OperatorGroups in their annotations (…): no group is read from them".
func (d GroupDisagreement) String() string {
	return fmt.Sprintf("namespace %s: CSVs %s and %s name different OperatorGroups in their annotations (%s, %s): no group is read from them",
		d.Namespace, d.CSVs[0], d.CSVs[1], describeCSVGroup(d.Groups[0]), describeCSVGroup(d.Groups[1]))
}

// describeCSVGroup names a group as annotated: `global-operators
// targeting all namespaces`, `og targeting a, b`.
func describeCSVGroup(g CSVGroup) string {
	t := g.targetList()
	if len(t) == 1 && t[0] == "" {
		return strconv.Quote(g.Name) + " targeting all namespaces"
	}
	return strconv.Quote(g.Name) + " targeting " + strings.Join(t, ", ")
}

// CatalogNamespaces returns, sorted, the namespaces where the manifests
// point for catalogs that serve other namespaces: those of the
// CatalogSources, and the spec.sourceNamespace of every subscription that
// names another namespace than its own — but the namespaces that hold
// subscriptions, whose CatalogSources may be their own. On OpenShift it
// is openshift-marketplace alone: the global catalog namespace.
func (s *State) CatalogNamespaces() []string {
	subNS := map[string]bool{}
	for _, sub := range s.Subscriptions {
		subNS[sub.Namespace] = true
	}
	var out []string
	for _, sub := range s.Subscriptions {
		if sub.SourceNamespace != "" && sub.SourceNamespace != sub.Namespace {
			out = append(out, sub.SourceNamespace)
		}
	}
	for _, cs := range s.CatalogSources {
		if !subNS[cs.Namespace] {
			out = append(out, cs.Namespace)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
