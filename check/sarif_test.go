package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sextantdev/sextant/graph"
)

// jsonSchema validates JSON values against a JSON schema (draft 04), with
// exactly the keywords the SARIF 2.1.0 schema uses; any other keyword is an
// error, so that nothing is skipped unnoticed.
type jsonSchema struct {
	root map[string]any
}

// validate returns the problems of v against schema s, each naming the
// JSON path.
func (js *jsonSchema) validate(s map[string]any, v any, path string) []string {
	var errs []string
	fail := func(format string, args ...any) { errs = append(errs, path+": "+fmt.Sprintf(format, args...)) }
	if ref, ok := s["$ref"].(string); ok {
		name, ok := strings.CutPrefix(ref, "#/definitions/")
		def, _ := js.root["definitions"].(map[string]any)[name].(map[string]any)
		if !ok || def == nil {
			return []string{path + ": unknown $ref " + ref}
		}
		return js.validate(def, v, path)
	}
	for k, kw := range s {
		switch k {
		case "$schema", "id", "title", "description", "default", "definitions", "properties", "additionalProperties":
		case "type":
			types, ok := kw.([]any)
			if !ok {
				types = []any{kw}
			}
			if !slices.ContainsFunc(types, func(t any) bool { return hasType(t.(string), v) }) {
				fail("%v is not of type %s", v, kw)
			}
		case "enum":
			if !slices.ContainsFunc(kw.([]any), func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(v) }) {
				fail("%v is not one of %v", v, kw)
			}
		case "required":
			if m, ok := v.(map[string]any); ok {
				for _, r := range kw.([]any) {
					if _, ok := m[r.(string)]; !ok {
						fail("required property %q is missing", r)
					}
				}
			}
		case "minimum":
			if n, ok := v.(float64); ok && n < kw.(float64) {
				fail("%v is below the minimum %v", n, kw)
			}
		case "minItems":
			if a, ok := v.([]any); ok && float64(len(a)) < kw.(float64) {
				fail("%d items, fewer than %v", len(a), kw)
			}
		case "uniqueItems":
			if a, ok := v.([]any); ok && kw.(bool) {
				seen := map[string]bool{}
				for _, x := range a {
					b, _ := json.Marshal(x)
					if seen[string(b)] {
						fail("item %s is repeated", b)
					}
					seen[string(b)] = true
				}
			}
		case "pattern":
			if str, ok := v.(string); ok && !regexp.MustCompile(kw.(string)).MatchString(str) {
				fail("%q does not match %s", str, kw)
			}
		case "format":
			if str, ok := v.(string); ok {
				if err := checkFormat(kw.(string), str); err != nil {
					fail("%q is not a %s: %v", str, kw, err)
				}
			}
		case "items":
			if a, ok := v.([]any); ok {
				for i, x := range a {
					errs = append(errs, js.validate(kw.(map[string]any), x, fmt.Sprintf("%s[%d]", path, i))...)
				}
			}
		case "anyOf":
			ok := false
			for _, alt := range kw.([]any) {
				if len(js.validate(alt.(map[string]any), v, path)) == 0 {
					ok = true
					break
				}
			}
			if !ok {
				fail("matches none of anyOf")
			}
		default:
			fail("schema keyword %q is not implemented by this validator", k)
		}
	}
	if m, ok := v.(map[string]any); ok {
		props, _ := s["properties"].(map[string]any)
		for name, x := range m {
			if ps, ok := props[name].(map[string]any); ok {
				errs = append(errs, js.validate(ps, x, path+"."+name)...)
				continue
			}
			switch ap := s["additionalProperties"].(type) {
			case bool:
				if !ap {
					fail("property %q is not allowed", name)
				}
			case map[string]any:
				errs = append(errs, js.validate(ap, x, path+"."+name)...)
			}
		}
	}
	return errs
}

func hasType(t string, v any) bool {
	switch t {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "number":
		_, ok := v.(float64)
		return ok
	case "integer":
		n, ok := v.(float64)
		return ok && n == float64(int64(n))
	case "null":
		return v == nil
	}
	return false
}

func checkFormat(format, s string) error {
	switch format {
	case "uri":
		u, err := url.Parse(s)
		if err == nil && !u.IsAbs() {
			err = fmt.Errorf("not absolute")
		}
		return err
	case "uri-reference":
		_, err := url.Parse(s)
		return err
	case "date-time":
		_, err := time.Parse(time.RFC3339, s)
		return err
	}
	return fmt.Errorf("format %q is not implemented by this validator", format)
}

// sarifSchema reads the SARIF 2.1.0 schema of testdata.
func sarifSchema(t *testing.T) *jsonSchema {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	var root map[string]any
	if err := json.Unmarshal(b, &root); err != nil {
		t.Fatal(err)
	}
	return &jsonSchema{root: root}
}

// validateSARIF checks a SARIF log against the schema and returns it
// decoded.
func validateSARIF(t *testing.T, js *jsonSchema, out []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("SARIF output is not JSON: %v", err)
	}
	if errs := js.validate(js.root, v, "$"); len(errs) > 0 {
		t.Fatalf("SARIF output does not validate against the 2.1.0 schema (%d problems):\n%s", len(errs), strings.Join(errs[:min(len(errs), 20)], "\n"))
	}
	return v
}

// TestJSONSchemaValidator checks that the validator rejects what the
// schema forbids.
func TestJSONSchemaValidator(t *testing.T) {
	js := sarifSchema(t)
	for _, tc := range []struct{ name, doc, want string }{
		{"no version", `{"runs": []}`, `required property "version"`},
		{"wrong version", `{"version": "2.0.0", "runs": []}`, "is not one of"},
		{"unknown property", `{"version": "2.1.0", "runs": [], "extra": 1}`, `property "extra" is not allowed`},
		{"bad level", `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "level": "fatal"}]}]}`, "is not one of"},
		{"line 0", `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a"}, "region": {"startLine": 0}}}]}]}]}`, "below the minimum"},
	} {
		var v any
		if err := json.Unmarshal([]byte(tc.doc), &v); err != nil {
			t.Fatal(err)
		}
		errs := strings.Join(js.validate(js.root, v, "$"), "\n")
		if !strings.Contains(errs, tc.want) {
			t.Errorf("%s: problems %q, want one containing %q", tc.name, errs, tc.want)
		}
	}
}

// TestSARIFCommunity writes the community index's report as SARIF: it
// validates against the SARIF 2.1.0 schema, has one rule per documented
// code with its help, and every result has a file, a line and a column.
func TestSARIFCommunity(t *testing.T) {
	if testing.Short() {
		t.Skip("checks the community index")
	}
	rep, err := Run(t.Context(), []Input{{Name: "community", Catalog: loadShipped(t, "community-operators-prod.v4.20-index")}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := rep.WriteSARIF(&out, SARIFOptions{}); err != nil {
		t.Fatal(err)
	}
	v := validateSARIF(t, sarifSchema(t), out.Bytes())
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID   string `json:"id"`
						Help struct {
							Text string `json:"text"`
						} `json:"help"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Level     string `json:"level"`
				Message   struct {
					Text string `json:"text"`
				} `json:"message"`
				Properties struct {
					Brief string `json:"brief"`
				} `json:"properties"`
				Locations []struct {
					PhysicalLocation *struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine   int `json:"startLine"`
							StartColumn int `json:"startColumn"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	b, _ := json.Marshal(v)
	if err := json.Unmarshal(b, &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if len(run.Tool.Driver.Rules) != len(Codes()) {
		t.Errorf("%d rules, want one per documented code (%d)", len(run.Tool.Driver.Rules), len(Codes()))
	}
	for _, r := range run.Tool.Driver.Rules {
		if d, _ := CodeDocOf(r.ID); r.Help.Text == "" || d.Help == "" {
			t.Errorf("rule %s has no help", r.ID)
		}
	}
	if len(run.Results) != len(rep.Findings) {
		t.Fatalf("%d results for %d findings", len(run.Results), len(rep.Findings))
	}
	for i, res := range run.Results {
		f := rep.Findings[i]
		if res.RuleID != f.Code || run.Tool.Driver.Rules[res.RuleIndex].ID != f.Code {
			t.Fatalf("result %d: rule %s (index %d), want %s", i, res.RuleID, res.RuleIndex, f.Code)
		}
		// The alert shows the message, which stands on its own; the brief
		// is a property for tools.
		if res.Message.Text != f.Message || res.Properties.Brief != f.Brief {
			t.Fatalf("result %d: message %q and brief %q, want %q and %q", i, res.Message.Text, res.Properties.Brief, f.Message, f.Brief)
		}
		pl := res.Locations[0].PhysicalLocation
		if pl == nil || pl.ArtifactLocation.URI == "" || pl.Region.StartLine < 1 || pl.Region.StartColumn < 1 {
			t.Fatalf("result %d (%s) has no file, line and column: %+v", i, f, pl)
		}
	}
}

// TestSARIFBaseline: with a baseline, every result has a baselineState —
// new for the regressions, unchanged for what the baseline had, absent for
// what it had and the catalog has not — and the log still validates.
func TestSARIFBaseline(t *testing.T) {
	orig := editedShipped(t, communityIndex, onlyPackages("etcd", "yaks"))
	cur := editedShipped(t, communityIndex, onlyPackages("etcd"), removeBundle("etcd", "etcdoperator.v0.9.2"))
	rep := runBaselinePair(t, orig, cur)
	var out bytes.Buffer
	if err := rep.WriteSARIF(&out, SARIFOptions{}); err != nil {
		t.Fatal(err)
	}
	v := validateSARIF(t, sarifSchema(t), out.Bytes())
	states := map[string]int{}
	results := v["runs"].([]any)[0].(map[string]any)["results"].([]any)
	for _, r := range results {
		states[fmt.Sprint(r.(map[string]any)["baselineState"])]++
	}
	want := map[string]int{"new": 0, "unchanged": 0, "absent": len(rep.Resolved)}
	for _, f := range rep.Findings {
		if f.Status == StatusNew {
			want["new"]++
		} else {
			want["unchanged"]++
		}
	}
	if fmt.Sprint(states) != fmt.Sprint(want) || want["new"] == 0 || want["unchanged"] == 0 || want["absent"] == 0 {
		t.Errorf("baseline states %v, want %v, each present", states, want)
	}
}

// TestSARIFRoot: with SARIFOptions.Root, a file under it — named relative
// to Dir, absolutely, or relative to Root already (InRoot) — is a URI
// relative to it with uriBaseId %SRCROOT%, results and suppressions alike,
// and the run's originalUriBaseIds gives the folder; a file outside it is
// an absolute file: URI; without Root, names are written as they are.
// ToolVersion is tool.driver.version (and semanticVersion when it is one).
func TestSARIFRoot(t *testing.T) {
	root := filepath.Join(t.TempDir(), "repo with space")
	dir := filepath.Join(root, "catalog")
	outside := filepath.Join(filepath.Dir(root), "elsewhere", "x.json")
	at := func(file string, line int) graph.Position { return graph.Position{File: file, Line: line, Column: 1} }
	rep := &Report{
		Findings: []Finding{
			{Severity: graph.SeverityError, Code: "cycle", Catalog: ".", Package: "a", Message: "m1", Pos: at(filepath.Join("etcd", "catalog.json"), 3)},
			{Severity: graph.SeverityError, Code: "cycle", Catalog: dir, Package: "b", Message: "m2", Pos: at(filepath.Join(dir, "b.json"), 4)},
			{Severity: graph.SeverityError, Code: "cycle", Catalog: ".", Package: "c", Message: "m3", Pos: at(outside, 5)},
			{Severity: graph.SeverityError, Code: "cycle", Catalog: ".", Package: "d", Message: "m4", Pos: at("old/d.json", 6)},
			{Severity: graph.SeverityWarning, Code: CodeStaleSuppression, Catalog: ".", Package: "e", Message: "m5", Pos: at(filepath.Join("..", ".sextant.yaml"), 7)},
		},
		Suppressed: []Finding{{
			Severity: graph.SeverityError, Code: "cycle", Catalog: ".", Package: "f", Message: "m6", Pos: at("f.json", 8),
			Suppression: &Suppression{Code: "cycle", Package: "f", Reason: "known", Pos: at(filepath.Join(root, ".sextant.yaml"), 2)},
		}},
	}
	type loc struct{ URI, Base string }
	decode := func(out []byte) (locs []loc, bases map[string]string, driver map[string]any) {
		t.Helper()
		v := validateSARIF(t, sarifSchema(t), out)
		run := v["runs"].([]any)[0].(map[string]any)
		pick := func(l any) loc {
			a := l.(map[string]any)["physicalLocation"].(map[string]any)["artifactLocation"].(map[string]any)
			base, _ := a["uriBaseId"].(string)
			return loc{a["uri"].(string), base}
		}
		for _, r := range run["results"].([]any) {
			res := r.(map[string]any)
			locs = append(locs, pick(res["locations"].([]any)[0]))
			if sups, ok := res["suppressions"].([]any); ok {
				locs = append(locs, pick(sups[0].(map[string]any)["location"]))
			}
		}
		if ob, ok := run["originalUriBaseIds"].(map[string]any); ok {
			bases = map[string]string{}
			for k, a := range ob {
				bases[k] = a.(map[string]any)["uri"].(string)
			}
		}
		return locs, bases, run["tool"].(map[string]any)["driver"].(map[string]any)
	}
	fileURL := func(p string) string {
		p = filepath.ToSlash(p)
		if !strings.HasPrefix(p, "/") {
			p = "/" + p
		}
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	for _, tc := range []struct {
		name    string
		opts    SARIFOptions
		want    []loc
		bases   map[string]string
		version string
	}{
		{
			name: "root",
			opts: SARIFOptions{Root: root, Dir: dir, InRoot: func(f string) bool { return f == "old/d.json" }, ToolVersion: "v1.2.3"},
			want: []loc{
				{"catalog/etcd/catalog.json", "%SRCROOT%"}, {"catalog/b.json", "%SRCROOT%"}, {fileURL(outside), ""},
				{"old/d.json", "%SRCROOT%"}, {".sextant.yaml", "%SRCROOT%"}, {"catalog/f.json", "%SRCROOT%"}, {".sextant.yaml", "%SRCROOT%"},
			},
			bases:   map[string]string{"%SRCROOT%": fileURL(root) + "/"},
			version: "v1.2.3 1.2.3",
		},
		{
			name: "no root",
			opts: SARIFOptions{ToolVersion: "(devel)"},
			want: []loc{
				{"etcd/catalog.json", ""}, {fileURL(filepath.Join(dir, "b.json")), ""}, {fileURL(outside), ""},
				{"old/d.json", ""}, {"../.sextant.yaml", ""}, {"f.json", ""}, {fileURL(filepath.Join(root, ".sextant.yaml")), ""},
			},
			version: "(devel) <nil>",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := rep.WriteSARIF(&out, tc.opts); err != nil {
				t.Fatal(err)
			}
			locs, bases, driver := decode(out.Bytes())
			if fmt.Sprint(locs) != fmt.Sprint(tc.want) {
				t.Errorf("locations\n got %v\nwant %v", locs, tc.want)
			}
			if fmt.Sprint(bases) != fmt.Sprint(tc.bases) {
				t.Errorf("originalUriBaseIds %v, want %v", bases, tc.bases)
			}
			if got := fmt.Sprint(driver["version"], " ", driver["semanticVersion"]); got != tc.version {
				t.Errorf("driver version and semanticVersion %q, want %q", got, tc.version)
			}
			// The logical location names a catalog under Root by its path
			// there, the same from any folder.
			if tc.opts.Root != "" && !strings.Contains(out.String(), `"fullyQualifiedName": "catalog/b//"`) {
				t.Errorf("the catalog %s is not named catalog in logical locations:\n%s", dir, out.String())
			}
		})
	}
}
