package sextant_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/resolver/predict"
)

// TestExistingCustomResources: the library gives what resolve prints
// (testdata/cli/cases/resolve_cr_validation.txtar): with the bundle
// folders, the step to memcached-operator 0.0.1 fails in OLM v0's words on
// the Memcached app-b/big, read as a custom resource of the manifests (no
// longer counted among the ignored kinds); without them, the plan notes
// that the custom resources were not validated.
func TestExistingCustomResources(t *testing.T) {
	ctx := context.Background()
	const dir = "testdata/cli/crvalidate/"
	for _, c := range []struct {
		name    string
		bundles []string
		fail    string
		note    predict.NoteCode
	}{
		{"with contents", []string{dir + "bundles"}, `InstallComponentFailed: error validating existing CRs against new CRD's schema for "memcacheds.cache.example.com": error validating cache.example.com/v1alpha1, Kind=Memcached "app-b/big": updated validation is too restrictive: [].spec.size: Invalid value: 5: spec.size in body should be less than or equal to 3 (Memcached app-b/big, read from testdata/cli/crvalidate/cluster.yaml:56`, ""},
		{"without", nil, "", predict.NoteCustomResourcesUnchecked},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := sextant.Input{
				Catalogs:  []sextant.CatalogInput{{Name: "memcached", Path: dir + "catalog.yaml"}},
				Manifests: files(dir + "cluster.yaml"),
				Namespace: "operators",
				Bundles:   c.bundles,
			}
			w, err := sextant.Load(ctx, in, sextant.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(w.State.CustomResources) != 2 || strings.Contains(w.State.IgnoredText(), "Memcached") {
				t.Errorf("custom resources %d, ignored %q", len(w.State.CustomResources), w.State.IgnoredText())
			}
			a, err := w.Resolve(ctx, sextant.AnswerOptions{})
			if err != nil {
				t.Fatal(err)
			}
			p := a.Namespaces[0].Plan
			if p == nil || len(p.Steps) != 1 {
				t.Fatalf("plan %+v", a.Namespaces[0])
			}
			var got string
			for _, pr := range p.Steps[0].Predictions {
				if pr.Reason == predict.ReasonInstallComponentFailed {
					got = string(pr.Reason) + ": " + pr.Message
				}
			}
			if !strings.HasPrefix(got, c.fail) || (c.fail == "") != (got == "") {
				t.Errorf("prediction %q, want %q…", got, c.fail)
			}
			var note bool
			for _, n := range p.Notes {
				note = note || n.Code == predict.NoteCustomResourcesUnchecked
			}
			if note != (c.note != "") {
				t.Errorf("notes %v", p.Notes)
			}
		})
	}
}
