package cluster_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
)

// csvWithGroup is a CSV in ns annotated by OLM with group, operator
// namespace opNS and targets (nil: no olm.targetNamespaces).
func csvWithGroup(name, ns, group, opNS string, targets *string) string {
	s := "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: " + name + "\n  namespace: " + ns + "\n  annotations:\n"
	s += "    olm.operatorGroup: " + group + "\n    olm.operatorNamespace: " + opNS + "\n"
	if targets != nil {
		s += "    olm.targetNamespaces: \"" + *targets + "\"\n"
	}
	return s + "spec: {version: 1.0.0}\n---\n"
}

func ptr(s string) *string { return &s }

// TestInferOperatorGroups: with no OperatorGroup listed, the CSVs'
// annotations give each namespace's group and targets; copies, CSVs that
// say nothing and namespaces whose CSVs disagree give none.
func TestInferOperatorGroups(t *testing.T) {
	tests := []struct {
		name     string
		input    string
		want     []cluster.OperatorGroup
		problems []string
	}{
		{"all namespaces", csvWithGroup("a.v1", "operators", "global-operators", "operators", ptr("")) + csvWithGroup("b.v1", "operators", "global-operators", "operators", ptr("")),
			[]cluster.OperatorGroup{{Name: "global-operators", Namespace: "operators", StatusNamespaces: []string{""}, FromCSVs: true}}, nil},
		{"some namespaces, and a copy elsewhere", csvWithGroup("a.v1", "team", "og", "team", ptr("b,team")) + csvWithGroup("a.v1", "b", "og", "team", ptr("b,team")),
			[]cluster.OperatorGroup{{Name: "og", Namespace: "team", StatusNamespaces: []string{"b", "team"}, FromCSVs: true}}, nil},
		{"no targets annotation", csvWithGroup("a.v1", "team", "og", "team", nil), nil, nil},
		{"disagreeing CSVs", csvWithGroup("a.v1", "team", "og", "team", ptr("team")) + csvWithGroup("b.v1", "team", "og", "team", ptr("")),
			nil, []string{`namespace team: CSVs a.v1 and b.v1 name different OperatorGroups in their annotations ("og" targeting team, "og" targeting all namespaces): no group is read from them`}},
		{"a listed group wins", csvWithGroup("a.v1", "team", "og", "team", ptr("")) + "apiVersion: operators.coreos.com/v1\nkind: OperatorGroup\nmetadata: {name: real, namespace: team}\n",
			[]cluster.OperatorGroup{{Name: "real", Namespace: "team"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := cluster.Decode(strings.NewReader(tt.input), "in.yaml")
			if err != nil {
				t.Fatal(err)
			}
			var problems []string
			for _, d := range s.InferOperatorGroups() {
				problems = append(problems, d.String())
			}
			if !reflect.DeepEqual(problems, tt.problems) {
				t.Errorf("problems %q, want %q", problems, tt.problems)
			}
			if !reflect.DeepEqual(s.OperatorGroups, tt.want) {
				t.Errorf("groups %+v, want %+v", s.OperatorGroups, tt.want)
			}
			for _, g := range tt.want {
				got, assumed, err := s.NamespaceOperatorGroup(g.Namespace)
				if err != nil || assumed || got.Name != g.Name {
					t.Errorf("NamespaceOperatorGroup(%s) = %+v, %v, %v", g.Namespace, got, assumed, err)
				}
			}
			if _, assumed, err := s.NamespaceOperatorGroup("elsewhere"); !s.ListsOperatorGroups() && (err != nil || !assumed) {
				t.Errorf("a namespace nothing speaks of: assumed %v, error %v; want a plain group assumed", assumed, err)
			}
			// Encoded, an inferred group is a group of the manifests.
			again, _ := roundTrip(t, s)
			want := slices.Clone(s.OperatorGroups)
			for i := range want {
				want[i].FromCSVs = false
			}
			if again.InferOperatorGroups(); !reflect.DeepEqual(again.OperatorGroups, want) {
				t.Errorf("after a round trip, groups %+v, want %+v", again.OperatorGroups, want)
			}
		})
	}
}

// TestCatalogNamespaces: where the manifests point for catalogs.
func TestCatalogNamespaces(t *testing.T) {
	s, err := cluster.Decode(strings.NewReader(`apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: a, namespace: shop}
spec: {name: a, source: certified-operators, sourceNamespace: openshift-marketplace}
---
apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: b, namespace: shop}
spec: {name: b, source: local, sourceNamespace: shop}
---
apiVersion: operators.coreos.com/v1alpha1
kind: CatalogSource
metadata: {name: local, namespace: shop}
---
apiVersion: operators.coreos.com/v1alpha1
kind: CatalogSource
metadata: {name: redhat-operators, namespace: openshift-marketplace}
`), "in.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.CatalogNamespaces(); !reflect.DeepEqual(got, []string{"openshift-marketplace"}) {
		t.Errorf("CatalogNamespaces() = %q, want [openshift-marketplace]", got)
	}
}
