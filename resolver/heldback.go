package resolver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/constraints"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/confirm"
	"github.com/sextantdev/sextant/internal/words"
)

// factForced is the reason kind of the constraint that forces a passed-over
// candidate; it never reaches a Fact.
const factForced FactKind = "forced"

// HeldBack says why an operator stays below what it could reach: a
// subscription that keeps its installed CSV although a successor exists, a
// subscription that takes a less preferred candidate than its first, or a
// dependency installed below the head of its channel. Preferred is the
// candidate passed over; Facts is a minimal set of facts that excludes it,
// found by asking the solver (Preferred made mandatory, the conflict core
// taken, the forcing itself left out); Reason says it in one sentence.
//
// When forcing Preferred is possible, the choice was lost to an earlier
// preference rather than excluded: Facts is empty and Displaces names the
// choices Preferred would change.
//
// Change, when set, is a change to the cluster state that was applied to
// a copy of the state and re-solved, and with which the operator moves
// (its plan has a step to a higher version of the package).
//
// A HeldBack is plain data and encodes to JSON with the field names below.
type HeldBack struct {
	// Package is the package held back; Version the version it stays at
	// or goes to.
	Package string `json:"package"`
	Version string `json:"version"`
	// Subscription is the subscription held back, when a subscription is.
	Subscription string `json:"subscription,omitempty"`
	// Preferred is the candidate passed over.
	Preferred Candidate `json:"preferred"`
	// Reason is the whole sentence, e.g. "db-operator stays at 1.5.0: its
	// next version 2.0.0 (db-operator.v2.0.0) is excluded because
	// app.v1.0.0 requires db-operator <2.0.0 (olm.package.required)".
	Reason string `json:"reason"`
	// Facts is the minimal set of facts that excludes Preferred, in the
	// order of ConflictError.Facts.
	Facts []Fact `json:"facts,omitempty"`
	// Displaces names what Preferred would change, when it is not
	// excluded: e.g. "subscription app would take app.v1 instead of
	// app.v2".
	Displaces []string `json:"displaces,omitempty"`
	// Change is a confirmed change that lets the operator move, if one was
	// found.
	Change *Suggestion `json:"change,omitempty"`
}

// String returns the reason, then the change, if any: "reason; it moves
// with: change: summary".
func (h *HeldBack) String() string {
	if h.Change == nil {
		return h.Reason
	}
	return h.Reason + "; it moves with: " + h.Change.String()
}

// DefaultHeldBackTries is the number of candidate changes HeldBack
// re-solves at most per held-back item, to find one that lets it move,
// when HeldBackOptions.MaxTries is 0.
const DefaultHeldBackTries = 8

// HeldBackOptions tunes Resolution.HeldBack. The zero value asks the
// solver once per held-back item (the reason) and re-solves at most
// DefaultHeldBackTries candidate changes per item to find a confirmed one
// (the rule of "Confirmed changes" in the package documentation).
type HeldBackOptions struct {
	// MaxTries is the most candidate changes re-solved per held-back item
	// to find one that lets it move: 0 means DefaultHeldBackTries, a
	// negative number no limit (as in ExplainOptions).
	MaxTries int
	// ReasonsOnly re-solves no candidate change: one solve per item, the
	// reason alone (MaxTries is then not read).
	ReasonsOnly bool
}

// tries returns the most candidate changes to re-solve per item: 0 for
// ReasonsOnly, MaxTries with 0 replaced by DefaultHeldBackTries and a
// negative number by no limit.
func (o HeldBackOptions) tries() int {
	switch {
	case o.ReasonsOnly:
		return 0
	case o.MaxTries < 0:
		return math.MaxInt
	}
	return cmp.Or(o.MaxTries, DefaultHeldBackTries)
}

// HeldBack returns a copy of the plan with the HeldBack of every step and
// unchanged operator that is held back set. Items are what Resolve chose
// below its first preference: a subscription that stays or takes a later
// candidate than its first, and a dependency below the head of its
// channel. For each it solves once with the passed-over candidate forced,
// and re-solves at most opts.MaxTries changes (see HeldBackOptions): a
// fixed number of solves per item, so the cost is bounded and the result
// deterministic. When every choice was its first preference it returns at
// once. The answer is kept: asking again with the same options costs
// nothing.
//
// It returns an error for a namespace without a plan, and an error e with
// errors.Is(e, ctx.Err()) when ctx ends first.
func (s *Resolution) HeldBack(ctx context.Context, opts HeldBackOptions) (*Plan, error) {
	if s.plan == nil {
		return nil, s.noPlan("explain held back")
	}
	tries := opts.tries()
	s.use(ctx)
	defer s.mu.Unlock()
	if s.heldPlan != nil && s.heldTries == tries {
		return s.heldPlan.Clone(), nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	plan := s.plan.Clone()
	at := newAttacher(plan)
	for _, it := range s.heldItems() {
		h, err := s.r.heldBack(ctx, s.ns, s.state, s.res, s.sol, it, tries)
		if err != nil {
			return nil, err
		}
		at.attach(it, h)
	}
	s.heldPlan, s.heldTries = plan, tries
	return plan.Clone(), nil
}

// heldItems returns the choices below their first preference, listed
// once; s.mu is held.
func (s *Resolution) heldItems() []heldItem {
	if !s.heldDone {
		s.held, s.heldDone = s.res.heldItems(s.sol), true
	}
	return s.held
}

// heldItem is one choice below its first preference.
type heldItem struct {
	sub       *subNode // the subscription, or nil for a dependency
	chosen    variable // the selected bundle or installed CSV
	preferred variable // the candidate passed over
	// csv names the installed CSV that stays (an unchanged item), bundle
	// the bundle of the step (a step item).
	csv, bundle string
}

// attacher finds the step or unchanged entry of a plan that a held-back
// item is about, in constant time.
type attacher struct {
	unchanged map[string]*Unchanged // by CSV, the first of a name
	steps     map[[2]string]*Step   // by bundle and package, the first
}

func newAttacher(plan *Plan) attacher {
	a := attacher{unchanged: make(map[string]*Unchanged, len(plan.Unchanged)), steps: make(map[[2]string]*Step, len(plan.Steps))}
	for i := range plan.Unchanged {
		if u := &plan.Unchanged[i]; a.unchanged[u.CSV] == nil {
			a.unchanged[u.CSV] = u
		}
	}
	for i := range plan.Steps {
		k := [2]string{plan.Steps[i].Bundle, plan.Steps[i].Package}
		if a.steps[k] == nil {
			a.steps[k] = &plan.Steps[i]
		}
	}
	return a
}

// attach sets h on the unchanged entry (by CSV) or, failing that, the step
// (by bundle and package) that it is about.
func (a attacher) attach(it heldItem, h *HeldBack) {
	if u := a.unchanged[it.csv]; it.csv != "" && u != nil {
		u.HeldBack = h
		return
	}
	if s := a.steps[[2]string{it.bundle, h.Package}]; it.bundle != "" && s != nil {
		s.HeldBack = h
	}
}

// heldItems lists the choices of sol below their first preference:
// subscriptions in name order, then dependencies in variable order.
func (res *resolution) heldItems(sol *constraints.Solution[variable]) []heldItem {
	var items []heldItem
	bySub := res.chosenBy(sol)
	for _, s := range res.subs {
		if len(s.cands) == 0 { // none, or a subscription with none (missing)
			continue
		}
		first := s.cands[0]
		if sol.IsSelected(first) {
			continue
		}
		it := heldItem{sub: s, preferred: first}
		if s.current != nil && sol.IsSelected(variable{kind: varInstalled, idx: s.current.idx}) {
			it.chosen = variable{kind: varInstalled, idx: s.current.idx}
			it.csv = s.current.csv.Name
		} else {
			for _, c := range s.cands {
				if sol.IsSelected(c) {
					it.chosen, it.bundle = c, c.b.Name
					break
				}
			}
		}
		if it.chosen.kind == 0 {
			continue
		}
		items = append(items, it)
	}
	for v := range res.variables() {
		if v.kind != varBundle || bySub[v] != nil || !sol.IsSelected(v) || v.idx <= 0 || len(v.ch.cands) == 0 {
			continue
		}
		head := variable{kind: varBundle, idx: 0, ch: v.ch, b: v.ch.cands[0]}
		items = append(items, heldItem{chosen: v, preferred: head, bundle: v.b.Name})
	}
	return items
}

// heldBack explains one item: it forces the preferred candidate and
// translates the core, then looks for a confirmed change.
func (r *Resolver) heldBack(ctx context.Context, ns string, state *cluster.State, base *resolution, baseSol *constraints.Solution[variable], it heldItem, tries int) (*HeldBack, error) {
	pref := it.preferred
	h := &HeldBack{
		Package:   pref.b.Package,
		Preferred: base.candidateList([]variable{pref})[0],
	}
	switch it.chosen.kind {
	case varInstalled:
		h.Version = base.installed[it.chosen.idx].csv.VersionText
	case varBundle:
		h.Version = it.chosen.b.VersionText
	}
	if it.sub != nil {
		h.Subscription = it.sub.sub.Name
	}
	res, err := r.prepare(ctx, ns, state, []variable{pref})
	if err != nil {
		return nil, err
	}
	sol, err := constraints.Solve(ctx, &res.p)
	var unsat *constraints.UnsatError[variable, reason]
	switch {
	case errors.As(err, &unsat):
		for _, c := range unsat.Core {
			if c.Reason.kind != factForced {
				h.Facts = append(h.Facts, res.fact(c))
			}
		}
	case err != nil:
		return nil, fmt.Errorf("explain held back %s in namespace %q: %w", h.Package, ns, err)
	default:
		h.Displaces = base.displaced(baseSol, res, sol)
	}
	h.Reason = heldHead(it, h) + heldBecause(h)
	if tries > 0 {
		if err := r.heldBackChange(ctx, ns, state, it, h, tries); err != nil {
			return nil, err
		}
	}
	return h, nil
}

// heldHead is the first half of a held-back sentence: what stays where,
// and what is passed over.
func heldHead(it heldItem, h *HeldBack) string {
	p := h.Preferred
	switch {
	case it.csv != "":
		return fmt.Sprintf("%s stays at %s: its next version %s (%s) is excluded", h.Package, h.Version, p.Version, p.Bundle)
	case it.sub != nil && it.sub.current != nil:
		return fmt.Sprintf("%s goes to %s, not to its first candidate %s (%s, channel %s), which is excluded", h.Package, h.Version, p.Version, p.Bundle, p.Channel)
	case it.sub != nil:
		return fmt.Sprintf("%s gets %s, not its first candidate %s (%s, channel %s), which is excluded", h.Package, h.Version, p.Version, p.Bundle, p.Channel)
	}
	return fmt.Sprintf("%s gets %s, below %s (%s), the head of channel %s, which is excluded", h.Package, h.Version, p.Version, p.Bundle, p.Channel)
}

// heldFacts is the most facts a held-back sentence states.
const heldFacts = 3

// heldBecause is the second half: " because …", from the facts, or from
// what the preferred candidate would displace.
func heldBecause(h *HeldBack) string {
	if len(h.Facts) == 0 {
		if len(h.Displaces) == 0 {
			return ", although nothing forbids it"
		}
		return " because choices made before it win: with it, " + words.Join(h.Displaces, "and")
	}
	var key, glue []string
	for i := range h.Facts {
		f := &h.Facts[i]
		switch f.Kind {
		case FactSubscription, FactSubscriptionCandidates, FactOnePerPackage, FactReplacement:
			glue = append(glue, f.String())
			continue
		}
		key = append(key, heldFactText(f, h.Preferred))
	}
	if len(key) == 0 {
		key = glue
	}
	key = slices.Compact(key)
	if len(key) > heldFacts+1 {
		key = append(key[:heldFacts], fmt.Sprintf("and %d more fact(s) (its facts list them all)", len(key)-heldFacts))
	}
	return " because " + strings.Join(key, "; ")
}

// heldFactText states a fact of a held-back reason, naming the preferred
// candidate "it".
func heldFactText(f *Fact, pref Candidate) string {
	self := f.Bundle == pref.Bundle && f.Catalog == pref.Catalog && f.Channel == pref.Channel
	switch f.Kind {
	case FactRequirement:
		subject := subjectName(f)
		if self {
			subject = "it"
		}
		s := fmt.Sprintf("%s requires %s (%s)", subject, f.Requirement, f.Property)
		if f.FailureMessage != "" {
			s += fmt.Sprintf(" (%q)", f.FailureMessage)
		}
		switch {
		case self && len(f.Candidates) == 0:
			s += ", which nothing satisfies"
		case self:
			s += ", satisfied only by " + candidateList(f.Candidates, "or")
		case f.Property == graph.TypeGVKRequired:
			s += ", which " + pref.Bundle + " does not provide"
		case f.Property == graph.TypeLabelRequired:
			s += ", which " + pref.Bundle + " does not have"
		}
		return s
	case FactDeprecated:
		if self {
			return "it is deprecated (olm.deprecated)"
		}
	case FactOnePerAPI:
		var others []string
		for _, c := range f.Candidates {
			if c.Bundle != pref.Bundle {
				others = append(others, c.String())
			}
		}
		return fmt.Sprintf("it provides API %s, as %s does, and at most one provider of an API can be installed", f.Requirement, words.Join(others, "and"))
	}
	return f.String()
}

// displaced says what forcing a candidate changes: each subscription whose
// choice in sol (of res) differs from its choice in baseSol (of base).
func (base *resolution) displaced(baseSol *constraints.Solution[variable], res *resolution, sol *constraints.Solution[variable]) []string {
	var out []string
	for i, s := range res.subs {
		bs := base.subs[i]
		was, now := base.choice(bs, baseSol), res.choice(s, sol)
		if was != now && was != "" && now != "" {
			out = append(out, fmt.Sprintf("subscription %s would take %s instead of %s", s.sub.Name, now, was))
		}
	}
	return out
}

// choice names the bundle or installed CSV a subscription got in sol.
func (res *resolution) choice(s *subNode, sol *constraints.Solution[variable]) string {
	if v := res.taken(s, sol); v.kind != 0 {
		return res.name(v)
	}
	return ""
}

// heldBackChange looks for a confirmed change that lets the item move: the
// candidate changes of a conflict made of the held-back facts, in rank
// order, each re-solved; the first whose plan upgrades the package to a
// higher version wins. At most tries changes are re-solved.
func (r *Resolver) heldBackChange(ctx context.Context, ns string, state *cluster.State, it heldItem, h *HeldBack, tries int) error {
	if len(h.Facts) == 0 {
		return nil
	}
	if state == nil {
		state = &cluster.State{}
	}
	ex := &Explanation{Namespace: ns, Facts: h.Facts, Verdict: Verdict{Subscription: h.Subscription}}
	cur, err := semver.ParseTolerant(h.Version)
	if err != nil {
		return nil
	}
	// Removing the held subscription does not move it: not a candidate.
	cands := slices.DeleteFunc(r.changes(ns, state, ex), func(c change) bool { return c.sub == h.Subscription && c.edit == nil })
	_, err = confirm.Pipelined(ctx, confirm.Budget{Max: 1, Tries: tries}, r.confirmWorkers(), cands,
		func(ctx context.Context, c change) (*Plan, error) {
			return r.solvePlan(ctx, ns, c.apply(ns, state), nil)
		},
		func(c change, plan *Plan) bool {
			if !moves(plan, h.Package, cur) {
				return false
			}
			s := c.s
			s.Plan, s.Summary = plan, planSummary(plan, []string{h.Package})
			h.Change = &s
			return true
		})
	if err != nil {
		return fmt.Errorf("explain held back %s in namespace %q: %w", h.Package, ns, err)
	}
	return nil
}

// moves reports whether plan has a step to a version of pkg above cur.
func moves(plan *Plan, pkg string, cur semver.Version) bool {
	for _, st := range plan.Steps {
		if st.Package != pkg {
			continue
		}
		if v, err := semver.ParseTolerant(st.Version); err == nil && v.GT(cur) {
			return true
		}
	}
	return false
}
