package sextant

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/olmv1"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolver/predict"
	"github.com/sextantdev/sextant/resolvertest"
)

// The answers' renderers, on answers made by hand (answers are plain data
// but for the world's few flags, set here as World's methods set them).

var (
	textCatalog = resolver.CatalogKey{Namespace: "olm", Name: "community"}
	failure     = predict.Prediction{Reason: predict.ReasonRequirementsNotMet, Severity: predict.SeverityFailure, Message: "minKubeVersion 1.30.0 is above the cluster's 1.28.0"}
	aFix        = resolver.Suggestion{Change: "switch subscription a to channel v1", Summary: "installs a.v1.2 (channel v1, catalog olm/community)"}
	conflict    = &resolver.Explanation{Namespace: "ns",
		Verdict: resolver.Verdict{Text: "cannot install a: nothing provides what it requires"},
		Derivation: []resolver.Clause{
			{Connective: "because", Text: "subscription a wants a.v1 (channel stable, catalog olm/community)"},
			{Connective: "and", Text: "a.v1 requires example.com/v1 Widget, which nothing provides"},
			{Connective: "so", Text: "a cannot be installed"},
		},
		Suggestions: []resolver.Suggestion{aFix}}
	notVisible = Note{Code: NoteCatalogNotVisible, Namespace: "ns", Catalog: resolver.CatalogKey{Namespace: "market", Name: "c"},
		Text: "catalog market/c is given but not visible from namespace ns"}
)

// step returns an install step of bundle b (package a) with predictions.
func step(b string, ps ...predict.Prediction) resolver.Step {
	return resolver.Step{Action: resolver.ActionInstall, Package: "a", Bundle: b, Version: "1.0.0", Channel: "stable", Catalog: textCatalog,
		Reason: resolver.Reason{Subscription: "a"}, Predictions: ps}
}

// advice is a command line's advice on a note.
func advice(n Note) string {
	if n.Code == NoteCatalogNotVisible {
		return " (--global-namespace market)"
	}
	return ""
}

// checkText checks the text of write.
func checkText(t *testing.T, want string, write func(*strings.Builder) error) {
	t.Helper()
	var b strings.Builder
	if err := write(&b); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != want {
		t.Errorf("text:\n%s", resolvertest.Diff(want, got))
	}
}

// TestNamespaceAnswerText: a plan with its notes — the assumed
// OperatorGroup's left out, by its code, when the world notes it — and
// its fixes; a conflict explained (whole with Full), with the world's
// notes on it and their advice, and what was in flight; a message alone.
func TestNamespaceAnswerText(t *testing.T) {
	plan := &resolver.Plan{Namespace: "ns", Steps: []resolver.Step{step("a.v1", failure)}, Fixes: []resolver.Suggestion{aFix},
		Notes: []predict.Note{{Code: predict.NoteAssumedOperatorGroup, Text: "no OperatorGroup in the manifests"}, {Code: predict.NoteTargetsUnknown, Text: "targets unknown"}}}
	planText := `namespace ns: 1 step, 1 will fail
 1. install a.v1
    package a 1.0.0, channel stable, catalog olm/community
    reason: subscription a
    will fail: RequirementsNotMet: minKubeVersion 1.30.0 is above the cluster's 1.28.0
`
	fixes := "fixes (each re-solved and confirmed):\n  1. " + aFix.String() + "\n"
	tests := []struct {
		name   string
		answer NamespaceAnswer
		opts   TextOptions
		want   string
	}{
		{name: "plan", answer: NamespaceAnswer{Namespace: "ns", Plan: plan},
			want: planText + "note: no OperatorGroup in the manifests\nnote: targets unknown\n" + fixes},
		{name: "plan, the world notes the assumed group", answer: NamespaceAnswer{Namespace: "ns", Plan: plan, omitAssumed: true},
			want: planText + "note: targets unknown\n" + fixes},
		{name: "conflict", answer: NamespaceAnswer{Namespace: "ns", Error: &NoPlan{Message: conflict.Verdict.Text, Explanation: conflict,
			InFlight: []resolver.InFlight{{Text: "InstallPlan install-1 waits for approval"}}}, notes: []Note{notVisible}},
			opts: TextOptions{Advice: advice},
			want: conflict.String() + "note: " + notVisible.Text + " (--global-namespace market)\nin flight: InstallPlan install-1 waits for approval\n"},
		{name: "conflict, full, no advice", answer: NamespaceAnswer{Namespace: "ns", Error: &NoPlan{Message: conflict.Verdict.Text, Explanation: conflict}, notes: []Note{notVisible}},
			opts: TextOptions{Full: true},
			want: conflict.Full() + "note: " + notVisible.Text + "\n"},
		{name: "message", answer: NamespaceAnswer{Namespace: "ns", Error: &NoPlan{Message: "found 2 operatorGroups in namespace ns, expected 1"}},
			want: "no plan: found 2 operatorGroups in namespace ns, expected 1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkText(t, tt.want, func(b *strings.Builder) error { return tt.answer.WriteText(b, tt.opts) })
			if !tt.opts.Full && tt.opts.Advice == nil && tt.answer.String() != tt.want {
				t.Errorf("String differs from WriteText with the zero options")
			}
		})
	}
}

// TestAnswerText: namespaces one after another, a blank line between
// two, then the v1 blocks after a blank line.
func TestAnswerText(t *testing.T) {
	a := &Answer{Namespaces: []*NamespaceAnswer{
		{Namespace: "a", Plan: &resolver.Plan{Namespace: "a"}},
		{Namespace: "b", Error: &NoPlan{Message: "stuck"}},
	}, Extensions: &olmv1.Outcome{}}
	checkText(t, "namespace a: nothing to do\n\nno plan: stuck\n\n", func(b *strings.Builder) error { return a.WriteText(b, TextOptions{}) })
	if !a.No() {
		t.Error("a namespace without a plan: the answer is not no")
	}
}

// TestAnswerJSON: one namespace's answer is its plan's fields with
// "extensions" added; every namespace's is {"namespaces": [...]}; v1
// alone is {"extensions": [...]}; no plan is {"namespace", "error"}.
func TestAnswerJSON(t *testing.T) {
	plan := &resolver.Plan{Namespace: "ns", Steps: []resolver.Step{}, Unchanged: []resolver.Unchanged{}}
	ext := &olmv1.Outcome{Extensions: []olmv1.ExtensionOutcome{}}
	tests := []struct {
		name   string
		answer *Answer
		want   string
	}{
		{name: "one namespace", answer: &Answer{Namespaces: []*NamespaceAnswer{{Namespace: "ns", Plan: plan}}},
			want: `{"namespace":"ns","steps":[],"unchanged":[],"approval":{"mode":"Automatic","waits":false}}`},
		{name: "one namespace and v1", answer: &Answer{Namespaces: []*NamespaceAnswer{{Namespace: "ns", Plan: plan}},
			Extensions: &olmv1.Outcome{Extensions: []olmv1.ExtensionOutcome{{Name: "x"}}}},
			want: `{"namespace":"ns","steps":[],"unchanged":[],"approval":{"mode":"Automatic","waits":false},"extensions":[` + mustJSON(t, olmv1.ExtensionOutcome{Name: "x"}) + `]}`},
		{name: "no plan", answer: &Answer{Namespaces: []*NamespaceAnswer{{Namespace: "ns", Error: &NoPlan{Message: "stuck"}}}},
			want: `{"namespace":"ns","error":{"message":"stuck"}}`},
		{name: "every namespace", answer: &Answer{all: true, Namespaces: []*NamespaceAnswer{{Namespace: "ns", Error: &NoPlan{Message: "<stuck>"}}}},
			want: `{"namespaces":[{"namespace":"ns","error":{"message":"<stuck>"}}]}`},
		{name: "v1 alone", answer: &Answer{Extensions: ext}, want: `{"extensions":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false) // as the command line writes it
			if err := enc.Encode(tt.answer); err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSuffix(b.String(), "\n"); got != tt.want {
				t.Errorf("JSON\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// mustJSON returns v in JSON.
func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRolloutAnswerText: the summary line, the rounds, how the rollout
// ended and the stops, for every way it ends.
func TestRolloutAnswerText(t *testing.T) {
	round := func(n int, plan *resolver.Plan) RoundAnswer { return RoundAnswer{Round: n, Plan: plan} }
	okPlan := &resolver.Plan{Namespace: "ns", Steps: []resolver.Step{step("a.v1")}}
	failPlan := &resolver.Plan{Namespace: "ns", Steps: []resolver.Step{step("a.v2", failure)}}
	manual := &resolver.Plan{Namespace: "ns", Steps: []resolver.Step{step("a.v3")},
		Approval: resolver.PlanApproval{Mode: cluster.ApprovalManual, Subscriptions: []string{"a"}}}
	okText := "    package a 1.0.0, channel stable, catalog olm/community\n    reason: subscription a\n"
	failText := func(n int) string {
		return fmt.Sprintf("\nround %d: 1 step, 1 will fail\n 1. install a.v2\n%s    will fail: %s\n", n, okText, failure)
	}
	stop := resolver.Stop{Subscription: "a", CSV: "a.v3", Head: "a.v4", Channel: "stable", Reason: "a.v4 requires a newer Kubernetes",
		HeldBack: &resolver.HeldBack{Change: &aFix}}
	tests := []struct {
		name   string
		answer RolloutAnswer
		opts   TextOptions
		want   string
		no     bool
	}{
		{name: "already settled", answer: RolloutAnswer{Namespace: "ns", Settled: true, simulated: true},
			want: "namespace ns: nothing to do, already settled\n"},
		{name: "settled with an approval, stops", answer: RolloutAnswer{Namespace: "ns", Settled: true, simulated: true,
			Rounds: []RoundAnswer{round(1, okPlan), {Round: 2, Plan: manual, Approved: true}}, Stops: []resolver.Stop{stop}},
			want: "namespace ns: 2 rounds\n\nround 1: 1 step\n 1. install a.v1\n" + okText +
				"\nround 2 (approved): 1 step\n  approval: Manual, because subscription a is Manual\n 1. install a.v3\n" + okText +
				"\nsettled after 2 rounds, 1 approval\nstops short of the heads:\n  " + stop.String() + "\n    it moves with: " + aFix.String() + "\n"},
		{name: "waits at round 1", answer: RolloutAnswer{Namespace: "ns", Waiting: true, Rounds: []RoundAnswer{{Round: 1, Plan: manual, Waiting: true}}},
			want: "namespace ns: waits for approval at round 1\n\nround 1 (waits for approval): 1 step\n  approval: Manual, because subscription a is Manual\n 1. install a.v3\n" + okText +
				"\nround 1 waits for approval: the namespace's InstallPlan is Manual because subscription a is Manual; approve it (spec.approved: true)\n"},
		{name: "waits later", answer: RolloutAnswer{Namespace: "ns", Waiting: true, Rounds: []RoundAnswer{round(1, okPlan), {Round: 2, Plan: manual, Waiting: true}}},
			want: "namespace ns: 1 round, then waits for approval\n\nround 1: 1 step\n 1. install a.v1\n" + okText +
				"\nround 2 (waits for approval): 1 step\n  approval: Manual, because subscription a is Manual\n 1. install a.v3\n" + okText +
				"\nround 2 waits for approval: the namespace's InstallPlan is Manual because subscription a is Manual; approve it (spec.approved: true)\n"},
		{name: "predicted to fail", no: true, answer: RolloutAnswer{Namespace: "ns", simulated: true, Failing: []int{1, 2, 3}, Fixes: []resolver.Suggestion{aFix},
			Rounds: []RoundAnswer{round(1, failPlan), round(2, failPlan), round(3, failPlan)}},
			want: "namespace ns: 3 rounds, 3 predicted to fail\n" + failText(1) + failText(2) + failText(3) +
				"\nnot settled: in round 1, OLM is predicted to fail CSV a.v2; rounds 2, 3 predict failures too\nfixes of round 1 (each re-solved and confirmed):\n  1. " + aFix.String() + "\n"},
		{name: "predicted to fail, no fix", no: true, answer: RolloutAnswer{Namespace: "ns", simulated: true, Failing: []int{2},
			Rounds: []RoundAnswer{round(1, okPlan), round(2, failPlan), round(3, failPlan)}},
			want: "namespace ns: 3 rounds, 1 predicted to fail\n\nround 1: 1 step\n 1. install a.v1\n" + okText + failText(2) + failText(3) +
				"\nnot settled: in round 2, OLM is predicted to fail CSV a.v2\nno fix of round 2 found among the changes tried (channel, startingCSV, OperatorGroup, moving a subscription)\n"},
		{name: "no plan at round 1", no: true, answer: RolloutAnswer{Namespace: "ns", Error: noPlanOf(conflict), Notes: []Note{notVisible}}, opts: TextOptions{Advice: advice},
			want: "namespace ns: no plan\n\nround 1: no plan\n" + conflict.String() + "note: " + notVisible.Text + " (--global-namespace market)\n"},
		{name: "no plan later", no: true, answer: RolloutAnswer{Namespace: "ns", Error: noPlanOf(conflict), Rounds: []RoundAnswer{round(1, failPlan)}, Failing: []int{1}},
			opts: TextOptions{Full: true},
			want: "namespace ns: 1 round, 1 predicted to fail, then no plan\n" + failText(1) +
				"\nround 2: no plan\n" + conflict.Full() +
				"\nnot settled: in round 1, OLM is predicted to fail CSV a.v2\nno fix of round 1 found among the changes tried (channel, startingCSV, OperatorGroup, moving a subscription)\n"},
		{name: "round limit", no: true, answer: RolloutAnswer{Namespace: "ns", Error: &NoPlan{Message: "rollout did not settle within 1 round"}, Rounds: []RoundAnswer{round(1, okPlan)}},
			want: "namespace ns: 1 round, not settled\n\nround 1: 1 step\n 1. install a.v1\n" + okText + "\nrollout did not settle within 1 round\n"},
		{name: "not resolved at all", no: true, answer: RolloutAnswer{Namespace: "ns", Error: &NoPlan{Message: "found 2 operatorGroups"}, unresolved: true},
			want: "no plan: found 2 operatorGroups\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkText(t, tt.want, func(b *strings.Builder) error { return tt.answer.WriteText(b, tt.opts) })
			if tt.answer.No() != tt.no {
				t.Errorf("No() = %v, want %v", tt.answer.No(), tt.no)
			}
		})
	}
}

// TestForAnswerText: what serves each API, then the namespace's answer,
// or that nothing the namespace sees provides the APIs left.
func TestForAnswerText(t *testing.T) {
	app := &resolver.Application{Namespace: "ns"}
	unserved := &ForAnswer{Application: app, Unserved: &resolver.UnservedError{Namespace: "ns", Kinds: []resolver.AppKind{{}, {}}}}
	checkText(t, "application in namespace ns: 0 APIs, 0 subscriptions to create\nno plan: nothing the namespace can see provides 2 APIs\n",
		func(b *strings.Builder) error { return unserved.WriteText(b, TextOptions{}) })
	if !unserved.No() {
		t.Error("unserved: the answer is not no")
	}
	served := &ForAnswer{Application: app, Answer: &NamespaceAnswer{Namespace: "ns", Plan: &resolver.Plan{Namespace: "ns"}}}
	checkText(t, "application in namespace ns: 0 APIs, 0 subscriptions to create\nnamespace ns: nothing to do\n",
		func(b *strings.Builder) error { return served.WriteText(b, TextOptions{}) })
	if served.No() {
		t.Error("a plan: the answer is no")
	}
}

// TestWhyAnswerText: with no plan, the explained conflict as Resolve
// writes it, with the world's notes and their advice.
func TestWhyAnswerText(t *testing.T) {
	a := &WhyAnswer{NoPlan: &NamespaceAnswer{Namespace: "ns", Error: noPlanOf(conflict), notes: []Note{notVisible}}}
	checkText(t, conflict.String()+"note: "+notVisible.Text+" (--global-namespace market)\n",
		func(b *strings.Builder) error { return a.WriteText(b, TextOptions{Advice: advice}) })
	if !a.No() {
		t.Error("no plan: the answer is not no")
	}
}

// TestProvidesAnswerText: per catalog, package and API its first channel
// with the versions that provide the API (a long list elided) and the
// others counted, named (six at most) and listed in full with Full;
// nothing provides it, with what the query most likely meant. Unlisted
// counts what the text only counts; JSON is the list of channels.
func TestProvidesAnswerText(t *testing.T) {
	kafka := graph.GVK{Group: "kafka.strimzi.io", Version: "v1", Kind: "Kafka"}
	ch := func(cat resolver.CatalogKey, name string, def, headProvides bool, versions ...string) resolver.ProvidedAPI {
		return resolver.ProvidedAPI{API: kafka, Catalog: cat, Package: "strimzi", Channel: name, DefaultChannel: def, Head: "strimzi." + name, HeadProvides: headProvides, Versions: versions}
	}
	other := resolver.CatalogKey{Namespace: "olm", Name: "other"}
	a := &ProvidesAnswer{Query: resolver.APIQuery{Kind: "Kafka"}, Channels: []resolver.ProvidedAPI{
		ch(textCatalog, "stable", true, true, "0.9", "0.8", "0.7", "0.6", "0.5", "0.4", "0.3"),
		ch(textCatalog, "beta", false, false, "0.2"),
		ch(textCatalog, "c1", false, true), ch(textCatalog, "c2", false, true), ch(textCatalog, "c3", false, true),
		ch(textCatalog, "c4", false, true), ch(textCatalog, "c5", false, true), ch(textCatalog, "c6", false, true),
		ch(other, "alpha", true, true, "1.0"),
	}}
	checkText(t, `catalog olm/community:
  kafka.strimzi.io/v1 Kafka: strimzi
    channel stable (default), head strimzi.stable: 0.9, 0.8, 0.7, … 0.3 (7 versions)
    other channels (7): beta, c1, c2, c3, c4, c5, 1 more
catalog olm/other:
  kafka.strimzi.io/v1 Kafka: strimzi
    channel alpha (default), head strimzi.alpha: 1.0
`, func(b *strings.Builder) error { return a.WriteText(b, TextOptions{}) })
	if n := a.Unlisted(TextOptions{}); n != 7 {
		t.Errorf("Unlisted = %d, want 7", n)
	}
	full := &ProvidesAnswer{Query: a.Query, Channels: a.Channels[:2]}
	checkText(t, `catalog olm/community:
  kafka.strimzi.io/v1 Kafka: strimzi
    channel stable (default), head strimzi.stable: 0.9, 0.8, 0.7, … 0.3 (7 versions)
    channel beta, head strimzi.beta does not provide it: 0.2
`, func(b *strings.Builder) error { return full.WriteText(b, TextOptions{Full: true}) })
	if n := full.Unlisted(TextOptions{Full: true}); n != 0 || a.No() {
		t.Errorf("Unlisted with Full = %d, no %v", n, a.No())
	}
	none := &ProvidesAnswer{Query: resolver.APIQuery{Kind: "Kafk"}, Near: `did you mean "Kafka"?`}
	checkText(t, "nothing provides Kafk (did you mean \"Kafka\"?)\n", func(b *strings.Builder) error { return none.WriteText(b, TextOptions{}) })
	if got := mustJSON(t, none); got != "[]" || !none.No() {
		t.Errorf("nothing provides it: JSON %s, no %v", got, none.No())
	}
	if got, want := mustJSON(t, full), mustJSON(t, full.Channels); got != want {
		t.Errorf("JSON %s, want the channels %s", got, want)
	}
}
