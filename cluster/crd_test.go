package cluster_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

const widgetsCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
  labels: {olm.managed: "true"}
spec:
  group: example.com
  names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget}
  scope: Namespaced
  versions:
  - name: v1alpha1
    served: true
    storage: false
    schema: {openAPIV3Schema: {type: object}}
  - name: v1
    served: true
    storage: true
status:
  acceptedNames: {kind: Widget, plural: widgets}
  storedVersions: [v1alpha1, v1]
`

func TestDecodeCRD(t *testing.T) {
	s, err := cluster.Decode(strings.NewReader(widgetsCRD), "crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := cluster.CRD{Name: "widgets.example.com", Group: "example.com", Kind: "Widget",
		Versions:       []cluster.CRDVersion{{Name: "v1alpha1", Served: true}, {Name: "v1", Served: true, Storage: true}},
		StoredVersions: []string{"v1alpha1", "v1"}}
	got := s.CRD("widgets.example.com")
	if got == nil {
		t.Fatal("no CRD")
	}
	// v1 has no schema: the CRD is not read whole (no Definition), and
	// is read as far as resolution needs it.
	if got.Definition != nil || got.DefinitionErr == nil || !strings.Contains(got.DefinitionErr.Error(), "spec.versions[1].schema.openAPIV3Schema: missing") {
		t.Errorf("Definition %v, DefinitionErr %v; want none, for the version without a schema", got.Definition, got.DefinitionErr)
	}
	g := *got
	g.Definition, g.DefinitionErr = nil, nil
	if !reflect.DeepEqual(g, want) {
		t.Fatalf("CRD = %+v\nwant %+v", g, want)
	}
	if s.IgnoredText() != "" {
		t.Errorf("ignored %q, want nothing", s.IgnoredText())
	}
	// Encode writes back what resolution reads (not the schemas).
	var buf bytes.Buffer
	if err := cluster.Encode(&buf, s); err != nil {
		t.Fatal(err)
	}
	back, err := cluster.Decode(&buf, "encoded.yaml")
	if err != nil {
		t.Fatalf("decode encoded: %v\n%s", err, buf.String())
	}
	back.CRDs[0].DefinitionErr = got.DefinitionErr
	if !reflect.DeepEqual(back.CRDs, s.CRDs) {
		t.Errorf("round trip = %+v, want %+v", back.CRDs, s.CRDs)
	}
}

// TestDecodeCRDDefinition: a CRD as kubectl get crd -o yaml prints it (a
// schema for every version) is read whole too (Definition: what OLM v1's
// CRD upgrade safety preflight compares); an unknown field of a schema or
// of spec.conversion is refused as the API server refuses it.
func TestDecodeCRDDefinition(t *testing.T) {
	whole := strings.Replace(widgetsCRD, "    storage: true\n", "    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec: {type: object, properties: {color: {type: string, maxLength: 20}}}\n", 1)
	whole = strings.Replace(whole, "  scope: Namespaced\n", "  scope: Namespaced\n  conversion: {strategy: None}\n", 1)
	s, err := cluster.Decode(strings.NewReader(whole), "crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c := s.CRD("widgets.example.com")
	if c == nil || c.DefinitionErr != nil || c.Definition == nil {
		t.Fatalf("CRD %+v", c)
	}
	d := c.Definition
	if d.ConversionStrategy != "None" || len(d.Versions) != 2 || d.Versions[1].Schema == nil || !reflect.DeepEqual(d.StoredVersions, []string{"v1alpha1", "v1"}) {
		t.Errorf("Definition %+v", d)
	}
	if ml := d.Versions[1].Schema.Properties["spec"].Properties["color"].MaxLength; ml == nil || *ml != 20 {
		t.Errorf("color's maxLength %v, want 20", ml)
	}
	for _, tc := range []struct{ edit, want string }{
		{"maxLength: 20", "spec.versions[1].schema.openAPIV3Schema.properties.spec.properties.color.maxLenght: unknown field"},
		{"strategy: None", "spec.conversion.strategi: unknown field"},
	} {
		bad := strings.Replace(whole, tc.edit, strings.Replace(strings.Replace(tc.edit, "maxLength", "maxLenght", 1), "strategy", "strategi", 1), 1)
		_, err := cluster.Decode(strings.NewReader(bad), "crd.yaml")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.edit, err, tc.want)
		}
	}
}

func TestDecodeCRDErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(string) string
		want string // a substring of the error
	}{
		{"v1beta1", func(s string) string {
			return strings.Replace(s, "apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1", 1)
		}, `CustomResourceDefinition "widgets.example.com": field apiVersion: is "apiextensions.k8s.io/v1beta1", want "apiextensions.k8s.io/v1"`},
		{"namespaced", func(s string) string {
			return strings.Replace(s, "  name: widgets.example.com\n", "  name: widgets.example.com\n  namespace: x\n", 1)
		}, `field metadata.namespace: is "x", want none: a CustomResourceDefinition is cluster-scoped`},
		{"name not plural.group", func(s string) string {
			return strings.Replace(s, "name: widgets.example.com", "name: gadgets.example.com", 1)
		}, `field metadata.name: is not "widgets.example.com"`},
		{"no group", func(s string) string { return strings.Replace(s, "  group: example.com\n", "", 1) }, "field spec.group: missing"},
		{"stored version not a string", func(s string) string {
			return strings.Replace(s, "storedVersions: [v1alpha1, v1]", "storedVersions: [v1alpha1, 1]", 1)
		}, "field status.storedVersions[1]: is a number, want a string"},
		{"served not a boolean", func(s string) string {
			return strings.Replace(s, "served: true\n    storage: false", "served: yes please\n    storage: false", 1)
		}, "field spec.versions[0].served: is a string, want a boolean"},
		{"two storage versions", func(s string) string {
			return strings.Replace(s, "storage: false", "storage: true", 1)
		}, "field spec.versions: 2 versions have storage: true, want exactly one"},
		{"version twice", func(s string) string {
			return strings.Replace(s, "- name: v1\n", "- name: v1alpha1\n", 1)
		}, `field spec.versions[1].name: version "v1alpha1" is listed twice`},
		{"unknown field", func(s string) string {
			return strings.Replace(s, "    served: true\n    storage: false", "    served: true\n    storge: false", 1)
		}, `field spec.versions[0].storge: unknown field (did you mean "storage"?)`},
		{"defined twice", func(s string) string { return s + "---\n" + s }, "defined twice (first at line crd.yaml:1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := cluster.Decode(strings.NewReader(tt.edit(widgetsCRD)), "crd.yaml")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v\nwant it to contain %q", err, tt.want)
			}
		})
	}
}

func TestStoredVersionsDropped(t *testing.T) {
	c := cluster.CRD{StoredVersions: []string{"v1alpha1", "v1"}}
	tests := []struct {
		versions []string
		want     []string
	}{
		{[]string{"v1alpha1", "v1"}, nil},
		{[]string{"v1", "v2"}, []string{"v1alpha1"}},
		{nil, []string{"v1alpha1", "v1"}},
	}
	for _, tt := range tests {
		if got := c.StoredVersionsDropped(tt.versions); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("StoredVersionsDropped(%v) = %v, want %v", tt.versions, got, tt.want)
		}
	}
}

// TestDecodeMigrationFields checks the fields the v0 → v1 report reads
// besides CRDs: a dependency subscription's olm.generated-by, a
// CatalogSource's image, an OperatorGroup's service account and a CSV's
// owned API services; Encode writes them back.
func TestDecodeMigrationFields(t *testing.T) {
	in := `apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: dep, namespace: ns, annotations: {olm.generated-by: install-abcde}}
spec: {name: dep}
---
apiVersion: operators.coreos.com/v1alpha1
kind: CatalogSource
metadata: {name: community, namespace: olm}
spec: {sourceType: grpc, image: "quay.io/operatorhubio/catalog:latest"}
---
apiVersion: operators.coreos.com/v1
kind: OperatorGroup
metadata: {name: og, namespace: ns}
spec: {serviceAccountName: scoped}
---
apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata: {name: adapter.v1, namespace: ns}
spec:
  version: 1.0.0
  customresourcedefinitions:
    owned: [{name: widgets.example.com, version: v1, kind: Widget}]
  apiservicedefinitions:
    owned: [{group: metrics.example.com, version: v1beta1, kind: Metric, name: metrics}]
`
	check := func(s *cluster.State) {
		t.Helper()
		if got := s.Subscription("ns", "dep").GeneratedBy; got != "install-abcde" {
			t.Errorf("GeneratedBy = %q", got)
		}
		if got := s.CatalogSources[0].Image; got != "quay.io/operatorhubio/catalog:latest" {
			t.Errorf("Image = %q", got)
		}
		if got := s.OperatorGroups[0].ServiceAccountName; got != "scoped" {
			t.Errorf("ServiceAccountName = %q", got)
		}
		c := s.CSV("ns", "adapter.v1")
		if want := "[metrics.example.com/v1beta1 Metric]"; fmtGVKs(c.APIServices) != want || len(c.Provides) != 2 {
			t.Errorf("APIServices = %s, Provides = %v; want %s and both APIs", fmtGVKs(c.APIServices), c.Provides, want)
		}
	}
	s, err := cluster.Decode(strings.NewReader(in), "in.yaml")
	if err != nil {
		t.Fatal(err)
	}
	check(s)
	var buf bytes.Buffer
	if err := cluster.Encode(&buf, s); err != nil {
		t.Fatal(err)
	}
	back, err := cluster.Decode(&buf, "out.yaml")
	if err != nil {
		t.Fatal(err)
	}
	check(back)
}

func fmtGVKs(gvks []graph.GVK) string {
	s := make([]string, len(gvks))
	for i, g := range gvks {
		s[i] = g.String()
	}
	return "[" + strings.Join(s, ", ") + "]"
}
