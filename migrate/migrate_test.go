package migrate_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/celrule"
	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/golden"
	"github.com/sextantdev/sextant/migrate"
	"github.com/sextantdev/sextant/olmv1"
	"github.com/sextantdev/sextant/resolver"
)

var update = flag.Bool("update", false, "rewrite the golden reports in testdata/migrate")

// The fixture: the cluster of testdata/migrate and its two catalogs, each
// keyed by the CatalogSource that serves it.
var fixture struct {
	once  sync.Once
	cats  []resolver.Catalog
	state *cluster.State
	err   error
}

func loadFixture(t testing.TB) ([]resolver.Catalog, *cluster.State) {
	t.Helper()
	fixture.once.Do(func() {
		community, err := graph.Load("../testdata/catalogs/community-operators-prod.v4.20-index.json.gz")
		if err != nil {
			fixture.err = err
			return
		}
		internal, err := graph.Load("../testdata/migrate/internal-operators.json")
		if err != nil {
			fixture.err = err
			return
		}
		fixture.cats = []resolver.Catalog{
			{Key: resolver.CatalogKey{Namespace: "olm", Name: "community-operators"}, Priority: -100, Catalog: community},
			{Key: resolver.CatalogKey{Namespace: "olm", Name: "internal-operators"}, Priority: 10, Catalog: internal},
		}
		fixture.state, fixture.err = cluster.LoadFiles("../testdata/migrate/cluster.json")
	})
	if fixture.err != nil {
		t.Fatal(fixture.err)
	}
	return fixture.cats, fixture.state
}

// world is the world of catalogs (named by their keys; their priorities
// come from the state's CatalogSources, as for sextant migrate) and state.
func world(t testing.TB, cats []resolver.Catalog, state *cluster.State, opts sextant.Options) *sextant.World {
	t.Helper()
	in := sextant.Input{State: state, AllNamespaces: true}
	for _, c := range cats {
		in.Catalogs = append(in.Catalogs, sextant.CatalogInput{Name: c.Key.Name, Namespace: c.Key.Namespace, Catalog: c.Catalog})
	}
	w, err := sextant.Load(context.Background(), in, opts)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func buildFixture(t testing.TB) *migrate.Report {
	t.Helper()
	cats, state := loadFixture(t)
	rep, err := migrate.Build(context.Background(), world(t, cats, state, sextant.Options{CEL: celrule.New()}))
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func entry(t *testing.T, rep *migrate.Report, ns, name string) *migrate.Entry {
	t.Helper()
	for i := range rep.Subscriptions {
		if e := &rep.Subscriptions[i]; e.Namespace == ns && e.Name == name {
			return e
		}
	}
	t.Fatalf("no entry for subscription %s/%s", ns, name)
	return nil
}

func kinds[T any, K comparable](list []T, kind func(T) K) []K {
	out := make([]K, len(list))
	for i, x := range list {
		out[i] = kind(x)
	}
	return out
}

// TestFixtureVerdicts checks the verdict of every subscription of the
// fixture, and the kinds of its blocks, changes, losses and differences,
// against the rules: a block makes it blocked; a change, a loss or a
// difference makes it ready with changes.
func TestFixtureVerdicts(t *testing.T) {
	rep := buildFixture(t)
	tests := []struct {
		ns, name string
		verdict  migrate.Verdict
		blocks   []migrate.BlockKind
		changes  []migrate.ChangeKind
		lost     []migrate.LossKind
		diffs    []migrate.DifferenceKind
		reason   string
	}{
		{ns: "operators", name: "argocd-operator", verdict: migrate.Ready, reason: "AllNamespaces, no dependencies, v1 and v0 both go to 0.18.0; its CRD keeps its stored versions"},
		{ns: "operators", name: "ack-s3-controller", verdict: migrate.Ready},
		{ns: "operators", name: "jaeger", verdict: migrate.ReadyWithChanges, lost: []migrate.LossKind{migrate.LostMinKubeVersion}},
		{ns: "operators", name: "datadog-operator", verdict: migrate.ReadyWithChanges,
			changes: []migrate.ChangeKind{migrate.ChangeStoredVersions}, lost: []migrate.LossKind{migrate.LostMinKubeVersion}, diffs: []migrate.DifferenceKind{migrate.DiffVersion},
			reason: "1.8.0 and later drop v1alpha1 of DatadogAgent, which the cluster's CRD stores"},
		{ns: "operators", name: "rabbitmq-messaging-topology-operator", verdict: migrate.Blocked, blocks: []migrate.BlockKind{migrate.BlockDependencies}},
		{ns: "operators", name: "rabbitmq-cluster-operator-stable-community-operators-olm", verdict: migrate.Blocked,
			blocks: []migrate.BlockKind{migrate.BlockDependencySubscription}, lost: []migrate.LossKind{migrate.LostMinKubeVersion}, diffs: []migrate.DifferenceKind{migrate.DiffVersion}},
		{ns: "operators", name: "metrics-adapter", verdict: migrate.Blocked, blocks: []migrate.BlockKind{migrate.BlockAPIServices}},
		{ns: "operators", name: "eclipse-amlen-operator", verdict: migrate.ReadyWithChanges,
			diffs: []migrate.DifferenceKind{migrate.DiffChannel, migrate.DiffUnreachable, migrate.DiffVersion}, reason: "no channel: v0 follows alpha, v1 takes 1.1.3 from stable"},
		{ns: "operators", name: "slurm-operator", verdict: migrate.ReadyWithChanges, lost: []migrate.LossKind{migrate.LostMinKubeVersion},
			diffs: []migrate.DifferenceKind{migrate.DiffPrerelease, migrate.DiffVersion}, reason: "v0's next, 1.0.1-1, is a prerelease no range takes"},
		{ns: "observability", name: "opentelemetry-operator", verdict: migrate.ReadyWithChanges, changes: []migrate.ChangeKind{migrate.ChangeVersionPin},
			lost: []migrate.LossKind{migrate.LostManualApproval, migrate.LostMinKubeVersion}, diffs: []migrate.DifferenceKind{migrate.DiffVersion}},
		{ns: "team-a", name: "apicurio-registry-3", verdict: migrate.Blocked, blocks: []migrate.BlockKind{migrate.BlockSharedCRD},
			changes: []migrate.ChangeKind{migrate.ChangeScope}, lost: []migrate.LossKind{migrate.LostMinKubeVersion},
			reason: "its own namespace: the standard CRDs have no spec.config to keep it"},
		{ns: "team-b", name: "apicurio-api-controller", verdict: migrate.Blocked, blocks: []migrate.BlockKind{migrate.BlockSharedCRD},
			changes: []migrate.ChangeKind{migrate.ChangeScope}, lost: []migrate.LossKind{migrate.LostMinKubeVersion}},
		{ns: "team-a", name: "strimzi-kafka-operator", verdict: migrate.Blocked, blocks: []migrate.BlockKind{migrate.BlockSeveralNamespaces},
			changes: []migrate.ChangeKind{migrate.ChangeScope}},
		{ns: "team-b", name: "strimzi-kafka-operator", verdict: migrate.Blocked, blocks: []migrate.BlockKind{migrate.BlockSeveralNamespaces},
			changes: []migrate.ChangeKind{migrate.ChangeScope}},
		{ns: "monitoring", name: "prometheus", verdict: migrate.Blocked, blocks: []migrate.BlockKind{migrate.BlockInstallModes}, lost: []migrate.LossKind{migrate.LostMinKubeVersion},
			reason: "OwnNamespace only: behind v1's feature gate, watchNamespace monitoring"},
		{ns: "etcd", name: "etcd", verdict: migrate.Blocked, blocks: []migrate.BlockKind{migrate.BlockInstallModes}, reason: "SingleNamespace: watchNamespace apps"},
		{ns: "storage", name: "ember-csi-community-operator", verdict: migrate.Blocked, blocks: []migrate.BlockKind{migrate.BlockInstallModes}, lost: []migrate.LossKind{migrate.LostMinKubeVersion},
			reason: "MultiNamespace: never"},
		{ns: "storage", name: "percona-server-mysql-operator", verdict: migrate.ReadyWithChanges, changes: []migrate.ChangeKind{migrate.ChangeScope},
			reason: "v0 watches storage and storage-apps; v1 watches one namespace or all"},
		{ns: "data", name: "3scale-community-operator", verdict: migrate.ReadyWithChanges, changes: []migrate.ChangeKind{migrate.ChangeScope},
			lost: []migrate.LossKind{migrate.LostFailForward, migrate.LostScopedServiceAccount}, reason: "its own namespace: the standard CRDs have no spec.config to keep it"},
	}
	for _, tt := range tests {
		t.Run(tt.ns+"/"+tt.name, func(t *testing.T) {
			e := entry(t, rep, tt.ns, tt.name)
			if e.Verdict != tt.verdict {
				t.Errorf("verdict %q, want %q (%s)", e.Verdict, tt.verdict, tt.reason)
			}
			check := func(what string, got, want any) {
				if g, _ := json.Marshal(got); string(g) != mustJSON(want) {
					t.Errorf("%s = %s, want %s (%s)", what, g, mustJSON(want), tt.reason)
				}
			}
			check("blocks", nonNil(kinds(e.Blocks, func(b migrate.Block) migrate.BlockKind { return b.Kind })), nonNil(tt.blocks))
			check("changes", nonNil(kinds(e.Changes, func(c migrate.Change) migrate.ChangeKind { return c.Kind })), nonNil(tt.changes))
			check("lost", nonNil(kinds(e.Lost, func(l migrate.Loss) migrate.LossKind { return l.Kind })), nonNil(tt.lost))
			check("differences", nonNil(kinds(e.Differences, func(d migrate.Difference) migrate.DifferenceKind { return d.Kind })), nonNil(tt.diffs))
		})
	}
	// Every block kind appears, and every verdict follows the rules.
	seen := map[migrate.BlockKind]bool{}
	for _, e := range rep.Subscriptions {
		for _, b := range e.Blocks {
			seen[b.Kind] = true
		}
		want := migrate.Ready
		switch {
		case len(e.Blocks) > 0:
			want = migrate.Blocked
		case len(e.Changes)+len(e.Lost)+len(e.Differences) > 0:
			want = migrate.ReadyWithChanges
		}
		if e.Verdict != want {
			t.Errorf("%s/%s: verdict %q, want %q by the rules", e.Namespace, e.Name, e.Verdict, want)
		}
	}
	for _, k := range []migrate.BlockKind{migrate.BlockDependencies, migrate.BlockInstallModes, migrate.BlockAPIServices,
		migrate.BlockSeveralNamespaces, migrate.BlockSharedCRD, migrate.BlockDependencySubscription} {
		if !seen[k] {
			t.Errorf("block kind %s does not appear in the fixture", k)
		}
	}
	if s := rep.Summary; s.Subscriptions < 25 || s.Ready+s.ReadyWithChanges+s.Blocked != s.Subscriptions {
		t.Errorf("summary %+v: want at least 25 subscriptions, every one counted once", s)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// TestInstallModeWatchNamespace checks the watchNamespace each
// Own/Single-only operator would need behind v1's feature gate.
func TestInstallModeWatchNamespace(t *testing.T) {
	rep := buildFixture(t)
	for _, tt := range []struct{ ns, name, watch string }{
		{"monitoring", "prometheus", "monitoring"},
		{"etcd", "etcd", "apps"},
		{"storage", "ember-csi-community-operator", ""},
	} {
		e := entry(t, rep, tt.ns, tt.name)
		if got := e.Blocks[0].WatchNamespace; got != tt.watch {
			t.Errorf("%s/%s: watchNamespace %q, want %q", tt.ns, tt.name, got, tt.watch)
		}
	}
}

// TestStoredVersions checks the CRD stored-versions prediction on the
// fixture: v0's next step for datadog-operator (1.7.0 → 1.29.0) drops
// v1alpha1 of DatadogAgent, which the cluster's CRD stores, so it fails,
// and the ClusterExtension's range stops below 1.8.0; argocd-operator's next
// bundle keeps every stored version of its CRD, so nothing is predicted.
func TestStoredVersions(t *testing.T) {
	rep := buildFixture(t)
	dd := entry(t, rep, "operators", "datadog-operator")
	if len(dd.V0Next.Failures) != 1 || !bytes.Contains([]byte(dd.V0Next.Failures[0]), []byte(`InstallComponentFailed: risk of data loss updating "datadogagents.datadoghq.com": new CRD removes version v1alpha1 that is listed as a stored version on the existing CRD`)) {
		t.Errorf("datadog v0 next failures = %q", dd.V0Next.Failures)
	}
	if dd.ClusterExtension.Version != ">=1.7.0 <1.8.0" || dd.V1Now.Bundle != "datadog-operator.v1.7.0" || len(dd.V1Now.Failures) != 0 {
		t.Errorf("datadog: range %q, v1 now %v", dd.ClusterExtension.Version, dd.V1Now)
	}
	argo := entry(t, rep, "operators", "argocd-operator")
	if len(argo.V0Next.Failures) != 0 || len(argo.V1Now.Failures) != 0 || argo.V0Next.Bundle != "argocd-operator.v0.18.0" {
		t.Errorf("argocd: v0 next %v, v1 now %v: want 0.18.0 and nothing predicted", argo.V0Next, argo.V1Now)
	}
}

// TestYAMLResolvesAsReported feeds the YAML of the ready subscriptions
// back to the v1 resolver with the same catalogs: each ClusterExtension
// resolves to the bundle the report says.
func TestYAMLResolvesAsReported(t *testing.T) {
	cats, _ := loadFixture(t)
	rep := buildFixture(t)
	var buf bytes.Buffer
	if err := cluster.Encode(&buf, rep.Objects()); err != nil {
		t.Fatal(err)
	}
	state, err := cluster.Decode(&buf, "objects.yaml")
	if err != nil {
		t.Fatalf("the YAML does not decode: %v\n%s", err, buf.String())
	}
	if len(state.Subscriptions)+len(state.CSVs)+len(state.CatalogSources) > 0 {
		t.Errorf("the YAML holds objects besides ClusterCatalogs and ClusterExtensions")
	}
	var v1cats []olmv1.Catalog
	for _, cc := range state.ClusterCatalogs {
		for _, c := range cats {
			if c.Key.Name == cc.Name {
				v1cats = append(v1cats, olmv1.Catalog{ClusterCatalog: cc, Content: c.Catalog})
			}
		}
	}
	r, err := olmv1.New(v1cats, olmv1.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Resolve(context.Background(), state)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, e := range rep.Subscriptions {
		if e.Verdict != migrate.Blocked {
			want[e.ClusterExtension.Name] = e.V1Now.Bundle
		}
	}
	if len(res.Extensions) != len(want) {
		t.Fatalf("%d ClusterExtensions resolved, want %d", len(res.Extensions), len(want))
	}
	for _, x := range res.Extensions {
		if x.Error != "" || x.Bundle != want[x.Name] {
			t.Errorf("ClusterExtension %s resolves to %q (%s), the report says %q", x.Name, x.Bundle, x.Error, want[x.Name])
		}
	}
}

// TestGolden holds the text, Markdown and JSON reports of the fixture;
// -update rewrites them.
func TestGolden(t *testing.T) {
	rep := buildFixture(t)
	var text, md, js, yml bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	enc := json.NewEncoder(&js)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rep); err != nil {
		t.Fatal(err)
	}
	if err := cluster.Encode(&yml, rep.Objects()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "../testdata/migrate/report.txt", text.Bytes(), *update)
	golden.Check(t, "../testdata/migrate/report.md", md.Bytes(), *update)
	golden.Check(t, "../testdata/migrate/report.json", js.Bytes(), *update)
	golden.Check(t, "../testdata/migrate/objects.yaml", yml.Bytes(), *update)
	// The same input gives the same bytes.
	var again bytes.Buffer
	if err := buildFixture(t).WriteText(&again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), text.Bytes()) {
		t.Error("a second report of the same input differs")
	}
}

// TestCancel checks that Build honours its context.
func TestCancel(t *testing.T) {
	cats, state := loadFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := migrate.Build(ctx, world(t, cats, state, sextant.Options{})); err == nil {
		t.Fatal("Build with a cancelled context returned no error")
	}
}

// BenchmarkReport measures the report of the fixture (28 subscriptions in
// 8 namespaces on the community catalog), the catalogs loaded once.
func BenchmarkReport(b *testing.B) {
	cats, state := loadFixture(b)
	w := world(b, cats, state, sextant.Options{CEL: celrule.New()})
	b.ReportAllocs()
	for b.Loop() {
		rep, err := migrate.Build(context.Background(), w)
		if err != nil {
			b.Fatal(err)
		}
		if err := rep.WriteText(&bytes.Buffer{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCatalogAmbiguity adds a mirror of the internal catalog at the same
// priority: the ClusterExtension's selector pins its catalog, and the
// report flags that without it v1 would refuse to choose between the two.
func TestCatalogAmbiguity(t *testing.T) {
	cats, state := loadFixture(t)
	mirror := cats[1]
	mirror.Key.Name = "internal-mirror"
	// The mirror's CatalogSource: the same priority as internal-operators'.
	state = state.Clone()
	src := state.CatalogSources[slices.IndexFunc(state.CatalogSources, func(s cluster.CatalogSource) bool { return s.Name == "internal-operators" })]
	src.Name = mirror.Key.Name
	state.CatalogSources = append(state.CatalogSources, src)
	rep, err := migrate.Build(context.Background(), world(t, append(slices.Clone(cats), mirror), state, sextant.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	e := entry(t, rep, "operators", "metrics-adapter")
	if e.V1Now.Catalog != "internal-operators" {
		t.Errorf("v1 now from %q, want the pinned internal-operators", e.V1Now.Catalog)
	}
	i := slices.IndexFunc(e.Differences, func(d migrate.Difference) bool { return d.Kind == migrate.DiffCatalogs })
	if i < 0 {
		t.Fatalf("differences %v: want %s", e.Differences, migrate.DiffCatalogs)
	}
	if want := "in multiple catalogs with the same priority [internal-mirror internal-operators]"; !strings.Contains(e.Differences[i].Message, want) {
		t.Errorf("message %q, want it to hold v1's %q", e.Differences[i].Message, want)
	}
}

// TestInstallModesFromManifest: a bundle that embeds its CSV manifest
// (olm.bundle.object) and records no olm.csv.metadata has its install
// modes read from the manifest (graph.Bundle.CSVRecord), as the v1 install
// checks read them: an OwnNamespace-only operator is blocked, where it
// would be a note that its modes are not known.
func TestInstallModesFromManifest(t *testing.T) {
	csv := `{"apiVersion":"operators.coreos.com/v1alpha1","kind":"ClusterServiceVersion","metadata":{"name":"own-op.v1.0.0"},` +
		`"spec":{"installModes":[{"type":"OwnNamespace","supported":true},{"type":"AllNamespaces","supported":false}]}}`
	catalog := `{"schema":"olm.package","name":"own-op","defaultChannel":"stable"}
{"schema":"olm.channel","package":"own-op","name":"stable","entries":[{"name":"own-op.v1.0.0"}]}
{"schema":"olm.bundle","name":"own-op.v1.0.0","package":"own-op","image":"example.com/own-op:v1.0.0","properties":[
  {"type":"olm.package","value":{"packageName":"own-op","version":"1.0.0"}},
  {"type":"olm.bundle.object","value":{"data":"` + base64.StdEncoding.EncodeToString([]byte(csv)) + `"}}]}
`
	cat, err := graph.Loader{}.Decode(context.Background(), strings.NewReader(catalog), "catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	state, err := cluster.Decode(strings.NewReader(`apiVersion: v1
kind: List
items:
- apiVersion: operators.coreos.com/v1alpha1
  kind: CatalogSource
  metadata: {name: own, namespace: olm}
  spec: {sourceType: grpc, image: example.com/own-catalog:v1}
- apiVersion: operators.coreos.com/v1
  kind: OperatorGroup
  metadata: {name: team, namespace: team}
  spec: {targetNamespaces: [team]}
- apiVersion: operators.coreos.com/v1alpha1
  kind: Subscription
  metadata: {name: own-op, namespace: team}
  spec: {name: own-op, channel: stable, source: own, sourceNamespace: olm}
  status: {installedCSV: own-op.v1.0.0}
`), "cluster.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cats := []resolver.Catalog{{Key: resolver.CatalogKey{Namespace: "olm", Name: "own"}, Catalog: cat}}
	rep, err := migrate.Build(context.Background(), world(t, cats, state, sextant.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	e := entry(t, rep, "team", "own-op")
	if got := kinds(e.Blocks, func(b migrate.Block) migrate.BlockKind { return b.Kind }); !slices.Contains(got, migrate.BlockInstallModes) {
		t.Errorf("blocks %v, want %s (notes %q)", got, migrate.BlockInstallModes, rep.Notes)
	}
	for _, n := range rep.Notes {
		if strings.Contains(n, "install modes not known") {
			t.Errorf("note %q: the modes are in the CSV manifest", n)
		}
	}
}

// TestExperimentalFeatureSet: with operator-controller's experimental
// install (its CRDs have spec.config, its SingleOwnNamespaceInstallSupport
// gate is on), an operator that watches its own namespace, or one other,
// keeps that scope through watchNamespace: the OwnNamespace/SingleNamespace
// operators are ready, and v1's own prediction agrees; the standard install
// blocks them (TestFixtureVerdicts).
func TestExperimentalFeatureSet(t *testing.T) {
	cats, state := loadFixture(t)
	rep, err := migrate.Build(context.Background(), world(t, cats, state, sextant.Options{CEL: celrule.New(),
		V1: sextant.V1Gates{SingleOwnNamespace: true, BundleRelease: true, FeatureSet: cluster.FeatureSetExperimental}}))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		ns, name, watch string
		verdict         migrate.Verdict
	}{
		{"monitoring", "prometheus", "monitoring", migrate.ReadyWithChanges}, // it loses minKubeVersion's check
		{"etcd", "etcd", "apps", migrate.Ready},
		{"data", "3scale-community-operator", "data", migrate.ReadyWithChanges}, // fail-forward, scoped service account
		{"storage", "ember-csi-community-operator", "", migrate.Blocked},        // MultiNamespace: never
	} {
		e := entry(t, rep, tt.ns, tt.name)
		if e.Verdict != tt.verdict || e.ClusterExtension.WatchNamespace != tt.watch || len(e.V1Now.Failures) > 0 && tt.verdict != migrate.Blocked {
			t.Errorf("%s/%s: %s, watchNamespace %q, v1 now %v; want %s, %q", tt.ns, tt.name, e.Verdict, e.ClusterExtension.WatchNamespace, e.V1Now, tt.verdict, tt.watch)
		}
		if slices.ContainsFunc(e.Changes, func(c migrate.Change) bool { return c.Kind == migrate.ChangeScope }) {
			t.Errorf("%s/%s: scope changed, want it kept", tt.ns, tt.name)
		}
	}
	// Its ClusterExtensions decode with the experimental CRDs.
	var buf bytes.Buffer
	if err := cluster.Encode(&buf, rep.Objects()); err != nil {
		t.Fatal(err)
	}
	if _, err := (cluster.Loader{V1FeatureSet: cluster.FeatureSetExperimental}).Decode(context.Background(), &buf, "objects.yaml"); err != nil {
		t.Errorf("the YAML does not decode with the experimental CRDs: %v", err)
	}
}

// TestFollowsV1Prediction: a subscription with nothing installed, in a
// namespace whose OperatorGroup targets only itself, whose v1 choice lacks
// AllNamespaces, is blocked by v1's own prediction (the install modes of its
// choice: there is no CSV to read), says that nothing is installed, and
// gets no ClusterExtension in the YAML.
func TestFollowsV1Prediction(t *testing.T) {
	cats, _ := loadFixture(t)
	state, err := cluster.Decode(strings.NewReader(`apiVersion: operators.coreos.com/v1
kind: OperatorGroup
metadata: {name: etcd, namespace: etcd}
spec: {targetNamespaces: [etcd]}
---
apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: etcd, namespace: etcd}
spec: {name: etcd, channel: singlenamespace-alpha, source: community-operators, sourceNamespace: olm}
`), "fresh.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := migrate.Build(context.Background(), world(t, cats, state, sextant.Options{CEL: celrule.New()}))
	if err != nil {
		t.Fatal(err)
	}
	e := entry(t, rep, "etcd", "etcd")
	if e.Verdict != migrate.Blocked || len(e.Blocks) != 1 || e.Blocks[0].Kind != migrate.BlockInstallModes || e.Blocks[0].WatchNamespace != "etcd" {
		t.Fatalf("verdict %s, blocks %+v: want blocked for its install modes, watchNamespace etcd", e.Verdict, e.Blocks)
	}
	if !strings.Contains(e.Blocks[0].Message, "etcdoperator.v0.9.4 supports") {
		t.Errorf("block %q: want it to name v1's choice", e.Blocks[0].Message)
	}
	if len(rep.Objects().ClusterExtensions) != 0 {
		t.Error("a blocked subscription's ClusterExtension is in the YAML")
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "    nothing installed (package etcd, channel singlenamespace-alpha") {
		t.Errorf("text does not say nothing is installed:\n%s", text.String())
	}
}

// TestInstallers gives the fixture the bundle folder of one subscription's
// v1 choice (ack-ecr-controller 1.8.1): its entry gets the installer
// derived from it, the other subscriptions v1 can take are named in a
// note, blocked ones get neither; -o yaml with installers is held in
// objects-installers.yaml (-update rewrites it), and without them is
// Objects as cluster.Encode writes it.
func TestInstallers(t *testing.T) {
	cats, state := loadFixture(t)
	in := sextant.Input{State: state, AllNamespaces: true, Bundles: []string{"../testdata/migrate/bundles"}}
	for _, c := range cats {
		in.Catalogs = append(in.Catalogs, sextant.CatalogInput{Name: c.Key.Name, Namespace: c.Key.Namespace, Catalog: c.Catalog})
	}
	w, err := sextant.Load(context.Background(), in, sextant.Options{CEL: celrule.New()})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := migrate.Build(context.Background(), w)
	if err != nil {
		t.Fatal(err)
	}
	ack := entry(t, rep, "operators", "ack-ecr-controller")
	if ack.Installer == nil || ack.InstallerNotDerived != "" {
		t.Fatalf("ack-ecr-controller: installer %v, not derived %q", ack.Installer, ack.InstallerNotDerived)
	}
	if ack.Installer.Bundle != ack.V1Now.Bundle || ack.Installer.ServiceAccount != "ack-ecr-controller-installer" || ack.Installer.Namespace != "operators" {
		t.Errorf("ack-ecr-controller: installer %s/%s for %s, v1 installs %s", ack.Installer.Namespace, ack.Installer.ServiceAccount, ack.Installer.Bundle, ack.V1Now.Bundle)
	}
	missing := 0
	for _, e := range rep.Subscriptions {
		switch {
		case e.Name == "ack-ecr-controller":
		case e.Verdict == migrate.Blocked:
			if e.Installer != nil || e.InstallerNotDerived != "" {
				t.Errorf("%s/%s is blocked, and has an installer (%v, %q)", e.Namespace, e.Name, e.Installer, e.InstallerNotDerived)
			}
		case e.Installer != nil || e.InstallerNotDerived != "bundle contents not given":
			t.Errorf("%s/%s: installer %v, not derived %q", e.Namespace, e.Name, e.Installer, e.InstallerNotDerived)
		default:
			missing++
		}
	}
	note := fmt.Sprintf("are not derived for %d subscriptions: the contents of the bundle v1 installs were not given (data/3scale-community-operator (3scale-community-operator.v0.10.1)", missing)
	if !slices.ContainsFunc(rep.Notes, func(n string) bool { return strings.Contains(n, note) }) {
		t.Errorf("no note %q among %q", note, rep.Notes)
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	line := "    installer (operator-controller v1.0 to v1.10): ServiceAccount operators/ack-ecr-controller-installer: ClusterRole ack-ecr-controller-installer-clusterrole (11 rules), ClusterRole ack-ecr-controller-installer-rbac-clusterrole (11 rules), Role operators/ack-ecr-controller-installer-role (11 rules)\n"
	if !strings.Contains(text.String(), line) {
		t.Errorf("the text has no line %q", line)
	}
	var mdText bytes.Buffer
	if err := rep.WriteMarkdown(&mdText); err != nil {
		t.Fatal(err)
	}
	mdLine := "- operators/ack-ecr-controller (ack-ecr-controller.v1.8.1): ServiceAccount operators/ack-ecr-controller-installer: ClusterRole ack-ecr-controller-installer-clusterrole (11 rules)"
	if !strings.Contains(mdText.String(), "## Installer service accounts (operator-controller v1.0 to v1.10)\n\n"+mdLine) {
		t.Errorf("the Markdown has no installer section with %q:\n%s", mdLine, mdText.String())
	}
	var yml, plain, objs bytes.Buffer
	if err := rep.WriteYAML(&yml, true); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "../testdata/migrate/objects-installers.yaml", yml.Bytes(), *update)
	// Read back as any manifests are: every ClusterExtension of an entry
	// not blocked, each naming its installer.
	back, err := cluster.LoadFiles("../testdata/migrate/objects-installers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if want := rep.Summary.Ready + rep.Summary.ReadyWithChanges; len(back.ClusterExtensions) != want {
		t.Errorf("%d ClusterExtensions read back, want %d", len(back.ClusterExtensions), want)
	}
	for _, x := range back.ClusterExtensions {
		if x.ServiceAccount != x.Name+"-installer" {
			t.Errorf("ClusterExtension %s names service account %q", x.Name, x.ServiceAccount)
		}
	}
	if err := rep.WriteYAML(&plain, false); err != nil {
		t.Fatal(err)
	}
	if err := cluster.Encode(&objs, rep.Objects()); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(plain.Bytes(), objs.Bytes()) {
		t.Error("WriteYAML without installers is not cluster.Encode of Objects")
	}
}

// TestCRDPreflight: with the bundles' contents, v1's choice for a moved
// operator is compared with the cluster's CRDs (those v0 installed) as
// v1's CRD upgrade safety preflight compares them at install: a refused
// CRD blocks the subscription, with operator-controller's text, and its
// ClusterExtension is not in the YAML. Without the contents, only stored
// versions are compared, and a note says so.
func TestCRDPreflight(t *testing.T) {
	ctx := context.Background()
	in := sextant.Input{
		Catalogs:      []sextant.CatalogInput{{Name: "widgets", Path: "../testdata/cli/crds/catalog.yaml"}},
		Manifests:     []sextant.File{{Path: "../testdata/migrate/crd-preflight.yaml"}},
		AllNamespaces: true,
	}
	for _, tc := range []struct {
		name    string
		bundles []string
		verdict migrate.Verdict
		note    string
	}{
		{"contents", []string{"../testdata/cli/crds/bundles"}, migrate.Blocked, ""},
		{"no contents", nil, migrate.ReadyWithChanges, "v1's CRD upgrade safety preflight not predicted in full: widgets (widgets.v2.1.0): its contents were not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in.Bundles = tc.bundles
			w, err := sextant.Load(ctx, in, sextant.Options{})
			if err != nil {
				t.Fatal(err)
			}
			rep, err := migrate.Build(ctx, w)
			if err != nil {
				t.Fatal(err)
			}
			e := entry(t, rep, "operators", "widgets")
			if e.Verdict != tc.verdict {
				t.Fatalf("verdict %s, blocks %+v; want %s", e.Verdict, e.Blocks, tc.verdict)
			}
			if tc.verdict == migrate.Blocked {
				const v1 = `error for resolved bundle "widgets.v2.1.0" with version "2.1.0": validating upgrade for CRD "widgets.example.com": existingFieldRemoval: removed field : v1.^.spec.color`
				if len(e.Blocks) != 1 || e.Blocks[0].Kind != migrate.BlockV1Refuses || !strings.HasPrefix(e.Blocks[0].V1Reason, v1) {
					t.Errorf("blocks %+v, want v1's refusal %q", e.Blocks, v1)
				}
				if len(rep.Objects().ClusterExtensions) != 0 {
					t.Error("the blocked subscription's ClusterExtension is in the YAML")
				}
			}
			if tc.note != "" && !slices.ContainsFunc(rep.Notes, func(n string) bool { return strings.HasPrefix(n, tc.note) }) {
				t.Errorf("notes %q, want %q", rep.Notes, tc.note)
			}
		})
	}
}
