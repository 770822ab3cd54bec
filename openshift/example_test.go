package openshift_test

import (
	"fmt"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/openshift"
)

// An operator that declares olm.maxOpenShiftVersion 4.16 keeps OLM's gate
// closed on a 4.16 cluster: the update to 4.17 waits.
func ExampleGateV0() {
	csvs := []cluster.CSV{{
		Namespace: "openshift-adp", Name: "oadp-operator.v1.3.2",
		Properties: cluster.NewCSVProperties(graph.Property{Type: graph.TypeMaxOpenShift, Value: []byte(`"4.16"`)}),
	}}
	g := openshift.GateV0(semver.MustParse("4.16.21"), csvs)
	fmt.Println(g.Open(), g.Reason)
	fmt.Println(g.Message)
	// Output:
	// false IncompatibleOperatorsInstalled
	// ClusterServiceVersions blocking cluster upgrade: openshift-adp/oadp-operator.v1.3.2 is incompatible with OpenShift minor versions greater than 4.16
}

// An EUS to EUS update passes the odd minors with the worker pools paused,
// and stops at the even ones.
func ExampleNewPath() {
	p, err := openshift.NewPath(semver.MustParse("4.16.21"), openshift.Minor{Major: 4, Minor: 20}, []openshift.Minor{{Major: 4, Minor: 17}, {Major: 4, Minor: 19}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, h := range p.Hops {
		fmt.Println(h.From, "->", h.To, "control plane only:", h.ControlPlaneOnly)
	}
	// Output:
	// 4.16 -> 4.17 control plane only: true
	// 4.17 -> 4.18 control plane only: false
	// 4.18 -> 4.19 control plane only: true
	// 4.19 -> 4.20 control plane only: false
}

// The default community catalog follows the platform; a mirror keeps its
// image.
func ExampleSourceAt() {
	for _, cs := range []cluster.CatalogSource{
		{Namespace: "openshift-marketplace", Name: "community-operators", Image: "registry.redhat.io/redhat/community-operator-index:v4.16", ManagedBy: "marketplace-operator"},
		{Namespace: "openshift-marketplace", Name: "mirrored-operators", Image: "mirror.example.com/redhat/redhat-operator-index:v4.16"},
	} {
		s := openshift.SourceAt(cs, openshift.Minor{Major: 4, Minor: 17})
		fmt.Println(s.Name, s.Kind, s.Image)
	}
	// Output:
	// community-operators follows-platform registry.redhat.io/redhat/community-operator-index:v4.17
	// mirrored-operators mirrored mirror.example.com/redhat/redhat-operator-index:v4.16
}
