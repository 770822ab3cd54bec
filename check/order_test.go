package check

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestFindingOrder: a package's findings come in the version order of
// their bundles (1.6, 1.7, 1.12, 1.16, not as strings), and with a
// baseline the new findings come first in every format.
func TestFindingOrder(t *testing.T) {
	const old = `
package p stable
bundle p p.v1.6.0 1.6.0
bundle p p.v1.7.0 1.7.0
channel p stable
  entry p.v1.6.0 replaces=p.gone1
  entry p.v1.7.0 replaces=p.v1.6.0
`
	const cur = `
package p stable
bundle p p.v1.6.0 1.6.0
bundle p p.v1.7.0 1.7.0
bundle p p.v1.12.0 1.12.0
bundle p p.v1.16.0 1.16.0
channel p stable
  entry p.v1.6.0 replaces=p.gone1
  entry p.v1.7.0 replaces=p.v1.6.0
  entry p.v1.12.0 replaces=p.gone2
  entry p.v1.16.0 replaces=p.v1.12.0
`
	rep, err := Run(t.Context(), []Input{{Name: "c", Catalog: buildSpec(t, cur)}}, Options{Checks: []Check{Structural}})
	if err != nil {
		t.Fatal(err)
	}
	var bundles []string
	for _, f := range rep.Findings {
		if f.Code == "dangling-replaces" {
			bundles = append(bundles, f.Bundle)
		}
	}
	if want := []string{"p.v1.6.0", "p.v1.12.0"}; !slices.Equal(bundles, want) {
		t.Errorf("dangling-replaces on %v, want %v", bundles, want)
	}

	rep, err = Run(t.Context(), []Input{{Name: "c", Catalog: buildSpec(t, cur)}}, Options{
		Checks: []Check{Structural}, Baseline: []Input{{Name: "c", Catalog: buildSpec(t, old)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range rep.Findings {
		got = append(got, string(f.Status)+" "+f.Code+" "+f.Bundle)
	}
	if want := []string{"new multiple-heads ", "new upgrade-path-lost p.v1.6.0", "new dangling-replaces p.v1.12.0", "existing dangling-replaces p.v1.6.0"}; !slices.Equal(got, want) {
		t.Fatalf("with a baseline: %v, want %v", got, want)
	}
	// Text: the new one, then the existing under a line of its own.
	var text bytes.Buffer
	if err := rep.WriteText(&text, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	i, j, k := strings.Index(text.String(), `replaces "p.gone2"`), strings.Index(text.String(), "existing: in the baseline too\n"), strings.Index(text.String(), `replaces "p.gone1"`)
	if i < 0 || j < i || k < j {
		t.Errorf("text: the new finding, then the existing ones:\n%s", text.String())
	}
	// SARIF and JSON: results in report order.
	var sarif bytes.Buffer
	if err := rep.WriteSARIF(&sarif, SARIFOptions{}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				BaselineState string `json:"baselineState"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(sarif.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	var states []string
	for _, r := range log.Runs[0].Results {
		states = append(states, r.BaselineState)
	}
	if want := []string{"new", "new", "new", "unchanged"}; !slices.Equal(states[:4], want) {
		t.Errorf("SARIF baseline states %v, want %v first", states, want)
	}
	cr, err := rep.ByCatalog()
	if err != nil {
		t.Fatal(err)
	}
	if f := cr.Catalogs[0].Findings; f[0].Status != StatusNew {
		t.Errorf("JSON: first finding %s", f[0])
	}
}
