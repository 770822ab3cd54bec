package cluster

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/sextantdev/sextant/graph"
)

// KindOperatorGroup is the kind of an OperatorGroup (operators.coreos.com/v1).
const KindOperatorGroup = "OperatorGroup"

// Annotations of an OperatorGroup that OLM reads.
const (
	// ExcludeGlobalCatalogsAnnotation set to "true" on a namespace's
	// OperatorGroup removes the catalogs of the global catalog namespace
	// from that namespace's resolution; any other value leaves them in.
	ExcludeGlobalCatalogsAnnotation = "olm.operatorframework.io/exclude-global-namespace-resolution"
	// ProvidedAPIsAnnotation lists the APIs the operators of the group
	// provide, as OLM maintains it: "Kind.version.group" entries separated
	// by commas.
	ProvidedAPIsAnnotation = "olm.providedAPIs"
)

// The upgrade strategies of spec.upgradeStrategy.
const (
	// UpgradeStrategyDefault lets a CSV be replaced only once it has
	// succeeded. An OperatorGroup that names no strategy has this one.
	UpgradeStrategyDefault = "Default"
	// UpgradeStrategyUnsafeFailForward also lets a failed CSV (or a failed
	// InstallPlan) be replaced by the next upgrade: OLM's fail-forward.
	UpgradeStrategyUnsafeFailForward = "TechPreviewUnsafeFailForward"
)

// OperatorGroup is an OperatorGroup (operators.coreos.com/v1): it chooses
// the namespaces the operators installed in its namespace watch, and how
// they are upgraded. OLM's catalog operator resolves a namespace only when
// it holds exactly one OperatorGroup. The zero value is a plain group with
// no name: no annotations, no target namespaces, no selector (which OLM
// reads as all namespaces), the Default upgrade strategy.
type OperatorGroup struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
	// Annotations holds every annotation of metadata.annotations (nil when
	// there are none); see [ExcludeGlobalCatalogsAnnotation] and
	// [ProvidedAPIsAnnotation] for the ones OLM reads.
	Annotations map[string]string `json:"annotations,omitempty"`
	// TargetNamespaces is spec.targetNamespaces as written (nil when
	// absent). When it is set, OLM ignores Selector.
	TargetNamespaces []string `json:"targetNamespaces,omitempty"`
	// Selector is spec.selector, nil when absent.
	Selector *LabelSelector `json:"selector,omitempty"`
	// UpgradeStrategy is spec.upgradeStrategy as written: empty,
	// [UpgradeStrategyDefault] or [UpgradeStrategyUnsafeFailForward] (Decode
	// rejects any other value, as the API server does). Empty means
	// Default; see [OperatorGroup.Strategy].
	UpgradeStrategy string `json:"upgradeStrategy,omitempty"`
	// ServiceAccountName is spec.serviceAccountName: the service account
	// OLM installs the group's operators with, scoping what they may do
	// ("" when absent: OLM's own, unscoped).
	ServiceAccountName string `json:"serviceAccountName,omitempty"`
	// StaticProvidedAPIs is spec.staticProvidedAPIs: OLM does not update
	// the olm.providedAPIs annotation of the group.
	StaticProvidedAPIs bool `json:"staticProvidedAPIs,omitempty"`
	// StatusNamespaces is status.namespaces, the target namespaces OLM last
	// computed for the group (nil when absent). The entry "" means all
	// namespaces.
	StatusNamespaces []string `json:"statusNamespaces,omitempty"`
	// FromCSVs reports a group no manifest lists, read from the annotations
	// of its namespace's CSVs by [State.InferOperatorGroups]: StatusNamespaces
	// holds their olm.targetNamespaces. [Encode] writes it as a group of
	// the manifests.
	FromCSVs bool `json:"fromCSVs,omitempty"`
}

// LabelSelector is a Kubernetes label selector: every MatchLabels pair and
// every MatchExpressions requirement must hold. The zero value selects
// everything.
type LabelSelector struct {
	// MatchLabels is nil when absent.
	MatchLabels map[string]string `json:"matchLabels,omitempty"`
	// MatchExpressions is in the order written.
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

// LabelSelectorRequirement is one requirement of a label selector.
type LabelSelectorRequirement struct {
	Key string `json:"key"`
	// Operator is In, NotIn, Exists or DoesNotExist.
	Operator string `json:"operator"`
	// Values is non-empty for In and NotIn and empty otherwise: Decode
	// checks it for an OperatorGroup; a ClusterExtension's selector is
	// read as written ([LabelSelector.Validate] says what is wrong).
	Values []string `json:"values,omitempty"`
}

// The operators of a [LabelSelectorRequirement].
const (
	SelectorOpIn           = "In"
	SelectorOpNotIn        = "NotIn"
	SelectorOpExists       = "Exists"
	SelectorOpDoesNotExist = "DoesNotExist"
)

// Matches reports whether labels satisfy the selector. A nil selector
// matches nothing, as in Kubernetes; an empty one matches everything.
func (s *LabelSelector) Matches(labels map[string]string) bool {
	if s == nil {
		return false
	}
	for k, v := range s.MatchLabels {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	for _, r := range s.MatchExpressions {
		got, ok := labels[r.Key]
		switch r.Operator {
		case SelectorOpIn:
			if !ok || !slices.Contains(r.Values, got) {
				return false
			}
		case SelectorOpNotIn:
			if ok && slices.Contains(r.Values, got) {
				return false
			}
		case SelectorOpExists:
			if !ok {
				return false
			}
		case SelectorOpDoesNotExist:
			if ok {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// Strategy returns the upgrade strategy in force: UpgradeStrategy, or
// [UpgradeStrategyDefault] when it is empty.
func (g *OperatorGroup) Strategy() string {
	if g.UpgradeStrategy == "" {
		return UpgradeStrategyDefault
	}
	return g.UpgradeStrategy
}

// ExcludesGlobalCatalogs reports whether the group carries
// [ExcludeGlobalCatalogsAnnotation] set to exactly "true", as OLM tests it.
func (g *OperatorGroup) ExcludesGlobalCatalogs() bool {
	return g.Annotations[ExcludeGlobalCatalogsAnnotation] == "true"
}

// ProvidedAPIs parses the [ProvidedAPIsAnnotation] of the group as OLM
// does: spaces are dropped, entries are separated by commas, and each entry
// is Kind.version.group (the group is everything after the second dot). The
// APIs come sorted by group, version and kind without duplicates; entries
// with fewer than two dots, which OLM skips, are returned in malformed in
// the order written. Both are nil when the annotation is absent or empty.
func (g *OperatorGroup) ProvidedAPIs() (apis []graph.GVK, malformed []string) {
	text := strings.ReplaceAll(g.Annotations[ProvidedAPIsAnnotation], " ", "")
	if text == "" {
		return nil, nil
	}
	for _, entry := range strings.Split(text, ",") {
		parts := strings.SplitN(entry, ".", 3)
		if len(parts) < 3 {
			if entry != "" {
				malformed = append(malformed, entry)
			}
			continue
		}
		apis = append(apis, graph.GVK{Kind: parts[0], Version: parts[1], Group: parts[2]})
	}
	return sortGVKs(apis), malformed
}

// OperatorGroupsIn returns the OperatorGroups of s in namespace, in the
// order of s. The result points into s.
func (s *State) OperatorGroupsIn(namespace string) []*OperatorGroup {
	var out []*OperatorGroup
	for i := range s.OperatorGroups {
		if g := &s.OperatorGroups[i]; g.Namespace == namespace {
			out = append(out, g)
		}
	}
	return out
}

func cloneOperatorGroup(g OperatorGroup) OperatorGroup {
	g.Annotations = maps.Clone(g.Annotations)
	g.TargetNamespaces = slices.Clone(g.TargetNamespaces)
	g.StatusNamespaces = slices.Clone(g.StatusNamespaces)
	if g.Selector != nil {
		g.Selector = cloneSelector(g.Selector)
	}
	return g
}

// cloneSelector returns a deep copy of s.
func cloneSelector(s *LabelSelector) *LabelSelector {
	sel := &LabelSelector{MatchLabels: maps.Clone(s.MatchLabels)}
	if s.MatchExpressions != nil {
		sel.MatchExpressions = make([]LabelSelectorRequirement, len(s.MatchExpressions))
		for i, r := range s.MatchExpressions {
			r.Values = slices.Clone(r.Values)
			sel.MatchExpressions[i] = r
		}
	}
	return sel
}

// operatorGroup reads an OperatorGroup; n is the error count before the
// object, so that an object with errors is not kept.
func (d *decoder) operatorGroup(o *object, n int, meta, spec, status map[string]any) {
	g := OperatorGroup{Name: o.name, Namespace: o.namespace}
	if annotations, ok := o.obj(meta, "annotations", "metadata.annotations"); ok {
		g.Annotations = o.stringMap(annotations, "metadata.annotations")
	}
	g.TargetNamespaces, _ = o.strs(spec, "targetNamespaces", "spec.targetNamespaces")
	if sel, ok := o.obj(spec, "selector", "spec.selector"); ok {
		g.Selector = o.labelSelector(sel, "spec.selector")
	}
	if raw, present := spec["upgradeStrategy"]; present && raw != nil {
		s, ok := raw.(string)
		switch {
		case !ok:
			o.errorf("spec.upgradeStrategy", "is %s, want a string (%s or %s)", kindOf(raw), UpgradeStrategyDefault, UpgradeStrategyUnsafeFailForward)
		case s != UpgradeStrategyDefault && s != UpgradeStrategyUnsafeFailForward:
			o.errorf("spec.upgradeStrategy", "unknown strategy %q, want %s or %s", s, UpgradeStrategyDefault, UpgradeStrategyUnsafeFailForward)
		default:
			g.UpgradeStrategy = s
		}
	}
	if raw, present := spec["staticProvidedAPIs"]; present && raw != nil {
		g.StaticProvidedAPIs, _ = as[bool](o, raw, "spec.staticProvidedAPIs")
	}
	g.ServiceAccountName, _ = o.str(spec, "serviceAccountName", "spec.serviceAccountName")
	g.StatusNamespaces, _ = o.strs(status, "namespaces", "status.namespaces")
	if d.nerrs() == n {
		d.state.OperatorGroups = append(d.state.OperatorGroups, g)
	}
}

// labelSelector reads a metav1.LabelSelector at field.
func (o *object) labelSelector(m map[string]any, field string) *LabelSelector {
	sel := &LabelSelector{}
	if labels, ok := o.obj(m, "matchLabels", field+".matchLabels"); ok {
		sel.MatchLabels = o.stringMap(labels, field+".matchLabels")
	}
	exprs, _ := o.arr(m, "matchExpressions", field+".matchExpressions")
	if exprs != nil {
		sel.MatchExpressions = []LabelSelectorRequirement{}
	}
	for i, raw := range exprs {
		f := fmt.Sprintf("%s.matchExpressions[%d]", field, i)
		e, ok := as[map[string]any](o, raw, f)
		if !ok {
			continue
		}
		var r LabelSelectorRequirement
		var ok1, ok2, ok3 bool
		r.Key, ok1 = o.str(e, "key", f+".key")
		r.Operator, ok2 = o.str(e, "operator", f+".operator")
		r.Values, ok3 = o.strs(e, "values", f+".values")
		if !ok1 || !ok2 || !ok3 {
			continue
		}
		if r.Key == "" {
			o.errorf(f+".key", "missing")
		}
		switch r.Operator {
		case SelectorOpIn, SelectorOpNotIn:
			if len(r.Values) == 0 {
				o.errorf(f+".values", "missing: operator %s needs at least one value", r.Operator)
			}
		case SelectorOpExists, SelectorOpDoesNotExist:
			if len(r.Values) > 0 {
				o.errorf(f+".values", "operator %s takes no values", r.Operator)
			}
			r.Values = nil
		case "":
			o.errorf(f+".operator", "missing")
		default:
			o.errorf(f+".operator", "unknown operator %q, want In, NotIn, Exists or DoesNotExist", r.Operator)
		}
		sel.MatchExpressions = append(sel.MatchExpressions, r)
	}
	return sel
}

// stringMap reads an object whose values are all strings (labels,
// annotations); nil when it is empty.
func (o *object) stringMap(m map[string]any, field string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		raw := m[k]
		s, ok := as[string](o, raw, field+"["+strconv.Quote(k)+"]")
		if !ok {
			continue
		}
		out[k] = s
	}
	return out
}

// strs returns the string array field key of m (absent or null: nil).
func (o *object) strs(m map[string]any, key, field string) ([]string, bool) {
	if raw, present := m[key]; !present || raw == nil {
		return nil, true
	}
	items, ok := o.arr(m, key, field)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(items))
	good := true
	for i, it := range items {
		s, ok := as[string](o, it, fmt.Sprintf("%s[%d]", field, i))
		if !ok {
			good = false
			continue
		}
		out = append(out, s)
	}
	return out, good
}

// OperatorGroupError reports a namespace that does not have exactly one
// OperatorGroup in a state that holds OperatorGroups: OLM's catalog
// operator does not resolve the subscriptions of such a namespace (it
// reports "found N operatorGroups, expected 1" and waits).
type OperatorGroupError struct {
	Namespace string
	// Groups names the namespace's OperatorGroups, sorted; empty when it
	// has none.
	Groups []string
}

// Error says what is wrong and what to change.
func (e *OperatorGroupError) Error() string {
	if len(e.Groups) == 0 {
		return fmt.Sprintf("namespace %q has no OperatorGroup, and OLM resolves a namespace's subscriptions only when it has exactly one "+
			"(the manifests hold OperatorGroups of other namespaces, so this one is not taken as merely unlisted); "+
			"add one, e.g. apiVersion: operators.coreos.com/v1, kind: OperatorGroup, metadata: {name: %s, namespace: %s}, "+
			"with spec.targetNamespaces naming the namespaces its operators watch (none: all namespaces)", e.Namespace, e.Namespace, e.Namespace)
	}
	quoted := make([]string, len(e.Groups))
	for i, g := range e.Groups {
		quoted[i] = strconv.Quote(g)
	}
	return fmt.Sprintf("namespace %q has %d OperatorGroups (%s), and OLM resolves a namespace's subscriptions only when it has exactly one; "+
		"keep one of them and delete the others", e.Namespace, len(e.Groups), strings.Join(quoted, ", "))
}

// NamespaceOperatorGroup returns the OperatorGroup of namespace, as OLM's
// catalog operator needs it before it resolves the namespace: its only
// OperatorGroup. When the manifests list no OperatorGroup at all — listed
// without them, as `kubectl get csv,sub,catsrc` prints them — it returns
// the group [State.InferOperatorGroups] read from the namespace's CSVs if
// there is one, else a plain group (the zero OperatorGroup, in namespace,
// without a name) and assumed is true. Otherwise a namespace with none or several is an
// *OperatorGroupError. Unless assumed, the group points into s.
func (s *State) NamespaceOperatorGroup(namespace string) (g *OperatorGroup, assumed bool, err error) {
	groups := s.OperatorGroupsIn(namespace)
	if !s.ListsOperatorGroups() {
		if len(groups) == 1 {
			return groups[0], false, nil // read from the CSVs' annotations
		}
		return &OperatorGroup{Namespace: namespace}, true, nil
	}
	if len(groups) == 1 {
		return groups[0], false, nil
	}
	e := &OperatorGroupError{Namespace: namespace}
	for _, g := range groups {
		e.Groups = append(e.Groups, g.Name)
	}
	slices.Sort(e.Groups)
	return nil, false, e
}
