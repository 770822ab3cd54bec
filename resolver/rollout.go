package resolver

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

// ErrRoundLimit is wrapped by the error Rollout returns when the cluster has
// not settled within the round limit.
var ErrRoundLimit = errors.New("rollout did not settle within the round limit")

// Round is one resolution of a rollout: its plan and the cluster state
// after the plan is applied.
type Round struct {
	Plan  *Plan
	State *cluster.State
}

// Rollout simulates what the cluster will go through: it resolves
// namespace, applies the plan as OLM would (see [Resolver.Apply]) and
// repeats until a plan has no steps or maxRounds plans were applied. It
// returns the rounds that changed something, in order (none when the state
// is already settled). When a resolution fails, Rollout returns the rounds
// so far and that error; when the limit is reached first (at once when
// maxRounds <= 0 and there is something to do), the rounds and an error
// wrapping ErrRoundLimit. state is not modified; the caller owns the rounds.
func (r *Resolver) Rollout(ctx context.Context, namespace string, state *cluster.State, maxRounds int) ([]Round, error) {
	if state == nil {
		state = &cluster.State{}
	}
	var rounds []Round
	cur := state
	for {
		plan, err := r.Resolve(ctx, namespace, cur)
		if err != nil {
			return rounds, err
		}
		if len(plan.Steps) == 0 {
			return rounds, nil
		}
		if len(rounds) >= maxRounds {
			return rounds, fmt.Errorf("namespace %q: %w (%d)", namespace, ErrRoundLimit, maxRounds)
		}
		next, err := r.Apply(cur, plan)
		if err != nil {
			return rounds, err
		}
		rounds = append(rounds, Round{Plan: plan, State: next})
		cur = next
	}
}

// Apply returns a copy of state with plan applied as OLM would apply it:
// each step's bundle becomes an installed CSV (phase Succeeded, carrying the
// bundle's properties in the operatorframework.io/properties annotation)
// that takes the place of the CSV it replaces; the subscriptions that asked
// for it get it as installedCSV and currentCSV; a dependency step gets a
// subscription named as OLM names it ("package-channel-catalog-namespace")
// with the bundle as startingCSV. The plan must come from this resolver.
// state is not modified.
func (r *Resolver) Apply(state *cluster.State, plan *Plan) (*cluster.State, error) {
	if plan == nil {
		return nil, errors.New("apply plan: no plan")
	}
	next := state.Clone()
	if next == nil {
		next = &cluster.State{}
	}
	ns := plan.Namespace
	for _, st := range plan.Steps {
		ci := r.byKey[st.Catalog]
		if ci == nil {
			return nil, fmt.Errorf("apply plan: step %q: no catalog %s", st.Bundle, st.Catalog)
		}
		b := ci.cat.Bundle(graph.BundleRef{Package: st.Package, Name: st.Bundle})
		if b == nil {
			return nil, fmt.Errorf("apply plan: catalog %s has no bundle %q of package %q", st.Catalog, st.Bundle, st.Package)
		}
		csv := cluster.CSV{
			Name:          b.Name,
			Namespace:     ns,
			Version:       b.Version,
			VersionText:   b.VersionText,
			Provides:      slices.Clone(b.Provides),
			Requires:      slices.Clone(b.RequiresGVK),
			HasProperties: true,
			Phase:         "Succeeded",
			Replaces:      st.Replaces,
		}
		for _, p := range b.Properties {
			csv.Properties = append(csv.Properties, graph.Property{Type: p.Type, Value: slices.Clone(p.Value)})
		}
		if st.Replaces != "" {
			next.CSVs = slices.DeleteFunc(next.CSVs, func(c cluster.CSV) bool {
				return c.Namespace == ns && c.Name == st.Replaces
			})
		}
		next.CSVs = slices.DeleteFunc(next.CSVs, func(c cluster.CSV) bool {
			return c.Namespace == ns && c.Name == b.Name
		})
		next.CSVs = append(next.CSVs, csv)
		matched := false
		for i := range next.Subscriptions {
			s := &next.Subscriptions[i]
			if s.Namespace != ns {
				continue
			}
			mine := s.Name == st.Reason.Subscription ||
				(st.Replaces != "" && s.InstalledCSV == st.Replaces) ||
				(s.Package == st.Package && (s.Channel == "" || s.Channel == st.Channel) &&
					(s.Source == "" || (CatalogKey{Namespace: s.SourceNamespace, Name: s.Source}) == st.Catalog))
			if !mine {
				continue
			}
			matched = true
			s.InstalledCSV, s.CurrentCSV = b.Name, b.Name
		}
		if !matched && st.Dependency {
			next.Subscriptions = append(next.Subscriptions, cluster.Subscription{
				Name:            strings.Join([]string{st.Package, st.Channel, st.Catalog.Name, st.Catalog.Namespace}, "-"),
				Namespace:       ns,
				Package:         st.Package,
				Channel:         st.Channel,
				StartingCSV:     b.Name,
				Source:          st.Catalog.Name,
				SourceNamespace: st.Catalog.Namespace,
				InstalledCSV:    b.Name,
				CurrentCSV:      b.Name,
			})
		}
	}
	next.Sort()
	return next, nil
}
