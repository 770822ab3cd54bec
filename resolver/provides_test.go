package resolver_test

import (
	"fmt"
	"testing"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

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

func ExampleResolver_Provides() {
	r := newExampleResolver(exampleCatalog())
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

// TestPackageNamed: a bare name that no API matches may be a package's
// name, written exactly (case aside) or nearly; a query with a group or a
// version never is.
func TestPackageNamed(t *testing.T) {
	r, _ := communityResolver(t)
	for _, tt := range []struct {
		query string
		pkg   string
		exact bool
	}{
		{"cert-manger", "cert-manager", false},
		{"cert-manager", "cert-manager", true},
		{"Cert-Manager", "cert-manager", true},
		{"zzzzqqq", "", false},
		{"cert-manager.io", "", false},
		{"v1/cert-manger", "", false},
	} {
		q, err := resolver.ParseAPIQuery(tt.query)
		if err != nil {
			t.Fatal(err)
		}
		if pkg, exact := r.PackageNamed(q); pkg != tt.pkg || exact != tt.exact {
			t.Errorf("PackageNamed(%q) = %q, %v; want %q, %v", tt.query, pkg, exact, tt.pkg, tt.exact)
		}
	}
}

// TestPackageNamedDeterministic: of packages whose names differ only in
// case, the same query always names the same one: the one written as the
// query is, else the first by name (the package index is a map, whose
// order changes from one range to the next).
func TestPackageNamedDeterministic(t *testing.T) {
	b := graph.NewBuilder()
	for _, pkg := range []string{"etcd", "Etcd", "ETCD"} {
		b.AddPackage(pkg, "stable")
		if err := b.AddBundle(pkg+".v1.0.0", pkg, "quay.io/"+pkg+":1.0.0", graph.PackageProperty(pkg, "1.0.0")); err != nil {
			t.Fatal(err)
		}
		b.AddChannel(pkg, "stable", graph.Entry{Name: pkg + ".v1.0.0"})
	}
	cat, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := resolver.New([]resolver.Catalog{{Key: resolver.CatalogKey{Namespace: "olm", Name: "c"}, Catalog: cat}}, resolver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ query, want string }{
		{"etcd", "etcd"},
		{"Etcd", "Etcd"},
		{"eTcD", "ETCD"},
	} {
		for range 50 {
			if pkg, exact := r.PackageNamed(resolver.APIQuery{Kind: tt.query}); pkg != tt.want || !exact {
				t.Fatalf("PackageNamed(%q) = %q, %v; want %q, true", tt.query, pkg, exact, tt.want)
			}
		}
	}
}
