package check

import (
	"strings"
	"testing"
)

func TestAPIDroppedOnUpgrade(t *testing.T) {
	runCases(t, []Check{Direction}, []checkCase{
		{
			name:   "same APIs",
			reason: "an upgrade that keeps every API, and adds one, drops nothing",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0 gvk=g/v1/A
bundle p p.v2 2.0.0 gvk=g/v1/A gvk=g/v1/B
channel p stable
  entry p.v2 replaces=p.v1
  entry p.v1
`},
		},
		{
			name:   "version of a kind removed by replaces",
			reason: "datadog-operator 1.7.0 to 1.8.0: DatadogAgent v1alpha1 goes, v2alpha1 stays — the stored-version loss OLM refuses",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0 gvk=g/v1alpha1/A gvk=g/v2/A gvk=g/v1/B
bundle p p.v2 2.0.0 gvk=g/v2/A gvk=g/v1/B
channel p stable
  entry p.v2 replaces=p.v1
  entry p.v1
`},
			want:     []string{"a api-dropped-on-upgrade p/stable p.v2"},
			messages: []string{`the upgrade from "p.v1" (1.0.0) to "p.v2" (2.0.0) by replaces (channel stable) drops 1 API: g/v1alpha1 A (A still served at v2)`},
		},
		{
			name: "kind removed by skips",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0 gvk=g/v1/A gvk=g/v1/B
bundle p p.v2 2.0.0 gvk=g/v1/A gvk=g/v1/B
bundle p p.v3 3.0.0 gvk=g/v1/A
channel p stable
  entry p.v3 replaces=p.v2 skips=p.v1
  entry p.v2 replaces=p.v1
  entry p.v1
`},
			want: []string{"a api-dropped-on-upgrade p/stable p.v3", "a api-dropped-on-upgrade p/stable p.v3"},
			messages: []string{
				`the upgrade from "p.v1" (1.0.0) to "p.v3" (3.0.0) by skips (channel stable) drops 1 API: g/v1 B`,
				`the upgrade from "p.v2" (2.0.0) to "p.v3" (3.0.0) by replaces (channel stable) drops 1 API: g/v1 B`,
			},
		},
		{
			name:   "replaces and skipRange edge, in two channels, reported once",
			reason: "one finding per edge of the package; the message names both channels and both ways the edge is made",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0 gvk=g/v1/A gvk=g/v1/B gvk=g/v1/C
bundle p p.v2 2.0.0 gvk=g/v1/A
channel p fast
  entry p.v2 skipRange='<2.0.0'
  entry p.v1
channel p stable
  entry p.v2 replaces=p.v1 skipRange='<2.0.0'
  entry p.v1
`},
			want:     []string{"a api-dropped-on-upgrade p/fast p.v2"},
			messages: []string{`the upgrade from "p.v1" (1.0.0) to "p.v2" (2.0.0) by replaces and skipRange (channels fast, stable) drops 2 APIs: g/v1 B, g/v1 C`},
		},
		{
			name:   "skipRange edges, one finding per target",
			reason: "a skipRange lets every older version upgrade at once: one finding for the range, listing each source and what it loses",
			specs: []string{`
package p stable
bundle p p.v1 1.0.0 gvk=g/v1/A gvk=g/v1/B
bundle p p.v2 2.0.0 gvk=g/v1/A gvk=g/v1/B
bundle p p.v3 3.0.0 gvk=g/v1/A gvk=g/v1/B gvk=g/v1/C
bundle p p.v4 4.0.0 gvk=g/v1/A
channel p stable
  entry p.v4 replaces=p.v3 skipRange='<4.0.0'
  entry p.v3 replaces=p.v2
  entry p.v2 replaces=p.v1
  entry p.v1
`},
			want: []string{"a api-dropped-on-upgrade p/stable p.v4", "a api-dropped-on-upgrade p/stable p.v4"},
			messages: []string{
				`skipRange "<4.0.0" of "p.v4" (4.0.0) (channel stable) makes 2 upgrades that drop APIs: from "p.v2" (2.0.0), 1 API: g/v1 B; from "p.v1" (1.0.0), 1 API: g/v1 B`,
				`the upgrade from "p.v3" (3.0.0) to "p.v4" (4.0.0) by replaces and skipRange (channel stable) drops 2 APIs: g/v1 B, g/v1 C`,
			},
		},
		{
			name:   "edge to a missing bundle",
			reason: "a replaces naming nothing is a structural finding; there is no bundle to compare",
			specs: []string{`
package p stable
bundle p p.v2 2.0.0 gvk=g/v1/A
channel p stable
  entry p.v2 replaces=p.v1
`},
		},
	})
}

// TestAPIDroppedDatadog pins the real case the check stands in for:
// datadog-operator 1.8.0 drops DatadogAgent v1alpha1 (DataDog/datadog-operator#1389).
func TestAPIDroppedDatadog(t *testing.T) {
	cat := loadShipped(t, "community-operators-prod.v4.20-index")
	rep, err := Run(t.Context(), []Input{{Name: "community", Catalog: cat}}, Options{CEL: testCEL, Checks: []Check{Direction}})
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, f := range rep.Findings {
		if f.Code == CodeAPIDroppedOnUpgrade && f.Package == "datadog-operator" && f.Bundle == "datadog-operator.v1.8.0" && strings.Contains(f.Message, `"datadog-operator.v1.7.0"`) {
			found = append(found, f.Bundle+": "+f.Message)
		}
	}
	want := `datadog-operator.v1.8.0: the upgrade from "datadog-operator.v1.7.0" (1.7.0) to "datadog-operator.v1.8.0" (1.8.0) by replaces and skipRange (channel stable) drops 1 API: datadoghq.com/v1alpha1 DatadogAgent (DatadogAgent still served at v2alpha1)`
	if len(found) != 1 || found[0] != want {
		t.Fatalf("datadog-operator 1.7.0 upgrades:\n got %q\nwant %q", found, want)
	}
}
