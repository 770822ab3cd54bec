package cluster

// Ref names one object of a State: its kind (KindCSV, KindSubscription, …),
// namespace and name. It is comparable and used as a map key.
type Ref struct {
	Kind, Namespace, Name string
}

// Refs returns the objects of s, kind by kind in the order of State's
// fields, each kind in the order of its slice. The caller owns the slice.
func (s *State) Refs() []Ref {
	refs := make([]Ref, 0, len(s.CSVs)+len(s.Subscriptions)+len(s.CatalogSources)+len(s.OperatorGroups)+len(s.InstallPlans))
	for _, c := range s.CSVs {
		refs = append(refs, Ref{KindCSV, c.Namespace, c.Name})
	}
	for _, x := range s.Subscriptions {
		refs = append(refs, Ref{KindSubscription, x.Namespace, x.Name})
	}
	for _, c := range s.CatalogSources {
		refs = append(refs, Ref{KindCatalogSource, c.Namespace, c.Name})
	}
	for _, g := range s.OperatorGroups {
		refs = append(refs, Ref{KindOperatorGroup, g.Namespace, g.Name})
	}
	for _, p := range s.InstallPlans {
		refs = append(refs, Ref{KindInstallPlan, p.Namespace, p.Name})
	}
	return refs
}

// Merge adds to s the objects of o (every kind, and the Ignored counts),
// except those s already holds, whose Refs it returns in the order of
// [State.Refs]. Objects are appended as they are (shared, not cloned); s is
// not sorted afterwards (see [State.Sort]).
func (s *State) Merge(o *State) []Ref {
	have := make(map[Ref]bool, len(s.CSVs)+len(s.Subscriptions))
	for _, r := range s.Refs() {
		have[r] = true
	}
	var dups []Ref
	s.CSVs = mergeKind(s.CSVs, o.CSVs, KindCSV, have, &dups, func(c CSV) (string, string) { return c.Namespace, c.Name })
	s.Subscriptions = mergeKind(s.Subscriptions, o.Subscriptions, KindSubscription, have, &dups, func(x Subscription) (string, string) { return x.Namespace, x.Name })
	s.CatalogSources = mergeKind(s.CatalogSources, o.CatalogSources, KindCatalogSource, have, &dups, func(c CatalogSource) (string, string) { return c.Namespace, c.Name })
	s.OperatorGroups = mergeKind(s.OperatorGroups, o.OperatorGroups, KindOperatorGroup, have, &dups, func(g OperatorGroup) (string, string) { return g.Namespace, g.Name })
	s.InstallPlans = mergeKind(s.InstallPlans, o.InstallPlans, KindInstallPlan, have, &dups, func(p InstallPlan) (string, string) { return p.Namespace, p.Name })
	s.AddIgnored(o.Ignored...)
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
