package cluster_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
)

const crManifests = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: memcacheds.cache.example.com}
spec:
  group: cache.example.com
  names: {kind: Memcached, plural: memcacheds}
  scope: Namespaced
  versions: [{name: v1, served: true, storage: true}]
---
apiVersion: cache.example.com/v1
kind: Memcached
metadata: {name: b, namespace: ns}
spec: {size: 3}
---
apiVersion: cache.example.com/v1
kind: Memcached
metadata: {name: a, namespace: ns}
spec: {size: "3"}
---
apiVersion: other.example.com/v1
kind: Widget
metadata: {name: w}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: d, namespace: ns}
---
apiVersion: cache.example.com/v1
kind: Memcached
metadata: {namespace: ns}
`

func TestClaimCustomResources(t *testing.T) {
	for _, c := range []struct {
		name     string
		extra    string
		want     []string // group/kind key@line
		ignored  string
		claimedN int
	}{
		{"a CRD of the manifests", "", []string{"cache.example.com/Memcached ns/a@15", "cache.example.com/Memcached ns/b@10"},
			"1 Deployment, 1 Memcached, 1 Widget", 2},
		{"a CRD an installed CSV owns", `---
apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata: {name: widgets.v1, namespace: ns}
spec:
  version: 1.0.0
  customresourcedefinitions:
    owned: [{name: widgets.other.example.com, version: v1, kind: Widget}]
`, []string{"cache.example.com/Memcached ns/a@15", "cache.example.com/Memcached ns/b@10", "other.example.com/Widget w@20"},
			"1 Deployment, 1 Memcached", 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := cluster.Decode(strings.NewReader(crManifests+c.extra), "crs.yaml")
			if err != nil {
				t.Fatal(err)
			}
			if before := s.IgnoredText(); !strings.Contains(before, "3 Memcached") {
				t.Errorf("before claiming, ignored: %s", before)
			}
			if n := s.ClaimCustomResources(); n != c.claimedN {
				t.Errorf("claimed %d, want %d", n, c.claimedN)
			}
			if n := s.ClaimCustomResources(); n != c.claimedN {
				t.Errorf("claimed again: %d", n)
			}
			var got []string
			for _, cr := range s.CustomResources {
				if !cr.Claimed || cr.File != "crs.yaml" || cr.Object["kind"] != cr.Kind {
					t.Errorf("%+v", cr)
				}
				got = append(got, cr.Group+"/"+cr.Kind+" "+cr.Key()+"@"+strconv.Itoa(cr.Line))
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("custom resources %q, want %q", got, c.want)
			}
			if ig := s.IgnoredText(); ig != c.ignored {
				t.Errorf("ignored %q, want %q", ig, c.ignored)
			}
			if l := s.CustomResourcesOf("cache.example.com", "Memcached"); len(l) != 2 || l[0].Name != "a" {
				t.Errorf("CustomResourcesOf: %+v", l)
			}
		})
	}
}

func TestClaimCustomResourcesMerged(t *testing.T) {
	crs, err := cluster.Decode(strings.NewReader("apiVersion: cache.example.com/v1\nkind: Memcached\nmetadata: {name: a, namespace: ns}\n"), "crs.yaml")
	if err != nil {
		t.Fatal(err)
	}
	crds, err := cluster.Decode(strings.NewReader(strings.Split(crManifests, "---")[0]), "crds.yaml")
	if err != nil {
		t.Fatal(err)
	}
	crds.Merge(crs)
	if n := crds.ClaimCustomResources(); n != 1 || crds.IgnoredText() != "" {
		t.Errorf("claimed %d, ignored %q", n, crds.IgnoredText())
	}
	if c := crds.Clone(); len(c.CustomResources) != 1 || !c.CustomResources[0].Claimed {
		t.Errorf("clone: %+v", c.CustomResources)
	}
}
