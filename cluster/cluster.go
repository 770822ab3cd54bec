// Package cluster holds the cluster state that resolution starts from —
// installed ClusterServiceVersions, Subscriptions, CatalogSources,
// OperatorGroups and InstallPlans of OLM v0, ClusterExtensions and
// ClusterCatalogs of OLM v1, CustomResourceDefinitions, and OpenShift's
// ClusterVersion — as plain Go values, and decodes it from Kubernetes
// manifests as `kubectl get csv,sub,catsrc,og,ip,crd -o yaml` (or -o json,
// or `kubectl get clusterextensions,clustercatalogs`, or `kubectl get
// clusterversion`) prints them.
//
// The package has no Kubernetes API dependencies: manifests are converted to
// JSON with sigs.k8s.io/yaml and checked field by field, so that a field of
// the wrong type is reported with the file, the object and the field path.
package cluster

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/internal/suggest"

	"github.com/sextantdev/sextant/graph"
)

// PropertiesAnnotation is the CSV annotation in which OLM projects a bundle's
// properties onto the CSV it installs. When a CSV carries it, its properties
// replace the ones derived from the CSV's CRD and API service definitions.
const PropertiesAnnotation = "operatorframework.io/properties"

// CSV is an installed ClusterServiceVersion: an operator version present in
// a namespace. The zero value is a CSV with no name.
type CSV struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
	// Version is spec.version, parsed tolerantly (v1.2 → 1.2.0);
	// VersionText is the text as written (empty when spec.version is
	// absent, in which case Version is the zero version).
	Version     semver.Version `json:"-"`
	VersionText string         `json:"version,omitempty"`
	// Provides lists the APIs of spec.customresourcedefinitions.owned and
	// spec.apiservicedefinitions.owned; Requires those of the required
	// lists. A CRD named "plural.group" gives the group after the first dot.
	// Both are sorted by group, version, kind, without duplicates.
	Provides []graph.GVK `json:"provides,omitempty"`
	Requires []graph.GVK `json:"requires,omitempty"`
	// APIServices lists the APIs of spec.apiservicedefinitions.owned
	// alone (they are in Provides too), sorted: APIs the operator serves
	// through an aggregated API server of its own.
	APIServices []graph.GVK `json:"apiServices,omitempty"`
	// Properties is the operatorframework.io/properties annotation, read;
	// nil when the CSV has none. When it is not nil, its properties
	// replace, as in OLM, everything derived from Provides and Requires.
	Properties *CSVProperties `json:"properties,omitempty"`
	// InstallModes is spec.installModes in the order written; nil when
	// the CSV has none (an empty list is not nil). Resolution predicts
	// from it whether OLM accepts the CSV under its OperatorGroup.
	InstallModes []graph.InstallMode `json:"installModes,omitempty"`
	// MinKubeVersion is spec.minKubeVersion as written ("" when absent).
	MinKubeVersion string `json:"minKubeVersion,omitempty"`
	// Phase is status.phase, e.g. CSVPhaseSucceeded; empty when OLM has
	// not recorded one.
	Phase CSVPhase `json:"phase,omitempty"`
	// Replaces is spec.replaces. It is informational only: upgrade edges
	// come from catalogs.
	Replaces string `json:"replaces,omitempty"`
	// Copied reports a copy OLM makes of a CSV in every namespace an
	// operator group targets (status.reason "Copied", the label
	// olm.copiedFrom, or an olm.operatorNamespace annotation naming another
	// namespace). Resolution ignores copies, as OLM does.
	Copied bool `json:"copied,omitempty"`
	// Group is what the CSV's olm.operatorGroup, olm.operatorNamespace and
	// olm.targetNamespaces annotations say of its OperatorGroup.
	Group CSVGroup `json:"group,omitzero"`
}

// Subscription asks for a package from a catalog, on a channel. The zero
// value is a subscription to nothing.
type Subscription struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
	// Package is spec.name.
	Package string `json:"package"`
	// Channel is spec.channel; empty means every channel of the package,
	// the default channel preferred.
	Channel     string `json:"channel,omitempty"`
	StartingCSV string `json:"startingCSV,omitempty"`
	// Source and SourceNamespace name the catalog (spec.source and
	// spec.sourceNamespace). Both empty means any catalog; Decode rejects a
	// subscription that sets one without the other.
	Source          string `json:"source,omitempty"`
	SourceNamespace string `json:"sourceNamespace,omitempty"`
	// InstalledCSV and CurrentCSV are status.installedCSV and
	// status.currentCSV.
	InstalledCSV string `json:"installedCSV,omitempty"`
	CurrentCSV   string `json:"currentCSV,omitempty"`
	// InstallPlanApproval is spec.installPlanApproval; empty means
	// Automatic, as in OLM.
	InstallPlanApproval Approval `json:"installPlanApproval,omitempty"`
	// State is status.state: one of the SubscriptionState constants, or
	// empty when OLM has not recorded one.
	State SubscriptionState `json:"state,omitempty"`
	// GeneratedBy is the annotation olm.generated-by: the InstallPlan that
	// created the subscription for a dependency ("" for a subscription a
	// person created).
	GeneratedBy string `json:"generatedBy,omitempty"`
	// InstallPlanRef is the name of the InstallPlan that status.installPlanRef
	// (or the older status.installplan) names, in the subscription's
	// namespace.
	InstallPlanRef string `json:"installPlanRef,omitempty"`
}

// Manual reports whether the subscription's upgrades wait for a person to
// approve their InstallPlan.
func (s *Subscription) Manual() bool { return s.InstallPlanApproval == ApprovalManual }

// Approval is how an InstallPlan is approved: a Subscription's
// spec.installPlanApproval, an InstallPlan's spec.approval.
type Approval string

// The approvals OLM knows.
const (
	// ApprovalAutomatic: OLM runs the InstallPlan as soon as it exists.
	ApprovalAutomatic Approval = "Automatic"
	// ApprovalManual: the InstallPlan waits until spec.approved is true.
	ApprovalManual Approval = "Manual"
)

// SubscriptionState is a Subscription's status.state.
type SubscriptionState string

// The subscription states OLM records.
const (
	// StateUpgradeAvailable: a newer CSV is in the catalog.
	StateUpgradeAvailable SubscriptionState = "UpgradeAvailable"
	// StateUpgradePending: an InstallPlan for currentCSV exists and has not
	// finished (it may wait for approval).
	StateUpgradePending SubscriptionState = "UpgradePending"
	// StateAtLatestKnown: currentCSV exists in the namespace.
	StateAtLatestKnown SubscriptionState = "AtLatestKnown"
	// StateUpgradeFailed: the InstallPlan failed and the operator group
	// allows failing forward.
	StateUpgradeFailed SubscriptionState = "UpgradeFailed"
)

// CSVPhase is a ClusterServiceVersion's status.phase. The API server takes
// any string there, so a phase OLM does not record is kept as it is.
type CSVPhase string

// The CSV phases OLM records (operator-framework/api's
// ClusterServiceVersionPhase).
const (
	CSVPhasePending      CSVPhase = "Pending"
	CSVPhaseInstallReady CSVPhase = "InstallReady"
	CSVPhaseInstalling   CSVPhase = "Installing"
	CSVPhaseSucceeded    CSVPhase = "Succeeded"
	CSVPhaseFailed       CSVPhase = "Failed"
	CSVPhaseUnknown      CSVPhase = "Unknown"
	CSVPhaseReplacing    CSVPhase = "Replacing"
	CSVPhaseDeleting     CSVPhase = "Deleting"
)

// InstallPlanPhase is an InstallPlan's status.phase.
type InstallPlanPhase string

// The InstallPlan phases OLM records.
const (
	PhasePlanning         InstallPlanPhase = "Planning"
	PhaseRequiresApproval InstallPlanPhase = "RequiresApproval"
	PhaseInstalling       InstallPlanPhase = "Installing"
	PhaseComplete         InstallPlanPhase = "Complete"
	PhaseFailed           InstallPlanPhase = "Failed"
)

// InstallPlan is a set of CSVs OLM installs together, in one namespace,
// once the plan is approved. The zero value is an empty plan.
type InstallPlan struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
	// Approval is spec.approval (Automatic or Manual), Approved
	// spec.approved.
	Approval Approval `json:"approval,omitempty"`
	Approved bool     `json:"approved,omitempty"`
	// CSVNames is spec.clusterServiceVersionNames, in the manifest's order.
	CSVNames []string `json:"clusterServiceVersionNames,omitempty"`
	// Phase is status.phase; empty when OLM has not recorded one.
	Phase InstallPlanPhase `json:"phase,omitempty"`
}

// Waiting reports whether the plan waits for approval: Manual, not
// approved, and not finished.
func (p *InstallPlan) Waiting() bool {
	return p.Approval == ApprovalManual && !p.Approved && !p.Done()
}

// Done reports whether the plan has finished, completed or failed.
func (p *InstallPlan) Done() bool { return p.Phase == PhaseComplete || p.Phase == PhaseFailed }

// CatalogSource gives a catalog its identity (namespace/name) and its
// priority: higher is preferred, 0 by default.
type CatalogSource struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
	Priority  int    `json:"priority,omitempty"`
	// Image is spec.image, the catalog image OLM serves the catalog from;
	// empty for a CatalogSource with none (one that names a gRPC
	// address, or a ConfigMap).
	Image string `json:"image,omitempty"`
	// ManagedBy is the annotation operatorframework.io/managed-by
	// ([ManagedByAnnotation]): "marketplace-operator" on the default
	// CatalogSources OpenShift's marketplace operator keeps, whose image
	// follows the cluster's minor version ("" when absent).
	ManagedBy string `json:"managedBy,omitempty"`
}

// ManagedByAnnotation is the annotation OpenShift's marketplace operator
// puts on the default CatalogSources it manages, with the value
// "marketplace-operator".
const ManagedByAnnotation = "operatorframework.io/managed-by"

// State is the cluster state of one or more namespaces. Decode and LoadFiles
// return the slices sorted by namespace then name; code that builds a State
// by hand may leave them in any order. A State is a plain value: the caller
// owns it, and functions that take one do not modify it.
type State struct {
	CSVs           []CSV           `json:"csvs,omitempty"`
	Subscriptions  []Subscription  `json:"subscriptions,omitempty"`
	CatalogSources []CatalogSource `json:"catalogSources,omitempty"`
	// OperatorGroups are the OperatorGroups of the manifests. A State with
	// none at all stands for manifests that did not list OperatorGroups
	// (`kubectl get csv,sub,catsrc`), not for a cluster without any.
	OperatorGroups []OperatorGroup `json:"operatorGroups,omitempty"`
	InstallPlans   []InstallPlan   `json:"installPlans,omitempty"`
	// ClusterExtensions and ClusterCatalogs are the OLM v1 objects of the
	// manifests, cluster-scoped: sorted by name.
	ClusterExtensions []ClusterExtension `json:"clusterExtensions,omitempty"`
	ClusterCatalogs   []ClusterCatalog   `json:"clusterCatalogs,omitempty"`
	// CRDs are the CustomResourceDefinitions of the manifests (`kubectl
	// get crd`), sorted by name. Without them, the stored-versions
	// prediction is not made.
	CRDs []CRD `json:"crds,omitempty"`
	// ClusterVersions are OpenShift's ClusterVersion objects of the
	// manifests (`kubectl get clusterversion`), sorted by name: a cluster
	// has one, named "version".
	ClusterVersions []ClusterVersion `json:"clusterVersions,omitempty"`
	// CustomResources are the objects of kinds CRDs define (see
	// [CustomResource]): Decode keeps every candidate, ClaimCustomResources
	// those a CRD of the state or an installed CSV defines, sorted by
	// group, kind and key. Resolution validates them against the CRDs a
	// step would replace. [Encode] writes none of them.
	CustomResources []CustomResource `json:"customResources,omitempty"`
	// Notes are what the API server or OLM's controllers would change in
	// the objects read without a word (a cluster-scoped object's namespace
	// cleared, say), in the order read.
	Notes []Note `json:"notes,omitempty"`
	// Ignored counts, by kind, the objects of the input that resolution
	// does not read (Decode's note of what it skipped), sorted by group
	// then kind. Resolution never looks at it; [Encode] writes none of
	// these objects.
	Ignored []Ignored `json:"ignored,omitempty"`
}

// Ignored is a number of objects of one kind that Decode did not read.
type Ignored struct {
	// Group is the API group of the objects ("" for the core group, and
	// for objects without apiVersion).
	Group string `json:"group,omitempty"`
	Kind  string `json:"kind"`
	Count int    `json:"count"`
}

// String returns "2 Deployment"; a kind Decode reads, seen in another API
// group, is qualified by its group: "1 Subscription.messaging.knative.dev";
// a kind that is likely a misspelt one Decode reads says which:
// `1 Subscribtion (did you mean "Subscription"?)`.
func (ig Ignored) String() string {
	kind := ig.Kind
	if ig.Group != "" && slices.Contains(readKinds, ig.Kind) {
		kind += "." + ig.Group
	}
	return strconv.Itoa(ig.Count) + " " + kind + suggest.Message(ig.Kind, readKinds)
}

// IgnoredText returns the ignored objects of s as one line, "2 Deployment,
// 1 Secret" (most numerous first, then by name), or "" when there are none.
func (s *State) IgnoredText() string {
	igs := slices.Clone(s.Ignored)
	slices.SortStableFunc(igs, func(a, b Ignored) int { return cmp.Compare(b.Count, a.Count) })
	parts := make([]string, len(igs))
	for i, ig := range igs {
		parts[i] = ig.String()
	}
	return strings.Join(parts, ", ")
}

// ignore counts one object of group and kind in s.Ignored, keeping it
// sorted.
func (s *State) ignore(group, kind string) {
	s.AddIgnored(Ignored{Group: group, Kind: kind, Count: 1})
}

// AddIgnored adds the counts of igs to s.Ignored, keeping it sorted by
// group then kind, one entry per kind. It merges the notes of several
// decoded states.
func (s *State) AddIgnored(igs ...Ignored) {
	for _, ig := range igs {
		i, found := slices.BinarySearchFunc(s.Ignored, ig, compareIgnored)
		if found {
			s.Ignored[i].Count += ig.Count
			continue
		}
		s.Ignored = slices.Insert(s.Ignored, i, ig)
	}
}

func compareIgnored(a, b Ignored) int {
	return cmp.Or(cmp.Compare(a.Group, b.Group), cmp.Compare(a.Kind, b.Kind))
}

// Sort sorts every slice of s by namespace then name (the cluster-scoped
// kinds by name).
func (s *State) Sort() {
	sortByKey(s.CSVs, csvKey)
	sortByKey(s.Subscriptions, subscriptionKey)
	sortByKey(s.CatalogSources, catalogSourceKey)
	sortByKey(s.OperatorGroups, operatorGroupKey)
	sortByKey(s.InstallPlans, installPlanKey)
	sortByKey(s.ClusterExtensions, clusterExtensionKey)
	sortByKey(s.ClusterCatalogs, clusterCatalogKey)
	sortByKey(s.CRDs, crdKey)
	sortByKey(s.ClusterVersions, clusterVersionKey)
}

// The keys of the objects of a State: their namespace and name.
func csvKey(c CSV) (string, string)                     { return c.Namespace, c.Name }
func subscriptionKey(x Subscription) (string, string)   { return x.Namespace, x.Name }
func catalogSourceKey(c CatalogSource) (string, string) { return c.Namespace, c.Name }
func operatorGroupKey(g OperatorGroup) (string, string) { return g.Namespace, g.Name }
func installPlanKey(p InstallPlan) (string, string)     { return p.Namespace, p.Name }

// sortByKey sorts list stably by namespace then name, as key tells them.
func sortByKey[T any](list []T, key func(T) (string, string)) {
	slices.SortStableFunc(list, func(a, b T) int {
		ans, an := key(a)
		bns, bn := key(b)
		return cmp.Or(cmp.Compare(ans, bns), cmp.Compare(an, bn))
	})
}

// find returns the element of list whose key is namespace and name, or
// nil. The result points into list.
func find[T any](list []T, key func(T) (string, string), namespace, name string) *T {
	for i := range list {
		if ns, n := key(list[i]); ns == namespace && n == name {
			return &list[i]
		}
	}
	return nil
}

// Clone returns a deep copy of s (GVK slices included), which the caller
// owns; the CSVs' properties, immutable, are shared.
func (s *State) Clone() *State {
	if s == nil {
		return nil
	}
	c := &State{
		CSVs:           slices.Clone(s.CSVs),
		Subscriptions:  slices.Clone(s.Subscriptions),
		CatalogSources: slices.Clone(s.CatalogSources),
		Ignored:        slices.Clone(s.Ignored),
		InstallPlans:   slices.Clone(s.InstallPlans),
		CRDs:           slices.Clone(s.CRDs),
		Notes:          slices.Clone(s.Notes),
		// The objects are shared: nothing changes them.
		CustomResources: slices.Clone(s.CustomResources),
	}
	for i := range c.CRDs {
		c.CRDs[i].Versions = slices.Clone(c.CRDs[i].Versions)
		c.CRDs[i].StoredVersions = slices.Clone(c.CRDs[i].StoredVersions)
	}
	for _, e := range s.ClusterExtensions {
		c.ClusterExtensions = append(c.ClusterExtensions, cloneClusterExtension(e))
	}
	for _, cc := range s.ClusterCatalogs {
		c.ClusterCatalogs = append(c.ClusterCatalogs, cloneClusterCatalog(cc))
	}
	for _, v := range s.ClusterVersions {
		c.ClusterVersions = append(c.ClusterVersions, cloneClusterVersion(v))
	}
	for i := range c.InstallPlans {
		c.InstallPlans[i].CSVNames = slices.Clone(c.InstallPlans[i].CSVNames)
	}
	if s.OperatorGroups != nil {
		c.OperatorGroups = make([]OperatorGroup, len(s.OperatorGroups))
		for i, g := range s.OperatorGroups {
			c.OperatorGroups[i] = cloneOperatorGroup(g)
		}
	}
	cloneCSVs(c.CSVs)
	return c
}

// CloneContext is Clone made a chunk of CSVs and subscriptions at a time,
// so that it stops soon after ctx ends (a state of many thousand objects
// takes a while to copy); it returns ctx's error then. Each list is copied
// once, into an array of its exact size.
func (s *State) CloneContext(ctx context.Context) (*State, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s == nil {
		return nil, nil
	}
	rest := *s
	rest.CSVs, rest.Subscriptions = nil, nil
	c := rest.Clone()
	var err error
	if c.Subscriptions, err = copyChunked(ctx, s.Subscriptions); err != nil {
		return nil, err
	}
	if c.CSVs, err = copyChunked(ctx, s.CSVs); err != nil {
		return nil, err
	}
	cloneCSVs(c.CSVs)
	return c, nil
}

// cloneChunk is the number of objects CloneContext copies between two
// looks at the context.
const cloneChunk = 512

// copyChunked returns a copy of s (nil for nil), made cloneChunk elements
// at a time, or ctx's error once it ends.
func copyChunked[T any](ctx context.Context, s []T) ([]T, error) {
	if s == nil {
		return nil, nil
	}
	c := make([]T, 0, len(s))
	for i := 0; i < len(s); i += cloneChunk {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c = append(c, s[i:min(i+cloneChunk, len(s))]...)
	}
	return c, nil
}

// cloneCSVs gives csvs copies of their slices (the read properties
// annotation is shared: it is not changed once read), all carved out of a
// few arrays: a state of many CSVs is copied in a few allocations (Resolve
// copies the state it is given).
func cloneCSVs(csvs []CSV) {
	var nGVK, nModes int
	for i := range csvs {
		c := &csvs[i]
		nGVK += len(c.Provides) + len(c.Requires) + len(c.APIServices)
		nModes += len(c.InstallModes)
	}
	gvks := make([]graph.GVK, 0, nGVK)
	modes := make([]graph.InstallMode, 0, nModes)
	for i := range csvs {
		c := &csvs[i]
		c.Provides = carve(&gvks, c.Provides)
		c.Requires = carve(&gvks, c.Requires)
		c.APIServices = carve(&gvks, c.APIServices)
		c.InstallModes = carve(&modes, c.InstallModes)
	}
}

// carve copies s into the room left in *buf and returns the copy, capped
// at its length (nil for nil).
func carve[T any](buf *[]T, s []T) []T {
	if s == nil {
		return nil
	}
	start := len(*buf)
	*buf = append(*buf, s...)
	return (*buf)[start:len(*buf):len(*buf)]
}

// CSV returns the CSV namespace/name of s, or nil. The result points into s.
func (s *State) CSV(namespace, name string) *CSV {
	return find(s.CSVs, csvKey, namespace, name)
}

// InstallPlan returns the InstallPlan namespace/name of s, or nil. The
// result points into s.
func (s *State) InstallPlan(namespace, name string) *InstallPlan {
	return find(s.InstallPlans, installPlanKey, namespace, name)
}

// Subscription returns the subscription namespace/name of s, or nil. The
// result points into s.
func (s *State) Subscription(namespace, name string) *Subscription {
	return find(s.Subscriptions, subscriptionKey, namespace, name)
}
