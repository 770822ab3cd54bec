package cli

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/resolver"
)

// TestConflictJSONMatchesExplanation checks that the error of resolve's
// JSON output is the library's explanation of the conflict example, and
// that every suggestion it shows does resolve.
func TestConflictJSONMatchesExplanation(t *testing.T) {
	const catalog = "testdata/catalogs/community-operators-prod.v4.20-index.json.gz"
	stdout, stderr, code := run("", "resolve", "--catalog", catalog, "-f", "testdata/examples/conflict.yaml", "-o", "json")
	if code != ExitNo || !onlyNotes(stderr) {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var out struct {
		Namespace string `json:"namespace"`
		Error     struct {
			Message     string            `json:"message"`
			Verdict     resolver.Verdict  `json:"verdict"`
			Facts       []json.RawMessage `json:"facts"`
			Derivation  []resolver.Clause `json:"derivation"`
			Suggestions []json.RawMessage `json:"suggestions"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if out.Namespace != "team-a" || out.Error.Message == "" || out.Error.Message != out.Error.Verdict.Text {
		t.Errorf("namespace %q, message %q, verdict %q", out.Namespace, out.Error.Message, out.Error.Verdict.Text)
	}
	if len(out.Error.Facts) == 0 || len(out.Error.Derivation) == 0 || len(out.Error.Suggestions) == 0 {
		t.Fatalf("facts %d, derivation %d, suggestions %d: want all", len(out.Error.Facts), len(out.Error.Derivation), len(out.Error.Suggestions))
	}

	// The suggestion (remove the hand-installed CSV) does give the plan shown.
	data, err := os.ReadFile("testdata/examples/conflict.yaml")
	if err != nil {
		t.Fatal(err)
	}
	state, err := cluster.Decode(strings.NewReader(string(data)), "conflict.yaml")
	if err != nil {
		t.Fatal(err)
	}
	state.InferOperatorGroups() // the group stays when the CSV goes, as on the cluster
	var sug resolver.Suggestion
	if err := json.Unmarshal(out.Error.Suggestions[0], &sug); err != nil {
		t.Fatal(err)
	}
	if sug.Kind != resolver.SuggestRemoveCSV || sug.CSV == "" {
		t.Fatalf("suggestion %+v, want the removal of the hand-installed CSV", sug)
	}
	state.CSVs = slices.DeleteFunc(state.CSVs, func(c cluster.CSV) bool { return c.Name == sug.CSV })
	var buf strings.Builder
	if err := cluster.Encode(&buf, state); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = run(buf.String(), "resolve", "--catalog", catalog, "-f", "-", "-o", "json")
	if code != ExitOK && code != ExitNo {
		t.Fatalf("with the suggestion applied: exit %d, stderr %q", code, stderr)
	}
	var got resolver.Plan
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Steps, sug.Plan.Steps) {
		t.Errorf("with the suggestion applied the plan is %+v; the suggestion showed %+v", got.Steps, sug.Plan.Steps)
	}
}

// onlyNotes reports whether stderr holds nothing but notes (such as the
// OperatorGroup assumed for manifests without one).
func onlyNotes(stderr string) bool {
	for _, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
		if line != "" && !strings.Contains(line, ": note: ") {
			return false
		}
	}
	return true
}
