package resolver_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolvertest"
)

// randomCatalog generates a small catalog olm/community: packages p0..pN,
// each with one or two channels of linear chains (stable, and sometimes
// fast without the newest bundle), bundles providing and requiring a few of
// a handful of APIs or packages. Each package's bundles are added newest
// first.
func randomCatalog(rng *rand.Rand) *resolvertest.Catalog {
	apis := []string{"Widget", "Gadget", "Gizmo"} // of example.com/v1
	c := resolvertest.NewCatalog("olm", "community")
	nPkgs := 2 + rng.Intn(4)
	for i := 0; i < nPkgs; i++ {
		name := fmt.Sprintf("p%d", i)
		p := c.Package(name, "stable")
		n := 1 + rng.Intn(3)
		for v := n; v >= 1; v-- {
			b := p.Bundle(fmt.Sprintf("%s.v%d", name, v), fmt.Sprintf("%d.0.0", v))
			if v > 1 {
				b.Replaces(fmt.Sprintf("%s.v%d", name, v-1))
			}
			if rng.Intn(3) == 0 {
				b.Provides("example.com", "v1", apis[rng.Intn(len(apis))])
			}
			switch rng.Intn(6) {
			case 0:
				b.RequiresGVK("example.com", "v1", apis[rng.Intn(len(apis))])
			case 1:
				b.RequiresPackage(fmt.Sprintf("p%d", rng.Intn(nPkgs)), fmt.Sprintf(">=%d.0.0", 1+rng.Intn(2)))
			}
			if rng.Intn(12) == 0 {
				b.Deprecated()
			}
		}
		if n > 1 && rng.Intn(2) == 0 {
			for j, b := range p.Bundles() {
				if j == 0 {
					b.In("stable")
				} else {
					b.In("stable", "fast")
				}
			}
		}
	}
	return c
}

// randomSubscription subscribes namespace ns to package p of a
// randomCatalog: sometimes pinned to one of its channels, sometimes with
// its oldest bundle installed.
func randomSubscription(rng *rand.Rand, st *resolvertest.State, p *resolvertest.Package) {
	s := subscribe(st, p.Name(), p.Name(), "")
	if rng.Intn(3) == 0 {
		channels := p.Channels()
		s.Channel(channels[rng.Intn(len(channels))])
	}
	if bundles := p.Bundles(); rng.Intn(3) == 0 && len(bundles) > 1 {
		oldest := bundles[len(bundles)-1]
		st.Install(oldest)
		s.Installed(oldest.Name())
	}
}

// TestPlanProperties resolves random small requests and checks that every
// plan satisfies the rules: each subscription ends with one bundle of its
// package and channel, every requirement of every resulting operator is met
// by another package, no two operators share a package or an API.
func TestPlanProperties(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 60
	}
	plans, conflicts := 0, 0
	defer func() { t.Logf("%d plans, %d conflicts", plans, conflicts) }()
	for seed := 0; seed < n; seed++ {
		rng := rand.New(rand.NewSource(int64(seed)))
		c := randomCatalog(rng)
		r := resolvertest.NewResolver(t, resolver.Options{}, c)
		gc := c.MustBuild(t).Catalog
		st := resolvertest.NewState("ns")
		for _, p := range c.Packages() {
			if rng.Intn(2) == 0 {
				continue
			}
			randomSubscription(rng, st, p)
		}
		state := st.State()
		planRes, err := r.Resolve(context.Background(), "ns", state)
		if err != nil {
			var ce *resolver.ConflictError
			if !errors.As(err, &ce) || len(ce.Facts) == 0 {
				t.Fatalf("seed %d: %v", seed, err)
			}
			conflicts++
			if satisfiable(gc, state) {
				t.Errorf("seed %d: Resolve reports a conflict, but a brute-force search finds a valid selection:\n%v", seed, err)
			}
			continue
		}
		plan := planRes.Plan()
		plans++
		checkPlan(t, seed, gc, state, plan)
		if !satisfiable(gc, state) {
			t.Errorf("seed %d: the brute-force search finds no valid selection, but Resolve planned:\n%s", seed, plan)
		}
	}
}

func checkPlan(t *testing.T, seed int, gc *graph.Catalog, state *cluster.State, plan *resolver.Plan) {
	t.Helper()
	type op struct {
		pkg, name string
		b         *graph.Bundle
	}
	var ops []op
	for _, s := range plan.Steps {
		ops = append(ops, op{s.Package, s.Bundle, gc.Bundle(graph.BundleRef{Package: s.Package, Name: s.Bundle})})
	}
	for _, u := range plan.Unchanged {
		ops = append(ops, op{u.Package, u.CSV, gc.Bundle(graph.BundleRef{Package: u.Package, Name: u.CSV})})
	}
	pkgs, apis := map[string]bool{}, map[graph.GVK]bool{}
	for _, o := range ops {
		if o.b == nil {
			t.Fatalf("seed %d: plan names unknown bundle %s/%s", seed, o.pkg, o.name)
		}
		if o.b.Deprecated {
			t.Errorf("seed %d: deprecated %s selected", seed, o.name)
		}
		if pkgs[o.pkg] {
			t.Errorf("seed %d: two operators of package %s\n%s", seed, o.pkg, plan)
		}
		pkgs[o.pkg] = true
		for _, g := range o.b.Provides {
			if apis[g] {
				t.Errorf("seed %d: two providers of %s\n%s", seed, g, plan)
			}
			apis[g] = true
		}
	}
	for _, o := range ops {
		for _, g := range o.b.RequiresGVK {
			if !slices.ContainsFunc(ops, func(x op) bool { return slices.Contains(x.b.Provides, g) }) {
				t.Errorf("seed %d: %s requires %s, unmet\n%s", seed, o.name, g, plan)
			}
		}
		for _, q := range o.b.RequiresPackage {
			if !slices.ContainsFunc(ops, func(x op) bool { return x.pkg == q.Package && q.Range.Contains(x.b.Version) }) {
				t.Errorf("seed %d: %s requires %s %s, unmet\n%s", seed, o.name, q.Package, q.Range, plan)
			}
		}
	}
	for _, s := range state.Subscriptions {
		i := slices.IndexFunc(ops, func(x op) bool { return x.pkg == s.Package })
		if i < 0 {
			t.Errorf("seed %d: subscription %s unsatisfied\n%s", seed, s.Name, plan)
			continue
		}
		if s.Channel != "" && s.InstalledCSV != ops[i].name && !slices.Contains(ops[i].b.Channels, s.Channel) {
			t.Errorf("seed %d: subscription %s got %s, not in channel %s", seed, s.Name, ops[i].name, s.Channel)
		}
	}
}

// satisfiable searches every selection (per package: nothing, its installed
// CSV, or one entry of one of its channels) for one that obeys the rules,
// for the catalogs randomCatalog generates (linear chains, no skips, one
// subscription per package, installed CSVs owned by their subscription).
func satisfiable(gc *graph.Catalog, state *cluster.State) bool {
	type option struct {
		b         *graph.Bundle
		channel   string // "" for the installed CSV
		installed bool
	}
	pkgs := gc.Packages()
	options := make([][]option, len(pkgs))
	subOf := map[string]*cluster.Subscription{}
	for i := range state.Subscriptions {
		subOf[state.Subscriptions[i].Package] = &state.Subscriptions[i]
	}
	for i, p := range pkgs {
		options[i] = []option{{}}
		if s := subOf[p.Name]; s != nil && s.InstalledCSV != "" {
			options[i] = append(options[i], option{b: p.Bundle(s.InstalledCSV), installed: true})
		}
		for _, c := range p.Channels {
			for _, en := range c.Entries {
				options[i] = append(options[i], option{b: p.Bundle(en.Name), channel: c.Name})
			}
		}
	}
	pick := make([]option, len(pkgs))
	valid := func() bool {
		apis := map[graph.GVK]bool{}
		for i, o := range pick {
			if o.b == nil {
				if subOf[pkgs[i].Name] != nil {
					return false
				}
				continue
			}
			if o.b.Deprecated {
				return false
			}
			for _, g := range o.b.Provides {
				if apis[g] {
					return false
				}
				apis[g] = true
			}
			if s := subOf[pkgs[i].Name]; s != nil && !o.installed {
				if s.Channel != "" && o.channel != s.Channel {
					return false
				}
				if s.InstalledCSV != "" {
					c := pkgs[i].Channel(o.channel)
					en, _ := c.Entry(o.b.Name)
					if en.Replaces != s.InstalledCSV {
						return false
					}
				}
			}
		}
		for _, o := range pick {
			if o.b == nil {
				continue
			}
			for _, g := range o.b.RequiresGVK {
				if !slices.ContainsFunc(pick, func(x option) bool {
					return x.b != nil && slices.Contains(x.b.Provides, g)
				}) {
					return false
				}
			}
			for _, q := range o.b.RequiresPackage {
				if !slices.ContainsFunc(pick, func(x option) bool {
					return x.b != nil && x.b.Package == q.Package && q.Range.Contains(x.b.Version)
				}) {
					return false
				}
			}
		}
		return true
	}
	var search func(i int) bool
	search = func(i int) bool {
		if i == len(pkgs) {
			return valid()
		}
		for _, o := range options[i] {
			pick[i] = o
			if search(i + 1) {
				return true
			}
		}
		return false
	}
	return search(0)
}
