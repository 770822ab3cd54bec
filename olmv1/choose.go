package olmv1

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

// dependencyProperties are the property types whose presence makes
// operator-controller refuse a bundle (it resolves no dependencies), in the
// order it checks them: the first such property of the bundle is named.
var dependencyProperties = []string{graph.TypePackageRequired, graph.TypeGVKRequired, graph.TypeConstraint}

// pick is the best candidate of one catalog.
type pick struct {
	cat        *Catalog
	pkg        *graph.Package
	idx        int // in pkg.Bundles
	facts      []bundleFacts
	deprecated bool
	candidates int // how many bundles of the catalog passed the filters
}

// choice is the outcome of one choice: the bundle and its catalog, or
// v1's error; with explain, every bundle passed over.
type choice struct {
	bundle  *graph.Bundle
	facts   bundleFacts
	catalog *Catalog
	pkg     *graph.Package
	err     *Error

	rng       Range
	installed *cluster.InstalledBundle
	picks     []pick // the catalogs that held a candidate, as they stood before the choice between them
	passed    []PassedOver
	skipped   []SkippedCatalog
}

// successors is v1's successor filter: the bundles whose channel entry
// replaces, skips or skipRanges the installed bundle, and the installed
// version itself.
type successors struct {
	name string
	v    semver.Version
	vr   versionRelease
}

// installedVersion reads an installed bundle's version and release as
// operator-controller does: apart when status.install.bundle.release is
// set, else the release in the version's build metadata.
func installedVersion(in *cluster.InstalledBundle) (versionRelease, error) {
	if in.Release == nil {
		vr, err := parseLegacyVersion(in.Version)
		if err != nil {
			return vr, fmt.Errorf("failed to get version and release of installed bundle: %w", err)
		}
		return vr, nil
	}
	vr, err := parseExplicitRelease(in.Version, *in.Release)
	if err != nil {
		return vr, fmt.Errorf("failed to parse installed bundle version and release: %w", err)
	}
	return vr, nil
}

func newSuccessors(in *cluster.InstalledBundle) (*successors, error) {
	vr, err := installedVersion(in)
	if err != nil {
		return nil, err
	}
	v, err := semver.Parse(in.Version)
	if err != nil {
		return nil, fmt.Errorf("getting successorsPredicate: error parsing installed bundle version: %w", err)
	}
	return &successors{name: in.Name, v: v, vr: vr}, nil
}

// accepts reports whether b (with facts f) of p may follow the installed
// bundle: an entry for b in one of p's channels names it (replaces, skips)
// or covers its version (skipRange, read with blang), or b has its very
// version and release. When the extension names channels, only their
// entries count: operator-controller drops the other channels from the
// package before it looks for successors.
func (s *successors) accepts(p *graph.Package, b *graph.Bundle, f *bundleFacts, channels []string) bool {
	for _, name := range b.Channels {
		if len(channels) > 0 && !slices.Contains(channels, name) {
			continue
		}
		ch := p.Channel(name)
		if ch == nil {
			continue
		}
		e, ok := ch.Entry(b.Name)
		if !ok {
			continue
		}
		if e.Replaces == s.name || slices.Contains(e.Skips, s.name) || e.SkipRange.Contains(s.v) {
			return true
		}
	}
	return f.vrErr == nil && f.vr.compare(s.vr) == 0
}

// selects reports whether sel selects a catalog with labels: a nil or
// empty selector selects every catalog.
func selects(sel *cluster.LabelSelector, labels map[string]string) bool {
	if sel == nil || (len(sel.MatchLabels) == 0 && len(sel.MatchExpressions) == 0) {
		return true
	}
	return sel.Matches(labels)
}

// served reports whether operator-controller reads the catalog: its
// Serving condition is True. A catalog with no Serving condition at all (a
// manifest without status) is taken as served.
func served(c *Catalog) bool { return c.Serving == "True" || c.Serving == "" }

// precedes reports whether a ranks before b in a catalog: not deprecated
// before deprecated, then a valid version before none, then the higher
// version and release.
func precedes(a, b *bundleFacts) bool {
	if a.deprecated != b.deprecated {
		return !a.deprecated
	}
	if (a.vrErr == nil) != (b.vrErr == nil) {
		return a.vrErr == nil
	}
	return a.vrErr == nil && a.vr.compare(b.vr) > 0
}

// choose makes operator-controller's choice for ext upgrading from
// installed (nil: a fresh install). With explain, it records every bundle
// passed over and why.
func (r *Resolver) choose(ext *cluster.ClusterExtension, installed *cluster.InstalledBundle, explain bool) *choice {
	c := &choice{installed: installed}
	if err := ext.Selector.Validate(); err != nil {
		c.err = &Error{Kind: ErrorSelector, Package: ext.Package, err: err, msg: "desired catalog selector is invalid: " + err.Error()}
		return c
	}
	if ext.Version != "" {
		rng, err := ParseRange(ext.Version)
		if err != nil {
			c.err = &Error{Kind: ErrorVersionRange, Package: ext.Package, err: err, msg: fmt.Sprintf("desired version range %q is invalid: %v", ext.Version, err)}
			return c
		}
		c.rng = rng
	}
	var succ *successors
	for i := range r.catalogs {
		cat := &r.catalogs[i]
		var p *graph.Package
		if cat.Content != nil {
			p = cat.Content.Package(ext.Package)
		}
		if !selects(ext.Selector, cat.Labels) {
			if explain && p != nil {
				c.skipped = append(c.skipped, SkippedCatalog{Catalog: cat.Name, Reason: "not selected by spec.source.catalog.selector"})
			}
			continue
		}
		if !cat.Available() {
			if explain && p != nil {
				c.skipped = append(c.skipped, SkippedCatalog{Catalog: cat.Name, Reason: "availabilityMode Unavailable"})
			}
			continue
		}
		if !served(cat) {
			c.err = &Error{Kind: ErrorNotServed, Package: ext.Package, Catalogs: []string{cat.Name},
				msg: fmt.Sprintf("error walking catalogs: error getting package %q from catalog %q: catalog %q is not being served", ext.Package, cat.Name, cat.Name)}
			return c
		}
		if p == nil {
			continue
		}
		if installed != nil && ext.Policy() != cluster.UpgradeSelfCertified && succ == nil {
			s, err := newSuccessors(installed)
			if err != nil {
				c.err = &Error{Kind: ErrorInstalledVersion, Package: ext.Package, err: err, msg: fmt.Sprintf("error walking catalogs: error finding upgrade edges: %v", err)}
				return c
			}
			succ = s
		}
		if pk, ok := r.catalogPick(c, ext, cat, p, succ, explain); ok {
			c.addPick(pk, explain)
		}
	}
	c.decide(ext, explain)
	return c
}

// catalogPick filters the bundles of p in cat and returns the first in
// v1's order, if any.
func (r *Resolver) catalogPick(c *choice, ext *cluster.ClusterExtension, cat *Catalog, p *graph.Package, succ *successors, explain bool) (pick, bool) {
	facts := r.packageFacts(p)
	best := -1
	var cands []int
	for j, b := range p.Bundles {
		f := &facts[j]
		var why Exclusion
		switch {
		case len(ext.Channels) > 0 && !slices.ContainsFunc(b.Channels, func(ch string) bool { return slices.Contains(ext.Channels, ch) }):
			why = ExcludedChannel
		case c.rng.c != nil && (f.vrErr != nil || !c.rng.contains(f.vr)):
			why = ExcludedRange
		case succ != nil && !succ.accepts(p, b, f, ext.Channels):
			why = ExcludedSuccessor
		}
		if why != "" {
			if explain {
				c.passed = append(c.passed, c.passedOver(cat, b, f, why, ext))
			}
			continue
		}
		if best < 0 || precedes(f, &facts[best]) {
			best = j
		}
		cands = append(cands, j)
	}
	if best < 0 {
		return pick{}, false
	}
	if explain {
		for _, j := range cands {
			if j == best {
				continue
			}
			why := ExcludedLower
			switch {
			case facts[j].deprecated && !facts[best].deprecated:
				why = ExcludedDeprecated
			case facts[j].vrErr != nil:
				why = ExcludedVersion
			case facts[j].vr.compare(facts[best].vr) == 0:
				why = ExcludedTie
			}
			po := c.passedOver(cat, p.Bundles[j], &facts[j], why, ext)
			po.Detail = detailAgainst(why, p.Bundles[j], &facts[j], p.Bundles[best], &facts[best])
			c.passed = append(c.passed, po)
		}
	}
	return pick{cat: cat, pkg: p, idx: best, facts: facts, deprecated: facts[best].deprecated, candidates: len(cands)}, true
}

// addPick adds one catalog's pick as v1 does: a deprecated pick never
// displaces non-deprecated ones, a non-deprecated one displaces deprecated
// ones.
func (c *choice) addPick(pk pick, explain bool) {
	if n := len(c.picks); n > 0 {
		prior := c.picks[n-1].deprecated
		switch {
		case pk.deprecated && !prior:
			if explain {
				c.lost(pk, "deprecated, while catalog "+c.picks[n-1].cat.Name+"'s pick is not")
			}
			return
		case !pk.deprecated && prior:
			if explain {
				for _, old := range c.picks {
					c.lost(old, "deprecated, while catalog "+pk.cat.Name+"'s pick is not")
				}
			}
			c.picks = c.picks[:0]
		}
	}
	c.picks = append(c.picks, pk)
}

// lost records that a catalog's pick lost to another catalog's.
func (c *choice) lost(pk pick, why string) {
	b := pk.pkg.Bundles[pk.idx]
	f := &pk.facts[pk.idx]
	po := PassedOver{Bundle: b.Name, Version: versionText(b, f), Catalog: pk.cat.Name, Reason: ExcludedCatalog, Detail: why, vr: f.vr, vrOK: f.vrErr == nil}
	c.passed = append(c.passed, po)
}

// decide chooses between the catalogs' picks by priority, and reports
// v1's errors: none, or several at the top priority, or a chosen bundle v1
// refuses.
func (c *choice) decide(ext *cluster.ClusterExtension, explain bool) {
	if c.err != nil {
		return
	}
	picks := slices.Clone(c.picks)
	slices.SortStableFunc(picks, func(a, b pick) int { return cmp.Compare(b.cat.Priority, a.cat.Priority) })
	if len(picks) > 1 && picks[0].cat.Priority != picks[1].cat.Priority {
		if explain {
			for _, pk := range picks[1:] {
				c.lost(pk, fmt.Sprintf("catalog %s has priority %d, below %s's %d", pk.cat.Name, pk.cat.Priority, picks[0].cat.Name, picks[0].cat.Priority))
			}
		}
		picks = picks[:1]
	}
	if len(picks) != 1 {
		if explain {
			for _, pk := range picks {
				c.lost(pk, fmt.Sprintf("catalog %s ties at the top priority %d", pk.cat.Name, pk.cat.Priority))
			}
		}
		c.err = resolutionError(ext, c.installed, picks)
		return
	}
	pk := picks[0]
	c.catalog, c.pkg = pk.cat, pk.pkg
	c.bundle, c.facts = pk.pkg.Bundles[pk.idx], pk.facts[pk.idx]
	if c.facts.vrErr != nil {
		c.err = &Error{Kind: ErrorBundleVersion, Package: ext.Package, Bundle: c.bundle.Name, err: c.facts.vrErr,
			msg: fmt.Sprintf("error getting resolved bundle version for bundle %q: %v", c.bundle.Name, c.facts.vrErr)}
		return
	}
	for _, p := range c.bundle.Properties {
		if slices.Contains(dependencyProperties, p.Type) {
			c.err = &Error{Kind: ErrorDependency, Package: ext.Package, Bundle: c.bundle.Name, Property: p.Type,
				msg: fmt.Sprintf("validating bundle %q: bundle %q has a dependency declared via property %q which is currently not supported", c.bundle.Name, c.bundle.Name, p.Type)}
			return
		}
	}
}

// resolutionError is operator-controller's error when no single bundle is
// left: none at all, or one in each of several catalogs of the same top
// priority.
func resolutionError(ext *cluster.ClusterExtension, installed *cluster.InstalledBundle, picks []pick) *Error {
	var sb strings.Builder
	if installed != nil {
		fmt.Fprintf(&sb, "error upgrading from currently installed version %q: ", installed.Version)
	}
	if len(picks) > 1 {
		fmt.Fprintf(&sb, "found bundles for package %q ", ext.Package)
	} else {
		fmt.Fprintf(&sb, "no bundles found for package %q ", ext.Package)
	}
	if ext.Version != "" {
		fmt.Fprintf(&sb, "matching version %q ", ext.Version)
	}
	if len(ext.Channels) > 0 {
		fmt.Fprintf(&sb, "in channels %v ", ext.Channels)
	}
	names := make([]string, len(picks))
	for i, pk := range picks {
		names[i] = pk.cat.Name
	}
	slices.Sort(names)
	e := &Error{Kind: ErrorNoBundle, Package: ext.Package}
	if len(names) > 1 {
		fmt.Fprintf(&sb, "in multiple catalogs with the same priority %v ", names)
		e.Kind, e.Catalogs = ErrorSamePriority, names
	}
	e.msg = strings.TrimSpace(sb.String())
	return e
}
