package resolver_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolver/predict"
	"github.com/sextantdev/sextant/resolvertest"
)

// textCatalog is the catalog key the text tests' plans name.
var textCatalog = resolver.CatalogKey{Namespace: "olm", Name: "community"}

// TestPlanWriteText: the plan's text, line by line — the title counts
// steps, unchanged operators and those predicted to fail; the approval
// and what is in flight come before the steps; each step says what,
// where from, why, its approval, warnings and predictions; then the
// operators that stay, and what is held back with the change that moves
// it. Plans are plain data, so each case writes one made by hand.
func TestPlanWriteText(t *testing.T) {
	failing := predict.Prediction{Reason: predict.ReasonUnsupportedOperatorGroup, Severity: predict.SeverityFailure, Message: "OperatorGroup operators/og targets 2 namespaces; the CSV supports OwnNamespace only"}
	warning := predict.Prediction{Reason: predict.ReasonMaxOpenShiftVersion, Severity: predict.SeverityWarning, Message: "blocks upgrades of OpenShift past 4.16"}
	tests := []struct {
		name   string
		plan   resolver.Plan
		want   string
		reason string
	}{
		{
			name: "nothing to do",
			plan: resolver.Plan{Namespace: "operators"},
			want: "namespace operators: nothing to do\n",
		},
		{
			name: "install, dependency and upgrade",
			plan: resolver.Plan{Namespace: "operators", Steps: []resolver.Step{
				{Action: resolver.ActionInstall, Package: "db", Bundle: "db.v1.0.0", Version: "1.0.0", Channel: "stable", Catalog: textCatalog,
					Reason: resolver.Reason{RequiredBy: "app.v2.0.0", Requirement: "olm.gvk.required example.com/v1 DB"}, Dependency: true},
				{Action: resolver.ActionUpgrade, Package: "app", Bundle: "app.v2.0.0", Version: "2.0.0", Channel: "stable", Catalog: textCatalog,
					Replaces: "app.v1.0.0", Reason: resolver.Reason{Subscription: "app"}, Warnings: []string{"channel stable is deprecated: use v2"}},
			}},
			want: `namespace operators: 2 steps
 1. install db.v1.0.0 (dependency: OLM creates a subscription)
    package db 1.0.0, channel stable, catalog olm/community
    reason: required by app.v2.0.0 (olm.gvk.required example.com/v1 DB)
 2. upgrade app.v1.0.0 -> app.v2.0.0
    package app 2.0.0, channel stable, catalog olm/community
    reason: subscription app
    warning: channel stable is deprecated: use v2
`,
		},
		{
			name: "manual approval, in flight",
			plan: resolver.Plan{Namespace: "operators",
				Approval: resolver.PlanApproval{Mode: cluster.ApprovalManual, Subscriptions: []string{"a", "b"}},
				InFlight: []resolver.InFlight{{Text: "InstallPlan install-1 (Manual, not approved) waits for approval; it installs a.v2"}},
				Steps: []resolver.Step{{Action: resolver.ActionUpgrade, Package: "a", Bundle: "a.v2", Version: "2.0.0", Channel: "stable", Catalog: textCatalog,
					Replaces: "a.v1", Reason: resolver.Reason{Subscription: "a"},
					Approval: resolver.Approval{Mode: cluster.ApprovalManual, Subscription: "a", InstallPlan: "install-1"}}},
			},
			want: `namespace operators: 1 step
  approval: Manual, because subscription a, b are Manual; the plan waits for approval
  in flight: InstallPlan install-1 (Manual, not approved) waits for approval; it installs a.v2
 1. upgrade a.v1 -> a.v2
    package a 2.0.0, channel stable, catalog olm/community
    reason: subscription a
    approval: Manual (subscription a), InstallPlan install-1, waits for approval
`,
			reason: "one Manual subscription makes the namespace's InstallPlan Manual",
		},
		{
			name: "approved manual plan",
			plan: resolver.Plan{Namespace: "operators",
				Approval: resolver.PlanApproval{Mode: cluster.ApprovalManual, Subscriptions: []string{"a"}},
				Steps: []resolver.Step{{Action: resolver.ActionInstall, Package: "a", Bundle: "a.v1", Version: "1.0.0", Channel: "stable", Catalog: textCatalog,
					Reason: resolver.Reason{Subscription: "a"}, Approval: resolver.Approval{Mode: cluster.ApprovalManual, Subscription: "a", Approved: true}}},
			},
			want: `namespace operators: 1 step
  approval: Manual, because subscription a is Manual
 1. install a.v1
    package a 1.0.0, channel stable, catalog olm/community
    reason: subscription a
    approval: Manual (subscription a), approved
`,
		},
		{
			name: "predictions, unchanged, held back",
			plan: resolver.Plan{Namespace: "operators",
				Steps: []resolver.Step{{Action: resolver.ActionInstall, Package: "a", Bundle: "a.v1", Version: "1.0.0", Channel: "stable", Catalog: textCatalog,
					Reason: resolver.Reason{Subscription: "a"}, Predictions: []predict.Prediction{failing, warning},
					HeldBack: &resolver.HeldBack{Reason: "a goes to 1.0.0: its head 2.0.0 (a.v2) is excluded because b.v1 requires a <2.0.0"}}},
				Unchanged: []resolver.Unchanged{
					{CSV: "b.v1", Package: "b", Version: "1.0.0", Subscription: "b", Predictions: []predict.Prediction{warning},
						Deprecations: []resolver.Deprecation{{Condition: resolver.ConditionChannelDeprecated, Message: "channel alpha is deprecated", Alternative: "channel stable"}},
						HeldBack: &resolver.HeldBack{Reason: "b stays at 1.0.0: its next version 2.0.0 needs Kubernetes 1.30",
							Change: &resolver.Suggestion{Change: "switch subscription b to channel v1", Summary: "upgrades b.v1 to b.v1.1 (channel v1, catalog olm/community)"}}},
					{CSV: "c.v3", Subscription: "c"},
					{CSV: "d.v1", Package: "d"},
				},
			},
			want: `namespace operators: 1 step, 3 unchanged, 1 will fail
 1. install a.v1
    package a 1.0.0, channel stable, catalog olm/community
    reason: subscription a
    will fail: UnsupportedOperatorGroup: OperatorGroup operators/og targets 2 namespaces; the CSV supports OwnNamespace only
    warning: MaxOpenShiftVersion: blocks upgrades of OpenShift past 4.16
  = b.v1 1.0.0 (package b, subscription b) unchanged
      warning: MaxOpenShiftVersion: blocks upgrades of OpenShift past 4.16
    deprecated: ChannelDeprecated: channel alpha is deprecated; move to channel stable
  = c.v3 (subscription c) unchanged
  = d.v1 (package d) unchanged
held back:
  a goes to 1.0.0: its head 2.0.0 (a.v2) is excluded because b.v1 requires a <2.0.0
  b stays at 1.0.0: its next version 2.0.0 needs Kubernetes 1.30
    it moves with: switch subscription b to channel v1: upgrades b.v1 to b.v1.1 (channel v1, catalog olm/community)
`,
			reason: "a warning does not count as failing; the held-back block comes last, steps first",
		},
		{
			name: "names with control characters",
			plan: resolver.Plan{Namespace: "operators", Steps: []resolver.Step{{Action: resolver.ActionInstall, Package: "a\x1b[2Jb", Bundle: "a.v1\n2. install evil", Version: "1.0.0", Channel: "stable", Catalog: textCatalog, Reason: resolver.Reason{Subscription: "a"}}}},
			want: `namespace operators: 1 step
 1. install "a.v1\n2. install evil"
    package "a\x1b[2Jb" 1.0.0, channel stable, catalog olm/community
    reason: subscription a
`,
			reason: "a catalog's names are quoted when they hold control characters, so that no line can be forged",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := tt.plan.WriteText(&b, "namespace "+tt.plan.Namespace); err != nil {
				t.Fatal(err)
			}
			if got := b.String(); got != tt.want {
				t.Errorf("WriteText (%s):\n%s", tt.reason, resolvertest.Diff(tt.want, got))
			}
		})
	}
}

// TestPlanWriteFixes: nothing for a plan OLM is not predicted to fail;
// for one that is, its confirmed fixes numbered, or that none was found.
func TestPlanWriteFixes(t *testing.T) {
	failing := []predict.Prediction{{Reason: predict.ReasonRequirementsNotMet, Severity: predict.SeverityFailure, Message: "minKubeVersion 1.30.0 is above the cluster's 1.28.0"}}
	fix := resolver.Suggestion{Change: "switch subscription a to channel v1", Summary: "installs a.v1.2 (channel v1, catalog olm/community)"}
	step := resolver.Step{Action: resolver.ActionInstall, Package: "a", Bundle: "a.v2", Version: "2.0.0", Channel: "stable", Catalog: textCatalog, Reason: resolver.Reason{Subscription: "a"}}
	tests := []struct {
		name string
		plan resolver.Plan
		want string
	}{
		{name: "not failing", plan: resolver.Plan{Steps: []resolver.Step{step}, Fixes: []resolver.Suggestion{fix}}, want: ""},
		{name: "no fix", plan: resolver.Plan{Steps: []resolver.Step{withPredictions(step, failing)}},
			want: "no fix found among the changes tried (channel, startingCSV, OperatorGroup, moving a subscription)\n"},
		{name: "fixes", plan: resolver.Plan{Unchanged: []resolver.Unchanged{{CSV: "b.v1", Predictions: failing}}, Fixes: []resolver.Suggestion{fix, fix}},
			want: "fixes (each re-solved and confirmed):\n  1. " + fix.String() + "\n  2. " + fix.String() + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := tt.plan.WriteFixes(&b); err != nil {
				t.Fatal(err)
			}
			if got := b.String(); got != tt.want {
				t.Errorf("WriteFixes:\n%s", resolvertest.Diff(tt.want, got))
			}
		})
	}
}

// withPredictions returns s with ps.
func withPredictions(s resolver.Step, ps []predict.Prediction) resolver.Step {
	s.Predictions = ps
	return s
}

// TestPlanString: String is the text with the title "namespace NS", its
// notes and its fixes.
func TestPlanString(t *testing.T) {
	p := resolver.Plan{Namespace: "ns", Notes: []predict.Note{{Code: predict.NoteTargetsUnknown, Text: "the targets are unknown"}},
		Unchanged: []resolver.Unchanged{{CSV: "b.v1", Predictions: []predict.Prediction{{Reason: predict.ReasonRequirementsNotMet, Severity: predict.SeverityFailure, Message: "too old"}}}}}
	want := `namespace ns: nothing to do, 1 unchanged, 1 will fail
  = b.v1 unchanged
      will fail: RequirementsNotMet: too old
note: the targets are unknown
no fix found among the changes tried (channel, startingCSV, OperatorGroup, moving a subscription)
`
	if got := p.String(); got != want {
		t.Errorf("String:\n%s", resolvertest.Diff(want, got))
	}
}

// TestApplicationWriteText: per API its objects (three at most, then how
// many more; a name with a space or a control character quoted, the count
// not) and what serves it, with the provider's channel, catalog and head,
// the rule that chose it, the alternatives (five at most), the near
// misses and warnings.
func TestApplicationWriteText(t *testing.T) {
	prov := func(pkg string) *resolver.Provider {
		return &resolver.Provider{Catalog: textCatalog, Package: pkg, Channel: "stable", DefaultChannel: true, Bundle: pkg + ".v1", Version: "1.0.0"}
	}
	var alts []resolver.Provider
	for _, p := range []string{"p1", "p2", "p3", "p4", "p5", "p6", "p7"} {
		alts = append(alts, *prov(p))
	}
	app := &resolver.Application{Namespace: "demo", Kinds: []resolver.AppKind{
		{API: graph.GVK{Version: "v1", Kind: "ConfigMap"}, Objects: []string{"demo/cm"}, Source: resolver.SourceBuiltIn},
		{API: graph.GVK{Group: "operators.coreos.com", Version: "v1", Kind: "OperatorGroup"}, Source: resolver.SourceOLM},
		{API: graph.GVK{Group: "a.io", Version: "v1", Kind: "A"}, Objects: []string{"a1", "a 2", "a3", "a4"}, Source: resolver.SourceInstalled, CSV: "a.v1"},
		{API: graph.GVK{Group: "b.io", Version: "v1", Kind: "B"}, Source: resolver.SourceSubscribed, Subscription: "b", Provider: prov("b")},
		{API: graph.GVK{Group: "c.io", Version: "v1", Kind: "C"}, Source: resolver.SourceCatalog, Subscription: "c", Provider: prov("c"),
			Why: "higher catalog priority", Alternatives: alts, Warnings: []string{"the plan installs c.v0, which does not provide it"}},
		{API: graph.GVK{Group: "d.io", Version: "v1", Kind: "D"}, Source: resolver.SourceNone, NearMisses: []string{"the same kind is provided as d.io/v2 D (package d)"}},
	}}
	want := `application in namespace demo: 6 APIs, 0 subscriptions to create
  v1 ConfigMap (demo/cm): built into Kubernetes, needs nothing
  operators.coreos.com/v1 OperatorGroup: served by OLM itself, needs nothing
  a.io/v1 A (a1, "a 2", a3, 1 more): already served by installed CSV a.v1
  b.io/v1 B: package b, through existing subscription b
      channel stable, catalog olm/community, head b.v1
  c.io/v1 C: package c, subscription c to create
      channel stable, catalog olm/community, head c.v1
      chosen: higher catalog priority
      alternatives: p1 (channel stable, catalog olm/community); p2 (channel stable, catalog olm/community); p3 (channel stable, catalog olm/community); p4 (channel stable, catalog olm/community); p5 (channel stable, catalog olm/community); 2 more
      warning: the plan installs c.v0, which does not provide it
  d.io/v1 D: nothing provides it
      near miss: the same kind is provided as d.io/v2 D (package d)
`
	var b strings.Builder
	if err := app.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != want {
		t.Errorf("WriteText:\n%s", resolvertest.Diff(want, got))
	}
	if err := app.WriteText(failWriter{}); err == nil {
		t.Error("WriteText to a failing writer: nil error")
	}
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }
