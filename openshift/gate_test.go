package openshift

import (
	"strings"
	"testing"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

func maxProp(value string) graph.Property {
	return graph.Property{Type: graph.TypeMaxOpenShift, Value: []byte(value)}
}

func csvWith(ns, name string, props ...graph.Property) cluster.CSV {
	return cluster.CSV{Namespace: ns, Name: name, Properties: cluster.NewCSVProperties(props...)}
}

// TestGateV0: OLM v0.28's rule (helpers.go): copied CSVs skipped, nextY
// (a prerelease checks its own minor), max below next blocks, an invalid
// value blocks, the message in OLM's words with invalid values first.
func TestGateV0(t *testing.T) {
	tests := []struct {
		name    string
		current string
		csvs    []cluster.CSV
		want    string // the message; "" when the gate is open
	}{
		{"no annotation, no property", "4.16.3", []cluster.CSV{{Namespace: "a", Name: "x.v1"}, csvWith("a", "y.v1")}, ""},
		{"max is the next minor", "4.16.3", []cluster.CSV{csvWith("a", "x.v1", maxProp(`"4.17"`))}, ""},
		{"max is the current minor", "4.16.3", []cluster.CSV{csvWith("a", "x.v1", maxProp(`"4.16"`))},
			"ClusterServiceVersions blocking cluster upgrade: a/x.v1 is incompatible with OpenShift minor versions greater than 4.16"},
		{"a number, not a string", "4.16.0", []cluster.CSV{csvWith("a", "x.v1", maxProp(`4.15`))},
			"ClusterServiceVersions blocking cluster upgrade: a/x.v1 is incompatible with OpenShift minor versions greater than 4.15"},
		{"a prerelease checks its own minor", "4.17.0-rc.2", []cluster.CSV{csvWith("a", "x.v1", maxProp(`"4.16"`)), csvWith("a", "y.v1", maxProp(`"4.17"`))},
			"ClusterServiceVersions blocking cluster upgrade: a/x.v1 is incompatible with OpenShift minor versions greater than 4.16"},
		{"a copy is skipped", "4.16.3", []cluster.CSV{{Namespace: "b", Name: "x.v1", Copied: true, Properties: cluster.NewCSVProperties(maxProp(`"4.16"`))}}, ""},
		{"invalid values first, in OLM's words", "4.16.3", []cluster.CSV{
			csvWith("a", "x.v1", maxProp(`"4.16"`)),
			csvWith("b", "y.v1", maxProp(`"4.16.1"`)),
			csvWith("c", "z.v1", maxProp(`""`)),
			csvWith("d", "w.v1", maxProp(`"4.18"`), maxProp(`"4.19"`)),
		}, "ClusterServiceVersions blocking cluster upgrade: " +
			"b/y.v1 has invalid olm.maxOpenShiftVersion properties: property olm.maxOpenShiftVersion must specify only <major>.<minor> version, got invalid value 4.16.1," +
			`c/z.v1 has invalid olm.maxOpenShiftVersion properties: value cannot be "" (an empty string),` +
			`d/w.v1 has invalid olm.maxOpenShiftVersion properties: defining more than one "olm.maxOpenShiftVersion" property is not allowed,` +
			"a/x.v1 is incompatible with OpenShift minor versions greater than 4.16"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := GateV0(semver.MustParse(tt.current), tt.csvs)
			if g.Message != tt.want {
				t.Errorf("message:\n%s\nwant:\n%s", g.Message, tt.want)
			}
			if g.Open() != (tt.want == "") {
				t.Errorf("Open() = %v", g.Open())
			}
			if !g.Open() && (g.Reason != ReasonIncompatibleOperatorsInstalled || g.Condition != ConditionUpgradeable) {
				t.Errorf("condition %s reason %s", g.Condition, g.Reason)
			}
		})
	}
}

// TestGateV1: cluster-olm-operator's rule: max must be above the cluster's
// minor (4.23 counts as 5.0), values read as its ToAllowedSemver reads
// them, errors named per extension and bundle.
func TestGateV1(t *testing.T) {
	ext := func(name string, props ...graph.Property) Extension {
		return Extension{Name: name, Bundle: name + ".v1", Properties: props}
	}
	tests := []struct {
		name, current string
		exts          []Extension
		reason, want  string
	}{
		{"compatible", "4.17.2", []Extension{ext("a", maxProp(`"4.18"`)), ext("b")}, "", ""},
		{"max equals the cluster's minor", "4.18.2", []Extension{ext("b", maxProp(`"4.18"`)), ext("a", maxProp(`4.17`))}, ReasonIncompatibleOperatorsInstalled,
			`Found ClusterExtensions that require upgrades prior to upgrading cluster to version 4.19: bundle "a.v1" for ClusterExtension "a",bundle "b.v1" for ClusterExtension "b".`},
		{"4.23 upgrades to 5.1", "4.23.1", []Extension{ext("a", maxProp(`"5.0"`)), ext("b", maxProp(`"5.1"`))}, ReasonIncompatibleOperatorsInstalled,
			`Found ClusterExtensions that require upgrades prior to upgrading cluster to version 5.1: bundle "a.v1" for ClusterExtension "a".`},
		{"values v0 accepts and v1 does not", "4.16.0", []Extension{ext("a", maxProp(`"v4.18"`)), ext("b", maxProp(`"4.18.0"`)), ext("c", maxProp(`4.180`)), ext("d", maxProp(`true`))}, ReasonFailureGettingExtensionMetadata,
			`error(s) with cluster extension a: error in bundle a.v1: error converting to semver for version "v4.18": invalid version format` + "\n" +
				`error(s) with cluster extension b: error in bundle b.v1: error converting to semver for version "4.18.0": invalid version format` + "\n" +
				`error(s) with cluster extension d: error in bundle d.v1: error converting to semver for version true: invalid type bool for olm.maxOpenshiftVersion: true`},
		{"two properties, beside a blocker", "4.16.0", []Extension{ext("a", maxProp(`"4.18"`), maxProp(`"4.19"`)), ext("b", maxProp(`"4.16"`))}, ReasonIncompatibleOperatorsInstalled,
			`Found ClusterExtensions that require upgrades prior to upgrading cluster to version 4.17: bundle "b.v1" for ClusterExtension "b".` +
				"\n Additionally the following errors were encountered while getting extension metadata: error(s) with cluster extension a: error in bundle a.v1: more than one olm.maxOpenShiftVersion found in bundle"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := GateV1(semver.MustParse(tt.current), tt.exts)
			if g.Message != tt.want || g.Reason != tt.reason {
				t.Errorf("reason %q message:\n%s\nwant %q:\n%s", g.Reason, g.Message, tt.reason, tt.want)
			}
		})
	}
	// A JSON number keeps its text: 4.180 is minor 180, not 4.18.
	if g := GateV1(semver.MustParse("4.179.0"), []Extension{ext("c", maxProp(`4.180`))}); !g.Open() {
		t.Errorf("4.180 read as %v", g.Blockers)
	}
}

// TestNext: the minor each engine checks against.
func TestNext(t *testing.T) {
	for _, tt := range []struct{ v, v0, v1 string }{
		{"4.16.21", "4.17", "4.17"},
		{"4.17.0-rc.1", "4.17", "4.18"},
		{"4.23.4", "4.24", "5.1"},
	} {
		v := semver.MustParse(tt.v)
		if got := NextV0(v).String(); got != tt.v0 {
			t.Errorf("NextV0(%s) = %s, want %s", tt.v, got, tt.v0)
		}
		if got := NextV1(v).String(); got != tt.v1 {
			t.Errorf("NextV1(%s) = %s, want %s", tt.v, got, tt.v1)
		}
	}
	if !strings.HasPrefix(GateV0(semver.MustParse("4.16.0"), nil).Next.String(), "4.17") {
		t.Error("GateV0's Next")
	}
}

// TestGateV0Quoting: OLM writes the value between plain quotes, as it is.
func TestGateV0Quoting(t *testing.T) {
	g := GateV0(semver.MustParse("4.16.0"), []cluster.CSV{csvWith("e", "v.v1", maxProp(`{"a":1}`))})
	want := `ClusterServiceVersions blocking cluster upgrade: e/v.v1 has invalid olm.maxOpenShiftVersion properties: failed to parse "{"a":1}" as semver: `
	if !strings.HasPrefix(g.Message, want) {
		t.Errorf("message %s\nwant prefix %s", g.Message, want)
	}
}
