package cluster_test

import (
	"bytes"
	"errors"
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
	s, err := cluster.Decode(strings.NewReader(v1Manifests), "v1.yaml")
	if err != nil {
		t.Fatal(err)
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
	back, err := cluster.Decode(&buf, "encoded.yaml")
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

func TestDecodeV1Errors(t *testing.T) {
	const ext = "apiVersion: olm.operatorframework.io/v1\nkind: ClusterExtension\n"
	const src = "  source: {sourceType: Catalog, catalog: {packageName: p}}\n"
	tests := []struct {
		name, input string
		wantErr     []string // one per reported error, in order
	}{
		{"unknown spec field, near a known one", ext + "metadata: {name: e}\nspec:\n  namespace: ns\n  serviceaccount: {name: x}\n" + src,
			[]string{`ClusterExtension "e": field spec.serviceaccount: unknown field (did you mean "serviceAccount"?)`}},
		{"unknown catalog field", ext + "metadata: {name: e}\nspec:\n  namespace: ns\n  source: {sourceType: Catalog, catalog: {packageName: p, channel: stable}}\n",
			[]string{`field spec.source.catalog.channel: unknown field (did you mean "channels"?)`}},
		{"unknown field far from any", ext + "metadata: {name: e}\nspec:\n  namespace: ns\n  replicas: 2\n" + src,
			[]string{`field spec.replicas: unknown field (known: namespace, serviceAccount, source, install, config, progressDeadlineMinutes)`}},
		{"unknown top-level and metadata fields", ext + "metadata: {name: e, nmae: f}\nspecs: {}\n",
			[]string{`field specs: unknown field (did you mean "spec"?)`, `field metadata.nmae: unknown field (did you mean "name"?)`}},
		{"unknown status field", ext + "metadata: {name: e}\nspec:\n  namespace: ns\n" + src + "status: {install: {bundle: {name: b, version: 1.0.0, channel: c}}}\n",
			[]string{`field status.install.bundle.channel: unknown field (known: name, version, release)`}},
		{"older API version", "apiVersion: olm.operatorframework.io/v1alpha1\nkind: ClusterExtension\nmetadata: {name: e}\nspec: {packageName: p}\n",
			[]string{`field apiVersion: ClusterExtension is "olm.operatorframework.io/v1alpha1", want "olm.operatorframework.io/v1"`}},
		{"namespaced", ext + "metadata: {name: e, namespace: ns}\nspec:\n  namespace: ns\n" + src,
			[]string{`field metadata.namespace: "ns": a ClusterExtension is cluster-scoped and has no namespace`}},
		{"no name", ext + "metadata: {}\nspec:\n  namespace: ns\n" + src, []string{`field metadata.name: missing`}},
		{"no spec", ext + "metadata: {name: e}\n", []string{`field spec: missing`}},
		{"no namespace, no package", ext + "metadata: {name: e}\nspec:\n  source: {sourceType: Catalog, catalog: {}}\n",
			[]string{`field spec.namespace: missing`, `field spec.source.catalog.packageName: missing`}},
		{"no catalog", ext + "metadata: {name: e}\nspec:\n  namespace: ns\n  source: {sourceType: Catalog}\n",
			[]string{`field spec.source.catalog: catalog is required when sourceType is Catalog, and forbidden otherwise`}},
		{"other source type", ext + "metadata: {name: e}\nspec:\n  namespace: ns\n  source: {sourceType: Image}\n",
			[]string{`field spec.source.sourceType: "Image", want Catalog`}},
		{"bad policy", ext + "metadata: {name: e}\nspec:\n  namespace: ns\n  source: {sourceType: Catalog, catalog: {packageName: p, upgradeConstraintPolicy: Any}}\n",
			[]string{`field spec.source.catalog.upgradeConstraintPolicy: unknown policy "Any", want CatalogProvided or SelfCertified`}},
		{"channels of the wrong type", ext + "metadata: {name: e}\nspec:\n  namespace: ns\n  source: {sourceType: Catalog, catalog: {packageName: p, channels: stable}}\n",
			[]string{`field spec.source.catalog.channels: is a string, want an array`}},
		{"preflight without a check", ext + "metadata: {name: e}\nspec:\n  namespace: ns\n" + src + "  install: {preflight: {}}\n",
			[]string{`field spec.install.preflight: at least one of [crdUpgradeSafety] are required when preflight is specified`}},
		{"config without inline", ext + "metadata: {name: e}\nspec:\n  namespace: ns\n" + src + "  config: {configType: Inline}\n",
			[]string{`field spec.config.inline: inline is required when configType is Inline, and forbidden otherwise`}},
		{"installed without version", ext + "metadata: {name: e}\nspec:\n  namespace: ns\n" + src + "status: {install: {bundle: {name: b}}}\n",
			[]string{`field status.install.bundle.version: missing`}},
		{"defined twice", ext + "metadata: {name: e}\nspec:\n  namespace: ns\n" + src + "---\n" + ext + "metadata: {name: e}\nspec:\n  namespace: ns\n" + src,
			[]string{`v1.yaml:8: ClusterExtension "e": defined twice (first at line v1.yaml:1)`}},
		{"catalog: bad priority, mode, label, condition",
			"apiVersion: olm.operatorframework.io/v1\nkind: ClusterCatalog\nmetadata: {name: c, labels: {olm.operatorframework.io/metadata.name: d}}\n" +
				"spec: {source: {type: Image}, priority: 1.5, availabilityMode: Paused}\nstatus: {conditions: [{type: Serving, status: Maybe}]}\n",
			[]string{`field metadata.labels["olm.operatorframework.io/metadata.name"]: "d" is not the catalog's name "c"`,
				`field spec.priority: 1.5 is not a 32-bit integer`,
				`field spec.availabilityMode: unknown mode "Paused", want Available or Unavailable`,
				`field status.conditions[0].status: "Maybe", want True, False or Unknown`}},
		{"catalog: unknown spec field", "apiVersion: olm.operatorframework.io/v1\nkind: ClusterCatalog\nmetadata: {name: c}\nspec: {source: {type: Image}, priorty: 2}\n",
			[]string{`field spec.priorty: unknown field (did you mean "priority"?)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := cluster.Decode(strings.NewReader(tt.input), "v1.yaml")
			if err == nil {
				t.Fatal("no error")
			}
			var got []string
			for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
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
