package resolver_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolvertest"
)

// rolloutCatalog: app's chain app.v1 → app.v2 → app.v3; app.v2 starts to
// need Widget, which widgets provides (the widgets versions given, each
// replacing the one before); app.v3 needs widgets >=2.0.0.
func rolloutCatalog(widgets ...string) *resolvertest.Catalog {
	c := resolvertest.NewCatalog("olm", "community")
	app := c.Package("app", "stable")
	app.Bundle("app.v1", "1.0.0")
	app.Bundle("app.v2", "2.0.0").Replaces("app.v1").RequiresGVK("example.com", "v1", "Widget")
	app.Bundle("app.v3", "3.0.0").Replaces("app.v2").RequiresPackage("widgets", ">=2.0.0")
	w := c.Package("widgets", "stable")
	prev := ""
	for i, v := range widgets {
		name := fmt.Sprintf("widgets.v%d", i+1)
		w.Bundle(name, v).Replaces(prev).Provides("example.com", "v1", "Widget")
		prev = name
	}
	return c
}

// startAt is namespace ns subscribed to app on channel stable, starting at
// csv.
func startAt(csv string) *resolvertest.State {
	st := resolvertest.NewState("ns")
	st.Subscribe("app", "app").Channel("stable").Source("olm", "community").StartingCSV(csv)
	return st
}

func TestRollout(t *testing.T) {
	r := resolvertest.NewResolver(t, resolver.Options{}, rolloutCatalog("1.0.0", "2.0.0"))
	state := startAt("app.v1").State()
	before := state.Clone()
	ro, err := r.Rollout(context.Background(), "ns", state, resolver.RolloutOptions{MaxRounds: 10})
	if err != nil {
		t.Fatal(err)
	}
	rounds := ro.Rounds
	if !reflect.DeepEqual(state, before) {
		t.Error("Rollout modified its input state")
	}
	resolvertest.CheckText(t, resolvertest.FormatRollout(ro), `== round 1 ==
namespace ns: 1 step(s)
1. install app.v1 1.0.0 (package app, channel stable, catalog olm/community): subscription app
== round 2 ==
namespace ns: 2 step(s)
1. install widgets.v2 2.0.0 (package widgets, channel stable, catalog olm/community): required by app.v2 (olm.gvk.required example.com/v1 Widget); creates a subscription
2. upgrade app.v2 2.0.0 (package app, channel stable, catalog olm/community) replacing app.v1: subscription app
== round 3 ==
namespace ns: 1 step(s)
1. upgrade app.v3 3.0.0 (package app, channel stable, catalog olm/community) replacing app.v2: subscription app
unchanged widgets.v2 2.0.0 (package widgets): subscription widgets-stable-community-olm
== settled after 3 round(s) ==
installed app.v3 3.0.0
installed widgets.v2 2.0.0
subscription app: app.v3
subscription widgets-stable-community-olm: widgets.v2
`)
	var subs []string
	for _, s := range rounds[len(rounds)-1].State.Subscriptions {
		subs = append(subs, fmt.Sprintf("%s %s/%s@%s installed=%s", s.Name, s.Package, s.Channel, s.Source, s.InstalledCSV))
	}
	wantSubs := "app app/stable@community installed=app.v3; widgets-stable-community-olm widgets/stable@community installed=widgets.v2"
	if strings.Join(subs, "; ") != wantSubs {
		t.Errorf("final subscriptions: %s\nwant %s", strings.Join(subs, "; "), wantSubs)
	}

	// The installed dependency upgrades through its created subscription;
	// but app.v3 needs widgets >=2.0.0, which this catalog's channel lacks:
	// app stays at v2.
	r2 := resolvertest.NewResolver(t, resolver.Options{}, rolloutCatalog("1.0.0"))
	state2 := startAt("app.v2").State()
	ro, err = r2.Rollout(context.Background(), "ns", state2, resolver.RolloutOptions{MaxRounds: 10})
	if err != nil {
		t.Fatal(err)
	}
	resolvertest.CheckText(t, resolvertest.FormatRollout(ro), `== round 1 ==
namespace ns: 2 step(s)
1. install widgets.v1 1.0.0 (package widgets, channel stable, catalog olm/community): required by app.v2 (olm.gvk.required example.com/v1 Widget); creates a subscription
2. install app.v2 2.0.0 (package app, channel stable, catalog olm/community): subscription app
== settled after 1 round(s) ==
installed app.v2 2.0.0
installed widgets.v1 1.0.0
subscription app: app.v2
subscription widgets-stable-community-olm: widgets.v1
`)
}

func TestRolloutRoundLimit(t *testing.T) {
	r := resolvertest.NewResolver(t, resolver.Options{}, rolloutCatalog("1.0.0", "2.0.0"))
	ro, err := r.Rollout(context.Background(), "ns", startAt("app.v1").State(), resolver.RolloutOptions{MaxRounds: 2})
	if !errors.Is(err, resolver.ErrRoundLimit) || len(ro.Rounds) != 2 {
		t.Errorf("Rollout = %v; want 2 rounds and ErrRoundLimit", err)
	}
}

func TestCommunityRollout(t *testing.T) {
	r, gc := communityResolver(t)
	ro, err := r.Rollout(context.Background(), "ns", oldestInstalled(t, gc, "etcd").State(), resolver.RolloutOptions{MaxRounds: 50})
	if err != nil {
		t.Fatal(err)
	}
	rounds := ro.Rounds
	var hops []string
	for _, round := range rounds {
		for _, s := range round.Plan.Steps {
			hops = append(hops, s.Replaces+"->"+s.Bundle)
		}
	}
	want := "etcdoperator.v0.9.0->etcdoperator.v0.9.2; etcdoperator.v0.9.2->etcdoperator.v0.9.4"
	if got := strings.Join(hops, "; "); got != want {
		t.Errorf("hops %s\nwant %s", got, want)
	}
}
