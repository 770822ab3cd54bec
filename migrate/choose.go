package migrate

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/words"
	"github.com/sextantdev/sextant/olmv1"
)

// installedVersion returns the installed version: the catalog bundle's,
// else the CSV's text parsed tolerantly.
func installedVersion(inst *graph.Bundle, text string) (semver.Version, bool) {
	if inst != nil {
		if v, ok := inst.ValidVersion(); ok {
			return v, true
		}
	}
	if text == "" {
		return semver.Version{}, false
	}
	v, err := graph.ParseVersion(text)
	return v, err == nil
}

// choose resolves ext with v1 as a fresh install (a moved operator is
// installed anew), after capping its range below the first version that
// would drop a stored CRD version; it records v1's choice and next
// upgrade and flags how they differ from v0's.
func (b *builder) choose(e *Entry, ext *cluster.ClusterExtension, cat *graph.Catalog, inst *graph.Bundle) {
	b.capStoredVersions(e, ext, cat, inst)
	e.ClusterExtension = *ext
	res := b.v1.ResolveExtension(ext)
	e.V1Now = Pick{Bundle: res.Bundle, Version: res.Version, Catalog: res.Catalog, Error: res.Error}
	for _, p := range res.Predictions {
		if p.Severity == olmv1.SeverityFailure {
			msg := p.Message
			if p.V1Message != "" {
				msg = p.V1Message
			}
			e.V1Now.Failures = append(e.V1Now.Failures, string(p.Reason)+": "+msg)
		}
	}
	if res.Error != "" {
		if res.ErrorKind == olmv1.ErrorDependency {
			if !slices.ContainsFunc(e.Blocks, func(x Block) bool { return x.Kind == BlockDependencies }) {
				e.Blocks = append(e.Blocks, Block{Kind: BlockDependencies, Message: fmt.Sprintf("v1's choice for %s declares dependencies, and v1 resolves none", ext.Name), V1Reason: res.Error})
			}
			return
		}
		e.Blocks = append(e.Blocks, Block{Kind: BlockNoBundle, Message: fmt.Sprintf("v1 finds no bundle for ClusterExtension %s", ext.Name), V1Reason: res.Error})
		return
	}
	now := b.v1Bundle(res.Catalog, ext.Package, res.Bundle)
	for _, p := range res.Predictions {
		if p.Severity == olmv1.SeverityFailure {
			b.refusal(e, res.Bundle, v1BlockKind(p.Reason), p.Message, p.V1Message)
		}
	}
	if now != nil {
		e.V1Now.Channel = words.Join(now.Channels, "and")
		b.dependencies(e, now, "v1's choice")
		// The cluster's CRDs are those v0 installed: v1's preflight
		// compares them with the bundle's at install.
		preds, unchecked := b.v1.CRDPreflight(b.ctx, ext, now, res.Version, b.state.CRDs)
		for _, p := range preds {
			e.V1Now.Failures = append(e.V1Now.Failures, string(p.Reason)+": "+p.V1Message)
			b.refusal(e, res.Bundle, BlockV1Refuses, p.Message, p.V1Message)
		}
		b.unchecked = append(b.unchecked, unchecked...)
	}
	if len(res.Next) > 0 {
		h := res.Next[0]
		e.V1Next = Pick{Bundle: h.Bundle, Version: h.Version, Catalog: h.Catalog, Error: h.Error}
	}
	b.compare(e, ext, cat, inst, now)
}

// refusal blocks e: v1 would refuse its choice bundle at install, why
// in Sextant's words and v1's (v1Reason). A block of the same kind already
// there (from the installed operator) says it.
func (b *builder) refusal(e *Entry, bundle string, kind BlockKind, why, v1Reason string) {
	if slices.ContainsFunc(e.Blocks, func(x Block) bool { return x.Kind == kind }) {
		return
	}
	e.Blocks = append(e.Blocks, Block{Kind: kind, Message: fmt.Sprintf("v1 would refuse its choice %s at install: %s", bundle, why), V1Reason: v1Reason})
}

// v1BlockKind is the block of a v1 refusal at install.
func v1BlockKind(r olmv1.PredictionReason) BlockKind {
	switch r {
	case olmv1.ReasonInstallMode:
		return BlockInstallModes
	case olmv1.ReasonAPIServices:
		return BlockAPIServices
	}
	return BlockV1Refuses
}

// v1Bundle returns the bundle v1 chose: package pkg's bundle name in the
// catalog whose ClusterCatalog is named catalog.
func (b *builder) v1Bundle(catalog, pkg, name string) *graph.Bundle {
	for _, c := range b.catalogs {
		if b.ccByKey[c.Key].Name == catalog {
			return bundleIn(c.Catalog, pkg, name)
		}
	}
	return nil
}

// capStoredVersions bounds ext's range below the lowest version of its
// package, above the installed one and in its channel, whose CRDs drop a
// version the cluster's CRD stores: v1 would refuse to install it, and v0
// fails it too.
func (b *builder) capStoredVersions(e *Entry, ext *cluster.ClusterExtension, cat *graph.Catalog, inst *graph.Bundle) {
	if cat == nil || !strings.HasPrefix(ext.Version, ">=") {
		return
	}
	from, ok := installedVersion(inst, e.InstalledVersion)
	p := cat.Package(ext.Package)
	if !ok || p == nil {
		return
	}
	var first *graph.Bundle
	var loss cluster.StoredVersionLoss
	for _, bd := range p.Bundles {
		v, ok := bd.ValidVersion()
		if !ok || v.LTE(from) || (first != nil && v.GTE(first.Version)) {
			continue
		}
		if len(ext.Channels) > 0 && !slices.Contains(bd.Channels, ext.Channels[0]) {
			continue
		}
		if ls := b.crds.StoredVersionLosses(bd.Provides); len(ls) > 0 {
			first, loss = bd, ls[0]
		}
	}
	if first == nil {
		return
	}
	ext.Version += " <" + first.Version.String()
	e.Changes = append(e.Changes, Change{Kind: ChangeStoredVersions,
		Message: fmt.Sprintf("the range stops below %s: from %s on, CRD %s drops stored version %s (status.storedVersions lists %s), which v1's CRD upgrade check and v0 both refuse; migrate the stored objects first, then widen the range",
			first.VersionText, first.Name, loss.CRD.Name, words.Join(loss.Dropped, "and"), words.Join(loss.CRD.StoredVersions, "and"))})
}

// compare flags every way v1's choice now differs from v0's next step.
func (b *builder) compare(e *Entry, ext *cluster.ClusterExtension, cat *graph.Catalog, inst *graph.Bundle, now *graph.Bundle) {
	if now == nil {
		return
	}
	var ch *graph.Channel
	if p := catPackage(cat, ext.Package); p != nil {
		if e.Channel != "" {
			ch = p.Channel(e.Channel)
		} else {
			ch = p.Default()
		}
	}
	if e.Channel == "" && ch != nil && !slices.Contains(now.Channels, ch.Name) {
		e.Differences = append(e.Differences, Difference{Kind: DiffChannel,
			Message: fmt.Sprintf("the subscription names no channel: v0 follows the default channel %s, and v1 searches every channel, choosing %s from %s", ch.Name, now.Name, words.Join(now.Channels, "and"))})
	}
	switch next := b.v0Bundle(e, ext.Package); {
	case len(now.Version.Pre) > 0 && (inst == nil || len(inst.Version.Pre) == 0):
		e.Differences = append(e.Differences, Difference{Kind: DiffPrerelease,
			Message: fmt.Sprintf("v1 chooses prerelease %s %s", now.Name, now.VersionText)})
	case next != nil && len(next.Version.Pre) > 0 && len(now.Version.Pre) == 0:
		e.Differences = append(e.Differences, Difference{Kind: DiffPrerelease,
			Message: fmt.Sprintf("v0 moves to prerelease %s %s, which v1 never chooses: a version range takes a prerelease only when one of its bounds has one", next.Name, next.VersionText)})
	}
	if inst != nil && ch != nil && now.Name != inst.Name && !slices.Contains(ch.Reachable(inst.Name), now.Name) {
		e.Differences = append(e.Differences, Difference{Kind: DiffUnreachable,
			Message: fmt.Sprintf("v0 never reaches %s from %s on channel %s", now.Name, inst.Name, ch.Name)})
	}
	if ext.Selector != nil {
		open := *ext
		open.Selector = nil
		var v1err *olmv1.Error
		if _, _, err := b.v1.Choose(&open, nil); errors.As(err, &v1err) && v1err.Kind == olmv1.ErrorSamePriority {
			e.Differences = append(e.Differences, Difference{Kind: DiffCatalogs,
				Message: "the selector pins the catalog; without it v1 refuses: " + err.Error()})
		}
	}
	want := e.V0Next.Bundle
	if want == "" && e.V0Next.Error == "" {
		want = e.Installed
	}
	if want != "" && now.Name != want {
		e.Differences = append(e.Differences, Difference{Kind: DiffVersion,
			Message: fmt.Sprintf("v1 installs %s %s; v0 runs %s next", now.Name, now.VersionText, want)})
	}
}

// v0Bundle returns the bundle of v0's next step for e, or nil.
func (b *builder) v0Bundle(e *Entry, pkg string) *graph.Bundle {
	if e.V0Next.Bundle == "" {
		return nil
	}
	st, ok := b.steps[subKey{e.Namespace, e.Name}]
	if !ok {
		return nil
	}
	return bundleIn(b.catalog(st.Catalog), pkg, st.Bundle)
}

func catPackage(c *graph.Catalog, name string) *graph.Package {
	if c == nil {
		return nil
	}
	return c.Package(name)
}

// losses adds what v0 gave s that v1 does not.
func (b *builder) losses(e *Entry, s *cluster.Subscription, csv *cluster.CSV, inst *graph.Bundle) {
	if s.Manual() {
		e.Lost = append(e.Lost, Loss{Kind: LostManualApproval,
			Message: fmt.Sprintf("v1 has no InstallPlan approval: the version pin %q keeps every upgrade waiting for a person", e.ClusterExtension.Version)})
	}
	minKube := ""
	if now := b.v1Bundle(e.V1Now.Catalog, s.Package, e.V1Now.Bundle); now != nil && now.CSVMetadata != nil {
		minKube = now.CSVMetadata.MinKubeVersion
	} else if csv != nil {
		minKube = csv.MinKubeVersion
	}
	if minKube != "" {
		e.Lost = append(e.Lost, Loss{Kind: LostMinKubeVersion,
			Message: fmt.Sprintf("v1 never checks minKubeVersion: the operator needs Kubernetes %s or later, and nothing stops it on an older cluster", minKube)})
	}
	g, _, err := b.state.NamespaceOperatorGroup(s.Namespace)
	if err != nil || g == nil {
		return
	}
	if g.Strategy() == cluster.UpgradeStrategyUnsafeFailForward {
		e.Lost = append(e.Lost, Loss{Kind: LostFailForward,
			Message: fmt.Sprintf("OperatorGroup %s/%s lets a failed upgrade be replaced by the next (%s); v1 has no fail-forward", g.Namespace, g.Name, cluster.UpgradeStrategyUnsafeFailForward)})
	}
	if g.ServiceAccountName != "" {
		e.Lost = append(e.Lost, Loss{Kind: LostScopedServiceAccount,
			Message: fmt.Sprintf("OperatorGroup %s/%s installs its operators as service account %s, scoped to what it may do; operator-controller v1.11.0 installs every extension as its own cluster-admin service account", g.Namespace, g.Name, g.ServiceAccountName)})
	}
}
