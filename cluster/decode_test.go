package cluster_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/testcatalog"
)

func TestDecodeKubectlList(t *testing.T) {
	s, err := cluster.LoadFiles("testdata/kubectl-list.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.CSVs) != 3 || len(s.Subscriptions) != 1 || len(s.CatalogSources) != 1 {
		t.Fatalf("decoded %d CSVs, %d subscriptions, %d catalog sources; want 3, 1, 1", len(s.CSVs), len(s.Subscriptions), len(s.CatalogSources))
	}
	etcd := s.CSV("operators", "etcdoperator.v0.9.2")
	if etcd == nil || etcd.Properties == nil || len(etcd.Properties.List()) != 2 || etcd.Properties.List()[1].Type != "olm.package" || etcd.Properties.Typed().DeclaredPackage != "etcd" ||
		string(etcd.Properties.List()[1].Value) != `{"packageName":"etcd","version":"0.9.2"}` || etcd.Replaces != "etcdoperator.v0.9.0" ||
		etcd.Version.String() != "0.9.2" || etcd.Phase != cluster.CSVPhaseSucceeded {
		t.Errorf("etcd CSV = %+v", etcd)
	}
	if c := s.CSV("team-a", "etcdoperator.v0.9.2"); c == nil || !c.Copied {
		t.Errorf("copied CSV = %+v, want Copied", c)
	}
	if etcd.Copied {
		t.Error("original CSV is marked as a copy")
	}
	prom := s.CSV("operators", "prometheusoperator.0.47.0")
	wantProvides := []graph.GVK{{Group: "metrics.example.com", Version: "v1", Kind: "Metric"}, {Group: "monitoring.coreos.com", Version: "v1", Kind: "Prometheus"}}
	wantRequires := []graph.GVK{{Group: "etcd.database.coreos.com", Version: "v1beta2", Kind: "EtcdCluster"}}
	if prom == nil || prom.Properties != nil || !reflect.DeepEqual(prom.Provides, wantProvides) || !reflect.DeepEqual(prom.Requires, wantRequires) ||
		prom.VersionText != "v0.47" || prom.Version.String() != "0.47.0" {
		t.Errorf("prometheus CSV = %+v", prom)
	}
	want := cluster.Subscription{Name: "etcd", Namespace: "operators", Package: "etcd", Channel: "singlenamespace-alpha",
		StartingCSV: "etcdoperator.v0.9.2", Source: "community-operators", SourceNamespace: "openshift-marketplace",
		InstalledCSV: "etcdoperator.v0.9.2", CurrentCSV: "etcdoperator.v0.9.4",
		InstallPlanApproval: cluster.ApprovalAutomatic, State: cluster.StateUpgradePending}
	if s.Subscriptions[0] != want {
		t.Errorf("subscription = %+v\nwant %+v", s.Subscriptions[0], want)
	}
	if cs := s.CatalogSources[0]; cs != (cluster.CatalogSource{Name: "community-operators", Namespace: "openshift-marketplace", Priority: -200}) {
		t.Errorf("catalog source = %+v", cs)
	}
	if got, want := s.IgnoredText(), "1 ConfigMap, 1 Subscription.messaging.knative.dev"; got != want {
		t.Errorf("ignored = %q, want %q", got, want)
	}
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name  string
		input string
		// want is a compact rendering of the state: kind/ns/name per object.
		want    []string
		ignored string   // State.IgnoredText
		wantErr []string // substrings, one per reported error
	}{
		{
			name: "single object",
			input: `apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: s, namespace: ns}
spec: {name: etcd}`,
			want: []string{"Subscription ns/s"},
		},
		{
			name: "multi-document YAML with empty documents and comments",
			input: `---
# nothing here
---
apiVersion: operators.coreos.com/v1alpha1
kind: CatalogSource
metadata: {name: c, namespace: olm}
spec: {priority: 3}
--- # a comment
apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: s, namespace: ns}
spec: {name: etcd}
...
`,
			want: []string{"Subscription ns/s", "CatalogSource olm/c"},
		},
		{
			name:  "JSON stream",
			input: `{"apiVersion":"operators.coreos.com/v1alpha1","kind":"Subscription","metadata":{"name":"b","namespace":"ns"},"spec":{"name":"x"}} {"apiVersion":"operators.coreos.com/v1alpha1","kind":"Subscription","metadata":{"name":"a","namespace":"ns"},"spec":{"name":"x"}}`,
			want:  []string{"Subscription ns/a", "Subscription ns/b"},
		},
		{
			name:  "typed list without item kinds",
			input: `{"apiVersion":"operators.coreos.com/v1alpha1","kind":"SubscriptionList","items":[{"metadata":{"name":"a","namespace":"ns"},"spec":{"name":"x"}}]}`,
			want:  []string{"Subscription ns/a"},
		},
		{
			name: "other kinds and groups are skipped",
			input: `apiVersion: v1
kind: ConfigMap
metadata: {name: c, namespace: ns}
---
apiVersion: messaging.knative.dev/v1
kind: Subscription
metadata: {name: s, namespace: ns}
spec: {name: 3}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: d1, namespace: ns}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: d2, namespace: ns}
---
apiVersion: v1
kind: Subscripton
metadata: {name: s, namespace: ns}
---
apiVersion: operators.coreos.com/v1
kind: OperatorCondition
metadata: {name: s, namespace: ns}`,
			want:    nil,
			ignored: `2 Deployment, 1 ConfigMap, 1 Subscripton (did you mean "Subscription"?), 1 Subscription.messaging.knative.dev, 1 OperatorCondition`,
		},
		{
			name: "a kind OLM's API group does not have",
			input: `apiVersion: operators.coreos.com/v1alpha1
kind: Subscribtion
metadata: {name: s, namespace: ns}`,
			wantErr: []string{`in.yaml:1: Subscribtion "ns/s": field kind: "Subscribtion" is not a kind of operators.coreos.com (did you mean "Subscription"?)`},
		},
		{
			name: "an object without kind is an error naming it",
			input: `apiVersion: operators.coreos.com/v1alpha1
metadata: {name: s, namespace: ns}
spec: {name: etcd}`,
			wantErr: []string{`in.yaml:1: object "ns/s": field kind: missing: every object must say its kind`},
		},
		{
			name:    "a list item without kind is an error naming it",
			input:   `{"apiVersion":"v1","kind":"List","items":[{"metadata":{"name":"c","namespace":"ns"},"spec":{"version":"1.0.0"}}]}`,
			wantErr: []string{`in.yaml:1: object "ns/c": field items[0].kind: missing`},
		},
		{
			name: "a CSV without spec.version is an error",
			input: `apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata: {name: c, namespace: ns}
spec: {replaces: b}`,
			wantErr: []string{`in.yaml:1: ClusterServiceVersion "ns/c": field spec.version: missing: a CSV must have a version`},
		},
		{
			name: "wrong types are errors naming file, object and field",
			input: `apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata: {name: c, namespace: ns}
spec:
  version: 1.0
  customresourcedefinitions:
    owned:
    - {name: widgets, version: v1, kind: Widget}
    - {name: gadgets.example.com, version: [v1], kind: Gadget}
---
apiVersion: operators.coreos.com/v1alpha1
kind: CatalogSource
metadata: {name: c, namespace: olm}
spec: {priority: high}
`,
			wantErr: []string{
				`in.yaml:1: ClusterServiceVersion "ns/c": field spec.version: is a number, want a string`,
				`in.yaml:1: ClusterServiceVersion "ns/c": field spec.customresourcedefinitions.owned[0].name: CRD name "widgets" is not of the form plural.group`,
				`in.yaml:1: ClusterServiceVersion "ns/c": field spec.customresourcedefinitions.owned[1].version: is an array, want a string`,
				`in.yaml:11: CatalogSource "olm/c": field spec.priority: is a string, want an integer`,
			},
		},
		{
			name:    "list items are named by index",
			input:   `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"operators.coreos.com/v1alpha1","kind":"Subscription","metadata":{"name":"a","namespace":"ns"},"spec":{"name":"x","channel":7}}]}`,
			wantErr: []string{`in.yaml:1: Subscription "ns/a": field items[0].spec.channel: is a number, want a string`},
		},
		{
			name: "source without sourceNamespace",
			input: `apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: s, namespace: ns}
spec: {name: etcd, source: community}`,
			wantErr: []string{`Subscription "ns/s": field spec.sourceNamespace: missing: spec.source "community" names a catalog but not its namespace`},
		},
		{
			name: "sourceNamespace without source",
			input: `apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: s, namespace: ns}
spec: {name: etcd, sourceNamespace: olm}`,
			wantErr: []string{`field spec.source: missing: spec.sourceNamespace "olm" names a namespace but no catalog`},
		},
		{
			name: "missing name and namespace",
			input: `apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {}
spec: {name: etcd}`,
			wantErr: []string{"field metadata.name: missing", "field metadata.namespace: missing"},
		},
		{
			name: "duplicate objects",
			input: `apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: s, namespace: ns}
spec: {name: etcd}
---
apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: s, namespace: ns}
spec: {name: etcd}`,
			wantErr: []string{`in.yaml:6: Subscription "ns/s": defined twice (first at line in.yaml:1)`},
		},
		{
			name: "bad properties annotation",
			input: `apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: c
  namespace: ns
  annotations:
    operatorframework.io/properties: '{"properties":[{"type":"olm.gvk","value":{"group":1}}]}'
`,
			wantErr: []string{
				`field spec.version: missing`,
				`field metadata.annotations["operatorframework.io/properties"]: property 0 (olm.gvk): field "group" is a number, want a string`,
			},
		},
		{
			name: "approval, state, InstallPlan fields of the wrong value",
			input: `apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: s, namespace: ns}
spec: {name: etcd, installPlanApproval: manual}
status: {state: Upgrading, installPlanRef: {name: install-1, namespace: other}}
---
apiVersion: operators.coreos.com/v1alpha1
kind: InstallPlan
metadata: {name: install-1, namespace: ns}
spec: {approval: Sometimes, approved: "yes", clusterServiceVersionNames: [a.v1, 3, ""]}
status: {phase: Waiting}`,
			wantErr: []string{
				`in.yaml:1: Subscription "ns/s": field spec.installPlanApproval: unknown approval "manual" (want Automatic or Manual)`,
				`in.yaml:1: Subscription "ns/s": field status.state: unknown subscription state "Upgrading"`,
				`in.yaml:1: Subscription "ns/s": field status.installPlanRef.namespace: "other" is not the subscription's namespace "ns"`,
				`in.yaml:7: InstallPlan "ns/install-1": field spec.approval: unknown approval "Sometimes"`,
				`in.yaml:7: InstallPlan "ns/install-1": field spec.approved: is a string, want a boolean`,
				`in.yaml:7: InstallPlan "ns/install-1": field spec.clusterServiceVersionNames[1]: is a number, want a string`,
				`in.yaml:7: InstallPlan "ns/install-1": field spec.clusterServiceVersionNames[2]: empty: want a CSV name`,
				`in.yaml:7: InstallPlan "ns/install-1": field status.phase: unknown InstallPlan phase "Waiting"`,
			},
		},
		{
			name:    "invalid YAML",
			input:   "kind: [\n",
			wantErr: []string{"in.yaml:1: invalid YAML"},
		},
		{
			name:    "a document that is not an object",
			input:   "- a\n- b\n",
			wantErr: []string{"in.yaml:1: value is an array, want an object"},
		},
		{
			name:    "white space YAML does not count as such, after a dash (once a panic)",
			input:   "- \u2000",
			wantErr: []string{"in.yaml:1: value is an array, want an object"},
		},
		{
			name:    "a List item with a line left of its node",
			input:   "kind: List\nitems:\n-  kind: 0A\n  0",
			wantErr: []string{"in.yaml:3: invalid YAML: did not find expected key"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := cluster.Decode(strings.NewReader(tt.input), "in.yaml")
			if tt.wantErr != nil {
				checkErrors(t, err, tt.wantErr)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := objectNames(s); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("objects = %q, want %q", got, tt.want)
			}
			if got := s.IgnoredText(); got != tt.ignored {
				t.Errorf("ignored = %q, want %q", got, tt.ignored)
			}
		})
	}
}

// objectNames renders a state compactly: "Kind namespace/name" for each
// CSV, Subscription and CatalogSource, in that order.
func objectNames(s *cluster.State) []string {
	var got []string
	for _, c := range s.CSVs {
		got = append(got, "ClusterServiceVersion "+c.Namespace+"/"+c.Name)
	}
	for _, c := range s.Subscriptions {
		got = append(got, "Subscription "+c.Namespace+"/"+c.Name)
	}
	for _, c := range s.CatalogSources {
		got = append(got, "CatalogSource "+c.Namespace+"/"+c.Name)
	}
	return got
}

// checkErrors checks that err, a decoding error, holds a *cluster.Error and
// is exactly the errors want describes: as many errors (one a line) as
// want has substrings, each substring in the text.
func checkErrors(t *testing.T, err error, want []string) {
	t.Helper()
	if err == nil {
		t.Fatalf("decoding succeeded, want errors %q", want)
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != len(want) {
		t.Errorf("got %d errors, want %d:\n%v", len(lines), len(want), err)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error:\n%v\nwant it to contain %q", err, w)
		}
	}
	var de *cluster.Error
	if !errors.As(err, &de) {
		t.Errorf("error %v holds no *cluster.Error", err)
	}
}

func TestDecodeKind(t *testing.T) {
	tests := []struct {
		name, kind, input string
		want              []string // kind namespace/name
		wantErr           string
	}{
		{
			name: "a JSON array of CSVs without TypeMeta, as json.Marshal of a lister's result",
			kind: cluster.KindCSV,
			input: `[{"metadata":{"name":"b.v1","namespace":"ns"},"spec":{"version":"1.0.0"}},
 {"metadata":{"name":"a.v2","namespace":"ns"},"spec":{"version":"2.0.0"}}]`,
			want: []string{"ClusterServiceVersion ns/a.v2", "ClusterServiceVersion ns/b.v1"},
		},
		{
			name:  "a stream of subscriptions",
			kind:  cluster.KindSubscription,
			input: `{"metadata":{"name":"s","namespace":"ns"},"spec":{"name":"etcd"}} {"kind":"Subscription","metadata":{"name":"t","namespace":"ns"},"spec":{"name":"etcd"}}`,
			want:  []string{"Subscription ns/s", "Subscription ns/t"},
		},
		{
			name:  "a plain List's items take the kind",
			kind:  cluster.KindCatalogSource,
			input: `{"apiVersion":"v1","kind":"List","items":[{"metadata":{"name":"c","namespace":"olm"},"spec":{"priority":2}}]}`,
			want:  []string{"CatalogSource olm/c"},
		},
		{
			name:    "an object of another kind is an error",
			kind:    cluster.KindCSV,
			input:   `[{"kind":"Subscription","metadata":{"name":"s","namespace":"ns"},"spec":{"name":"etcd"}}]`,
			wantErr: `in.json:1: Subscription "ns/s": field [0].kind: is "Subscription", want "ClusterServiceVersion"`,
		},
		{
			name:    "errors name the array index",
			kind:    cluster.KindCSV,
			input:   `[{"metadata":{"name":"a","namespace":"ns"},"spec":{"version":"1.0.0"}},{"metadata":{"name":"b","namespace":"ns"},"spec":{}}]`,
			wantErr: `in.json:1: ClusterServiceVersion "ns/b": field [1].spec.version: missing`,
		},
		{
			name:    "a kind Decode does not read",
			kind:    "Deployment",
			input:   `[]`,
			wantErr: `kind "Deployment" is not one Decode reads`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := cluster.DecodeKind(strings.NewReader(tt.input), "in.json", tt.kind)
			if testcatalog.WantErr(t, err, tt.wantErr) {
				return
			}
			if got := objectNames(s); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("objects = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDecodeApprovalAndInstallPlans(t *testing.T) {
	s, err := cluster.Decode(strings.NewReader(`apiVersion: v1
kind: List
items:
- apiVersion: operators.coreos.com/v1alpha1
  kind: Subscription
  metadata: {name: etcd, namespace: ns}
  spec: {name: etcd, installPlanApproval: Manual}
  status:
    state: UpgradePending
    installedCSV: etcdoperator.v0.9.2
    currentCSV: etcdoperator.v0.9.4
    installPlanRef: {apiVersion: operators.coreos.com/v1alpha1, kind: InstallPlan, name: install-abcde, namespace: ns}
- apiVersion: operators.coreos.com/v1alpha1
  kind: Subscription
  metadata: {name: old, namespace: ns}
  spec: {name: old}
  status: {installplan: {name: install-old}}
- apiVersion: operators.coreos.com/v1alpha1
  kind: InstallPlan
  metadata: {name: install-abcde, namespace: ns}
  spec: {approval: Manual, approved: false, clusterServiceVersionNames: [etcdoperator.v0.9.4]}
  status: {phase: RequiresApproval}
`), "in.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sub := s.Subscription("ns", "etcd")
	if sub == nil || !sub.Manual() || sub.State != cluster.StateUpgradePending || sub.InstallPlanRef != "install-abcde" {
		t.Errorf("subscription = %+v", sub)
	}
	if old := s.Subscription("ns", "old"); old == nil || old.Manual() || old.InstallPlanRef != "install-old" {
		t.Errorf("subscription with the older status.installplan = %+v", old)
	}
	want := cluster.InstallPlan{Name: "install-abcde", Namespace: "ns", Approval: cluster.ApprovalManual,
		CSVNames: []string{"etcdoperator.v0.9.4"}, Phase: cluster.PhaseRequiresApproval}
	ip := s.InstallPlan("ns", "install-abcde")
	if ip == nil || !reflect.DeepEqual(*ip, want) {
		t.Fatalf("install plan = %+v\nwant %+v", ip, want)
	}
	if !ip.Waiting() || ip.Done() {
		t.Errorf("Waiting() = %v, Done() = %v; want true, false", ip.Waiting(), ip.Done())
	}
	if again, _ := roundTrip(t, s); !reflect.DeepEqual(s, again) {
		t.Errorf("round trip changed the state:\n%+v\n%+v", s, again)
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	s, err := cluster.LoadFiles("testdata/kubectl-list.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := roundTrip(t, s); !reflect.DeepEqual(normalize(s), again) {
		t.Errorf("round trip changed the state:\n%+v\n%+v", s, again)
	}
}

func TestLoadFilesReportsEveryFile(t *testing.T) {
	dir := t.TempDir()
	bad1, bad2 := dir+"/a.yaml", dir+"/b.yaml"
	os.WriteFile(bad1, []byte("apiVersion: operators.coreos.com/v1alpha1\nkind: Subscription\nmetadata: {name: s, namespace: ns}\nspec: {name: 1}\n"), 0o644)
	os.WriteFile(bad2, []byte("apiVersion: operators.coreos.com/v1alpha1\nkind: Subscription\nmetadata: {name: s, namespace: ns}\nspec: {name: x}\n"), 0o644)
	_, err := cluster.LoadFiles(bad1, bad2, dir+"/missing.yaml")
	if err == nil {
		t.Fatal("LoadFiles succeeded")
	}
	for _, w := range []string{"a.yaml:1: Subscription \"ns/s\": field spec.name: is a number", "missing.yaml"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error:\n%v\nwant it to contain %q", err, w)
		}
	}
}

func TestDecodeInstallModes(t *testing.T) {
	const csv = `apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata: {name: op.v1, namespace: ops}
spec:
  version: 1.0.0
  minKubeVersion: 1.26.0
  installModes:
  - {type: OwnNamespace, supported: true}
  - {type: AllNamespaces, supported: false}
  - {type: SingleNamespace}
`
	s, err := cluster.Decode(strings.NewReader(csv), "csv.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c := s.CSV("ops", "op.v1")
	want := []graph.InstallMode{{Type: graph.InstallModeOwnNamespace, Supported: true}, {Type: graph.InstallModeAllNamespaces}, {Type: graph.InstallModeSingleNamespace}}
	if !reflect.DeepEqual(c.InstallModes, want) || c.MinKubeVersion != "1.26.0" {
		t.Errorf("CSV = %+v, want install modes %v and minKubeVersion 1.26.0", c, want)
	}
	back, _ := roundTrip(t, s)
	if got := back.CSV("ops", "op.v1"); !reflect.DeepEqual(got.InstallModes, want) || got.MinKubeVersion != "1.26.0" {
		t.Errorf("after Encode: %+v", got)
	}

	none, err := cluster.Decode(strings.NewReader("kind: ClusterServiceVersion\napiVersion: operators.coreos.com/v1alpha1\nmetadata: {name: a, namespace: b}\nspec: {version: 1.0.0}\n"), "none.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := none.CSV("b", "a").InstallModes; got != nil {
		t.Errorf("absent installModes = %v, want nil (not checked)", got)
	}

	for _, bad := range []struct{ spec, field string }{
		{"installModes: 3", "spec.installModes"},
		{"installModes: [x]", "spec.installModes[0]"},
		{"installModes: [{supported: true}]", "spec.installModes[0].type"},
		{"installModes: [{type: OwnNamespace, supported: yes-please}]", "spec.installModes[0].supported"},
		{"minKubeVersion: 1", "spec.minKubeVersion"},
	} {
		in := "kind: ClusterServiceVersion\napiVersion: operators.coreos.com/v1alpha1\nmetadata: {name: a, namespace: b}\nspec:\n  version: 1.0.0\n  " + bad.spec + "\n"
		_, err := cluster.Decode(strings.NewReader(in), "bad.yaml")
		if err == nil || !strings.Contains(err.Error(), "field "+bad.field+":") {
			t.Errorf("%s: err = %v, want one naming field %s", bad.spec, err, bad.field)
		}
	}
}

// TestDecodeKindAgreesWithDecode checks DecodeKind against Decode: the
// objects of a kubectl list, grouped by kind, written as JSON arrays
// without kind or apiVersion (as json.Marshal writes a lister's result) and
// read with DecodeKind, give the state Decode gives for the list.
func TestDecodeKindAgreesWithDecode(t *testing.T) {
	data, err := os.ReadFile("testdata/kubectl-list.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want, err := cluster.Decode(bytes.NewReader(data), "list.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var list struct{ Items []map[string]any }
	if err := yaml.Unmarshal(data, &list); err != nil {
		t.Fatal(err)
	}
	byKind := map[string][]map[string]any{}
	for _, it := range list.Items {
		if it["apiVersion"] != "operators.coreos.com/v1alpha1" && it["apiVersion"] != "operators.coreos.com/v1" {
			continue // Decode counts it as ignored; a lister of one kind never returns it
		}
		kind := it["kind"].(string)
		delete(it, "kind")
		delete(it, "apiVersion")
		byKind[kind] = append(byKind[kind], it)
	}
	got := &cluster.State{}
	for kind, items := range byKind {
		js, err := json.Marshal(items)
		if err != nil {
			t.Fatal(err)
		}
		s, err := cluster.DecodeKind(bytes.NewReader(js), kind+"s.json", kind)
		if err != nil {
			t.Fatal(err)
		}
		got.CSVs = append(got.CSVs, s.CSVs...)
		got.Subscriptions = append(got.Subscriptions, s.Subscriptions...)
		got.CatalogSources = append(got.CatalogSources, s.CatalogSources...)
		got.OperatorGroups = append(got.OperatorGroups, s.OperatorGroups...)
		got.InstallPlans = append(got.InstallPlans, s.InstallPlans...)
	}
	got.Sort()
	want.Ignored, want.CustomResources = nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("DecodeKind state:\n%+v\nDecode state:\n%+v", got, want)
	}
}

func TestLoadFilesFolder(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(dir+"/sub", 0o755)
	os.WriteFile(dir+"/a.yaml", []byte("apiVersion: operators.coreos.com/v1alpha1\nkind: Subscription\nmetadata: {name: a, namespace: ns}\nspec: {name: x}\n"), 0o644)
	os.WriteFile(dir+"/sub/b.json", []byte(`{"apiVersion":"operators.coreos.com/v1alpha1","kind":"Subscription","metadata":{"name":"b","namespace":"ns"},"spec":{"name":"y"}}`), 0o644)
	os.WriteFile(dir+"/notes.txt", []byte("not a manifest"), 0o644)
	s, err := cluster.LoadFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Subscriptions) != 2 || s.Subscriptions[0].Name != "a" || s.Subscriptions[1].Name != "b" {
		t.Errorf("subscriptions = %+v, want a and b", s.Subscriptions)
	}
	empty := t.TempDir()
	if _, err := cluster.LoadFiles(empty); err == nil || !strings.Contains(err.Error(), "no manifest in the folder") {
		t.Errorf("LoadFiles of an empty folder: %v", err)
	}
}

func TestDecodeCatalogSourceImage(t *testing.T) {
	in := `apiVersion: operators.coreos.com/v1alpha1
kind: CatalogSource
metadata: {name: operatorhubio-catalog, namespace: olm}
spec: {sourceType: grpc, image: "quay.io/operatorhubio/catalog:latest", priority: 2}
`
	s, err := cluster.Decode(strings.NewReader(in), "in.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := cluster.CatalogSource{Name: "operatorhubio-catalog", Namespace: "olm", Priority: 2, Image: "quay.io/operatorhubio/catalog:latest"}
	if len(s.CatalogSources) != 1 || s.CatalogSources[0] != want {
		t.Fatalf("got %+v, want %+v", s.CatalogSources, want)
	}
	var buf bytes.Buffer
	if err := cluster.Encode(&buf, s); err != nil {
		t.Fatal(err)
	}
	back, err := cluster.Decode(&buf, "out.yaml")
	if err != nil || len(back.CatalogSources) != 1 || back.CatalogSources[0] != want {
		t.Fatalf("round trip: %+v, %v", back, err)
	}
	_, err = cluster.Decode(strings.NewReader(strings.Replace(in, `image: "quay.io/operatorhubio/catalog:latest"`, "image: 3", 1)), "in.yaml")
	if err == nil || !strings.Contains(err.Error(), `CatalogSource "olm/operatorhubio-catalog": field spec.image: is a number, want a string`) {
		t.Fatalf("error %v", err)
	}
}

// TestDecodeBoundedErrors: at most MaxSameErrors problems of one kind per
// input, then one "… and N more" with the total; other kinds still come.
func TestDecodeBoundedErrors(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: List\nitems:\n")
	const n = 1000
	for i := range n {
		fmt.Fprintf(&b, "- metadata: {name: s%d, namespace: ns}\n  spec: {name: p}\n", i)
	}
	b.WriteString("---\napiVersion: operators.coreos.com/v1alpha1\nkind: Subscription\nmetadata: {name: x, namespace: ns}\nspec: {name: p, chanel: a}\n")
	_, err := cluster.Decode(strings.NewReader(b.String()), "in.yaml")
	if err == nil {
		t.Fatal("no error")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != cluster.MaxSameErrors+2 {
		t.Fatalf("%d lines, want %d:\n%v", len(lines), cluster.MaxSameErrors+2, err)
	}
	want := fmt.Sprintf("in.yaml: … and %d more like the above at field items[].kind (%d in all)", n-cluster.MaxSameErrors, n)
	if !slices.Contains(lines, want) {
		t.Errorf("no line %q in\n%v", want, err)
	}
	if !strings.Contains(err.Error(), `field spec.chanel: unknown field`) {
		t.Errorf("the other kind of problem is missing:\n%v", err)
	}
}

// TestDecodeCatalog: a File-Based Catalog given as manifests is one
// *NotManifestsError per file, at its first blob, not one error per blob.
func TestDecodeCatalog(t *testing.T) {
	in := `{"schema": "olm.package", "name": "p"}
{"schema": "olm.channel", "package": "p", "name": "c"}
{"schema": "olm.bundle", "package": "p", "name": "p.v1"}
`
	_, err := cluster.Decode(strings.NewReader(in), "catalog.json")
	var nm *cluster.NotManifestsError
	if !errors.As(err, &nm) || nm.Schema != "olm.package" {
		t.Fatalf("error %v, want a *NotManifestsError for olm.package", err)
	}
	if want := "catalog.json:1: a File-Based Catalog (blobs of schema olm.package, …), not Kubernetes manifests"; err.Error() != want {
		t.Errorf("error:\n%v\nwant:\n%s", err, want)
	}
}

// TestDecodeListItemLines: a problem of a List's item is at the item's
// own line, in YAML and in JSON, not at the List's.
func TestDecodeListItemLines(t *testing.T) {
	for _, tt := range []struct {
		name, file, doc string
		want            []string
	}{
		{"YAML", "in.yaml", "# a comment\napiVersion: v1\nkind: List\nitems:\n- metadata: {name: a, namespace: ns}\n- metadata:\n    name: b\n    namespace: ns\n- 3\n",
			[]string{`in.yaml:5: object "ns/a": field items[0].kind: missing`, `in.yaml:6: object "ns/b": field items[1].kind: missing`, `in.yaml:9: field items[2]: value is a number`}},
		{"YAML after another document", "in.yaml", "apiVersion: v1\nkind: Secret\n---\n\napiVersion: v1\nkind: List\nitems:\n- metadata: {name: a, namespace: ns}\n",
			[]string{`in.yaml:8: object "ns/a": field items[0].kind: missing`}},
		{"JSON", "in.json", "{\"apiVersion\": \"v1\", \"kind\": \"List\",\n \"items\": [\n  {\"metadata\": {\"name\": \"a\", \"namespace\": \"ns\"}},\n\n  {\"metadata\": {\"name\": \"b\",\n  \"namespace\": \"ns\"}}, 3]}\n",
			[]string{`in.json:3: object "ns/a": field items[0].kind: missing`, `in.json:5: object "ns/b": field items[1].kind: missing`, `in.json:6: field items[2]: value is a number`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := cluster.Decode(strings.NewReader(tt.doc), tt.file)
			if err == nil {
				t.Fatal("no error")
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != len(tt.want) {
				t.Fatalf("errors:\n%v\nwant %d", err, len(tt.want))
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(lines[i], w) {
					t.Errorf("error %d: %s\nwant it to start with %s", i, lines[i], w)
				}
			}
		})
	}
}
