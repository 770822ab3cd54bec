package resolver_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolvertest"
)

// settledAtV2 is the second rollout of TestRollout settled: app.v2 and
// widgets.v1 installed, app.v3 held back because it needs widgets >=2.0.0.
func settledAtV2(t *testing.T) (*resolver.Resolver, *cluster.State) {
	t.Helper()
	r := resolvertest.NewResolver(t, resolver.Options{}, rolloutCatalog("1.0.0"))
	ro, err := r.Rollout(context.Background(), "ns", startAt("app.v2").State(), resolver.RolloutOptions{MaxRounds: 10})
	if err != nil {
		t.Fatal(err)
	}
	return r, ro.State()
}

// TestPlanJSONRoundTrip checks that a plan is pure data: one that went
// through JSON is the same plan, held-back reasons, approvals and
// predictions included.
func TestPlanJSONRoundTrip(t *testing.T) {
	r, state := settledAtV2(t)
	ctx := context.Background()
	res, err := r.Resolve(ctx, "ns", state)
	if err != nil {
		t.Fatal(err)
	}
	held, err := res.HeldBack(ctx, resolver.HeldBackOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(held.Unchanged) == 0 || held.Unchanged[0].HeldBack == nil {
		t.Fatalf("want a held-back unchanged operator, got %s", held)
	}
	manual, err := resolvertest.NewResolver(t, resolver.Options{}, manualCatalog()).Resolve(ctx, "ns", manualState())
	if err != nil {
		t.Fatal(err)
	}
	for _, plan := range []*resolver.Plan{res.Plan(), held, manual.Plan()} {
		b, err := json.Marshal(plan)
		if err != nil {
			t.Fatal(err)
		}
		var back resolver.Plan
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(&back, plan) {
			t.Errorf("plan after JSON:\n%#v\nwant\n%#v", back, *plan)
		}
		if back.String() != plan.String() || back.Waits() != plan.Waits() || back.Failing() != plan.Failing() {
			t.Errorf("plan after JSON answers differently:\n%s\nwant\n%s", back.String(), plan.String())
		}
	}
}

// TestResolutionOwnsItsState changes the caller's state in place after
// Resolve: every answer of the Resolution stays what it was.
func TestResolutionOwnsItsState(t *testing.T) {
	r, state := settledAtV2(t)
	ctx := context.Background()
	answers := func(res *resolver.Resolution) string {
		t.Helper()
		held, err := res.HeldBack(ctx, resolver.HeldBackOptions{})
		if err != nil {
			t.Fatal(err)
		}
		why, err := res.Why(ctx, "app", resolver.WhyOptions{})
		if err != nil {
			t.Fatal(err)
		}
		stops, err := res.Stops(ctx, resolver.HeldBackOptions{})
		if err != nil {
			t.Fatal(err)
		}
		next, err := res.Apply()
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal([]any{held, why, stops, next, res.State()})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	want := answers(mustResolve(t, r, state.Clone()))
	res := mustResolve(t, r, state)
	// Edit the caller's state in place: the subscription now names another
	// package, the installed CSVs provide other APIs and are gone.
	state.Subscriptions[0].Package = "widgets"
	state.Subscriptions[0].InstalledCSV = ""
	provided := 0
	for i := range state.CSVs {
		state.CSVs[i].Name = "gone"
		for k := range state.CSVs[i].Provides {
			state.CSVs[i].Provides[k].Kind = "Gone"
			provided++
		}
	}
	if provided == 0 {
		t.Fatal("no installed CSV provides an API: the test edits none")
	}
	state.CSVs = state.CSVs[:0]
	if got := answers(res); got != want {
		t.Errorf("after the caller's state changed, the answers are\n%s\nwant\n%s", got, want)
	}
}

func mustResolve(t *testing.T, r *resolver.Resolver, state *cluster.State) *resolver.Resolution {
	t.Helper()
	res, err := r.Resolve(context.Background(), "ns", state)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
