package sextant_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/celrule"
	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/cli"
	"github.com/sextantdev/sextant/mirror"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolvertest"
)

var doorStates = flag.Int("door-states", 6, "random cluster states per shipped index catalog in TestDoorsAgree")

// doorState builds a cluster state on catalog c: namespaces ns0 and,
// sometimes, ns1, each with one to three subscriptions to random packages
// on a random channel or none, some installed at a random entry of their
// channel, some new with a startingCSV, some Manual; and, per namespace,
// no OperatorGroup, one targeting all namespaces or one targeting its own
// (so that install modes are predicted to fail some plans).
func doorState(rng *rand.Rand, c *graph.Catalog) *cluster.State {
	pkgs := c.Packages()
	state := &cluster.State{}
	groups := rng.Intn(3)
	for n := range 1 + rng.Intn(2) {
		ns := fmt.Sprintf("ns%d", n)
		st := resolvertest.NewState(ns)
		switch groups {
		case 1:
			st.OperatorGroup(ns, "global")
		case 2:
			st.OperatorGroup(ns, "own", ns)
		}
		seen := map[string]bool{}
		for range 1 + rng.Intn(3) {
			p := pkgs[rng.Intn(len(pkgs))]
			if seen[p.Name] || len(p.Channels) == 0 {
				continue
			}
			seen[p.Name] = true
			ch := p.Channels[rng.Intn(len(p.Channels))]
			sub := st.Subscribe(p.Name, p.Name)
			if rng.Intn(3) > 0 {
				sub.Channel(ch.Name)
			} else if d := p.Default(); d != nil {
				ch = d
			}
			if rng.Intn(4) == 0 {
				sub.Manual()
			}
			b := p.Bundle(ch.Entries[rng.Intn(len(ch.Entries))].Name)
			switch {
			case b == nil:
			case rng.Intn(3) == 1:
				sub.StartingCSV(b.Name)
			case rng.Intn(2) == 1:
				st.InstallBundle(b)
				sub.Installed(b.Name)
			}
		}
		state.Merge(st.State())
	}
	state.Sort()
	return state
}

// TestDoorsAgree: on random cluster states of both shipped index catalogs,
// every door gives one answer for namespace ns0.
//   - `sextant resolve -o json` prints the world's Answer, byte for byte,
//     with its exit status; `sextant rollout -o json` the world's
//     RolloutAnswer, with its exit status.
//   - Rollout round 1 is resolve's plan (its steps, predictions, notes,
//     approval, in flight; the rollout's plans have no held-back reasons
//     or fixes); a plan with nothing to do is a rollout of no round; no
//     plan is a rollout of no round that fails with resolve's message.
//     When resolve says no, so does the rollout.
//   - mirror (the library's mirror.Compute of the same world, and `sextant
//     mirror -n ns0 -o json`, equal) keeps every bundle of resolve's plan,
//     each with a reason of that namespace; with no plan, it refuses the
//     namespace (*mirror.RolloutError).
//
// -door-states sets the number of states per catalog.
func TestDoorsAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("loads both index catalogs and asks every door on random states")
	}
	ctx := context.Background()
	for _, name := range []string{"community-operators-prod.v4.20-index", "certified-operators.v4.20-index"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", "catalogs", name+".json.gz")
			cat, err := graph.LoadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewSource(37))
			seen := map[string]int{}
			for i := range *doorStates {
				state := doorState(rng, cat)
				file := filepath.Join(t.TempDir(), fmt.Sprintf("state%d.yaml", i))
				var b bytes.Buffer
				if err := cluster.Encode(&b, state); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				w, err := sextant.Load(ctx, sextant.Input{
					Catalogs:  []sextant.CatalogInput{{Name: name, Catalog: cat}},
					Manifests: []sextant.File{{Path: file}},
					Namespace: "ns0",
				}, sextant.Options{CEL: celrule.New()})
				if err != nil {
					t.Fatalf("state %d: %v\n%s", i, err, b.String())
				}
				seen[checkDoors(t, w, path, file)]++
			}
			t.Logf("%d states: %v", *doorStates, seen)
		})
	}
}

// checkDoors checks the doors on world w (catalog path, manifests file);
// it returns what resolve answered, to count.
func checkDoors(t *testing.T, w *sextant.World, path, file string) string {
	t.Helper()
	ctx := context.Background()
	args := []string{"--catalog", path, "-f", file, "-n", "ns0", "-o", "json"}
	a, err := w.Resolve(ctx, sextant.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sameAsCLI(t, append([]string{"resolve"}, args...), a, a.No())
	ro, err := w.Rollout(ctx, resolver.RolloutOptions{MaxRounds: 100}, sextant.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sameAsCLI(t, append([]string{"rollout"}, args...), ro, ro.No())

	na := a.Namespaces[0]
	kind := "plan"
	switch {
	case na.Plan == nil:
		kind = "no plan"
		if len(ro.Rounds) != 0 || ro.Error == nil || ro.Error.Message != na.Error.Message {
			t.Errorf("%s: resolve has no plan (%s), the rollout %d rounds, error %+v", file, na.Error.Message, len(ro.Rounds), ro.Error)
		}
	case len(na.Plan.Steps) == 0:
		kind = "nothing to do"
		if len(ro.Rounds) != 0 {
			t.Errorf("%s: resolve has nothing to do, the rollout %d rounds", file, len(ro.Rounds))
		}
	default:
		if len(ro.Rounds) == 0 {
			t.Fatalf("%s: resolve has %d steps, the rollout no round", file, len(na.Plan.Steps))
		}
		want := *na.Plan
		want.Fixes = nil
		for i := range want.Steps {
			want.Steps[i].HeldBack = nil
		}
		for i := range want.Unchanged {
			want.Unchanged[i].HeldBack = nil
		}
		if got := ro.Rounds[0].Plan; !samePlan(got, &want) {
			t.Errorf("%s: rollout round 1 is not resolve's plan:\n%s\nresolve:\n%s", file, got, &want)
		}
	}
	if a.No() {
		kind += ", no"
		if !ro.No() {
			t.Errorf("%s: resolve says no, the rollout yes", file)
		}
	}

	set, err := mirror.Compute(ctx, w, mirror.Request{}, mirror.Options{})
	var re *mirror.RolloutError
	switch {
	case na.Plan == nil:
		if !errors.As(err, &re) {
			t.Errorf("%s: resolve has no plan, mirror: %v", file, err)
		}
		return kind
	case err != nil && errors.As(err, &re) && ro.Error != nil:
		// a later round of the rollout has no plan: no mirror set
		return kind
	case err != nil:
		t.Fatalf("%s: mirror: %v", file, err)
	}
	kept := map[string][]mirror.Reason{}
	for _, c := range set.Catalogs {
		for _, p := range c.Packages {
			for _, b := range p.Bundles {
				kept[b.Name] = b.Reasons
			}
		}
	}
	for _, st := range na.Plan.Steps {
		if !slices.ContainsFunc(kept[st.Bundle], func(r mirror.Reason) bool { return r.Namespace == "ns0" }) {
			t.Errorf("%s: mirror does not keep %s of resolve's plan for namespace ns0 (reasons %v)", file, st.Bundle, kept[st.Bundle])
		}
	}
	sameAsCLI(t, []string{"mirror", "--catalog", path, "-f", file, "-n", "ns0", "-o", "json"}, set, false)
	return kind
}

// samePlan reports whether two plans are the same data (their JSON).
func samePlan(a, b *resolver.Plan) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}

// sameAsCLI runs the command line with args and checks that it prints v
// as JSON, byte for byte, and exits 1 when no, else 0.
func sameAsCLI(t *testing.T, args []string, v any, no bool) {
	t.Helper()
	var stdout, stderr, want bytes.Buffer
	code := cli.Run(context.Background(), args, nil, &stdout, &stderr)
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	if stdout.String() != want.String() {
		var x, y any
		json.Unmarshal(stdout.Bytes(), &x)
		json.Unmarshal(want.Bytes(), &y)
		t.Errorf("sextant %v (exit %d, %s) differs from the library (equal as data: %v):\n%s", args, code, stderr.String(), reflect.DeepEqual(x, y), resolvertest.Diff(want.String(), stdout.String()))
	}
	if wantCode := map[bool]int{false: cli.ExitOK, true: cli.ExitNo}[no]; code != wantCode {
		t.Errorf("sextant %v: exit %d, want %d (%s)", args, code, wantCode, stderr.String())
	}
}
