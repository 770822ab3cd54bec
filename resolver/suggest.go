package resolver

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/internal/confirm"
	"github.com/sextantdev/sextant/internal/words"
)

// Defaults of ExplainOptions.
const (
	// DefaultMaxSuggestions is the number of suggestions Explain looks for
	// when ExplainOptions.MaxSuggestions is 0.
	DefaultMaxSuggestions = 5
	// DefaultMaxTries is the number of candidate changes Explain re-solves
	// at most when ExplainOptions.MaxTries is 0. A count, not a time, so
	// that the same input gives the same suggestions on any machine.
	DefaultMaxTries = 64
)

// ExplainOptions is the budget of the changes Resolution.Explain and
// Resolution.Fixes confirm by re-solving (see "Confirmed changes" in the
// package documentation). The zero value looks for up to
// DefaultMaxSuggestions changes among at most DefaultMaxTries candidates,
// with no time bound but the context's, so its result is deterministic.
type ExplainOptions struct {
	// MaxSuggestions is the most suggestions to return: 0 means
	// DefaultMaxSuggestions, a negative number none (Explain then only
	// builds the verdict and the derivation and never solves).
	MaxSuggestions int
	// MaxTries is the most candidate changes to re-solve: 0 means
	// DefaultMaxTries, a negative number no limit. Candidates are tried in
	// rank order, so a low limit drops the most disruptive suggestions
	// first; the result stays deterministic.
	MaxTries int
	// Budget, when positive, also bounds the time spent re-solving
	// candidate changes (0 or negative: no bound but the context's). A time
	// bound makes the suggestions depend on the machine's speed; use it
	// only where latency matters more than reproducible text.
	Budget time.Duration
}

// limits returns MaxSuggestions and MaxTries with 0 replaced by their
// defaults.
func (o ExplainOptions) limits() (max, tries int) {
	return cmp.Or(o.MaxSuggestions, DefaultMaxSuggestions), cmp.Or(o.MaxTries, DefaultMaxTries)
}

// SuggestionKind is the kind of change a Suggestion makes to the cluster
// state.
type SuggestionKind string

// Suggestion kinds, in rank order: least disruptive first. Changes that
// only loosen how a subscription is pinned come first (its startingCSV,
// then its channel, then its catalog — an exact change before dropping a
// pin altogether), then removals (an installed CSV no subscription
// references, then another subscription).
const (
	// SuggestDropStartingCSV: remove the subscription's spec.startingCSV.
	SuggestDropStartingCSV SuggestionKind = "drop-starting-csv"
	// SuggestSwitchChannel: set the subscription's spec.channel to Channel.
	SuggestSwitchChannel SuggestionKind = "switch-channel"
	// SuggestAnyChannel: clear the subscription's spec.channel (the
	// package's default channel first, then the others).
	SuggestAnyChannel SuggestionKind = "any-channel"
	// SuggestSwitchCatalog: set the subscription's spec.source and
	// spec.sourceNamespace to Catalog.
	SuggestSwitchCatalog SuggestionKind = "switch-catalog"
	// SuggestAnyCatalog: clear the subscription's spec.source and
	// spec.sourceNamespace (any visible catalog, in preference order).
	SuggestAnyCatalog SuggestionKind = "any-catalog"
	// SuggestRemoveCSV: delete the installed CSV named CSV, which no
	// subscription references.
	SuggestRemoveCSV SuggestionKind = "remove-csv"
	// SuggestRemoveSubscription: delete the subscription (not the one the
	// verdict is about); its installed CSV, if any, stays.
	SuggestRemoveSubscription SuggestionKind = "remove-subscription"
)

// Suggestion is a change to the cluster state that was applied to a copy
// of the state and re-solved: Plan is the plan the namespace then gets.
// Which of Subscription, CSV, Channel and Catalog are set depends on Kind.
type Suggestion struct {
	Kind SuggestionKind `json:"kind"`
	// Subscription is the subscription changed or removed.
	Subscription string `json:"subscription,omitempty"`
	// CSV is the installed CSV removed.
	CSV string `json:"csv,omitempty"`
	// Channel is the new channel (SuggestSwitchChannel).
	Channel string `json:"channel,omitempty"`
	// Catalog is the new catalog (SuggestSwitchCatalog).
	Catalog CatalogKey `json:"catalog,omitzero"`
	// StartingCSV is the new startingCSV (SuggestStartingCSV).
	StartingCSV string `json:"startingCSV,omitempty"`
	// OperatorGroup is the OperatorGroup changed, "namespace/name"
	// (SuggestOperatorGroup).
	OperatorGroup string `json:"operatorGroup,omitempty"`
	// Namespace is the namespace a subscription moves to, and
	// NewOperatorGroup the name of the OperatorGroup to create there when
	// it is a new namespace (SuggestMoveSubscription).
	Namespace        string `json:"namespace,omitempty"`
	NewOperatorGroup string `json:"newOperatorGroup,omitempty"`
	// TargetNamespaces are the target namespaces of the OperatorGroup
	// changed or created; empty means all namespaces.
	TargetNamespaces []string `json:"targetNamespaces,omitempty"`
	// Change says the change in words, e.g. "switch subscription etcd to
	// channel beta".
	Change string `json:"change"`
	// Summary says briefly what Plan does: at most three of its steps,
	// those about packages the conflict names first, e.g. "installs
	// widget-operator.v2.0.0 (channel v2, catalog olm/community)".
	Summary string `json:"summary"`
	// Plan is the confirmed plan with the change applied.
	Plan *Plan `json:"plan"`
}

// String returns the change and its summary: "change: summary".
func (s Suggestion) String() string {
	return s.Change + ": " + s.Summary
}

// planSummary says what a plan does in one clause: at most three steps,
// the steps about the focus packages first, each group in plan order.
func planSummary(p *Plan, focus []string) string {
	if p == nil || len(p.Steps) == 0 {
		return "resolves with no install or upgrade"
	}
	steps := make([]Step, 0, len(p.Steps))
	for _, st := range p.Steps {
		if slices.Contains(focus, st.Package) {
			steps = append(steps, st)
		}
	}
	for _, st := range p.Steps {
		if !slices.Contains(focus, st.Package) {
			steps = append(steps, st)
		}
	}
	const show = 3
	var parts []string
	for i, st := range steps {
		if i == show && len(steps) > show+1 {
			parts = append(parts, fmt.Sprintf("%d more step(s)", len(steps)-show))
			break
		}
		if st.Action == ActionUpgrade {
			parts = append(parts, fmt.Sprintf("upgrades %s to %s (channel %s, catalog %s)", st.Replaces, st.Bundle, st.Channel, st.Catalog))
		} else {
			parts = append(parts, fmt.Sprintf("installs %s (channel %s, catalog %s)", st.Bundle, st.Channel, st.Catalog))
		}
	}
	return words.Join(parts, "and")
}

// Explain explains why the namespace has no plan: the conflict's verdict,
// its derivation and suggestions — changes to the state (see
// SuggestionKind) that Explain applied to a copy of the state and
// re-solved, keeping only those that give a plan (the rule of "Confirmed
// changes" in the package documentation). Suggestions are ranked
// by kind (SuggestionKind lists them least disruptive first), then by the
// order of the subscriptions in the facts, the package's channel order
// (default first) and the catalogs' preference; a change whose plan equals
// that of a better-ranked one is left out. At most opts.MaxSuggestions are
// returned, found among the first opts.MaxTries candidate changes (and
// within opts.Budget when set).
//
// Resolve pays nothing for suggestions (a plan costs what it did; a
// conflict adds only its facts' notes): they cost only when Explain is
// called, one resolution per candidate change (typically a few per
// subscription in the conflict), bounded by MaxTries. The resolver's
// Tracer sees each.
//
// It returns an error when the namespace has a plan or no conflict
// (Resolution.Err is another error). When ctx ends before the suggestions
// are complete, it returns the explanation with the suggestions confirmed
// so far and an error e with errors.Is(e, ctx.Err()); reaching MaxTries or
// the Budget is not an error.
func (s *Resolution) Explain(ctx context.Context, opts ExplainOptions) (*Explanation, error) {
	conflict := s.Conflict()
	if conflict == nil {
		return nil, fmt.Errorf("explain namespace %q: no conflict to explain", s.ns)
	}
	return s.r.explain(ctx, s.ns, s.state, conflict, opts)
}

// explain is Explain of a state the resolver owns.
func (r *Resolver) explain(ctx context.Context, namespace string, state *cluster.State, conflict *ConflictError, opts ExplainOptions) (*Explanation, error) {
	ex := conflict.Explanation()
	max, tries := opts.limits()
	if max < 0 {
		return ex, nil
	}
	if state == nil {
		state = &cluster.State{}
	}
	var kept planKeys // the plans of the suggestions kept
	focus := factPackages(ex.Facts)
	_, err := confirm.Pipelined(ctx, confirm.Budget{Max: max, Tries: tries, Time: opts.Budget}, r.confirmWorkers(), r.changes(namespace, state, ex),
		func(ctx context.Context, c change) (*Plan, error) {
			return r.solvePlan(ctx, namespace, c.apply(namespace, state), nil)
		},
		func(c change, plan *Plan) bool {
			if !kept.add("", plan) {
				return false
			}
			s := c.s
			s.Plan, s.Summary = plan, planSummary(plan, focus)
			ex.Suggestions = append(ex.Suggestions, s)
			return true
		})
	if err != nil {
		return ex, fmt.Errorf("explain namespace %q: %w", namespace, err)
	}
	return ex, nil
}

// change is a candidate suggestion before it is confirmed.
type change struct {
	s Suggestion
	// sub is the subscription changed or removed; csv the CSV removed.
	sub string
	csv string
	// edit changes a copy of the subscription (nil: remove it).
	edit func(*cluster.Subscription)
}

// apply returns a copy of state with the change made. The copy shares
// everything but the slice it changes.
func (c change) apply(ns string, state *cluster.State) *cluster.State {
	st := *state
	switch {
	case c.csv != "":
		st.CSVs = slices.DeleteFunc(slices.Clone(state.CSVs), func(x cluster.CSV) bool { return x.Namespace == ns && x.Name == c.csv })
	case c.edit == nil:
		st.Subscriptions = slices.DeleteFunc(slices.Clone(state.Subscriptions), func(x cluster.Subscription) bool { return x.Namespace == ns && x.Name == c.sub })
	default:
		st.Subscriptions = slices.Clone(state.Subscriptions)
		for i := range st.Subscriptions {
			if s := &st.Subscriptions[i]; s.Namespace == ns && s.Name == c.sub {
				c.edit(s)
			}
		}
	}
	return &st
}

// changes lists the candidate changes for an explanation, in rank order.
func (r *Resolver) changes(ns string, state *cluster.State, ex *Explanation) []change {
	var subs []*cluster.Subscription
	for i := range ex.Facts {
		f := &ex.Facts[i]
		if !isSubscriptionKind(f.Kind) {
			continue
		}
		s := state.Subscription(ns, f.Subscription)
		if s != nil && !slices.Contains(subs, s) {
			subs = append(subs, s)
		}
	}
	installedCSV := func(s *cluster.Subscription) bool {
		return s.InstalledCSV != "" && state.CSV(ns, s.InstalledCSV) != nil
	}
	byKind := map[SuggestionKind][]change{}
	add := func(c change) { byKind[c.s.Kind] = append(byKind[c.s.Kind], c) }
	for _, s := range subs {
		name := s.Name
		if s.StartingCSV != "" && !installedCSV(s) {
			add(change{sub: name, s: Suggestion{Kind: SuggestDropStartingCSV, Subscription: name,
				Change: fmt.Sprintf("drop startingCSV %s from subscription %s", s.StartingCSV, name)},
				edit: func(x *cluster.Subscription) { x.StartingCSV = "" }})
		}
		for _, chName := range r.channelsFor(ns, s) {
			if chName == s.Channel {
				continue
			}
			add(change{sub: name, s: Suggestion{Kind: SuggestSwitchChannel, Subscription: name, Channel: chName,
				Change: fmt.Sprintf("switch subscription %s to channel %s", name, chName)},
				edit: func(x *cluster.Subscription) { x.Channel = chName }})
		}
		if s.Channel != "" {
			add(change{sub: name, s: Suggestion{Kind: SuggestAnyChannel, Subscription: name,
				Change: fmt.Sprintf("clear the channel of subscription %s (now %s)", name, s.Channel)},
				edit: func(x *cluster.Subscription) { x.Channel = "" }})
		}
		cur, named := SubscriptionCatalog(s)
		for _, k := range r.catalogsFor(ns, s.Package) {
			if k == cur {
				continue
			}
			add(change{sub: name, s: Suggestion{Kind: SuggestSwitchCatalog, Subscription: name, Catalog: k,
				Change: fmt.Sprintf("switch subscription %s to catalog %s", name, k)},
				edit: func(x *cluster.Subscription) { x.Source, x.SourceNamespace = k.Name, k.Namespace }})
		}
		if named {
			add(change{sub: name, s: Suggestion{Kind: SuggestAnyCatalog, Subscription: name,
				Change: fmt.Sprintf("clear the catalog of subscription %s (now %s)", name, cur)},
				edit: func(x *cluster.Subscription) { x.Source, x.SourceNamespace = "", "" }})
		}
	}
	for i := range ex.Facts {
		if f := &ex.Facts[i]; f.Kind == FactInstalled {
			add(change{csv: f.CSV, s: Suggestion{Kind: SuggestRemoveCSV, CSV: f.CSV,
				Change: fmt.Sprintf("remove installed CSV %s, which no subscription references", f.CSV)}})
		}
	}
	for _, s := range subs {
		if s.Name == ex.Verdict.Subscription {
			continue
		}
		add(change{sub: s.Name, s: Suggestion{Kind: SuggestRemoveSubscription, Subscription: s.Name,
			Change: fmt.Sprintf("remove subscription %s", s.Name)}})
	}
	var out []change
	for _, k := range []SuggestionKind{SuggestDropStartingCSV, SuggestSwitchChannel, SuggestAnyChannel, SuggestSwitchCatalog, SuggestAnyCatalog, SuggestRemoveCSV, SuggestRemoveSubscription} {
		out = append(out, byKind[k]...)
	}
	return out
}

// visibleTo reports whether catalog k serves namespace ns.
func (r *Resolver) visibleTo(ns string, k CatalogKey) bool {
	return k.Namespace == ns || k.Namespace == r.global
}

// channelsFor lists the channels a subscription could name: those of its
// package in its catalog (or in every visible catalog when it names none),
// default channel first, then by name, without repeats.
func (r *Resolver) channelsFor(ns string, s *cluster.Subscription) []string {
	var out []string
	for _, ci := range r.catalogs {
		if !r.visibleTo(ns, ci.key) || !takesFrom(s, ci.key) {
			continue
		}
		pi := ci.pkgs[s.Package]
		if pi == nil {
			continue
		}
		for _, x := range pi.chans() {
			if len(x.ch.Entries) > 0 && !slices.Contains(out, x.ch.Name) {
				out = append(out, x.ch.Name)
			}
		}
	}
	return out
}

// catalogsFor lists the visible catalogs that have package pkg, by key.
func (r *Resolver) catalogsFor(ns, pkg string) []CatalogKey {
	var out []CatalogKey
	for _, ci := range r.catalogs {
		if pi := ci.pkgs[pkg]; r.visibleTo(ns, ci.key) && pi != nil && len(pi.pkg.Bundles) > 0 {
			out = append(out, ci.key)
		}
	}
	return out
}

// factPackages lists the packages that facts name, in order of first
// mention.
func factPackages(facts []Fact) []string {
	var out []string
	add := func(p string) {
		if p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for i := range facts {
		add(facts[i].Package)
		for _, c := range facts[i].Candidates {
			add(c.Package)
		}
	}
	return out
}
