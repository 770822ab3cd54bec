package predict

import (
	"encoding/base64"
	"errors"
	"reflect"
	"testing"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

func modes(supported ...graph.InstallModeType) []graph.InstallMode {
	all := []graph.InstallModeType{graph.InstallModeOwnNamespace, graph.InstallModeSingleNamespace, graph.InstallModeMultiNamespace, graph.InstallModeAllNamespaces}
	out := make([]graph.InstallMode, 0, len(all))
	for _, t := range all {
		m := graph.InstallMode{Type: t}
		for _, s := range supported {
			m.Supported = m.Supported || s == t
		}
		out = append(out, m)
	}
	return out
}

// checkPrediction checks a prediction against want: none when want has no
// reason; otherwise want's reason, and its severity, OperatorGroup and
// message where want gives them.
func checkPrediction(t *testing.T, got *Prediction, want Prediction) {
	t.Helper()
	if want.Reason == "" {
		if got != nil {
			t.Errorf("got %v, want nil", *got)
		}
		return
	}
	if got == nil {
		t.Fatal("got nil, want a prediction")
	}
	if got.Reason != want.Reason {
		t.Errorf("reason %v, want %v", got.Reason, want.Reason)
	}
	if want.Severity != "" && got.Severity != want.Severity {
		t.Errorf("severity %v, want %v", got.Severity, want.Severity)
	}
	if want.OperatorGroup != "" && got.OperatorGroup != want.OperatorGroup {
		t.Errorf("OperatorGroup %v, want %v", got.OperatorGroup, want.OperatorGroup)
	}
	if want.Message != "" && got.Message != want.Message {
		t.Errorf("message %q, want %q", got.Message, want.Message)
	}
}

func TestGroupTargets(t *testing.T) {
	tests := []struct {
		name   string
		g      cluster.OperatorGroup
		known  bool
		ns     []string
		reason string
	}{
		{name: "plain group is all namespaces", g: cluster.OperatorGroup{}, known: true, ns: []string{""}},
		{name: "empty selector is all namespaces", g: cluster.OperatorGroup{Selector: &cluster.LabelSelector{}}, known: true, ns: []string{""}},
		{name: "target namespaces sorted", g: cluster.OperatorGroup{TargetNamespaces: []string{"b", "a", "b"}}, known: true, ns: []string{"a", "b"}},
		{name: "status wins over spec", g: cluster.OperatorGroup{TargetNamespaces: []string{"a"}, StatusNamespaces: []string{"c"}}, known: true, ns: []string{"c"},
			reason: "status.namespaces is what OLM writes into olm.targetNamespaces"},
		{name: "status all namespaces", g: cluster.OperatorGroup{StatusNamespaces: []string{""}}, known: true, ns: []string{""}},
		{name: "label selector without status is unknown", g: cluster.OperatorGroup{Selector: &cluster.LabelSelector{MatchLabels: map[string]string{"team": "a"}}}},
		{name: "label selector with status", g: cluster.OperatorGroup{Selector: &cluster.LabelSelector{MatchLabels: map[string]string{"team": "a"}}, StatusNamespaces: []string{"x"}}, known: true, ns: []string{"x"}},
		{name: "empty namespace in spec is rejected by OLM", g: cluster.OperatorGroup{TargetNamespaces: []string{""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := TargetsOf(&tt.g)
			if !reflect.DeepEqual(got.Known, tt.known) {
				t.Errorf("got %v, want %v", got.Known, tt.known)
			}
			if tt.known {
				if !reflect.DeepEqual(got.Namespaces, tt.ns) {
					t.Errorf("got %v, want %v", got.Namespaces, tt.ns)
				}
			} else {
				if got.Why == "" {
					t.Error("an unknown target set says why")
				}
			}
		})
	}
}

func TestInstallModePrediction(t *testing.T) {
	og := &cluster.OperatorGroup{Namespace: "ops", Name: "og"}
	tests := []struct {
		name    string
		modes   []graph.InstallMode
		targets []string
		reason  Reason // "" when OLM accepts
		message string
	}{
		{name: "own namespace needs OwnNamespace", modes: modes(graph.InstallModeOwnNamespace), targets: []string{"ops"}},
		{name: "own namespace unsupported", modes: modes(graph.InstallModeAllNamespaces), targets: []string{"ops"}, reason: ReasonUnsupportedOperatorGroup,
			message: "OperatorGroup ops/og targets only its own namespace ops, which needs install mode OwnNamespace, and op.v1 supports only AllNamespaces"},
		{name: "all namespaces", modes: modes(graph.InstallModeAllNamespaces), targets: []string{""}},
		{name: "all namespaces unsupported", modes: modes(graph.InstallModeOwnNamespace, graph.InstallModeSingleNamespace), targets: []string{""}, reason: ReasonUnsupportedOperatorGroup,
			message: "OperatorGroup ops/og targets all namespaces, which needs install mode AllNamespaces, and op.v1 supports only OwnNamespace and SingleNamespace"},
		{name: "one other namespace", modes: modes(graph.InstallModeSingleNamespace), targets: []string{"team-a"}},
		{name: "one other namespace unsupported", modes: modes(graph.InstallModeOwnNamespace), targets: []string{"team-a"}, reason: ReasonUnsupportedOperatorGroup,
			message: "OperatorGroup ops/og targets namespace team-a, which needs install mode SingleNamespace, and op.v1 supports only OwnNamespace"},
		{name: "several namespaces", modes: modes(graph.InstallModeMultiNamespace), targets: []string{"a", "b"}},
		{name: "several without MultiNamespace", modes: modes(graph.InstallModeSingleNamespace), targets: []string{"a", "b"}, reason: ReasonUnsupportedOperatorGroup},
		{name: "several with own needs OwnNamespace too", modes: modes(graph.InstallModeMultiNamespace), targets: []string{"a", "ops"}, reason: ReasonUnsupportedOperatorGroup,
			message: "OperatorGroup ops/og targets namespaces a and ops, which needs install mode OwnNamespace, and op.v1 supports only MultiNamespace"},
		{name: "several with own", modes: modes(graph.InstallModeMultiNamespace, graph.InstallModeOwnNamespace), targets: []string{"a", "ops"}},
		{name: "all beside others is invalid", modes: modes(graph.InstallModeMultiNamespace, graph.InstallModeAllNamespaces), targets: []string{"", "a"}, reason: ReasonUnsupportedOperatorGroup},
		{name: "no install mode", modes: nil, targets: []string{""}, reason: ReasonUnsupportedOperatorGroup,
			message: "OperatorGroup ops/og targets all namespaces, which needs install mode AllNamespaces, and op.v1 supports no install mode"},
		{name: "duplicate mode", modes: append(modes(graph.InstallModeAllNamespaces), graph.InstallMode{Type: graph.InstallModeAllNamespaces, Supported: true}), targets: []string{""}, reason: ReasonInvalidInstallModes,
			message: "op.v1 lists install mode AllNamespaces more than once, and OLM rejects such a list"},
		{name: "last listing wins", modes: []graph.InstallMode{{Type: graph.InstallModeOwnNamespace, Supported: true}}, targets: []string{"ops"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tg := Targets{Known: true, Namespaces: tt.targets, From: "spec.targetNamespaces"}
			got := InstallModes("op.v1", tt.modes, "ops", og, tg)
			want := Prediction{Reason: tt.reason, Severity: SeverityFailure, OperatorGroup: "ops/og", Message: tt.message}
			checkPrediction(t, got, want)
		})
	}
}

func TestMinKubePrediction(t *testing.T) {
	server := semver.MustParse("1.25.3")
	tests := []struct {
		name, minKube string
		fail          bool
		message       string
	}{
		{name: "none", minKube: ""},
		{name: "lower", minKube: "1.19.0-0"},
		{name: "equal", minKube: "1.25.3"},
		{name: "higher", minKube: "1.26.0", fail: true, message: "op.v1 needs Kubernetes 1.26.0 or later: minKubeVersion (1.26.0) > server version (1.25.3)"},
		{name: "prerelease of the server version is lower", minKube: "1.25.3-0"},
		{name: "unparsable", minKube: "1.26", fail: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := MinKube("op.v1", tt.minKube, server)
			want := Prediction{Message: tt.message}
			if tt.fail {
				want.Reason = ReasonRequirementsNotMet
			}
			checkPrediction(t, got, want)
		})
	}
}

func TestMaxOpenShiftPrediction(t *testing.T) {
	tests := []struct {
		name    string
		max     *graph.MaxOpenShiftVersion
		current string
		warn    bool
	}{
		{name: "none", max: nil, current: "4.16.0"},
		{name: "at the current minor blocks the next", max: &graph.MaxOpenShiftVersion{Text: "4.16", Version: semver.MustParse("4.16.0")}, current: "4.16.3", warn: true},
		{name: "next minor allowed", max: &graph.MaxOpenShiftVersion{Text: "4.17", Version: semver.MustParse("4.17.0")}, current: "4.16.3"},
		{name: "prerelease checks its own minor", max: &graph.MaxOpenShiftVersion{Text: "4.17", Version: semver.MustParse("4.17.0")}, current: "4.17.0-rc.1"},
		{name: "invalid value blocks", max: &graph.MaxOpenShiftVersion{Text: "x"}, current: "4.16.0", warn: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "invalid value blocks" {
				tt.max.Err = errors.New("bad")
			}
			got := MaxOpenShift("op.v1", tt.max, semver.MustParse(tt.current))
			var want Prediction
			if tt.warn {
				want = Prediction{Reason: ReasonMaxOpenShiftVersion, Severity: SeverityWarning}
			}
			checkPrediction(t, got, want)
		})
	}
}

func TestAPIPrediction(t *testing.T) {
	cert := graph.GVK{Group: "cert-manager.io", Version: "v1", Kind: "Certificate"}
	issuer := graph.GVK{Group: "cert-manager.io", Version: "v1", Kind: "Issuer"}
	surface := func(ns string, tns []string, static bool, apis ...graph.GVK) *groupSurface {
		g := &cluster.OperatorGroup{Namespace: ns, Name: "og", TargetNamespaces: tns, StaticProvidedAPIs: static}
		return &groupSurface{g: g, targets: TargetsOf(g), apis: apis}
	}
	tests := []struct {
		name   string
		own    *groupSurface
		others []*groupSurface
		want   Reason
		reason string
	}{
		{name: "no other group", own: surface("a", []string{"a"}, false)},
		{name: "all namespaces intersects everything", own: surface("a", []string{"a"}, false), others: []*groupSurface{surface("ops", nil, false, cert)}, want: ReasonInterOperatorGroupOwnerConflict},
		{name: "disjoint targets", own: surface("a", []string{"a"}, false), others: []*groupSurface{surface("b", []string{"b"}, false, cert)}},
		{name: "other targets our namespace", own: surface("a", []string{"a"}, false), others: []*groupSurface{surface("b", []string{"a"}, false, cert)}, want: ReasonInterOperatorGroupOwnerConflict,
			reason: "OLM adds each group's own namespace to its targets"},
		{name: "other group provides other APIs", own: surface("a", nil, false), others: []*groupSurface{surface("b", []string{"b"}, false, issuer)}},
		{name: "static group missing the API", own: surface("a", []string{"a"}, true), want: ReasonCannotModifyStaticOperatorGroupProvidedAPIs},
		{name: "static group listing the API", own: surface("a", []string{"a"}, true, cert)},
		{name: "static group listing an API another provides", own: surface("a", []string{"a"}, true, cert), others: []*groupSurface{surface("ops", nil, false, cert)}, want: ReasonCannotModifyStaticOperatorGroupProvidedAPIs,
			reason: "OLM would have to remove the API from the static group"},
		{name: "unknown targets are not compared", own: surface("a", []string{"a"}, false), others: []*groupSurface{{g: &cluster.OperatorGroup{Namespace: "b", Name: "og"}, apis: []graph.GVK{cert}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := apiPrediction("cert-manager.v1", []graph.GVK{cert}, tt.own, tt.others)
			checkPrediction(t, got, Prediction{Reason: tt.want, OperatorGroup: tt.own.name()})
		})
	}
}

// bundleObject returns an olm.bundle.object property carrying a CSV
// manifest whose spec.installModes is modes (JSON).
func bundleObject(modes string) graph.Property {
	csv := `{"kind":"ClusterServiceVersion","metadata":{"name":"op.v1"},"spec":{"installModes":` + modes + `}}`
	return graph.Property{Type: graph.TypeBundleObject, Value: []byte(`{"data":"` + base64.StdEncoding.EncodeToString([]byte(csv)) + `"}`)}
}

func TestEverywhere(t *testing.T) {
	bundle := func(metadata, manifestModes string) *graph.Bundle {
		props := []graph.Property{graph.PackageProperty("op", "1.0.0")}
		if metadata != "" {
			props = append(props, graph.Property{Type: graph.TypeCSVMetadata, Value: []byte(metadata)})
		}
		if manifestModes != "" {
			props = append(props, bundleObject(manifestModes))
		}
		b, err := graph.ParseProperties(props)
		if err != nil {
			t.Fatal(err)
		}
		b.Name = "op.v1"
		return b
	}
	tests := []struct {
		name     string
		metadata string
		manifest string // the installModes of a CSV manifest (olm.bundle.object)
		want     []Reason
	}{
		{name: "no metadata is not checked"},
		{name: "the CSV manifest without metadata", manifest: `[{"type":"OwnNamespace","supported":false}]`, want: []Reason{ReasonUnsupportedOperatorGroup}},
		{name: "the CSV manifest, a mode twice", manifest: `[{"type":"OwnNamespace","supported":true},{"type":"OwnNamespace","supported":true}]`, want: []Reason{ReasonInvalidInstallModes}},
		{name: "the CSV manifest before the metadata", metadata: `{"installModes":[{"type":"OwnNamespace","supported":false}],"minKubeVersion":"1.21"}`,
			manifest: `[{"type":"AllNamespaces","supported":true}]`, want: []Reason{ReasonRequirementsNotMet}},
		{name: "a supported mode", metadata: `{"installModes":[{"type":"OwnNamespace","supported":true}]}`},
		{name: "no supported mode", metadata: `{"installModes":[{"type":"OwnNamespace","supported":false}]}`, want: []Reason{ReasonUnsupportedOperatorGroup}},
		{name: "a mode twice", metadata: `{"installModes":[{"type":"OwnNamespace","supported":true},{"type":"OwnNamespace","supported":true}]}`, want: []Reason{ReasonInvalidInstallModes}},
		{name: "minKubeVersion that does not parse", metadata: `{"installModes":[{"type":"AllNamespaces","supported":true}],"minKubeVersion":"1.21"}`, want: []Reason{ReasonRequirementsNotMet}},
		{name: "both", metadata: `{"minKubeVersion":"v1.21"}`, want: []Reason{ReasonUnsupportedOperatorGroup, ReasonRequirementsNotMet}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []Reason
			for _, p := range Everywhere(bundle(tt.metadata, tt.manifest)) {
				if p.Severity != SeverityFailure || p.OperatorGroup != "" || p.Message == "" {
					t.Errorf("prediction %+v: want a failure with a message and no OperatorGroup", p)
				}
				got = append(got, p.Reason)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// TestBundleModesFromManifest: a bundle that records its install modes
// only in an embedded CSV manifest has them checked against the
// namespace's OperatorGroup; one that records none is noted.
func TestBundleModesFromManifest(t *testing.T) {
	state := &cluster.State{OperatorGroups: []cluster.OperatorGroup{{Name: "og", Namespace: "ns", TargetNamespaces: []string{"ns"}}}}
	bundle := func(name string, props ...graph.Property) *graph.Bundle {
		b, err := graph.ParseProperties(append([]graph.Property{graph.PackageProperty("op", "1.0.0")}, props...))
		if err != nil {
			t.Fatal(err)
		}
		b.Name = name
		return b
	}
	pr := New("ns", Platform{}, state, nil)
	got := pr.Bundle(bundle("op.v1", bundleObject(`[{"type":"AllNamespaces","supported":true}]`)))
	if len(got) != 1 || got[0].Reason != ReasonUnsupportedOperatorGroup {
		t.Errorf("an AllNamespaces-only CSV manifest under an own-namespace group: %+v, want UnsupportedOperatorGroup", got)
	}
	if got := pr.Bundle(bundle("op.v2")); len(got) != 0 {
		t.Errorf("a bundle that records no CSV: %+v, want nothing", got)
	}
	if notes := pr.Notes(); len(notes) != 1 || notes[0].Text != "install modes not checked for bundles without olm.csv.metadata: op.v2" {
		t.Errorf("notes %q, want op.v2's install modes noted as not checked", notes)
	}
}
