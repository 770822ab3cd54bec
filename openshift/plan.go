package openshift

import (
	"fmt"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolver/predict"
)

// Plan is the upgrade plan of a cluster with its operators: the path, what
// happens at each hop, and the ordered actions a person takes. It is plain
// data: its JSON form (encoding/json) is the contract of `-o json`, and
// [Plan.WriteText] and [Plan.WriteMarkdown] write it for people.
type Plan struct {
	// Current is the cluster's release, as read; CurrentFrom says where
	// from ("ClusterVersion version status.desired.version", or "given").
	Current     string `json:"current"`
	CurrentFrom string `json:"currentFrom"`
	Path        *Path  `json:"path"`
	// Now is what OLM does with the catalogs the cluster has now, before
	// any hop: the automatic upgrades under way and what waits.
	Now Minor       `json:"now"`
	At  []Namespace `json:"at"`
	// Extensions is what OLM v1 does now with each ClusterExtension.
	Extensions []ExtensionMove `json:"extensions,omitempty"`
	// Hops are the minor updates, in order.
	Hops []HopPlan `json:"hops"`
	// Actions are what a person does, in order.
	Actions []Action `json:"actions"`
	// Notes say what the plan assumed or could not check.
	Notes []string `json:"notes,omitempty"`
}

// Decision reports whether some action needs a person's decision (a
// package gone from the next catalog, a gate no upgrade lifts): the
// target is not reached by the listed actions alone.
func (p *Plan) Decision() bool {
	for _, a := range p.Actions {
		if a.Decision {
			return true
		}
	}
	return false
}

// HopPlan is one minor update: what blocks it and lifts the block, the
// catalogs of the next minor, and what OLM does with them.
type HopPlan struct {
	Hop
	// Kubernetes is the Kubernetes minor of To, which minKubeVersion is
	// checked against.
	Kubernetes Minor `json:"kubernetes"`
	// Gates are OLM's gates at From on the state the hop starts from: v0
	// always, v1 when the cluster has ClusterExtensions.
	Gates []*Gate `json:"gates"`
	// Ahead are the blockers of the minors passed as Control Plane Only
	// updates up to the next stop, which the lifts before this hop lift
	// too (the cluster does not stop there to lift them).
	Ahead []Blocker `json:"ahead,omitempty"`
	// Lifts say, for each blocker, how it is lifted (or that it is not).
	Lifts []Lift `json:"lifts,omitempty"`
	// Open reports that the gates are open once the lifts are applied,
	// confirmed by computing them again on the state after the lifts.
	Open bool `json:"open"`
	// Sources say what each CatalogSource serves at To.
	Sources []Source `json:"sources"`
	// After is what OLM does at To, per namespace, once the catalogs
	// switch: automatic upgrades, approvals that wait, predicted failures,
	// stranded subscriptions and the namespaces that stop resolving.
	After []Namespace `json:"after"`
	// Extensions is what OLM v1 does at To with each ClusterExtension.
	Extensions []ExtensionMove `json:"extensions,omitempty"`
	// Mirror is the images a disconnected cluster needs at To, when asked.
	Mirror *Mirror `json:"mirror,omitempty"`
}

// LiftKind says how a blocker is lifted.
type LiftKind string

// The ways a blocker is lifted.
const (
	// LiftUpgrade: upgrades along the subscription's channel reach a
	// compatible version (approvals included).
	LiftUpgrade LiftKind = "upgrade"
	// LiftChannel: switching the subscription to another channel and
	// upgrading there reaches a compatible version.
	LiftChannel LiftKind = "switch-channel"
	// LiftV1Upgrade: OLM v1 upgrades the extension to a compatible bundle
	// by itself.
	LiftV1Upgrade LiftKind = "v1-upgrade"
	// LiftV1Version: setting the extension's version (and no channels)
	// makes OLM v1 install a compatible bundle.
	LiftV1Version LiftKind = "v1-version"
	// LiftNone: no upgrade the catalogs offer lifts it: a person decides
	// (uninstall it, or wait for a release).
	LiftNone LiftKind = "none"
)

// Lift is how one blocker is lifted, confirmed by resolving: the state
// after it opens the blocker's part of the gate.
type Lift struct {
	Blocker Blocker  `json:"blocker"`
	Kind    LiftKind `json:"kind"`
	// Need is the minor the operator must support: the next stop.
	Need Minor `json:"need"`
	// Namespace, Subscription and Package name what is changed (v0);
	// Extension the ClusterExtension (v1).
	Namespace    string `json:"namespace,omitempty"`
	Subscription string `json:"subscription,omitempty"`
	Extension    string `json:"extension,omitempty"`
	Package      string `json:"package,omitempty"`
	// Channel is the channel switched to (LiftChannel); Version the
	// version set (LiftV1Version).
	Channel string `json:"channel,omitempty"`
	Version string `json:"version,omitempty"`
	// Rounds are the InstallPlans OLM carries out, in order, until the
	// operator is compatible; Approvals counts those a person approves.
	Rounds    []Round `json:"rounds,omitempty"`
	Approvals int     `json:"approvals"`
	// To is the bundle (CSV) it ends at, Max its olm.maxOpenShiftVersion
	// ("" when it declares none).
	To  string `json:"to,omitempty"`
	Max string `json:"max,omitempty"`
	// Why says, for LiftNone, why nothing lifts it, and what removing it
	// would do.
	Why string `json:"why,omitempty"`
}

// Round is one InstallPlan of a rollout: its steps and whether a person
// approves it.
type Round struct {
	Steps []resolver.Step `json:"steps"`
	// Approve reports a Manual InstallPlan a person approves.
	Approve bool `json:"approve"`
}

// Namespace is what OLM does in one namespace with a minor's catalogs.
type Namespace struct {
	Namespace string `json:"namespace"`
	// Automatic are the InstallPlans OLM carries out by itself, in order.
	Automatic []Round `json:"automatic,omitempty"`
	// Waiting is the InstallPlan that waits for a person's approval
	// (Manual); empty when none waits.
	Waiting []resolver.Step `json:"waiting,omitempty"`
	// Failures are the CSVs OLM is predicted to fail (steps taken and
	// CSVs that stay), by CSV.
	Failures []Failure `json:"failures,omitempty"`
	// Stranded are the subscriptions whose catalog, package, channel or
	// startingCSV is gone.
	Stranded []Stranded `json:"stranded,omitempty"`
	// Stuck are the subscriptions left below their channel's head with no
	// upgrade path to it.
	Stuck []Stuck `json:"stuck,omitempty"`
	// Failed is the namespace's resolution failure, when OLM cannot
	// resolve it: every subscription of the namespace stops (BlastRadius).
	Failed *Failed `json:"failed,omitempty"`
	// Then is what the namespace does once its stranded subscriptions are
	// dealt with, as Assuming says; the plan goes on from that state.
	Then     *Namespace `json:"then,omitempty"`
	Assuming string     `json:"assuming,omitempty"`
}

// empty reports a namespace where nothing happens and nothing is wrong.
func (n *Namespace) empty() bool {
	return len(n.Automatic) == 0 && len(n.Waiting) == 0 && len(n.Failures) == 0 && len(n.Stranded) == 0 && len(n.Stuck) == 0 && n.Failed == nil
}

// Failure is a CSV OLM will fail (or may fail: a warning), and why.
type Failure struct {
	CSV        string             `json:"csv"`
	Prediction predict.Prediction `json:"prediction"`
}

// StrandedKind says what a stranded subscription lost.
type StrandedKind string

// What a subscription loses when the catalogs move.
const (
	StrandedCatalog     StrandedKind = "catalog"
	StrandedPackage     StrandedKind = "package"
	StrandedChannel     StrandedKind = "channel"
	StrandedStartingCSV StrandedKind = "startingCSV"
)

// Stranded is a subscription that the next minor's catalogs no longer
// serve.
type Stranded struct {
	Subscription string       `json:"subscription"`
	Package      string       `json:"package"`
	Channel      string       `json:"channel,omitempty"`
	Catalog      string       `json:"catalog,omitempty"`
	Kind         StrandedKind `json:"kind"`
	// Installed is the subscription's installed CSV, which stays as it is.
	Installed string `json:"installed,omitempty"`
	// OLM is OLM's reason, word for word.
	OLM string `json:"olm"`
	// Fixes are the changes that make the namespace resolve again,
	// each confirmed by resolving; a person chooses.
	Fixes []Fix `json:"fixes,omitempty"`
}

// FixKind is what a fix of a stranded subscription changes.
type FixKind string

// The fixes of a stranded subscription.
const (
	FixChannel   FixKind = "switch-channel"
	FixResource  FixKind = "re-source"
	FixUnmanage  FixKind = "remove-subscription"
	FixUninstall FixKind = "uninstall"
)

// Fix is one confirmed change.
type Fix struct {
	Kind FixKind `json:"kind"`
	// Channel or Catalog is what the subscription moves to.
	Channel string `json:"channel,omitempty"`
	Catalog string `json:"catalog,omitempty"`
	// Text says it in words.
	Text string `json:"text"`
}

// Stuck is a subscription whose installed CSV is not its channel's head,
// with no upgrade from it to the head: below the head, or above it when
// the channel was cut back to an older version.
type Stuck struct {
	Subscription string `json:"subscription"`
	Installed    string `json:"installed"`
	Version      string `json:"version"`
	Channel      string `json:"channel"`
	Head         string `json:"head"`
	HeadVersion  string `json:"headVersion"`
	Why          string `json:"why"`
	// Fixes are the channels that move it on, each confirmed.
	Fixes []Fix `json:"fixes,omitempty"`
}

// Failed is a namespace OLM cannot resolve.
type Failed struct {
	// OLM is the condition OLM sets on every subscription of the
	// namespace (ResolutionFailed), as OLM writes it when the reason is a
	// subscription that finds nothing; else Sextant's explanation.
	OLM string `json:"olm"`
	// Explanation is Sextant's explanation of the conflict.
	Explanation string `json:"explanation"`
	// BlastRadius names every subscription of the namespace: none of them
	// moves while it fails.
	BlastRadius []string `json:"blastRadius"`
}

// ExtensionMove is what OLM v1 does with a ClusterExtension at a minor.
type ExtensionMove struct {
	Name string `json:"name"`
	From string `json:"from,omitempty"`
	// To is the bundle v1 installs ("" when it stays or fails), Hops how
	// many upgrades it takes.
	To    string `json:"to,omitempty"`
	Hops  int    `json:"hops,omitempty"`
	Error string `json:"error,omitempty"`
}

// Mirror is what a disconnected cluster needs at a minor: the catalog
// images, and the bundle and related images of every hop the cluster
// takes there (package mirror's set).
type Mirror struct {
	Catalogs []string `json:"catalogs"`
	Images   []string `json:"images"`
	// Error says why the set is incomplete ("" when complete).
	Error string `json:"error,omitempty"`
	// Assuming says which stranded subscriptions the set was computed
	// without: the plan goes on with them deleted ("" when none).
	Assuming string `json:"assuming,omitempty"`
}

// ActionKind is what an action does.
type ActionKind string

// The actions of a plan.
const (
	ActionApprove       ActionKind = "approve"
	ActionSwitchChannel ActionKind = "switch-channel"
	ActionSetVersion    ActionKind = "set-version"
	ActionDecide        ActionKind = "decide"
	ActionMirror        ActionKind = "mirror"
	ActionUpdate        ActionKind = "update"
	ActionApproveAfter  ActionKind = "approve-waiting"
)

// Action is one thing a person does, at one point of the path.
type Action struct {
	// When says where on the path: "before 4.16 -> 4.17", "update to
	// 4.17", "at 4.17".
	When string     `json:"when"`
	Kind ActionKind `json:"kind"`
	Text string     `json:"text"`
	// Decision reports an action a person must choose (an uninstall, a
	// re-source): the plan cannot choose for them.
	Decision bool `json:"decision,omitempty"`
	// Options are the confirmed choices of a decision.
	Options []string `json:"options,omitempty"`

	// at and phase place the action in time: at the minor at, before
	// (phase 0) or after (1) the decisions and lifts there, or as the
	// update from it (2).
	at    Minor
	phase int
	// waits is, for an approval said to wait, its namespace and steps.
	waits string
}

// Subscriptions of a namespace, by name (the blast radius).
func subscriptionsOf(s *cluster.State, ns string) []string {
	var out []string
	for _, sub := range s.Subscriptions {
		if sub.Namespace == ns {
			out = append(out, sub.Name)
		}
	}
	return out
}

// words says where a stuck subscription stays: "subscription S stays at
// CSV, below the head HEAD of channel C: why", or, when the head is an
// older version, "above the head HEAD (an older version) of channel C".
func (s Stuck) words() string {
	v, err1 := semver.ParseTolerant(s.Version)
	h, err2 := semver.ParseTolerant(s.HeadVersion)
	if err1 == nil && err2 == nil && v.GT(h) {
		return fmt.Sprintf("subscription %s stays at %s, above the head %s (an older version) of channel %s: %s", s.Subscription, s.Installed, s.Head, s.Channel, s.Why)
	}
	return fmt.Sprintf("subscription %s stays at %s, below the head %s of channel %s: %s", s.Subscription, s.Installed, s.Head, s.Channel, s.Why)
}
