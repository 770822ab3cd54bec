package cluster_test

import (
	"slices"
	"testing"

	"github.com/sextantdev/sextant/cluster"
)

func TestStateMerge(t *testing.T) {
	s := &cluster.State{
		Subscriptions:  []cluster.Subscription{{Name: "a", Namespace: "ns", Package: "a"}},
		OperatorGroups: []cluster.OperatorGroup{{Name: "og", Namespace: "ns"}},
		Ignored:        []cluster.Ignored{{Kind: "Secret", Count: 1}},
	}
	o := &cluster.State{
		CSVs:           []cluster.CSV{{Name: "a.v1", Namespace: "ns"}},
		Subscriptions:  []cluster.Subscription{{Name: "a", Namespace: "ns", Package: "other"}, {Name: "b", Namespace: "ns", Package: "b"}},
		CatalogSources: []cluster.CatalogSource{{Name: "c", Namespace: "olm"}},
		OperatorGroups: []cluster.OperatorGroup{{Name: "og", Namespace: "ns"}},
		InstallPlans:   []cluster.InstallPlan{{Name: "install-1", Namespace: "ns"}},
		Ignored:        []cluster.Ignored{{Kind: "Secret", Count: 2}},
		Notes: []cluster.Note{
			{Code: cluster.NoteNamespaceDropped, Object: cluster.Ref{Kind: cluster.KindSubscription, Namespace: "ns", Name: "a"}, Text: "not added"},
			{Code: cluster.NoteNamespaceDropped, Object: cluster.Ref{Kind: cluster.KindSubscription, Namespace: "ns", Name: "b"}, Text: "added"},
		},
	}
	dups := s.Merge(o)
	want := []cluster.Ref{{Kind: cluster.KindSubscription, Namespace: "ns", Name: "a"}, {Kind: cluster.KindOperatorGroup, Namespace: "ns", Name: "og"}}
	if !slices.Equal(dups, want) {
		t.Errorf("duplicates = %v, want %v", dups, want)
	}
	if len(s.CSVs) != 1 || len(s.Subscriptions) != 2 || len(s.CatalogSources) != 1 || len(s.OperatorGroups) != 1 || len(s.InstallPlans) != 1 {
		t.Errorf("merged state has %d CSVs, %d subscriptions, %d catalog sources, %d OperatorGroups, %d InstallPlans; want 1, 2, 1, 1, 1",
			len(s.CSVs), len(s.Subscriptions), len(s.CatalogSources), len(s.OperatorGroups), len(s.InstallPlans))
	}
	if s.Subscriptions[0].Package != "a" {
		t.Errorf("the held subscription was replaced: package %q", s.Subscriptions[0].Package)
	}
	if len(s.Ignored) != 1 || s.Ignored[0].Count != 3 {
		t.Errorf("ignored = %v, want 3 Secret", s.Ignored)
	}
	if len(s.Notes) != 1 || s.Notes[0].Text != "added" {
		t.Errorf("notes = %v, want the one about the object added", s.Notes)
	}
	if got := len(s.Refs()); got != 6 {
		t.Errorf("Refs = %d objects, want 6", got)
	}
}
