package olmv1_test

import (
	"reflect"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/olmv1"
)

// TestRemedies: an extension that gets v1's error gets the changes that
// give it a bundle, each confirmed by resolving the changed extension
// again; an extension that resolves, or whose error no change fixes, gets
// none.
func TestRemedies(t *testing.T) {
	etcd := fbc(t, etcdFBC)
	installed := &cluster.InstalledBundle{Name: "etcd.v1.2.0", Version: "1.2.0"}
	tests := []struct {
		name     string
		catalogs []olmv1.Catalog
		ext      cluster.ClusterExtension
		want     []olmv1.Remedy
	}{
		{"resolves", []olmv1.Catalog{catalog("a", 0, etcd)},
			cluster.ClusterExtension{Name: "x", Package: "etcd"}, nil},
		{"typo", []olmv1.Catalog{catalog("a", 0, etcd)},
			cluster.ClusterExtension{Name: "x", Package: "etdc"},
			[]olmv1.Remedy{{Kind: olmv1.RemedyPackageName, Change: `packageName: etcd (no catalog has package "etdc")`, Bundle: "etcd.v2.0.0-1", Version: "2.0.0+1", Catalog: "a"}}},
		{"no typo", []olmv1.Catalog{catalog("a", 0, etcd)},
			cluster.ClusterExtension{Name: "x", Package: "kafka"}, nil},
		{"downgrade needs SelfCertified", []olmv1.Catalog{catalog("a", 0, etcd)},
			cluster.ClusterExtension{Name: "x", Package: "etcd", Version: "1.0.0", Installed: installed},
			[]olmv1.Remedy{{Kind: olmv1.RemedySelfCertified, Change: "upgradeConstraintPolicy: SelfCertified (no upgrade edge from etcd.v1.2.0 is then required: you vouch for the change)", Bundle: "etcd.v1.0.0", Version: "1.0.0", Catalog: "a"}}},
		{"out of every range", []olmv1.Catalog{catalog("a", 0, etcd)},
			cluster.ClusterExtension{Name: "x", Package: "etcd", Version: "9.0.0", Installed: installed}, nil},
		{"same priority", []olmv1.Catalog{catalog("a", 0, etcd), catalog("b", 0, etcd)},
			cluster.ClusterExtension{Name: "x", Package: "etcd", Channels: []string{"stable"}},
			[]olmv1.Remedy{
				{Kind: olmv1.RemedyCatalog, Change: "selector: matchLabels olm.operatorframework.io/metadata.name: a (or a higher spec.priority on ClusterCatalog a)", Bundle: "etcd.v1.2.0", Version: "1.2.0", Catalog: "a"},
				{Kind: olmv1.RemedyCatalog, Change: "selector: matchLabels olm.operatorframework.io/metadata.name: b (or a higher spec.priority on ClusterCatalog b)", Bundle: "etcd.v1.2.0", Version: "1.2.0", Catalog: "b"},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := olmv1.New(tt.catalogs, olmv1.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := r.ResolveExtension(&tt.ext)
			if !reflect.DeepEqual(got.Remedies, tt.want) {
				t.Errorf("remedies (error %q):\n got %+v\nwant %+v", got.Error, got.Remedies, tt.want)
			}
		})
	}
}

// TestBesideV0: a ClusterExtension for a package an OLM v0 Subscription
// holds is predicted to fail (single ownership), or, installed, warned
// that OLM v0 fails on its objects; another package is not touched.
func TestBesideV0(t *testing.T) {
	r, err := olmv1.New([]olmv1.Catalog{catalog("a", 0, fbc(t, etcdFBC))}, olmv1.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sub := cluster.Subscription{Name: "etcd", Namespace: "ops", Package: "etcd", InstalledCSV: "etcd.v1.2.0"}
	for _, tt := range []struct {
		name string
		ext  cluster.ClusterExtension
		want olmv1.Severity
	}{
		{"fresh", cluster.ClusterExtension{Name: "x", Package: "etcd"}, olmv1.SeverityFailure},
		{"installed", cluster.ClusterExtension{Name: "x", Package: "etcd", Installed: &cluster.InstalledBundle{Name: "etcd.v1.2.0", Version: "1.2.0"}}, olmv1.SeverityWarning},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := r.Resolve(t.Context(), &cluster.State{Subscriptions: []cluster.Subscription{sub}, ClusterExtensions: []cluster.ClusterExtension{tt.ext}})
			if err != nil {
				t.Fatal(err)
			}
			var got []olmv1.Prediction
			for _, p := range out.Extensions[0].Predictions {
				if p.Reason == olmv1.ReasonSingleOwnership {
					got = append(got, p)
				}
			}
			if len(got) != 1 || got[0].Severity != tt.want || got[0].Other != "Subscription ops/etcd" {
				t.Errorf("predictions %+v, want one SingleOwnership %s naming Subscription ops/etcd", out.Extensions[0].Predictions, tt.want)
			}
		})
	}
	other := sub
	other.Package = "kafka"
	out, err := r.Resolve(t.Context(), &cluster.State{Subscriptions: []cluster.Subscription{other}, ClusterExtensions: []cluster.ClusterExtension{{Name: "x", Package: "etcd"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Extensions[0].Predictions) != 0 {
		t.Errorf("another package: predictions %+v", out.Extensions[0].Predictions)
	}
}
