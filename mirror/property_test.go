package mirror_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/mirror"
	"github.com/sextantdev/sextant/resolvertest"
)

var mirrorStates = flag.Int("mirror-states", 12, "random cluster states per shipped index catalog in TestMirrorProperties")

// randomState builds a cluster state on catalog c: one to three
// namespaces, each with one to three subscriptions to random packages, on
// a random channel or none; some installed at a random entry of their
// channel, some new with a startingCSV, some Manual.
func randomState(rng *rand.Rand, c *graph.Catalog) *cluster.State {
	pkgs := c.Packages()
	state := &cluster.State{}
	for n := range 1 + rng.Intn(3) {
		st := resolvertest.NewState(fmt.Sprintf("ns%d", n))
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
			e := ch.Entries[rng.Intn(len(ch.Entries))]
			b := p.Bundle(e.Name)
			switch rng.Intn(3) {
			case 0: // new, at the head
			case 1:
				if b != nil {
					sub.StartingCSV(b.Name)
				}
			case 2:
				if b != nil {
					st.InstallBundle(b)
					sub.Installed(b.Name)
				}
			}
		}
		state.Merge(st.State())
	}
	state.Sort()
	return state
}

// TestMirrorProperties checks the mirror's three properties on random
// cluster states of both shipped index catalogs: Compute's own check
// gives (a) the structural check and (b) the same rollouts; checkMinimal
// gives (c). States whose rollout has no plan with the full catalog
// (a conflict, a package whose channel cannot order) have no mirror set
// and are counted apart. -mirror-states sets the number per catalog.
func TestMirrorProperties(t *testing.T) {
	if testing.Short() {
		t.Skip("loads both index catalogs and rolls out random states")
	}
	for _, name := range []string{community, certified} {
		t.Run(name, func(t *testing.T) {
			cat := shipped(t, name)
			rng := rand.New(rand.NewSource(27))
			sets, failed := 0, 0
			for i := 0; sets < *mirrorStates && i < 4**mirrorStates; i++ {
				state := randomState(rng, cat.Catalog)
				s, err := mirror.Compute(context.Background(), world(t, state, cat), mirror.Request{}, options())
				var re *mirror.RolloutError
				switch {
				case errors.As(err, &re):
					failed++
					continue
				case err != nil:
					t.Fatalf("state %d: %v", i, err)
				}
				sets++
				checkMinimal(t, s)
			}
			t.Logf("%d mirror sets checked, %d states without a plan", sets, failed)
			if sets < *mirrorStates {
				t.Errorf("only %d of %d states had a mirror set", sets, *mirrorStates)
			}
		})
	}
}
