package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

func TestParseCatalogSpec(t *testing.T) {
	tests := []struct {
		name    string
		spec    string
		want    catalogSpec
		wantErr string
		reason  string
	}{
		{name: "gzipped json", spec: "testdata/catalogs/community-operators-prod.v4.20-index.json.gz",
			want:   catalogSpec{name: "community-operators-prod.v4.20-index", path: "testdata/catalogs/community-operators-prod.v4.20-index.json.gz"},
			reason: "only the catalog extensions go: the dots of .v4.20 stay"},
		{name: "yaml", spec: "a/b/redhat.yaml", want: catalogSpec{name: "redhat", path: "a/b/redhat.yaml"}},
		{name: "yml", spec: "x.yml", want: catalogSpec{name: "x", path: "x.yml"}},
		{name: "folder", spec: "catalogs/operatorhub/", want: catalogSpec{name: "operatorhub", path: "catalogs/operatorhub/"}},
		{name: "other extension kept", spec: "index.v1", want: catalogSpec{name: "index.v1", path: "index.v1"}},
		{name: "named", spec: "community=catalog.json", want: catalogSpec{name: "community", path: "catalog.json", named: true}},
		{name: "named stdin", spec: "community=-", want: catalogSpec{name: "community", path: "-", named: true}},
		{name: "equals in a path", spec: "dir/a=b.json", want: catalogSpec{name: "a=b", path: "dir/a=b.json"},
			reason: "a NAME must be an object name, so dir/a is no name and the whole is a path"},
		{name: "stdin unnamed", spec: "-", wantErr: "name the catalog"},
		{name: "no path", spec: "community=", wantErr: "no path"},
		{name: "empty", spec: "", wantErr: "empty path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseCatalogSpec(tt.spec)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				var xe *exitError
				if !errors.As(err, &xe) || !xe.usage {
					t.Errorf("error %v is not a usage error", err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("parseCatalogSpec(%q) = %+v, %v; want %+v (%s)", tt.spec, got, err, tt.want, tt.reason)
			}
		})
	}
}

func TestPickNamespace(t *testing.T) {
	sub := func(ns string) cluster.Subscription {
		return cluster.Subscription{Name: "s-" + ns, Namespace: ns, Package: "p"}
	}
	csv := func(ns string, copied bool) cluster.CSV { return cluster.CSV{Name: "c", Namespace: ns, Copied: copied} }
	tests := []struct {
		name    string
		asked   string
		state   cluster.State
		want    string
		wantErr string
		reason  string
	}{
		{name: "asked wins", asked: "b", state: cluster.State{Subscriptions: []cluster.Subscription{sub("a"), sub("b")}}, want: "b"},
		{name: "asked holds only a CSV", asked: "c", state: cluster.State{Subscriptions: []cluster.Subscription{sub("a")}, CSVs: []cluster.CSV{csv("c", true)}}, want: "c"},
		{name: "asked holds nothing", asked: "x", state: cluster.State{Subscriptions: []cluster.Subscription{sub("b"), sub("a")}},
			wantErr: `-n x: the manifests hold nothing in namespace "x"; namespaces present: a, b`, reason: "a mistyped namespace would resolve to nothing to do"},
		{name: "asked, manifests empty", asked: "x", wantErr: "hold no subscription, ClusterServiceVersion, OperatorGroup or InstallPlan in any namespace"},
		{name: "shared by subscriptions", state: cluster.State{Subscriptions: []cluster.Subscription{sub("a"), sub("a")}, CSVs: []cluster.CSV{csv("b", false)}}, want: "a",
			reason: "CSVs of other namespaces do not count when there are subscriptions"},
		{name: "several", state: cluster.State{Subscriptions: []cluster.Subscription{sub("b"), sub("a")}}, wantErr: "subscriptions are in 2 namespaces (a, b)"},
		{name: "csvs only", state: cluster.State{CSVs: []cluster.CSV{csv("a", false), csv("b", true)}}, want: "a",
			reason: "copied CSVs live in the namespaces an operator group targets, not where the operator is"},
		{name: "nothing", wantErr: "name the namespace with -n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := pickNamespace(tt.asked, &tt.state, false, true)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("pickNamespace = %q, %v; want %q (%s)", got, err, tt.want, tt.reason)
			}
		})
	}
}

func TestCatalogIdentity(t *testing.T) {
	tests := []struct {
		name     string
		state    cluster.State
		want     resolver.CatalogKey
		wantPrio int
		wantErr  string
		reason   string
	}{
		{name: "default", want: resolver.CatalogKey{Namespace: "glob", Name: "cat"}},
		{name: "catalog source", state: cluster.State{CatalogSources: []cluster.CatalogSource{{Name: "cat", Namespace: "market", Priority: 7}, {Name: "other", Namespace: "ns"}}},
			want: resolver.CatalogKey{Namespace: "market", Name: "cat"}, wantPrio: 7},
		{name: "several catalog sources, one in the namespace", state: cluster.State{CatalogSources: []cluster.CatalogSource{{Name: "cat", Namespace: "market"}, {Name: "cat", Namespace: "ns", Priority: 2}}},
			want: resolver.CatalogKey{Namespace: "ns", Name: "cat"}, wantPrio: 2},
		{name: "several catalog sources elsewhere", state: cluster.State{CatalogSources: []cluster.CatalogSource{{Name: "cat", Namespace: "a"}, {Name: "cat", Namespace: "b"}}},
			wantErr: "2 CatalogSources have its name"},
		{name: "subscriptions agree", state: cluster.State{Subscriptions: []cluster.Subscription{
			{Name: "s1", Namespace: "ns", Source: "cat", SourceNamespace: "market"},
			{Name: "s2", Namespace: "ns", Source: "cat", SourceNamespace: "market"},
			{Name: "s3", Namespace: "other", Source: "cat", SourceNamespace: "elsewhere"},
		}}, want: resolver.CatalogKey{Namespace: "market", Name: "cat"},
			reason: "with no CatalogSource, the namespace the subscriptions of the namespace name is the likeliest"},
		{name: "subscriptions disagree", state: cluster.State{Subscriptions: []cluster.Subscription{
			{Name: "s1", Namespace: "ns", Source: "cat", SourceNamespace: "a"},
			{Name: "s2", Namespace: "ns", Source: "cat", SourceNamespace: "b"},
		}}, want: resolver.CatalogKey{Namespace: "glob", Name: "cat"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key, prio, err := catalogIdentity("cat", "ns", "glob", &tt.state, map[objectKey]string{})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || key != tt.want || prio != tt.wantPrio {
				t.Errorf("catalogIdentity = %v, %d, %v; want %v, %d (%s)", key, prio, err, tt.want, tt.wantPrio, tt.reason)
			}
		})
	}
}

// TestResolveMatchesLibrary checks that resolve's JSON output carries the
// library's plan for the README example unchanged, and that rollout's
// rounds are the library's.
func TestResolveMatchesLibrary(t *testing.T) {
	const catalog = "testdata/catalogs/community-operators-prod.v4.20-index.json.gz"
	const manifests = "testdata/examples/cluster.yaml"
	cat, err := graph.Load(catalog)
	if err != nil {
		t.Fatal(err)
	}
	state, err := cluster.LoadFiles(manifests)
	if err != nil {
		t.Fatal(err)
	}
	state.InferOperatorGroups() // as the CLI does
	res, err := resolver.New([]resolver.Catalog{{Key: resolver.CatalogKey{Namespace: "olm", Name: "community-operators-prod.v4.20-index"}, Catalog: cat}}, resolver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	planRes, err := res.Resolve(context.Background(), "operators", state)
	if err != nil {
		t.Fatal(err)
	}
	plan := planRes.Plan()
	if len(plan.Steps) == 0 {
		t.Fatal("the example has nothing to do")
	}
	if plan.Failing() { // the CLI adds the fixes of predicted failures
		if plan.Fixes, err = planRes.Fixes(context.Background(), resolver.ExplainOptions{MaxSuggestions: resolver.DefaultMaxSuggestions, Budget: -1}); err != nil {
			t.Fatal(err)
		}
	}

	stdout, stderr, code := run("", "resolve", "--catalog", catalog, "-f", manifests, "-o", "json")
	if want := map[bool]int{false: ExitOK, true: ExitNo}[plan.Failing()]; code != want || !onlyNotes(stderr) {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	// resolve -o json is encoding/json of the library's Plan, byte for
	// byte (indented, HTML left unescaped, as the CLI writes JSON); and it
	// reads back into an equal Plan.
	lib, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := writeJSON(&want, json.RawMessage(lib)); err != nil {
		t.Fatal(err)
	}
	if stdout != want.String() {
		t.Errorf("resolve -o json:\n%s\njson.Marshal of the library's plan:\n%s", stdout, want.String())
	}
	var back resolver.Plan
	if err := json.Unmarshal([]byte(stdout), &back); err != nil {
		t.Fatal(err)
	}
	if again, _ := json.Marshal(&back); !bytes.Equal(again, lib) {
		t.Errorf("the plan read back from resolve -o json marshals as\n%s\nnot\n%s", again, lib)
	}

	lro, err := res.Rollout(context.Background(), "operators", state, resolver.RolloutOptions{MaxRounds: defaultMaxRounds})
	if err != nil {
		t.Fatal(err)
	}
	rounds := lro.Rounds
	stdout, stderr, code = run("", "rollout", "--catalog", catalog, "-f", manifests, "-o", "json")
	if code != ExitOK || !onlyNotes(stderr) {
		t.Fatalf("rollout: exit %d, stderr %q", code, stderr)
	}
	var ro struct {
		Settled bool              `json:"settled"`
		Error   json.RawMessage   `json:"error"`
		Rounds  []json.RawMessage `json:"rounds"`
	}
	if err := json.Unmarshal([]byte(stdout), &ro); err != nil {
		t.Fatal(err)
	}
	if !ro.Settled || ro.Error != nil || len(ro.Rounds) != len(rounds) {
		t.Fatalf("rollout: settled %v, error %s, %d rounds; the library has %d", ro.Settled, ro.Error, len(ro.Rounds), len(rounds))
	}
	for i, r := range rounds {
		var got resolver.Plan
		if err := json.Unmarshal(ro.Rounds[i], &got); err != nil {
			t.Fatal(err)
		}
		g, _ := json.Marshal(&got)
		w, _ := json.Marshal(r.Plan)
		if !bytes.Equal(g, w) {
			t.Errorf("round %d:\n%s\nthe library's plan:\n%s", i+1, g, w)
		}
	}
}

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
