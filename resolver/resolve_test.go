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
