package graph

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/sextantdev/sextant/internal/testcatalog"
)

// bundleObject returns an olm.bundle.object property carrying doc.
func bundleObject(doc string) Property {
	return prop(TypeBundleObject, `{"data":"`+base64.StdEncoding.EncodeToString([]byte(doc))+`"}`)
}

func TestManifests(t *testing.T) {
	const csvJSON = `{"apiVersion":"operators.coreos.com/v1alpha1","kind":"ClusterServiceVersion","metadata":{"name":"op.v1.0.0"},
		"spec":{"version":"1.0.0","installModes":[{"type":"AllNamespaces","supported":true}],
		"apiservicedefinitions":{"owned":[{"name":"v1.m.example.com","group":"m.example.com","version":"v1","kind":"M","deploymentName":"d"}]},
		"webhookdefinitions":[{"type":"ConversionWebhook","generateName":"c.example.com","deploymentName":"d","conversionCRDs":["as.example.com"]},
			{"type":"ValidatingAdmissionWebhook","generateName":"v.example.com","deploymentName":"d","rules":[{"apiGroups":["*"],"resources":["pods"]}]}],
		"install":{"strategy":"deployment","spec":{"deployments":[{"name":"d","spec":{}}],
			"permissions":[{"serviceAccountName":"op","rules":[{"apiGroups":[""],"resources":["configmaps"],"verbs":["get"]}]}],
			"clusterPermissions":[{"serviceAccountName":"op","rules":[{"nonResourceURLs":["/metrics"],"verbs":["get"]}]}]}},
		"customresourcedefinitions":{"owned":[{"name":"as.example.com","kind":"A","version":"v1"}]}}}`
	const crdYAML = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: as.example.com\nspec:\n  group: example.com\n"
	tests := []struct {
		name    string
		props   []Property
		want    *BundleManifests
		wantErr string
	}{
		{name: "no object", props: []Property{PackageProperty("p", "1.0.0")}},
		{
			name:  "a CSV in JSON, a CRD in YAML",
			props: []Property{PackageProperty("p", "1.0.0"), bundleObject(csvJSON), bundleObject(crdYAML)},
			want: &BundleManifests{
				Objects: []ObjectRef{
					{APIVersion: "operators.coreos.com/v1alpha1", Kind: "ClusterServiceVersion", Name: "op.v1.0.0"},
					{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition", Name: "as.example.com"},
				},
				CSV: &CSVManifest{
					Name:         "op.v1.0.0",
					Version:      "1.0.0",
					InstallModes: []InstallMode{{InstallModeAllNamespaces, true}},
					APIServiceDefinitions: APIServiceDefinitions{Owned: []APIServiceDescription{
						{Name: "v1.m.example.com", Group: "m.example.com", Version: "v1", Kind: "M", DeploymentName: "d"}}},
					Webhooks: []WebhookDefinition{
						{Type: WebhookConversion, GenerateName: "c.example.com", DeploymentName: "d", ConversionCRDs: []string{"as.example.com"}},
						{Type: WebhookValidating, GenerateName: "v.example.com", DeploymentName: "d", Rules: []WebhookRule{{APIGroups: []string{"*"}, Resources: []string{"pods"}}}},
					},
					Deployments: []string{"d"},
					OwnedCRDs:   []string{"as.example.com"},
					Permissions: []StrategyPermissions{{ServiceAccountName: "op",
						Rules: []PolicyRule{{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get"}}}}},
					ClusterPermissions: []StrategyPermissions{{ServiceAccountName: "op",
						Rules: []PolicyRule{{NonResourceURLs: []string{"/metrics"}, Verbs: []string{"get"}}}}},
				},
			},
		},
		{
			name:    "bad objects are reported, the others read",
			props:   []Property{prop(TypeBundleObject, `{"data":"not base64!"}`), bundleObject(crdYAML), bundleObject("kind: [")},
			want:    &BundleManifests{Objects: []ObjectRef{{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition", Name: "as.example.com"}}},
			wantErr: "property 0 (olm.bundle.object): value: illegal base64 data at input byte 3\nproperty 2 (olm.bundle.object): data: yaml:",
		},
		{
			name:    "a CSV whose spec has the wrong shape",
			props:   []Property{bundleObject(`{"kind":"ClusterServiceVersion","metadata":{"name":"x"},"spec":{"installModes":"all"}}`)},
			want:    &BundleManifests{Objects: []ObjectRef{{Kind: "ClusterServiceVersion", Name: "x"}}},
			wantErr: `property 0 (olm.bundle.object): ClusterServiceVersion "x": field spec.installModes: is a string, want a list`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := ParseProperties(tt.props)
			if err != nil {
				t.Fatal(err)
			}
			got, err := b.Manifests()
			testcatalog.WantErr(t, err, tt.wantErr)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Manifests() = %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// FuzzManifests checks that Manifests reads any olm.bundle.object data
// without panicking, and that a JSON object is always one manifest, its
// kind and name as encoding/json reads them.
func FuzzManifests(f *testing.F) {
	for _, s := range []string{`{"kind":"ClusterServiceVersion","metadata":{"name":"x"},"spec":{"installModes":[]}}`,
		`{"kind":"ConfigMap","metadata":{"name":"c"}}`, "kind: Secret\nmetadata: {name: s}\n", `[1]`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := ParseProperties([]Property{bundleObject(string(data))})
		if err != nil {
			t.Fatal(err)
		}
		m, err := b.Manifests()
		var want objectHeader
		if json.Unmarshal(data, &want) != nil || !json.Valid(data) || bytes.TrimSpace(data)[0] != '{' {
			return
		}
		if err != nil && len(m.Objects) == 0 {
			t.Fatalf("%q: %v, and no object read", data, err)
		}
		if len(m.Objects) != 1 || m.Objects[0].Kind != want.Kind || m.Objects[0].Name != want.Metadata.Name {
			t.Fatalf("%q: objects %+v, encoding/json reads kind %q name %q", data, m.Objects, want.Kind, want.Metadata.Name)
		}
	})
}

func TestCSVRecord(t *testing.T) {
	const manifestCSV = `{"kind":"ClusterServiceVersion","metadata":{"name":"op.v1.0.0"},"spec":{
		"installModes":[{"type":"OwnNamespace","supported":true}],
		"apiservicedefinitions":{"owned":[{"name":"v1.m.example.com","group":"m.example.com","version":"v1","kind":"M"}]}}}`
	metadata := prop(TypeCSVMetadata, `{"installModes":[{"type":"AllNamespaces","supported":true}],
		"apiServiceDefinitions":{"owned":[{"name":"v2.n.example.com","group":"n.example.com","version":"v2","kind":"N"}]}}`)
	own := []InstallMode{{InstallModeOwnNamespace, true}}
	all := []InstallMode{{InstallModeAllNamespaces, true}}
	m := []APIServiceDescription{{Name: "v1.m.example.com", Group: "m.example.com", Version: "v1", Kind: "M"}}
	n := []APIServiceDescription{{Name: "v2.n.example.com", Group: "n.example.com", Version: "v2", Kind: "N"}}
	tests := []struct {
		name         string
		props        []Property
		fromManifest bool
		modes        []InstallMode
		modesKnown   bool
		owned        []APIServiceDescription
		wantErr      string
	}{
		{name: "neither"},
		{name: "olm.csv.metadata", props: []Property{metadata}, modes: all, modesKnown: true, owned: n},
		{name: "the CSV manifest comes first", props: []Property{metadata, bundleObject(manifestCSV)}, fromManifest: true, modes: own, modesKnown: true, owned: m},
		{name: "manifests without a CSV", props: []Property{metadata, bundleObject(`{"kind":"ConfigMap","metadata":{"name":"c"}}`)}, modes: all, modesKnown: true, owned: n},
		{name: "a manifest that does not decode", props: []Property{metadata, bundleObject("kind: [")},
			modes: all, modesKnown: true, owned: n, wantErr: "property 2 (olm.bundle.object): data: yaml:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := ParseProperties(append([]Property{PackageProperty("p", "1.0.0")}, tt.props...))
			if err != nil {
				t.Fatal(err)
			}
			rec, err := b.CSVRecord()
			testcatalog.WantErr(t, err, tt.wantErr)
			if rec.FromManifest != tt.fromManifest || rec.ModesKnown != tt.modesKnown ||
				!reflect.DeepEqual(rec.InstallModes, tt.modes) || !reflect.DeepEqual(rec.OwnedAPIServices, tt.owned) {
				t.Errorf("CSVRecord() = %+v, want from manifest %v, modes %v (known %v), owned %v", rec, tt.fromManifest, tt.modes, tt.modesKnown, tt.owned)
			}
		})
	}
}
