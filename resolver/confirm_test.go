package resolver_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolvertest"
)

// cancelAt is a Tracer that counts the problems solved and cancels a
// context at the at-th (none when at is 0).
type cancelAt struct {
	n, at  int
	cancel context.CancelFunc
}

func (c *cancelAt) Trace(e resolver.Event) {
	if e.Kind != resolver.EventProblem {
		return
	}
	c.n++
	if c.n == c.at && c.cancel != nil {
		c.cancel()
	}
}

// confirmCase is a follow-up that confirms candidate changes by
// re-solving: its answer (the changes confirmed, in order) and error.
type confirmCase struct {
	name   string
	setup  func(t *testing.T, tr resolver.Tracer) (*resolver.Resolver, string, *cluster.State)
	follow func(ctx context.Context, res *resolver.Resolution) ([]string, error)
}

func changes(ss []resolver.Suggestion) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Change)
	}
	return out
}

func confirmCases() []confirmCase {
	fromFixture := func(f fixture) func(t *testing.T, tr resolver.Tracer) (*resolver.Resolver, string, *cluster.State) {
		return func(t *testing.T, tr resolver.Tracer) (*resolver.Resolver, string, *cluster.State) {
			cats, st := f()
			return resolvertest.NewResolver(t, resolver.Options{Tracer: tr}, cats...), st.Namespace(), st.State()
		}
	}
	return []confirmCase{
		{
			name:  "explain",
			setup: fromFixture(explainCases()[4].build), // two_subscriptions_channels: two suggestions
			follow: func(ctx context.Context, res *resolver.Resolution) ([]string, error) {
				ex, err := res.Explain(ctx, resolver.ExplainOptions{MaxTries: -1})
				if err != nil && ex == nil {
					return nil, err
				}
				return changes(ex.Suggestions), err
			},
		},
		{
			name: "fixes",
			setup: func(t *testing.T, tr resolver.Tracer) (*resolver.Resolver, string, *cluster.State) {
				r, err := resolver.New([]resolver.Catalog{{Key: resolver.CatalogKey{Namespace: "olm", Name: "community"}, Catalog: decodeExample(`
{"schema":"olm.package","name":"op","defaultChannel":"stable"}
{"schema":"olm.channel","package":"op","name":"stable","entries":[{"name":"op.v1"}]}
{"schema":"olm.bundle","name":"op.v1","package":"op","image":"example.com/op:1","properties":[
  {"type":"olm.package","value":{"packageName":"op","version":"1.0.0"}},
  {"type":"olm.csv.metadata","value":{"installModes":[{"type":"OwnNamespace","supported":true},{"type":"AllNamespaces","supported":false}]}}]}
`)}}, resolver.Options{Tracer: tr})
				if err != nil {
					t.Fatal(err)
				}
				return r, "operators", &cluster.State{
					Subscriptions:  []cluster.Subscription{{Name: "op", Namespace: "operators", Package: "op", Channel: "stable"}},
					OperatorGroups: []cluster.OperatorGroup{{Name: "global", Namespace: "operators"}, {Name: "og", Namespace: "other", TargetNamespaces: []string{"other"}}},
				}
			},
			follow: func(ctx context.Context, res *resolver.Resolution) ([]string, error) {
				fixes, err := res.Fixes(ctx, resolver.ExplainOptions{MaxTries: -1})
				return changes(fixes), err
			},
		},
		{
			name:  "held back",
			setup: fromFixture(heldByRange),
			follow: func(ctx context.Context, res *resolver.Resolution) ([]string, error) {
				plan, err := res.HeldBack(ctx, resolver.HeldBackOptions{MaxTries: -1})
				if err != nil {
					return nil, err
				}
				var out []string
				for _, u := range plan.Unchanged {
					if u.HeldBack != nil && u.HeldBack.Change != nil {
						out = append(out, u.HeldBack.Change.Change)
					}
				}
				return out, nil
			},
		},
	}
}

// TestConfirmCancellation holds Explain, Fixes and HeldBack to the one
// rule of confirming by re-solving (package doc, "Confirmed changes"):
// cancelled before any re-solve or during any one of them — the last
// included — each returns an error matching context.Canceled, and what it
// returns with it is a prefix of its whole answer.
func TestConfirmCancellation(t *testing.T) {
	for _, tc := range confirmCases() {
		t.Run(tc.name, func(t *testing.T) {
			tr := &cancelAt{}
			r, ns, st := tc.setup(t, tr)
			res, err := r.Resolve(context.Background(), ns, st)
			if err != nil && res == nil {
				t.Fatal(err)
			}
			tr.n = 0
			whole, err := tc.follow(context.Background(), res)
			if err != nil || len(whole) == 0 {
				t.Fatalf("uncancelled: %q, %v; want an answer", whole, err)
			}
			solves := tr.n
			for at := 0; at <= solves; at++ {
				ctx, cancel := context.WithCancel(context.Background())
				tr.n, tr.at, tr.cancel = 0, at, cancel
				if at == 0 {
					cancel()
				}
				res, err := r.Resolve(context.Background(), ns, st) // a fresh Resolution: HeldBack keeps its answer
				if err != nil && res == nil {
					t.Fatal(err)
				}
				tr.n = 0
				got, err := tc.follow(ctx, res)
				cancel()
				if !errors.Is(err, context.Canceled) {
					t.Errorf("cancelled at re-solve %d of %d: error %v, want context.Canceled", at, solves, err)
				}
				if len(got) > len(whole) || !slices.Equal(got, whole[:len(got)]) {
					t.Errorf("cancelled at re-solve %d of %d: %q, want a prefix of %q", at, solves, got, whole)
				}
			}
			tr.at, tr.cancel = 0, nil
		})
	}
}
