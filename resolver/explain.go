package resolver

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/words"
)

// DefaultDerivationLines is the number of lines of the derivation that
// Explanation.String prints, the conclusion included.
const DefaultDerivationLines = 9

// Explanation says why a namespace cannot be resolved, in the order a
// person reads it: a one-line Verdict, then a Derivation that reads as a
// proof ("because …, and …, so …") built from a minimal set of Facts, then
// Suggestions — changes to the cluster state that were re-solved and
// confirmed to give a plan.
//
// An Explanation is plain data: it encodes to JSON with the field names
// below (stable), and depends only on the conflict's facts and, for the
// suggestions, on the resolver and the state — never on solver internals or
// map order. The caller owns it and its slices.
type Explanation struct {
	// Namespace is the namespace that could not be resolved.
	Namespace string `json:"namespace"`
	// Verdict is what cannot be done, and the short reason.
	Verdict Verdict `json:"verdict"`
	// Facts is the conflict's minimal set of facts (ConflictError.Facts):
	// together they make resolution impossible, and without any one of
	// them it is possible.
	Facts []Fact `json:"facts"`
	// Derivation is the whole proof, one clause per line: the first
	// clause's Connective is "because", the last one's "so". Every fact
	// is cited by exactly one clause.
	Derivation []Clause `json:"derivation"`
	// Suggestions are confirmed changes, least disruptive first (see
	// Resolution.Explain); empty when there is none or when they were not
	// asked for.
	Suggestions []Suggestion `json:"suggestions,omitempty"`
}

// VerdictAction is what a verdict says cannot be done.
type VerdictAction string

// Verdict actions.
const (
	// VerdictInstall: a subscription with no installed CSV cannot get a
	// bundle.
	VerdictInstall VerdictAction = "install"
	// VerdictUpgrade: a subscription with an installed CSV can neither
	// upgrade it nor keep it.
	VerdictUpgrade VerdictAction = "upgrade"
	// VerdictKeep: installed CSVs that no subscription owns cannot all
	// stay.
	VerdictKeep VerdictAction = "keep"
)

// Verdict is the one-line summary of a conflict: what cannot be done
// (Action), to which subscription (Subscription, Package) or installed CSV
// (CSV), and why (Reason, one clause). Text is the line itself: "cannot
// install widget-operator: …".
type Verdict struct {
	Action VerdictAction `json:"action"`
	// Subscription is the subscription the verdict is about (install,
	// upgrade) and Package its package; CSV is its installed CSV
	// (upgrade), or the first installed CSV that must stay (keep). A
	// conflict with no facts (only built by hand) has an empty Action.
	Subscription string `json:"subscription,omitempty"`
	Package      string `json:"package,omitempty"`
	CSV          string `json:"csv,omitempty"`
	// Reason is the short reason, as in Text after the colon.
	Reason string `json:"reason"`
	Text   string `json:"text"`
}

// Clause is one line of a derivation: a connective ("because", "and",
// "so"), the text, and the facts it states (indexes into
// Explanation.Facts, ascending; none for the conclusion).
type Clause struct {
	Connective string `json:"connective"`
	Text       string `json:"text"`
	Facts      []int  `json:"facts,omitempty"`
}

// String returns the explanation with at most DefaultDerivationLines
// lines of derivation (the verdict line comes first, so at most 10 lines
// before the suggestions), then the suggestions, one per line. Every line
// ends with a newline.
func (e *Explanation) String() string { return e.text(DefaultDerivationLines) }

// Full returns the explanation with the whole derivation, then the
// suggestions.
func (e *Explanation) Full() string { return e.text(0) }

func (e *Explanation) text(max int) string {
	var b strings.Builder
	b.WriteString(e.Verdict.Text)
	b.WriteString("\n")
	writeDerivation(&b, e.Derivation, max)
	if len(e.Suggestions) > 0 {
		b.WriteString("suggestions (each re-solved and confirmed):\n")
		for i, s := range e.Suggestions {
			fmt.Fprintf(&b, "  %d. %s\n", i+1, s)
		}
	}
	return b.String()
}

// writeDerivation writes clauses, one per line; with max > 0 and more
// clauses than max, the first max-2, a line saying how many are left out,
// and the conclusion.
func writeDerivation(b *strings.Builder, cl []Clause, max int) {
	line := func(c Clause) { fmt.Fprintf(b, "  %s %s\n", c.Connective, c.Text) }
	if max <= 0 || len(cl) <= max {
		for _, c := range cl {
			line(c)
		}
		return
	}
	for _, c := range cl[:max-2] {
		line(c)
	}
	left := cl[max-2 : len(cl)-1]
	n := 0
	for _, c := range left {
		n += len(c.Facts)
	}
	fmt.Fprintf(b, "  and %d more fact(s) (the full explanation lists them)\n", n)
	line(cl[len(cl)-1])
}

// Explanation explains the conflict from its facts alone: the verdict and
// the derivation, without suggestions (Resolution.Explain adds them). It is
// a pure function of e.Facts.
func (e *ConflictError) Explanation() *Explanation {
	ex := &Explanation{Namespace: e.Namespace, Facts: slices.Clone(e.Facts)}
	if ex.Facts == nil {
		ex.Facts = []Fact{}
	}
	d := newDeriver(e.Namespace, ex.Facts)
	ex.Verdict = d.verdict()
	ex.Derivation = d.derive(ex.Verdict)
	return ex
}

// node identifies a bundle entry or an installed CSV in facts.
type node struct {
	cat    CatalogKey
	ch     string
	bundle string
	csv    string
}

func subjectNode(f *Fact) node {
	if f.Bundle == "" {
		return node{csv: f.CSV}
	}
	return node{cat: f.Catalog, ch: f.Channel, bundle: f.Bundle}
}

func candidateNode(c Candidate) node {
	if c.Installed {
		return node{csv: c.Bundle}
	}
	return node{cat: c.Catalog, ch: c.Channel, bundle: c.Bundle}
}

// deriver builds the verdict and the derivation of a set of facts.
type deriver struct {
	ns    string // the namespace, to name subscriptions
	facts []Fact
	subs  []string // subscriptions, in fact order
	// installed lists the installed CSVs that must stay, in fact order.
	installed []string
	bySub     map[string][]int
	named     map[node]bool // nodes already introduced with their source
}

func newDeriver(ns string, facts []Fact) *deriver {
	d := &deriver{ns: ns, facts: facts, bySub: map[string][]int{}, named: map[node]bool{}}
	for i := range facts {
		f := &facts[i]
		if f.Kind == FactInstalled {
			d.installed = append(d.installed, f.CSV)
		}
		if isSubscriptionKind(f.Kind) {
			if _, ok := d.bySub[f.Subscription]; !ok {
				d.subs = append(d.subs, f.Subscription)
			}
			d.bySub[f.Subscription] = append(d.bySub[f.Subscription], i)
		}
	}
	return d
}

func isSubscriptionKind(k FactKind) bool {
	switch k {
	case FactSubscription, FactSubscriptionCandidates, FactNoCatalog, FactNoPackage, FactNoChannel, FactNoStartingCSV:
		return true
	}
	return false
}

func isMissingKind(k FactKind) bool {
	switch k {
	case FactNoCatalog, FactNoPackage, FactNoChannel, FactNoStartingCSV:
		return true
	}
	return false
}

// subName names a subscription as namespace/name.
func (d *deriver) subName(s string) string {
	if d.ns == "" {
		return s
	}
	return d.ns + "/" + s
}

// subFact returns the first fact of kind k about subscription s.
func (d *deriver) subFact(s string, k FactKind) *Fact {
	for _, i := range d.bySub[s] {
		if d.facts[i].Kind == k {
			return &d.facts[i]
		}
	}
	return nil
}

// subInfo returns the package and the installed CSV of subscription s.
func (d *deriver) subInfo(s string) (pkg, csv string) {
	for _, i := range d.bySub[s] {
		f := &d.facts[i]
		pkg = cmp.Or(pkg, f.Package)
		csv = cmp.Or(csv, f.CSV)
	}
	return pkg, csv
}

// verdict chooses the subject — the first subscription of the facts, or
// the installed CSVs when no subscription takes part — and the short
// reason.
func (d *deriver) verdict() Verdict {
	var v Verdict
	installed := d.installed
	var others []string
	if len(d.subs) > 0 {
		s := d.subs[0]
		v.Subscription = s
		v.Package, v.CSV = d.subInfo(s)
		v.Action = VerdictInstall
		if v.CSV != "" {
			v.Action = VerdictUpgrade
		}
		for _, o := range d.subs[1:] {
			others = append(others, "subscription "+o)
		}
		for _, c := range installed {
			others = append(others, "installed CSV "+c)
		}
	} else if len(installed) > 0 {
		v.Action, v.CSV = VerdictKeep, installed[0]
	} else {
		v.Reason = "no facts"
		v.Text = "cannot resolve the namespace: no facts"
		return v
	}
	v.Reason = d.reason(v, others)
	var what string
	switch v.Action {
	case VerdictInstall:
		what = "install " + v.Package
		if v.Package != v.Subscription {
			what += " (subscription " + v.Subscription + ")"
		}
	case VerdictUpgrade:
		what = fmt.Sprintf("upgrade or keep %s (subscription %s, installed CSV %s)", v.Package, v.Subscription, v.CSV)
	case VerdictKeep:
		if len(installed) == 1 {
			what = "keep installed CSV " + installed[0]
		} else {
			what = "keep installed CSVs " + words.Join(installed, "and") + " together"
		}
	}
	v.Text = "cannot " + what + ": " + v.Reason
	return v
}

// reason is the verdict's short reason: the missing level of a
// subscription, the other roots it conflicts with, or the dead end the
// derivation reaches.
func (d *deriver) reason(v Verdict, others []string) string {
	for i := range d.facts {
		if f := &d.facts[i]; isMissingKind(f.Kind) && f.Subscription == v.Subscription {
			return missingText(f)
		}
	}
	if len(others) > 0 {
		r := "it conflicts with " + words.Join(others, "and")
		if rule := d.firstRule(); rule != "" {
			r += " (" + rule + ")"
		}
		return r
	}
	// Dead ends: requirements nothing satisfies, deprecated bundles.
	if r := d.unsatisfiedReason(v); r != "" {
		return r
	}
	if r := d.deprecatedReason(v); r != "" {
		return r
	}
	if rule := d.firstRule(); rule != "" {
		if v.Action == VerdictKeep && len(d.installed) > 1 {
			return "they conflict (" + rule + ")"
		}
		return "no choice of bundles meets every requirement (" + rule + ")"
	}
	return "no choice of bundles meets every requirement"
}

// unsatisfiedReason names the requirements nothing satisfies, counting the
// verdict's candidates when several fail for different reasons; "" when
// every requirement has a candidate.
func (d *deriver) unsatisfiedReason(v Verdict) string {
	var empties []*Fact
	var names []string
	nDeprecated := 0
	for i := range d.facts {
		f := &d.facts[i]
		switch {
		case f.Kind == FactRequirement && len(f.Candidates) == 0:
			empties = append(empties, f)
			if n := subjectName(f); !slices.Contains(names, n) {
				names = append(names, n)
			}
		case f.Kind == FactDeprecated:
			nDeprecated++
		}
	}
	if len(empties) == 0 {
		return ""
	}
	nCands := d.newCandidates(v.Subscription)
	same := true
	for _, f := range empties {
		same = same && f.Property == empties[0].Property && f.Value == empties[0].Value && f.FailureMessage == empties[0].FailureMessage
	}
	switch {
	case (!same || nDeprecated > 0) && nCands > 1:
		return fmt.Sprintf("none of its %d candidates can be installed", nCands)
	case same && len(names) > 1 && len(names) == nCands:
		return fmt.Sprintf("all %d of its candidates require %s, which nothing satisfies", nCands, requirementWords(empties[0]))
	case same && len(names) > 1:
		return fmt.Sprintf("%s and %d other bundle(s) require %s, which nothing satisfies", names[0], len(names)-1, requirementWords(empties[0]))
	}
	return fmt.Sprintf("%s requires %s, which nothing satisfies", subjectName(empties[0]), requirementWords(empties[0]))
}

// newCandidates counts the candidates of subscription sub that are not
// installed; 0 for no subscription.
func (d *deriver) newCandidates(sub string) int {
	n := 0
	if cf := d.subFact(sub, FactSubscriptionCandidates); cf != nil && sub != "" {
		for _, c := range cf.Candidates {
			if !c.Installed {
				n++
			}
		}
	}
	return n
}

// deprecatedReason names the deprecation that leaves no choice: the one
// installed CSV to keep, the subscription's candidates, or a requirement's
// providers; "" when deprecations are not the dead end.
func (d *deriver) deprecatedReason(v Verdict) string {
	deprecated := map[node]bool{}
	for i := range d.facts {
		if f := &d.facts[i]; f.Kind == FactDeprecated {
			deprecated[subjectNode(f)] = true
		}
	}
	allDeprecated := func(cs []Candidate) bool {
		for _, c := range cs {
			if !deprecated[candidateNode(c)] {
				return false
			}
		}
		return len(cs) > 0
	}
	if v.Action == VerdictKeep && len(d.installed) == 1 && deprecated[node{csv: d.installed[0]}] {
		return "it is deprecated (olm.deprecated) and can never be selected"
	}
	for i := range d.facts {
		f := &d.facts[i]
		if !allDeprecated(f.Candidates) {
			continue
		}
		switch {
		case f.Kind == FactSubscriptionCandidates && f.Subscription == v.Subscription && len(f.Candidates) == 1:
			return "its only candidate is deprecated"
		case f.Kind == FactSubscriptionCandidates && f.Subscription == v.Subscription:
			return "every candidate is deprecated"
		case f.Kind == FactRequirement:
			return fmt.Sprintf("%s requires %s, which only deprecated bundles satisfy", subjectName(f), requirementWords(f))
		}
	}
	return ""
}

// firstRule names the first uniqueness rule of the facts, in a few words.
func (d *deriver) firstRule() string {
	for i := range d.facts {
		f := &d.facts[i]
		switch f.Kind {
		case FactOnePerAPI:
			return "one provider of API " + f.Requirement
		case FactOnePerPackage:
			return "one bundle of package " + f.Package
		}
	}
	return ""
}

// missingText states a no-candidate fact without naming its subscription,
// with its notes.
func missingText(f *Fact) string {
	s := missingWords(f)
	if len(f.Notes) > 0 {
		s += " (" + strings.Join(f.Notes, "; ") + ")"
	}
	return s
}

func missingWords(f *Fact) string {
	switch f.Kind {
	case FactNoCatalog:
		if f.Catalog.IsZero() {
			return "no catalog serves operators to this namespace"
		}
		return fmt.Sprintf("catalog %s does not exist or serves no operators to this namespace", f.Catalog)
	case FactNoPackage:
		if f.Catalog.IsZero() {
			return fmt.Sprintf("no catalog has package %s", f.Package)
		}
		return fmt.Sprintf("catalog %s has no package %s", f.Catalog, f.Package)
	case FactNoChannel:
		return fmt.Sprintf("package %s has no channel %s", f.Package, f.Channel)
	case FactNoStartingCSV:
		if f.Channel == "" {
			return fmt.Sprintf("package %s has no bundle %s (the startingCSV)", f.Package, f.Bundle)
		}
		return fmt.Sprintf("channel %s of package %s has no bundle %s (the startingCSV)", f.Channel, f.Package, f.Bundle)
	}
	return string(f.Kind)
}

// derive orders the facts as a proof: each subscription and installed CSV
// that must stay, then — breadth first from their candidates — the facts
// about the bundles they may take, then the uniqueness rules, then the
// rest in fact order. Runs of facts that say the same of consecutive
// bundles of one channel are merged into one clause.
func (d *deriver) derive(v Verdict) []Clause {
	pr := &proof{d: d, used: make([]bool, len(d.facts))}
	pr.roots()
	pr.reached()
	pr.rest()
	out := pr.out
	for i := range out {
		out[i].Connective = "and"
	}
	if len(out) > 0 {
		out[0].Connective = "because"
	}
	return append(out, Clause{Connective: "so", Text: d.conclusion(v)})
}

// proof is a derivation being written: the clauses so far, the facts they
// use, and the bundles and CSVs reached whose facts are still to come.
type proof struct {
	d     *deriver
	used  []bool
	out   []Clause
	queue []node
}

// emit adds a clause of the facts ids.
func (pr *proof) emit(text string, ids ...int) {
	for _, i := range ids {
		pr.used[i] = true
	}
	pr.out = append(pr.out, Clause{Text: text, Facts: ids})
}

// reach queues candidates and states at once, in one clause, which of them
// are deprecated.
func (pr *proof) reach(cs []Candidate) {
	set := make(map[node]bool, len(cs))
	for _, c := range cs {
		n := candidateNode(c)
		pr.queue = append(pr.queue, n)
		set[n] = true
	}
	var ids []int
	for i := range pr.d.facts {
		if f := &pr.d.facts[i]; !pr.used[i] && f.Kind == FactDeprecated && set[subjectNode(f)] {
			ids = append(ids, i)
		}
	}
	if len(ids) > 0 {
		pr.emit(pr.d.subjectClause(ids), ids...)
	}
}

// roots states each subscription and each installed CSV without one, and
// reaches their candidates.
func (pr *proof) roots() {
	d := pr.d
	for _, s := range d.subs {
		ids := d.bySub[s]
		pr.emit(d.subscriptionClause(s), ids...)
		if f := d.subFact(s, FactSubscriptionCandidates); f != nil {
			pr.reach(f.Candidates)
		}
	}
	for i := range d.facts {
		if f := &d.facts[i]; f.Kind == FactInstalled {
			pr.emit(fmt.Sprintf("%s%s has no subscription, so it must stay as it is", d.csvName(f.CSV), versionSuffix(f.Version)), i)
			pr.queue = append(pr.queue, node{csv: f.CSV})
		}
	}
}

// reached states the facts about the bundles and CSVs reached, breadth
// first, reaching their candidates in turn.
func (pr *proof) reached() {
	d := pr.d
	seen := map[node]bool{}
	for len(pr.queue) > 0 {
		n := pr.queue[0]
		pr.queue = pr.queue[1:]
		if seen[n] {
			continue
		}
		seen[n] = true
		for i := range d.facts {
			f := &d.facts[i]
			if pr.used[i] || !isSubjectKind(f.Kind) || subjectNode(f) != n {
				continue
			}
			ids := d.run(i, pr.used)
			pr.emit(d.subjectClause(ids), ids...)
			pr.reach(f.Candidates)
		}
	}
}

// rest states the uniqueness rules, then anything left, in fact order.
func (pr *proof) rest() {
	d := pr.d
	for _, pass := range []func(FactKind) bool{
		func(k FactKind) bool { return k == FactOnePerAPI || k == FactOnePerPackage },
		func(FactKind) bool { return true },
	} {
		for i := range d.facts {
			if pr.used[i] || !pass(d.facts[i].Kind) {
				continue
			}
			f := &d.facts[i]
			if isSubjectKind(f.Kind) {
				ids := d.run(i, pr.used)
				pr.emit(d.subjectClause(ids), ids...)
				continue
			}
			pr.emit(d.ruleClause(f), i)
		}
	}
}

func isSubjectKind(k FactKind) bool {
	return k == FactRequirement || k == FactDeprecated || k == FactReplacement
}

func (d *deriver) conclusion(v Verdict) string {
	switch v.Action {
	case VerdictInstall:
		return fmt.Sprintf("subscription %s cannot be satisfied and %s cannot be installed", d.subName(v.Subscription), v.Package)
	case VerdictUpgrade:
		return fmt.Sprintf("subscription %s can neither upgrade installed CSV %s nor keep it", d.subName(v.Subscription), v.CSV)
	}
	switch len(d.installed) {
	case 0:
		return "the namespace cannot be resolved"
	case 1:
		return "installed CSV " + v.CSV + " cannot stay"
	case 2:
		return "installed CSVs " + words.Join(d.installed, "and") + " cannot both stay"
	}
	return "installed CSVs " + words.Join(d.installed, "and") + " cannot all stay"
}

// run returns fact i and the unused facts after it that say the same
// thing (same kind, property, requirement, failure message and candidates)
// of other bundles of the same package, channel and catalog, or of the
// same bundle in another channel.
func (d *deriver) run(i int, used []bool) []int {
	f := &d.facts[i]
	ids := []int{i}
	if f.Bundle == "" || f.Kind == FactReplacement {
		return ids
	}
	for j := i + 1; j < len(d.facts); j++ {
		g := &d.facts[j]
		if used[j] || g.Kind != f.Kind || g.Bundle == "" || g.Package != f.Package || (g.Channel != f.Channel && g.Bundle != f.Bundle) || g.Catalog != f.Catalog ||
			g.Property != f.Property || g.Value != f.Value || g.FailureMessage != f.FailureMessage || !slices.Equal(g.Candidates, f.Candidates) {
			continue
		}
		ids = append(ids, j)
	}
	return ids
}

// subscriptionClause states a subscription and its candidates (or the
// level at which it has none).
func (d *deriver) subscriptionClause(s string) string {
	var sf *Fact
	for _, i := range d.bySub[s] {
		if sf == nil || d.facts[i].Kind == FactSubscription {
			sf = &d.facts[i]
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "subscription %s wants package %s", d.subName(s), sf.Package)
	var where []string
	if sf.Channel != "" {
		where = append(where, "channel "+sf.Channel)
	}
	if !sf.Catalog.IsZero() {
		where = append(where, "catalog "+sf.Catalog.String())
	}
	if sf.StartingCSV != "" && sf.CSV == "" {
		where = append(where, "startingCSV "+sf.StartingCSV)
	}
	if len(where) > 0 {
		b.WriteString(" (" + strings.Join(where, ", ") + ")")
	}
	for _, i := range d.bySub[s] {
		if f := &d.facts[i]; isMissingKind(f.Kind) {
			b.WriteString(", but " + missingText(f))
			return b.String()
		}
	}
	cf := d.subFact(s, FactSubscriptionCandidates)
	if cf == nil {
		return b.String()
	}
	var succ []Candidate
	for _, c := range cf.Candidates {
		if !c.Installed {
			succ = append(succ, c)
		}
	}
	switch {
	case sf.CSV != "" && len(succ) == 0:
		fmt.Fprintf(&b, "; it has no upgrade from %s and can only keep it", d.csvName(sf.CSV))
	case sf.CSV != "":
		fmt.Fprintf(&b, "; it can upgrade %s to %s, or keep it", d.csvName(sf.CSV), d.candidates(succ, "or"))
	case len(succ) == 0:
		b.WriteString("; it has no candidate")
	default:
		list, n := d.candidatesN(succ, "or")
		if n == 1 {
			fmt.Fprintf(&b, "; its only candidate is %s", list)
		} else {
			fmt.Fprintf(&b, "; its candidates are %s", list)
		}
	}
	return b.String()
}

// subjectClause states a run of requirement, deprecation or replacement
// facts about one bundle or a run of bundles.
func (d *deriver) subjectClause(ids []int) string {
	f := &d.facts[ids[0]]
	subj, n := d.subject(ids)
	plural := n > 1
	switch f.Kind {
	case FactDeprecated:
		if plural {
			return subj + " are all deprecated (olm.deprecated), so none is ever selected"
		}
		return subj + " is deprecated (olm.deprecated), so it is never selected"
	case FactReplacement:
		return fmt.Sprintf("%s would replace %s, so the two cannot be installed together", subj, d.csvName(f.CSV))
	}
	verb := "requires"
	if plural {
		verb = "all require"
	}
	s := subj + " " + verb + " " + requirementWords(f)
	if len(f.Candidates) == 0 {
		s += ", which nothing satisfies"
		if len(f.Notes) > 0 {
			s += ": " + strings.Join(f.Notes, "; ")
		}
		return s
	}
	list, n := d.candidatesN(f.Candidates, "or")
	if n == 1 {
		return s + ", which only " + list + " satisfies"
	}
	s += ", which only " + list + " satisfy"
	return s
}

// ruleClause states a uniqueness rule and its members.
func (d *deriver) ruleClause(f *Fact) string {
	switch f.Kind {
	case FactOnePerPackage:
		return fmt.Sprintf("%s are %s of package %s, and at most one bundle of a package can be installed", d.candidates(f.Candidates, "and"), bothAll(f), f.Package)
	case FactOnePerAPI:
		return fmt.Sprintf("%s %s provide API %s (olm.gvk), and at most one provider of an API can be installed", d.candidates(f.Candidates, "and"), bothAll(f), f.Requirement)
	}
	return f.String()
}

// subject names the subject of a run of facts — one bundle or installed
// CSV, or the run collapsed ("etcd 0.9.0–0.9.4 (5 bundles, channel alpha,
// catalog olm/community)") — and the number of bundles it names.
func (d *deriver) subject(ids []int) (string, int) {
	f := &d.facts[ids[0]]
	if len(ids) == 1 && f.Bundle == "" {
		return d.csvName(f.CSV), 1
	}
	if len(ids) == 1 {
		return d.bundleName(node{cat: f.Catalog, ch: f.Channel, bundle: f.Bundle}), 1
	}
	cs := make([]Candidate, len(ids))
	for i, id := range ids {
		g := &d.facts[id]
		if g.Bundle == "" {
			cs[i] = Candidate{Package: g.Package, Bundle: g.CSV, Version: g.Version, Installed: true}
			continue
		}
		cs[i] = Candidate{Catalog: g.Catalog, Package: g.Package, Channel: g.Channel, Bundle: g.Bundle, Version: g.Version}
	}
	return d.candidatesN(cs, "and")
}

// bundleName names a bundle entry, with its channel and catalog the first
// time.
func (d *deriver) bundleName(n node) string {
	if d.named[n] {
		return n.bundle
	}
	d.named[n] = true
	return fmt.Sprintf("%s (channel %s, catalog %s)", n.bundle, n.ch, n.cat)
}

// csvName names an installed CSV where it is the subject of a clause.
func (d *deriver) csvName(name string) string { return "installed CSV " + name }

// candidates renders candidates in order, collapsing each run of three or
// more consecutive bundles of one package, channel and catalog. A bundle
// that is a candidate in several channels is named once, with its
// channels.
func (d *deriver) candidates(cs []Candidate, conj string) string {
	s, _ := d.candidatesN(cs, conj)
	return s
}

// candidatesN is candidates, and the number of distinct bundles and
// installed CSVs named.
func (d *deriver) candidatesN(cs []Candidate, conj string) (string, int) {
	type item struct {
		c        Candidate
		channels []string
	}
	var items []item
	at := map[node]int{} // (catalog, bundle) → index in items
	for _, c := range cs {
		if c.Installed {
			items = append(items, item{c: c})
			continue
		}
		k := node{cat: c.Catalog, bundle: c.Bundle}
		if i, ok := at[k]; ok {
			items[i].channels = append(items[i].channels, c.Channel)
			continue
		}
		at[k] = len(items)
		items = append(items, item{c: c, channels: []string{c.Channel}})
	}
	var parts []string
	for i := 0; i < len(items); {
		it := items[i]
		c := it.c
		if c.Installed {
			parts = append(parts, c.Bundle+" (installed)")
			i++
			continue
		}
		j := i + 1
		for len(it.channels) == 1 && j < len(items) && !items[j].c.Installed && len(items[j].channels) == 1 &&
			items[j].c.Package == c.Package && items[j].c.Channel == c.Channel && items[j].c.Catalog == c.Catalog {
			j++
		}
		if j-i >= 3 {
			run := make([]Candidate, j-i)
			for k := range run {
				run[k] = items[i+k].c
			}
			parts = append(parts, d.collapse(run))
			i = j
			continue
		}
		if len(it.channels) == 1 {
			parts = append(parts, d.bundleName(candidateNode(c)))
			i++
			continue
		}
		fresh := false
		for _, ch := range it.channels {
			n := node{cat: c.Catalog, ch: ch, bundle: c.Bundle}
			fresh = fresh || !d.named[n]
			d.named[n] = true
		}
		if fresh {
			parts = append(parts, fmt.Sprintf("%s (channels %s, catalog %s)", c.Bundle, words.Join(it.channels, "and"), c.Catalog))
		} else {
			parts = append(parts, c.Bundle)
		}
		i++
	}
	if len(parts) > maxListed {
		parts = append(parts[:maxListed-1], fmt.Sprintf("%d more (the facts list them all)", len(parts)-maxListed+1))
	}
	return words.Join(parts, conj), len(items)
}

// maxListed is the most items a list of candidates names in a clause.
const maxListed = 8

// collapse renders a run of bundles of one package, channel and catalog:
// "etcd 0.9.0–0.9.4 (5 bundles, channel alpha, catalog olm/community)".
func (d *deriver) collapse(cs []Candidate) string {
	lo, hi := cs[0].Version, cs[0].Version
	var vlo, vhi semver.Version
	ok := true
	for i, c := range cs {
		d.named[candidateNode(c)] = true
		v, err := semver.ParseTolerant(c.Version)
		if err != nil {
			ok = false
			continue
		}
		if i == 0 || v.LT(vlo) {
			vlo, lo = v, c.Version
		}
		if i == 0 || v.GT(vhi) {
			vhi, hi = v, c.Version
		}
	}
	if !ok || lo == "" {
		lo, hi = cs[len(cs)-1].Bundle, cs[0].Bundle
		return fmt.Sprintf("%s … %s (%d bundles of package %s, channel %s, catalog %s)", lo, hi, len(cs), cs[0].Package, cs[0].Channel, cs[0].Catalog)
	}
	return fmt.Sprintf("%s %s–%s (%d bundles, channel %s, catalog %s)", cs[0].Package, lo, hi, len(cs), cs[0].Channel, cs[0].Catalog)
}

// requirementWords says what a requirement fact requires, with its
// property type and failureMessage.
func requirementWords(f *Fact) string {
	src := f.Property
	if f.FailureMessage != "" {
		src += fmt.Sprintf(", failureMessage %q", f.FailureMessage)
	}
	switch f.Property {
	case graph.TypeGVKRequired:
		return "API " + f.Requirement + " (" + src + ")"
	case graph.TypePackageRequired:
		return "package " + f.Requirement + " (" + src + ")"
	case graph.TypeLabelRequired:
		return "label " + f.Requirement + " (" + src + ")"
	}
	return f.Requirement + " (" + src + ")"
}

// subjectName names the subject of a fact briefly.
func subjectName(f *Fact) string {
	if f.Bundle == "" {
		return "installed CSV " + f.CSV
	}
	return f.Bundle
}

func versionSuffix(v string) string {
	if v == "" {
		return ""
	}
	return " (version " + v + ")"
}

func bothAll(f *Fact) string {
	if len(f.Candidates) == 2 {
		return "both"
	}
	return "all"
}
