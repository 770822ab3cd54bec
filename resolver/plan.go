package resolver

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/constraints"
	"github.com/sextantdev/sextant/graph"
)

// plan turns a solution into a Plan.
func (res *resolution) plan(sol *constraints.Solution[variable]) *Plan {
	plan := &Plan{Namespace: res.ns, Steps: []Step{}, Unchanged: []Unchanged{}}
	// The subscription whose choice each selected bundle is.
	chosenBy := map[variable]*subNode{}
	for _, s := range res.subs {
		for _, c := range s.cands {
			if _, ok := chosenBy[c]; !ok && sol.IsSelected(c) {
				chosenBy[c] = s
			}
		}
	}
	pr := newPredictor(res.ns, res.r.plat, res.state, res.planned)
	res.pred = pr
	stepOf := map[variable]int{}
	var installs []graph.GVK
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
			plan.Unchanged = append(plan.Unchanged, Unchanged{CSV: n.csv.Name, Package: n.pkg, Version: n.csv.VersionText, Subscription: n.owner, Predictions: pr.installed(n), Deprecations: res.stayDeprecations(n)})
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
			st.Predictions = pr.bundle(v.b)
			if !failing(st.Predictions) {
				installs = append(installs, v.b.Provides...) // sorted once, below
			}
			stepOf[v] = len(plan.Steps)
			plan.Steps = append(plan.Steps, st)
		}
	}
	res.installs = unionGVKs(res.installs, installs)
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
	plan.Notes = pr.finish()
	plan.planned = res.planned
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
		if sub.Source != "" && (CatalogKey{Namespace: sub.SourceNamespace, Name: sub.Source}) != v.ch.pkg.cat.key {
			continue
		}
		return true
	}
	return false
}

// deprecationWarnings returns the olm.deprecations messages that concern the
// package, the channel or the bundle of v.
func deprecationWarnings(v variable) []string {
	var pkgW, chW, bW []string
	for _, d := range v.ch.pkg.pkg.Deprecations {
		switch d.Reference.Schema {
		case "olm.package":
			pkgW = append(pkgW, warning("package", v.b.Package, d.Message))
		case "olm.channel":
			if d.Reference.Name == v.ch.ch.Name {
				chW = append(chW, warning("channel", v.ch.ch.Name, d.Message))
			}
		case "olm.bundle":
			if d.Reference.Name == v.b.Name {
				bW = append(bW, warning("bundle", v.b.Name, d.Message))
			}
		}
	}
	return slices.Concat(pkgW, chW, bW)
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

// conflict translates a conflict core into facts.
func (res *resolution) conflict(core []constraints.Constraint[variable, reason]) *ConflictError {
	ce := &ConflictError{Namespace: res.ns, Facts: make([]Fact, 0, len(core))}
	for _, c := range core {
		ce.Facts = append(ce.Facts, res.fact(c))
	}
	return ce
}

func (res *resolution) fact(c constraints.Constraint[variable, reason]) Fact {
	r := c.Reason
	f := Fact{Kind: r.kind}
	if s := r.sub; s != nil {
		f.Subscription = s.sub.Name
		f.Package = s.sub.Package
		f.Channel = s.sub.Channel
		f.Catalog = s.catalog
		f.StartingCSV = s.sub.StartingCSV
		if r.kind == FactNoStartingCSV {
			f.Bundle = s.sub.StartingCSV
		}
		if isMissingKind(r.kind) {
			f.Notes = res.exclusionNotes(s, r.kind)
		}
		if s.current != nil && (r.kind == FactSubscription || r.kind == FactSubscriptionCandidates) {
			f.CSV = s.current.csv.Name
		}
	}
	switch r.kind {
	case FactSubscriptionCandidates:
		f.Candidates = res.candidateList(c.Vars)
	case FactInstalled, FactDeprecated, FactRequirement:
		res.subjectFact(&f, r.subject)
		if q := r.req; q != nil {
			f.Property = q.Type()
			f.Value = string(q.Property.Value)
			f.Requirement = q.What()
			if q.Constraint != nil {
				f.FailureMessage = q.Constraint.FailureMessage
			}
			f.Candidates = res.candidateList(c.Vars)
			if len(c.Vars) == 0 {
				f.Notes = res.nearMisses(q, r.subject)
			}
		}
	case FactReplacement:
		f.Channel, f.Catalog = "", CatalogKey{}
		res.subjectFact(&f, r.subject)
		if s := r.sub; s != nil && s.current != nil {
			f.CSV = s.current.csv.Name
		}
	case FactOnePerPackage:
		f.Package = r.pkg
		f.Candidates = res.candidateList(c.Vars)
	case FactOnePerAPI:
		f.Property = graph.TypeGVK
		f.Value = string(graph.GVKProperty(r.gvk).Value)
		f.Requirement = r.gvk.String()
		f.Candidates = res.candidateList(c.Vars)
	}
	return f
}

// subjectFact fills the subject of a fact: a bundle or an installed CSV.
func (res *resolution) subjectFact(f *Fact, v variable) {
	switch v.kind {
	case varInstalled:
		n := res.installed[v.idx]
		f.CSV, f.Package, f.Version = n.csv.Name, n.pkg, n.csv.VersionText
	case varBundle:
		f.Bundle, f.Package, f.Version = v.b.Name, v.b.Package, v.b.VersionText
		f.Channel, f.Catalog = v.ch.ch.Name, v.ch.pkg.cat.key
	}
}

func (res *resolution) candidateList(vs []variable) []Candidate {
	out := make([]Candidate, 0, len(vs))
	for _, v := range vs {
		switch v.kind {
		case varInstalled:
			n := res.installed[v.idx]
			out = append(out, Candidate{Package: n.pkg, Bundle: n.csv.Name, Version: n.csv.VersionText, Installed: true})
		case varBundle:
			out = append(out, Candidate{Catalog: v.ch.pkg.cat.key, Package: v.b.Package, Channel: v.ch.ch.Name, Bundle: v.b.Name, Version: v.b.VersionText})
		}
	}
	return out
}

// nearMisses says, for a requirement q of subject that no candidate
// satisfies, what comes close in the visible catalogs: the versions of a
// required package, and bundles that would satisfy q but are not candidates
// (skipped in every channel). The notes are sorted.
func (res *resolution) nearMisses(q *requirement, subject variable) []string {
	var notes []string
	if q.Kind == graph.RequirePackage {
		for _, ci := range res.visible {
			pi := ci.pkgs[q.Package.Package]
			if pi == nil || len(pi.pkg.Bundles) == 0 {
				continue
			}
			vs := make([]semver.Version, 0, len(pi.pkg.Bundles))
			for _, b := range pi.pkg.Bundles {
				if v, ok := b.ValidVersion(); ok {
					vs = append(vs, v)
				}
			}
			slices.SortFunc(vs, func(a, b semver.Version) int { return a.Compare(b) })
			vs = slices.CompactFunc(vs, func(a, b semver.Version) bool { return a.Equals(b) })
			if len(vs) == 0 {
				notes = append(notes, fmt.Sprintf("catalog %s has package %s, but no bundle of it has a valid version", ci.key, q.Package.Package))
				continue
			}
			notes = append(notes, fmt.Sprintf("catalog %s has package %s at %s, none in range %s", ci.key, q.Package.Package, versionList(vs), q.Package.Range))
		}
		if len(notes) == 0 {
			notes = append(notes, fmt.Sprintf("no visible catalog has package %s", q.Package.Package))
		}
	}
	for _, ci := range res.visible {
		for _, b := range res.generate(ci, q) {
			if !res.matchBundle(q, b) {
				continue
			}
			pi := ci.pkgs[b.Package]
			if pi == nil {
				continue
			}
			for _, chName := range b.Channels {
				if x := pi.byName[chName]; x != nil && x.position(b.Name) < 0 {
					notes = append(notes, fmt.Sprintf("%s (channel %s, catalog %s) would satisfy it, but another entry skips it, so it is never a candidate", b.Name, chName, ci.key))
				}
			}
		}
	}
	notes = append(notes, res.excludedMisses(q)...)
	slices.Sort(notes)
	return slices.Compact(notes)
}

// versionList renders sorted versions, at most 8 of them: "0.6.1, 0.9.0,
// 0.9.2" or "0.1.0, 0.2.0, … 1.4.0 (12 versions)".
func versionList(vs []semver.Version) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = v.String()
	}
	if len(s) <= 8 {
		return strings.Join(s, ", ")
	}
	return fmt.Sprintf("%s, … %s (%d versions)", strings.Join(s[:6], ", "), s[len(s)-1], len(s))
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
