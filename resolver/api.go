// Package resolver resolves the operators of one namespace: from catalogs,
// the installed ClusterServiceVersions and the Subscriptions of the
// namespace, it computes an ordered install/upgrade [Plan], or a
// [*ConflictError] that names the facts which make one impossible.
//
// Choices are OLM-compatible (Operator Lifecycle Manager v0.28): the same
// candidates in the same preference order, the same uniqueness rules, the
// same search (each dependency's most preferred satisfiable candidate, no
// extra bundles). Unlike OLM the result is deterministic, the context bounds
// every solve, and only what the request can reach — the subscribed
// packages and the transitive closure of their requirements — becomes solver
// input.
//
// A [Resolver] indexes its catalogs once, in [New], and is safe for
// concurrent use by many goroutines.
//
// # Candidates and preference
//
// A subscription with no installed CSV may take any entry of its channel's
// replacement chain from the head (entries some other entry skips
// excluded), head first; with no channel named, the default channel's
// entries come first, then the other channels' by channel name. A
// startingCSV names the one candidate. A subscription whose installedCSV is
// installed may take the installed CSV's direct successors in the channel
// (replaces, skips, skipRange; head first) or, last, stay. Requirements
// (olm.gvk.required, olm.package.required, olm.label.required and
// olm.constraint, evaluated as a predicate over one bundle; its cel rules
// through Options.CEL, see package celrule) may be met by
// installed CSVs first, then by catalog entries: the dependent's catalog,
// then higher priority, the resolution namespace before the global one,
// catalog name; within a catalog the default channel, package name,
// channel name and position in the chain. As in OLM, the requiring bundle
// (or installed CSV) itself is among the candidates: a bundle that provides
// an API it requires meets its own requirement. Other bundles of its
// package are candidates too but can never be chosen beside it (one bundle
// per package).
//
// # Conflicts and explanations
//
// When no plan exists, Resolve returns a [*ConflictError] whose Facts are
// a minimal set of facts that together make resolution impossible — each
// is one constraint of the solver's minimal core, so without any one of
// them the rest can be met — in words a cluster admin understands and
// with their source (subscription, installed CSV, catalog, channel,
// bundle, property and olm.constraint failureMessage). Its Error method
// prints a one-line verdict ("cannot install widget-operator: …") and a
// derivation ("because …, and …, so …") of at most ten lines;
// [ConflictError.Explanation] returns the same as data, with the whole
// derivation. [Resolver.Explain] adds suggestions: changes to the state —
// drop a startingCSV, switch or clear a channel or a catalog, remove an
// installed CSV no subscription references, remove another subscription —
// each applied to a copy of the state and re-solved, and shown only with
// the plan it gives. Resolve pays nothing for suggestions; Explain pays one
// Resolve per candidate change, up to a fixed count. Explanations depend
// only on the facts and the state: the same input gives the same text.
//
// # Why: held back, the choice made, and what would change it
//
// A plan that succeeds can say why, too. [Resolver.ExplainHeldBack] gives
// every choice below its first preference — a subscription that keeps its
// installed CSV although a successor exists, or takes a later candidate,
// and a dependency below the head of its channel — a [HeldBack]: the
// minimal set of facts that excludes the passed-over candidate, found by
// forcing it and taking the solver's minimal core, and a change to the
// state, re-solved and confirmed, that lets it move. [Resolver.Why] says
// why a package, bundle or subscription is in the plan at its version,
// channel and catalog (the chain of subscription and requirements, the
// preference rules, the better-looking candidates passed over) or why it is
// not. [Resolver.Stops] says where and why a settled namespace leaves
// subscriptions below their channels' heads, and [Unchanged.Deprecations]
// reports the olm.deprecations of what stays, as the PackageDeprecated,
// ChannelDeprecated and BundleDeprecated conditions OLM sets. Each costs a
// fixed number of solves per item (one by default), so it is bounded and
// deterministic.
//
// # Approval and upgrades in flight
//
// As OLM v0.28's catalog operator, one Manual subscription makes the
// namespace's InstallPlan Manual: [Plan.Approval] names the Manual
// subscriptions, each [Step.Approval] the subscription that makes it Manual
// (or the InstallPlan of the input that already holds it), and
// [Plan.Waits] reports a plan that waits for a person. [Resolver.RolloutWith]
// stops at such a plan unless [RolloutOptions.Approve] is set.
//
// Resolve goes on from what is in flight as OLM does ([Plan.InFlight]): a
// subscription whose currentCSV exists is installed at currentCSV; a CSV
// another CSV replaces is left out (OLM deletes it once its replacement
// succeeds), so it is never a fact of a conflict nor suggested for removal;
// a failed upgrade fails forward when the namespace's OperatorGroup has
// upgradeStrategy TechPreviewUnsafeFailForward, and is a [*StuckError]
// otherwise. A subscription whose installed CSV is not in the state is an
// [*IncompleteError]. [Resolver.InstallPlan] returns the InstallPlan and
// dependency Subscriptions OLM would create for a plan.
//
// # What OLM will fail after resolution
//
// Every step, and every installed CSV that stays, carries its Predictions
// (DESIGN §8): what OLM's olm-operator will do with the CSV — install
// modes against the target namespaces of the namespace's OperatorGroup
// (UnsupportedOperatorGroup, InvalidInstallModes), APIs that an
// OperatorGroup with intersecting targets already provides
// (InterOperatorGroupOwnerConflict,
// CannotModifyStaticOperatorGroupProvidedAPIs), minKubeVersion against
// Options.KubeVersion (RequirementsNotMet), and, as a warning,
// olm.maxOpenShiftVersion against Options.OpenShiftVersion. Plan.Failing
// reports a plan that will not succeed as it is, and Resolver.Fixes finds
// confirmed fixes for it; Plan.Notes says what could not be checked (no
// OperatorGroup, unknown targets, bundles without olm.csv.metadata). The
// other namespaces of the state serve as context; Resolver.ResolveAll
// resolves them all, one after another, the APIs each plan installs
// counting for the namespaces after it. Predictions cost a few percent of a
// resolution (BenchmarkPredictions).
//
// # Where Sextant differs from OLM
//
// The order between catalogs and channels is total, so plans are
// deterministic; the search stops when the context ends; a subscription
// naming a catalog without its namespace (or the reverse) is an input error
// rather than a subscription that silently matches nothing; olm.deprecations
// are reported as step warnings. Besides:
//
//   - After backtracking, OLM v0.28's search does not retry candidates that
//     failed under a guess it has since undone, so it can return a less
//     preferred plan, or an invalid one (a subscription left without a
//     bundle, two bundles of one package); a differential test against OLM
//     found this in about 1 of 2,000 random requests. Sextant's search
//     always returns the most preferred solution as defined above.
//   - A state without any OperatorGroup stands for manifests listed without
//     them: the namespace is taken to have one plain OperatorGroup (see
//     cluster.State.NamespaceOperatorGroup), where OLM would not resolve
//     it. With OperatorGroups, a namespace with subscriptions and not
//     exactly one OperatorGroup fails with a *cluster.OperatorGroupError,
//     as OLM's catalog operator refuses it; an OperatorGroup annotated
//     olm.operatorframework.io/exclude-global-namespace-resolution: "true"
//     hides the global namespace's catalogs, and facts about what it hides
//     say so in their Notes.
//   - A subscription naming no catalog considers every visible catalog in
//     the preference order above. OLM's Subscription API requires both
//     source and sourceNamespace, so a real cluster never has such a
//     subscription; when it does, OLM mixes the catalogs' channels of one
//     name (and fails to order them) and ignores catalog priority, which
//     Sextant does not emulate.
package resolver

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

// DefaultGlobalNamespace is the global catalog namespace when
// Options.GlobalNamespace is empty.
const DefaultGlobalNamespace = "olm"

// CatalogKey identifies a catalog (a CatalogSource) by namespace and name.
// It is comparable and used as a map key; the zero value names no catalog.
type CatalogKey struct {
	Namespace string
	Name      string
}

// String returns "namespace/name".
func (k CatalogKey) String() string { return k.Namespace + "/" + k.Name }

// IsZero reports whether k is the zero key.
func (k CatalogKey) IsZero() bool { return k == CatalogKey{} }

// MarshalText encodes k as "namespace/name" (empty for the zero key).
func (k CatalogKey) MarshalText() ([]byte, error) {
	if k.IsZero() {
		return []byte{}, nil
	}
	return []byte(k.String()), nil
}

// UnmarshalText decodes "namespace/name" (or the empty string).
func (k *CatalogKey) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*k = CatalogKey{}
		return nil
	}
	ns, name, ok := strings.Cut(string(b), "/")
	if !ok || ns == "" || name == "" {
		return fmt.Errorf("invalid catalog key %q: want namespace/name", b)
	}
	*k = CatalogKey{Namespace: ns, Name: name}
	return nil
}

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
// it) is a stable contract: see the README.
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
	// order.
	Notes []string `json:"notes,omitempty"`
	// Excluded lists the invalid packages the resolution reached and left
	// out (Options.AllowInvalid), by catalog then package.
	Excluded []InvalidPackage `json:"excluded,omitempty"`
	// Fixes, set by Resolver.Fixes, are the confirmed fixes of the plan's
	// predicted failures (nil when it was not asked or found none).
	Fixes []Suggestion `json:"fixes,omitempty"`

	// planned is the context ResolveAll resolved the plan in (the APIs
	// earlier namespaces' plans install), which Fixes re-solves with.
	planned map[groupKey][]graph.GVK
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
	s := "Manual"
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
		if failing(s.Predictions) {
			return true
		}
	}
	for _, u := range p.Unchanged {
		if failing(u.Predictions) {
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
	Predictions []Prediction `json:"predictions,omitempty"`
	// HeldBack, set by Resolver.ExplainHeldBack, says why the step goes
	// below its first preference (nil when it does not).
	HeldBack *HeldBack `json:"heldBack,omitempty"`
	// Approval is the approval the step needs (zero: Automatic).
	Approval Approval `json:"approval,omitzero"`
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
func (r Reason) String() string {
	switch {
	case r.Subscription != "":
		return "subscription " + r.Subscription
	case r.RequiredBy != "" && r.Requirement != "":
		return "required by " + r.RequiredBy + " (" + r.Requirement + ")"
	case r.RequiredBy != "":
		return "required by " + r.RequiredBy
	}
	return ""
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
	// HeldBack, set by Resolver.ExplainHeldBack, says why it stays
	// although its subscription has a successor (nil when it does not).
	HeldBack *HeldBack `json:"heldBack,omitempty"`
	// Approval is the approval the step needs (zero: Automatic).
	Approval Approval `json:"approval,omitzero"`
	// Predictions says what OLM's olm-operator will do with the CSV as it
	// stays (DESIGN §8); empty when nothing is predicted.
	Predictions []Prediction `json:"predictions,omitempty"`
}

// String renders the plan as text, one line per step, then the unchanged
// operators.
func (p *Plan) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "namespace %s: %d step(s)\n", p.Namespace, len(p.Steps))
	if p.Approval.Mode == cluster.ApprovalManual {
		fmt.Fprintf(&b, "approval Manual (subscription %s)", strings.Join(p.Approval.Subscriptions, ", "))
		if p.Waits() {
			b.WriteString(": waits for approval")
		}
		b.WriteString("\n")
	}
	for _, e := range p.InFlight {
		fmt.Fprintf(&b, "in flight: %s\n", e.Text)
	}
	for _, x := range p.Excluded {
		fmt.Fprintf(&b, "excluded, invalid: %s\n", x)
	}
	for i, s := range p.Steps {
		fmt.Fprintf(&b, "%d. %s %s %s (package %s, channel %s, catalog %s)", i+1, s.Action, s.Bundle, s.Version, s.Package, s.Channel, s.Catalog)
		if s.Replaces != "" {
			fmt.Fprintf(&b, " replacing %s", s.Replaces)
		}
		fmt.Fprintf(&b, ": %s", s.Reason)
		if s.Dependency {
			b.WriteString("; creates a subscription")
		}
		if a := s.Approval.String(); a != "" {
			b.WriteString("; approval " + a)
		}
		b.WriteString("\n")
		for _, w := range s.Warnings {
			fmt.Fprintf(&b, "   warning: %s\n", w)
		}
		writePredictions(&b, "   ", s.Predictions)
		writeHeldBack(&b, s.HeldBack)
	}
	for _, u := range p.Unchanged {
		fmt.Fprintf(&b, "unchanged %s", u.CSV)
		if u.Version != "" {
			fmt.Fprintf(&b, " %s", u.Version)
		}
		if u.Package != "" {
			fmt.Fprintf(&b, " (package %s)", u.Package)
		}
		if u.Subscription != "" {
			fmt.Fprintf(&b, ": subscription %s", u.Subscription)
		}
		b.WriteString("\n")
		writePredictions(&b, "   ", u.Predictions)
		for _, d := range u.Deprecations {
			fmt.Fprintf(&b, "   deprecated: %s\n", d)
		}
		writeHeldBack(&b, u.HeldBack)
	}
	for _, n := range p.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	return b.String()
}

// writePredictions writes one line per prediction: "will fail: Reason:
// message" or "warning: Reason: message", each after indent.
func writePredictions(b *strings.Builder, indent string, ps []Prediction) {
	for _, p := range ps {
		b.WriteString(indent)
		if p.Severity == SeverityFailure {
			b.WriteString("will fail: ")
		} else {
			b.WriteString("warning: ")
		}
		b.WriteString(p.String())
		b.WriteString("\n")
	}
}

// EventKind is the kind of a trace event.
type EventKind string

// Trace event kinds, in the order a resolution emits them.
const (
	// EventCandidates: a subscription's candidates were found (Count of
	// them) or not (Message says which level failed).
	EventCandidates EventKind = "candidates"
	// EventProblem: the solver input is built: Count variables and
	// Constraints constraints.
	EventProblem EventKind = "problem"
	// EventSolved: the solver found a solution (Count selected variables)
	// or a conflict (Message).
	EventSolved EventKind = "solved"
)

// Event is one thing a resolution reports to its Tracer.
type Event struct {
	Kind         EventKind
	Namespace    string
	Subscription string // EventCandidates
	Count        int
	Constraints  int // EventProblem
	Message      string
}

// Tracer observes resolutions. Trace is called synchronously from the
// goroutine that runs Resolve; a Tracer shared by concurrent resolutions
// must be safe for concurrent use.
type Tracer interface {
	Trace(Event)
}

// Options tunes a Resolver. The zero value is OLM's behaviour with the
// global catalog namespace "olm" and no tracing.
type Options struct {
	// GlobalNamespace is the namespace whose catalogs serve every
	// namespace; empty means DefaultGlobalNamespace. Catalogs of other
	// namespaces serve only their own.
	GlobalNamespace string
	// Tracer, if not nil, observes every resolution.
	Tracer Tracer
	// SemverUpgrades adds upgrade edges derived from versions (beyond OLM,
	// as OLM v1 offers): from an installed version v, every entry of the
	// channel with a higher version of the same major version is a
	// successor, besides the catalog's replaces/skips/skipRange edges.
	SemverUpgrades bool
	// SemverAllowMajor lets SemverUpgrades cross major versions.
	SemverAllowMajor bool
	// CEL, if not nil, evaluates the cel rules of olm.constraint
	// properties; package github.com/sextantdev/sextant/celrule provides
	// OLM v0.28's evaluator. Without it, resolution fails with an error
	// wrapping errors.ErrUnsupported as soon as it must evaluate a cel rule
	// — only when a bundle whose requirements hold one is reached, so
	// catalogs with cel rules resolve fine as long as no request needs
	// them.
	CEL CEL
	// KubeVersion is the cluster's Kubernetes version, as its API server
	// reports it ("v1.25.3", "1.25.3+k3s1"; see graph.ParseKubeVersion): steps
	// and installed CSVs whose minKubeVersion is above it are predicted to
	// fail with RequirementsNotMet. Empty: not checked, nothing assumed.
	KubeVersion string
	// AllowInvalid resolves with catalogs that opm serve would refuse: a
	// package a resolution reaches (a subscription's package, or the
	// package of a candidate for a requirement) with a structural error —
	// a bundle without olm.package, an unparsable version, a channel with
	// no single head, … (graph's error findings) — is then left out, its
	// bundles never candidates, and the plan or conflict lists it in
	// Excluded. Without it, reaching such a package is an error: a joined
	// list of *InvalidPackageError, one per finding.
	AllowInvalid bool
	// SkipValidation resolves invalid packages as they are, without the
	// structural check AllowInvalid governs: for tools that report the
	// structural errors apart (check's installability runs so, since its
	// structural check reports them).
	SkipValidation bool
	// OpenShiftVersion is the cluster's OpenShift version ("4.16",
	// "4.16.3"): steps and installed CSVs whose olm.maxOpenShiftVersion
	// blocks the next minor upgrade get a warning. Empty: not checked.
	OpenShiftVersion string
}

// CEL compiles the cel rules of olm.constraint properties. A Resolver
// compiles each distinct rule text once, the first time a resolution
// reaches it, and keeps the compiled rule for its lifetime. Implementations
// must be safe for concurrent use.
type CEL interface {
	// Compile compiles rule. An error means the rule is invalid (it does
	// not parse, does not type-check, or is not of type bool); OLM then
	// fails the whole resolution, and so does Resolve.
	Compile(rule string) (CELRule, error)
}

// CELRule is a compiled cel rule. It must be safe for concurrent use.
type CELRule interface {
	// Matches reports whether a bundle (or installed CSV) with the given
	// properties meets the rule. Evaluation errors mean no match, as in
	// OLM. properties must not be modified.
	Matches(properties []graph.Property) bool
}
