package resolver

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/constraints"
	"github.com/sextantdev/sextant/internal/words"
)

// WhyKind says what a Why's name was found as.
type WhyKind string

// The kinds of names Resolution.Why answers for.
const (
	// WhySubscription: the name is a subscription of the namespace.
	WhySubscription WhyKind = "subscription"
	// WhyBundle: the name is a bundle of a catalog or an installed CSV.
	WhyBundle WhyKind = "bundle"
	// WhyPackage: the name is a package.
	WhyPackage WhyKind = "package"
)

// WhyOptions tunes Resolution.Why. The zero value forces one passed-over
// candidate (the first that ranks before the choice) to find why it was
// excluded.
type WhyOptions struct {
	// MaxForced is the most passed-over candidates that Why forces, one
	// solve each, to find why each was excluded: 0 means 1, a negative
	// number none.
	MaxForced int
}

// Why says why a package, bundle or subscription is in a namespace's plan
// at its version, channel and catalog — what put it there, the rules that
// chose that channel, catalog and version, and the better-looking
// candidates passed over with the rule that ranks each below — or why it
// is not in the plan. It is plain data and encodes to JSON with the field
// names below; String is the short text and Full the whole.
type Why struct {
	Namespace string `json:"namespace"`
	// Name is the name asked about and Kind what it was found as.
	Name string  `json:"name"`
	Kind WhyKind `json:"kind"`
	// Selected is the bundle or installed CSV the plan has for the name;
	// nil when the name is not in the plan.
	Selected *Candidate `json:"selected,omitempty"`
	// Action is what the plan does with Selected: "install", "upgrade",
	// "unchanged", or "absent" when it is not in the plan.
	Action string `json:"action"`
	// Summary is the first line: what the plan does and, in brief, why.
	Summary string `json:"summary"`
	// Chain says what put Selected there, from Selected up to a
	// subscription or an installed CSV that must stay: each link is one
	// subscription's choice or one requirement.
	Chain []WhyLink `json:"chain,omitempty"`
	// Rules are the preference rules that chose the catalog, the channel
	// and the version of Selected, one sentence each.
	Rules []string `json:"rules,omitempty"`
	// Alternatives are the candidates of the same choice that look better
	// (ranked before it, a higher version, another catalog or channel)
	// with the rule that put each below Selected, in candidate order.
	Alternatives []Alternative `json:"alternatives,omitempty"`
	// NotInPlan says, for a name not in the plan, why not, one sentence
	// each.
	NotInPlan []string `json:"notInPlan,omitempty"`
}

// WhyLink is one link of a Why's chain: Bundle (or installed CSV, with
// Installed) is in the plan because subscription Subscription takes it, or
// because RequiredBy requires it through Requirement (property type and
// what it requires, e.g. "olm.gvk.required rabbitmq.com/v1beta1
// RabbitmqCluster").
type WhyLink struct {
	Bundle       string `json:"bundle"`
	Installed    bool   `json:"installed,omitempty"`
	Subscription string `json:"subscription,omitempty"`
	RequiredBy   string `json:"requiredBy,omitempty"`
	Requirement  string `json:"requirement,omitempty"`
	// Stays reports an installed CSV with no subscription, which must
	// stay (the chain's root).
	Stays bool `json:"stays,omitempty"`
}

// String states the link: "B is the choice of subscription S", "B is required
// by R through REQUIREMENT" or "installed CSV B has no subscription and
// must stay".
func (l WhyLink) String() string {
	name := l.Bundle
	if l.Installed {
		name = "installed CSV " + l.Bundle
	}
	switch {
	case l.Subscription != "":
		return fmt.Sprintf("%s is the choice of subscription %s", name, l.Subscription)
	case l.RequiredBy != "":
		return fmt.Sprintf("%s is required by %s through %s", name, l.RequiredBy, l.Requirement)
	case l.Stays:
		return name + " has no subscription and must stay"
	}
	return name
}

// Alternative is a candidate passed over, and the rule that put it below
// the choice. Preferred reports a candidate that ranks before the choice
// (so something excluded it; Rule says what, when it was forced); the
// others rank after it.
type Alternative struct {
	Candidate Candidate `json:"candidate"`
	Preferred bool      `json:"preferred,omitempty"`
	Rule      string    `json:"rule"`
}

// String returns "candidate: rule".
func (a Alternative) String() string { return a.Candidate.String() + ": " + a.Rule }

// shortAlternatives is the number of alternatives String prints.
const shortAlternatives = 3

// String returns the short text: the summary, the chain, the rules and at
// most three alternatives (or the reasons it is not in the plan). Every
// line ends with a newline.
func (w *Why) String() string { return w.text(shortAlternatives) }

// Full returns the whole text: every alternative.
func (w *Why) Full() string { return w.text(0) }

func (w *Why) text(max int) string {
	var b strings.Builder
	b.WriteString(w.Summary + "\n")
	for _, l := range w.Chain {
		fmt.Fprintf(&b, "  %s\n", l)
	}
	for _, r := range w.Rules {
		fmt.Fprintf(&b, "  %s\n", r)
	}
	for _, n := range w.NotInPlan {
		fmt.Fprintf(&b, "  %s\n", n)
	}
	if len(w.Alternatives) > 0 {
		b.WriteString("  passed over:\n")
	}
	for i, a := range w.Alternatives {
		if max > 0 && i == max && len(w.Alternatives) > max+1 {
			fmt.Fprintf(&b, "    and %d more (the full text lists them)\n", len(w.Alternatives)-max)
			break
		}
		fmt.Fprintf(&b, "    %s\n", a)
	}
	return b.String()
}

// Why says why name — a subscription of the namespace, a bundle or
// installed CSV, or a package — is in the plan at its version, channel and
// catalog, or why it is not (see Why). It reads the solution Resolve
// found, then forces at most opts.MaxForced passed-over candidates (one
// solve each) to find what excluded them: a fixed number of solves, so the
// cost is bounded and the answer deterministic.
//
// It returns the Resolution's error when the namespace has no plan (a
// *ConflictError: Explain it), and an error when no subscription, bundle or
// package has that name.
func (s *Resolution) Why(ctx context.Context, name string, opts WhyOptions) (*Why, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s.err != nil {
		return nil, s.err
	}
	forced := opts.MaxForced
	if forced == 0 {
		forced = 1
	}
	s.use(ctx)
	defer s.mu.Unlock()
	wa := &whyAsk{r: s.r, ctx: ctx, state: s.state, res: s.res, sol: s.sol, forced: forced}
	return wa.why(name)
}

// whyAsk is one Why call.
type whyAsk struct {
	r      *Resolver
	ctx    context.Context
	state  *cluster.State
	res    *resolution
	sol    *constraints.Solution[variable]
	forced int // passed-over candidates left to force
}

// find returns the variable whose key is name, the first selected one if
// any, else the first; ok is false when no variable has that key.
func (wa *whyAsk) find(key func(variable) string, name string) (v variable, ok bool) {
	for u := range wa.res.variables() {
		if key(u) != name {
			continue
		}
		if wa.sol.IsSelected(u) {
			return u, true
		}
		if !ok {
			v, ok = u, true
		}
	}
	return v, ok
}

func (wa *whyAsk) why(name string) (*Why, error) {
	res, sol := wa.res, wa.sol
	w := &Why{Namespace: res.ns, Name: name}
	var target variable
	var sub *subNode
	for _, s := range res.subs {
		if s.sub.Name == name {
			sub, w.Kind = s, WhySubscription
			target = res.taken(s, sol)
			break
		}
	}
	if w.Kind == "" {
		if v, ok := wa.find(res.name, name); ok {
			target, w.Kind = v, WhyBundle
		} else if v, ok := wa.find(res.pkgOf, name); ok {
			target, w.Kind = v, WhyPackage
		}
	}
	if w.Kind == "" {
		return wa.unreached(w, name)
	}
	if target.kind == 0 || !sol.IsSelected(target) {
		return wa.notSelected(w, sub, target)
	}
	c := res.candidateList([]variable{target})[0]
	w.Selected = &c
	w.Action, w.Summary = wa.action(target)
	w.Chain = wa.chain(target)
	from, list := wa.choiceList(target)
	w.Rules = wa.rules(target, from)
	w.Alternatives = wa.alternatives(target, list, from)
	return w, nil
}

// taken returns the variable a subscription got in sol (a candidate or
// the installed CSV), or the zero variable.
func (res *resolution) taken(s *subNode, sol *constraints.Solution[variable]) variable {
	for _, c := range s.cands {
		if sol.IsSelected(c) {
			return c
		}
	}
	if s.current != nil {
		if v := (variable{kind: varInstalled, idx: s.current.idx}); sol.IsSelected(v) {
			return v
		}
	}
	return variable{}
}

// action says what the plan does with the selected v, and the summary.
func (wa *whyAsk) action(v variable) (string, string) {
	res := wa.res
	if v.kind == varInstalled {
		n := res.installed[v.idx]
		return "unchanged", fmt.Sprintf("%s %s (package %s) stays as it is", n.csv.Name, n.csv.VersionText, n.pkg)
	}
	act := string(ActionInstall)
	verb := "installs"
	for _, s := range res.subs {
		if s.current != nil && slices.Contains(s.cands, v) {
			act, verb = string(ActionUpgrade), "upgrades "+s.current.csv.Name+" to"
		}
	}
	return act, fmt.Sprintf("the plan %s %s (package %s %s, channel %s, catalog %s)", verb, v.b.Name, v.b.Package, v.b.VersionText, v.ch.ch.Name, v.ch.pkg.cat.key)
}

// link says what put v in the solution: the first subscription (by name)
// that takes it, else the first requirement (in resolution order) of a
// selected subject it meets, else, for an installed CSV with no
// subscription, that it stays. ok is false when nothing does.
func (wa *whyAsk) link(v variable) (l WhyLink, by variable, ok bool) {
	res, sol := wa.res, wa.sol
	l = WhyLink{Bundle: res.name(v), Installed: v.kind == varInstalled}
	for _, s := range res.subs {
		if res.taken(s, sol) == v {
			l.Subscription = s.sub.Name
			return l, variable{}, true
		}
	}
	for _, d := range res.deps {
		if !sol.IsSelected(d.subject) || d.subject == v || !slices.Contains(d.cands, v) {
			continue
		}
		l.RequiredBy = res.name(d.subject)
		if d.subject.kind == varInstalled {
			l.RequiredBy = "installed CSV " + l.RequiredBy
		}
		l.Requirement = d.req.String()
		return l, d.subject, true
	}
	if v.kind == varInstalled && !res.installed[v.idx].subscribed {
		l.Stays = true
		return l, variable{}, true
	}
	return l, variable{}, false
}

// chain follows links from v to a subscription or an installed CSV that
// stays, at most once through each variable.
func (wa *whyAsk) chain(v variable) []WhyLink {
	var out []WhyLink
	seen := map[variable]bool{}
	for v.kind != 0 && !seen[v] {
		seen[v] = true
		l, by, ok := wa.link(v)
		if !ok {
			break
		}
		out = append(out, l)
		v = by
	}
	return out
}

// chooser is the choice a variable was made in: a subscription's
// candidates, or a requirement's.
type chooser struct {
	sub *subNode
	dep *dependency
}

// choiceList returns the choice v was made in and its candidate list, most
// preferred first.
func (wa *whyAsk) choiceList(v variable) (chooser, []variable) {
	res, sol := wa.res, wa.sol
	for _, s := range res.subs {
		if res.taken(s, sol) == v {
			cands := s.cands
			if s.current != nil {
				cands = append(slices.Clip(cands), variable{kind: varInstalled, idx: s.current.idx})
			}
			return chooser{sub: s}, cands
		}
	}
	for i := range res.deps {
		d := &res.deps[i]
		if sol.IsSelected(d.subject) && d.subject != v && slices.Contains(d.cands, v) {
			return chooser{dep: d}, d.cands
		}
	}
	return chooser{}, nil
}

// rules states why v's catalog, channel and version were chosen.
func (wa *whyAsk) rules(v variable, from chooser) []string {
	if v.kind == varInstalled {
		switch {
		case from.sub != nil && len(from.sub.cands) == 0:
			return []string{"no entry of the subscription's channel upgrades from it, so it stays"}
		case from.sub != nil:
			return []string{"staying is the subscription's last choice: every upgrade candidate is passed over (below)"}
		case from.dep != nil:
			return []string{"installed CSVs meet a requirement before any catalog entry"}
		}
		return nil
	}
	var out []string
	key, ch := v.ch.pkg.cat.key, v.ch.ch.Name
	pkgName := v.b.Package
	nch := 0
	for _, x := range v.ch.pkg.chans() {
		if len(x.ch.Entries) > 0 {
			nch++
		}
	}
	switch {
	case from.sub != nil && !from.sub.catalog.IsZero():
		out = append(out, fmt.Sprintf("catalog %s: subscription %s names it", key, from.sub.sub.Name))
	case from.sub != nil:
		out = append(out, fmt.Sprintf("catalog %s: subscription %s names no catalog, and %s ranks first among the visible catalogs with package %s that have a candidate it can take", key, from.sub.sub.Name, key, pkgName))
	case from.dep != nil && from.dep.subject.kind == varBundle && from.dep.subject.ch.pkg.cat == v.ch.pkg.cat:
		out = append(out, fmt.Sprintf("catalog %s: the catalog of the requiring bundle %s, whose entries come first", key, from.dep.subject.b.Name))
	case from.dep != nil:
		out = append(out, fmt.Sprintf("catalog %s: it ranks first, by priority, namespace and name, among the catalogs with a candidate that works", key))
	}
	switch {
	case from.sub != nil && from.sub.sub.Channel != "":
		out = append(out, fmt.Sprintf("channel %s: subscription %s names it", ch, from.sub.sub.Name))
	case v.ch.isDefault && nch == 1:
		out = append(out, fmt.Sprintf("channel %s: the default channel of package %s, and its only one", ch, pkgName))
	case v.ch.isDefault:
		out = append(out, fmt.Sprintf("channel %s: the default channel of package %s, whose candidates come first", ch, pkgName))
	default:
		def := v.ch.pkg.pkg.DefaultChannel
		out = append(out, fmt.Sprintf("channel %s: not the default channel %s of package %s, whose candidates come first but are passed over (below)", ch, def, pkgName))
	}
	head := v.ch.cands[0]
	switch {
	case v.idx == 0:
		out = append(out, fmt.Sprintf("version %s: the head of channel %s", v.b.VersionText, ch))
	case from.sub != nil && from.sub.current != nil:
		out = append(out, fmt.Sprintf("version %s: a successor of installed %s in channel %s (the head is %s %s)", v.b.VersionText, from.sub.current.csv.Name, ch, head.Name, head.VersionText))
	default:
		out = append(out, fmt.Sprintf("version %s: below the head %s %s of channel %s, which is passed over (below)", v.b.VersionText, head.Name, head.VersionText, ch))
	}
	return out
}

// alternatives lists the better-looking candidates of the choice: those
// ranked before v (forced, at most wa.forced of them, to find what
// excluded them), and those after it with a higher version or in another
// catalog or channel, with the rule that ranks them below v.
func (wa *whyAsk) alternatives(v variable, list []variable, from chooser) []Alternative {
	res := wa.res
	var out []Alternative
	before := true
	for _, c := range list {
		if c == v {
			before = false
			continue
		}
		if c.kind != varBundle {
			continue
		}
		cand := res.candidateList([]variable{c})[0]
		if before {
			out = append(out, Alternative{Candidate: cand, Preferred: true, Rule: wa.excluded(c)})
			continue
		}
		if v.kind == varBundle && c.ch == v.ch && !c.b.Version.GT(v.b.Version) {
			continue // an older entry of the same channel: not better-looking
		}
		out = append(out, Alternative{Candidate: cand, Rule: wa.ranksBelow(c, v, from)})
	}
	if v.kind == varBundle {
		out = append(out, skippedAbove(v)...)
	}
	return out
}

// skippedAbove lists the entries of v's channel with a higher version than
// v that another entry skips: never candidates (OLM's chain walk omits
// them), in channel order.
func skippedAbove(v variable) []Alternative {
	var out []Alternative
	x := v.ch
	for _, name := range x.ch.Order() {
		if !x.ch.IsSkipped(name) {
			continue
		}
		b := x.pkg.pkg.Bundle(name)
		if b == nil || !b.Version.GT(v.b.Version) {
			continue
		}
		var by []string
		for _, e := range x.ch.Entries {
			if slices.Contains(e.Skips, name) {
				by = append(by, e.Name)
			}
		}
		out = append(out, Alternative{
			Candidate: Candidate{Catalog: x.pkg.cat.key, Package: b.Package, Channel: x.ch.Name, Bundle: b.Name, Version: b.VersionText},
			Rule:      fmt.Sprintf("skipped by %s, so never a candidate", words.Join(by, "and")),
		})
	}
	return out
}

// excluded says why c, ranked before the choice, was not taken: the
// held-back reason of forcing it, while forcing is left.
func (wa *whyAsk) excluded(c variable) string {
	if c.b.Deprecated {
		return "ranks first but is deprecated (olm.deprecated), so never selected"
	}
	if wa.forced <= 0 {
		return "ranks first but is excluded (not forced: the solve budget is spent)"
	}
	wa.forced--
	it := heldItem{preferred: c, chosen: c}
	h, err := wa.r.heldBack(wa.ctx, wa.res.ns, wa.state, wa.res, wa.sol, it, -1)
	if err != nil {
		return "ranks first but is excluded (" + err.Error() + ")"
	}
	return "ranks first but is excluded" + heldBecause(h)
}

// ranksBelow names the rule that puts c after v in the choice's order.
func (wa *whyAsk) ranksBelow(c, v variable, from chooser) string {
	res := wa.res
	if v.kind == varInstalled {
		return "installed CSVs come first"
	}
	cc, vc := c.ch.pkg.cat, v.ch.pkg.cat
	if cc != vc {
		if from.dep != nil && from.dep.subject.kind == varBundle && from.dep.subject.ch.pkg.cat == vc {
			return fmt.Sprintf("catalog %s is not the requiring bundle's catalog %s, which comes first", cc.key, vc.key)
		}
		if res.rank[cc.ord] > res.rank[vc.ord] {
			return fmt.Sprintf("catalog %s ranks below %s (priority, then the namespace's own catalogs before the global ones, then name)", cc.key, vc.key)
		}
		return fmt.Sprintf("catalog %s ranks below %s", cc.key, vc.key)
	}
	if c.ch != v.ch {
		if v.ch.isDefault {
			return fmt.Sprintf("channel %s is not the default channel %s, which comes first", c.ch.ch.Name, v.ch.ch.Name)
		}
		if c.b.Package != v.b.Package {
			return fmt.Sprintf("package %s comes after %s (packages by name)", c.b.Package, v.b.Package)
		}
		return fmt.Sprintf("channel %s comes after %s (channels other than the default by name)", c.ch.ch.Name, v.ch.ch.Name)
	}
	return fmt.Sprintf("later in channel %s", c.ch.ch.Name)
}

// notSelected explains a name that is in the problem but not in the plan:
// its most preferred variable is forced to find what excludes it.
func (wa *whyAsk) notSelected(w *Why, sub *subNode, v variable) (*Why, error) {
	res := wa.res
	w.Action = "absent"
	if sub != nil {
		w.Summary = fmt.Sprintf("subscription %s gets nothing in the plan", sub.sub.Name)
		if sub.missing != "" {
			f := Fact{Kind: sub.missing, Subscription: sub.sub.Name, Package: sub.sub.Package, Channel: sub.sub.Channel, Bundle: sub.sub.StartingCSV, Catalog: sub.catalog}
			w.NotInPlan = append(w.NotInPlan, f.String())
		}
		return w, nil
	}
	name := res.name(v)
	w.Summary = fmt.Sprintf("%s is not in the plan", w.Name)
	if v.kind == varBundle {
		w.NotInPlan = append(w.NotInPlan, fmt.Sprintf("%s is a candidate (channel %s, catalog %s) but is not chosen", name, v.ch.ch.Name, v.ch.pkg.cat.key))
	}
	if v.kind == varInstalled {
		for _, s := range res.subs {
			if s.current != nil && s.current.idx == v.idx {
				if t := res.taken(s, wa.sol); t.kind == varBundle {
					w.NotInPlan = append(w.NotInPlan, fmt.Sprintf("installed CSV %s is replaced by %s %s: subscription %s upgrades it", name, t.b.Name, t.b.VersionText, s.sub.Name))
					return w, nil
				}
			}
		}
		w.NotInPlan = append(w.NotInPlan, fmt.Sprintf("installed CSV %s is replaced", name))
		return w, nil
	}
	it := heldItem{preferred: v, chosen: v}
	h, err := wa.r.heldBack(wa.ctx, res.ns, wa.state, res, wa.sol, it, -1)
	if err != nil {
		return nil, err
	}
	switch {
	case len(h.Facts) > 0:
		w.NotInPlan = append(w.NotInPlan, "it is excluded"+heldBecause(h))
	case len(h.Displaces) > 0:
		w.NotInPlan = append(w.NotInPlan, "it would be possible, but choices made before it win: with it, "+words.Join(h.Displaces, "and"))
	default:
		w.NotInPlan = append(w.NotInPlan, "nothing needs it: the choices that could take it are met by more preferred candidates")
	}
	return w, nil
}

// unreached explains a name the resolution never considered: a bundle or
// package of a visible catalog that nothing in the namespace asks for or
// can take, or a name nothing has.
func (wa *whyAsk) unreached(w *Why, name string) (*Why, error) {
	res := wa.res
	w.Action = "absent"
	for _, ci := range res.visible {
		if pi := ci.pkgs[name]; pi != nil {
			w.Kind = WhyPackage
			w.Summary = fmt.Sprintf("package %s is not in the plan", name)
			w.NotInPlan = append(w.NotInPlan, fmt.Sprintf("nothing in namespace %s asks for it: no subscription names package %s and no bundle the plan considers requires what it provides", res.ns, name))
			return w, nil
		}
	}
	for _, ci := range res.visible {
		for _, p := range ci.cat.Packages() {
			b := p.Bundle(name)
			if b == nil {
				continue
			}
			w.Kind = WhyBundle
			w.Summary = fmt.Sprintf("bundle %s (package %s %s) is not in the plan", name, b.Package, b.VersionText)
			pi := ci.pkgs[b.Package]
			var skipped []string
			for _, chName := range b.Channels {
				if x := pi.channel(chName); x != nil && x.position(name) < 0 {
					skipped = append(skipped, chName)
				}
			}
			if len(skipped) > 0 {
				w.NotInPlan = append(w.NotInPlan, fmt.Sprintf("it is off the replacement chain or skipped by another entry in channel %s (catalog %s), so it is never a candidate", words.Join(skipped, "and"), ci.key))
			}
			for _, s := range res.subs {
				if s.sub.Package == b.Package && s.current != nil {
					w.NotInPlan = append(w.NotInPlan, fmt.Sprintf("subscription %s has installed %s %s and takes only the entries that upgrade it directly, and the installed CSV", s.sub.Name, s.current.csv.Name, s.current.csv.VersionText))
				}
			}
			w.NotInPlan = append(w.NotInPlan, fmt.Sprintf("no subscription or requirement of namespace %s can take it: it is never a candidate of this resolution", res.ns))
			return w, nil
		}
	}
	return nil, fmt.Errorf("why %q: no subscription of namespace %q, and no package or bundle of a catalog it sees, has that name", name, res.ns)
}
