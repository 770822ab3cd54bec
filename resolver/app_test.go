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
	r := newExampleResolver(exampleCatalog())
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
	// application in namespace team-a: 2 APIs, 1 subscription to create
	//   v1 ConfigMap (team-a/settings): built into Kubernetes, needs nothing
	//   example.com/v1 Widget (team-a/w): package widgets, subscription widgets to create
	//       channel stable, catalog olm/community, head widgets.v2.0.0
	// namespace team-a: 1 step
	//  1. install widgets.v2.0.0
	//     package widgets 2.0.0, channel stable, catalog olm/community
	//     reason: subscription widgets
}
