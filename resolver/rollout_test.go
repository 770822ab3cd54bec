package resolver_test

import (
	"context"
	"encoding/json"
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

func TestResolveCanceled(t *testing.T) {
	r, gc := communityResolver(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := r.Resolve(ctx, "ns", twentySubscriptions(t, gc))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Resolve with a canceled context = %v, want context.Canceled", err)
	}
	_, err = r.Rollout(ctx, "ns", twentySubscriptions(t, gc), 3)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Rollout with a canceled context = %v, want context.Canceled", err)
	}
}

type recorder struct{ events []resolver.Event }

func (r *recorder) Trace(e resolver.Event) { r.events = append(r.events, e) }

func TestTracer(t *testing.T) {
	rec := &recorder{}
	r := newResolver(t, resolver.Options{Tracer: rec}, cat{pkgs: []pkg{etcd()}})
	state := &cluster.State{Subscriptions: []cluster.Subscription{sub("etcd", "etcd", "alpha"), sub("x", "nope", "")}}
	if _, err := r.Resolve(context.Background(), "ns", state); err == nil {
		t.Fatal("Resolve succeeded, want a conflict")
	}
	var kinds []string
	for _, e := range rec.events {
		kinds = append(kinds, fmt.Sprintf("%s %s %d", e.Kind, e.Subscription, e.Count))
	}
	want := "candidates etcd 3|candidates x 0|problem  5|solved  0"
	if got := strings.Join(kinds, "|"); got != want {
		t.Errorf("events %q, want %q", got, want)
	}
	if !strings.Contains(rec.events[1].Message, "has no package nope") {
		t.Errorf("candidates event message %q", rec.events[1].Message)
	}
}

func TestCELUnsupported(t *testing.T) {
	r := newResolver(t, resolver.Options{}, cat{pkgs: []pkg{single("app", "1.0.0", raw("olm.constraint", `{"failureMessage":"x","all":{"constraints":[{"cel":{"rule":"properties.exists(p, p.type == 'certified')"}}]}}`))}})
	_, err := r.Resolve(context.Background(), "ns", &cluster.State{Subscriptions: []cluster.Subscription{sub("app", "app", "stable")}})
	if !errors.Is(err, errors.ErrUnsupported) || !strings.Contains(err.Error(), `bundle "app.v1.0.0"`) {
		t.Errorf("Resolve = %v, want errors.ErrUnsupported naming the bundle", err)
	}
}

func TestConflictJSON(t *testing.T) {
	r := newResolver(t, resolver.Options{}, cat{pkgs: []pkg{single("app", "1.0.0", raw("olm.constraint", `{"failureMessage":"app needs a gadget","gvk":{"group":"example.com","version":"v1","kind":"Gadget"}}`))}})
	_, err := r.Resolve(context.Background(), "ns", &cluster.State{Subscriptions: []cluster.Subscription{sub("app", "app", "stable")}})
	var ce *resolver.ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("Resolve = %v, want a *ConflictError", err)
	}
	js, err := json.Marshal(ce)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"namespace":"ns","facts":[` +
		`{"kind":"subscription","subscription":"app","catalog":"olm/community","package":"app","channel":"stable"},` +
		`{"kind":"subscription-candidates","subscription":"app","catalog":"olm/community","package":"app","channel":"stable","candidates":[{"catalog":"olm/community","package":"app","channel":"stable","bundle":"app.v1.0.0","version":"1.0.0"}]},` +
		`{"kind":"requirement","catalog":"olm/community","package":"app","channel":"stable","bundle":"app.v1.0.0","version":"1.0.0","property":"olm.constraint","value":"{\"failureMessage\":\"app needs a gadget\",\"gvk\":{\"group\":\"example.com\",\"version\":\"v1\",\"kind\":\"Gadget\"}}","requirement":"gvk example.com/v1 Gadget","failureMessage":"app needs a gadget"}]}`
	if string(js) != want {
		t.Errorf("JSON:\n%s\nwant\n%s", js, want)
	}
	var back resolver.ConflictError
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if back.Error() != ce.Error() {
		t.Errorf("decoded conflict reads\n%s\nwant\n%s", back.Error(), ce.Error())
	}
	if !strings.Contains(ce.Error(), `app.v1.0.0 requires gvk example.com/v1 Gadget (olm.constraint, failureMessage "app needs a gadget"), which nothing satisfies`) {
		t.Errorf("Error() = %s", ce.Error())
	}
}

func TestNewErrors(t *testing.T) {
	c := buildCatalog(t, cat{pkgs: []pkg{etcd()}})
	_, err := resolver.New([]resolver.Catalog{c, c, {Key: key("", "x"), Catalog: c.Catalog}, {Key: key("a", "b")}}, resolver.Options{})
	if err == nil {
		t.Fatal("New succeeded")
	}
	for _, w := range []string{`catalog "olm/community" given twice`, `catalog "/x": key needs a namespace and a name`, `catalog "a/b": no catalog content`} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("New error %v\nwant it to contain %q", err, w)
		}
	}
}

func TestInstalledCSVs(t *testing.T) {
	tests := []struct {
		name, reason string
		state        cluster.State
		want         string
		wantErr      string
	}{
		{
			name:   "package inferred from the one owning subscription",
			reason: "without the properties annotation, the package comes from the subscription; a second subscription to the package collides",
			state: cluster.State{
				CSVs: []cluster.CSV{csv("etcd.v1", "0.1.0")},
				Subscriptions: []cluster.Subscription{
					installedSub("etcd", "etcd", "alpha", "etcd.v1"),
					func() cluster.Subscription { s := sub("other", "etcd", "beta"); s.StartingCSV = "etcd.v4"; return s }(),
				},
			},
			wantErr: "etcd.v1 (installed), etcd.v2 and etcd.v4 are all of package etcd, and at most one bundle of a package can be installed",
		},
		{
			name:   "requirements of installed CSVs are dependencies",
			reason: "the installed CSV requires Widget (derived from its required CRDs): a provider is installed for it",
			state: cluster.State{CSVs: []cluster.CSV{func() cluster.CSV {
				c := csv("legacy.v1", "1.0.0")
				c.Requires = []graph.GVK{widget}
				return c
			}()}},
			want: "install widgets.v1.0.0 [community stable] required by legacy.v1 (olm.gvk.required example.com/v1 Widget) +sub\nkeep legacy.v1",
		},
		{
			name:   "copied CSVs are ignored",
			reason: "a copy of an operator of another namespace is not installed here",
			state: cluster.State{CSVs: []cluster.CSV{func() cluster.CSV {
				c := csv("legacy.v1", "1.0.0")
				c.Requires, c.Copied = []graph.GVK{widget}, true
				return c
			}()}},
			want: "",
		},
		{
			name:    "deprecated installed CSV without subscription",
			reason:  "OLM prohibits deprecated entries, installed ones included",
			state:   cluster.State{CSVs: []cluster.CSV{csv("old.v1", "1.0.0", graph.PackageProperty("old", "1.0.0"), graph.DeprecatedProperty())}},
			wantErr: "cannot keep installed CSV old.v1: it is deprecated (olm.deprecated) and can never be selected\n  because installed CSV old.v1 (version 1.0.0) has no subscription, so it must stay as it is\n  and installed CSV old.v1 is deprecated (olm.deprecated), so it is never selected\n  so installed CSV old.v1 cannot stay",
		},
		{
			name:    "malformed annotation property",
			state:   cluster.State{CSVs: []cluster.CSV{csv("bad.v1", "1.0.0", raw("olm.gvk", `{"group":1}`))}},
			wantErr: `installed CSV "bad.v1" in namespace "ns"`,
		},
		{
			name:    "installedCSV naming no CSV is incomplete input",
			reason:  "DESIGN §9: the input lacks the CSV the subscription says is installed; planning a fresh install would be wrong",
			state:   cluster.State{Subscriptions: []cluster.Subscription{installedSub("etcd", "etcd", "alpha", "etcd.v1")}},
			wantErr: `the input is incomplete: subscription "etcd" says CSV "etcd.v1" is installed`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newResolver(t, resolver.Options{}, cat{pkgs: []pkg{etcd(), single("widgets", "1.0.0", provides(widget))}})
			plan, err := r.Resolve(context.Background(), "ns", &tt.state)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("Resolve = %v, want an error containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := summary(plan); got != tt.want {
				t.Errorf("plan:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}
