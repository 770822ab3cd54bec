package resolvertest

import (
	"slices"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

// State builds the cluster state of one namespace in code: installed CSVs,
// subscriptions and catalog sources. Methods return what they add so that
// calls chain. A State is not safe for concurrent use.
//
// Create one with NewState; the zero value is not usable.
type State struct {
	ns    string
	state cluster.State
}

// NewState returns an empty state for namespace.
func NewState(namespace string) *State { return &State{ns: namespace} }

// Namespace returns the state's namespace.
func (s *State) Namespace() string { return s.ns }

// State returns a copy of the cluster state built so far, sorted; the
// caller owns it.
func (s *State) State() *cluster.State {
	c := s.state.Clone()
	c.Sort()
	return c
}

// Subscribe adds a subscription named name to package pkg: every channel of
// the package, from any catalog, until Channel and Source say otherwise.
func (s *State) Subscribe(name, pkg string) *Subscription {
	s.state.Subscriptions = append(s.state.Subscriptions, cluster.Subscription{Name: name, Namespace: s.ns, Package: pkg})
	return &Subscription{s: s, i: len(s.state.Subscriptions) - 1}
}

// CatalogSource adds a CatalogSource: it gives the catalog namespace/name
// its priority.
func (s *State) CatalogSource(namespace, name string, priority int) *State {
	s.state.CatalogSources = append(s.state.CatalogSources, cluster.CatalogSource{Name: name, Namespace: namespace, Priority: priority})
	return s
}

// CSV adds an installed CSV with its spec.version (phase Succeeded) and no
// APIs; CSV's methods add them. The version is parsed tolerantly; an
// unparsable version leaves the zero version, as a CSV without
// spec.version.
func (s *State) CSV(name, version string) *CSV {
	c := cluster.CSV{Name: name, Namespace: s.ns, VersionText: version, Phase: cluster.CSVPhaseSucceeded}
	if v, err := semver.ParseTolerant(version); err == nil {
		c.Version = v
	}
	s.state.CSVs = append(s.state.CSVs, c)
	return &CSV{s: s, i: len(s.state.CSVs) - 1}
}

// Install adds the installed CSV of a catalog bundle, as OLM leaves it: the
// bundle's name and version, its properties in the
// operatorframework.io/properties annotation (which OLM reads instead of
// the CSV's CRDs), and the APIs its olm.gvk and olm.gvk.required
// properties name as its CRDs.
func (s *State) Install(b *Bundle) *CSV {
	c := s.CSV(b.name, b.version)
	// A malformed property leaves out what it would add, as graph does.
	bd, _ := graph.ParseProperties(b.properties())
	c.fromBundle(bd)
	return c
}

// InstallBundle adds the installed CSV of a bundle of a built catalog (a
// real one, say), as Install does: name, version, properties and APIs.
func (s *State) InstallBundle(b *graph.Bundle) *CSV {
	c := s.CSV(b.Name, b.VersionText)
	c.csv().Version = b.Version
	c.fromBundle(b)
	return c
}

// fromBundle gives the CSV the properties and APIs of b.
func (x *CSV) fromBundle(b *graph.Bundle) {
	c := x.csv()
	c.Properties = cluster.NewCSVProperties(slices.Clone(b.Properties)...)
	c.Provides = slices.Clone(b.Provides)
	c.Requires = slices.Clone(b.RequiresGVK)
}

// Subscription is a subscription of a State under construction.
type Subscription struct {
	s *State
	i int
}

func (x *Subscription) sub() *cluster.Subscription { return &x.s.state.Subscriptions[x.i] }

// Channel sets spec.channel.
func (x *Subscription) Channel(name string) *Subscription {
	x.sub().Channel = name
	return x
}

// Source sets spec.sourceNamespace and spec.source: the catalog.
func (x *Subscription) Source(namespace, name string) *Subscription {
	x.sub().SourceNamespace, x.sub().Source = namespace, name
	return x
}

// StartingCSV sets spec.startingCSV.
func (x *Subscription) StartingCSV(name string) *Subscription {
	x.sub().StartingCSV = name
	return x
}

// Installed sets status.installedCSV and status.currentCSV: the
// subscription owns that installed CSV.
func (x *Subscription) Installed(csv string) *Subscription {
	x.sub().InstalledCSV, x.sub().CurrentCSV = csv, csv
	return x
}

// Manual sets spec.installPlanApproval to Manual: the namespace's
// InstallPlans wait for approval.
func (x *Subscription) Manual() *Subscription {
	x.sub().InstallPlanApproval = cluster.ApprovalManual
	return x
}

// Pending records an upgrade in progress: status.currentCSV csv (whose
// CSV may not exist yet), status.state UpgradePending and status.installPlanRef
// installPlan (none when empty).
func (x *Subscription) Pending(csv, installPlan string) *Subscription {
	x.sub().CurrentCSV, x.sub().InstallPlanRef, x.sub().State = csv, installPlan, cluster.StateUpgradePending
	return x
}

// InstallPlan adds an InstallPlan of the namespace that installs csvs:
// spec.approval approval, spec.approved approved, status.phase phase.
func (s *State) InstallPlan(name string, approval cluster.Approval, approved bool, phase cluster.InstallPlanPhase, csvs ...string) *State {
	s.state.InstallPlans = append(s.state.InstallPlans, cluster.InstallPlan{Name: name, Namespace: s.ns,
		Approval: approval, Approved: approved, CSVNames: csvs, Phase: phase})
	return s
}

// OperatorGroupStrategy adds the namespace's OperatorGroup, named name,
// with spec.upgradeStrategy strategy (cluster.UpgradeStrategyUnsafeFailForward
// lets OLM fail forward; empty is Default).
func (s *State) OperatorGroupStrategy(name, strategy string) *State {
	s.state.OperatorGroups = append(s.state.OperatorGroups, cluster.OperatorGroup{Name: name, Namespace: s.ns, UpgradeStrategy: strategy})
	return s
}

// OperatorGroup adds an OperatorGroup named name to namespace (any
// namespace, not only the State's) that targets targets: none means all
// namespaces (no spec.targetNamespaces, no selector). The result sets the
// rest of the group.
func (s *State) OperatorGroup(namespace, name string, targets ...string) *OperatorGroup {
	s.state.OperatorGroups = append(s.state.OperatorGroups, cluster.OperatorGroup{Name: name, Namespace: namespace, TargetNamespaces: targets})
	return &OperatorGroup{s: s, i: len(s.state.OperatorGroups) - 1}
}

// OperatorGroup is an OperatorGroup of a State under construction.
type OperatorGroup struct {
	s *State
	i int
}

func (x *OperatorGroup) og() *cluster.OperatorGroup { return &x.s.state.OperatorGroups[x.i] }

// ProvidedAPIs sets the olm.providedAPIs annotation, as OLM writes it
// ("Kind.version.group", separated by commas).
func (x *OperatorGroup) ProvidedAPIs(annotation string) *OperatorGroup {
	return x.Annotate(cluster.ProvidedAPIsAnnotation, annotation)
}

// Annotate sets the annotation key to value: for instance
// cluster.ExcludeGlobalCatalogsAnnotation "true", which hides the global
// catalogs from the group's namespace.
func (x *OperatorGroup) Annotate(key, value string) *OperatorGroup {
	g := x.og()
	if g.Annotations == nil {
		g.Annotations = map[string]string{}
	}
	g.Annotations[key] = value
	return x
}

// Static sets spec.staticProvidedAPIs.
func (x *OperatorGroup) Static() *OperatorGroup {
	x.og().StaticProvidedAPIs = true
	return x
}

// Selector sets spec.selector to match labels, and clears the target
// namespaces; with no status.namespaces, the targets are unknown.
func (x *OperatorGroup) Selector(matchLabels map[string]string) *OperatorGroup {
	g := x.og()
	g.TargetNamespaces, g.Selector = nil, &cluster.LabelSelector{MatchLabels: matchLabels}
	return x
}

// Status sets status.namespaces ("" is all namespaces).
func (x *OperatorGroup) Status(namespaces ...string) *OperatorGroup {
	x.og().StatusNamespaces = append([]string{}, namespaces...)
	return x
}

// CSV is an installed CSV of a State under construction.
type CSV struct {
	s *State
	i int
}

func (x *CSV) csv() *cluster.CSV { return &x.s.state.CSVs[x.i] }

// Provides adds an owned API (spec.customresourcedefinitions.owned).
func (x *CSV) Provides(group, version, kind string) *CSV {
	c := x.csv()
	c.Provides = append(c.Provides, graph.GVK{Group: group, Version: version, Kind: kind})
	return x
}

// Requires adds a required API (spec.customresourcedefinitions.required).
func (x *CSV) Requires(group, version, kind string) *CSV {
	c := x.csv()
	c.Requires = append(c.Requires, graph.GVK{Group: group, Version: version, Kind: kind})
	return x
}

// Property adds a property to the operatorframework.io/properties
// annotation. Once a CSV has one, OLM reads its properties from the
// annotation only.
func (x *CSV) Property(typ, value string) *CSV {
	return x.With(graph.Property{Type: typ, Value: []byte(value)})
}

// With adds properties, as they are, to the operatorframework.io/properties
// annotation (see Property).
func (x *CSV) With(props ...graph.Property) *CSV {
	c := x.csv()
	c.Properties = cluster.NewCSVProperties(slices.Concat(c.Properties.List(), props)...)
	return x
}

// Copied marks the CSV as a copy OLM made of an operator of another
// namespace (status.reason Copied): resolution leaves it out.
func (x *CSV) Copied() *CSV {
	x.csv().Copied = true
	return x
}

// InstallModes sets spec.installModes: the types given are supported, the
// other three of OLM's four are listed as not supported.
func (x *CSV) InstallModes(supported ...graph.InstallModeType) *CSV {
	x.csv().InstallModes = installModes(supported)
	return x
}

// MinKubeVersion sets spec.minKubeVersion.
func (x *CSV) MinKubeVersion(v string) *CSV {
	x.csv().MinKubeVersion = v
	return x
}

// Phase sets status.phase.
func (x *CSV) Phase(phase cluster.CSVPhase) *CSV {
	x.csv().Phase = phase
	return x
}

// Replaces sets spec.replaces: with the CSV it names installed, this CSV
// is an upgrade in flight.
func (x *CSV) Replaces(name string) *CSV {
	x.csv().Replaces = name
	return x
}

// installModes lists OLM's four install mode types, those of supported
// supported, and then any other type of supported.
func installModes(supported []graph.InstallModeType) []graph.InstallMode {
	out := []graph.InstallMode{}
	four := []graph.InstallModeType{graph.InstallModeOwnNamespace, graph.InstallModeSingleNamespace, graph.InstallModeMultiNamespace, graph.InstallModeAllNamespaces}
	for _, t := range four {
		out = append(out, graph.InstallMode{Type: t, Supported: slices.Contains(supported, t)})
	}
	for _, t := range supported {
		if !slices.Contains(four, t) {
			out = append(out, graph.InstallMode{Type: t, Supported: true})
		}
	}
	return out
}
