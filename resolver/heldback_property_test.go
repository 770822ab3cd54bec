package resolver_test

import (
	"context"
	"math/rand"
	"testing"

	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolvertest"
)

// TestHeldBackProperties explains the held-back items of random plans and
// checks: each reason rests on facts (the forced candidate's core) or on
// the earlier choices it would displace — never on nothing, since the
// search takes a candidate nothing forbids; the passed-over candidate is
// not in the plan; the answer is the same on a second call; and Why
// answers for every step with the step's bundle.
func TestHeldBackProperties(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 40
	}
	ctx := context.Background()
	items := 0
	defer func() { t.Logf("%d held-back items", items) }()
	for seed := 0; seed < n; seed++ {
		rng := rand.New(rand.NewSource(int64(seed)))
		c := randomCatalog(rng)
		r := resolvertest.NewResolver(t, resolver.Options{}, c)
		state := randomRequest(rng, c)
		planRes, err := r.Resolve(ctx, "ns", state)
		if err != nil {
			continue
		}
		plan, err := planRes.HeldBack(ctx, resolver.HeldBackOptions{})
		if err != nil {
			t.Fatalf("seed %d: HeldBack: %v", seed, err)
		}
		againRes, err := r.Resolve(ctx, "ns", state)
		if err != nil {
			t.Fatal(err)
		}
		again, err := againRes.HeldBack(ctx, resolver.HeldBackOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if plan.String() != again.String() {
			t.Errorf("seed %d: two calls differ:\n%s\n%s", seed, plan, again)
		}
		inPlan := map[string]bool{}
		for _, st := range plan.Steps {
			inPlan[st.Bundle] = true
		}
		var hs []*resolver.HeldBack
		for _, st := range plan.Steps {
			if st.HeldBack != nil {
				hs = append(hs, st.HeldBack)
			}
			w, err := whyOf(ctx, r, "ns", state, st.Bundle, resolver.WhyOptions{})
			if err != nil || w.Selected == nil || w.Selected.Bundle != st.Bundle || w.Selected.Version != st.Version {
				t.Errorf("seed %d: Why(%q) = %+v, %v: want the step's bundle", seed, st.Bundle, w, err)
			}
		}
		for _, u := range plan.Unchanged {
			if u.HeldBack != nil {
				hs = append(hs, u.HeldBack)
			}
		}
		for _, h := range hs {
			items++
			if len(h.Facts) == 0 && len(h.Displaces) == 0 {
				t.Errorf("seed %d: %s: no facts and nothing displaced", seed, h.Reason)
			}
			if inPlan[h.Preferred.Bundle] {
				t.Errorf("seed %d: %s: the passed-over %s is in the plan:\n%s", seed, h.Reason, h.Preferred.Bundle, plan)
			}
		}
	}
}
