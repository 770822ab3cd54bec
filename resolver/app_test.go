package resolver_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

const demoApp = `apiVersion: etcd.database.coreos.com/v1beta2
kind: EtcdCluster
metadata: {name: db, namespace: demo}
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
	t.Log("\n" + app.String())
}

func TestResolveForUnknownKind(t *testing.T) {
	r, _ := communityResolver(t)
	app, err := r.ResolveForAPIs(context.Background(), "demo", nil, []graph.GVK{{Group: "kafka.strimzi.io", Version: "v9", Kind: "Kafka"}, {Group: "example.com", Version: "v1", Kind: "Nothing"}})
	var ue *resolver.UnservedError
	if !errors.As(err, &ue) {
		t.Fatalf("err = %v, want *UnservedError", err)
	}
	t.Log("\n" + app.String())
	for _, q := range []string{"Kafka", "kafka.strimzi.io", "kafkas.kafka.strimzi.io", "etcd.database.coreos.com/v1beta2/EtcdCluster"} {
		aq, _ := resolver.ParseAPIQuery(q)
		for _, p := range r.Provides(aq) {
			t.Logf("%s: %+v", q, p)
		}
	}
}
