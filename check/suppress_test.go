package check

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestReadConfig: strict decoding, every problem named with file and line.
func TestReadConfig(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string // substrings of the error, in order; none: no error
		n          int      // suppressions read
	}{
		{name: "empty", text: ""},
		{name: "good", text: "suppressions:\n  - code: no-upgrade-path\n    package: etcd\n    channel: alpha\n    reason: pinned\n  - {code: dangling-skip, package: x, bundle: x.v1, reason: known}\n", n: 2},
		{name: "unknown top field", text: "suppress:\n  - code: cycle\n", want: []string{`c.yaml:1: configuration: unknown field "suppress" (known: suppressions)`}},
		{name: "unknown entry field", text: "suppressions:\n  - code: cycle\n    package: p\n    reason: r\n    bundel: b\n", want: []string{`c.yaml:5: suppression 1: unknown field "bundel"`}},
		{name: "missing reason and unknown code", text: "suppressions:\n  - code: cycle\n    package: p\n  - code: nope\n    package: p\n    reason: r\n", want: []string{`c.yaml:2: suppression 1: "reason" is required`, `c.yaml:4: suppression 2: unknown finding code "nope"`}},
		{name: "not a list", text: "suppressions: 3\n", want: []string{"c.yaml:1: suppressions: a list expected"}},
		{name: "wrong kind", text: "suppressions:\n  - code: [cycle]\n    package: p\n    reason: r\n", want: []string{`c.yaml:2: suppression 1: code: a string expected`}},
		{name: "near code and field", text: "suppressions:\n  - code: no-upgrade-paths\n    pakage: p\n    package: p\n    reason: r\n", want: []string{`c.yaml:2: suppression 1: unknown finding code "no-upgrade-paths" (did you mean "no-upgrade-path"?)`, `c.yaml:3: suppression 1: unknown field "pakage" (did you mean "package"?)`}},
		{name: "problems in line order", text: "suppressions:\n  - code: cycle\n    reason: r\n    pakage: p\n", want: []string{`c.yaml:2: suppression 1: "package" is required`, `c.yaml:4: suppression 1: unknown field "pakage"`}},
		{name: "invalid YAML", text: "suppressions:\n  - code: cycle\n    package: p\n   reason: x\n", want: []string{`c.yaml:`, `: invalid YAML: did not find expected`}},
		{name: "two documents", text: "suppressions: []\n---\nsuppressions: []\n", want: []string{"one YAML document expected"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sups, err := ReadConfig(strings.NewReader(tc.text), "c.yaml")
			if len(tc.want) == 0 {
				if err != nil || len(sups) != tc.n {
					t.Fatalf("got %d suppressions, err %v; want %d", len(sups), err, tc.n)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			rest := err.Error()
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("error %q lacks %q", err, w)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}

// TestSuppress: a matched finding moves to Report.Suppressed with its
// entry, counts nowhere else, and shows in every output; an entry that
// matches nothing is a stale-suppression warning at the entry.
func TestSuppress(t *testing.T) {
	cat := buildSpec(t, `
package app stable
bundle app app.v1 1.0.0
bundle app app.v2 2.0.0
channel app stable
  entry app.v2 replaces=app.v0
  entry app.v1
`)
	plain, err := Run(t.Context(), []Input{{Name: "c", Catalog: cat}}, Options{Checks: []Check{Structural, Reachability}})
	if err != nil {
		t.Fatal(err)
	}
	sups, err := ReadConfig(strings.NewReader(`suppressions:
  - code: dangling-replaces
    package: app
    reason: app.v0 was never published
  - code: cycle
    package: app
    reason: gone long ago
`), ".sextant.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(t.Context(), []Input{{Name: "c", Catalog: cat}}, Options{Checks: []Check{Structural, Reachability}, Suppressions: sups})
	if err != nil {
		t.Fatal(err)
	}
	var codes, suppressed []string
	for _, f := range rep.Findings {
		codes = append(codes, f.Code)
	}
	for _, f := range rep.Suppressed {
		suppressed = append(suppressed, f.Code+" "+f.Suppression.Reason)
	}
	if len(plain.Findings) != len(rep.Findings)-1+len(rep.Suppressed) {
		t.Errorf("%d findings without suppressions, %d with (+1 stale) and %d suppressed", len(plain.Findings), len(rep.Findings), len(rep.Suppressed))
	}
	if strings.Join(suppressed, ",") != "dangling-replaces app.v0 was never published" {
		t.Errorf("suppressed %q", suppressed)
	}
	stale := rep.Findings[slices.Index(codes, CodeStaleSuppression)]
	if stale.Pos.File != ".sextant.yaml" || stale.Pos.Line != 5 || !strings.Contains(stale.Message, "cycle app matches no finding") {
		t.Errorf("stale suppression %+v", stale)
	}
	for _, c := range rep.Catalogs[0].Counts {
		if c.Code == "dangling-replaces" {
			t.Errorf("a suppressed finding is counted: %+v", c)
		}
	}
	checkText(t, rep)
	var text, md, js, sarif bytes.Buffer
	if err := rep.WriteText(&text, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := json.NewEncoder(&js).Encode(rep); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteSARIF(&sarif, SARIFOptions{}); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String(), "json": js.String(), "sarif": sarif.String()} {
		if !strings.Contains(out, "app.v0 was never published") {
			t.Errorf("%s output does not list the suppressed finding with its reason:\n%s", name, out)
		}
	}
	validateSARIF(t, sarifSchema(t), sarif.Bytes())
	if !strings.Contains(sarif.String(), `"kind": "external"`) {
		t.Errorf("SARIF has no suppression:\n%s", sarif.String())
	}
}
