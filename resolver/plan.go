package resolver

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/constraints"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver/predict"
)

// Action is what a plan step does.
type Action string

// The actions of a plan step.
const (
	// ActionInstall installs a bundle of a package that has no installed
	// CSV.
	ActionInstall Action = "install"
	// ActionUpgrade replaces an installed CSV (Step.Replaces) by a bundle
	// of the same subscription.
	ActionUpgrade Action = "upgrade"
)

// Plan is the result of resolving one namespace. Steps are in dependency
// order — every bundle after the bundles it depends on, ties broken by
// bundle name then package — and Unchanged is sorted by CSV name; in a
// plan Resolve returns neither is nil, so that both are JSON arrays. The
// caller owns the plan and its slices.
//
// A Plan's JSON form (encoding/json, as `sextant resolve -o json` prints
// it) is a stable contract: see docs/resolve.md.
type Plan struct {
	Namespace string      `json:"namespace"`
	Steps     []Step      `json:"steps"`
	Unchanged []Unchanged `json:"unchanged"`
	// Approval is the approval of the InstallPlan OLM creates for the
	// steps; the zero value is Automatic.
	Approval PlanApproval `json:"approval"`
	// InFlight lists what the resolution found under way in the
	// namespace, in a fixed order: replaced CSVs, subscriptions, then
	// InstallPlans by name, then CSVs by name.
	InFlight []InFlight `json:"inFlight,omitempty"`
	// Notes says what the predictions could not check (no OperatorGroup
	// in the manifests, a bundle without olm.csv.metadata, …), in a fixed
	// order; each with its code (predict.Note), written in JSON as its
	// text.
	Notes []predict.Note `json:"notes,omitempty"`
	// Excluded lists the invalid packages the resolution reached and left
	// out (Options.AllowInvalid), by catalog then package.
	Excluded []InvalidPackage `json:"excluded,omitempty"`
	// Fixes, set by Resolution.Fixes, are the confirmed fixes of the plan's
	// predicted failures (nil when it was not asked or found none).
	Fixes []Suggestion `json:"fixes,omitempty"`
}

// PlanApproval is the approval of a namespace's InstallPlan. As in OLM
// v0.28, one Manual subscription makes the InstallPlan of the whole
// namespace Manual, whichever steps it holds.
type PlanApproval struct {
	// Mode is cluster.ApprovalManual when some subscription of the
	// namespace is Manual, else empty (Automatic).
	Mode cluster.Approval `json:"mode,omitempty"`
	// Subscriptions names the Manual subscriptions, by name.
	Subscriptions []string `json:"subscriptions,omitempty"`
	// Waits is Plan.Waits when the plan was made: some step waits for a
	// person's approval.
	Waits bool `json:"waits"`
}

// MarshalJSON writes the approval with its mode always named: "Automatic"
// for the zero Mode.
func (a PlanApproval) MarshalJSON() ([]byte, error) {
	type plain PlanApproval
	p := plain(a)
	p.Mode = cmp.Or(p.Mode, cluster.ApprovalAutomatic)
	return json.Marshal(p)
}

// UnmarshalJSON reads what MarshalJSON writes: "Automatic" is the empty
// Mode again, so that a plan read back is the plan written.
func (a *PlanApproval) UnmarshalJSON(b []byte) error {
	type plain PlanApproval
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	if p.Mode == cluster.ApprovalAutomatic {
		p.Mode = ""
	}
	*a = PlanApproval(p)
	return nil
}

// Approval is what approval a step needs before OLM carries it out. The
// zero value is an Automatic step that no InstallPlan holds yet.
type Approval struct {
	// Mode is the approval of the InstallPlan that holds the step: an
	// InstallPlan in flight's spec.approval, else the plan's (empty for
	// Automatic).
	Mode cluster.Approval `json:"mode,omitempty"`
	// Subscription names the subscription that makes the step Manual: the
	// step's own when it is Manual, else the first Manual subscription of
	// the namespace. Empty for Automatic.
	Subscription string `json:"subscription,omitempty"`
	// InstallPlan names the InstallPlan of the input, not finished, that
	// already holds the step; Approved reports its spec.approved.
	InstallPlan string `json:"installPlan,omitempty"`
	Approved    bool   `json:"approved,omitempty"`
}

// Waits reports whether the step waits for a person to approve it.
func (a Approval) Waits() bool { return a.Mode == cluster.ApprovalManual && !a.Approved }

// String returns "" for an Automatic step not yet in an InstallPlan, or
// e.g. "Manual (subscription etcd), InstallPlan install-x, waits for
// approval".
func (a Approval) String() string {
	if a.Mode != cluster.ApprovalManual {
		if a.InstallPlan != "" {
			return "InstallPlan " + a.InstallPlan
		}
		return ""
	}
	s := string(cluster.ApprovalManual)
	if a.Subscription != "" {
		s += " (subscription " + a.Subscription + ")"
	}
	if a.InstallPlan != "" {
		s += ", InstallPlan " + a.InstallPlan
	}
	if a.Approved {
		s += ", approved"
	} else {
		s += ", waits for approval"
	}
	return s
}

// Waits reports whether some step of the plan waits for approval: OLM
// carries out none of the plan until a person approves it.
func (p *Plan) Waits() bool {
	for _, s := range p.Steps {
		if s.Approval.Waits() {
			return true
		}
	}
	return false
}

// Failing reports whether OLM is predicted to fail any step or any
// installed CSV that stays: a plan that will not succeed as it is.
func (p *Plan) Failing() bool {
	for _, s := range p.Steps {
		if predict.Failing(s.Predictions) {
			return true
		}
	}
	for _, u := range p.Unchanged {
		if predict.Failing(u.Predictions) {
			return true
		}
	}
	return false
}

// Step installs or upgrades one bundle.
type Step struct {
	Action  Action     `json:"action"`
	Package string     `json:"package"`
	Bundle  string     `json:"bundle"`
	Version string     `json:"version"`
	Channel string     `json:"channel"`
	Catalog CatalogKey `json:"catalog"`
	// Replaces names the installed CSV the step replaces (ActionUpgrade).
	Replaces string `json:"replaces,omitempty"`
	// Reason says why the bundle is in the plan.
	Reason Reason `json:"reason"`
	// Dependency reports that no subscription of the namespace asks for
	// this bundle (the package, the channel if the subscription names one,
	// the catalog if it names one): it is pulled in by a requirement, and
	// OLM creates a subscription for it.
	Dependency bool `json:"dependency"`
	// Warnings holds the olm.deprecations messages for the package, the
	// channel or the bundle of the step, in that order.
	Warnings []string `json:"warnings,omitempty"`
	// Predictions says what OLM's olm-operator will do with the CSV once
	// the step is applied, failures before warnings (DESIGN §8); empty
	// when nothing is predicted.
	Predictions []predict.Prediction `json:"predictions,omitempty"`
	// HeldBack, set by Resolution.HeldBack, says why the step goes
	// below its first preference (nil when it does not).
	HeldBack *HeldBack `json:"heldBack,omitempty"`
	// Approval is the approval the step needs (zero: Automatic).
	Approval Approval `json:"approval,omitzero"`
}

// stepBundle returns the catalog bundle a step of a plan of r installs, or
// an error naming what r's catalogs lack.
func (r *Resolver) stepBundle(st *Step) (*graph.Bundle, error) {
	ci := r.byKey[st.Catalog]
	if ci == nil {
		return nil, fmt.Errorf("step %q: no catalog %s", st.Bundle, st.Catalog)
	}
	b := ci.cat.Bundle(graph.BundleRef{Package: st.Package, Name: st.Bundle})
	if b == nil {
		return nil, fmt.Errorf("catalog %s has no bundle %q of package %q", st.Catalog, st.Bundle, st.Package)
	}
	return b, nil
}

// Reason says why a bundle is in a plan: a subscription asks for it, or a
// selected bundle (or installed CSV) requires it.
type Reason struct {
	// Subscription names the subscription whose choice the bundle is.
	Subscription string `json:"subscription,omitempty"`
	// RequiredBy names the bundle or installed CSV that requires it, and
	// Requirement the requirement, e.g.
	// "olm.gvk.required example.com/v1 Widget".
	RequiredBy  string `json:"requiredBy,omitempty"`
	Requirement string `json:"requirement,omitempty"`
}

// String returns "subscription foo" or
// "required by bar.v1.2.0 (olm.gvk.required example.com/v1 Widget)".
func (r Reason) String() string { return string(r.appendText(make([]byte, 0, 128))) }

// appendText appends the reason as String words it.
func (r Reason) appendText(b []byte) []byte {
	switch {
	case r.Subscription != "":
		b = append(b, "subscription "...)
		b = append(b, r.Subscription...)
	case r.RequiredBy != "" && r.Requirement != "":
		b = append(b, "required by "...)
		b = append(b, r.RequiredBy...)
		b = append(b, " ("...)
		b = append(b, r.Requirement...)
		b = append(b, ')')
	case r.RequiredBy != "":
		b = append(b, "required by "...)
		b = append(b, r.RequiredBy...)
	}
	return b
}

// MarshalText writes the reason as String words it: JSON holds
// "subscription foo" or "required by bar.v1.2.0 (olm.gvk.required
// example.com/v1 Widget)".
func (r Reason) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads what MarshalText writes.
func (r *Reason) UnmarshalText(b []byte) error {
	s := string(b)
	*r = Reason{}
	if sub, ok := strings.CutPrefix(s, "subscription "); ok {
		r.Subscription = sub
		return nil
	}
	if by, ok := strings.CutPrefix(s, "required by "); ok {
		if name, req, ok := strings.Cut(by, " ("); ok && strings.HasSuffix(req, ")") {
			r.RequiredBy, r.Requirement = name, strings.TrimSuffix(req, ")")
			return nil
		}
		r.RequiredBy = by
		return nil
	}
	if s == "" {
		return nil
	}
	return fmt.Errorf("invalid reason %q: want \"subscription NAME\" or \"required by NAME (REQUIREMENT)\"", s)
}

// Unchanged is an installed CSV that stays as it is. Its JSON names the
// CSV "bundle", as a step does.
type Unchanged struct {
	CSV     string `json:"bundle"`
	Package string `json:"package"`
	Version string `json:"version,omitempty"`
	// Subscription names the subscription whose installed CSV it is, if
	// any.
	Subscription string `json:"subscription,omitempty"`
	// Deprecations are the olm.deprecations entries of its package, of the
	// channel its subscription follows and of its bundle (as OLM's
	// PackageDeprecated, ChannelDeprecated and BundleDeprecated conditions
	// on the subscription), with the alternative to move to.
	Deprecations []Deprecation `json:"deprecations,omitempty"`
	// HeldBack, set by Resolution.HeldBack, says why it stays
	// although its subscription has a successor (nil when it does not).
	HeldBack *HeldBack `json:"heldBack,omitempty"`
	// Approval is the approval the step needs (zero: Automatic).
	Approval Approval `json:"approval,omitzero"`
	// Predictions says what OLM's olm-operator will do with the CSV as it
	// stays (DESIGN §8); empty when nothing is predicted.
	Predictions []predict.Prediction `json:"predictions,omitempty"`
}

// String renders the plan as `sextant resolve` prints it: WriteText with
// the title "namespace NAME", then its notes and fixes.
func (p *Plan) String() string {
	var b strings.Builder
	p.WriteText(&b, "namespace "+p.Namespace)
	for _, n := range p.Notes {
		fmt.Fprintf(&b, "note: %s\n", n.Text)
	}
	p.WriteFixes(&b)
	return b.String()
}

// chosenBy returns, per selected candidate of a subscription, the first
// subscription (in name order) whose choice it is. A resolution has one
// solution: the map is made once, for plan and heldItems both.
func (res *resolution) chosenBy(sol *constraints.Solution[variable]) map[variable]*subNode {
	if res.chosen != nil && res.chosenFor == sol {
		return res.chosen
	}
	chosen := make(map[variable]*subNode, len(res.subs))
	for _, s := range res.subs {
		for _, c := range s.cands {
			if _, ok := chosen[c]; !ok && sol.IsSelected(c) {
				chosen[c] = s
			}
		}
	}
	res.chosen, res.chosenFor = chosen, sol
	return chosen
}

// plan turns a solution into a Plan.
func (res *resolution) plan(sol *constraints.Solution[variable]) *Plan {
	// About a step or an unchanged CSV per subscription: reserved once.
	plan := &Plan{Namespace: res.ns, Steps: make([]Step, 0, len(res.subs)), Unchanged: make([]Unchanged, 0, len(res.installed))}
	chosenBy := res.chosenBy(sol)
	pr := predict.New(res.ns, res.r.plat, res.state, res.planned)
	pr.SetBundleCRDs(res.ctx, res.r.opts.BundleCRDs, &res.r.crMemo)
	res.pred = pr
	stepOf := make(map[variable]int, len(res.subs))
	polls := 0
	for v := range res.variables() {
		if polls++; res.poll(polls) != nil {
			return plan // the caller returns the context's error
		}
		if !sol.IsSelected(v) {
			continue
		}
		switch v.kind {
		case varInstalled:
			n := res.installed[v.idx]
			plan.Unchanged = append(plan.Unchanged, Unchanged{CSV: n.csv.Name, Package: n.pkg, Version: n.csv.VersionText, Subscription: n.owner, Predictions: pr.CSV(n.csv), Deprecations: res.stayDeprecations(n)})
		case varBundle:
			st := Step{
				Action:  ActionInstall,
				Package: v.b.Package,
				Bundle:  v.b.Name,
				Version: v.b.VersionText,
				Channel: v.ch.ch.Name,
				Catalog: v.ch.pkg.cat.key,
			}
			if s := chosenBy[v]; s != nil {
				st.Reason.Subscription = s.sub.Name
				if s.current != nil {
					st.Action, st.Replaces = ActionUpgrade, s.current.csv.Name
				}
			}
			st.Dependency = !res.subscribed(v)
			st.Warnings = deprecationWarnings(v)
			st.Predictions = pr.Bundle(v.b)
			if !predict.Failing(st.Predictions) {
				res.installs = append(res.installs, v.b.Provides...)
			}
			stepOf[v] = len(plan.Steps)
			plan.Steps = append(plan.Steps, st)
		}
	}
	// Requirements between selected bundles: reasons and order.
	after := make([][]int, len(plan.Steps)) // step → steps it depends on
	for _, d := range res.deps {
		if !sol.IsSelected(d.subject) {
			continue
		}
		from, fromStep := stepOf[d.subject]
		for _, c := range d.cands {
			if !sol.IsSelected(c) {
				continue
			}
			i, ok := stepOf[c]
			if !ok {
				continue
			}
			st := &plan.Steps[i]
			if st.Reason == (Reason{}) {
				st.Reason = Reason{RequiredBy: res.name(d.subject), Requirement: d.req.String()}
			}
			if fromStep && from != i {
				after[from] = append(after[from], i)
			}
		}
	}
	plan.Steps = orderSteps(plan.Steps, after)
	res.approve(plan)
	plan.Notes = pr.Notes()
	slices.SortFunc(plan.Unchanged, func(a, b Unchanged) int { return cmp.Compare(a.CSV, b.CSV) })
	return plan
}

// name names a bundle or an installed CSV.
func (res *resolution) name(v variable) string {
	switch v.kind {
	case varInstalled:
		return res.installed[v.idx].csv.Name
	case varBundle:
		return v.b.Name
	}
	return ""
}

// subscribed reports whether some subscription of the namespace asks for
// the bundle v, as OLM decides whether to create a subscription for it: the
// same package, the same channel if the subscription names one, the same
// catalog if it names one.
func (res *resolution) subscribed(v variable) bool {
	if res.subsByPkg == nil {
		res.subsByPkg = make(map[string][]*subNode, len(res.subs))
		for _, s := range res.subs {
			res.subsByPkg[s.sub.Package] = append(res.subsByPkg[s.sub.Package], s)
		}
	}
	for _, s := range res.subsByPkg[v.b.Package] {
		sub := s.sub
		if sub.Channel != "" && sub.Channel != v.ch.ch.Name {
			continue
		}
		if !takesFrom(sub, v.ch.pkg.cat.key) {
			continue
		}
		return true
	}
	return false
}

// deprecationWarnings returns the olm.deprecations messages that concern the
// package, the channel or the bundle of v.
func deprecationWarnings(v variable) []string {
	pkg := v.ch.pkg.pkg
	if len(pkg.Deprecations) == 0 {
		return nil
	}
	var out []string
	for _, d := range pkg.DeprecationsOf(graph.SchemaPackage, "") {
		out = append(out, warning("package", v.b.Package, d.Message))
	}
	for _, d := range pkg.DeprecationsOf(graph.SchemaChannel, v.ch.ch.Name) {
		out = append(out, warning("channel", v.ch.ch.Name, d.Message))
	}
	for _, d := range pkg.DeprecationsOf(graph.SchemaBundle, v.b.Name) {
		out = append(out, warning("bundle", v.b.Name, d.Message))
	}
	return out
}

func warning(what, name, msg string) string {
	if msg == "" {
		return fmt.Sprintf("%s %s is deprecated", what, name)
	}
	return fmt.Sprintf("%s %s is deprecated: %s", what, name, msg)
}

// orderSteps orders steps so that each comes after the steps it depends on
// (after[i]), ties broken by bundle name then package; a dependency cycle is
// broken at its smallest step. Its cost is n log n (a heap of ready steps,
// and one sorted list for breaking cycles).
func orderSteps(steps []Step, after [][]int) []Step {
	n := len(steps)
	less := func(i, j int) int {
		a, b := &steps[i], &steps[j]
		if c := cmp.Or(cmp.Compare(a.Bundle, b.Bundle), cmp.Compare(a.Package, b.Package), cmp.Compare(a.Channel, b.Channel)); c != 0 {
			return c
		}
		// Only here, not as an argument of cmp.Or: the strings are built
		// for the rare tie alone.
		if c := cmp.Compare(a.Catalog.String(), b.Catalog.String()); c != 0 {
			return c
		}
		return cmp.Compare(i, j) // equal steps: input order, as the scan had it
	}
	waiting := make([]int, n) // unmet dependencies
	users := make([][]int, n) // steps that depend on i
	for i, deps := range after {
		deps = slices.Compact(slices.Sorted(slices.Values(deps)))
		waiting[i] = len(deps)
		for _, d := range deps {
			users[d] = append(users[d], i)
		}
	}
	ready := &stepHeap{less: less}
	for i := range n {
		if waiting[i] == 0 {
			ready.push(i)
		}
	}
	var all []int // every step, smallest first: built on the first cycle
	next := 0     // all[:next] are done
	done := make([]bool, n)
	out := make([]Step, 0, n)
	for len(out) < n {
		// The smallest ready step; if none (a cycle), the smallest left.
		best := -1
		for len(ready.s) > 0 {
			if i := ready.pop(); !done[i] {
				best = i
				break
			}
		}
		if best < 0 {
			if all == nil {
				all = make([]int, n)
				for i := range all {
					all[i] = i
				}
				slices.SortFunc(all, less)
			}
			for done[all[next]] {
				next++
			}
			best = all[next]
		}
		done[best] = true
		out = append(out, steps[best])
		for _, u := range users[best] {
			if waiting[u]--; waiting[u] == 0 && !done[u] {
				ready.push(u)
			}
		}
	}
	return out
}

// stepHeap is a min-heap of step indexes under less.
type stepHeap struct {
	s    []int
	less func(i, j int) int
}

func (h *stepHeap) push(i int) {
	h.s = append(h.s, i)
	for c := len(h.s) - 1; c > 0; {
		p := (c - 1) / 2
		if h.less(h.s[c], h.s[p]) >= 0 {
			break
		}
		h.s[c], h.s[p] = h.s[p], h.s[c]
		c = p
	}
}

func (h *stepHeap) pop() int {
	top := h.s[0]
	last := len(h.s) - 1
	h.s[0] = h.s[last]
	h.s = h.s[:last]
	for p := 0; ; {
		c := 2*p + 1
		if c >= last {
			break
		}
		if c+1 < last && h.less(h.s[c+1], h.s[c]) < 0 {
			c++
		}
		if h.less(h.s[c], h.s[p]) >= 0 {
			break
		}
		h.s[c], h.s[p] = h.s[p], h.s[c]
		p = c
	}
	return top
}

// approve marks the plan and its steps with the approval they need, as
// OLM v0.28's catalog operator sets it: the namespace's InstallPlan is
// Manual when any subscription of the namespace is Manual (dependency
// subscriptions OLM creates are Automatic, but the InstallPlan that
// creates them is the namespace's); a step an InstallPlan in flight
// already holds has that plan's approval. It also copies what is in flight.
func (res *resolution) approve(plan *Plan) {
	for _, s := range res.subs {
		if s.sub.Manual() {
			plan.Approval.Mode = cluster.ApprovalManual
			plan.Approval.Subscriptions = append(plan.Approval.Subscriptions, s.sub.Name)
		}
	}
	if res.flight != nil {
		plan.InFlight = slices.Clone(res.flight.notes)
	}
	var manual map[string]int
	for i := range plan.Steps {
		st := &plan.Steps[i]
		a := Approval{Mode: plan.Approval.Mode}
		if a.Mode == cluster.ApprovalManual {
			a.Subscription = plan.Approval.Subscriptions[0]
			if manual == nil {
				// The first Manual subscription by name and by current
				// CSV: a lookup per step, not a scan.
				manual = map[string]int{}
				for i, s := range res.subs {
					if !s.sub.Manual() {
						continue
					}
					if _, ok := manual["s/"+s.sub.Name]; !ok {
						manual["s/"+s.sub.Name] = i
					}
					if s.current != nil {
						if _, ok := manual["c/"+s.current.csv.Name]; !ok {
							manual["c/"+s.current.csv.Name] = i
						}
					}
				}
			}
			first := -1
			if i, ok := manual["s/"+st.Reason.Subscription]; ok {
				first = i
			}
			if i, ok := manual["c/"+st.Replaces]; ok && st.Replaces != "" && (first < 0 || i < first) {
				first = i
			}
			if first >= 0 {
				a.Subscription = res.subs[first].sub.Name
			}
		}
		if res.flight != nil {
			if ip := res.flight.planFor(st.Bundle); ip != nil {
				a.InstallPlan = ip.Name
				if ip.Approval != "" {
					a.Mode = ip.Approval
				}
				if a.Mode != cluster.ApprovalManual {
					a.Subscription = ""
				}
				a.Approved = ip.Approved
			}
		}
		if a.Mode != cluster.ApprovalManual {
			a.Approved = false
		}
		st.Approval = a
	}
	plan.Approval.Waits = plan.Waits()
}
