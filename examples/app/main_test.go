package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunShippedApplication(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a real catalog")
	}
	root := filepath.Join("..", "..")
	var out bytes.Buffer
	err := run(&out, filepath.Join(root, "testdata", "catalogs", "community-operators-prod.v4.20-index.json.gz"),
		filepath.Join(root, "testdata", "examples", "app.yaml"), "demo", "Kafka")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"etcd.database.coreos.com/v1beta2 EtcdCluster (demo/sessions): package etcd, subscription etcd to create\n      channel singlenamespace-alpha, catalog olm/community, head etcdoperator.v0.9.4",
		" 1. install etcdoperator.v0.9.4",
		"install strimzi-cluster-operator.v0.51.0",
		"kafka.strimzi.io/v1beta2 Kafka: package strimzi-kafka-operator, channel stable (head strimzi-cluster-operator.v0.51.0)",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
