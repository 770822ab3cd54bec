package resolver

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/confirm"
	"github.com/sextantdev/sextant/resolver/predict"
)

// The kinds of suggestions that fix predicted failures (see
// Resolution.Fixes), in rank order after SuggestSwitchChannel.
const (
	// SuggestStartingCSV: set the subscription's spec.startingCSV to
	// StartingCSV, a bundle of its channel that OLM is predicted to accept.
	SuggestStartingCSV SuggestionKind = "set-starting-csv"
	// SuggestOperatorGroup: make the namespace's OperatorGroup
	// (OperatorGroup) target TargetNamespaces (empty: all namespaces).
	SuggestOperatorGroup SuggestionKind = "set-operator-group"
	// SuggestMoveSubscription: move the subscription to namespace
	// Namespace (its installed CSV, if any, is removed here and the
	// operator installed there); NewOperatorGroup, when set, is the
	// OperatorGroup to create there first.
	SuggestMoveSubscription SuggestionKind = "move-subscription"
)

// fix is a candidate fix before it is confirmed.
type fix struct {
	s Suggestion
	// apply returns a copy of the state with the change made and the
	// namespace whose plan the suggestion shows (the namespace moved to,
	// or the one resolved).
	apply func(*cluster.State) (*cluster.State, string)
}

// failureKey identifies a predicted failure across re-solves: the package
// (or, without one, the CSV), and the reason.
type failureKey struct{ who, reason string }

func planFailures(p *Plan) []failureKey {
	var out []failureKey
	add := func(who string, ps []predict.Prediction) {
		for _, q := range ps {
			if q.Severity == predict.SeverityFailure {
				out = append(out, failureKey{who, string(q.Reason)})
			}
		}
	}
	for _, s := range p.Steps {
		add(s.Package, s.Predictions)
	}
	for _, u := range p.Unchanged {
		who := u.Package
		if who == "" {
			who = u.CSV
		}
		add(who, u.Predictions)
	}
	return out
}

// Fixes suggests changes that make OLM's predicted failures of the plan go
// away: a channel or a startingCSV whose bundle OLM accepts, an
// OperatorGroup that serves the namespace's operators, moving a
// subscription to another namespace (one of the state whose OperatorGroup
// serves it, or a new one with its own OperatorGroup). Each is applied to a
// copy of the state and re-solved (in the context ResolveAll resolved the
// namespace in, if it did), and kept only when the namespace's plan (and,
// for a move, the plan of the namespace moved to) then has fewer predicted
// failures and none that the plan did not have. Suggestions are in rank
// order (SuggestSwitchChannel, SuggestStartingCSV, SuggestOperatorGroup,
// SuggestMoveSubscription; within a kind, in plan order), one per distinct
// resulting plan, at most opts.MaxSuggestions among the first opts.MaxTries
// changes and within opts.Budget, as in Explain (the rule of "Confirmed
// changes" in the package documentation). A plan with no predicted
// failure, and a namespace with no plan, have no fixes. When ctx ends
// first, it returns the fixes confirmed so far and an error e with
// errors.Is(e, ctx.Err()).
func (s *Resolution) Fixes(ctx context.Context, opts ExplainOptions) ([]Suggestion, error) {
	if s.plan == nil {
		return nil, nil
	}
	return s.r.fixesOf(ctx, s.ns, s.state, s.plan, s.planned, opts)
}

// fixesOf is Fixes of plan, resolved from a state the resolver owns with
// the APIs planned before.
func (r *Resolver) fixesOf(ctx context.Context, namespace string, state *cluster.State, plan *Plan, planned predict.Planned, opts ExplainOptions) ([]Suggestion, error) {
	if plan == nil || !plan.Failing() {
		return nil, nil
	}
	if state == nil {
		state = &cluster.State{}
	}
	max, tries := opts.limits()
	if max < 0 {
		return nil, nil
	}
	before := planFailures(plan)
	var out []Suggestion
	var kept planKeys // the target plans of the fixes kept
	type solved struct {
		p, target *Plan
		shown     string
	}
	_, err := confirm.Pipelined(ctx, confirm.Budget{Max: max, Tries: tries, Time: opts.Budget}, r.confirmWorkers(), r.fixes(ctx, namespace, state, plan, planned),
		func(ctx context.Context, f fix) (solved, error) {
			st, shown := f.apply(state)
			p, err := r.solvePlan(ctx, namespace, st, planned)
			if err != nil {
				return solved{}, err
			}
			target := p
			if shown != namespace {
				if target, err = r.solvePlan(ctx, shown, st, planned); err != nil {
					return solved{}, err
				}
			}
			return solved{p, target, shown}, nil
		},
		func(f fix, sv solved) bool {
			p, target, shown := sv.p, sv.target, sv.shown
			after := planFailures(p)
			if shown != namespace {
				after = append(after, planFailures(target)...)
			}
			if len(after) >= len(before) || slices.ContainsFunc(after, func(k failureKey) bool { return !slices.Contains(before, k) }) {
				return false
			}
			// A channel or startingCSV fix that only leaves the subscription
			// where it is, with no step, is a hold, not a fix.
			hold := (f.s.Kind == SuggestSwitchChannel || f.s.Kind == SuggestStartingCSV) &&
				!slices.ContainsFunc(p.Steps, func(st Step) bool { return st.Reason.Subscription == f.s.Subscription })
			if hold || !kept.add(shown, target) {
				return false
			}
			s := f.s
			s.Plan, s.Summary = target, planSummary(target, nil)
			if shown != namespace {
				s.Summary = "in namespace " + shown + ", " + s.Summary
			}
			out = append(out, s)
			return true
		})
	if err != nil {
		return out, fmt.Errorf("fixes for namespace %q: %w", namespace, err)
	}
	return out, nil
}

// fixes lists the candidate fixes of plan's failures, in rank order.
func (r *Resolver) fixes(ctx context.Context, ns string, state *cluster.State, plan *Plan, planned predict.Planned) []fix {
	set := fixSet{byKind: map[SuggestionKind][]fix{}}
	subs, failed := failingSubscriptions(ns, state, plan)
	pr := predict.New(ns, r.plat, state, planned)
	pr.SetBundleCRDs(ctx, r.opts.BundleCRDs, &r.crMemo)
	r.subscriptionFixes(&set, ns, state, subs, failed, pr)
	operatorGroupFixes(&set, ns, state)
	for _, s := range subs {
		for _, m := range r.moveTargets(ns, s, state) {
			set.add(m)
		}
	}
	return set.ranked()
}

// fixSet holds candidate fixes by kind, each change once.
type fixSet struct{ byKind map[SuggestionKind][]fix }

// add adds f, unless a fix of its kind makes the same change.
func (fs *fixSet) add(f fix) {
	if !slices.ContainsFunc(fs.byKind[f.s.Kind], func(g fix) bool { return g.s.Change == f.s.Change }) {
		fs.byKind[f.s.Kind] = append(fs.byKind[f.s.Kind], f)
	}
}

// ranked returns the fixes in rank order: kind by kind, each in the order
// added.
func (fs *fixSet) ranked() []fix {
	var out []fix
	for _, k := range []SuggestionKind{SuggestSwitchChannel, SuggestStartingCSV, SuggestOperatorGroup, SuggestMoveSubscription} {
		out = append(out, fs.byKind[k]...)
	}
	return out
}

// failingSubscriptions returns the subscriptions of ns whose step or
// staying CSV plan predicts to fail, each once, and the bundles of the
// failing steps.
func failingSubscriptions(ns string, state *cluster.State, plan *Plan) (subs []*cluster.Subscription, failed []string) {
	add := func(name string) {
		if s := state.Subscription(ns, name); s != nil && !slices.Contains(subs, s) {
			subs = append(subs, s)
		}
	}
	for _, st := range plan.Steps {
		if !predict.Failing(st.Predictions) || st.Reason.Subscription == "" {
			continue
		}
		failed = append(failed, st.Bundle)
		add(st.Reason.Subscription)
	}
	for _, u := range plan.Unchanged {
		if predict.Failing(u.Predictions) && u.Subscription != "" {
			add(u.Subscription)
		}
	}
	return subs, failed
}

// subscriptionFixes adds the fixes that edit a failing subscription: each
// other channel of its package, and, for one not installed yet, the
// startingCSV of a bundle the predictor pr accepts that is not among the
// failed.
func (r *Resolver) subscriptionFixes(set *fixSet, ns string, state *cluster.State, subs []*cluster.Subscription, failed []string, pr *predict.Predictor) {
	editSub := func(name string, edit func(*cluster.Subscription)) func(*cluster.State) (*cluster.State, string) {
		return func(state *cluster.State) (*cluster.State, string) {
			c := change{sub: name, edit: edit}
			return c.apply(ns, state), ns
		}
	}
	for _, s := range subs {
		name := s.Name
		for _, chName := range r.channelsFor(ns, s) {
			if chName == s.Channel {
				continue
			}
			set.add(fix{s: Suggestion{Kind: SuggestSwitchChannel, Subscription: name, Channel: chName,
				Change: fmt.Sprintf("switch subscription %s to channel %s", name, chName)},
				apply: editSub(name, func(x *cluster.Subscription) { x.Channel = chName })})
		}
		if installed := s.InstalledCSV != "" && state.CSV(ns, s.InstalledCSV) != nil; !installed {
			if b := r.acceptedBundle(ns, s, pr); b != nil && b.Name != s.StartingCSV && !slices.Contains(failed, b.Name) {
				bundle := b.Name
				set.add(fix{s: Suggestion{Kind: SuggestStartingCSV, Subscription: name, StartingCSV: bundle,
					Change: fmt.Sprintf("set the startingCSV of subscription %s to %s", name, bundle)},
					apply: editSub(name, func(x *cluster.Subscription) { x.StartingCSV = bundle })})
			}
		}
	}
}

// operatorGroupFixes adds the fixes that make the namespace's one
// OperatorGroup target the namespace alone, or all namespaces, where it
// does not already.
func operatorGroupFixes(set *fixSet, ns string, state *cluster.State) {
	groups := state.OperatorGroupsIn(ns)
	if len(groups) != 1 {
		return
	}
	g := groups[0]
	cur := predict.TargetsOf(g)
	for _, tns := range [][]string{{ns}, nil} {
		t := predict.Targets{Known: true, Namespaces: tns}
		if tns == nil {
			t = predict.AllNamespaces("")
		}
		if cur.Known && slices.Equal(cur.Namespaces, t.Namespaces) {
			continue
		}
		change := fmt.Sprintf("make OperatorGroup %s/%s target %s (%s)", g.Namespace, g.Name, t.Words(ns), targetSpec(tns))
		set.add(fix{s: Suggestion{Kind: SuggestOperatorGroup, OperatorGroup: g.Namespace + "/" + g.Name, TargetNamespaces: tns, Change: change},
			apply: func(state *cluster.State) (*cluster.State, string) {
				st := *state
				st.OperatorGroups = slices.Clone(state.OperatorGroups)
				for i := range st.OperatorGroups {
					if x := &st.OperatorGroups[i]; x.Namespace == g.Namespace && x.Name == g.Name {
						x.TargetNamespaces, x.Selector, x.StatusNamespaces = slices.Clone(tns), nil, nil
					}
				}
				return &st, ns
			}})
	}
}

// targetSpec renders target namespaces as the spec that gives them.
func targetSpec(tns []string) string {
	if len(tns) == 0 {
		return "no spec.targetNamespaces and no selector"
	}
	return "spec.targetNamespaces: [" + strings.Join(tns, ", ") + "]"
}

// acceptedBundle returns the most preferred candidate of subscription s
// (its channel's chain, head first; the default channel's when it names
// none) that OLM is predicted to accept in namespace ns, or nil.
func (r *Resolver) acceptedBundle(ns string, s *cluster.Subscription, pr *predict.Predictor) *graph.Bundle {
	for _, ci := range r.catalogs {
		if !r.visibleTo(ns, ci.key) || !takesFrom(s, ci.key) {
			continue
		}
		pi := ci.pkgs[s.Package]
		if pi == nil || len(pi.chans()) == 0 {
			continue
		}
		x := pi.chans()[0]
		if s.Channel != "" {
			x = pi.channel(s.Channel)
		}
		if x == nil {
			continue
		}
		for _, b := range x.cands {
			if b.CSVMetadata != nil && !b.Deprecated && !predict.Failing(pr.Bundle(b)) {
				return b
			}
		}
	}
	return nil
}

// moveTargets lists the moves of subscription s out of namespace ns: to
// each other namespace of the state that has exactly one OperatorGroup,
// then to a new namespace named after the subscription with an
// OperatorGroup that targets only itself, or all namespaces.
func (r *Resolver) moveTargets(ns string, s *cluster.Subscription, state *cluster.State) []fix {
	var out []fix
	existing := Namespaces(state)
	move := func(to string, og *cluster.OperatorGroup) fix {
		change := fmt.Sprintf("move subscription %s to namespace %s", s.Name, to)
		if og != nil {
			change = fmt.Sprintf("move subscription %s to a new namespace %s with OperatorGroup %s targeting %s (%s)", s.Name, to, og.Name, predict.TargetsOf(og).Words(to), targetSpec(og.TargetNamespaces))
		}
		if s.InstalledCSV != "" && state.CSV(ns, s.InstalledCSV) != nil {
			change += fmt.Sprintf(", removing installed CSV %s from %s", s.InstalledCSV, ns)
		}
		sg := Suggestion{Kind: SuggestMoveSubscription, Subscription: s.Name, Namespace: to, Change: change}
		if og != nil {
			sg.NewOperatorGroup = og.Name
			sg.TargetNamespaces = og.TargetNamespaces
		}
		return fix{s: sg, apply: func(state *cluster.State) (*cluster.State, string) {
			st := *state
			st.Subscriptions = slices.Clone(state.Subscriptions)
			for i := range st.Subscriptions {
				if x := &st.Subscriptions[i]; x.Namespace == ns && x.Name == s.Name {
					x.Namespace, x.InstalledCSV, x.CurrentCSV = to, "", ""
				}
			}
			if s.InstalledCSV != "" {
				st.CSVs = slices.DeleteFunc(slices.Clone(state.CSVs), func(c cluster.CSV) bool { return c.Namespace == ns && c.Name == s.InstalledCSV })
			}
			if og != nil {
				st.OperatorGroups = append(slices.Clone(state.OperatorGroups), *og)
			}
			return &st, to
		}}
	}
	for _, to := range existing {
		if to != ns && len(state.OperatorGroupsIn(to)) == 1 && state.Subscription(to, s.Name) == nil {
			out = append(out, move(to, nil))
		}
	}
	if name := s.Name; !slices.Contains(existing, name) && len(state.OperatorGroups) > 0 {
		out = append(out,
			move(name, &cluster.OperatorGroup{Name: name, Namespace: name, TargetNamespaces: []string{name}}),
			move(name, &cluster.OperatorGroup{Name: name, Namespace: name}))
	}
	return out
}
