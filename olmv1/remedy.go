package olmv1

import (
	"context"
	"fmt"
	"slices"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/confirm"
	"github.com/sextantdev/sextant/internal/suggest"
	"github.com/sextantdev/sextant/internal/words"
)

// Remedy is a change that gives a ClusterExtension that got v1's error a
// bundle, confirmed by resolving the changed extension again with the
// same catalogs (as v0's confirmed suggestions are): Change says what to
// set, Bundle, Version and Catalog what operator-controller then chooses.
// A Remedy of Kind RemedyDependency does not make the extension resolve
// (v1 refuses a bundle that declares dependencies): it names a dependency
// of the chosen bundle installed as a ClusterExtension of its own, and
// the bundle that one gets. A Remedy of Kind RemedyChannel or
// RemedyVersion is one of an [APIExtension]: the ClusterExtension
// (Extension) of Package whose bundle provides the API.
type Remedy struct {
	Kind    RemedyKind `json:"kind"`
	Change  string     `json:"change"`
	Bundle  string     `json:"bundle"`
	Version string     `json:"version"`
	Catalog string     `json:"catalog"`
	// Package and Extension are set for RemedyChannel and RemedyVersion:
	// the package and the ClusterExtension confirmed.
	Package   string                    `json:"package,omitempty"`
	Extension *cluster.ClusterExtension `json:"extension,omitempty"`
}

// RemedyKind says what a [Remedy] changes.
type RemedyKind string

// The kinds of [Remedy].
const (
	// RemedyPackageName: spec.source.catalog.packageName names no package
	// of the catalogs and is a likely typo of one that resolves.
	RemedyPackageName RemedyKind = "package-name"
	// RemedySelfCertified: upgradeConstraintPolicy SelfCertified lets the
	// extension leave the catalog's upgrade edges from its installed
	// bundle.
	RemedySelfCertified RemedyKind = "self-certified"
	// RemedyCatalog: a selector naming one of the catalogs that tie at the
	// top priority (or that ClusterCatalog given a higher spec.priority).
	RemedyCatalog RemedyKind = "catalog"
	// RemedyDependency: a dependency of the chosen bundle as a
	// ClusterExtension of its own.
	RemedyDependency RemedyKind = "dependency"
	// RemedyChannel: a channel whose bundle provides an API that the
	// bundle chosen without one no longer provides.
	RemedyChannel RemedyKind = "channel"
	// RemedyVersion: a version range whose bundle provides an API that
	// the bundle chosen without one no longer provides.
	RemedyVersion RemedyKind = "version"
)

// remedyCandidate is a change to try: the extension changed, resolved
// with installed.
type remedyCandidate struct {
	kind      RemedyKind
	change    string
	ext       cluster.ClusterExtension
	installed *cluster.InstalledBundle
}

// maxRemedies bounds the remedies of one extension.
const maxRemedies = 10

// remedies returns the confirmed remedies of ext, whose resolution ended
// with err (c: its choice). The candidates are tried by the one loop of
// confirmed changes (internal/confirm), each re-resolved with the same
// catalogs; at most maxRemedies are kept.
func (r *Resolver) remedies(ext *cluster.ClusterExtension, err *Error, c *choice) []Remedy {
	var cands []remedyCandidate
	try := func(kind RemedyKind, change string, changed cluster.ClusterExtension, installed *cluster.InstalledBundle) {
		cands = append(cands, remedyCandidate{kind, change, changed, installed})
	}
	switch err.Kind {
	case ErrorNoBundle:
		if !r.hasPackage(ext.Package) {
			if near := suggest.Nearest(ext.Package, r.packageNames()); near != "" {
				changed := *ext
				changed.Package = near
				try(RemedyPackageName, fmt.Sprintf("packageName: %s (no catalog has package %q)", near, ext.Package), changed, nil)
			}
			return r.confirmRemedies(cands)
		}
		if ext.Installed != nil && ext.Policy() != cluster.UpgradeSelfCertified {
			changed := *ext
			changed.UpgradeConstraintPolicy = cluster.UpgradeSelfCertified
			try(RemedySelfCertified, fmt.Sprintf("upgradeConstraintPolicy: SelfCertified (no upgrade edge from %s is then required: you vouch for the change)", ext.Installed.Name), changed, ext.Installed)
		}
	case ErrorSamePriority:
		for _, name := range err.Catalogs {
			changed := *ext
			changed.Selector = &cluster.LabelSelector{MatchLabels: map[string]string{cluster.MetadataNameLabel: name}}
			try(RemedyCatalog, fmt.Sprintf("selector: matchLabels %s: %s (or a higher spec.priority on ClusterCatalog %s)", cluster.MetadataNameLabel, name, name), changed, ext.Installed)
		}
	case ErrorDependency:
		if c == nil || c.bundle == nil {
			return nil
		}
		for _, req := range c.bundle.RequiresPackage {
			dep := cluster.ClusterExtension{Name: req.Package, SourceType: ext.SourceType, Package: req.Package, Version: req.Range.String()}
			change := fmt.Sprintf("a ClusterExtension of its own for package %s, version %q (required by %s)", req.Package, req.Range.String(), c.bundle.Name)
			try(RemedyDependency, change, dep, nil)
		}
		var order []string
		apis := map[string][]string{}
		for _, gvk := range c.bundle.RequiresGVK {
			for _, p := range r.APIPackages(func(g graph.GVK) bool { return g == gvk }) {
				if p.Error != "" || !p.Provides {
					continue
				}
				if _, ok := apis[p.Package]; !ok {
					order = append(order, p.Package)
				}
				apis[p.Package] = append(apis[p.Package], gvk.String())
			}
		}
		for _, pkg := range order {
			dep := cluster.ClusterExtension{Name: pkg, SourceType: ext.SourceType, Package: pkg}
			what := "API"
			if len(apis[pkg]) > 1 {
				what = "APIs"
			}
			change := fmt.Sprintf("a ClusterExtension of its own for package %s, which provides %s %s (required by %s)",
				pkg, what, words.First(apis[pkg], 5), c.bundle.Name)
			try(RemedyDependency, change, dep, nil)
		}
	}
	return r.confirmRemedies(cands)
}

// confirmRemedies keeps the candidates that resolve, in order.
func (r *Resolver) confirmRemedies(cands []remedyCandidate) []Remedy {
	var out []Remedy
	// The tries never fail and take no context (each is one choice on
	// catalogs already read), so Run's error is always nil.
	_, _ = confirm.Run(context.Background(), confirm.Budget{Max: maxRemedies}, cands, func(_ context.Context, m remedyCandidate) (bool, error) {
		changed := m.ext
		changed.Installed = m.installed
		got := r.choose(&changed, m.installed, false)
		if got.err != nil {
			return false, nil
		}
		version, _ := got.facts.vr.recorded(r.opts.BundleRelease)
		out = append(out, Remedy{Kind: m.kind, Change: m.change, Bundle: got.bundle.Name, Version: version, Catalog: got.catalog.Name})
		return true, nil
	})
	return out
}

// hasPackage reports whether a catalog has package name.
func (r *Resolver) hasPackage(name string) bool {
	for i := range r.catalogs {
		if r.catalogs[i].Content != nil && r.catalogs[i].Content.Package(name) != nil {
			return true
		}
	}
	return false
}

// packageNames returns the names of every catalog's packages, sorted,
// each once.
func (r *Resolver) packageNames() []string {
	var names []string
	for i := range r.catalogs {
		if r.catalogs[i].Content == nil {
			continue
		}
		for _, p := range r.catalogs[i].Content.Packages() {
			names = append(names, p.Name)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}
