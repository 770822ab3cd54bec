package resolver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/blang/semver/v4"
	"github.com/sextantdev/sextant/constraints"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/words"
)

// FactKind is the kind of a [Fact].
type FactKind string

// The kinds of facts a conflict is made of.
const (
	// FactSubscription: a subscription exists and must be satisfied
	// (Subscription, Package, Channel, Catalog).
	FactSubscription FactKind = "subscription"
	// FactNoCatalog: the subscription's catalog does not exist or is not
	// visible from the namespace (Catalog).
	FactNoCatalog FactKind = "no-catalog"
	// FactNoPackage: the subscription's package is in none of its catalogs.
	FactNoPackage FactKind = "no-package"
	// FactNoChannel: the package has no channel of the subscription's name.
	FactNoChannel FactKind = "no-channel"
	// FactNoStartingCSV: the channel has no bundle named by the
	// subscription's startingCSV (Bundle).
	FactNoStartingCSV FactKind = "no-starting-csv"
	// FactSubscriptionCandidates: the subscription can be satisfied only by
	// one of Candidates (in preference order); the installed CSV, when
	// there is one, is the last.
	FactSubscriptionCandidates FactKind = "subscription-candidates"
	// FactInstalled: an installed CSV that no subscription owns must stay
	// (CSV).
	FactInstalled FactKind = "installed"
	// FactRequirement: a bundle (Bundle, Catalog, Channel) or an installed
	// CSV (CSV) has a requirement (Property, Value, Requirement,
	// FailureMessage) that only Candidates satisfy; no candidate means
	// nothing satisfies it.
	FactRequirement FactKind = "requirement"
	// FactDeprecated: a bundle (or installed CSV) carries olm.deprecated and
	// is never selected.
	FactDeprecated FactKind = "deprecated"
	// FactReplacement: a bundle (Bundle) that would upgrade the installed
	// CSV (CSV) of a subscription cannot be installed beside it.
	FactReplacement FactKind = "replacement"
	// FactOnePerPackage: at most one of Candidates, all of package Package,
	// can be installed.
	FactOnePerPackage FactKind = "one-per-package"
	// FactOnePerAPI: at most one of Candidates, which all provide the API
	// Requirement (property olm.gvk, Value), can be installed.
	FactOnePerAPI FactKind = "one-per-api"
)

// Candidate is a bundle of a catalog channel, or an installed CSV
// (Installed, with a zero Catalog and no Channel).
type Candidate struct {
	Catalog   CatalogKey `json:"catalog,omitzero"`
	Package   string     `json:"package,omitempty"`
	Channel   string     `json:"channel,omitempty"`
	Bundle    string     `json:"bundle"`
	Version   string     `json:"version,omitempty"`
	Installed bool       `json:"installed,omitempty"`
}

// String returns "bundle (channel, catalog)" or "installed csv".
func (c Candidate) String() string {
	if c.Installed {
		return "installed " + c.Bundle
	}
	return fmt.Sprintf("%s (channel %s, catalog %s)", c.Bundle, c.Channel, c.Catalog)
}

// Fact is one fact of a conflict, in resolver terms: the subscription, the
// installed CSV, the catalog, channel and bundle, the property and its
// failureMessage. Which fields are set depends on Kind (see the FactKind
// constants). A Fact never holds solver identifiers and encodes to JSON.
type Fact struct {
	Kind FactKind `json:"kind"`
	// Subscription names the subscription the fact is about ("name", in
	// the conflict's namespace).
	Subscription string `json:"subscription,omitempty"`
	// StartingCSV is the subscription's spec.startingCSV (subscription
	// facts), when it names one.
	StartingCSV string `json:"startingCSV,omitempty"`
	// CSV names an installed CSV the fact is about; for a subscription
	// fact, the subscription's installed CSV, when it is installed.
	CSV     string     `json:"csv,omitempty"`
	Catalog CatalogKey `json:"catalog,omitzero"`
	Package string     `json:"package,omitempty"`
	Channel string     `json:"channel,omitempty"`
	Bundle  string     `json:"bundle,omitempty"`
	Version string     `json:"version,omitempty"`
	// Property is the property type of a requirement (olm.gvk.required,
	// olm.package.required, olm.label.required, olm.constraint) or olm.gvk
	// for FactOnePerAPI, and Value its JSON value as the catalog wrote it.
	Property string `json:"property,omitempty"`
	Value    string `json:"value,omitempty"`
	// Requirement says in words what is required, e.g.
	// "example.com/v1 Widget" or "package etcd >=0.9.0".
	Requirement string `json:"requirement,omitempty"`
	// FailureMessage is the olm.constraint's failureMessage.
	FailureMessage string `json:"failureMessage,omitempty"`
	// Candidates, in preference order (see the FactKind constants).
	Candidates []Candidate `json:"candidates,omitempty"`
	// Notes, for a requirement nothing satisfies, says what comes close
	// and why it does not count: the versions the required package has,
	// bundles that provide what is required but are skipped in their
	// channel or are in a global catalog the namespace's OperatorGroup
	// excludes. For a subscription that finds no catalog, package or
	// channel, it names the excluded global catalog that has it. Notes are
	// context, not part of the conflict; they are sorted and stable.
	Notes []string `json:"notes,omitempty"`
}

// subject names what a fact is about: the bundle or the installed CSV.
func (f *Fact) subject() string {
	if f.CSV != "" && f.Bundle == "" {
		return "installed CSV " + f.CSV
	}
	return "bundle " + f.Bundle
}

// candidateList joins the candidates as words.Join joins words.
func candidateList(cs []Candidate, conj string) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = c.String()
	}
	return words.Join(s, conj)
}

// String states the fact in one sentence (without a final period).
func (f *Fact) String() string {
	s := f.text()
	if isMissingKind(f.Kind) && len(f.Notes) > 0 {
		s += ": " + strings.Join(f.Notes, "; ")
	}
	return s
}

func (f *Fact) text() string {
	switch f.Kind {
	case FactSubscription:
		s := fmt.Sprintf("subscription %s wants package %s", f.Subscription, f.Package)
		var where []string
		if f.Channel != "" {
			where = append(where, "channel "+f.Channel)
		}
		if !f.Catalog.IsZero() {
			where = append(where, "catalog "+f.Catalog.String())
		}
		if len(where) > 0 {
			s += " (" + strings.Join(where, ", ") + ")"
		}
		return s
	case FactNoCatalog:
		if f.Catalog.IsZero() {
			return fmt.Sprintf("no catalog serves operators to the namespace of subscription %s", f.Subscription)
		}
		return fmt.Sprintf("subscription %s names catalog %s, which does not exist or serves no operators to this namespace", f.Subscription, f.Catalog)
	case FactNoPackage:
		if f.Catalog.IsZero() {
			return fmt.Sprintf("no catalog has package %s (subscription %s)", f.Package, f.Subscription)
		}
		return fmt.Sprintf("catalog %s has no package %s (subscription %s)", f.Catalog, f.Package, f.Subscription)
	case FactNoChannel:
		return fmt.Sprintf("package %s has no channel %s (subscription %s)", f.Package, f.Channel, f.Subscription)
	case FactNoStartingCSV:
		if f.Channel == "" {
			return fmt.Sprintf("package %s has no bundle %s, the startingCSV of subscription %s", f.Package, f.Bundle, f.Subscription)
		}
		return fmt.Sprintf("channel %s of package %s has no bundle %s, the startingCSV of subscription %s", f.Channel, f.Package, f.Bundle, f.Subscription)
	case FactSubscriptionCandidates:
		if len(f.Candidates) == 0 {
			return fmt.Sprintf("subscription %s has no candidate bundle", f.Subscription)
		}
		return fmt.Sprintf("subscription %s can only be satisfied by %s", f.Subscription, candidateList(f.Candidates, "or"))
	case FactInstalled:
		return fmt.Sprintf("installed CSV %s has no subscription and must stay", f.CSV)
	case FactRequirement:
		s := fmt.Sprintf("%s requires %s %s", f.subject(), f.Property, f.Requirement)
		if f.FailureMessage != "" {
			s += fmt.Sprintf(" (%q)", f.FailureMessage)
		}
		if len(f.Candidates) == 0 {
			return s + ", which nothing satisfies"
		}
		return s + ", satisfied only by " + candidateList(f.Candidates, "or")
	case FactDeprecated:
		return fmt.Sprintf("%s is deprecated (olm.deprecated) and is never selected", f.subject())
	case FactReplacement:
		return fmt.Sprintf("bundle %s would replace installed CSV %s and cannot be installed beside it", f.Bundle, f.CSV)
	case FactOnePerPackage:
		return fmt.Sprintf("at most one bundle of package %s can be installed: %s", f.Package, candidateList(f.Candidates, "and"))
	case FactOnePerAPI:
		return fmt.Sprintf("at most one provider of API %s can be installed: %s", f.Requirement, candidateList(f.Candidates, "and"))
	}
	return string(f.Kind)
}

// ConflictError reports that the namespace's subscriptions and installed
// CSVs cannot be resolved together. Facts is a minimal set of facts that
// together make resolution impossible (dropping any one makes it possible:
// each fact is one constraint of the solver's minimal core), in a stable
// order: subscriptions and installed CSVs first, then requirements and
// uniqueness rules in the order resolution met them.
//
// Explanation turns the facts into a verdict and a derivation;
// Resolution.Explain adds confirmed suggestions. ConflictError encodes to
// JSON as {"namespace", "facts"}.
type ConflictError struct {
	Namespace string `json:"namespace"`
	Facts     []Fact `json:"facts"`
	// Excluded lists the invalid packages the resolution reached and left
	// out (Options.AllowInvalid), by catalog then package.
	Excluded []InvalidPackage `json:"excluded,omitempty"`
	// InFlight lists what the resolution found under way in the namespace
	// (see Plan.InFlight): context for the facts, which never name a CSV
	// an upgrade in flight replaces.
	InFlight []InFlight `json:"inFlight,omitempty"`
}

// Error returns the explanation without suggestions: the verdict line,
// then at most DefaultDerivationLines lines of derivation, e.g.
//
//	cannot install widget-operator: it conflicts with installed CSV legacy-widget.v1.0.0 (one provider of API widgets.example.com/v1 Widget)
//	  because subscription operators/widget-operator wants package widget-operator (…); its only candidate is …
//	  and …
//	  so subscription operators/widget-operator cannot be satisfied and widget-operator cannot be installed
func (e *ConflictError) Error() string {
	return strings.TrimSuffix(e.Explanation().String(), "\n")
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
			f.Notes = append(res.exclusionNotes(s, r.kind), res.nearNames(s, r.kind)...)
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
		f.Value = string(graph.GVKProperty(*r.gvk).Value)
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
	if len(vs) == 0 {
		return nil // as JSON leaves it: no candidates
	}
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
		for b, pi := range res.satisfying(ci, q) {
			for _, chName := range b.Channels {
				if x := pi.channel(chName); x != nil && x.position(b.Name) < 0 {
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
