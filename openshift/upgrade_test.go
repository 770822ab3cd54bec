package openshift

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/testcatalog"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolvertest"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// minorCatalogs returns a CatalogsFunc over catalogs built in code, per
// minor.
func minorCatalogs(t *testing.T, byMinor map[Minor][]*resolvertest.Catalog) CatalogsFunc {
	return func(ctx context.Context, m Minor, state *cluster.State) (*Catalogs, error) {
		var cats []resolver.Catalog
		for _, c := range byMinor[m] {
			cats = append(cats, c.MustBuild(t))
		}
		r, err := resolver.New(cats, resolver.Options{GlobalNamespace: MarketplaceNamespace})
		if err != nil {
			return nil, err
		}
		return &Catalogs{Minor: m, Catalogs: cats, Resolver: r, Options: resolver.Options{GlobalNamespace: MarketplaceNamespace}}, nil
	}
}

func maxOCP(v string) graph.Property {
	return graph.Property{Type: graph.TypeMaxOpenShift, Value: []byte(`"` + v + `"`)}
}

// upgradeCatalogs builds the catalogs of a package like the real
// gitlab-operator-kubernetes: 1.5.1 declares 4.16, 1.6.0 4.17, 2.0.0 4.18,
// each index dropping what does not ship to it; with late, 2.0.0 is
// published after the 4.16 index stopped moving (only 4.17's has it).
func upgradeCatalogs(late ...bool) map[Minor][]*resolvertest.Catalog {
	out := map[Minor][]*resolvertest.Catalog{}
	for _, m := range []Minor{{4, 16}, {4, 17}, {4, 18}} {
		c := resolvertest.NewCatalog("openshift-marketplace", "community-operators")
		gl := c.Package("gl", "stable")
		if m.Minor == 16 {
			gl.Bundle("gl.v1.5.1", "1.5.1").In("stable").With(maxOCP("4.16"))
			gl.Bundle("gl.v1.6.0", "1.6.0").In("stable").Replaces("gl.v1.5.1").With(maxOCP("4.17"))
		} else if m.Minor == 17 {
			gl.Bundle("gl.v1.6.0", "1.6.0").In("stable").With(maxOCP("4.17"))
		}
		if m.Minor == 16 && len(late) > 0 && late[0] {
			// not yet published
		} else if m.Minor <= 17 {
			gl.Bundle("gl.v2.0.0", "2.0.0").In("stable").Replaces("gl.v1.6.0").With(maxOCP("4.18"))
		} else {
			gl.Bundle("gl.v2.0.0", "2.0.0").In("stable").With(maxOCP("4.18"))
		}
		if m.Minor == 16 {
			c.Package("rupt", "alpha").Bundle("rupt.v0.9.1", "0.9.1").In("alpha")
		}
		app := c.Package("app", "stable")
		app.Bundle("app.v1.0.0", "1.0.0").In("stable")
		if m.Minor >= 17 {
			app.Bundle("app.v1.1.0", "1.1.0").In("stable").Replaces("app.v1.0.0")
		}
		out[m] = append(out[m], c)
	}
	return out
}

const upgradeState = `apiVersion: config.openshift.io/v1
kind: ClusterVersion
metadata: {name: version}
spec: {clusterID: x, channel: eus-4.18}
status: {desired: {version: 4.16.21}, history: [{state: Completed, version: 4.16.21}]}
---
apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: gl.v1.5.1
  namespace: gitlab
  annotations: {operatorframework.io/properties: '{"properties":[{"type":"olm.package","value":{"packageName":"gl","version":"1.5.1"}},{"type":"olm.maxOpenShiftVersion","value":"4.16"}]}'}
spec: {version: 1.5.1}
status: {phase: Succeeded}
---
apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: gl, namespace: gitlab}
spec: {name: gl, channel: stable, source: community-operators, sourceNamespace: openshift-marketplace, installPlanApproval: Manual}
status: {installedCSV: gl.v1.5.1, currentCSV: gl.v1.5.1}
---
apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata: {name: rupt.v0.9.1, namespace: operators}
spec: {version: 0.9.1}
status: {phase: Succeeded}
---
apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: rupt, namespace: operators}
spec: {name: rupt, channel: alpha, source: community-operators, sourceNamespace: openshift-marketplace}
status: {installedCSV: rupt.v0.9.1, currentCSV: rupt.v0.9.1}
---
apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata: {name: app.v1.0.0, namespace: operators}
spec: {version: 1.0.0}
status: {phase: Succeeded}
---
apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: app, namespace: operators}
spec: {name: app, channel: stable, source: community-operators, sourceNamespace: openshift-marketplace}
status: {installedCSV: app.v1.0.0, currentCSV: app.v1.0.0}
`

// TestMake: a 4.16 cluster to 4.18 as an EUS update (4.17 Control Plane
// Only): the gate at 4.16 is lifted by two approvals to a bundle that
// supports 4.18 (the next stop), and a package gone from the 4.17 index
// strands its subscription and stops its namespace.
func TestMake(t *testing.T) {
	st, err := cluster.Decode(strings.NewReader(upgradeState), "cluster.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Make(context.Background(), st, Options{Target: Minor{4, 18}, Via: []Minor{{4, 17}}}, minorCatalogs(t, upgradeCatalogs()))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := p.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/eus.txt", b.String())
	b.Reset()
	if err := p.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/eus.md", b.String())
	js, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/eus.json", string(js)+"\n")
	if !p.Decision() {
		t.Error("a stranded package needs no decision")
	}
}

// TestMakeLiftPassedMinor: when the catalogs of the stop hold no version
// that supports the next stop, the lift there goes as far as the minor
// passed as a Control Plane Only update (and says the cluster must stop
// there), and the lift at that minor, from its own catalogs, is done there,
// between the two updates.
func TestMakeLiftPassedMinor(t *testing.T) {
	st, err := cluster.Decode(strings.NewReader(upgradeState), "cluster.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Make(context.Background(), st, Options{Target: Minor{4, 18}, Via: []Minor{{4, 17}}}, minorCatalogs(t, upgradeCatalogs(true)))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := p.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/eus-late.txt", b.String())
	var whens []string
	for _, a := range p.Actions {
		if a.Kind == ActionApprove {
			whens = append(whens, a.When)
		}
	}
	want := []string{"before 4.16 -> 4.17", "at 4.17, before 4.17 -> 4.18 (the control plane and OLM at 4.17, worker pools paused)"}
	if !slices.Equal(whens, want) {
		t.Errorf("approvals at %q, want %q", whens, want)
	}
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := resolvertest.Diff(string(want), got); d != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, d)
	}
}

// fileCatalogs returns a CatalogsFunc reading, for each minor, the
// community catalog extract testdata/ocp/community-v<minor>.json.gz as the
// default CatalogSource community-operators.
func fileCatalogs(t *testing.T) CatalogsFunc {
	return func(ctx context.Context, m Minor, state *cluster.State) (*Catalogs, error) {
		cat, err := graph.Load("../testdata/ocp/community-v" + m.String() + ".json.gz")
		if err != nil {
			return nil, err
		}
		opts := resolver.Options{GlobalNamespace: MarketplaceNamespace}
		cats := []resolver.Catalog{{Key: resolver.CatalogKey{Namespace: MarketplaceNamespace, Name: "community-operators"}, Priority: -400, Catalog: cat}}
		r, err := resolver.NewContext(ctx, cats, opts)
		if err != nil {
			return nil, err
		}
		c := &Catalogs{Minor: m, Catalogs: cats, Resolver: r, Options: opts}
		for _, cs := range state.CatalogSources {
			c.Sources = append(c.Sources, SourceAt(cs, m))
		}
		return c, nil
	}
}

// TestMakeCommunity: real cluster states on the community catalog as each
// OpenShift minor's index serves it (testdata/ocp/SOURCES.md).
func TestMakeCommunity(t *testing.T) {
	tests := []struct {
		name, state string
		opts        Options
	}{
		{"eus-4.16-4.18", "cluster-4.16.json", Options{Target: Minor{4, 18}, Via: []Minor{{4, 17}}}},
		{"4.16-4.18", "cluster-4.16.json", Options{Target: Minor{4, 18}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := cluster.LoadFiles("../testdata/ocp/" + tt.state)
			if err != nil {
				t.Fatal(err)
			}
			p, err := Make(context.Background(), st, tt.opts, fileCatalogs(t))
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := p.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			golden(t, "testdata/"+tt.name+".txt", b.String())
		})
	}
}

// TestMakeCancel: a plan stops soon after its context is cancelled, with
// the context's error, whichever step it is at (catalogs, lifts,
// rollouts, the mirror set).
func TestMakeCancel(t *testing.T) {
	st, err := cluster.LoadFiles("../testdata/ocp/cluster-4.16.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, after := range []time.Duration{0, 5 * time.Millisecond, 20 * time.Millisecond, 60 * time.Millisecond} {
		t.Run(after.String(), func(t *testing.T) {
			testcatalog.CheckCancel(t, after, testcatalog.CancelBudget, func(ctx context.Context) error {
				_, err := Make(ctx, st, Options{Target: Minor{4, 18}, Mirror: true}, fileCatalogs(t))
				return err
			})
		})
	}
}

// blockerCatalogs: old declares 4.16 in every version; ch's channel v1
// stops at 1.0 while v2 goes on to a version supporting 4.18; bad 2.0
// supports 4.18.
func blockerCatalogs() map[Minor][]*resolvertest.Catalog {
	out := map[Minor][]*resolvertest.Catalog{}
	for _, m := range []Minor{{4, 16}, {4, 17}} {
		c := resolvertest.NewCatalog("openshift-marketplace", "community-operators")
		c.Package("old", "stable").Bundle("old.v1", "1.0.0").In("stable").With(maxOCP("4.16"))
		ch := c.Package("ch", "v1")
		ch.Bundle("ch.v1.0", "1.0.0").In("v1", "v2").With(maxOCP("4.16"))
		ch.Bundle("ch.v2.0", "2.0.0").In("v2").Replaces("ch.v1.0").With(maxOCP("4.18"))
		bad := c.Package("bad", "stable")
		bad.Bundle("bad.v1", "1.0.0").In("stable")
		bad.Bundle("bad.v2", "2.0.0").In("stable").Replaces("bad.v1").With(maxOCP("4.18"))
		out[m] = append(out[m], c)
	}
	return out
}

const blockerState = `apiVersion: config.openshift.io/v1
kind: ClusterVersion
metadata: {name: version}
spec: {clusterID: x}
status: {desired: {version: 4.16.5}}
---
apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: old.v1
  namespace: a
  annotations: {operatorframework.io/properties: '{"properties":[{"type":"olm.maxOpenShiftVersion","value":"4.16"}]}'}
spec: {version: 1.0.0}
status: {phase: Succeeded}
---
apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: old, namespace: a}
spec: {name: old, channel: stable, source: community-operators, sourceNamespace: openshift-marketplace}
status: {installedCSV: old.v1, currentCSV: old.v1}
---
apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: ch.v1.0
  namespace: b
  annotations: {operatorframework.io/properties: '{"properties":[{"type":"olm.maxOpenShiftVersion","value":"4.16"}]}'}
spec: {version: 1.0.0}
status: {phase: Succeeded}
---
apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: ch, namespace: b}
spec: {name: ch, channel: v1, source: community-operators, sourceNamespace: openshift-marketplace}
status: {installedCSV: ch.v1.0, currentCSV: ch.v1.0}
---
apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: ch.v1.0
  namespace: d
  labels: {olm.copiedFrom: b}
  annotations: {operatorframework.io/properties: '{"properties":[{"type":"olm.maxOpenShiftVersion","value":"4.16"}]}'}
spec: {version: 1.0.0}
status: {phase: Succeeded, reason: Copied}
---
apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: bad.v1
  namespace: c
  annotations: {operatorframework.io/properties: '{"properties":[{"type":"olm.maxOpenShiftVersion","value":"4.16.1"}]}'}
spec: {version: 1.0.0}
status: {phase: Succeeded}
---
apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: bad, namespace: c}
spec: {name: bad, channel: stable, source: community-operators, sourceNamespace: openshift-marketplace, installPlanApproval: Manual}
status: {installedCSV: bad.v1, currentCSV: bad.v1}
---
apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: lonely.v1
  namespace: e
  annotations: {operatorframework.io/properties: '{"properties":[{"type":"olm.maxOpenShiftVersion","value":"4.16"}]}'}
spec: {version: 1.0.0}
status: {phase: Succeeded}
`

// TestMakeBlockers: every way a gate's blocker is lifted, or not, on one
// hop: an invalid value lifted by approving an upgrade, another
// channel, a package with no compatible version (a decision, with what
// uninstalling does), a CSV no subscription manages; a copy is no blocker.
func TestMakeBlockers(t *testing.T) {
	st, err := cluster.Decode(strings.NewReader(blockerState), "cluster.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Make(context.Background(), st, Options{Target: Minor{4, 17}}, minorCatalogs(t, blockerCatalogs()))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := p.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/blockers.txt", b.String())
	kinds := map[string]LiftKind{}
	for _, l := range p.Hops[0].Lifts {
		kinds[l.Blocker.Namespace+"/"+l.Blocker.Name] = l.Kind
	}
	want := map[string]LiftKind{"a/old.v1": LiftNone, "b/ch.v1.0": LiftChannel, "c/bad.v1": LiftUpgrade, "e/lonely.v1": LiftNone}
	if !maps.Equal(kinds, want) {
		t.Errorf("lifts %v, want %v", kinds, want)
	}
	if !p.Decision() || p.Hops[0].Open {
		t.Errorf("decision %v, open %v: two blockers nothing lifts", p.Decision(), p.Hops[0].Open)
	}
}
