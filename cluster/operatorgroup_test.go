package cluster_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

const operatorGroupManifests = `apiVersion: operators.coreos.com/v1
kind: OperatorGroup
metadata:
  name: og
  namespace: team-a
  annotations:
    olm.operatorframework.io/exclude-global-namespace-resolution: "true"
    olm.providedAPIs: "EtcdCluster.v1beta2.etcd.database.coreos.com, Widget.v1.example.com,junk"
    example.com/other: kept
spec:
  targetNamespaces: [team-a, team-b]
  selector:
    matchLabels: {tier: web}
    matchExpressions:
    - {key: env, operator: In, values: [dev, prod]}
    - {key: legacy, operator: DoesNotExist}
  upgradeStrategy: TechPreviewUnsafeFailForward
  staticProvidedAPIs: true
status:
  namespaces: [team-a, team-b]
---
apiVersion: operators.coreos.com/v1
kind: OperatorGroupList
items:
- metadata: {name: global, namespace: operators}
  status: {namespaces: [""]}
- metadata: {name: b, namespace: team-a}
`

func TestDecodeOperatorGroup(t *testing.T) {
	s, err := cluster.Decode(strings.NewReader(operatorGroupManifests), "og.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, g := range s.OperatorGroups {
		names = append(names, g.Namespace+"/"+g.Name)
	}
	if want := []string{"operators/global", "team-a/b", "team-a/og"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("operator groups = %q, want %q (sorted by namespace, then name)", names, want)
	}
	want := cluster.OperatorGroup{
		Name: "og", Namespace: "team-a",
		Annotations: map[string]string{
			cluster.ExcludeGlobalCatalogsAnnotation: "true",
			cluster.ProvidedAPIsAnnotation:          "EtcdCluster.v1beta2.etcd.database.coreos.com, Widget.v1.example.com,junk",
			"example.com/other":                     "kept",
		},
		TargetNamespaces: []string{"team-a", "team-b"},
		Selector: &cluster.LabelSelector{
			MatchLabels: map[string]string{"tier": "web"},
			MatchExpressions: []cluster.LabelSelectorRequirement{
				{Key: "env", Operator: cluster.SelectorOpIn, Values: []string{"dev", "prod"}},
				{Key: "legacy", Operator: cluster.SelectorOpDoesNotExist},
			},
		},
		UpgradeStrategy:    cluster.UpgradeStrategyUnsafeFailForward,
		StaticProvidedAPIs: true,
		StatusNamespaces:   []string{"team-a", "team-b"},
	}
	og := s.OperatorGroupsIn("team-a")[1]
	if !reflect.DeepEqual(*og, want) {
		t.Errorf("operator group =\n%+v\nwant\n%+v", *og, want)
	}
	if !og.ExcludesGlobalCatalogs() || og.Strategy() != cluster.UpgradeStrategyUnsafeFailForward {
		t.Errorf("ExcludesGlobalCatalogs = %v, Strategy = %q", og.ExcludesGlobalCatalogs(), og.Strategy())
	}
	apis, malformed := og.ProvidedAPIs()
	wantAPIs := []graph.GVK{{Group: "etcd.database.coreos.com", Version: "v1beta2", Kind: "EtcdCluster"}, {Group: "example.com", Version: "v1", Kind: "Widget"}}
	if !reflect.DeepEqual(apis, wantAPIs) || !reflect.DeepEqual(malformed, []string{"junk"}) {
		t.Errorf("ProvidedAPIs = %v, %q; want %v, [junk]", apis, malformed, wantAPIs)
	}
	plain := s.OperatorGroupsIn("team-a")[0]
	if plain.ExcludesGlobalCatalogs() || plain.Strategy() != cluster.UpgradeStrategyDefault || plain.Selector != nil || plain.TargetNamespaces != nil {
		t.Errorf("plain group = %+v", plain)
	}
	if global := s.OperatorGroupsIn("operators"); len(global) != 1 || !reflect.DeepEqual(global[0].StatusNamespaces, []string{""}) {
		t.Errorf("global group = %+v", global)
	}

	// The encoder writes them back.
	if again, encoded := roundTrip(t, s); !reflect.DeepEqual(s, again) {
		t.Errorf("round trip changed the state:\n%+v\n%+v\n%s", s, again, encoded)
	}
	// Clone is deep.
	c := s.Clone()
	c.OperatorGroups[2].Annotations["example.com/other"] = "changed"
	c.OperatorGroups[2].Selector.MatchExpressions[0].Values[0] = "changed"
	c.OperatorGroups[2].TargetNamespaces[0] = "changed"
	if !reflect.DeepEqual(*og, want) {
		t.Errorf("changing a clone changed the original: %+v", *og)
	}
}

func TestDecodeOperatorGroupErrors(t *testing.T) {
	tests := []struct {
		name, input string
		wantErr     []string
	}{
		{
			name: "wrong types name the field",
			input: `apiVersion: operators.coreos.com/v1
kind: OperatorGroup
metadata:
  name: og
  namespace: ns
  annotations: {olm.operatorframework.io/exclude-global-namespace-resolution: true}
spec:
  targetNamespaces: [a, 3]
  selector: {matchLabels: {tier: [web]}}
  staticProvidedAPIs: "yes"
status: {namespaces: a}`,
			wantErr: []string{
				`og.yaml:1: OperatorGroup "ns/og": field metadata.annotations["olm.operatorframework.io/exclude-global-namespace-resolution"]: is a boolean, want a string`,
				`field spec.targetNamespaces[1]: is a number, want a string`,
				`field spec.selector.matchLabels["tier"]: is an array, want a string`,
				`field spec.staticProvidedAPIs: is a string, want a boolean`,
				`field status.namespaces: is a string, want an array`,
			},
		},
		{
			name: "upgrade strategy",
			input: `apiVersion: operators.coreos.com/v1
kind: OperatorGroup
metadata: {name: og, namespace: ns}
spec: {upgradeStrategy: FailForward}
---
apiVersion: operators.coreos.com/v1
kind: OperatorGroup
metadata: {name: og2, namespace: ns}
spec: {upgradeStrategy: {name: Default}}`,
			wantErr: []string{
				`OperatorGroup "ns/og": field spec.upgradeStrategy: unknown strategy "FailForward", want Default or TechPreviewUnsafeFailForward`,
				`OperatorGroup "ns/og2": field spec.upgradeStrategy: is an object, want a string (Default or TechPreviewUnsafeFailForward)`,
			},
		},
		{
			name: "selector requirements",
			input: `apiVersion: operators.coreos.com/v1
kind: OperatorGroup
metadata: {name: og, namespace: ns}
spec:
  selector:
    matchExpressions:
    - {key: env, operator: In}
    - {key: env, operator: Exists, values: [x]}
    - {key: env, operator: Near, values: [x]}
    - {operator: Exists}
    - {key: env}
    - key-only`,
			wantErr: []string{
				`field spec.selector.matchExpressions[0].values: missing: operator In needs at least one value`,
				`field spec.selector.matchExpressions[1].values: operator Exists takes no values`,
				`field spec.selector.matchExpressions[2].operator: unknown operator "Near"`,
				`field spec.selector.matchExpressions[3].key: missing`,
				`field spec.selector.matchExpressions[4].operator: missing`,
				`field spec.selector.matchExpressions[5]: is a string, want an object`,
			},
		},
		{
			name: "duplicate",
			input: `apiVersion: operators.coreos.com/v1
kind: OperatorGroup
metadata: {name: og, namespace: ns}
---
apiVersion: operators.coreos.com/v1
kind: OperatorGroup
metadata: {name: og, namespace: ns}`,
			wantErr: []string{`og.yaml:5: OperatorGroup "ns/og": defined twice`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := cluster.Decode(strings.NewReader(tt.input), "og.yaml")
			checkErrors(t, err, tt.wantErr)
		})
	}
}

func TestLabelSelectorMatches(t *testing.T) {
	sel := &cluster.LabelSelector{
		MatchLabels: map[string]string{"tier": "web"},
		MatchExpressions: []cluster.LabelSelectorRequirement{
			{Key: "env", Operator: cluster.SelectorOpIn, Values: []string{"dev", "prod"}},
			{Key: "team", Operator: cluster.SelectorOpNotIn, Values: []string{"x"}},
			{Key: "legacy", Operator: cluster.SelectorOpDoesNotExist},
			{Key: "owner", Operator: cluster.SelectorOpExists},
		},
	}
	tests := []struct {
		name   string
		sel    *cluster.LabelSelector
		labels map[string]string
		want   bool
	}{
		{"all hold", sel, map[string]string{"tier": "web", "env": "dev", "owner": "me"}, true},
		{"match label differs", sel, map[string]string{"tier": "db", "env": "dev", "owner": "me"}, false},
		{"In value absent", sel, map[string]string{"tier": "web", "owner": "me"}, false},
		{"NotIn value present", sel, map[string]string{"tier": "web", "env": "dev", "owner": "me", "team": "x"}, false},
		{"DoesNotExist present", sel, map[string]string{"tier": "web", "env": "dev", "owner": "me", "legacy": ""}, false},
		{"Exists absent", sel, map[string]string{"tier": "web", "env": "dev"}, false},
		{"empty selector matches everything", &cluster.LabelSelector{}, nil, true},
		{"nil selector matches nothing", nil, map[string]string{"a": "b"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.sel.Matches(tt.labels); got != tt.want {
				t.Errorf("Matches(%v) = %v, want %v", tt.labels, got, tt.want)
			}
		})
	}
}

func ExampleOperatorGroup_ExcludesGlobalCatalogs() {
	state, err := cluster.Decode(strings.NewReader(`
apiVersion: operators.coreos.com/v1
kind: OperatorGroup
metadata:
  name: team-a
  namespace: team-a
  annotations:
    olm.operatorframework.io/exclude-global-namespace-resolution: "true"
spec:
  targetNamespaces: [team-a]
`), "og.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, g := range state.OperatorGroupsIn("team-a") {
		fmt.Println(g.Name, g.TargetNamespaces, g.Strategy(), g.ExcludesGlobalCatalogs())
	}
	// Output:
	// team-a [team-a] Default true
}

func TestNamespaceOperatorGroup(t *testing.T) {
	og := func(ns, name string) cluster.OperatorGroup { return cluster.OperatorGroup{Namespace: ns, Name: name} }
	tests := []struct {
		name        string
		groups      []cluster.OperatorGroup
		wantName    string
		wantAssumed bool
		wantErr     string
	}{
		{name: "none at all: a plain group is assumed", wantAssumed: true},
		{name: "exactly one", groups: []cluster.OperatorGroup{og("ns", "g"), og("other", "h")}, wantName: "g"},
		{name: "none in the namespace", groups: []cluster.OperatorGroup{og("other", "h")}, wantErr: `namespace "ns" has no OperatorGroup`},
		{name: "several", groups: []cluster.OperatorGroup{og("ns", "b"), og("ns", "a")}, wantErr: `namespace "ns" has 2 OperatorGroups ("a", "b")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &cluster.State{OperatorGroups: tt.groups}
			g, assumed, err := s.NamespaceOperatorGroup("ns")
			if tt.wantErr != "" {
				var oge *cluster.OperatorGroupError
				if !errors.As(err, &oge) || !strings.Contains(err.Error(), tt.wantErr) || g != nil {
					t.Fatalf("= %v, %v, %v; want an *OperatorGroupError containing %q", g, assumed, err, tt.wantErr)
				}
				return
			}
			if err != nil || assumed != tt.wantAssumed || g == nil || g.Name != tt.wantName || g.Namespace != "ns" {
				t.Fatalf("= %+v, %v, %v; want group %q, assumed %v", g, assumed, err, tt.wantName, tt.wantAssumed)
			}
		})
	}
}
