package cluster_test

import (
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
)

// TestDecodeUnknownFields: a field the OLM object's schema does not have is
// an error naming file, line, object and field, with the nearest real
// field — as kubectl refuses it.
func TestDecodeUnknownFields(t *testing.T) {
	const sub = "apiVersion: operators.coreos.com/v1alpha1\nkind: Subscription\nmetadata: {name: s, namespace: ns}\n"
	tests := []struct {
		name, input string
		wantErr     []string
	}{
		{"a typo in spec", sub + "spec: {name: etcd, chanel: clusterwide-alpha}\n",
			[]string{`in.yaml:1: Subscription "ns/s": field spec.chanel: unknown field (did you mean "channel"?)`}},
		{"a field in the wrong case", sub + "spec: {name: etcd, StartingCSV: etcd.v1}\n",
			[]string{`field spec.StartingCSV: unknown field (did you mean "startingCSV"?)`}},
		{"deep in the config's env", sub + "spec:\n  name: etcd\n  config:\n    env:\n    - {name: A, valeu: b}\n",
			[]string{`field spec.config.env[0].valeu: unknown field (did you mean "value"?)`}},
		{"far from any field, few fields", sub + "spec: {name: etcd, replicas: 2}\n",
			[]string{`field spec.replicas: unknown field (known: channel, config, installPlanApproval, name, source, sourceNamespace, startingCSV)`}},
		{"metadata, top level", "apiVersion: operators.coreos.com/v1alpha1\nkind: Subscription\nmetadata: {name: s, namepsace: ns}\nspec: {name: etcd}\nspecs: {}\n",
			[]string{`field metadata.namespace: missing`, `field metadata.namepsace: unknown field (did you mean "namespace"?)`, `field specs: unknown field (did you mean "spec"?)`}},
		{"an OperatorGroup", "apiVersion: operators.coreos.com/v1\nkind: OperatorGroup\nmetadata: {name: og, namespace: ns}\nspec: {targetNamespace: [ns]}\n",
			[]string{`OperatorGroup "ns/og": field spec.targetNamespace: unknown field (did you mean "targetNamespaces"?)`}},
		{"a CatalogSource", "apiVersion: operators.coreos.com/v1alpha1\nkind: CatalogSource\nmetadata: {name: c, namespace: olm}\nspec: {sourcetype: grpc, updateStrategy: {registryPoll: {intervall: 10m}}}\n",
			[]string{`field spec.sourcetype: unknown field (did you mean "sourceType"?)`, `field spec.updateStrategy.registryPoll.intervall: unknown field (did you mean "interval"?)`}},
		{"an InstallPlan", "apiVersion: operators.coreos.com/v1alpha1\nkind: InstallPlan\nmetadata: {name: ip, namespace: ns}\nspec: {approval: Manual, aproved: true, clusterServiceVersionNames: [a.v1]}\n",
			[]string{`InstallPlan "ns/ip": field spec.aproved: unknown field (did you mean "approved"?)`}},
		{"a CSV's deployment", "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata: {name: a.v1, namespace: ns}\n" +
			"spec:\n  version: 1.0.0\n  miniKubeVersion: 1.20.0\n  install:\n    strategy: deployment\n    spec:\n      deployments:\n      - name: d\n        spec:\n          template:\n            spec:\n              containers:\n              - {name: c, imag: x}\n",
			[]string{`field spec.install.spec.deployments[0].spec.template.spec.containers[0].imag: unknown field (did you mean "image"?)`,
				`field spec.miniKubeVersion: unknown field (did you mean "minKubeVersion"?)`}},
		{"in a List, the item named", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: operators.coreos.com/v1alpha1\n  kind: Subscription\n  metadata: {name: s, namespace: ns}\n  spec: {name: etcd, chanel: a}\n",
			[]string{`in.yaml:4: Subscription "ns/s": field items[0].spec.chanel: unknown field (did you mean "channel"?)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := cluster.Decode(strings.NewReader(tt.input), "in.yaml")
			checkErrors(t, err, tt.wantErr)
		})
	}
}

// TestDecodeKubectlOutput: what kubectl prints of every OLM kind — status,
// managedFields, owner references, a CSV's deployment, fields Sextant does
// not read — passes the field check.
func TestDecodeKubectlOutput(t *testing.T) {
	s, err := cluster.LoadFiles("testdata/kubectl-full.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Subscriptions) != 1 || len(s.OperatorGroups) != 1 || len(s.CatalogSources) != 1 || len(s.InstallPlans) != 1 || len(s.CSVs) != 1 {
		t.Fatalf("decoded %+v", s)
	}
}

// TestSchemaText: the embedded field table parses, and names every kind
// Decode reads of OLM v0, and ClusterVersion.
func TestSchemaText(t *testing.T) {
	kinds := cluster.SchemaKindsForTest()
	if !kinds["config.openshift.io/"+cluster.KindClusterVersion] {
		t.Error("no schema for ClusterVersion")
	}
	for _, k := range []string{cluster.KindCSV, cluster.KindSubscription, cluster.KindCatalogSource, cluster.KindOperatorGroup, cluster.KindInstallPlan} {
		if !kinds["operators.coreos.com/"+k] {
			t.Errorf("no schema for %s", k)
		}
	}
}

// TestParseSchema: a malformed table is an error, not a silent gap.
func TestParseSchema(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"kind g K T\n", "type T used but not defined"},
		{"type T a:U\n", "type U used but not defined"},
		{"type T a\ntype T b\n", "line 2: type T defined twice"},
		{"knd g K T\n", "line 1: want kind GROUP KIND TYPE"},
		{"# comment\nkind g K T\ntype T a b:* c:[]T d:{}T\n", ""},
	} {
		err := cluster.ParseSchemaForTest(tt.text)
		if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%q: error %v, want %q", tt.text, err, tt.want)
		}
	}
}
