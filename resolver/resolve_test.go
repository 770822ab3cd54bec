package resolver_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/celrule"
	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

var (
	widget = gvk("example.com", "v1", "Widget")
	gadget = gvk("example.com", "v1", "Gadget")
)

// etcd is a package with a three-entry chain on "alpha" (the default) and a
// "beta" channel whose head is etcd.v4.
func etcd(extra ...bdl) pkg {
	return pkg{
		name: "etcd", def: "alpha",
		channels: []ch{
			{"alpha", []graph.Entry{e("etcd.v3", "etcd.v2"), e("etcd.v2", "etcd.v1"), e("etcd.v1", "")}},
			{"beta", []graph.Entry{e("etcd.v4", "etcd.v3"), e("etcd.v3", "")}},
		},
		bundles: append([]bdl{
			{"etcd.v1", "0.1.0", nil}, {"etcd.v2", "0.2.0", nil}, {"etcd.v3", "0.3.0", nil}, {"etcd.v4", "0.4.0", nil},
		}, extra...),
	}
}

// single is a package with one channel "stable" holding one bundle.
func single(name, version string, props ...graph.Property) pkg {
	b := name + ".v" + version
	return pkg{name: name, def: "stable", channels: []ch{{"stable", []graph.Entry{e(b, "")}}}, bundles: []bdl{{b, version, props}}}
}

// TestResolve holds the resolution cases the scenario files do not state
// yet (testdata/scenarios/*.txtar is the behaviour suite; every case that
// mirrored a scenario has gone). Each run also checks that Resolve leaves
// its state unmodified.
func TestResolve(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		opts   resolver.Options
		cats   []cat
		state  cluster.State
		want   string
		// wantErr, if set, is a substring of the error; wantFacts the kinds
		// of a *ConflictError's facts.
		wantErr   string
		wantFacts []resolver.FactKind
	}{
		{
			name:   "an invalid cel rule on a deprecated candidate",
			reason: "as in OLM, which compiles the rules of every bundle it reaches, deprecated ones included",
			opts:   resolver.Options{CEL: celrule.New()},
			cats: []cat{{pkgs: []pkg{{
				name: "app", def: "stable",
				channels: []ch{{"stable", []graph.Entry{e("app.v2", "app.v1"), e("app.v1", "")}}},
				bundles: []bdl{{"app.v1", "1.0.0", []graph.Property{raw("olm.deprecated", `{}`), raw("olm.constraint", `{"cel":{"rule":"1 + 1"}}`)}},
					{"app.v2", "2.0.0", nil}},
			}}}},
			state:   cluster.State{Subscriptions: []cluster.Subscription{sub("app", "app", "stable")}},
			wantErr: `olm.constraint with an invalid cel rule ("1 + 1")`,
		},
		{
			name:    "olm.constraint with an invalid cel rule",
			reason:  "as in OLM, a rule that does not compile fails the resolution",
			opts:    resolver.Options{CEL: celrule.New()},
			cats:    []cat{{pkgs: []pkg{single("app", "1.0.0", raw("olm.constraint", `{"cel":{"rule":"1 + 1"}}`))}}},
			state:   cluster.State{Subscriptions: []cluster.Subscription{sub("app", "app", "stable")}},
			wantErr: `bundle "app.v1.0.0" (package "app", catalog olm/community): olm.constraint with an invalid cel rule ("1 + 1"): a cel rule must be of type bool, not int`,
		},
		{
			name: "preference: CatalogSource priority in the state",
			cats: []cat{{key: key("olm", "apps"), pkgs: []pkg{single("app", "1.0.0", requires(widget))}}, {key: key("olm", "b"), pkgs: []pkg{single("w2", "1.0.0", provides(widget))}}, {key: key("olm", "c"), pkgs: []pkg{single("w4", "1.0.0", provides(widget))}}},
			state: cluster.State{
				Subscriptions:  []cluster.Subscription{func() cluster.Subscription { s := sub("app", "app", "stable"); s.Source = "apps"; return s }()},
				CatalogSources: []cluster.CatalogSource{{Name: "c", Namespace: "olm", Priority: 5}},
			},
			want: "install w4.v1.0.0 [c stable] required by app.v1.0.0 (olm.gvk.required example.com/v1 Widget) +sub\ninstall app.v1.0.0 [apps stable] subscription app",
		},
		{
			name:   "upgrade of a dependency through its subscription",
			reason: "the installed dependency's successor still provides the API",
			cats: []cat{{pkgs: []pkg{
				single("app", "1.0.0", requires(widget)),
				{name: "widgets", def: "stable", channels: []ch{{"stable", []graph.Entry{e("widgets.v2", "widgets.v1"), e("widgets.v1", "")}}},
					bundles: []bdl{{"widgets.v1", "1.0.0", []graph.Property{provides(widget)}}, {"widgets.v2", "2.0.0", []graph.Property{provides(widget)}}}},
			}}},
			state: cluster.State{
				CSVs: []cluster.CSV{
					csv("app.v1.0.0", "1.0.0", graph.PackageProperty("app", "1.0.0"), requires(widget)),
					csv("widgets.v1", "1.0.0", graph.PackageProperty("widgets", "1.0.0"), provides(widget)),
				},
				Subscriptions: []cluster.Subscription{installedSub("app", "app", "stable", "app.v1.0.0"), installedSub("widgets", "widgets", "stable", "widgets.v1")},
			},
			want: "upgrade widgets.v1->widgets.v2 [community stable] subscription widgets\nkeep app.v1.0.0",
		},
		{
			name:  "objects of other namespaces are ignored",
			cats:  []cat{{pkgs: []pkg{etcd()}}},
			state: cluster.State{Subscriptions: []cluster.Subscription{sub("etcd", "etcd", "alpha"), {Name: "x", Namespace: "elsewhere", Package: "nope"}}, CSVs: []cluster.CSV{{Name: "y", Namespace: "elsewhere"}}},
			want:  "install etcd.v3 [community alpha] subscription etcd",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newResolver(t, tt.opts, tt.cats...)
			state := tt.state
			before := summaryState(&state)
			plan, err := r.Resolve(context.Background(), "ns", &state)
			if after := summaryState(&state); after != before {
				t.Errorf("Resolve modified the state:\n%s\nwant\n%s", after, before)
			}
			if tt.wantErr != "" || tt.wantFacts != nil {
				if err == nil {
					t.Fatalf("Resolve = plan\n%s\nwant an error", summary(plan))
				}
				if !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("error = %v\nwant it to contain %q", err, tt.wantErr)
				}
				if tt.wantFacts != nil {
					var ce *resolver.ConflictError
					if !errors.As(err, &ce) {
						t.Fatalf("error %v is not a *ConflictError", err)
					}
					var kinds []resolver.FactKind
					for _, f := range ce.Facts {
						kinds = append(kinds, f.Kind)
					}
					if !equal(kinds, tt.wantFacts) {
						t.Errorf("facts = %q, want %q\n%v", kinds, tt.wantFacts, err)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("Resolve: %v", err)
			}
			if got := summary(plan); got != tt.want {
				t.Errorf("plan:\n%s\nwant:\n%s", got, tt.want)
			}
			// Deterministic: a second resolution gives the same plan.
			again, err := r.Resolve(context.Background(), "ns", &state)
			if err != nil || summary(again) != summary(plan) {
				t.Errorf("second Resolve = %v, %v; want the same plan", again, err)
			}
		})
	}
}

func equal[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func summaryState(s *cluster.State) string {
	var b strings.Builder
	if err := cluster.Encode(&b, s); err != nil {
		return err.Error()
	}
	return b.String()
}
