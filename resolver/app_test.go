package resolver_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

// demoApp is an application in namespace demo with real kinds of the
// community catalog and a built-in one.
const demoApp = `apiVersion: etcd.database.coreos.com/v1beta2
kind: EtcdCluster
metadata: {name: sessions, namespace: demo}
---
apiVersion: kafka.strimzi.io/v1beta2
kind: Kafka
metadata: {name: events, namespace: demo}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: demo}
`

func TestResolveForCommunity(t *testing.T) {
	r, _ := communityResolver(t)
	objs, err := cluster.DecodeObjects(strings.NewReader(demoApp), "app.yaml")
	if err != nil {
		t.Fatal(err)
	}
	app, err := r.ResolveFor(context.Background(), "demo", nil, objs)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		source resolver.KindSource
		pkg    string
	}{
		"ConfigMap":   {resolver.SourceBuiltIn, ""},
		"EtcdCluster": {resolver.SourceCatalog, "etcd"},
		"Kafka":       {resolver.SourceCatalog, "strimzi-kafka-operator"},
	}
	if len(app.Kinds) != len(want) {
		t.Fatalf("kinds = %d, want %d:\n%s", len(app.Kinds), len(want), app)
	}
	for _, k := range app.Kinds {
		w := want[k.API.Kind]
		pkg := ""
		if k.Provider != nil {
			pkg = k.Provider.Package
		}
		if k.Source != w.source || pkg != w.pkg {
			t.Errorf("%s: source %s package %q, want %s %q", k.API, k.Source, pkg, w.source, w.pkg)
		}
	}
	var subs, installs []string
	for _, s := range app.Subscriptions {
		subs = append(subs, s.Package+"/"+s.Channel+"/"+s.SourceNamespace+"/"+s.Source)
	}
	for _, s := range app.Plan.Steps {
		installs = append(installs, s.Bundle)
	}
	if w := []string{"etcd/singlenamespace-alpha/olm/community", "strimzi-kafka-operator/stable/olm/community"}; !slices.Equal(subs, w) {
		t.Errorf("subscriptions = %q, want %q", subs, w)
	}
	if w := []string{"etcdoperator.v0.9.4", "strimzi-cluster-operator.v0.51.0"}; !slices.Equal(installs, w) {
		t.Errorf("plan installs %q, want %q", installs, w)
	}
	// The same input gives the same text.
	again, err := r.ResolveFor(context.Background(), "demo", nil, objs)
	if err != nil || again.String() != app.String() {
		t.Errorf("second run differs (err %v):\n%s\nvs\n%s", err, again, app)
	}
}

func TestResolveForUnserved(t *testing.T) {
	r, _ := communityResolver(t)
	app, err := r.ResolveForAPIs(context.Background(), "demo", nil, []graph.GVK{
		{Group: "kafka.strimzi.io", Version: "v9", Kind: "Kafka"},
		{Group: "example.com", Version: "v1", Kind: "Nothing"},
	})
	var ue *resolver.UnservedError
	if !errors.As(err, &ue) {
		t.Fatalf("err = %v, want *UnservedError", err)
	}
	if len(ue.Kinds) != 2 || app.Plan != nil {
		t.Fatalf("unserved %d kinds, plan %v; want 2 and no plan", len(ue.Kinds), app.Plan)
	}
	text := app.String()
	for _, s := range []string{
		"the same kind is provided as kafka.strimzi.io/v1 Kafka (package strimzi-kafka-operator), kafka.strimzi.io/v1beta2 Kafka",
		"group kafka.strimzi.io is provided with other kinds: KafkaBridge",
		"no catalog given provides an API of this kind or group",
	} {
		if !strings.Contains(text, s) {
			t.Errorf("explanation lacks %q:\n%s", s, text)
		}
	}
}

func TestParseAPIQuery(t *testing.T) {
	tests := []struct {
		name, in string
		want     resolver.APIQuery
		wantErr  bool
	}{
		{name: "kind", in: "Kafka", want: resolver.APIQuery{Kind: "Kafka"}},
		{name: "group", in: "kafka.strimzi.io", want: resolver.APIQuery{Group: "kafka.strimzi.io"}},
		{name: "group version kind", in: "kafka.strimzi.io/v1beta2/Kafka", want: resolver.APIQuery{Group: "kafka.strimzi.io", Version: "v1beta2", Kind: "Kafka"}},
		{name: "core version kind", in: "v1/ConfigMap", want: resolver.APIQuery{Version: "v1", Kind: "ConfigMap"}},
		{name: "group kind", in: "kafka.strimzi.io/Kafka", want: resolver.APIQuery{Group: "kafka.strimzi.io", Kind: "Kafka"}},
		{name: "empty", in: " ", wantErr: true},
		{name: "empty part", in: "a.b//Kafka", wantErr: true},
		{name: "too many parts", in: "a/b/c/d", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := resolver.ParseAPIQuery(tt.in)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Fatalf("ParseAPIQuery(%q) = %+v, %v; want %+v, error %v", tt.in, got, err, tt.want, tt.wantErr)
			}
			if err == nil {
				if again, _ := resolver.ParseAPIQuery(got.String()); again != got {
					t.Errorf("String %q does not parse back: %+v", got.String(), again)
				}
			}
		})
	}
}

func TestProvidesCommunity(t *testing.T) {
	r, _ := communityResolver(t)
	for _, tt := range []struct {
		query, pkg, channel string
	}{
		{"Kafka", "strimzi-kafka-operator", "stable"},
		{"kafka", "strimzi-kafka-operator", "stable"},
		{"kafkas.kafka.strimzi.io", "strimzi-kafka-operator", "stable"},
		{"etcd.database.coreos.com/v1beta2/EtcdCluster", "etcd", "singlenamespace-alpha"},
	} {
		q, err := resolver.ParseAPIQuery(tt.query)
		if err != nil {
			t.Fatal(err)
		}
		found := r.Provides(q)
		if len(found) == 0 {
			t.Errorf("Provides(%q): nothing", tt.query)
			continue
		}
		first := found[0]
		if first.Package != tt.pkg || first.Channel != tt.channel || !first.HeadProvides || !first.DefaultChannel {
			t.Errorf("Provides(%q)[0] = %+v, want package %s channel %s (default, head provides)", tt.query, first, tt.pkg, tt.channel)
		}
		if first.Versions[0] == "" {
			t.Errorf("Provides(%q)[0]: versions %q", tt.query, first.Versions)
		}
	}
	if found := r.Provides(resolver.APIQuery{Kind: "NoSuchKind"}); len(found) != 0 {
		t.Errorf("Provides(NoSuchKind) = %v, want nothing", found)
	}
}

func TestBuiltInSource(t *testing.T) {
	for _, tt := range []struct {
		api  graph.GVK
		want resolver.KindSource
	}{
		{graph.GVK{Version: "v1", Kind: "ConfigMap"}, resolver.SourceBuiltIn},
		{graph.GVK{Group: "apps", Version: "v1", Kind: "Deployment"}, resolver.SourceBuiltIn},
		{graph.GVK{Group: "networking.k8s.io", Version: "v1", Kind: "Ingress"}, resolver.SourceBuiltIn},
		{graph.GVK{Group: "operators.coreos.com", Version: "v1", Kind: "OperatorGroup"}, resolver.SourceOLM},
		{graph.GVK{Group: "gateway.networking.k8s.io", Version: "v1", Kind: "Gateway"}, ""},
		{graph.GVK{Group: "kafka.strimzi.io", Version: "v1beta2", Kind: "Kafka"}, ""},
	} {
		if got := resolver.BuiltInSource(tt.api); got != tt.want {
			t.Errorf("BuiltInSource(%s) = %q, want %q", tt.api, got, tt.want)
		}
	}
}

func ExampleResolver_ResolveFor() {
	r, err := resolver.New([]resolver.Catalog{{Key: resolver.CatalogKey{Namespace: "olm", Name: "community"}, Catalog: exampleCatalog()}}, resolver.Options{})
	if err != nil {
		panic(err)
	}
	// The application: a Widget, which the widgets package provides, and a
	// ConfigMap, which Kubernetes serves itself.
	objects := []cluster.Object{
		{APIVersion: "example.com/v1", Kind: "Widget", Namespace: "team-a", Name: "w"},
		{APIVersion: "v1", Kind: "ConfigMap", Namespace: "team-a", Name: "settings"},
	}
	app, err := r.ResolveFor(context.Background(), "team-a", &cluster.State{}, objects)
	if err != nil {
		panic(err)
	}
	for _, s := range app.Subscriptions {
		fmt.Printf("create subscription %s: package %s, channel %s, catalog %s/%s\n", s.Name, s.Package, s.Channel, s.SourceNamespace, s.Source)
	}
	fmt.Print(app)
	// Output:
	// create subscription widgets: package widgets, channel stable, catalog olm/community
	// application in namespace team-a: 2 API(s), 1 subscription(s) to create
	// v1 ConfigMap (1 object(s)): built into Kubernetes, needs nothing
	// example.com/v1 Widget (1 object(s)): package widgets (channel stable, catalog olm/community); subscription widgets to create
	// namespace team-a: 1 step(s)
	// 1. install widgets.v2.0.0 2.0.0 (package widgets, channel stable, catalog olm/community): subscription widgets
}

func ExampleResolver_Provides() {
	r, err := resolver.New([]resolver.Catalog{{Key: resolver.CatalogKey{Namespace: "olm", Name: "community"}, Catalog: exampleCatalog()}}, resolver.Options{})
	if err != nil {
		panic(err)
	}
	q, err := resolver.ParseAPIQuery("Widget")
	if err != nil {
		panic(err)
	}
	for _, p := range r.Provides(q) {
		fmt.Printf("%s: package %s, channel %s, head %s, versions %v\n", p.API, p.Package, p.Channel, p.Head, p.Versions)
	}
	// Output:
	// example.com/v1 Widget: package widgets, channel stable, head widgets.v2.0.0, versions [2.0.0]
}
