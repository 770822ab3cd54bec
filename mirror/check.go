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
	r, err := resolver.NewContext(ctx, filtered, s.opts.Resolver)
	if err != nil {
		return err
	}
	want := s.prints
	if want == nil {
		// The first check: the full catalogs' rollouts are printed once.
		full, err := resolver.NewContext(ctx, s.full, s.opts.Resolver)
		if err != nil {
			return err
		}
		if want, err = s.printAll(ctx, full); err != nil {
			return err
		}
		s.prints = want
	}
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
		rounds, err := sc.run(ctx, r, s.opts.MaxRounds)
		if err != nil {
			if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
				return nil, err
			}
			out[i].err = err.Error()
		}
		for _, rd := range rounds {
			b, err := printRound(sc.ns, rd)
			if err != nil {
				return nil, err
			}
			out[i].rounds = append(out[i].rounds, b)
		}
	}
	return out, nil
}

// roundPrint is what Check compares of a round.
type roundPrint struct {
	Steps         []resolver.Step
	InFlight      []resolver.InFlight
	Approval      resolver.PlanApproval
	Notes         []string
	Excluded      []resolver.InvalidPackage
	Waiting       bool
	CSVs          []cluster.CSV
	Subscriptions []cluster.Subscription
	InstallPlans  []cluster.InstallPlan
}

// printRound encodes what Check compares of a round of namespace ns.
func printRound(ns string, rd resolver.Round) ([]byte, error) {
	p := roundPrint{Steps: rd.Plan.Steps, InFlight: rd.Plan.InFlight, Approval: rd.Plan.Approval, Notes: rd.Plan.Notes, Excluded: rd.Plan.Excluded, Waiting: rd.Waiting}
	for _, c := range rd.State.CSVs {
		if c.Namespace == ns {
			p.CSVs = append(p.CSVs, c)
		}
	}
	for _, sub := range rd.State.Subscriptions {
		if sub.Namespace == ns {
			p.Subscriptions = append(p.Subscriptions, sub)
		}
	}
	for _, ip := range rd.State.InstallPlans {
		if ip.Namespace == ns {
			p.InstallPlans = append(p.InstallPlans, ip)
		}
	}
	return json.Marshal(p)
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
