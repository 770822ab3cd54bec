package cluster_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
)

// TestDecodeClusterVersion: what kubectl prints of a ClusterVersion in the
// middle of an update decodes whole, and the fields read are kept.
func TestDecodeClusterVersion(t *testing.T) {
	s, err := cluster.LoadFiles("testdata/clusterversion.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := cluster.ClusterVersion{
		Name: "version", ClusterID: "3f6c2b1e-8d4a-4f0e-9b7c-2a5d6e7f8091", Channel: "eus-4.18",
		DesiredUpdate: "4.17.20", Desired: "4.17.20",
		History: []cluster.UpdateHistory{
			{State: cluster.UpdatePartial, Version: "4.17.20"},
			{State: cluster.UpdateCompleted, Version: "4.16.38"},
			{State: cluster.UpdateCompleted, Version: "4.16.30"},
		},
	}
	v := s.ClusterVersion("version")
	if v == nil || !reflect.DeepEqual(*v, want) {
		t.Fatalf("decoded %+v, want %+v", v, want)
	}
	if !v.Updating() {
		t.Error("Updating() = false with a Partial newest entry")
	}
	if len(s.Ignored) != 0 {
		t.Errorf("ignored %v", s.Ignored)
	}
}

// TestDecodeClusterVersionErrors: what the API server refuses of a
// ClusterVersion is an error naming the object and field, every problem
// reported; other kinds of its API group are noted as ignored.
func TestDecodeClusterVersionErrors(t *testing.T) {
	const head = "apiVersion: config.openshift.io/v1\nkind: ClusterVersion\n"
	tests := []struct {
		name, input string
		wantErr     []string
	}{
		{"a typo in spec", head + "metadata: {name: version}\nspec: {clusterID: x, chanel: stable-4.16}\n",
			[]string{`in.yaml:1: ClusterVersion "version": field spec.chanel: unknown field (did you mean "channel"?)`}},
		{"deep in desiredUpdate", head + "metadata: {name: version}\nspec: {clusterID: x, desiredUpdate: {versoin: 4.17.1}}\n",
			[]string{`field spec.desiredUpdate.versoin: unknown field (did you mean "version"?)`}},
		{"no clusterID", head + "metadata: {name: version}\nspec: {channel: stable-4.16}\n",
			[]string{`field spec.clusterID: missing: the API server requires it`}},
		{"no spec", head + "metadata: {name: version}\nstatus: {desired: {version: 4.16.1}}\n",
			[]string{`field spec: missing: the API server requires spec.clusterID`}},
		{"a namespace", head + "metadata: {name: version, namespace: openshift}\nspec: {clusterID: x}\n",
			[]string{`field metadata.namespace: "openshift": a ClusterVersion is cluster-scoped and has no namespace`}},
		{"another version", "apiVersion: config.openshift.io/v1alpha1\nkind: ClusterVersion\nmetadata: {name: version}\nspec: {clusterID: x}\n",
			[]string{`field apiVersion: ClusterVersion is "config.openshift.io/v1alpha1", want "config.openshift.io/v1"`}},
		{"wrong types", head + "metadata: {name: version}\nspec: {clusterID: x, channel: 4}\nstatus: {desired: {version: [4.16]}, history: [{state: Done, version: 4.16.1}, 7]}\n",
			[]string{`field spec.channel: is a number, want a string`, `field status.desired.version: is an array, want a string`,
				`field status.history[0].state: "Done", want Completed or Partial`, `field status.history[1]: is a number, want an object`}},
		{"twice", head + "metadata: {name: version}\nspec: {clusterID: x}\n---\n" + head + "metadata: {name: version}\nspec: {clusterID: y}\n",
			[]string{`in.yaml:6: ClusterVersion "version": defined twice (first at line in.yaml:1)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := cluster.Decode(strings.NewReader(tt.input), "in.yaml")
			checkErrors(t, err, tt.wantErr)
		})
	}
	s, err := cluster.Decode(strings.NewReader("apiVersion: config.openshift.io/v1\nkind: ClusterOperator\nmetadata: {name: olm}\n"), "in.yaml")
	if err != nil || len(s.Ignored) != 1 || s.Ignored[0].Kind != "ClusterOperator" {
		t.Errorf("ClusterOperator: %v, ignored %v", err, s)
	}
}

// TestClusterVersionRoundTrip: Encode writes a ClusterVersion that Decode
// reads back equal, and DecodeKind reads one without its type.
func TestClusterVersionRoundTrip(t *testing.T) {
	s, err := cluster.LoadFiles("testdata/clusterversion.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := cluster.Encode(&buf, s); err != nil {
		t.Fatal(err)
	}
	back, err := cluster.Decode(&buf, "encoded.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.ClusterVersions, s.ClusterVersions) {
		t.Errorf("round trip: %+v, want %+v", back.ClusterVersions, s.ClusterVersions)
	}
	typed, err := cluster.DecodeKind(strings.NewReader(`[{"metadata":{"name":"version"},"spec":{"clusterID":"x"},"status":{"desired":{"version":"4.18.3"}}}]`), "lister.json", cluster.KindClusterVersion)
	if err != nil || len(typed.ClusterVersions) != 1 || typed.ClusterVersions[0].Desired != "4.18.3" {
		t.Errorf("DecodeKind: %v, %+v", err, typed)
	}
	if c := s.Clone(); !reflect.DeepEqual(c.ClusterVersions, s.ClusterVersions) || &c.ClusterVersions[0].History[0] == &s.ClusterVersions[0].History[0] {
		t.Error("Clone does not copy ClusterVersions deeply")
	}
}

// TestCatalogSourceManagedBy: the marketplace operator's annotation on a
// default CatalogSource is read, and written back by Encode.
func TestCatalogSourceManagedBy(t *testing.T) {
	const in = `apiVersion: operators.coreos.com/v1alpha1
kind: CatalogSource
metadata:
  name: redhat-operators
  namespace: openshift-marketplace
  annotations:
    operatorframework.io/managed-by: marketplace-operator
    target.workload.openshift.io/management: '{"effect": "PreferredDuringScheduling"}'
spec:
  sourceType: grpc
  image: registry.redhat.io/redhat/redhat-operator-index:v4.16
  priority: -100
`
	s, err := cluster.Decode(strings.NewReader(in), "catsrc.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := cluster.CatalogSource{Name: "redhat-operators", Namespace: "openshift-marketplace", Priority: -100,
		Image: "registry.redhat.io/redhat/redhat-operator-index:v4.16", ManagedBy: "marketplace-operator"}
	if len(s.CatalogSources) != 1 || s.CatalogSources[0] != want {
		t.Fatalf("decoded %+v", s.CatalogSources)
	}
	var buf bytes.Buffer
	if err := cluster.Encode(&buf, s); err != nil {
		t.Fatal(err)
	}
	back, err := cluster.Decode(&buf, "encoded.yaml")
	if err != nil || len(back.CatalogSources) != 1 || back.CatalogSources[0] != want {
		t.Errorf("round trip: %v %+v", err, back)
	}
	if _, err := cluster.Decode(strings.NewReader(strings.Replace(in, "managed-by: marketplace-operator", "managed-by: 7", 1)), "catsrc.yaml"); err == nil ||
		!strings.Contains(err.Error(), `field metadata.annotations["operatorframework.io/managed-by"]: is a number, want a string`) {
		t.Errorf("a number: %v", err)
	}
}
