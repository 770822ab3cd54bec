// Package migrate answers, for a cluster that runs OLM v0 Subscriptions,
// what moving to OLM v1 ClusterExtensions would do, before anything
// changes (DESIGN §12): for each Subscription a verdict (ready, ready with
// changes, blocked), every block in plain words with OLM v1's own reason
// where it has one, the ClusterExtension it becomes, what v1 chooses now
// and next beside what v0 would do, and what is lost; and the
// ClusterCatalogs for the CatalogSources in use.
//
// It runs both resolvers on the same data: package resolver (OLM v0) for
// v0's next step, package olmv1 for v1's choice. It reads no live cluster.
package migrate

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/words"
	"github.com/sextantdev/sextant/olmv1"
	"github.com/sextantdev/sextant/resolver"
)

// Verdict is what a Subscription needs to move to a ClusterExtension.
type Verdict string

// The verdicts, from best to worst.
const (
	// Ready: the ClusterExtension installs what the Subscription runs and
	// follows the same upgrades; nothing v0 gave is lost. An operator
	// that watched one namespace keeps it through
	// spec.config.inline.watchNamespace where its bundle supports
	// AllNamespaces and that namespace's install mode.
	Ready Verdict = "ready"
	// ReadyWithChanges: v1 can install it, but something differs: a wider
	// scope, a version pin, a choice of v1 that v0 would not make, or a
	// guarantee of v0 that v1 does not give (see Entry.Changes and
	// Entry.Lost).
	ReadyWithChanges Verdict = "ready with changes"
	// Blocked: v1 cannot take it over as it is (see Entry.Blocks).
	Blocked Verdict = "blocked"
)

// BlockKind names a reason a Subscription cannot move.
type BlockKind string

// The blocks, in the order an entry lists them.
const (
	// BlockDependencies: the installed bundle, v0's next or v1's choice
	// declares dependencies, and v1 resolves none.
	BlockDependencies BlockKind = "dependencies"
	// BlockInstallModes: the bundle lacks the AllNamespaces install mode.
	// With only OwnNamespace or SingleNamespace it installs only behind
	// v1's SingleOwnNamespaceInstallSupport feature gate, with the
	// watchNamespace the Block names; MultiNamespace never.
	BlockInstallModes BlockKind = "install-modes"
	// BlockAPIServices: the installed CSV owns API services.
	BlockAPIServices BlockKind = "api-services"
	// BlockSeveralNamespaces: the same package is installed in several
	// namespaces; a ClusterExtension is cluster-wide, one per package.
	BlockSeveralNamespaces BlockKind = "several-namespaces"
	// BlockSharedCRD: another operator of the cluster owns a CRD this one
	// owns too; v1 lets one ClusterExtension own each object.
	BlockSharedCRD BlockKind = "shared-crd"
	// BlockDependencySubscription: OLM created the Subscription for a
	// dependency (annotation olm.generated-by); it moves with the
	// operator that pulled it in.
	BlockDependencySubscription BlockKind = "dependency-subscription"
	// BlockNoBundle: v1 finds no bundle for the ClusterExtension, or the
	// installed operator is not in the catalogs.
	BlockNoBundle BlockKind = "no-bundle"
	// BlockV1Refuses: v1 would refuse its choice at install for another
	// reason than install modes or API services (its configuration, its
	// webhooks, its manifests, a CRD whose stored version it drops), as
	// package olmv1 predicts it with the feature gates given.
	BlockV1Refuses BlockKind = "v1-refuses"
)

// ServiceAccountNote is the report's note on service accounts: what
// operator-controller does with spec.serviceAccount at the release
// Sextant targets, and what the releases that use it need.
const ServiceAccountNote = "the ClusterExtensions name no service account: operator-controller v1.11.0 ignores spec.serviceAccount " +
	"(deprecated; the API server warns when it is set) and installs every extension as its own cluster-admin service account. " +
	"Releases v1.0 to v1.10 require spec.serviceAccount.name: a ServiceAccount of that name must exist in spec.namespace, " +
	"bound to every permission that installing the bundle takes (its CRDs, cluster roles and bindings, deployments, services, …), " +
	"before the ClusterExtension is applied; they are derived from the contents of the bundle v1 installs where those are given (a subscription's installer line)"

// NotDerivedNoContents is Entry.InstallerNotDerived when the contents of
// the bundle v1 installs were not given (the report's notes name these
// subscriptions together).
const NotDerivedNoContents = "bundle contents not given"

// Block is one reason a Subscription cannot move as it is.
type Block struct {
	Kind BlockKind `json:"kind"`
	// Message says it in plain words, naming bundles, namespaces and
	// APIs.
	Message string `json:"message"`
	// V1Reason is OLM v1's own text for it, word for word, where v1 has
	// one.
	V1Reason string `json:"v1Reason,omitempty"`
	// WatchNamespace, for BlockInstallModes with OwnNamespace or
	// SingleNamespace, is the spec.config.inline.watchNamespace the
	// ClusterExtension would need behind the feature gate.
	WatchNamespace string `json:"watchNamespace,omitempty"`
}

// ChangeKind names something that moving changes.
type ChangeKind string

// The changes.
const (
	// ChangeScope: the operator watched fewer namespaces under v0; v1
	// installs it for all namespaces (several namespaces, or one whose
	// install mode the bundle does not support).
	ChangeScope ChangeKind = "scope"
	// ChangeVersionPin: the ClusterExtension pins the installed version
	// (a Manual subscription: see LostManualApproval).
	ChangeVersionPin ChangeKind = "version-pin"
	// ChangeStoredVersions: the version range stops below the first
	// version whose CRD drops a version the cluster's CRD stores.
	ChangeStoredVersions ChangeKind = "stored-versions"
	// ChangeChoice: v1's choice differs from v0's (see Comparison).
	ChangeChoice ChangeKind = "choice"
)

// Change is one thing that moving changes, in plain words.
type Change struct {
	Kind    ChangeKind `json:"kind"`
	Message string     `json:"message"`
}

// LossKind names a guarantee of OLM v0 that OLM v1 does not give.
type LossKind string

// The losses.
const (
	// LostManualApproval: v1 has no approval; the version pin keeps the
	// same control.
	LostManualApproval LossKind = "manual-approval"
	// LostMinKubeVersion: v1 never checks minKubeVersion.
	LostMinKubeVersion LossKind = "min-kube-version"
	// LostFailForward: the OperatorGroup's TechPreviewUnsafeFailForward
	// has no v1 counterpart.
	LostFailForward LossKind = "fail-forward"
	// LostScopedServiceAccount: the OperatorGroup's serviceAccountName
	// does not carry over.
	LostScopedServiceAccount LossKind = "scoped-service-account"
)

// Loss is one guarantee of v0 that v1 does not give, and what to do.
type Loss struct {
	Kind    LossKind `json:"kind"`
	Message string   `json:"message"`
}

// Pick is one resolver's choice: a bundle, or why there is none. The zero
// value is "nothing": no bundle and no error (the operator stays).
type Pick struct {
	Bundle  string `json:"bundle,omitempty"`
	Version string `json:"version,omitempty"`
	// Catalog is the catalog, "namespace/name" for v0 and the
	// ClusterCatalog's name for v1.
	Catalog string `json:"catalog,omitempty"`
	Channel string `json:"channel,omitempty"`
	// Error is the resolver's error, word for word.
	Error string `json:"error,omitempty"`
	// Failures are the predicted failures of installing the bundle
	// (v0: OLM's reason and message; v1: the same for stored versions).
	Failures []string `json:"failures,omitempty"`
}

// String returns "bundle version", the error, or "nothing".
func (p Pick) String() string {
	switch {
	case p.Error != "":
		return "no bundle: " + p.Error
	case p.Bundle == "":
		return "nothing"
	}
	return p.Bundle + " " + p.Version
}

// DifferenceKind names a way v1's choice differs from v0's.
type DifferenceKind string

// The differences flagged.
const (
	// DiffChannel: v1 chooses from another channel than v0 would.
	DiffChannel DifferenceKind = "channel"
	// DiffPrerelease: one side chooses a prerelease the other does not.
	DiffPrerelease DifferenceKind = "prerelease"
	// DiffCatalogs: the package is in several catalogs of equal
	// priority; without the selector pinning its catalog, v1 refuses.
	DiffCatalogs DifferenceKind = "catalog-ambiguity"
	// DiffUnreachable: v1 installs a version v0 would never reach from
	// the installed one.
	DiffUnreachable DifferenceKind = "unreachable"
	// DiffVersion: v1 and v0 end on different versions.
	DiffVersion DifferenceKind = "version"
)

// Difference is one flagged difference between v1's and v0's choices.
type Difference struct {
	Kind    DifferenceKind `json:"kind"`
	Message string         `json:"message"`
}

// Entry is the answer for one Subscription.
type Entry struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Package   string `json:"package"`
	// Channel is the subscription's spec.channel ("" for none).
	Channel string `json:"channel,omitempty"`
	// Source is the subscription's catalog, "namespace/name".
	Source string `json:"source,omitempty"`
	// Installed is status.installedCSV, InstalledVersion its version.
	Installed        string  `json:"installed,omitempty"`
	InstalledVersion string  `json:"installedVersion,omitempty"`
	Verdict          Verdict `json:"verdict"`
	// Blocks, Changes and Lost are in the order of their kinds' constants;
	// empty when there are none.
	Blocks  []Block  `json:"blocks,omitempty"`
	Changes []Change `json:"changes,omitempty"`
	Lost    []Loss   `json:"lost,omitempty"`
	// ClusterExtension is the ClusterExtension the subscription becomes
	// (for a blocked one, what it would be).
	ClusterExtension cluster.ClusterExtension `json:"clusterExtension"`
	// V0Next is v0's next step for the subscription (zero: it stays);
	// V1Now is v1's choice for the ClusterExtension as written, V1Next
	// the upgrade v1 makes after it (zero: none).
	V0Next Pick `json:"v0Next"`
	V1Now  Pick `json:"v1Now"`
	V1Next Pick `json:"v1Next"`
	// Differences flags every way v1's choice differs from v0's.
	Differences []Difference `json:"differences,omitempty"`
	// Installer is the service account the ClusterExtension names for
	// the operator-controller releases that install as one
	// (InstallerReleases), with the permissions installing v1's choice
	// takes, derived from the bundle's contents; nil for a blocked entry,
	// and where they are not derived (InstallerNotDerived says why).
	Installer           *Installer `json:"installer,omitempty"`
	InstallerNotDerived string     `json:"installerNotDerived,omitempty"`
}

// Summary counts the entries per verdict.
type Summary struct {
	Subscriptions    int `json:"subscriptions"`
	Ready            int `json:"ready"`
	ReadyWithChanges int `json:"readyWithChanges"`
	Blocked          int `json:"blocked"`
}

// Report is the answer for a whole cluster. Its JSON form is this type's
// encoding/json encoding:
//
//	{"summary": {...}, "clusterCatalogs": [...], "subscriptions": [Entry, ...], "notes": [...]}
//
// Subscriptions are sorted by namespace then name; ClusterCatalogs by
// priority (highest first) then name. A Report is plain data.
type Report struct {
	Summary         Summary                  `json:"summary"`
	ClusterCatalogs []cluster.ClusterCatalog `json:"clusterCatalogs"`
	Subscriptions   []Entry                  `json:"subscriptions"`
	// Notes says what the report could not check, once each.
	Notes []string `json:"notes,omitempty"`
}

// Build answers for every Subscription of the world's state, with its
// catalogs as v0 sees them (their keys: the namespace and name of their
// CatalogSource) and its options: v0 resolves with the world's resolver,
// v1 with the world's gates and cluster versions (World.V1Options), and
// the ClusterExtensions written are for the world's feature set
// (Options.V1.FeatureSet: only the experimental CRDs have spec.config).
// Each catalog becomes the ClusterCatalog named after its CatalogSource
// (namespace-name when two CatalogSources share a name). ctx is honoured
// by the v0 resolution.
func Build(ctx context.Context, w *sextant.World) (*Report, error) {
	catalogs, state := w.ResolverCatalogs(), w.State
	v0 := w.Resolver
	if v0 == nil { // a world of ClusterExtensions alone has no v0 resolver
		var err error
		if v0, err = resolver.NewContext(ctx, catalogs, w.ResolverOptions()); err != nil {
			return nil, err
		}
	}
	var err error
	b := &builder{ctx: ctx, state: state, catalogs: catalogs, crds: cluster.IndexCRDs(state.CRDs), featureSet: w.Options().V1.FeatureSet}
	b.clusterCatalogs()
	v1cats := make([]olmv1.Catalog, len(catalogs))
	for i, c := range catalogs {
		v1cats[i] = olmv1.Catalog{ClusterCatalog: b.ccByKey[c.Key], Content: c.Catalog}
	}
	if b.v1, err = olmv1.New(v1cats, w.V1Options()); err != nil {
		return nil, err
	}
	results, err := v0.ResolveAll(ctx, state)
	if err != nil {
		return nil, err
	}
	b.v0Plans(results)
	b.index()
	rep := &Report{ClusterCatalogs: b.usedCatalogs()}
	for i := range state.Subscriptions {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		e := b.entry(&state.Subscriptions[i])
		b.installer(ctx, w.Bundles, &e)
		rep.Subscriptions = append(rep.Subscriptions, e)
		rep.Summary.add(e.Verdict)
	}
	slices.SortFunc(rep.Subscriptions, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	if len(b.unknownModes) > 0 {
		b.note(fmt.Sprintf("install modes not known for %s (neither an installed CSV nor the catalog records them): %s not checked",
			words.First(b.unknownModes, 10), map[bool]string{true: "its scope is", false: "their scope is"}[len(b.unknownModes) == 1]))
	}
	var noContents []string
	for i := range rep.Subscriptions {
		if e := &rep.Subscriptions[i]; e.InstallerNotDerived == NotDerivedNoContents {
			noContents = append(noContents, fmt.Sprintf("%s/%s (%s)", e.Namespace, e.Name, e.V1Now.Bundle))
		}
	}
	if len(b.unchecked) > 0 {
		var parts []string
		for _, u := range b.unchecked[:min(len(b.unchecked), 3)] {
			parts = append(parts, fmt.Sprintf("%s (%s): %s", u.Extension, u.Bundle, u.Reason))
		}
		if len(b.unchecked) > 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(b.unchecked)-3))
		}
		b.note("v1's CRD upgrade safety preflight not predicted in full: " + strings.Join(parts, "; "))
	}
	if len(rep.Subscriptions) > 0 {
		b.note(ServiceAccountNote)
	}
	if len(noContents) > 0 {
		b.note(fmt.Sprintf("the installer permissions (%s) are not derived for %s: the contents of the bundle v1 installs were not given (%s)",
			InstallerReleases, words.Plural(len(noContents), "subscription"), words.First(noContents, 10)))
	}
	rep.Notes = b.notes
	return rep, nil
}

func (s *Summary) add(v Verdict) {
	s.Subscriptions++
	switch v {
	case Ready:
		s.Ready++
	case ReadyWithChanges:
		s.ReadyWithChanges++
	default:
		s.Blocked++
	}
}

// verdict is the verdict of an entry from its blocks, changes, losses and
// differences.
func (e *Entry) verdict() Verdict {
	switch {
	case len(e.Blocks) > 0:
		return Blocked
	case len(e.Changes) > 0 || len(e.Lost) > 0 || len(e.Differences) > 0:
		return ReadyWithChanges
	}
	return Ready
}

// bundleIn returns the bundle of package pkg named name in catalog c, or
// nil.
func bundleIn(c *graph.Catalog, pkg, name string) *graph.Bundle {
	if c == nil {
		return nil
	}
	return c.Bundle(graph.BundleRef{Package: pkg, Name: name})
}
