package resolver_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolvertest"
)

// etcdCSV adds an installed CSV of package etcd (its properties annotation
// names the package) that replaces replaces and is in phase.
func etcdCSV(s *resolvertest.State, name, version, replaces string, phase cluster.CSVPhase) *resolvertest.CSV {
	return s.CSV(name, version).With(graph.PackageProperty("etcd", version)).Replaces(replaces).Phase(phase)
}

func TestInFlightErrors(t *testing.T) {
	r := resolvertest.NewResolver(t, resolver.Options{}, etcdCatalog())
	ctx := context.Background()
	stuck := func() *resolvertest.State {
		s := resolvertest.NewState("ns")
		etcdCSV(s, "etcd.v1", "0.1.0", "", cluster.CSVPhaseReplacing)
		etcdCSV(s, "etcd.v2", "0.2.0", "etcd.v1", cluster.CSVPhaseFailed)
		s.Subscribe("etcd", "etcd").Channel("alpha").Source("olm", "community").Installed("etcd.v2")
		return s
	}
	_, err := r.Resolve(ctx, "ns", stuck().State())
	var se *resolver.StuckError
	if !errors.As(err, &se) || se.Subscription != "etcd" || se.CSV != "etcd.v2" || se.Replaces != "etcd.v1" || se.Strategy != cluster.UpgradeStrategyDefault {
		t.Errorf("Resolve of a failed upgrade = %v (%+v), want a *StuckError for etcd.v1 → etcd.v2", err, se)
	}
	forward := stuck().OperatorGroupStrategy("og", cluster.UpgradeStrategyUnsafeFailForward)
	planRes, err := r.Resolve(ctx, "ns", forward.State())
	if err != nil {
		t.Fatal(err)
	}
	plan := planRes.Plan()
	if len(plan.Steps) != 1 || plan.Steps[0].Bundle != "etcd.v3" || plan.Steps[0].Replaces != "etcd.v2" || len(plan.InFlight) != 1 || plan.InFlight[0].Kind != resolver.InFlightReplaced {
		t.Errorf("fail-forward plan = %s, in flight %+v; want etcd.v2 → etcd.v3 and etcd.v1 replaced", plan, plan.InFlight)
	}
	missing := resolvertest.NewState("ns")
	missing.Subscribe("etcd", "etcd").Channel("alpha").Source("olm", "community").Installed("etcd.v2")
	_, err = r.Resolve(ctx, "ns", missing.State())
	var ie *resolver.IncompleteError
	if !errors.As(err, &ie) || len(ie.Missing) != 1 || ie.Missing[0] != (resolver.MissingCSV{Subscription: "etcd", CSV: "etcd.v2"}) {
		t.Errorf("Resolve with the installed CSV missing = %v, want an *IncompleteError naming etcd and etcd.v2", err)
	}
}

func TestInFlightChains(t *testing.T) {
	r := resolvertest.NewResolver(t, resolver.Options{}, etcdCatalog())
	tests := []struct {
		name  string
		state func(s *resolvertest.State)
		want  string
	}{{
		name: "a chain of two replacements goes on from its end",
		state: func(s *resolvertest.State) {
			etcdCSV(s, "etcd.v1", "0.1.0", "", cluster.CSVPhaseReplacing)
			etcdCSV(s, "etcd.v2", "0.2.0", "etcd.v1", cluster.CSVPhaseReplacing)
			etcdCSV(s, "etcd.v3", "0.3.0", "etcd.v2", cluster.CSVPhaseInstalling)
			s.Subscribe("etcd", "etcd").Channel("alpha").Source("olm", "community").Installed("etcd.v1")
		},
		want: `namespace ns: 0 step(s)
in flight: CSV etcd.v1 (Replacing) is being replaced by etcd.v3 (Installing); OLM deletes it once etcd.v3 succeeds, so resolution goes on from etcd.v3
in flight: CSV etcd.v2 (Replacing) is being replaced by etcd.v3 (Installing); OLM deletes it once etcd.v3 succeeds, so resolution goes on from etcd.v3
in flight: CSV etcd.v3 is Installing; resolution counts it as installed
unchanged etcd.v3 0.3.0 (package etcd): subscription etcd
`,
	}, {
		name: "a replacement cycle leaves nothing out",
		state: func(s *resolvertest.State) {
			etcdCSV(s, "etcd.v1", "0.1.0", "etcd.v2", cluster.CSVPhaseSucceeded)
			etcdCSV(s, "etcd.v2", "0.2.0", "etcd.v1", cluster.CSVPhaseSucceeded)
			s.Subscribe("etcd", "etcd").Channel("alpha").Source("olm", "community").Installed("etcd.v2")
		},
		want: `conflict in namespace ns:
- subscription etcd wants package etcd (channel alpha, catalog olm/community)
- installed CSV etcd.v1 has no subscription and must stay
- subscription etcd can only be satisfied by etcd.v3 (channel alpha, catalog olm/community) or installed etcd.v2
- at most one bundle of package etcd can be installed: installed etcd.v1, installed etcd.v2 and etcd.v3 (channel alpha, catalog olm/community)
`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := resolvertest.NewState("ns")
			tt.state(s)
			res, err := r.Resolve(context.Background(), "ns", s.State())
			resolvertest.CheckResult(t, res.Plan(), err, tt.want)
		})
	}
}

// TestInFlightNeverSuggestedForRemoval: in a namespace caught mid-upgrade
// that also has a real conflict, the CSV the upgrade replaces is no fact of
// the conflict and no suggestion removes it (DESIGN §9).
func TestInFlightNeverSuggestedForRemoval(t *testing.T) {
	c := etcdCatalog()
	c.Package("widgets", "stable").Bundle("widgets.v1.0.0", "1.0.0").Provides("example.com", "v1", "Widget")
	r := resolvertest.NewResolver(t, resolver.Options{}, c)
	widget := graph.GVKProperty(graph.GVK{Group: "example.com", Version: "v1", Kind: "Widget"})
	s := resolvertest.NewState("ns")
	etcdCSV(s, "etcd.v1", "0.1.0", "", cluster.CSVPhaseReplacing).With(widget)
	etcdCSV(s, "etcd.v2", "0.2.0", "etcd.v1", cluster.CSVPhaseInstalling).With(widget)
	// No successor of etcd.v2 in beta: it stays.
	s.Subscribe("etcd", "etcd").Channel("beta").Source("olm", "community").Installed("etcd.v1").Pending("etcd.v2", "")
	s.Subscribe("widgets", "widgets").Channel("stable").Source("olm", "community")
	state := s.State()
	ctx := context.Background()
	_, err := r.Resolve(ctx, "ns", state)
	var ce *resolver.ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("Resolve = %v, want a conflict between widgets and etcd", err)
	}
	ex, err := explainOf(ctx, r, "ns", state, resolver.ExplainOptions{MaxSuggestions: 10, Budget: -1})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(ex.Full(), "etcd.v1") {
		t.Errorf("explanation names the CSV being replaced:\n%s", ex.Full())
	}
	for _, s := range ex.Suggestions {
		if s.Kind == resolver.SuggestRemoveCSV {
			t.Errorf("suggestion %q removes an installed CSV of an upgrade in flight", s.Change)
		}
	}
}
