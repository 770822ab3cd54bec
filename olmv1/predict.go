package olmv1

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

// Severity says whether a prediction stops the extension.
type Severity string

// The severities of a [Prediction].
const (
	// SeverityFailure: operator-controller refuses the bundle (or, between
	// extensions, one of them fails).
	SeverityFailure Severity = "failure"
	// SeverityWarning: operator-controller installs it, but something the
	// catalog says will not hold on the cluster.
	SeverityWarning Severity = "warning"
)

// PredictionReason names what a prediction is about.
type PredictionReason string

// The reasons of a [Prediction].
const (
	// ReasonInstallMode: the bundle's install modes and the extension's
	// watchNamespace do not fit what operator-controller supports.
	ReasonInstallMode PredictionReason = "InstallMode"
	// ReasonMinKubeVersion: the bundle's minKubeVersion is above the
	// cluster's Kubernetes version (OLM v1 never checks it).
	ReasonMinKubeVersion PredictionReason = "MinKubeVersion"
	// ReasonMaxOpenShiftVersion: the bundle's olm.maxOpenShiftVersion stops
	// the cluster's next OpenShift minor upgrade (OLM v1 never checks it).
	ReasonMaxOpenShiftVersion PredictionReason = "MaxOpenShiftVersion"
	// ReasonSingleOwnership: another extension installs the same package,
	// or a bundle providing one of the same APIs; one of them fails.
	ReasonSingleOwnership PredictionReason = "SingleOwnership"
)

// Prediction is what will happen to an extension's chosen bundle at
// install that the resolution itself does not say.
type Prediction struct {
	Reason   PredictionReason `json:"reason"`
	Severity Severity         `json:"severity"`
	Bundle   string           `json:"bundle"`
	Message  string           `json:"message"`
	// Other names the other extension of a SingleOwnership prediction.
	Other string `json:"other,omitempty"`
}

// String returns "failure: Reason: message".
func (p Prediction) String() string {
	return fmt.Sprintf("%s: %s: %s", p.Severity, p.Reason, p.Message)
}

// predict returns what operator-controller will do with b for ext.
func (r *Resolver) predict(ext *cluster.ClusterExtension, b *graph.Bundle) []Prediction {
	var out []Prediction
	add := func(reason PredictionReason, sev Severity, format string, args ...any) {
		out = append(out, Prediction{Reason: reason, Severity: sev, Bundle: b.Name, Message: fmt.Sprintf(format, args...)})
	}
	if m := b.CSVMetadata; m != nil {
		if msg := r.installModeRefusal(ext, m); msg != "" {
			add(ReasonInstallMode, SeverityFailure, "%s", msg)
		}
		if r.kube != nil {
			if v, ok, err := m.MinKube(); ok && err != nil {
				add(ReasonMinKubeVersion, SeverityWarning, "%v; OLM v1 does not check it", err)
			} else if ok && v.GT(*r.kube) {
				add(ReasonMinKubeVersion, SeverityWarning, "minKubeVersion %s is above the cluster's Kubernetes %s; OLM v1 does not check it and installs the bundle anyway", m.MinKubeVersion, r.kube)
			}
		}
	}
	if mo := b.MaxOpenShiftVersion; mo != nil && r.openShift != nil {
		switch {
		case mo.Err != nil:
			add(ReasonMaxOpenShiftVersion, SeverityWarning, "olm.maxOpenShiftVersion %q is invalid (%v): OpenShift blocks every cluster upgrade while it is installed", mo.Text, mo.Err)
		case mo.Version.Major < r.openShift.Major || (mo.Version.Major == r.openShift.Major && mo.Version.Minor <= r.openShift.Minor):
			add(ReasonMaxOpenShiftVersion, SeverityWarning, "olm.maxOpenShiftVersion %s: the cluster cannot upgrade past OpenShift %d.%d while it is installed", mo.Text, mo.Version.Major, mo.Version.Minor)
		}
	}
	return out
}

// installModeRefusal returns operator-controller's refusal of a bundle
// with metadata m for ext ("" when it accepts it): without the
// SingleOwnNamespace switch, only bundles supporting AllNamespaces
// install, watching every namespace; with it, watchNamespace chooses
// OwnNamespace (the install namespace) or SingleNamespace (another one).
func (r *Resolver) installModeRefusal(ext *cluster.ClusterExtension, m *graph.CSVMetadata) string {
	all, own, single := m.Supports(graph.InstallModeAllNamespaces), m.Supports(graph.InstallModeOwnNamespace), m.Supports(graph.InstallModeSingleNamespace)
	if !r.opts.SingleOwnNamespace && !all {
		return "unsupported bundle: bundle does not support AllNamespaces install mode"
	}
	if !all && !own && !single {
		return "unsupported bundle: bundle must support at least one of [AllNamespaces SingleNamespace OwnNamespace] install modes"
	}
	ws := ext.WatchNamespace
	switch {
	case ws == "" && !all && r.opts.SingleOwnNamespace:
		return "the bundle does not support AllNamespaces: spec.config.inline.watchNamespace must name the namespace it watches"
	case ws == "":
	case !r.opts.SingleOwnNamespace:
		return "spec.config.inline.watchNamespace needs operator-controller's SingleOwnNamespaceInstallSupport feature gate"
	case ws == ext.Namespace && !own:
		return fmt.Sprintf("watchNamespace %q is the install namespace, and the bundle does not support OwnNamespace", ws)
	case ws != ext.Namespace && !single:
		return fmt.Sprintf("watchNamespace %q is not the install namespace %q, and the bundle does not support SingleNamespace", ws, ext.Namespace)
	}
	return ""
}

// ownership predicts, between the extensions that got a bundle, the ones
// that cannot install beside another: the same package, or a bundle
// providing an API another extension's bundle provides. The one already
// installed keeps its objects; between two not installed, the one later
// by name is said to lose (operator-controller's order is its reconcile
// order).
func (r *Resolver) ownership(res *Resolution, exts []cluster.ClusterExtension) {
	type owner struct {
		i   int
		api string
	}
	first := map[string]owner{}
	claim := func(key string, i int, what string) {
		o, ok := first[key]
		if !ok {
			first[key] = owner{i: i, api: what}
			return
		}
		win, lose := o.i, i
		if exts[win].Installed == nil && exts[lose].Installed != nil {
			win, lose = lose, win
			first[key] = owner{i: win, api: what}
		}
		w, l := &res.Extensions[win], &res.Extensions[lose]
		msg := fmt.Sprintf("%s is also installed by ClusterExtension %s (bundle %s), and OLM v1 lets one extension own an object: ", what, w.Name, w.Bundle)
		if exts[win].Installed != nil {
			msg += w.Name + " is installed and keeps it; this one fails"
		} else {
			msg += "neither is installed; whichever operator-controller reconciles second fails (here, the later by name)"
		}
		if slices.ContainsFunc(l.Predictions, func(p Prediction) bool { return p.Reason == ReasonSingleOwnership && p.Other == w.Name }) {
			return
		}
		l.Predictions = append(l.Predictions, Prediction{Reason: ReasonSingleOwnership, Severity: SeverityFailure, Bundle: l.Bundle, Message: msg, Other: w.Name})
	}
	for i := range res.Extensions {
		if res.Extensions[i].Error != "" {
			continue
		}
		claim("package\x00"+exts[i].Package, i, "package "+exts[i].Package)
	}
	for i := range res.Extensions {
		x := &res.Extensions[i]
		if x.Error != "" {
			continue
		}
		b := r.bundleOf(x)
		if b == nil {
			continue
		}
		for _, g := range b.Provides {
			claim("api\x00"+g.String(), i, "API "+g.String())
		}
	}
	for i := range res.Extensions {
		slices.SortStableFunc(res.Extensions[i].Predictions, func(a, b Prediction) int { return strings.Compare(string(a.Reason), string(b.Reason)) })
	}
}

// bundleOf returns the bundle a result chose.
func (r *Resolver) bundleOf(x *Result) *graph.Bundle {
	for i := range r.catalogs {
		if c := &r.catalogs[i]; c.Name == x.Catalog && c.Content != nil {
			return c.Content.Bundle(graph.BundleRef{Package: x.Package, Name: x.Bundle})
		}
	}
	return nil
}
