package resolver_test

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand"
	"reflect"
	"slices"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolvertest"
)

// randomRequest builds a random request in namespace ns over a
// randomCatalog: subscriptions to some packages (randomSubscription), and
// sometimes a bundle installed by hand with no subscription.
func randomRequest(rng *rand.Rand, c *resolvertest.Catalog) *cluster.State {
	st := resolvertest.NewState("ns")
	for _, p := range c.Packages() {
		switch rng.Intn(5) {
		case 0, 1:
			continue
		case 2:
			// Installed by hand, no subscription.
			bundles := p.Bundles()
			st.Install(bundles[rng.Intn(len(bundles))])
			continue
		}
		randomSubscription(rng, st, p)
	}
	return st.State()
}

// randomConflict resolves the randomRequest of seed over its
// randomCatalog. It returns the conflict, or nil when the request
// resolves.
func randomConflict(t *testing.T, seed int64) (*resolvertest.Catalog, *cluster.State, *resolver.Resolver, *resolver.ConflictError) {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	c := randomCatalog(rng)
	st := randomRequest(rng, c)
	r := resolvertest.NewResolver(t, resolver.Options{}, c)
	_, err := r.Resolve(context.Background(), "ns", st)
	var ce *resolver.ConflictError
	if !errors.As(err, &ce) {
		return c, st, r, nil
	}
	return c, st, r, ce
}

// oracle decides, by exhaustive search, whether the rules that a set of
// facts names can hold together. It knows the rules from DESIGN.md §2 and
// reads the catalog and the state itself; from each fact it takes only
// which rule is meant (its kind and what it is about), never the
// resolver's candidates.
type oracle struct {
	gc    *graph.Catalog
	state *cluster.State
	vars  []ovar
}

// ovar is a catalog entry (package, channel, bundle) or an installed CSV.
type ovar struct {
	pkg, ch string
	b       *graph.Bundle // for an installed CSV, the bundle it was made from
	csv     string
}

func newOracle(gc *graph.Catalog, st *cluster.State) *oracle {
	o := &oracle{gc: gc, state: st}
	for _, p := range gc.Packages() {
		for _, c := range p.Channels {
			for _, en := range c.Entries {
				o.vars = append(o.vars, ovar{pkg: p.Name, ch: c.Name, b: p.Bundle(en.Name)})
			}
		}
	}
	for _, c := range st.CSVs {
		for _, p := range gc.Packages() {
			if b := p.Bundle(c.Name); b != nil {
				o.vars = append(o.vars, ovar{pkg: p.Name, b: b, csv: c.Name})
			}
		}
	}
	return o
}

func (o *oracle) find(pred func(ovar) bool) []int {
	var out []int
	for i, v := range o.vars {
		if pred(v) {
			out = append(out, i)
		}
	}
	return out
}

// rule is one rule over the oracle's variables: violated reports, for a
// partial assignment (-1 unknown), whether it is already broken.
type rule struct {
	vars     []int
	violated func(a []int8) bool
}

func atLeastOne(subject int, cands []int) rule {
	vs := append([]int{}, cands...)
	if subject >= 0 {
		vs = append(vs, subject)
	}
	return rule{vs, func(a []int8) bool {
		if subject >= 0 && a[subject] != 1 {
			return false
		}
		for _, c := range cands {
			if a[c] != 0 {
				return false
			}
		}
		return true
	}}
}

func atMostOne(set []int) rule {
	return rule{set, func(a []int8) bool {
		n := 0
		for _, x := range set {
			if a[x] == 1 {
				n++
			}
		}
		return n > 1
	}}
}

// rules returns the rule each fact names; the two facts of a subscription
// (it exists, and its candidates) name one rule, in force only when both
// are present. ok is false for a fact the oracle does not know.
func (o *oracle) rules(t *testing.T, facts []resolver.Fact) []rule {
	t.Helper()
	var out []rule
	subjectOf := func(f resolver.Fact) int {
		var xs []int
		if f.Bundle != "" {
			xs = o.find(func(v ovar) bool {
				return v.csv == "" && v.ch == f.Channel && v.b.Name == f.Bundle && v.pkg == f.Package
			})
		} else {
			xs = o.find(func(v ovar) bool { return v.csv == f.CSV })
		}
		if len(xs) != 1 {
			t.Fatalf("oracle: fact %q names %d variables", f.String(), len(xs))
		}
		return xs[0]
	}
	has := func(k resolver.FactKind, s string) bool {
		return slices.ContainsFunc(facts, func(f resolver.Fact) bool { return f.Kind == k && f.Subscription == s })
	}
	for _, f := range facts {
		switch f.Kind {
		case resolver.FactSubscription:
			if !has(resolver.FactSubscriptionCandidates, f.Subscription) {
				continue
			}
			s := o.state.Subscription("ns", f.Subscription)
			installed := s.InstalledCSV != "" && o.state.CSV("ns", s.InstalledCSV) != nil
			cands := o.find(func(v ovar) bool {
				if v.pkg != s.Package {
					return false
				}
				if v.csv != "" {
					return installed && v.csv == s.InstalledCSV
				}
				if s.Channel != "" && v.ch != s.Channel {
					return false
				}
				if !installed {
					return true
				}
				en, _ := o.gc.Package(v.pkg).Channel(v.ch).Entry(v.b.Name)
				return en.Replaces == s.InstalledCSV
			})
			out = append(out, atLeastOne(-1, cands))
		case resolver.FactSubscriptionCandidates:
			// Counted with FactSubscription.
		case resolver.FactInstalled:
			x := subjectOf(f)
			out = append(out, rule{[]int{x}, func(a []int8) bool { return a[x] == 0 }})
		case resolver.FactDeprecated:
			x := subjectOf(f)
			out = append(out, rule{[]int{x}, func(a []int8) bool { return a[x] == 1 }})
		case resolver.FactReplacement:
			x := subjectOf(f)
			y := subjectOf(resolver.Fact{CSV: f.CSV})
			out = append(out, rule{[]int{x, y}, func(a []int8) bool { return a[x] == 1 && a[y] == 1 }})
		case resolver.FactRequirement:
			x := subjectOf(f)
			var match func(ovar) bool
			switch f.Property {
			case graph.TypeGVKRequired:
				var g graph.GVK
				if err := json.Unmarshal([]byte(f.Value), &g); err != nil {
					t.Fatal(err)
				}
				match = func(v ovar) bool { return slices.Contains(v.b.Provides, g) }
			case graph.TypePackageRequired:
				var q struct {
					PackageName  string `json:"packageName"`
					VersionRange string `json:"versionRange"`
				}
				if err := json.Unmarshal([]byte(f.Value), &q); err != nil {
					t.Fatal(err)
				}
				r, err := graph.ParseRange(q.VersionRange)
				if err != nil {
					t.Fatal(err)
				}
				match = func(v ovar) bool { return v.pkg == q.PackageName && r.Contains(v.b.Version) }
			default:
				t.Fatalf("oracle: unknown requirement %s", f.Property)
			}
			out = append(out, atLeastOne(x, o.find(match)))
		case resolver.FactOnePerPackage:
			out = append(out, atMostOne(o.find(func(v ovar) bool { return v.pkg == f.Package })))
		case resolver.FactOnePerAPI:
			var g graph.GVK
			if err := json.Unmarshal([]byte(f.Value), &g); err != nil {
				t.Fatal(err)
			}
			out = append(out, atMostOne(o.find(func(v ovar) bool { return slices.Contains(v.b.Provides, g) })))
		default:
			t.Fatalf("oracle: unexpected fact kind %s", f.Kind)
		}
	}
	return out
}

// satisfiable searches every assignment of the variables the rules mention
// (the others are not selected) for one that breaks no rule.
func (o *oracle) satisfiable(rules []rule) bool {
	a := make([]int8, len(o.vars))
	for i := range a {
		a[i] = 0
	}
	var order []int
	byVar := map[int][]int{}
	for ri, r := range rules {
		for _, v := range r.vars {
			if a[v] == 0 && !slices.Contains(order, v) {
				order = append(order, v)
			}
			byVar[v] = append(byVar[v], ri)
		}
	}
	for _, v := range order {
		a[v] = -1
	}
	for _, r := range rules {
		if r.violated(a) {
			return false
		}
	}
	var search func(i int) bool
	search = func(i int) bool {
		if i == len(order) {
			return true
		}
		v := order[i]
		for _, val := range []int8{1, 0} {
			a[v] = val
			ok := true
			for _, ri := range byVar[v] {
				if rules[ri].violated(a) {
					ok = false
					break
				}
			}
			if ok && search(i+1) {
				return true
			}
		}
		a[v] = -1
		return false
	}
	return search(0)
}

// TestConflictMinimal checks, over random small catalogs and requests, that
// every conflict explains itself in a well-formed explanation whose
// suggestions all resolve when applied, and that
// every conflict's facts form a minimal unsatisfiable set according to an
// exhaustive oracle that reads the catalog and the state itself: the rules
// they name cannot hold together, and without any one fact they can. It
// also removes each fact's input (the subscription, the installed CSV, the
// requirement or deprecation property) and resolves again: the rest of the
// facts alone never explain a conflict any more.
func TestConflictMinimal(t *testing.T) {
	n := 600
	if testing.Short() {
		n = 150
	}
	conflicts, inputs, resolved, suggested := 0, 0, 0, 0
	defer func() {
		t.Logf("%d conflicts checked, %d suggestions confirmed; %d inputs removed, after which %d requests resolved", conflicts, suggested, inputs, resolved)
	}()
	for seed := 0; seed < n; seed++ {
		c, st, r, ce := randomConflict(t, int64(seed))
		if ce == nil {
			continue
		}
		conflicts++
		gc := c.MustBuild(t).Catalog
		ex, err := explainOf(context.Background(), r, "ns", st, resolver.ExplainOptions{Budget: -1})
		if err != nil {
			t.Fatalf("seed %d: Explain: %v", seed, err)
		}
		checkExplanation(t, ex)
		checkSuggestions(t, r, st, ex)
		suggested += len(ex.Suggestions)
		o := newOracle(gc, st)
		if o.satisfiable(o.rules(t, ce.Facts)) {
			t.Errorf("seed %d: the oracle satisfies the facts together:\n%s", seed, ce.Explanation().Full())
			continue
		}
		for i := range ce.Facts {
			rest := slices.Delete(slices.Clone(ce.Facts), i, i+1)
			if !o.satisfiable(o.rules(t, rest)) {
				t.Errorf("seed %d: not minimal: without fact %d (%s) the rest is still unsatisfiable:\n%s", seed, i, ce.Facts[i].String(), ce.Explanation().Full())
			}
		}
		// Input level.
		for i, f := range ce.Facts {
			c2, st2, ok := withoutInput(int64(seed), st, f)
			if !ok {
				continue
			}
			inputs++
			r2 := resolvertest.NewResolver(t, resolver.Options{}, c2)
			_, err := r2.Resolve(context.Background(), "ns", st2)
			var ce2 *resolver.ConflictError
			if !errors.As(err, &ce2) {
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				resolved++
				continue
			}
			rest := slices.Delete(slices.Clone(ce.Facts), i, i+1)
			if subset(ce2.Facts, rest) {
				t.Errorf("seed %d: without the input of fact %q, the remaining facts still explain a conflict:\n%s", seed, f.String(), ce2.Explanation().Full())
			}
		}
	}
	if conflicts < n/20 {
		t.Errorf("only %d conflicts in %d requests: the generator no longer exercises conflicts", conflicts, n)
	}
}

// subset reports whether every fact of a is in b.
func subset(a, b []resolver.Fact) bool {
	for _, f := range a {
		if !slices.ContainsFunc(b, func(g resolver.Fact) bool { return reflect.DeepEqual(f, g) }) {
			return false
		}
	}
	return true
}

// withoutInput returns the randomCatalog of seed and the state st without
// the input a fact stands for: the subscription, the installed CSV, or the
// property of a requirement or deprecation. ok is false for a rule
// (uniqueness, replacement), which is no input.
func withoutInput(seed int64, st *cluster.State, f resolver.Fact) (*resolvertest.Catalog, *cluster.State, bool) {
	c := randomCatalog(rand.New(rand.NewSource(seed)))
	st2 := st.Clone()
	switch f.Kind {
	case resolver.FactSubscription, resolver.FactSubscriptionCandidates:
		st2.Subscriptions = slices.DeleteFunc(st2.Subscriptions, func(s cluster.Subscription) bool { return s.Name == f.Subscription })
		return c, st2, true
	case resolver.FactInstalled:
		st2.CSVs = slices.DeleteFunc(st2.CSVs, func(x cluster.CSV) bool { return x.Name == f.CSV })
		return c, st2, true
	case resolver.FactRequirement, resolver.FactDeprecated:
		typ := f.Property
		if f.Kind == resolver.FactDeprecated {
			typ = graph.TypeDeprecated
		}
		drop := func(p graph.Property) bool {
			return p.Type == typ && (f.Kind == resolver.FactDeprecated || string(p.Value) == f.Value)
		}
		if f.Bundle == "" {
			for i := range st2.CSVs {
				if st2.CSVs[i].Name == f.CSV {
					st2.CSVs[i].Properties = cluster.NewCSVProperties(slices.DeleteFunc(slices.Clone(st2.CSVs[i].Properties.List()), drop)...)
				}
			}
			return c, st2, true
		}
		if p := c.Lookup(f.Package); p != nil {
			if b := p.Lookup(f.Bundle); b != nil {
				b.DropProperties(drop)
			}
		}
		return c, st2, true
	}
	return c, st, false
}

// FuzzExplain explains the conflict of a random small catalog and request
// (chosen by the seed): the explanation is well formed, the same twice,
// and every suggestion resolves when applied.
func FuzzExplain(f *testing.F) {
	for _, seed := range []int64{23, 134, 194, 286, 299} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed int64) {
		_, st, r, ce := randomConflict(t, seed)
		if ce == nil {
			return
		}
		ex1, err1 := explainOf(context.Background(), r, "ns", st, resolver.ExplainOptions{Budget: -1})
		ex2, err2 := explainOf(context.Background(), r, "ns", st, resolver.ExplainOptions{Budget: -1})
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if ex1.Full() != ex2.Full() {
			t.Fatalf("two explanations differ:\n%s\n%s", ex1.Full(), ex2.Full())
		}
		checkExplanation(t, ex1)
		checkSuggestions(t, r, st, ex1)
	})
}
