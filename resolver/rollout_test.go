package resolver_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

// rolloutCatalog: app's chain a1 → a2 → a3; a2 starts to need Widget, which
// widgets provides (w1 → w2); a3 needs widgets >=2.0.0.
func rolloutCatalog() cat {
	return cat{pkgs: []pkg{
		{
			name: "app", def: "stable",
			channels: []ch{{"stable", []graph.Entry{e("app.v3", "app.v2"), e("app.v2", "app.v1"), e("app.v1", "")}}},
			bundles: []bdl{
				{"app.v1", "1.0.0", nil},
				{"app.v2", "2.0.0", []graph.Property{requires(widget)}},
				{"app.v3", "3.0.0", []graph.Property{needsPkg("widgets", ">=2.0.0")}},
			},
		},
		{
			name: "widgets", def: "stable",
			channels: []ch{{"stable", []graph.Entry{e("widgets.v2", "widgets.v1"), e("widgets.v1", "")}}},
			bundles: []bdl{
				{"widgets.v1", "1.0.0", []graph.Property{provides(widget)}},
				{"widgets.v2", "2.0.0", []graph.Property{provides(widget)}},
			},
		},
	}}
}

func TestRollout(t *testing.T) {
	r := newResolver(t, resolver.Options{}, rolloutCatalog())
	s := sub("app", "app", "stable")
	s.StartingCSV = "app.v1"
	state := &cluster.State{Subscriptions: []cluster.Subscription{s}}
	before := summaryState(state)
	rounds, err := r.Rollout(context.Background(), "ns", state, 10)
	if err != nil {
		t.Fatal(err)
	}
	if summaryState(state) != before {
		t.Error("Rollout modified its input state")
	}
	var got []string
	for i, round := range rounds {
		got = append(got, fmt.Sprintf("round %d:\n%s", i+1, summary(round.Plan)))
	}
	want := []string{
		"round 1:\ninstall app.v1 [community stable] subscription app",
		"round 2:\ninstall widgets.v2 [community stable] required by app.v2 (olm.gvk.required example.com/v1 Widget) +sub\nupgrade app.v1->app.v2 [community stable] subscription app",
		"round 3:\nupgrade app.v2->app.v3 [community stable] subscription app\nkeep widgets.v2",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rounds:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	final := rounds[len(rounds)-1].State
	var subs []string
	for _, s := range final.Subscriptions {
		subs = append(subs, fmt.Sprintf("%s %s/%s@%s installed=%s", s.Name, s.Package, s.Channel, s.Source, s.InstalledCSV))
	}
	wantSubs := "app app/stable@community installed=app.v3; widgets-stable-community-olm widgets/stable@community installed=widgets.v2"
	if strings.Join(subs, "; ") != wantSubs {
		t.Errorf("final subscriptions: %s\nwant %s", strings.Join(subs, "; "), wantSubs)
	}
	var csvs []string
	for _, c := range final.CSVs {
		csvs = append(csvs, c.Name)
	}
	if strings.Join(csvs, " ") != "app.v3 widgets.v2" {
		t.Errorf("final CSVs: %q", csvs)
	}

	// The installed dependency upgrades through its created subscription.
	s2 := sub("app", "app", "stable")
	s2.StartingCSV = "app.v2"
	state2 := &cluster.State{Subscriptions: []cluster.Subscription{s2}}
	r2 := newResolver(t, resolver.Options{}, func() cat {
		c := rolloutCatalog()
		c.pkgs[1].channels[0].entries = []graph.Entry{e("widgets.v1", "")} // only w1 at first
		c.pkgs[1].bundles = c.pkgs[1].bundles[:1]                          // (a bundle in no channel is invalid, as opm says)
		return c
	}())
	rounds, err = r2.Rollout(context.Background(), "ns", state2, 10)
	if err != nil {
		t.Fatal(err)
	}
	// app.v3 needs widgets >=2.0.0, which this catalog's channel lacks:
	// app stays at v2.
	if len(rounds) != 1 || summary(rounds[0].Plan) != "install widgets.v1 [community stable] required by app.v2 (olm.gvk.required example.com/v1 Widget) +sub\ninstall app.v2 [community stable] subscription app" {
		t.Errorf("rounds: %d\n%s", len(rounds), summary(rounds[0].Plan))
	}
}

func TestRolloutRoundLimit(t *testing.T) {
	r := newResolver(t, resolver.Options{}, rolloutCatalog())
	s := sub("app", "app", "stable")
	s.StartingCSV = "app.v1"
	rounds, err := r.Rollout(context.Background(), "ns", &cluster.State{Subscriptions: []cluster.Subscription{s}}, 2)
	if !errors.Is(err, resolver.ErrRoundLimit) || len(rounds) != 2 {
		t.Errorf("Rollout = %d rounds, %v; want 2 rounds and ErrRoundLimit", len(rounds), err)
	}
}

type recorder struct{ events []resolver.Event }

func (r *recorder) Trace(e resolver.Event) { r.events = append(r.events, e) }
