package olmapi_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/blang/semver/v4"
	operatorsv1 "github.com/operator-framework/api/pkg/operators/v1"
	operatorsv1alpha1 "github.com/operator-framework/api/pkg/operators/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/olmapi"
)

func meta(ns, name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Namespace: ns, Name: name}
}

func csv(ns, name, version string) *operatorsv1alpha1.ClusterServiceVersion {
	c := &operatorsv1alpha1.ClusterServiceVersion{ObjectMeta: meta(ns, name)}
	c.Spec.Version.Version = semver.MustParse(version)
	return c
}

func sub(ns, name, pkg string) *operatorsv1alpha1.Subscription {
	return &operatorsv1alpha1.Subscription{ObjectMeta: meta(ns, name), Spec: &operatorsv1alpha1.SubscriptionSpec{
		Package: pkg, Channel: "stable", CatalogSource: "community", CatalogSourceNamespace: "olm",
	}}
}

func TestState(t *testing.T) {
	etcd := csv("operators", "etcdoperator.v0.9.2", "0.9.2")
	etcd.Spec.Replaces = "etcdoperator.v0.9.0"
	etcd.Spec.CustomResourceDefinitions.Owned = []operatorsv1alpha1.CRDDescription{{Name: "etcdclusters.etcd.database.coreos.com", Version: "v1beta2", Kind: "EtcdCluster"}}
	etcd.Spec.APIServiceDefinitions.Required = []operatorsv1alpha1.APIServiceDescription{{Group: "metrics.k8s.io", Version: "v1beta1", Kind: "PodMetrics", Name: "pods"}}
	etcd.Spec.InstallStrategy.StrategyName = "deployment" // never read
	etcd.Annotations = map[string]string{
		cluster.PropertiesAnnotation:                       `{"properties":[{"type":"olm.package","value":{"packageName":"etcd","version":"0.9.2"}}]}`,
		"kubectl.kubernetes.io/last-applied-configuration": `{"huge": true}`,
	}
	etcd.Status.Phase = operatorsv1alpha1.CSVPhaseSucceeded
	copied := csv("team-a", "etcdoperator.v0.9.2", "0.9.2")
	copied.Status.Reason = operatorsv1alpha1.CSVReasonCopied
	s := sub("operators", "etcd", "etcd")
	s.Spec.InstallPlanApproval = operatorsv1alpha1.ApprovalManual
	s.Status.InstalledCSV, s.Status.CurrentCSV = "etcdoperator.v0.9.2", "etcdoperator.v0.9.4"
	cs := &operatorsv1alpha1.CatalogSource{ObjectMeta: meta("olm", "community"), Spec: operatorsv1alpha1.CatalogSourceSpec{Priority: -100}}
	og := &operatorsv1.OperatorGroup{ObjectMeta: meta("operators", "global")}
	og.Annotations = map[string]string{cluster.ExcludeGlobalCatalogsAnnotation: "true"}
	og.Spec.TargetNamespaces = []string{"operators"}
	ip := &operatorsv1alpha1.InstallPlan{ObjectMeta: meta("operators", "install-abcde"), Spec: operatorsv1alpha1.InstallPlanSpec{
		Approval: operatorsv1alpha1.ApprovalManual, ClusterServiceVersionNames: []string{"etcdoperator.v0.9.4"},
	}}
	ip.Status.Phase = operatorsv1alpha1.InstallPlanPhaseRequiresApproval

	objs := olmapi.Objects{
		CSVs:           []*operatorsv1alpha1.ClusterServiceVersion{etcd, nil, copied},
		Subscriptions:  []*operatorsv1alpha1.Subscription{s},
		CatalogSources: []*operatorsv1alpha1.CatalogSource{cs},
		OperatorGroups: []*operatorsv1.OperatorGroup{og},
		InstallPlans:   []*operatorsv1alpha1.InstallPlan{ip},
	}
	state, err := olmapi.State(objs)
	if err != nil {
		t.Fatal(err)
	}
	got := state.CSV("operators", "etcdoperator.v0.9.2")
	want := cluster.CSV{
		Name: "etcdoperator.v0.9.2", Namespace: "operators", Version: semver.MustParse("0.9.2"), VersionText: "0.9.2",
		Provides:   []graph.GVK{{Group: "etcd.database.coreos.com", Version: "v1beta2", Kind: "EtcdCluster"}},
		Requires:   []graph.GVK{{Group: "metrics.k8s.io", Version: "v1beta1", Kind: "PodMetrics"}},
		Properties: cluster.NewCSVProperties(graph.Property{Type: "olm.package", Value: []byte(`{"packageName":"etcd","version":"0.9.2"}`)}),
		Phase:      cluster.CSVPhaseSucceeded, Replaces: "etcdoperator.v0.9.0",
	}
	if got == nil || !reflect.DeepEqual(*got, want) {
		t.Errorf("CSV = %+v\nwant %+v", got, want)
	}
	if c := state.CSV("team-a", "etcdoperator.v0.9.2"); c == nil || !c.Copied {
		t.Errorf("copied CSV = %+v, want Copied", c)
	}
	wantSub := cluster.Subscription{Name: "etcd", Namespace: "operators", Package: "etcd", Channel: "stable",
		Source: "community", SourceNamespace: "olm", InstalledCSV: "etcdoperator.v0.9.2", CurrentCSV: "etcdoperator.v0.9.4",
		InstallPlanApproval: cluster.ApprovalManual}
	if len(state.Subscriptions) != 1 || state.Subscriptions[0] != wantSub {
		t.Errorf("subscriptions = %+v\nwant %+v", state.Subscriptions, wantSub)
	}
	if len(state.CatalogSources) != 1 || state.CatalogSources[0] != (cluster.CatalogSource{Name: "community", Namespace: "olm", Priority: -100}) {
		t.Errorf("catalog sources = %+v", state.CatalogSources)
	}
	if len(state.OperatorGroups) != 1 || !reflect.DeepEqual(state.OperatorGroups[0].TargetNamespaces, []string{"operators"}) ||
		state.OperatorGroups[0].Annotations[cluster.ExcludeGlobalCatalogsAnnotation] != "true" {
		t.Errorf("operator groups = %+v", state.OperatorGroups)
	}
	if len(state.InstallPlans) != 1 || state.InstallPlans[0].Approval != cluster.ApprovalManual ||
		!reflect.DeepEqual(state.InstallPlans[0].CSVNames, []string{"etcdoperator.v0.9.4"}) {
		t.Errorf("install plans = %+v", state.InstallPlans)
	}
	if len(state.Ignored) != 0 {
		t.Errorf("ignored = %v", state.Ignored)
	}
	if etcd.Annotations["kubectl.kubernetes.io/last-applied-configuration"] == "" || etcd.Spec.InstallStrategy.StrategyName != "deployment" {
		t.Error("State modified its input")
	}
}

func TestStateErrors(t *testing.T) {
	noSpec := &operatorsv1alpha1.Subscription{ObjectMeta: meta("ns", "nospec")}
	halfSource := sub("ns", "half", "etcd")
	halfSource.Spec.CatalogSourceNamespace = ""
	noNamespace := sub("", "lost", "etcd")
	noVersion := &operatorsv1alpha1.ClusterServiceVersion{ObjectMeta: meta("ns", "app.v1")}
	tests := []struct {
		name string
		objs olmapi.Objects
		want []string // one line each, in order
	}{
		{
			name: "every problem, each naming the object as given",
			objs: olmapi.Objects{
				CSVs:          []*operatorsv1alpha1.ClusterServiceVersion{csv("ns", "ok.v1", "1.0.0"), noVersion},
				Subscriptions: []*operatorsv1alpha1.Subscription{sub("ns", "ok", "etcd"), noSpec, halfSource, noNamespace},
			},
			want: []string{
				`typed objects: ClusterServiceVersion "ns/app.v1": field CSVs[1].spec.version: missing or 0.0.0: a CSV must have a version`,
				`typed objects: Subscription "ns/nospec": field Subscriptions[1].spec.name: missing: a subscription must name a package`,
				`typed objects: Subscription "ns/half": field Subscriptions[2].spec.sourceNamespace: missing: spec.source "community" names a catalog but not its namespace`,
				`typed objects: Subscription "lost": field Subscriptions[3].metadata.namespace: missing`,
			},
		},
		{
			name: "an object given twice",
			objs: olmapi.Objects{Subscriptions: []*operatorsv1alpha1.Subscription{sub("ns", "a", "etcd"), sub("ns", "a", "etcd")}},
			want: []string{`typed objects: Subscription "ns/a": field Subscriptions[1]: defined twice`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			state, err := olmapi.State(tt.objs)
			if err == nil {
				t.Fatalf("State = %+v, want errors", state)
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != len(tt.want) {
				t.Fatalf("%d errors, want %d:\n%v", len(lines), len(tt.want), err)
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(lines[i], w) {
					t.Errorf("error %d = %q\nwant it to start with %q", i, lines[i], w)
				}
			}
			var ce *cluster.Error
			if !errors.As(err, &ce) {
				t.Errorf("no *cluster.Error in %v", err)
			}
		})
	}
}

// TestStateAgreesWithDecode is the adapter's property: the same objects
// decoded both ways — as YAML manifests through cluster.Decode, and typed
// through olmapi.State — give identical states. The objects are generated
// at random (seeded, so that a failure repeats) and read from the
// repository's example manifests.
func TestStateAgreesWithDecode(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 50
	}
	for seed := range uint64(n) {
		objs := randomObjects(rand.New(rand.NewPCG(seed, 13)))
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) { agree(t, objs) })
	}
	for _, file := range []string{"../testdata/examples/cluster.yaml", "../testdata/examples/conflict.yaml", "../cluster/testdata/kubectl-list.yaml"} {
		t.Run(file, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			agree(t, typedObjects(t, data))
		})
	}
}

// agree checks that objs give the same state, or the same errors, both
// ways.
func agree(t *testing.T, objs olmapi.Objects) {
	t.Helper()
	manifests := manifestsOf(t, objs)
	want, wantErr := cluster.Decode(bytes.NewReader(manifests), "manifests.yaml")
	got, err := olmapi.State(objs)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("olmapi.State error %v, cluster.Decode error %v\n%s", err, wantErr, manifests)
	}
	if err != nil {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("states differ:\nolmapi.State  %+v\ncluster.Decode %+v\n%s", got, want, manifests)
	}
}

// manifestsOf writes objs as multi-document YAML, kind and apiVersion set,
// as kubectl prints them.
func manifestsOf(t *testing.T, objs olmapi.Objects) []byte {
	t.Helper()
	var buf bytes.Buffer
	write := func(kind, apiVersion string, obj any) {
		js, err := yaml.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&buf, "---\napiVersion: %s\nkind: %s\n%s", apiVersion, kind, js)
	}
	for _, c := range objs.CSVs {
		write(cluster.KindCSV, "operators.coreos.com/v1alpha1", c)
	}
	for _, s := range objs.Subscriptions {
		write(cluster.KindSubscription, "operators.coreos.com/v1alpha1", s)
	}
	for _, c := range objs.CatalogSources {
		write(cluster.KindCatalogSource, "operators.coreos.com/v1alpha1", c)
	}
	for _, g := range objs.OperatorGroups {
		write(cluster.KindOperatorGroup, "operators.coreos.com/v1", g)
	}
	for _, p := range objs.InstallPlans {
		write(cluster.KindInstallPlan, "operators.coreos.com/v1alpha1", p)
	}
	return buf.Bytes()
}

// appendTyped decodes the object js into a T, clears its TypeMeta (as a
// lister returns it) and appends it to list.
func appendTyped[T any, P interface {
	*T
	SetGroupVersionKind(schema.GroupVersionKind)
}](t *testing.T, list []*T, js []byte) []*T {
	t.Helper()
	var v T
	if err := yaml.Unmarshal(js, &v); err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	P(&v).SetGroupVersionKind(schema.GroupVersionKind{})
	return append(list, &v)
}

// typedObjects reads a manifest file (a kind: List or documents) into
// typed objects, as a controller would get them from the API server:
// TypeMeta cleared.
func typedObjects(t *testing.T, data []byte) olmapi.Objects {
	t.Helper()
	var objs olmapi.Objects
	var docs []map[string]any
	for _, doc := range strings.Split(string(data), "\n---") {
		var m map[string]any
		if err := yaml.Unmarshal([]byte(doc), &m); err != nil {
			t.Fatal(err)
		}
		if m == nil {
			continue
		}
		if items, ok := m["items"].([]any); ok {
			for _, it := range items {
				docs = append(docs, it.(map[string]any))
			}
			continue
		}
		docs = append(docs, m)
	}
	for _, m := range docs {
		js, err := yaml.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		apiVersion, _ := m["apiVersion"].(string)
		if !strings.HasPrefix(apiVersion, "operators.coreos.com/") {
			continue
		}
		switch m["kind"] {
		case cluster.KindCSV:
			objs.CSVs = appendTyped(t, objs.CSVs, js)
		case cluster.KindSubscription:
			objs.Subscriptions = appendTyped(t, objs.Subscriptions, js)
		case cluster.KindCatalogSource:
			objs.CatalogSources = appendTyped(t, objs.CatalogSources, js)
		case cluster.KindOperatorGroup:
			objs.OperatorGroups = appendTyped(t, objs.OperatorGroups, js)
		case cluster.KindInstallPlan:
			objs.InstallPlans = appendTyped(t, objs.InstallPlans, js)
		}
	}
	return objs
}

// randomObjects returns a few typed objects of every kind, in two
// namespaces, with the fields resolution reads set at random — sometimes
// wrongly (a subscription without spec, a catalog without its namespace,
// a CRD name without a group), so that errors are compared too.
func randomObjects(r *rand.Rand) olmapi.Objects {
	namespaces := []string{"operators", "team-a"}
	ns := func() string { return namespaces[r.IntN(len(namespaces))] }
	pick := func(words ...string) string { return words[r.IntN(len(words))] }
	var objs olmapi.Objects
	for i := range r.IntN(5) {
		c := csv(ns(), fmt.Sprintf("op%d.v%d.%d.0", i, r.IntN(3), r.IntN(10)), fmt.Sprintf("%d.%d.%d", r.IntN(3), r.IntN(10), 1+r.IntN(5)))
		if r.IntN(4) == 0 {
			c.Spec.Version.Pre = []semver.PRVersion{{VersionStr: "rc"}, {VersionNum: 1, IsNum: true}}
		}
		c.Spec.Replaces = pick("", "op.v0.1.0")
		for range r.IntN(3) {
			kind := pick("Widget", "Gadget", "Gizmo")
			name := strings.ToLower(kind) + "s." + pick("example.com", "apps.example.io")
			if r.IntN(20) == 0 {
				name = strings.ToLower(kind) + "s" // no group: an error
			}
			d := operatorsv1alpha1.CRDDescription{Name: name, Version: pick("v1", "v1beta1"), Kind: kind}
			if r.IntN(2) == 0 {
				c.Spec.CustomResourceDefinitions.Owned = append(c.Spec.CustomResourceDefinitions.Owned, d)
			} else {
				c.Spec.CustomResourceDefinitions.Required = append(c.Spec.CustomResourceDefinitions.Required, d)
			}
		}
		if r.IntN(3) == 0 {
			c.Spec.APIServiceDefinitions.Owned = []operatorsv1alpha1.APIServiceDescription{{Name: "metrics", Group: "metrics.example.com", Version: "v1", Kind: "Metric"}}
		}
		if r.IntN(3) == 0 {
			c.Annotations = map[string]string{cluster.PropertiesAnnotation: fmt.Sprintf(
				`{"properties":[{"type":"olm.package","value":{"packageName":"op%d","version":"1.0.0"}},{"type":"olm.gvk","value":{"group":"example.com","version":"v1","kind":"Widget"}}]}`, i)}
		}
		switch r.IntN(5) {
		case 0:
			c.Status.Reason = operatorsv1alpha1.CSVReasonCopied
		case 1:
			c.Labels = map[string]string{"olm.copiedFrom": "operators"}
		case 2:
			c.Annotations = map[string]string{"olm.operatorNamespace": pick("operators", "elsewhere")}
		}
		c.Status.Phase = operatorsv1alpha1.ClusterServiceVersionPhase(pick("", "Succeeded", "Installing", "Failed", "Replacing"))
		objs.CSVs = append(objs.CSVs, c)
	}
	for i := range r.IntN(4) {
		s := sub(ns(), fmt.Sprintf("sub%d", i), pick("etcd", "cert-manager", "app"))
		s.Spec.Channel = pick("", "stable", "alpha")
		switch r.IntN(6) {
		case 0:
			s.Spec.CatalogSource, s.Spec.CatalogSourceNamespace = "", ""
		case 1:
			s.Spec.CatalogSourceNamespace = "" // an error
		}
		s.Spec.StartingCSV = pick("", "etcd.v0.9.0")
		s.Spec.InstallPlanApproval = operatorsv1alpha1.Approval(pick("", "Automatic", "Manual"))
		s.Status.InstalledCSV = pick("", "etcd.v0.9.2")
		s.Status.CurrentCSV = pick("", "etcd.v0.9.4")
		s.Status.State = operatorsv1alpha1.SubscriptionState(pick("", "AtLatestKnown", "UpgradePending"))
		if r.IntN(3) == 0 {
			s.Status.InstallPlanRef = &corev1.ObjectReference{Namespace: s.Namespace, Name: "install-x", Kind: "InstallPlan"}
		}
		if r.IntN(25) == 0 {
			s.Spec = nil // an error
		}
		objs.Subscriptions = append(objs.Subscriptions, s)
	}
	for i := range r.IntN(3) {
		objs.CatalogSources = append(objs.CatalogSources, &operatorsv1alpha1.CatalogSource{
			ObjectMeta: meta(pick("olm", "operators"), fmt.Sprintf("catalog%d", i)),
			Spec:       operatorsv1alpha1.CatalogSourceSpec{Priority: r.IntN(200) - 100, SourceType: "grpc"},
		})
	}
	for i := range r.IntN(3) {
		g := &operatorsv1.OperatorGroup{ObjectMeta: meta(ns(), fmt.Sprintf("group%d", i))}
		if r.IntN(2) == 0 {
			g.Spec.TargetNamespaces = []string{ns()}
		}
		if r.IntN(3) == 0 {
			g.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"team": pick("a", "b")},
				MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "env", Operator: metav1.LabelSelectorOpIn, Values: []string{"prod"}}}}
		}
		if r.IntN(3) == 0 {
			g.Annotations = map[string]string{cluster.ExcludeGlobalCatalogsAnnotation: pick("true", "false")}
		}
		g.Spec.UpgradeStrategy = operatorsv1.UpgradeStrategy(pick("", "Default", "TechPreviewUnsafeFailForward"))
		g.Spec.StaticProvidedAPIs = r.IntN(4) == 0
		if r.IntN(2) == 0 {
			g.Status.Namespaces = []string{pick("", "operators")}
		}
		objs.OperatorGroups = append(objs.OperatorGroups, g)
	}
	for i := range r.IntN(3) {
		p := &operatorsv1alpha1.InstallPlan{ObjectMeta: meta(ns(), fmt.Sprintf("install-%d", i)), Spec: operatorsv1alpha1.InstallPlanSpec{
			Approval: operatorsv1alpha1.Approval(pick("Automatic", "Manual")), Approved: r.IntN(2) == 0,
			ClusterServiceVersionNames: []string{pick("etcd.v0.9.4", "app.v1.0.0")},
		}}
		p.Status.Phase = operatorsv1alpha1.InstallPlanPhase(pick("", "RequiresApproval", "Installing", "Complete", "Failed"))
		objs.InstallPlans = append(objs.InstallPlans, p)
	}
	return objs
}
