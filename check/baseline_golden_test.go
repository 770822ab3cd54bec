package check

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// goldenSubset is the part of the community index the baseline goldens
// use: etcd and cert-manager, which the edits change, and two packages
// that depend on cert-manager's APIs or drop APIs of their own.
var goldenSubset = onlyPackages("etcd", "cert-manager", "alloydb-omni-operator", "datadog-operator")

// goldenEdits are the changes of the golden pair: etcd's head removed and a
// channel renamed, cert-manager's default channel changed and an API
// dropped from its head, an etcd channel deprecated.
var goldenEdits = []edit{
	removeBundle("etcd", "etcdoperator.v0.9.4"),
	renameChannel("etcd", "clusterwide-alpha", "clusterwide"),
	deprecate("etcd", "olm.channel", "alpha", "use singlenamespace-alpha"),
	setDefaultChannel("cert-manager", "candidate"),
	dropAPI("cert-manager", "cert-manager.v1.16.5", "cert-manager.io", "v1", "Certificate"),
}

// TestGoldenBaselineOutputs pins the three renderings of a baseline report
// (testdata/golden/baseline.{txt,json,md}) and the Markdown of the same
// catalogs without a baseline (subset.md).
func TestGoldenBaselineOutputs(t *testing.T) {
	old := editedShipped(t, communityIndex, goldenSubset)
	cur := editedShipped(t, communityIndex, append([]edit{goldenSubset}, goldenEdits...)...)
	rep := runBaselinePair(t, old, cur)
	checkText(t, rep)
	var txt, md strings.Builder
	if err := rep.WriteText(&txt, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	js, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, filepath.Join("testdata", "golden", "baseline.txt"), []byte(txt.String()))
	checkGolden(t, filepath.Join("testdata", "golden", "baseline.md"), []byte(md.String()))
	checkGolden(t, filepath.Join("testdata", "golden", "baseline.json"), append(js, '\n'))

	// The JSON reads back into the same report.
	var back Report
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	js2, err := json.MarshalIndent(&back, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if string(js2) != string(js) {
		t.Error("the report's JSON does not read back into the same report")
	}

	plain, err := Run(t.Context(), []Input{{Name: "community", Catalog: old}}, Options{CEL: testCEL})
	if err != nil {
		t.Fatal(err)
	}
	var pmd strings.Builder
	if err := plain.WriteMarkdown(&pmd); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, filepath.Join("testdata", "golden", "subset.md"), []byte(pmd.String()))
}

// TestGoldenBaselineDeclaredIndex is the large real case: the community
// index (what OpenShift 4.20 clusters get) against the declared catalog it
// is built from, as a baseline. The golden holds the comparison, the
// counts of new findings per code, every new finding (with its message,
// except for structural findings and bundle-removed), and the resolved
// findings per code.
func TestGoldenBaselineDeclaredIndex(t *testing.T) {
	if testing.Short() {
		t.Skip("large declared catalog: skipped in -short mode")
	}
	old := loadShipped(t, "community-operators-prod.declared")
	cur := loadShipped(t, communityIndex)
	rep := runBaselinePair(t, old, cur)
	var b strings.Builder
	s := rep.Catalogs[0]
	fmt.Fprintf(&b, "baseline: %s\n", s.Baseline.describe(rep.regressions(s.Name)))
	news := rep.OnlyNew().Findings
	writeCodeCounts(&b, "new", news)
	writeCodeCounts(&b, "resolved", rep.Resolved)
	for _, f := range news {
		fmt.Fprintf(&b, "%s %s %s", f.Severity.String(), f.Code, strings.TrimPrefix(key(f), f.Catalog+" "+f.Code+" "))
		// Messages of the bulk of pruned bundles are left out: the edit
		// tests pin their wording.
		if !isStructural(f.Code) && f.Code != CodeBundleRemoved {
			fmt.Fprintf(&b, ": %s", f.Message)
		}
		b.WriteString("\n")
	}
	checkGolden(t, filepath.Join("testdata", "golden", "declared-to-index.baseline.txt"), []byte(b.String()))

	// The pull-request comment stays within GitHub's 65,536 characters.
	var md strings.Builder
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if n := len([]rune(md.String())); n > 65536 {
		t.Errorf("markdown report: %d characters, more than a GitHub comment takes", n)
	}
}

// writeCodeCounts writes a line "label severity code count" for each
// severity and code of fs, sorted by severity name, then code.
func writeCodeCounts(b *strings.Builder, label string, fs []Finding) {
	counts := map[string]int{}
	var keys []string
	for _, f := range fs {
		k := f.Severity.String() + " " + f.Code
		if counts[k] == 0 {
			keys = append(keys, k)
		}
		counts[k]++
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(b, "%s %s %d\n", label, k, counts[k])
	}
}
