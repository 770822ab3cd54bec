package cluster_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

func TestCSVProperties(t *testing.T) {
	gvk := graph.GVK{Group: "etcd.database.coreos.com", Version: "v1beta2", Kind: "EtcdCluster"}
	p := cluster.NewCSVProperties(graph.PackageProperty("etcd", "v0.9.2"), graph.GVKProperty(gvk))
	if err := p.Err(); err != nil {
		t.Fatal(err)
	}
	typed := p.Typed()
	if typed.DeclaredPackage != "etcd" || typed.Version.String() != "0.9.2" || !reflect.DeepEqual(typed.Provides, []graph.GVK{gvk}) {
		t.Errorf("typed view: package %q, version %s, provides %v", typed.DeclaredPackage, typed.Version, typed.Provides)
	}

	js, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"type":"olm.package","value":{"packageName":"etcd","version":"v0.9.2"}},{"type":"olm.gvk","value":{"group":"etcd.database.coreos.com","kind":"EtcdCluster","version":"v1beta2"}}]`
	if string(js) != want {
		t.Errorf("JSON:\n%s\nwant\n%s", js, want)
	}
	var back cluster.CSVProperties
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.List(), p.List()) || back.Typed().DeclaredPackage != "etcd" {
		t.Errorf("JSON round trip: %v, want %v", back.List(), p.List())
	}

	bad := cluster.NewCSVProperties(graph.Property{Type: graph.TypePackage, Value: []byte(`42`)})
	if err := bad.Err(); err == nil || !strings.Contains(err.Error(), "olm.package") {
		t.Errorf("Err of a malformed olm.package: %v", err)
	}

	var none *cluster.CSVProperties
	if none.List() != nil || none.Err() != nil || none.Typed() == nil || none.Typed().Provides != nil {
		t.Error("a nil CSVProperties has no properties")
	}
}

// TestPropertiesOf checks that a bundle's properties, projected onto a CSV,
// read as the annotation would.
func TestPropertiesOf(t *testing.T) {
	props := []graph.Property{graph.PackageProperty("op", "1.0.0"), graph.DeprecatedProperty()}
	b, err := graph.ParseProperties(props)
	if err != nil {
		t.Fatal(err)
	}
	got, want := cluster.PropertiesOf(b), cluster.NewCSVProperties(props...)
	if !reflect.DeepEqual(got.List(), want.List()) || got.Typed().Deprecated != want.Typed().Deprecated || got.Typed().DeclaredPackage != want.Typed().DeclaredPackage || got.Err() != nil {
		t.Errorf("PropertiesOf = %v, want %v", got.List(), want.List())
	}
}
