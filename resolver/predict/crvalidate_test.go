package predict

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/crd"
	"github.com/sextantdev/sextant/graph"
)

// crvState is a cluster with the CRD memcacheds.cache.example.com (served
// at v1alpha1 and v1beta1, stored in v1alpha1) and two Memcacheds.
const crvState = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: memcacheds.cache.example.com}
spec:
  group: cache.example.com
  names: {kind: Memcached, plural: memcacheds}
  scope: Namespaced
  versions: [{name: v1alpha1, served: true, storage: true}, {name: v1beta1, served: true, storage: false}]
status: {storedVersions: [v1alpha1, v1beta1]}
---
apiVersion: cache.example.com/v1alpha1
kind: Memcached
metadata: {name: small, namespace: b}
spec: {size: 2}
---
apiVersion: cache.example.com/v1beta1
kind: Memcached
metadata: {name: big, namespace: a}
spec: {size: 5}
`

// newCRD returns the new CRD of memcacheds: versions (name, served) with
// spec.size bounded by max, converting by strategy.
func newCRD(t *testing.T, max int, strategy string, versions ...string) *crd.Definition {
	t.Helper()
	var vs []any
	for i, v := range versions {
		vs = append(vs, map[string]any{"name": v, "served": true, "storage": i == 0, "schema": map[string]any{"openAPIV3Schema": map[string]any{
			"type": "object", "properties": map[string]any{"spec": map[string]any{"type": "object", "properties": map[string]any{
				"size": map[string]any{"type": "integer", "maximum": max}}}}}}})
	}
	spec := map[string]any{"group": "cache.example.com", "scope": "Namespaced",
		"names": map[string]any{"kind": "Memcached", "plural": "memcacheds"}, "versions": vs}
	if strategy != "" {
		spec["conversion"] = map[string]any{"strategy": strategy}
	}
	d, _, err := crd.Decode(map[string]any{"apiVersion": crd.APIVersion, "kind": crd.Kind,
		"metadata": map[string]any{"name": "memcacheds.cache.example.com"}, "spec": spec})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestCustomResources(t *testing.T) {
	state, err := cluster.Decode(strings.NewReader(crvState), "cluster.yaml")
	if err != nil {
		t.Fatal(err)
	}
	state.ClaimCustomResources()
	// both provides the two versions; beta v1beta1 alone (dropping the
	// stored version v1alpha1).
	both := &graph.Bundle{Name: "memcached-operator.v0.0.2", Provides: []graph.GVK{
		{Group: "cache.example.com", Version: "v1alpha1", Kind: "Memcached"}, {Group: "cache.example.com", Version: "v1beta1", Kind: "Memcached"}}}
	beta := &graph.Bundle{Name: "memcached-operator.v0.0.2", Provides: []graph.GVK{{Group: "cache.example.com", Version: "v1beta1", Kind: "Memcached"}}}
	for _, c := range []struct {
		name  string
		beta  bool
		crds  func(t *testing.T) ([]*crd.Definition, error)
		want  string // the predictions' strings, joined by "\n"
		notes string
	}{
		{"valid", false, func(t *testing.T) ([]*crd.Definition, error) {
			return []*crd.Definition{newCRD(t, 5, "", "v1alpha1", "v1beta1")}, nil
		}, "", ""},
		{"too restrictive, first failing object in list order", false, func(t *testing.T) ([]*crd.Definition, error) {
			return []*crd.Definition{newCRD(t, 1, "", "v1alpha1", "v1beta1")}, nil
		}, `failure InstallComponentFailed: error validating existing CRs against new CRD's schema for "memcacheds.cache.example.com": error validating cache.example.com/v1alpha1, Kind=Memcached "a/big": updated validation is too restrictive: [].spec.size: Invalid value: 5: spec.size in body should be less than or equal to 1 (Memcached a/big, read from cluster.yaml:16: change it to fit memcached-operator.v0.0.2's schema of v1alpha1 first)`, ""},
		// v1beta1 alone keeps its stored version v1alpha1 out: the
		// validation fails first, and OLM never reaches the stored
		// versions.
		{"validation before stored versions", true, func(t *testing.T) ([]*crd.Definition, error) {
			return []*crd.Definition{newCRD(t, 3, "", "v1beta1")}, nil
		}, `failure InstallComponentFailed: error validating existing CRs against new CRD's schema for "memcacheds.cache.example.com": error validating cache.example.com/v1beta1, Kind=Memcached "a/big": updated validation is too restrictive: [].spec.size: Invalid value: 5: spec.size in body should be less than or equal to 3 (Memcached a/big, read from cluster.yaml:16: change it to fit memcached-operator.v0.0.2's schema of v1beta1 first)`, ""},
		{"stored versions when valid", true, func(t *testing.T) ([]*crd.Definition, error) {
			return []*crd.Definition{newCRD(t, 9, "", "v1beta1")}, nil
		}, `failure InstallComponentFailed: risk of data loss updating "memcacheds.cache.example.com": new CRD removes version v1alpha1 that is listed as a stored version on the existing CRD (memcached-operator.v0.0.2 provides Memcached in v1beta1 only, and status.storedVersions lists v1alpha1 and v1beta1: migrate the stored objects and remove v1alpha1 from status.storedVersions first)`, ""},
		{"webhook conversion warns", false, func(t *testing.T) ([]*crd.Definition, error) {
			return []*crd.Definition{newCRD(t, 1, "Webhook", "v1alpha1", "v1beta1")}, nil
		}, `warning CRDValidation: validation of existing CRs against the new CRD's schema failed, but a webhook conversion strategy was specified in the new CRD: CRD "memcacheds.cache.example.com": error validating cache.example.com/v1alpha1, Kind=Memcached "a/big": updated validation is too restrictive: [].spec.size: Invalid value: 5: spec.size in body should be less than or equal to 1 (Memcached a/big, read from cluster.yaml:16; OLM updates the CRD, trusting the webhook to convert it)`, ""},
		{"contents unknown", false, func(t *testing.T) ([]*crd.Definition, error) { return nil, nil }, "",
			"existing custom resources not validated against the new CRDs of bundle memcached-operator.v0.0.2: the bundle contents are not known"},
		{"contents unreadable", false, func(t *testing.T) ([]*crd.Definition, error) { return nil, errors.New("no such image") }, "",
			"existing custom resources not validated against the new CRDs of bundle memcached-operator.v0.0.2 (no such image): the bundle contents are not known"},
	} {
		// Each case alone, then twice with one memo: the second answers
		// from the memo, the same.
		memo := &CRMemo{}
		for _, m := range []*CRMemo{nil, memo, memo} {
			t.Run(c.name, func(t *testing.T) {
				b := both
				if c.beta {
					b = beta
				}
				pr := New("operators", Platform{}, state, nil)
				pr.SetBundleCRDs(context.Background(), func(_ context.Context, got *graph.Bundle) ([]*crd.Definition, error) {
					if got != b {
						t.Errorf("asked for %s", got.Name)
					}
					return c.crds(t)
				}, m)
				var lines []string
				for _, p := range pr.Bundle(b) {
					if p.Reason == ReasonInstallComponentFailed || p.Reason == ReasonCRDValidation {
						lines = append(lines, string(p.Severity)+" "+string(p.Reason)+": "+p.Message)
					}
				}
				if got := strings.Join(lines, "\n"); got != c.want {
					t.Errorf("predictions:\n got %s\nwant %s", got, c.want)
				}
				var notes []string
				for _, n := range pr.Notes() {
					if n.Code == NoteCustomResourcesUnchecked {
						notes = append(notes, n.Text)
					}
				}
				if got := strings.Join(notes, "\n"); got != c.notes {
					t.Errorf("notes:\n got %s\nwant %s", got, c.notes)
				}
			})
		}
	}
}

// TestCustomResourcesNotAsked: a bundle providing no API that has custom
// resources in the state asks for no contents and notes nothing.
func TestCustomResourcesNotAsked(t *testing.T) {
	state, err := cluster.Decode(strings.NewReader(crvState), "cluster.yaml")
	if err != nil {
		t.Fatal(err)
	}
	state.ClaimCustomResources()
	pr := New("operators", Platform{}, state, nil)
	pr.SetBundleCRDs(context.Background(), func(context.Context, *graph.Bundle) ([]*crd.Definition, error) {
		t.Error("contents asked for")
		return nil, nil
	}, nil)
	pr.Bundle(&graph.Bundle{Name: "other.v1", Provides: []graph.GVK{{Group: "other.example.com", Version: "v1", Kind: "Other"}}})
	if n := pr.Notes(); len(n) != 0 {
		t.Errorf("notes %v", n)
	}
}
