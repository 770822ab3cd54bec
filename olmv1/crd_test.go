package olmv1_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/olmv1"
	"github.com/sextantdev/sextant/registryv1"
)

const crdsDir = "../testdata/cli/crds/"

// TestCRDPreflight: OLM v1's CRD upgrade safety preflight against the
// cluster's CRDs — refused, safe, off, nothing on the cluster, and what
// is compared (and said) when the bundle's contents or the cluster's
// whole CRD are missing.
func TestCRDPreflight(t *testing.T) {
	ctx := context.Background()
	cat, err := graph.Loader{}.Load(ctx, crdsDir+"catalog.yaml")
	if err != nil {
		t.Fatal(err)
	}
	set, err := registryv1.Loader{}.ReadDirs(ctx, crdsDir+"bundles")
	if err != nil {
		t.Fatal(err)
	}
	live, err := os.ReadFile(crdsDir + "bundles/widgets/1.0.0/manifests/widgets.crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const installed = `apiVersion: olm.operatorframework.io/v1
kind: ClusterExtension
metadata: {name: widgets}
spec:
  namespace: widgets
  source: {sourceType: Catalog, catalog: {packageName: widgets, channels: [stable]}}
status:
  install:
    bundle: {name: widgets.v1.0.0, version: 1.0.0}
---
`
	wholeCRD := string(live) + "status: {storedVersions: [v1]}\n"
	const refused = `error for resolved bundle "widgets.v2.0.0" with version "2.0.0": validating upgrade for CRD "widgets.example.com": existingFieldRemoval: removed field : v1.^.spec.color`
	for _, tc := range []struct {
		name      string
		manifests string
		bundles   *registryv1.Set
		refusal   string // the V1Message's beginning; "" for no failure
		unchecked string // the first Unchecked's reason's beginning
	}{
		{"refused", installed + wholeCRD, set, refused, ""},
		{"enforcement None", strings.Replace(installed, "  namespace: widgets\n", "  namespace: widgets\n  install: {preflight: {crdUpgradeSafety: {enforcement: None}}}\n", 1) + wholeCRD, set, "", ""},
		{"not on the cluster", installed + strings.NewReplacer("widgets.example.com", "gizmos.example.com", "plural: widgets", "plural: gizmos").Replace(wholeCRD), set, "", ""},
		{"no contents", installed + wholeCRD, nil, "", "its contents were not found: the cluster's CRD widgets.example.com compared for stored versions only"},
		{"no contents, stored version dropped", installed + strings.Replace(wholeCRD, "storedVersions: [v1]", "storedVersions: [v1beta1, v1]", 1), nil,
			`error for resolved bundle "widgets.v2.0.0" with version "2.0.0": validating upgrade for CRD "widgets.example.com": storedVersionRemoval: stored versions removed : [v1beta1]`, "its contents were not found"},
		{"cluster CRD not whole", "", set, "", "the manifests do not hold the cluster's CRD whole"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			man := tc.manifests
			if man == "" {
				// a version without a schema, as examples cut short have
				man = installed + "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\nspec:\n  group: example.com\n  names: {kind: Widget, plural: widgets}\n  scope: Namespaced\n  versions: [{name: v1, served: true, storage: true}]\nstatus: {storedVersions: [v1]}\n"
			}
			state, err := cluster.Decode(strings.NewReader(man), "cluster.yaml")
			if err != nil {
				t.Fatal(err)
			}
			r, err := olmv1.New([]olmv1.Catalog{{ClusterCatalog: cluster.NewClusterCatalog("widgets"), Content: cat}}, olmv1.Options{Bundles: tc.bundles})
			if err != nil {
				t.Fatal(err)
			}
			res, err := r.Resolve(ctx, state)
			if err != nil {
				t.Fatal(err)
			}
			x := res.Extensions[0]
			if x.Bundle != "widgets.v2.0.0" {
				t.Fatalf("choice %s, want widgets.v2.0.0", x.Bundle)
			}
			var got []olmv1.Prediction
			for _, p := range x.Predictions {
				if p.Reason == olmv1.ReasonCRDUpgradeSafety {
					got = append(got, p)
				}
			}
			switch {
			case tc.refusal == "" && len(got) > 0:
				t.Errorf("predictions %+v, want none", got)
			case tc.refusal != "" && (len(got) != 1 || !strings.HasPrefix(got[0].V1Message, tc.refusal) || got[0].Severity != olmv1.SeverityFailure):
				t.Errorf("predictions %+v, want one failure %q", got, tc.refusal)
			}
			switch {
			case tc.unchecked == "" && len(res.Unchecked) > 0:
				t.Errorf("unchecked %+v, want none", res.Unchecked)
			case tc.unchecked != "" && (len(res.Unchecked) == 0 || !strings.HasPrefix(res.Unchecked[0].Reason, tc.unchecked)):
				t.Errorf("unchecked %+v, want %q", res.Unchecked, tc.unchecked)
			}
		})
	}
}
