package openshift

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver/predict"
	"github.com/sextantdev/sextant/resolvertest"
)

// failureState: a 4.16 cluster with two operators OLM upgrades by itself.
const failureState = `apiVersion: config.openshift.io/v1
kind: ClusterVersion
metadata: {name: version}
spec: {clusterID: x}
status: {desired: {version: 4.16.3}}
---
apiVersion: operators.coreos.com/v1
kind: OperatorGroup
metadata: {name: og, namespace: a}
spec: {}
---
apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata: {name: kube.v1, namespace: a}
spec: {version: 1.0.0, installModes: [{type: AllNamespaces, supported: true}]}
status: {phase: Succeeded}
---
apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: kube, namespace: a}
spec: {name: kube, channel: stable, source: community-operators, sourceNamespace: openshift-marketplace}
status: {installedCSV: kube.v1, currentCSV: kube.v1}
---
apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata: {name: zed.v1, namespace: a}
spec: {version: 1.0.0, installModes: [{type: AllNamespaces, supported: true}]}
status: {phase: Succeeded}
---
apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: zed, namespace: a}
spec: {name: zed, channel: stable, source: community-operators, sourceNamespace: openshift-marketplace}
status: {installedCSV: zed.v1, currentCSV: zed.v1}
`

// failureCatalogs: at 4.17 (Kubernetes 1.30) kube's next version needs
// Kubernetes 1.31, zed's 1.30.4 (a patch of the minor's own).
func failureCatalogs() map[Minor][]*resolvertest.Catalog {
	out := map[Minor][]*resolvertest.Catalog{}
	for _, m := range []Minor{{4, 16}, {4, 17}} {
		c := resolvertest.NewCatalog("openshift-marketplace", "community-operators")
		k := c.Package("kube", "stable")
		k.Bundle("kube.v1", "1.0.0").In("stable").CSVMetadata("", graph.InstallModeAllNamespaces)
		z := c.Package("zed", "stable")
		z.Bundle("zed.v1", "1.0.0").In("stable").CSVMetadata("", graph.InstallModeAllNamespaces)
		if m == (Minor{4, 17}) {
			k.Bundle("kube.v2", "2.0.0").In("stable").Replaces("kube.v1").CSVMetadata("1.31.0", graph.InstallModeAllNamespaces)
			z.Bundle("zed.v2", "2.0.0").In("stable").Replaces("zed.v1").CSVMetadata("1.30.4", graph.InstallModeAllNamespaces)
		}
		out[m] = append(out[m], c)
	}
	return out
}

// TestMakeFailures: once the catalogs move to 4.17, the upgrades OLM makes
// by itself are checked against the Kubernetes 4.17 ships (1.30): a
// minKubeVersion of 1.31 is a predicted failure, one of 1.30.4 a warning
// (the z-stream decides); the failure is a decision of the plan.
func TestMakeFailures(t *testing.T) {
	st, err := cluster.Decode(strings.NewReader(failureState), "cluster.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Make(context.Background(), st, Options{Target: Minor{4, 17}}, minorCatalogs(t, failureCatalogs()))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := p.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/failures.txt", b.String())
	got := map[string]predict.Severity{}
	for _, n := range p.Hops[0].After {
		for _, f := range n.Failures {
			if f.Prediction.Reason == predict.ReasonRequirementsNotMet {
				got[f.CSV] = f.Prediction.Severity
			}
		}
	}
	if got["kube.v2"] != predict.SeverityFailure || got["zed.v2"] != predict.SeverityWarning {
		t.Errorf("minKubeVersion predictions %v, want kube.v2 a failure, zed.v2 a warning", got)
	}
	if !p.Decision() {
		t.Error("no decision: a predicted failure needs one")
	}
}
