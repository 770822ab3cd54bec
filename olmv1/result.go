package olmv1

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

// Outcome is the answer for every ClusterExtension of a state. Its JSON
// form is the CLI's `-o json` in v1 mode:
//
//	{"extensions": [ {ExtensionOutcome}, ... ]}
//
// one entry per extension, sorted by name.
type Outcome struct {
	Extensions []ExtensionOutcome `json:"extensions"`
	// Unchecked says what of OLM v1's CRD upgrade safety preflight could
	// not be predicted (the chosen bundles' contents, or the cluster's
	// CRDs, missing), by extension.
	Unchecked []Unchecked `json:"unchecked,omitempty"`
}

// Failed reports whether an extension has no bundle (v1's error) or a
// predicted failure: what makes the CLI exit 1.
func (r *Outcome) Failed() bool {
	for i := range r.Extensions {
		if r.Extensions[i].Failed() {
			return true
		}
	}
	return false
}

// ExtensionOutcome is the answer for one ClusterExtension. Name, Package and either
// Bundle, Version and Catalog (operator-controller's choice: the bundle
// name, its version as operator-controller records it in
// status.install.bundle.version, the ClusterCatalog's name) or Error
// (operator-controller's message, word for word) are what v1 itself
// decides; the other fields are what Sextant adds.
type ExtensionOutcome struct {
	Name    string `json:"name"`
	Package string `json:"package"`
	Bundle  string `json:"bundle,omitempty"`
	Version string `json:"version,omitempty"`
	Catalog string `json:"catalog,omitempty"`
	Error   string `json:"error,omitempty"`
	// ErrorKind says which error Error is (see [Error]); empty without
	// one.
	ErrorKind ErrorKind `json:"errorKind,omitempty"`
	// Release is the bundle's release as operator-controller records it in
	// status.install.bundle.release: only with BundleReleaseSupport
	// (Options.BundleRelease), when the bundle has one; without it, a
	// release is Version's build metadata.
	Release *string `json:"release,omitempty"`

	// Installed is the extension's status.install.bundle, nil for a fresh
	// install.
	Installed *cluster.InstalledBundle `json:"installed,omitempty"`
	// Action is what the choice does to the cluster: install, upgrade,
	// downgrade (only SelfCertified allows one) or stay; empty with Error.
	Action Action `json:"action,omitempty"`
	// Reason says why the bundle was chosen, in words.
	Reason string `json:"reason,omitempty"`
	// DefaultHead is the head of the package's default channel — what OLM
	// v0 installs for a Subscription naming no channel — when a fresh
	// install naming no channel and no version chooses another bundle.
	DefaultHead *ChannelHead `json:"defaultChannelHead,omitempty"`
	// PassedOver lists every bundle of the package, in the catalogs
	// searched, that was not chosen and why: sorted by catalog, then
	// version (highest first), then name.
	PassedOver []PassedOver `json:"passedOver,omitempty"`
	// SkippedCatalogs are the catalogs holding the package that the
	// extension did not search, by name.
	SkippedCatalogs []SkippedCatalog `json:"skippedCatalogs,omitempty"`
	// Deprecations are the olm.deprecations messages that apply (the
	// package, a channel the extension names, the chosen bundle).
	Deprecations []string `json:"deprecations,omitempty"`
	// Predictions are what operator-controller will refuse at install, or
	// what it never checks, for the chosen bundle.
	Predictions []Prediction `json:"predictions,omitempty"`
	// Remedies are the changes that give an extension with Error a
	// bundle, each confirmed by resolving the changed extension again (a
	// dependency's: the bundle that dependency gets as an extension of its
	// own); empty without Error.
	Remedies []Remedy `json:"remedies,omitempty"`
	// Next are the upgrades operator-controller will make on the
	// following catalog polls, hop by hop, as long as the catalogs stay
	// as they are: each hop upgrades from the one before it. The last hop
	// is followed by none (the extension stays), or is an error.
	Next []Hop `json:"next,omitempty"`
}

// Failed reports whether the extension gets no bundle or a predicted
// failure.
func (r *ExtensionOutcome) Failed() bool {
	return r.Error != "" || slices.ContainsFunc(r.Predictions, func(p Prediction) bool { return p.Severity == SeverityFailure })
}

// Action is what a choice does to the cluster.
type Action string

// The actions of a [ExtensionOutcome].
const (
	ActionInstall   Action = "install"
	ActionUpgrade   Action = "upgrade"
	ActionDowngrade Action = "downgrade"
	ActionStay      Action = "stay"
)

// ChannelHead is the head of a channel.
type ChannelHead struct {
	Bundle  string `json:"bundle"`
	Version string `json:"version"`
	Channel string `json:"channel"`
}

// Exclusion is why a bundle was passed over.
type Exclusion string

// The reasons a bundle is passed over, in the order v1 applies them.
const (
	// ExcludedChannel: in none of the channels the extension names.
	ExcludedChannel Exclusion = "channel"
	// ExcludedRange: its version is outside the extension's version range
	// (or is not strict semver).
	ExcludedRange Exclusion = "version-range"
	// ExcludedSuccessor: not a successor of the installed bundle (no
	// replaces, skips or skipRange reaches it, and it is not the installed
	// version itself).
	ExcludedSuccessor Exclusion = "not-successor"
	// ExcludedDeprecated: deprecated, while a candidate that is not won.
	ExcludedDeprecated Exclusion = "deprecated"
	// ExcludedVersion: its version is not strict semver, so it ranks
	// below every candidate that has one.
	ExcludedVersion Exclusion = "invalid-version"
	// ExcludedLower: a higher version (or release) won.
	ExcludedLower Exclusion = "lower-version"
	// ExcludedTie: the same version and release as the winner, which
	// comes first.
	ExcludedTie Exclusion = "same-version"
	// ExcludedCatalog: its catalog's best lost to another catalog's
	// (priority, or deprecation).
	ExcludedCatalog Exclusion = "other-catalog"
)

// PassedOver is a bundle that was not chosen.
type PassedOver struct {
	Bundle  string    `json:"bundle"`
	Version string    `json:"version"`
	Catalog string    `json:"catalog"`
	Reason  Exclusion `json:"reason"`
	Detail  string    `json:"detail"`

	vr   versionRelease // the version as v1 reads it, for sorting
	vrOK bool
}

// SkippedCatalog is a catalog holding the package that the extension does
// not search.
type SkippedCatalog struct {
	Catalog string `json:"catalog"`
	Reason  string `json:"reason"`
}

// Hop is one upgrade operator-controller will make after the choice: a
// bundle, or the error that stops the upgrades.
type Hop struct {
	Bundle  string `json:"bundle,omitempty"`
	Version string `json:"version,omitempty"`
	// Release is as in ExtensionOutcome.
	Release *string `json:"release,omitempty"`
	Catalog string  `json:"catalog,omitempty"`
	Error   string  `json:"error,omitempty"`
	// ErrorKind is as in ExtensionOutcome.
	ErrorKind ErrorKind `json:"errorKind,omitempty"`
	// Predictions are what operator-controller will do with the hop's
	// bundle (see ExtensionOutcome.Predictions; single ownership is not looked at).
	Predictions []Prediction `json:"predictions,omitempty"`
}

// versionText returns a bundle's version as v1 records it, or the text
// as written when it is not strict semver.
func versionText(b *graph.Bundle, f *bundleFacts) string {
	if f.vrErr == nil {
		return f.vr.String()
	}
	return b.VersionText
}

// passedOver describes b, excluded for why.
func (c *choice) passedOver(cat *Catalog, b *graph.Bundle, f *bundleFacts, why Exclusion, ext *cluster.ClusterExtension) PassedOver {
	po := PassedOver{Bundle: b.Name, Version: versionText(b, f), Catalog: cat.Name, Reason: why, vr: f.vr, vrOK: f.vrErr == nil}
	switch why {
	case ExcludedChannel:
		if len(b.Channels) == 0 {
			po.Detail = "in no channel"
		} else {
			po.Detail = "in channel(s) " + strings.Join(b.Channels, ", ") + ", not " + strings.Join(ext.Channels, ", ")
		}
	case ExcludedRange:
		if f.vrErr != nil {
			po.Detail = fmt.Sprintf("version %q is not strict semver", b.VersionText)
		} else {
			po.Detail = fmt.Sprintf("outside %q", ext.Version)
			if len(f.vr.v.Pre) > 0 {
				po.Detail += " (a pre-release is in a range only when a bound has a pre-release)"
			}
		}
	case ExcludedSuccessor:
		po.Detail = fmt.Sprintf("no replaces, skips or skipRange reaches it from %s %s", c.installed.Name, c.installed.Version)
	}
	return po
}

// detailAgainst says why b lost to the winner w of its catalog.
func detailAgainst(why Exclusion, b *graph.Bundle, f *bundleFacts, w *graph.Bundle, wf *bundleFacts) string {
	switch why {
	case ExcludedDeprecated:
		return fmt.Sprintf("ranked after %s, which is not deprecated", w.Name)
	case ExcludedVersion:
		return fmt.Sprintf("version %q is not strict semver: ranked last", b.VersionText)
	case ExcludedTie:
		return fmt.Sprintf("same version as %s, which comes first", w.Name)
	}
	return fmt.Sprintf("below %s (%s)", versionText(w, wf), w.Name)
}

// setChoice records v1's answer; bundleRelease is
// Options.BundleRelease.
func (r *ExtensionOutcome) setChoice(c *choice, bundleRelease bool) {
	slices.SortStableFunc(c.passed, func(a, b PassedOver) int {
		return cmp.Or(cmp.Compare(a.Catalog, b.Catalog), comparePassed(&b, &a), cmp.Compare(a.Bundle, b.Bundle))
	})
	r.PassedOver, r.SkippedCatalogs = c.passed, c.skipped
	if c.err != nil {
		r.Error, r.ErrorKind = c.err.Error(), c.err.Kind
		return
	}
	r.Bundle, r.Catalog = c.bundle.Name, c.catalog.Name
	r.Version, r.Release = c.facts.vr.recorded(bundleRelease)
}

// comparePassed orders passed-over bundles by version, those without a
// strict version first (lowest).
func comparePassed(a, b *PassedOver) int {
	switch {
	case !a.vrOK && !b.vrOK:
		return cmp.Compare(a.Version, b.Version)
	case !a.vrOK:
		return -1
	case !b.vrOK:
		return 1
	}
	return a.vr.compare(b.vr)
}

// action says what the choice does to what is installed.
func action(in *cluster.InstalledBundle, c *choice) Action {
	if in == nil {
		return ActionInstall
	}
	if in.Name == c.bundle.Name {
		return ActionStay
	}
	if cur, err := installedVersion(in); err == nil && c.facts.vr.compare(cur) < 0 {
		return ActionDowngrade
	}
	return ActionUpgrade
}

// reason says in words why c's bundle was chosen.
func (c *choice) reason(ext *cluster.ClusterExtension) string {
	var b strings.Builder
	if c.facts.deprecated {
		b.WriteString("every candidate is deprecated; ")
	}
	b.WriteString("the highest version")
	if len(ext.Channels) > 0 {
		b.WriteString(" of channel(s) " + strings.Join(ext.Channels, ", "))
	} else {
		b.WriteString(" of every channel (the extension names none)")
	}
	if ext.Version != "" {
		fmt.Fprintf(&b, " in range %q", ext.Version)
	}
	switch {
	case c.installed == nil:
	case ext.Policy() == cluster.UpgradeSelfCertified:
		fmt.Fprintf(&b, ", from any version (SelfCertified: the catalog's edges from %s are not required)", c.installed.Name)
	default:
		fmt.Fprintf(&b, " among the successors of %s (replaces, skips, skipRange) and %s itself", c.installed.Name, c.installed.Version)
	}
	if len(ext.Channels) == 0 && len(c.bundle.Channels) > 0 {
		fmt.Fprintf(&b, "; it is in channel(s) %s", strings.Join(c.bundle.Channels, ", "))
	}
	if len(c.picks) > 1 {
		fmt.Fprintf(&b, "; catalog %s has the highest priority (%d) of the %d catalogs with a candidate", c.catalog.Name, c.catalog.Priority, len(c.picks))
	}
	return b.String()
}

// defaultHead returns the head of the default channel of the chosen
// package when a fresh install naming no channel and no version chooses
// another bundle (OLM v0 would install that head).
func (r *Resolver) defaultHead(ext *cluster.ClusterExtension, c *choice) *ChannelHead {
	if ext.Installed != nil || len(ext.Channels) > 0 || ext.Version != "" {
		return nil
	}
	ch := c.pkg.Default()
	if ch == nil {
		return nil
	}
	head, ok := ch.Head()
	if !ok || head == c.bundle.Name {
		return nil
	}
	h := &ChannelHead{Bundle: head, Channel: ch.Name}
	if i := slices.IndexFunc(c.pkg.Bundles, func(b *graph.Bundle) bool { return b.Name == head }); i >= 0 {
		facts := r.packageFacts(c.pkg)
		h.Version = versionText(c.pkg.Bundles[i], &facts[i])
	}
	return h
}

// deprecations returns the deprecation messages v1 reports for the
// choice: the package's, those of the channels the extension names, the
// chosen bundle's.
func deprecations(ext *cluster.ClusterExtension, c *choice) []string {
	var out []string
	for _, d := range c.pkg.DeprecationsOf(graph.SchemaPackage, "") {
		out = append(out, fmt.Sprintf("package %s is deprecated: %s", c.pkg.Name, d.Message))
	}
	for _, ch := range ext.Channels {
		for _, d := range c.pkg.DeprecationsOf(graph.SchemaChannel, ch) {
			out = append(out, fmt.Sprintf("channel %s is deprecated: %s", ch, d.Message))
		}
	}
	for _, d := range c.pkg.DeprecationsOf(graph.SchemaBundle, c.bundle.Name) {
		out = append(out, fmt.Sprintf("bundle %s is deprecated: %s", c.bundle.Name, d.Message))
	}
	return out
}

// hops follows the upgrades after c, as v1 makes them on later polls.
func (r *Resolver) hops(ext *cluster.ClusterExtension, c *choice) []Hop {
	limit := r.opts.MaxHops
	if limit == 0 {
		limit = DefaultMaxHops
	}
	var out []Hop
	seen := map[string]bool{c.bundle.Name: true}
	installed := func(b *graph.Bundle, vr versionRelease) *cluster.InstalledBundle {
		v, rel := vr.recorded(r.opts.BundleRelease)
		return &cluster.InstalledBundle{Name: b.Name, Version: v, Release: rel}
	}
	cur := installed(c.bundle, c.facts.vr)
	for len(out) < limit {
		next := r.choose(ext, cur, false)
		if next.err != nil {
			out = append(out, Hop{Error: next.err.Error(), ErrorKind: next.err.Kind})
			break
		}
		if next.bundle.Name == cur.Name {
			break
		}
		cur = installed(next.bundle, next.facts.vr)
		out = append(out, Hop{Bundle: cur.Name, Version: cur.Version, Release: cur.Release, Catalog: next.catalog.Name, Predictions: r.predict(ext, next.bundle, cur.Version)})
		if seen[next.bundle.Name] {
			break
		}
		seen[next.bundle.Name] = true
	}
	return out
}
