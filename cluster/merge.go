package cluster

import "slices"

// Ref names one object of a State: its kind (KindCSV, KindSubscription, …),
// namespace and name. It is comparable and used as a map key.
type Ref struct {
	Kind, Namespace, Name string
}

// Refs returns the objects of s, kind by kind in the order of State's
// fields, each kind in the order of its slice. The caller owns the slice.
func (s *State) Refs() []Ref {
	refs := make([]Ref, 0, len(s.CSVs)+len(s.Subscriptions)+len(s.CatalogSources)+len(s.OperatorGroups)+len(s.InstallPlans)+len(s.ClusterExtensions)+len(s.ClusterCatalogs)+len(s.CRDs)+len(s.ClusterVersions))
	refs = appendRefs(refs, KindCSV, s.CSVs, csvKey)
	refs = appendRefs(refs, KindSubscription, s.Subscriptions, subscriptionKey)
	refs = appendRefs(refs, KindCatalogSource, s.CatalogSources, catalogSourceKey)
	refs = appendRefs(refs, KindOperatorGroup, s.OperatorGroups, operatorGroupKey)
	refs = appendRefs(refs, KindInstallPlan, s.InstallPlans, installPlanKey)
	refs = appendRefs(refs, KindClusterExtension, s.ClusterExtensions, clusterExtensionKey)
	refs = appendRefs(refs, KindClusterCatalog, s.ClusterCatalogs, clusterCatalogKey)
	refs = appendRefs(refs, KindCRD, s.CRDs, crdKey)
	refs = appendRefs(refs, KindClusterVersion, s.ClusterVersions, clusterVersionKey)
	return refs
}

// appendRefs appends the Refs of list, objects of kind, in its order.
func appendRefs[T any](refs []Ref, kind string, list []T, key func(T) (string, string)) []Ref {
	for i := range list {
		ns, name := key(list[i])
		refs = append(refs, Ref{kind, ns, name})
	}
	return refs
}

// Merge adds to s the objects of o (every kind, the Ignored counts and
// the custom resources, claimed or not: claim them once merged),
// except those s already holds, whose Refs it returns in the order of
// [State.Refs], and the notes of o about the objects it adds. Objects are
// appended as they are (shared, not cloned); s is not sorted afterwards
// (see [State.Sort]).
func (s *State) Merge(o *State) []Ref {
	have := make(map[Ref]bool, len(s.CSVs)+len(s.Subscriptions))
	for _, r := range s.Refs() {
		have[r] = true
	}
	var dups []Ref
	s.CSVs = mergeKind(s.CSVs, o.CSVs, KindCSV, have, &dups, csvKey)
	s.Subscriptions = mergeKind(s.Subscriptions, o.Subscriptions, KindSubscription, have, &dups, subscriptionKey)
	s.CatalogSources = mergeKind(s.CatalogSources, o.CatalogSources, KindCatalogSource, have, &dups, catalogSourceKey)
	s.OperatorGroups = mergeKind(s.OperatorGroups, o.OperatorGroups, KindOperatorGroup, have, &dups, operatorGroupKey)
	s.InstallPlans = mergeKind(s.InstallPlans, o.InstallPlans, KindInstallPlan, have, &dups, installPlanKey)
	s.ClusterExtensions = mergeKind(s.ClusterExtensions, o.ClusterExtensions, KindClusterExtension, have, &dups, clusterExtensionKey)
	s.ClusterCatalogs = mergeKind(s.ClusterCatalogs, o.ClusterCatalogs, KindClusterCatalog, have, &dups, clusterCatalogKey)
	s.CRDs = mergeKind(s.CRDs, o.CRDs, KindCRD, have, &dups, crdKey)
	s.ClusterVersions = mergeKind(s.ClusterVersions, o.ClusterVersions, KindClusterVersion, have, &dups, clusterVersionKey)
	s.AddIgnored(o.Ignored...)
	s.CustomResources = append(s.CustomResources, o.CustomResources...)
	for _, n := range o.Notes {
		if !slices.Contains(dups, n.Object) {
			s.Notes = append(s.Notes, n)
		}
	}
	return dups
}

// mergeKind appends to dst the objects of add whose Ref is not in have
// (adding it), and records the others in dups.
func mergeKind[T any](dst, add []T, kind string, have map[Ref]bool, dups *[]Ref, key func(T) (string, string)) []T {
	for _, o := range add {
		ns, name := key(o)
		r := Ref{kind, ns, name}
		if have[r] {
			*dups = append(*dups, r)
			continue
		}
		have[r] = true
		dst = append(dst, o)
	}
	return dst
}
