package cluster_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
)

const v1Manifests = `apiVersion: olm.operatorframework.io/v1
kind: ClusterExtension
metadata:
  name: argocd
  labels: {team: a}
spec:
  namespace: argocd
  serviceAccount: {name: argocd-installer}
  source:
    sourceType: Catalog
    catalog:
      packageName: argocd-operator
      version: ">=0.6.0 <0.9.0"
      channels: [alpha, beta]
      selector:
        matchLabels: {olm.operatorframework.io/metadata.name: community}
        matchExpressions:
        - {key: tier, operator: NotIn, values: [test]}
      upgradeConstraintPolicy: SelfCertified
  install:
    preflight:
      crdUpgradeSafety: {enforcement: None}
  config:
    configType: Inline
    inline: {watchNamespace: apps}
status:
  conditions:
  - {type: Installed, status: "True", reason: Succeeded, message: ok, lastTransitionTime: "2026-01-01T00:00:00Z", observedGeneration: 1}
  install:
    bundle: {name: argocd-operator.v0.6.0, version: 0.6.0}
---
apiVersion: olm.operatorframework.io/v1
kind: ClusterCatalog
metadata:
  name: community
  labels: {tier: prod}
spec:
  source:
    type: Image
    image: {ref: "quay.io/operatorhubio/catalog:latest", pollIntervalMinutes: 10}
  priority: -100
  availabilityMode: Unavailable
status:
  conditions:
  - {type: Serving, status: "False", reason: Unavailable}
  urls: {base: "https://catalogd.example/catalogs/community"}
---
apiVersion: olm.operatorframework.io/v1
kind: ClusterCatalog
metadata: {name: plain}
spec:
  source: {type: Image, image: {ref: "example.com/plain:1"}}
`

func TestDecodeV1(t *testing.T) {
	experimental := cluster.Loader{V1FeatureSet: cluster.FeatureSetExperimental}
	s, err := experimental.Decode(context.Background(), strings.NewReader(v1Manifests), "v1.yaml")
	if err != nil {
		t.Fatal(err)
	}
	wantNotes := []cluster.Note{{Code: cluster.NoteServiceAccountIgnored, File: "v1.yaml", Line: 1,
		Object: cluster.Ref{Kind: cluster.KindClusterExtension, Name: "argocd"}, Text: `ClusterExtension "argocd": ` + cluster.ServiceAccountDeprecated}}
	if !reflect.DeepEqual(s.Notes, wantNotes) {
		t.Errorf("notes = %+v\nwant %+v", s.Notes, wantNotes)
	}
	want := cluster.ClusterExtension{
		Name: "argocd", Namespace: "argocd", ServiceAccount: "argocd-installer", SourceType: "Catalog",
		Package: "argocd-operator", Version: ">=0.6.0 <0.9.0", Channels: []string{"alpha", "beta"},
		Selector: &cluster.LabelSelector{
			MatchLabels:      map[string]string{cluster.MetadataNameLabel: "community"},
			MatchExpressions: []cluster.LabelSelectorRequirement{{Key: "tier", Operator: "NotIn", Values: []string{"test"}}},
		},
		UpgradeConstraintPolicy: cluster.UpgradeSelfCertified, CRDUpgradeSafety: "None",
		Config: []byte(`{"watchNamespace":"apps"}`), WatchNamespace: "apps",
		Installed: &cluster.InstalledBundle{Name: "argocd-operator.v0.6.0", Version: "0.6.0"},
	}
	if len(s.ClusterExtensions) != 1 || !reflect.DeepEqual(s.ClusterExtensions[0], want) {
		t.Errorf("extensions = %+v\nwant %+v", s.ClusterExtensions, want)
	}
	wantCats := []cluster.ClusterCatalog{
		{Name: "community", Labels: map[string]string{"tier": "prod", cluster.MetadataNameLabel: "community"}, Priority: -100,
			AvailabilityMode: cluster.AvailabilityUnavailable, Serving: "False", ServingReason: "Unavailable",
			Image: "quay.io/operatorhubio/catalog:latest"},
		{Name: "plain", Labels: map[string]string{cluster.MetadataNameLabel: "plain"}, Image: "example.com/plain:1"},
	}
	if !reflect.DeepEqual(s.ClusterCatalogs, wantCats) {
		t.Errorf("catalogs = %+v\nwant %+v", s.ClusterCatalogs, wantCats)
	}
	if s.ClusterCatalogs[0].Available() || !s.ClusterCatalogs[1].Available() {
		t.Error("Available() disagrees with availabilityMode")
	}
	if got := s.ClusterExtensions[0].Policy(); got != cluster.UpgradeSelfCertified {
		t.Errorf("Policy() = %s", got)
	}
	if p := (&cluster.ClusterExtension{}).Policy(); p != cluster.UpgradeCatalogProvided {
		t.Errorf("default Policy() = %s, want CatalogProvided", p)
	}
	if s.ClusterExtension("argocd") == nil || s.ClusterCatalog("plain") == nil || s.ClusterCatalog("argocd") != nil {
		t.Error("lookups by name disagree")
	}

	// Encode writes them back; Decode reads the same state.
	var buf bytes.Buffer
	if err := cluster.Encode(&buf, s); err != nil {
		t.Fatal(err)
	}
	back, err := experimental.Decode(context.Background(), &buf, "encoded.yaml")
	if err != nil {
		t.Fatalf("decode of encoded state: %v\n%s", err, buf.String())
	}
	if !reflect.DeepEqual(back.ClusterExtensions, s.ClusterExtensions) || !reflect.DeepEqual(back.ClusterCatalogs, s.ClusterCatalogs) {
		t.Errorf("round trip:\n%+v\n%+v\nwant\n%+v\n%+v", back.ClusterExtensions, back.ClusterCatalogs, s.ClusterExtensions, s.ClusterCatalogs)
	}
	c := s.Clone()
	c.ClusterExtensions[0].Channels[0] = "changed"
	c.ClusterCatalogs[0].Labels["tier"] = "changed"
	if s.ClusterExtensions[0].Channels[0] != "alpha" || s.ClusterCatalogs[0].Labels["tier"] != "prod" {
		t.Error("Clone shares slices or maps with the original")
	}
}

func TestDecodeKindV1(t *testing.T) {
	in := `[{"metadata":{"name":"b"},"spec":{"namespace":"x","source":{"sourceType":"Catalog","catalog":{"packageName":"p"}}}},
{"metadata":{"name":"a"},"spec":{"namespace":"x","source":{"sourceType":"Catalog","catalog":{"packageName":"q"}}}}]`
	s, err := cluster.DecodeKind(strings.NewReader(in), "typed.json", cluster.KindClusterExtension)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.ClusterExtensions) != 2 || s.ClusterExtensions[0].Name != "a" || s.ClusterExtensions[1].Package != "p" {
		t.Errorf("extensions = %+v, want a then b, sorted by name", s.ClusterExtensions)
	}
}

// TestDecodeV1Errors: what the API server refuses is refused in its
// words, the object named once (testdata/apiserver.jsonl holds every kind
// of problem against the API server's own answers); what it takes and
// changes is noted.
func TestDecodeV1Errors(t *testing.T) {
	const ext = "apiVersion: olm.operatorframework.io/v1\nkind: ClusterExtension\n"
	const src = "  source: {sourceType: Catalog, catalog: {packageName: p}}\n"
	const invalid = `v1.yaml:1: ClusterExtension.olm.operatorframework.io "e" is invalid: `
	tests := []struct {
		name, input string
		wantErr     []string // every error, in order
	}{
		{"unknown spec field, near a known one", ext + "metadata: {name: e}\nspec:\n  namespace: ns\n  serviceaccount: {name: x}\n" + src,
			[]string{`v1.yaml:1: ClusterExtension "e": strict decoding error: unknown field "spec.serviceaccount" (did you mean "serviceAccount"?)`}},
		{"unknown field far from any", ext + "metadata: {name: e}\nspec:\n  namespace: ns\n  replicas: 2\n" + src,
			[]string{`v1.yaml:1: ClusterExtension "e": strict decoding error: unknown field "spec.replicas" (known: install, namespace, serviceAccount, source)`}},
		{"spec.config is experimental", ext + "metadata: {name: e}\nspec:\n  namespace: ns\n" + src + "  config: {configType: Inline, inline: {watchNamespace: a}}\n",
			[]string{`v1.yaml:1: ClusterExtension "e": strict decoding error: unknown field "spec.config" (known: install, namespace, serviceAccount, source)`}},
		{"unknown top-level and metadata fields, the rest checked too", ext + "metadata: {name: e, nmae: f}\nspecs: {}\n",
			[]string{`v1.yaml:1: ClusterExtension "e": strict decoding error: unknown field "metadata.nmae" (did you mean "name"?)`,
				`v1.yaml:1: ClusterExtension "e": strict decoding error: unknown field "specs" (did you mean "spec"?)`}},
		{"older API version", "apiVersion: olm.operatorframework.io/v1alpha1\nkind: ClusterExtension\nmetadata: {name: e}\nspec: {packageName: p}\n",
			[]string{`field apiVersion: ClusterExtension is "olm.operatorframework.io/v1alpha1", want "olm.operatorframework.io/v1"`}},
		{"no name", ext + "metadata: {}\nspec:\n  namespace: ns\n" + src, []string{`field metadata.name: missing`}},
		{"no namespace, no package: the rules are not evaluated", ext + "metadata: {name: e}\nspec:\n  source: {sourceType: Catalog, catalog: {}}\n",
			[]string{invalid + `spec.namespace: Required value`, invalid + `spec.source.catalog.packageName: Required value`,
				invalid + `some validation rules were not checked because the object was invalid; correct the existing errors to complete validation`}},
		{"a rule of an object", ext + "metadata: {name: e}\nspec:\n  namespace: ns\n  source: {sourceType: Catalog}\n",
			[]string{invalid + `spec.source: Invalid value: catalog is required when sourceType is Catalog, and forbidden otherwise`}},
		{"rules of strings", ext + "metadata: {name: e}\nspec:\n  namespace: Apps\n  source: {sourceType: Catalog, catalog: {packageName: p, version: latest}}\n",
			[]string{invalid + `spec.namespace: Invalid value: "Apps": namespace must be a valid DNS1123 label`,
				invalid + `spec.source.catalog.version: Invalid value: "latest": invalid version expression`}},
		{"bad policy", ext + "metadata: {name: e}\nspec:\n  namespace: ns\n  source: {sourceType: Catalog, catalog: {packageName: p, upgradeConstraintPolicy: Any}}\n",
			[]string{invalid + `spec.source.catalog.upgradeConstraintPolicy: Unsupported value: "Any": supported values: "CatalogProvided", "SelfCertified"`,
				invalid + `some validation rules were not checked because the object was invalid; correct the existing errors to complete validation`}},
		{"installed without version", ext + "metadata: {name: e}\nspec:\n  namespace: ns\n" + src + "status: {install: {bundle: {name: b}}}\n",
			[]string{`field status.install.bundle.version: missing`}},
		{"defined twice", ext + "metadata: {name: e}\nspec:\n  namespace: ns\n" + src + "---\n" + ext + "metadata: {name: e}\nspec:\n  namespace: ns\n" + src,
			[]string{`v1.yaml:8: ClusterExtension "e": defined twice (first at line v1.yaml:1)`}},
		{"catalog: metadata the API server cannot decode",
			"apiVersion: olm.operatorframework.io/v1\nkind: ClusterCatalog\nmetadata: {name: c, labels: {tier: 1}}\nspec: {source: {type: Image}}\n",
			[]string{`v1.yaml:1: ClusterCatalog "c": json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string`}},
		{"catalog: bad priority, mode, condition",
			"apiVersion: olm.operatorframework.io/v1\nkind: ClusterCatalog\nmetadata: {name: c}\n" +
				"spec: {source: {type: Image, image: {ref: quay.io/a/b}}, priority: 1.5, availabilityMode: Paused}\nstatus: {conditions: [{type: Serving, status: Maybe}]}\n",
			[]string{`v1.yaml:1: ClusterCatalog.olm.operatorframework.io "c" is invalid: spec.availabilityMode: Unsupported value: "Paused": supported values: "Unavailable", "Available"`,
				`v1.yaml:1: ClusterCatalog.olm.operatorframework.io "c" is invalid: spec.priority: Invalid value: "float64": spec.priority in body must be of type int32: "float64"`,
				`v1.yaml:1: ClusterCatalog.olm.operatorframework.io "c" is invalid: Checked value must be of type integer with format int32 in spec.priority`,
				`v1.yaml:1: ClusterCatalog.olm.operatorframework.io "c" is invalid: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := cluster.Decode(strings.NewReader(tt.input), "v1.yaml")
			if err == nil {
				t.Fatal("no error")
			}
			var got []string
			for _, e := range flatten(err) {
				var ce *cluster.Error
				if !errors.As(e, &ce) {
					t.Errorf("error %v is not a *cluster.Error", e)
				}
				got = append(got, e.Error())
			}
			if len(got) != len(tt.wantErr) {
				t.Fatalf("errors:\n%s\nwant %d", strings.Join(got, "\n"), len(tt.wantErr))
			}
			for i, w := range tt.wantErr {
				if !strings.Contains(got[i], w) {
					t.Errorf("error %d = %q\nwant it to contain %q", i, got[i], w)
				}
			}
		})
	}
}

// TestDecodeV1Notes: what the API server takes but changes, or catalogd
// changes, is read as they leave it and noted; a selector the API server
// takes is read as written, valid or not (operator-controller judges it).
func TestDecodeV1Notes(t *testing.T) {
	in := `apiVersion: olm.operatorframework.io/v1
kind: ClusterExtension
metadata: {name: e, namespace: ns}
spec:
  namespace: ns
  source:
    sourceType: Catalog
    catalog:
      packageName: p
      upgradeConstraintPolicy: CatalogProvided
      selector:
        matchExpressions: [{key: tier, operator: In, values: []}, {key: a, operator: Bad}]
---
apiVersion: olm.operatorframework.io/v1
kind: ClusterCatalog
metadata: {name: c, labels: {olm.operatorframework.io/metadata.name: d}}
spec: {source: {type: Image, image: {ref: "quay.io/a/b:1"}}, availabilityMode: Available}
`
	s, err := cluster.Decode(strings.NewReader(in), "n.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var notes []string
	for _, n := range s.Notes {
		notes = append(notes, fmt.Sprintf("%s %s:%d %s", n.Code, n.File, n.Line, n))
	}
	want := []string{
		`namespace-dropped n.yaml:1 ClusterExtension "e": metadata.namespace "ns" dropped: a ClusterExtension is cluster-scoped, and the API server clears it`,
		`clustercatalog-name-label n.yaml:14 ClusterCatalog "c": label olm.operatorframework.io/metadata.name="d" replaced by "c": catalogd sets it to the catalog's name`,
	}
	if !reflect.DeepEqual(notes, want) {
		t.Errorf("notes:\n%s\nwant\n%s", strings.Join(notes, "\n"), strings.Join(want, "\n"))
	}
	sel := s.ClusterExtensions[0].Selector
	wantSel := &cluster.LabelSelector{MatchExpressions: []cluster.LabelSelectorRequirement{{Key: "tier", Operator: "In", Values: []string{}}, {Key: "a", Operator: "Bad"}}}
	if !reflect.DeepEqual(sel, wantSel) {
		t.Errorf("selector = %+v, want %+v", sel, wantSel)
	}
	if p := s.ClusterExtensions[0].UpgradeConstraintPolicy; p != "" {
		t.Errorf("policy = %q: the default is kept as empty", p)
	}
	if c := s.ClusterCatalogs[0]; c.Labels[cluster.MetadataNameLabel] != "c" || c.AvailabilityMode != "" {
		t.Errorf("catalog = %+v", c)
	}
}

func TestV1OtherKindsIgnored(t *testing.T) {
	in := "apiVersion: olm.operatorframework.io/v1\nkind: ClusterExtensionRevision\nmetadata: {name: r}\n"
	s, err := cluster.Decode(strings.NewReader(in), "r.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.IgnoredText(); got != "1 ClusterExtensionRevision" {
		t.Errorf("ignored = %q", got)
	}
}

func TestNewClusterCatalog(t *testing.T) {
	c := cluster.NewClusterCatalog("community")
	want := cluster.ClusterCatalog{Name: "community", Labels: map[string]string{cluster.MetadataNameLabel: "community"}, Serving: "True"}
	if !reflect.DeepEqual(c, want) || !c.Available() {
		t.Errorf("NewClusterCatalog = %+v, want %+v", c, want)
	}
}
