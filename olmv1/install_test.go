package olmv1_test

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/olmv1"
)

// opBundle is a catalog of package op with one bundle op.v1.0.0 whose
// properties after olm.package are props (YAML flow items).
func opBundle(t *testing.T, props ...string) olmv1.Catalog {
	t.Helper()
	doc := `
schema: olm.package
name: op
---
schema: olm.channel
package: op
name: stable
entries: [{name: op.v1.0.0}]
---
schema: olm.bundle
package: op
name: op.v1.0.0
image: x
properties:
- {type: olm.package, value: {packageName: op, version: 1.0.0}}
`
	for _, p := range props {
		doc += "- " + p + "\n"
	}
	return catalog("cat", 0, fbc(t, doc))
}

// csvObject is an olm.bundle.object property carrying a CSV whose spec is
// specJSON.
func csvObject(specJSON string) string {
	csv := `{"apiVersion":"operators.coreos.com/v1alpha1","kind":"ClusterServiceVersion","metadata":{"name":"op.v1.0.0"},"spec":` + specJSON + `}`
	return fmt.Sprintf("{type: olm.bundle.object, value: {data: %s}}", base64.StdEncoding.EncodeToString([]byte(csv)))
}

func modes(list ...string) string {
	var parts []string
	for _, m := range []string{"OwnNamespace", "SingleNamespace", "MultiNamespace", "AllNamespaces"} {
		parts = append(parts, fmt.Sprintf("{type: %s, supported: %v}", m, strings.Contains(" "+strings.Join(list, " ")+" ", " "+m+" ")))
	}
	return "{type: olm.csv.metadata, value: {installModes: [" + strings.Join(parts, ", ") + "]}}"
}

// TestInstallRefusals holds operator-controller's install checks, each
// message as its registry+v1 manifest provider and renderer write it
// (measured with its own code, see BENCHMARKS.md's differential).
func TestInstallRefusals(t *testing.T) {
	const prefix = `error for resolved bundle "op.v1.0.0" with version "1.0.0": `
	webhookCSV := csvObject(`{"installModes":[{"type":"AllNamespaces","supported":true},{"type":"OwnNamespace","supported":true}],
		"install":{"strategy":"deployment","spec":{"deployments":[{"name":"d","spec":{}}]}},
		"webhookdefinitions":[{"type":"ConversionWebhook","generateName":"c.example.com","deploymentName":"d","conversionCRDs":["as.example.com"]},
			{"type":"ValidatingAdmissionWebhook","generateName":"v.example.com","deploymentName":"gone","rules":[{"apiGroups":["*"],"resources":["pods"]}]}]}`)
	tests := []struct {
		name   string
		props  []string
		opts   olmv1.Options
		config string // spec.config.inline; "" for none
		reason olmv1.PredictionReason
		v1     string // "" for no refusal
	}{
		{name: "AllNamespaces installs", props: []string{modes("AllNamespaces")}},
		{name: "no AllNamespaces without the gate", props: []string{modes("OwnNamespace", "SingleNamespace")},
			reason: olmv1.ReasonInstallMode, v1: "unsupported bundle: bundle does not support AllNamespaces install mode"},
		{name: "MultiNamespace only, with the gate", props: []string{modes("MultiNamespace")}, opts: olmv1.Options{SingleOwnNamespace: true},
			reason: olmv1.ReasonInstallMode, v1: "unsupported bundle: bundle must support at least one of [AllNamespaces SingleNamespace OwnNamespace] install modes"},
		{name: "OwnNamespace only needs watchNamespace", props: []string{modes("OwnNamespace")}, opts: olmv1.Options{SingleOwnNamespace: true},
			reason: olmv1.ReasonConfiguration, v1: `invalid ClusterExtension configuration: invalid configuration: required field "watchNamespace" is missing`},
		{name: "OwnNamespace only, the install namespace", props: []string{modes("OwnNamespace")}, opts: olmv1.Options{SingleOwnNamespace: true},
			config: `{"watchNamespace":"ns"}`},
		{name: "OwnNamespace only, another namespace", props: []string{modes("OwnNamespace")}, opts: olmv1.Options{SingleOwnNamespace: true},
			config: `{"watchNamespace":"other"}`, reason: olmv1.ReasonConfiguration,
			v1: `invalid ClusterExtension configuration: invalid configuration: invalid format for field "watchNamespace": 'other' is not valid ownNamespaceInstallMode: invalid value "other": must be "ns" (the namespace where the operator is installed) because this operator only supports OwnNamespace install mode`},
		{name: "SingleNamespace only, an empty name", props: []string{modes("SingleNamespace")}, opts: olmv1.Options{SingleOwnNamespace: true},
			config: `{"watchNamespace":""}`, reason: olmv1.ReasonConfiguration,
			v1: "invalid ClusterExtension configuration: invalid configuration: multiple errors found:\n  - field \"watchNamespace\" must have minimum length of 1 (len=0)\n  - field \"watchNamespace\" must match pattern \"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$\""},
		{name: "AllNamespaces and OwnNamespace: watchNamespace honoured even without the gate", props: []string{modes("AllNamespaces", "OwnNamespace")},
			config: `{"watchNamespace":"ns"}`},
		{name: "AllNamespaces and SingleNamespace: the install namespace", props: []string{modes("AllNamespaces", "SingleNamespace")},
			config: `{"watchNamespace":"ns","foo":1}`, reason: olmv1.ReasonConfiguration,
			v1: "invalid ClusterExtension configuration: invalid configuration: multiple errors found:\n  - invalid value for field \"watchNamespace\"\n  - invalid type for field \"watchNamespace\": got string, want null\n  - invalid format for field \"watchNamespace\": 'ns' is not valid singleNamespaceInstallMode: invalid value \"ns\": must be different from \"ns\" (the install namespace) because this operator uses SingleNamespace install mode to watch a different namespace\n  - unknown field \"foo\""},
		{name: "AllNamespaces only has no watchNamespace", props: []string{modes("AllNamespaces")}, config: `{"watchNamespace":"ns"}`,
			reason: olmv1.ReasonConfiguration, v1: `invalid ClusterExtension configuration: invalid configuration: unknown field "watchNamespace"`},
		{name: "owned API services recorded in olm.csv.metadata",
			props:  []string{`{type: olm.csv.metadata, value: {installModes: [{type: AllNamespaces, supported: true}], apiServiceDefinitions: {owned: [{name: v1.m.example.com, group: m.example.com, version: v1, kind: M}]}}}`},
			reason: olmv1.ReasonAPIServices, v1: "unsupported bundle: apiServiceDefintions are not supported"},
		{name: "required API services install", props: []string{`{type: olm.csv.metadata, value: {installModes: [{type: AllNamespaces, supported: true}], apiServiceDefinitions: {required: [{name: v1.m.example.com, group: m.example.com, version: v1, kind: M}]}}}`}},
		{name: "webhooks without a certificate provider", props: []string{webhookCSV}, opts: olmv1.Options{NoWebhookProvider: true},
			reason: olmv1.ReasonWebhooks, v1: "unsupported bundle: webhookDefinitions are not supported"},
		{name: "webhooks the renderer refuses", props: []string{webhookCSV}, reason: olmv1.ReasonBundleValidation,
			v1: "bundle contains conversion webhook \"c.example.com\" and supports install modes [AllNamespaces OwnNamespace] - conversion webhooks are only supported for bundles that only support AllNamespaces install mode\n" +
				"webhook of type 'ValidatingAdmissionWebhook' with name 'v.example.com' references non-existent deployment 'gone'\n" +
				"conversion webhook 'c.example.com' references custom resource definition 'as.example.com' not owned bundle\n" +
				"webhook \"v.example.com\" contains forbidden rule: admission webhook rules cannot reference API group \"*\""},
		{name: "a manifest of a kind registry+v1 does not carry",
			props: []string{csvObject(`{"installModes":[{"type":"AllNamespaces","supported":true}]}`),
				fmt.Sprintf("{type: olm.bundle.object, value: {data: %s}}", base64.StdEncoding.EncodeToString([]byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"op"}}`))),
				fmt.Sprintf("{type: olm.bundle.object, value: {data: %s}}", base64.StdEncoding.EncodeToString([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\n")))},
			reason: olmv1.ReasonBundleValidation, v1: `unsupported resource "op" with kind "Deployment"`},
		{name: "nothing recorded, nothing predicted", props: nil},
		{name: "manifests that do not decode", props: []string{"{type: olm.bundle.object, value: {data: bm90IGpzb24=}}"}, reason: olmv1.ReasonBundleValidation},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := olmv1.New([]olmv1.Catalog{opBundle(t, tt.props...)}, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			ext := cluster.ClusterExtension{Name: "op", Namespace: "ns", SourceType: "Catalog", Package: "op"}
			if tt.config != "" {
				ext.Config = []byte(tt.config)
			}
			res := r.ResolveExtension(&ext)
			if res.Error != "" {
				t.Fatal(res.Error)
			}
			var got *olmv1.Prediction
			for i, p := range res.Predictions {
				if p.V1Message != "" {
					got = &res.Predictions[i]
				}
			}
			if tt.v1 == "" && tt.reason != "" {
				if len(res.Predictions) != 1 || res.Predictions[0].Reason != tt.reason || res.Predictions[0].Severity != olmv1.SeverityWarning {
					t.Errorf("predictions %v, want one %s warning", res.Predictions, tt.reason)
				}
				return
			}
			switch {
			case tt.v1 == "" && got != nil:
				t.Errorf("predicted %s: %s", got.Reason, got.V1Message)
			case tt.v1 != "" && got == nil:
				t.Errorf("no refusal predicted, want %s", tt.v1)
			case got != nil && (got.Reason != tt.reason || got.V1Message != prefix+tt.v1 || got.Severity != olmv1.SeverityFailure || got.Message == ""):
				t.Errorf("predicted %s (%s): %q\nwant %s: %q", got.Reason, got.Severity, got.V1Message, tt.reason, prefix+tt.v1)
			}
		})
	}
}

// TestBundleRelease: with BundleReleaseSupport, an olm.package release
// field is the release (above a bundle without one) and is recorded apart;
// without it, the field is ignored and the build metadata is the release.
func TestBundleRelease(t *testing.T) {
	c := catalog("cat", 0, fbc(t, `
schema: olm.package
name: op
---
schema: olm.channel
package: op
name: stable
entries: [{name: op.a}, {name: op.b}, {name: op.c}]
---
schema: olm.bundle
package: op
name: op.a
image: x
properties: [{type: olm.package, value: {packageName: op, version: 1.0.0+1}}]
---
schema: olm.bundle
package: op
name: op.b
image: x
properties: [{type: olm.package, value: {packageName: op, version: 1.0.0+build.01, release: "2"}}]
---
schema: olm.bundle
package: op
name: op.c
image: x
properties: [{type: olm.package, value: {packageName: op, version: 1.0.0, release: "1"}}]
`))
	ext := cluster.ClusterExtension{Name: "op", Namespace: "ns", SourceType: "Catalog", Package: "op"}
	for _, tt := range []struct {
		gate            bool
		bundle, version string
		release         string // "-" for none
		reason          string
	}{
		{gate: false, bundle: "op.a", version: "1.0.0+1", release: "-", reason: "without the gate the release fields are ignored: op.a's build metadata 1 is its release, op.b's build.01 is none (a leading zero), op.c has none"},
		{gate: true, bundle: "op.b", version: "1.0.0+build.01", release: "2", reason: "with it, op.b's release 2 is above op.a's 1 (from its build metadata) and op.c's 1, and its version keeps its build metadata"},
	} {
		r, err := olmv1.New([]olmv1.Catalog{c}, olmv1.Options{BundleRelease: tt.gate})
		if err != nil {
			t.Fatal(err)
		}
		res := r.ResolveExtension(&ext)
		rel := "-"
		if res.Release != nil {
			rel = *res.Release
		}
		if res.Bundle != tt.bundle || res.Version != tt.version || rel != tt.release {
			t.Errorf("gate %v: %s %s release %s (error %q), want %s %s release %s: %s", tt.gate, res.Bundle, res.Version, rel, res.Error, tt.bundle, tt.version, tt.release, tt.reason)
		}
	}
	// Installed op.b, recorded apart (1.0.0+build.01, release 2): no edge
	// leaves it and only op.b has its version and release, so it stays.
	r, _ := olmv1.New([]olmv1.Catalog{c}, olmv1.Options{BundleRelease: true})
	two := "2"
	up := ext
	up.Installed = &cluster.InstalledBundle{Name: "op.b", Version: "1.0.0+build.01", Release: &two}
	if res := r.ResolveExtension(&up); res.Bundle != "op.b" || res.Action != olmv1.ActionStay {
		t.Errorf("upgrade from op.b: %s %s %q, want to stay at op.b", res.Action, res.Bundle, res.Error)
	}
}
