package check

import (
	"strings"
	"testing"
)

func TestPlatform(t *testing.T) {
	runCases(t, []Check{Platform}, []checkCase{
		{
			name:   "same install modes and minKubeVersion",
			reason: "an upgrade that keeps every mode, and adds one, drops nothing; an equal minKubeVersion does not rise",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0 csv='{"installModes":[{"type":"OwnNamespace","supported":true}],"minKubeVersion":"1.25.0"}'
bundle p p.v2 2.0.0 csv='{"installModes":[{"type":"OwnNamespace","supported":true},{"type":"AllNamespaces","supported":true}],"minKubeVersion":"v1.25.0"}'
channel p stable
  entry p.v2 replaces=p.v1
  entry p.v1
`},
		},
		{
			name:   "install mode dropped by replaces",
			reason: "argocd-operator 0.7.0 to 0.8.0: OwnNamespace and SingleNamespace go, so a cluster running 0.7.0 under an own-namespace group upgrades into a failing CSV",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0 csv='{"installModes":[{"type":"OwnNamespace","supported":true},{"type":"SingleNamespace","supported":true},{"type":"AllNamespaces","supported":true}]}'
bundle p p.v2 2.0.0 csv='{"installModes":[{"type":"OwnNamespace","supported":false},{"type":"SingleNamespace","supported":false},{"type":"AllNamespaces","supported":true}]}'
channel p stable
  entry p.v2 replaces=p.v1
  entry p.v1
`},
			want:     []string{"a install-mode-dropped p/stable p.v2"},
			messages: []string{`the upgrade from "p.v1" (1.0.0) to "p.v2" (2.0.0) by replaces (channel stable) drops install modes OwnNamespace and SingleNamespace: a cluster running "p.v1" under an OperatorGroup that needs one of them upgrades into a CSV OLM fails (UnsupportedOperatorGroup)`},
		},
		{
			name:   "skipRange drops reported once per target",
			reason: "a skipRange lets every older version upgrade at once; one finding lists the sources",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0 csv='{"installModes":[{"type":"SingleNamespace","supported":true}]}'
bundle p p.v2 2.0.0 csv='{"installModes":[{"type":"SingleNamespace","supported":true}]}'
bundle p p.v3 3.0.0 csv='{"installModes":[{"type":"AllNamespaces","supported":true}]}'
channel p stable
  entry p.v3 skipRange='<3.0.0'
  entry p.v2 replaces=p.v1
  entry p.v1
`},
			want:     []string{"a install-mode-dropped p/stable p.v3"},
			messages: []string{`skipRange "<3.0.0" of "p.v3" (3.0.0) (channel stable) makes 2 upgrades that drop install modes, which OLM then fails under the OperatorGroups that need them (UnsupportedOperatorGroup): from "p.v2" (2.0.0), install mode SingleNamespace; from "p.v1" (1.0.0), install mode SingleNamespace`},
		},
		{
			name:   "no install mode",
			reason: "a bundle that supports no mode fails under every OperatorGroup; one that lists a mode twice is rejected by OLM",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0 csv='{"installModes":[{"type":"OwnNamespace","supported":false}]}'
bundle p p.v2 2.0.0 csv='{"installModes":[{"type":"OwnNamespace","supported":true},{"type":"OwnNamespace","supported":true}]}'
bundle p p.v3 3.0.0 csv='{"displayName":"no installModes key"}'
bundle p p.v4 4.0.0
channel p stable
  entry p.v4 replaces=p.v3
  entry p.v3 replaces=p.v2
  entry p.v2 replaces=p.v1
  entry p.v1
`},
			want: []string{"a no-install-mode p/stable p.v1", "a no-install-mode p/stable p.v2", "a install-mode-dropped p/stable p.v3", "a no-install-mode p/stable p.v3"},
			messages: []string{
				`bundle "p.v1" supports no install mode: OLM fails it under every OperatorGroup (UnsupportedOperatorGroup)`,
				`bundle "p.v2" lists install mode OwnNamespace more than once: OLM rejects the list (InvalidInstallModes) and fails the CSV under every OperatorGroup`,
				`the upgrade from "p.v2" (2.0.0) to "p.v3" (3.0.0) by replaces (channel stable) drops install mode OwnNamespace: a cluster running "p.v2" under an OperatorGroup that needs it upgrades into a CSV OLM fails (UnsupportedOperatorGroup)`,
				`bundle "p.v3" supports no install mode: OLM fails it under every OperatorGroup (UnsupportedOperatorGroup)`,
			},
		},
		{
			name:   "no install mode in an embedded CSV manifest",
			reason: "a catalog of an older opm embeds the CSV (olm.bundle.object) and records no olm.csv.metadata: its install modes are read there",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0 csv-manifest='{"installModes":[{"type":"OwnNamespace","supported":true},{"type":"OwnNamespace","supported":true}]}'
bundle p p.v2 2.0.0 csv-manifest='{"installModes":[{"type":"AllNamespaces","supported":true}]}'
channel p stable
  entry p.v2 replaces=p.v1
  entry p.v1
`},
			want:     []string{"a no-install-mode p/stable p.v1"},
			messages: []string{`bundle "p.v1" lists install mode OwnNamespace more than once: OLM rejects the list (InvalidInstallModes) and fails the CSV under every OperatorGroup`},
		},
		{
			name:   "minKubeVersion OLM cannot parse, and one that rises",
			reason: "OLM parses minKubeVersion as major.minor.patch: 1.25 never meets; 1.26.0 above 1.25.0 rises (info)",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0 csv='{"installModes":[{"type":"AllNamespaces","supported":true}],"minKubeVersion":"1.25.0"}'
bundle p p.v2 2.0.0 csv='{"installModes":[{"type":"AllNamespaces","supported":true}],"minKubeVersion":"1.26.0"}'
bundle p p.v3 3.0.0 csv='{"installModes":[{"type":"AllNamespaces","supported":true}],"minKubeVersion":"1.27"}'
channel p stable
  entry p.v3 replaces=p.v2
  entry p.v2 replaces=p.v1
  entry p.v1
`},
			want: []string{"a min-kube-version-raised p/stable p.v2", "a invalid-min-kube-version p/stable p.v3"},
			messages: []string{
				`the upgrade from "p.v1" (1.0.0) to "p.v2" (2.0.0) by replaces (channel stable) raises minKubeVersion from 1.25.0 to 1.26.0: clusters older than 1.26.0 upgrade into a CSV OLM holds (RequirementsNotMet)`,
				`bundle "p.v3" has minKubeVersion "1.27", which OLM cannot parse (it wants major.minor.patch): its requirements are never met (RequirementsNotMet)`,
			},
		},
	})
}

// TestInstallModeDroppedArgoCD pins the real case of the issue:
// argocd-operator 0.8.0 supports only AllNamespaces, 0.7.0 also
// OwnNamespace and SingleNamespace; nine replaces/skips edges of the
// community index drop an install mode.
func TestInstallModeDroppedArgoCD(t *testing.T) {
	cat := loadShipped(t, "community-operators-prod.v4.20-index")
	rep, err := Run(t.Context(), []Input{{Name: "community", Catalog: cat}}, Options{CEL: testCEL, Checks: []Check{Platform}})
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	n := 0
	for _, f := range rep.Findings {
		if f.Code != CodeInstallModeDropped {
			continue
		}
		n++
		if f.Bundle == "argocd-operator.v0.8.0" && strings.Contains(f.Message, `"argocd-operator.v0.7.0"`) {
			found = append(found, f.Message)
		}
	}
	want := `the upgrade from "argocd-operator.v0.7.0" (0.7.0) to "argocd-operator.v0.8.0" (0.8.0) by replaces (channel alpha) drops install modes OwnNamespace and SingleNamespace: a cluster running "argocd-operator.v0.7.0" under an OperatorGroup that needs one of them upgrades into a CSV OLM fails (UnsupportedOperatorGroup)`
	if len(found) != 1 || found[0] != want {
		t.Fatalf("argocd-operator 0.7.0 upgrades:\n got %q\nwant %q", found, want)
	}
	if n != 9 {
		t.Errorf("%d install-mode-dropped findings in the community index, want 9", n)
	}
}
