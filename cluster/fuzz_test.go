package cluster_test

import (
	"bytes"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/sextantdev/sextant/cluster"
)

// FuzzDecode checks that Decode never panics and that, when it succeeds,
// encoding the state and decoding it again gives the same state, and
// claiming its custom resources keeps the count of objects (checkClaim).
func FuzzDecode(f *testing.F) {
	if data, err := os.ReadFile("testdata/kubectl-list.yaml"); err == nil {
		f.Add(data)
	}
	f.Add([]byte(`{"apiVersion":"operators.coreos.com/v1alpha1","kind":"SubscriptionList","items":[{"metadata":{"name":"a","namespace":"ns"},"spec":{"name":"x","source":"s","sourceNamespace":"o"}}]}`))
	f.Add([]byte("apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata: {name: c, namespace: ns, annotations: {operatorframework.io/properties: '{\"properties\":[]}'}}\nspec: {version: 1.2.3}\n---\nkind: CatalogSource\nmetadata: {name: c, namespace: o}\nspec: {priority: 2}\n"))
	f.Add([]byte(operatorGroupManifests))
	f.Add([]byte(crManifests))
	f.Add([]byte("apiVersion: operators.coreos.com/v1alpha1\nkind: Subscription\nmetadata: {name: s, namespace: ns}\nspec: {name: x, installPlanApproval: Manual}\nstatus: {state: UpgradePending, currentCSV: x.v2, installPlanRef: {name: install-1, namespace: ns}}\n---\napiVersion: operators.coreos.com/v1alpha1\nkind: InstallPlan\nmetadata: {name: install-1, namespace: ns}\nspec: {approval: Manual, approved: false, clusterServiceVersionNames: [x.v2]}\nstatus: {phase: RequiresApproval}\n"))
	f.Add([]byte(widgetsCRD))
	f.Add([]byte("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: ws.x.io}\nspec:\n  group: x.io\n  names: {kind: W, plural: ws}\n  scope: Cluster\n  conversion: {strategy: None}\n  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, x-kubernetes-preserve-unknown-fields: true}}}}}]\nstatus: {storedVersions: [v1]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := cluster.Decode(bytes.NewReader(data), "fuzz")
		if err != nil {
			return
		}
		// A CRD read whole is the CRD resolution reads: its name, group,
		// kind, versions and stored versions.
		for _, c := range s.CRDs {
			d := c.Definition
			if (d == nil) == (c.DefinitionErr == nil) {
				t.Fatalf("CRD %s: Definition %v with DefinitionErr %v", c.Name, d, c.DefinitionErr)
			}
			if d == nil {
				continue
			}
			if d.Name != c.Name || d.Group != c.Group || d.Names.Kind != c.Kind || len(d.Versions) != len(c.Versions) || !slices.Equal(d.StoredVersions, c.StoredVersions) {
				t.Fatalf("CRD %s read whole as %+v, for resolution as %+v", c.Name, d, c)
			}
			for i, v := range d.Versions {
				if v.Name != c.Versions[i].Name || v.Served != c.Versions[i].Served || v.Storage != c.Versions[i].Storage {
					t.Fatalf("CRD %s version %d: %+v and %+v", c.Name, i, v, c.Versions[i])
				}
			}
		}
		again, encoded := roundTrip(t, s)
		if !reflect.DeepEqual(normalize(s), normalize(again)) {
			t.Fatalf("round trip changed the state:\n%+v\n%+v\n%s", s, again, encoded)
		}
		checkClaim(t, s)
	})
}

// roundTrip encodes s and decodes the output, failing t when either fails;
// it returns the decoded state and the encoded text.
func roundTrip(t *testing.T, s *cluster.State) (*cluster.State, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := cluster.Encode(&buf, s); err != nil {
		t.Fatalf("Encode of a decoded state: %v", err)
	}
	again, err := cluster.Decode(bytes.NewReader(buf.Bytes()), "encoded")
	if err != nil {
		t.Fatalf("Decode of an encoded state: %v\n%s", err, buf.String())
	}
	return again, buf.String()
}

// normalize clears what encoding legitimately canonicalises: ignored
// objects are not written.
func normalize(s *cluster.State) *cluster.State {
	c := s.Clone()
	c.Ignored = nil
	c.CustomResources = nil // Encode writes them no more than the ignored objects
	for i := range c.CRDs {
		// Encode writes what resolution reads of a CRD, not its schemas.
		c.CRDs[i].Definition, c.CRDs[i].DefinitionErr = nil, nil
	}
	return c
}

// checkClaim claims the custom resources of a copy of s, twice: each
// object kept is one of a kind a CRD or CSV of s defines, taken off the
// ignored counts, whose total drops by as many; claiming again changes
// nothing.
func checkClaim(t *testing.T, s *cluster.State) {
	t.Helper()
	c := s.Clone()
	total := func() (n int) {
		for _, ig := range c.Ignored {
			n += ig.Count
		}
		return n
	}
	before := total()
	n := c.ClaimCustomResources()
	if n != len(c.CustomResources) || total() != before-n {
		t.Fatalf("claimed %d of %d, ignored %d -> %d", n, len(c.CustomResources), before, total())
	}
	for _, cr := range c.CustomResources {
		if !cr.Claimed || cr.Name == "" || len(c.CustomResourcesOf(cr.Group, cr.Kind)) == 0 {
			t.Fatalf("custom resource %+v", cr)
		}
	}
	if again := c.ClaimCustomResources(); again != n || total() != before-n {
		t.Fatalf("claimed again: %d, ignored %d", again, total())
	}
}
