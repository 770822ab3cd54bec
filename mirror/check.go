package mirror

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolver/predict"
)

// Check checks the mirror's properties for the catalogs that keep the
// bundles keep accepts: (a) every package of the filtered catalogs passes
// the structural check (graph's Validate, the rules opm validate
// enforces: errors only); (b) every rollout of the set's request takes the
// same rounds against them as against the full catalogs — each round's
// steps (with their reasons, channels, catalogs, warnings and
// predictions), what it found in flight, its approval, notes and excluded
// packages, and the namespace's subscriptions, CSVs and InstallPlans after
// it. It returns nil when both hold, else a *CheckError saying what
// fails. Compute checks the set with s.Keeps; a test of minimality checks
// the set minus one bundle and expects an error.
func (s *Set) Check(ctx context.Context, keep func(resolver.CatalogKey, *graph.Bundle) bool) error {
	filtered, err := s.filter(keep)
	if err != nil {
		return err
	}
	ce := &CheckError{}
	for _, c := range filtered {
		for _, f := range c.Catalog.Validate() {
			if f.Severity == graph.SeverityError {
				ce.Findings = append(ce.Findings, f)
			}
		}
	}
	if len(ce.Findings) > 0 {
		return ce
	}
	r, err := resolver.NewContext(ctx, filtered, s.resolverOpts)
	if err != nil {
		return err
	}
	want := s.prints // Compute's rollouts with the full catalogs
	got, err := s.printAll(ctx, r)
	if err != nil {
		return err
	}
	for i := range want {
		if d := differs(want[i], got[i]); d != "" {
			ce.Differs = append(ce.Differs, s.scens[i].name+": "+d)
		}
	}
	if len(ce.Differs) > 0 {
		return ce
	}
	return nil
}

// filter returns the full catalogs, each filtered by keep, with the same
// keys and priorities.
func (s *Set) filter(keep func(resolver.CatalogKey, *graph.Bundle) bool) ([]resolver.Catalog, error) {
	out := make([]resolver.Catalog, len(s.full))
	for i, c := range s.full {
		fc, err := c.Catalog.Filter(func(b *graph.Bundle) bool { return keep(c.Key, b) })
		if err != nil {
			return nil, fmt.Errorf("filter catalog %s: %w", c.Key, err)
		}
		out[i] = resolver.Catalog{Key: c.Key, Priority: c.Priority, Catalog: fc}
	}
	return out, nil
}

// rolloutPrint is one rollout as Check compares it: each round printed,
// and the error that ended it.
type rolloutPrint struct {
	rounds [][]byte
	err    string
}

// printAll rolls out every scenario with r and prints the rounds.
func (s *Set) printAll(ctx context.Context, r *resolver.Resolver) ([]rolloutPrint, error) {
	out := make([]rolloutPrint, len(s.scens))
	for i := range s.scens {
		sc := &s.scens[i]
		rounds, _, err := sc.run(ctx, r, s.opts.MaxRounds)
		if err != nil {
			if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
				return nil, err
			}
			out[i].err = err.Error()
		}
		if out[i].rounds, err = printRounds(sc.ns, rounds); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// roundPrint is what Check compares of a round.
type roundPrint struct {
	Steps    []resolver.Step
	InFlight []resolver.InFlight
	Approval resolver.PlanApproval
	Notes    []predict.Note
	Excluded []resolver.InvalidPackage
	Waiting  bool
	namespaceState
}

// printRounds prints each of the rounds of a rollout of namespace ns.
func printRounds(ns string, rounds []resolver.Round) ([][]byte, error) {
	out := make([][]byte, 0, len(rounds))
	for _, rd := range rounds {
		b, err := printRound(ns, rd)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// printRound encodes what Check compares of a round of namespace ns.
func printRound(ns string, rd resolver.Round) ([]byte, error) {
	p := roundPrint{Steps: rd.Plan.Steps, InFlight: rd.Plan.InFlight, Approval: rd.Plan.Approval, Notes: rd.Plan.Notes, Excluded: rd.Plan.Excluded, Waiting: rd.Waiting}
	p.namespaceState = namespaceOf(ns, rd.State)
	return json.Marshal(p)
}

// namespaceState is what a state holds in one namespace that a rollout
// moves.
type namespaceState struct {
	CSVs          []cluster.CSV
	Subscriptions []cluster.Subscription
	InstallPlans  []cluster.InstallPlan
}

// namespaceOf returns the objects of namespace ns in state.
func namespaceOf(ns string, state *cluster.State) namespaceState {
	var p namespaceState
	for _, c := range state.CSVs {
		if c.Namespace == ns {
			p.CSVs = append(p.CSVs, c)
		}
	}
	for _, sub := range state.Subscriptions {
		if sub.Namespace == ns {
			p.Subscriptions = append(p.Subscriptions, sub)
		}
	}
	for _, ip := range state.InstallPlans {
		if ip.Namespace == ns {
			p.InstallPlans = append(p.InstallPlans, ip)
		}
	}
	return p
}

// stateOf encodes the objects of namespace ns in state, to compare.
func stateOf(ns string, state *cluster.State) []byte {
	b, _ := json.Marshal(namespaceOf(ns, state)) // plain data: cannot fail
	return b
}

// differs says how two prints of one rollout differ ("" when they do not).
func differs(want, got rolloutPrint) string {
	for i := range min(len(want.rounds), len(got.rounds)) {
		if !bytes.Equal(want.rounds[i], got.rounds[i]) {
			return fmt.Sprintf("round %d differs", i+1)
		}
	}
	switch {
	case len(want.rounds) != len(got.rounds):
		return fmt.Sprintf("%d rounds instead of %d", len(got.rounds), len(want.rounds))
	case want.err != got.err:
		if got.err == "" {
			return "settles, where the full catalogs fail: " + want.err
		}
		return "fails: " + got.err
	}
	return ""
}
