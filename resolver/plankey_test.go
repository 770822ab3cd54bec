package resolver_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolver/predict"
	"github.com/sextantdev/sextant/resolvertest"
)

// keyTestPlan is a plan with every part the compact text shows, and some
// it does not (the fixes, a held-back reason's facts).
func keyTestPlan() *resolver.Plan {
	pred := func(sev predict.Severity) []predict.Prediction {
		return []predict.Prediction{{Severity: sev, Reason: "UnsupportedOperatorGroup", Message: "m"}}
	}
	held := func() *resolver.HeldBack {
		return &resolver.HeldBack{Package: "p", Version: "1.0.0", Reason: "p stays at 1.0.0", Facts: []resolver.Fact{{}},
			Change: &resolver.Suggestion{Change: "remove subscription q", Summary: "installs p.v2"}}
	}
	return &resolver.Plan{
		Namespace: "ns",
		Approval:  resolver.PlanApproval{Mode: cluster.ApprovalManual, Subscriptions: []string{"a", "b"}, Waits: true},
		InFlight:  []resolver.InFlight{{Kind: resolver.InFlightInstallPlan, Text: "InstallPlan x installs a.v1"}},
		Excluded:  []resolver.InvalidPackage{{Catalog: resolver.CatalogKey{Namespace: "olm", Name: "c"}, Package: "bad", Findings: []graph.Finding{{Code: "x", Message: "y"}}}},
		Steps: []resolver.Step{
			{Action: resolver.ActionInstall, Package: "a", Bundle: "a.v1", Version: "1.0.0", Channel: "stable", Catalog: resolver.CatalogKey{Namespace: "olm", Name: "c"},
				Reason: resolver.Reason{Subscription: "a", RequiredBy: "hidden", Requirement: "hidden too"}, Approval: resolver.Approval{Mode: cluster.ApprovalManual, Subscription: "a"},
				Warnings: []string{"channel stable is deprecated"}, Predictions: pred(predict.SeverityFailure), HeldBack: held()},
			{Action: resolver.ActionUpgrade, Package: "b", Bundle: "b.v2", Version: "2.0.0", Channel: "alpha", Catalog: resolver.CatalogKey{Namespace: "olm", Name: "c"},
				Replaces: "b.v1", Reason: resolver.Reason{RequiredBy: "a.v1", Requirement: "olm.package.required b >=2"}, Dependency: true,
				Approval: resolver.Approval{InstallPlan: "ip", Approved: true}, Predictions: pred(predict.SeverityWarning)},
		},
		Unchanged: []resolver.Unchanged{{CSV: "c.v1", Package: "c", Version: "1.0.0", Subscription: "c", HeldBack: held(),
			Deprecations: []resolver.Deprecation{{Condition: "Deprecated", Message: "package c is deprecated", Alternative: "d"}},
			Predictions:  pred(predict.SeverityWarning)}},
		Notes: []predict.Note{{Code: predict.NoteInstallModesUnknown, Text: "a note"}},
		Fixes: []resolver.Suggestion{{Change: "a fix"}},
	}
}

// TestPlanKeyIsCompactText: two plans have the same key (and are one
// suggestion to Explain and Fixes) exactly when their compact text, the
// one scenario files print (resolvertest.FormatPlan), is the same, which
// is what told suggestions apart before the key. Every string, bool and
// int of the plan, and of every struct, slice and pointer in it, is changed
// in turn, every slice cut short by one and every pointer set to nil.
func TestPlanKeyIsCompactText(t *testing.T) {
	base := keyTestPlan()
	baseText, baseKey := resolvertest.FormatPlan(base), resolver.PlanKey(base)
	// A path leads from a plan to one of its values.
	type path []func(reflect.Value) reflect.Value
	at := func(p *resolver.Plan, pa path) reflect.Value {
		v := reflect.ValueOf(p).Elem()
		for _, step := range pa {
			v = step(v)
		}
		return v
	}
	variants := 0
	check := func(name string, pa path, change func(reflect.Value)) {
		p := keyTestPlan()
		change(at(p, pa))
		variants++
		sameText, sameKey := resolvertest.FormatPlan(p) == baseText, resolver.PlanKey(p) == baseKey
		if sameText != sameKey {
			t.Errorf("%s: same text %v, same key %v", name, sameText, sameKey)
		}
	}
	var walk func(name string, pa path)
	walk = func(name string, pa path) {
		v := at(keyTestPlan(), pa)
		with := func(step func(reflect.Value) reflect.Value) path { return append(pa[:len(pa):len(pa)], step) }
		switch v.Kind() {
		case reflect.String:
			check(name+" changed", pa, func(v reflect.Value) { v.SetString(v.String() + "x") })
		case reflect.Bool:
			check(name+" flipped", pa, func(v reflect.Value) { v.SetBool(!v.Bool()) })
		case reflect.Int:
			check(name+" changed", pa, func(v reflect.Value) { v.SetInt(v.Int() + 1) })
		case reflect.Struct:
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					walk(name+"."+v.Type().Field(i).Name, with(func(v reflect.Value) reflect.Value { return v.Field(i) }))
				}
			}
		case reflect.Slice:
			if n := v.Len(); n > 0 {
				check(name+" cut short", pa, func(v reflect.Value) { v.SetLen(n - 1) })
			}
			for i := range v.Len() {
				walk(fmt.Sprintf("%s[%d]", name, i), with(func(v reflect.Value) reflect.Value { return v.Index(i) }))
			}
		case reflect.Pointer:
			if !v.IsNil() {
				check(name+" nil", pa, func(v reflect.Value) { v.SetZero() })
				walk("(*"+name+")", with(reflect.Value.Elem))
			}
		}
	}
	walk("plan", nil)
	if variants < 100 {
		t.Fatalf("only %d variants", variants)
	}
}
