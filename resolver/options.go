package resolver

import (
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver/predict"
	"runtime"
)

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
	// SemverUpgrades adds upgrade edges derived from versions (beyond OLM
	// v0.28, and not OLM v1 parity: OLM v1 removed its own flag for this):
	// from an installed version v, every entry of the
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
	// BundleCRDs, if not nil, finds the CRDs a step's bundle brings (its
	// contents): the custom resources of the state (cluster.State.
	// CustomResources) of a CRD the step would replace are validated
	// against the new CRD's schema, as OLM v0's catalog operator validates
	// them before it replaces the CRD; a step whose bundle's contents are
	// not known is noted (predict.NoteCustomResourcesUnchecked).
	BundleCRDs predict.BundleCRDs
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

func (r *Resolver) trace(e Event) {
	if r.opts.Tracer != nil {
		r.opts.Tracer.Trace(e)
	}
}

// confirmWorkers is how many of the re-solves that confirm candidate
// changes (suggestions, fixes, held-back changes) run at once: one per
// processor, their results taken in rank order so the answer is the same;
// one when a Tracer observes the resolutions, since Trace is called from
// the goroutine that runs Resolve.
func (r *Resolver) confirmWorkers() int {
	if r.opts.Tracer != nil {
		return 1
	}
	return runtime.GOMAXPROCS(0)
}
