package olmv1

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/words"
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
	// ReasonInstallMode: the bundle's install modes are not ones
	// operator-controller installs (AllNamespaces, or OwnNamespace or
	// SingleNamespace with its SingleOwnNamespaceInstallSupport gate).
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
	// Message says in Sextant's words what will happen and why.
	Message string `json:"message"`
	// V1Message is operator-controller's own message for a refusal it
	// makes itself, word for word as it writes it in the extension's
	// Progressing condition; empty for what it never checks and for what
	// Sextant predicts between extensions. Of several refusals it reports
	// the install checks' (the first that fails) before its CRD upgrade
	// safety check, whose message covers every CRD (one a line) as far as
	// stored versions go: another incompatible change of a CRD would be
	// one more line.
	V1Message string `json:"v1Message,omitempty"`
	// Other names the other extension of a SingleOwnership prediction.
	Other string `json:"other,omitempty"`
}

// String returns "failure: Reason: message".
func (p Prediction) String() string {
	return fmt.Sprintf("%s: %s: %s", p.Severity, p.Reason, p.Message)
}

// predict returns what operator-controller will do with b for ext; version
// is b's version as operator-controller records it.
func (r *Resolver) predict(ext *cluster.ClusterExtension, b *graph.Bundle, version string) []Prediction {
	var out []Prediction
	add := func(reason PredictionReason, sev Severity, format string, args ...any) {
		out = append(out, Prediction{Reason: reason, Severity: sev, Bundle: b.Name, Message: fmt.Sprintf(format, args...)})
	}
	if p := r.installRefusal(ext, b, version); p != nil {
		out = append(out, *p)
	}
	if m := b.CSVMetadata; m != nil {
		if r.kube != nil {
			if v, ok, err := m.MinKube(); err != nil && ok {
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

// ownership predicts, between the extensions that got a bundle, the ones
// that cannot install beside another: the same package, or a bundle
// providing an API another extension's bundle provides. The one already
// installed keeps its objects; between two not installed, the one later
// by name is said to lose (operator-controller's order is its reconcile
// order).
func (r *Resolver) ownership(res *Outcome, exts []cluster.ClusterExtension) {
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

// besideV0 predicts, for the extensions that got a bundle, the failure an
// OLM v0 operator of state causes: a Subscription to the same package, or
// an installed CSV (not a copy) providing an API the chosen bundle
// provides. OLM v1 lets one owner hold an object, and those objects (the
// CRDs first) are OLM v0's CSV's: the extension fails while the v0
// operator is there, as in a cluster migrated halfway.
func (r *Resolver) besideV0(res *Outcome, exts []cluster.ClusterExtension, state *cluster.State) {
	if len(state.Subscriptions) == 0 && len(state.CSVs) == 0 {
		return
	}
	for i := range res.Extensions {
		x := &res.Extensions[i]
		if x.Error != "" {
			continue
		}
		said := map[string]bool{} // CSVs named (namespace/name)
		for _, s := range state.Subscriptions {
			if s.Package != exts[i].Package {
				continue
			}
			held := "nothing installed yet"
			if s.InstalledCSV != "" {
				held = "CSV " + s.InstalledCSV + " installed"
				said[s.Namespace+"/"+s.InstalledCSV] = true
			}
			if exts[i].Installed != nil {
				x.Predictions = append(x.Predictions, Prediction{Reason: ReasonSingleOwnership, Severity: SeverityWarning, Bundle: x.Bundle,
					Other: "Subscription " + s.Namespace + "/" + s.Name,
					Message: fmt.Sprintf("package %s is also asked for through OLM v0: Subscription %s/%s (%s); this extension is installed and holds the package's objects, which OLM v1 lets no one else own: OLM v0 fails on them when it installs or upgrades; delete the Subscription and its CSV (the CRDs kept)",
						s.Package, s.Namespace, s.Name, held)})
				continue
			}
			fails := "the CRDs and objects of the package are OLM v0's CSV's: this extension fails until the Subscription and its CSV are deleted (the CRDs kept)"
			if s.InstalledCSV == "" {
				fails = "whichever of the two installs second fails on the objects (the CRDs first) the other owns"
			}
			x.Predictions = append(x.Predictions, Prediction{Reason: ReasonSingleOwnership, Severity: SeverityFailure, Bundle: x.Bundle,
				Other: "Subscription " + s.Namespace + "/" + s.Name,
				Message: fmt.Sprintf("package %s is also asked for through OLM v0: Subscription %s/%s (%s); OLM v1 lets one owner hold an object, and %s",
					s.Package, s.Namespace, s.Name, held, fails)})
		}
		b := r.bundleOf(x)
		if b == nil {
			continue
		}
		for _, c := range state.CSVs {
			if c.Copied || said[c.Namespace+"/"+c.Name] || exts[i].Installed != nil {
				continue
			}
			var shared []string
			for _, g := range c.Provides {
				if slices.Contains(b.Provides, g) {
					shared = append(shared, g.String())
				}
			}
			if len(shared) == 0 {
				continue
			}
			said[c.Namespace+"/"+c.Name] = true
			x.Predictions = append(x.Predictions, Prediction{Reason: ReasonSingleOwnership, Severity: SeverityFailure, Bundle: x.Bundle,
				Other: "ClusterServiceVersion " + c.Namespace + "/" + c.Name,
				Message: fmt.Sprintf("OLM v0's CSV %s/%s provides %s, which %s also provides; OLM v1 lets one owner hold an object (the CRD is OLM v0's): this extension fails while that CSV is installed",
					c.Namespace, c.Name, words.First(shared, 3), x.Bundle)})
		}
	}
}

// bundleOf returns the bundle a result chose.
func (r *Resolver) bundleOf(x *ExtensionOutcome) *graph.Bundle {
	for i := range r.catalogs {
		if c := &r.catalogs[i]; c.Name == x.Catalog && c.Content != nil {
			return c.Content.Bundle(graph.BundleRef{Package: x.Package, Name: x.Bundle})
		}
	}
	return nil
}
