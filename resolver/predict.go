package resolver

import (
	"errors"
	"fmt"
	"slices"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

// PredictionReason is the reason word OLM's olm-operator sets on a CSV's
// status when it fails (or holds) it, or, for a warning, the name of what
// the operator will get in the way of.
type PredictionReason string

// The reasons of predictions, as OLM v0.28 names them on a CSV's status.
const (
	// ReasonUnsupportedOperatorGroup: the CSV's install modes do not
	// support the target namespaces of its namespace's OperatorGroup.
	ReasonUnsupportedOperatorGroup PredictionReason = "UnsupportedOperatorGroup"
	// ReasonInvalidInstallModes: the CSV lists an install mode twice.
	ReasonInvalidInstallModes PredictionReason = "InvalidInstallModes"
	// ReasonInterOperatorGroupOwnerConflict: an OperatorGroup whose target
	// namespaces intersect the CSV's group already provides an API the CSV
	// provides.
	ReasonInterOperatorGroupOwnerConflict PredictionReason = "InterOperatorGroupOwnerConflict"
	// ReasonCannotModifyStaticOperatorGroupProvidedAPIs: the CSV's group
	// has spec.staticProvidedAPIs and its olm.providedAPIs annotation lacks
	// an API the CSV provides.
	ReasonCannotModifyStaticOperatorGroupProvidedAPIs PredictionReason = "CannotModifyStaticOperatorGroupProvidedAPIs"
	// ReasonRequirementsNotMet: the CSV's minKubeVersion is above the
	// cluster's Kubernetes version (Options.KubeVersion), or does not
	// parse.
	ReasonRequirementsNotMet PredictionReason = "RequirementsNotMet"
	// ReasonMaxOpenShiftVersion (a warning): the operator declares
	// olm.maxOpenShiftVersion, and while it is installed OLM marks the
	// cluster not upgradeable past that minor version of OpenShift
	// (Options.OpenShiftVersion).
	ReasonMaxOpenShiftVersion PredictionReason = "MaxOpenShiftVersion"
)

// Severity says whether a prediction makes the answer "no".
type Severity string

// The severities of a prediction.
const (
	// SeverityFailure: OLM will fail (or hold) the CSV; the plan will not
	// succeed as it is.
	SeverityFailure Severity = "failure"
	// SeverityWarning: the CSV installs, but something will get in the way
	// later; the plan stands.
	SeverityWarning Severity = "warning"
)

// Prediction is what OLM's olm-operator will do with a CSV once the plan
// is applied, predicted from the data Sextant reads: install modes against
// the OperatorGroup, APIs provided by intersecting OperatorGroups, the
// Kubernetes and OpenShift versions (DESIGN §8).
type Prediction struct {
	Reason   PredictionReason `json:"reason"`
	Severity Severity         `json:"severity"`
	// Message says in plain words what will happen and why, naming the
	// OperatorGroup, the install modes or the versions.
	Message string `json:"message"`
	// OperatorGroup is the group the prediction is about
	// ("namespace/name"), when there is one.
	OperatorGroup string `json:"operatorGroup,omitempty"`
}

// String returns "Reason: message".
func (p Prediction) String() string { return string(p.Reason) + ": " + p.Message }

// failing reports whether any of ps is a failure.
func failing(ps []Prediction) bool {
	return slices.ContainsFunc(ps, func(p Prediction) bool { return p.Severity == SeverityFailure })
}

// targets is the set of namespaces an OperatorGroup's operators watch, as
// OLM computes it for the olm.targetNamespaces annotation of its CSVs.
type targets struct {
	// known is false when the manifests do not say (a label selector and no
	// status.namespaces); why says so.
	known bool
	// namespaces is the list OLM checks install modes against: [""] for all
	// namespaces.
	namespaces []string
	// from says where the list comes from, in words.
	from string
	why  string
}

// allNamespaces is the target list of all namespaces; never modified.
var allNamespaces = []string{""}

// all reports whether t is all namespaces.
func (t targets) all() bool { return len(t.namespaces) == 1 && t.namespaces[0] == "" }

// words describes the target namespaces: "all namespaces", "only its own
// namespace operators", "namespace team-a", "namespaces a, b and c".
func (t targets) words(own string) string {
	switch {
	case !t.known:
		return "unknown namespaces"
	case t.all():
		return "all namespaces"
	case len(t.namespaces) == 1 && t.namespaces[0] == own:
		return "only its own namespace " + own
	case len(t.namespaces) == 1:
		return "namespace " + t.namespaces[0]
	}
	ns := make([]string, len(t.namespaces))
	for i, n := range t.namespaces {
		if n == "" {
			n = `"" (all)`
		}
		ns[i] = n
	}
	return "namespaces " + joinWords(ns, "and")
}

// groupTargets returns the target namespaces of g: status.namespaces when
// OLM has written them, else spec.targetNamespaces; neither and no
// selector (or an empty one) means all namespaces; a selector that selects
// by label without status.namespaces leaves them unknown.
func groupTargets(g *cluster.OperatorGroup) targets {
	switch {
	case len(g.StatusNamespaces) > 0:
		return targets{known: true, namespaces: sortedStrings(g.StatusNamespaces), from: "status.namespaces"}
	case len(g.TargetNamespaces) > 0:
		if slices.Contains(g.TargetNamespaces, "") {
			return targets{why: fmt.Sprintf("OperatorGroup %s/%s lists the empty namespace in spec.targetNamespaces, which OLM rejects", g.Namespace, g.Name)}
		}
		return targets{known: true, namespaces: sortedStrings(g.TargetNamespaces), from: "spec.targetNamespaces"}
	case g.Selector == nil || (len(g.Selector.MatchLabels) == 0 && len(g.Selector.MatchExpressions) == 0):
		return targets{known: true, namespaces: allNamespaces, from: "no spec.targetNamespaces and no selector"}
	}
	return targets{why: fmt.Sprintf("OperatorGroup %s/%s selects its target namespaces by label and has no status.namespaces", g.Namespace, g.Name)}
}

// modeNeeded returns the install modes OLM requires of a CSV in namespace
// own for the target namespaces ns, in the order it checks them, or an
// error when no install mode can serve them (the group itself is invalid).
func modesNeeded(own string, ns []string) ([]graph.InstallModeType, error) {
	switch {
	case len(ns) == 0:
		return nil, errors.New("it selects no namespace")
	case len(ns) == 1 && ns[0] == own:
		return needOwn, nil
	case len(ns) == 1 && ns[0] == "":
		return needAll, nil
	case len(ns) == 1:
		return needSingle, nil
	}
	need := needMulti
	for _, n := range ns {
		if n == "" {
			return nil, errors.New(`it lists "" (all namespaces) beside other namespaces`)
		}
		if n == own {
			need = needMultiOwn
		}
	}
	return need, nil
}

// The install modes modesNeeded returns; never modified.
var (
	needOwn      = []graph.InstallModeType{graph.InstallModeOwnNamespace}
	needAll      = []graph.InstallModeType{graph.InstallModeAllNamespaces}
	needSingle   = []graph.InstallModeType{graph.InstallModeSingleNamespace}
	needMulti    = []graph.InstallModeType{graph.InstallModeMultiNamespace}
	needMultiOwn = []graph.InstallModeType{graph.InstallModeMultiNamespace, graph.InstallModeOwnNamespace}
)

// installModeSet is a CSV's install modes as OLM reads them: the last
// listing of a type wins, and a type listed twice makes the list invalid.
type installModeSet struct {
	four  [4]bool // OLM's four types, in modeTypes order
	other []graph.InstallModeType
	dup   []graph.InstallModeType
}

// modeTypes are OLM's four install mode types, in the order they are named.
var modeTypes = [4]graph.InstallModeType{graph.InstallModeOwnNamespace, graph.InstallModeSingleNamespace, graph.InstallModeMultiNamespace, graph.InstallModeAllNamespaces}

func modeIndex(t graph.InstallModeType) int {
	for i, m := range modeTypes {
		if m == t {
			return i
		}
	}
	return -1
}

func newInstallModeSet(modes []graph.InstallMode) installModeSet {
	var s installModeSet
	var seen [4]bool
	var seenOther []graph.InstallModeType
	for _, m := range modes {
		dup := false
		if i := modeIndex(m.Type); i >= 0 {
			dup, seen[i] = seen[i], true
			s.four[i] = m.Supported
		} else {
			dup = slices.Contains(seenOther, m.Type)
			seenOther = append(seenOther, m.Type)
			s.other = slices.DeleteFunc(s.other, func(t graph.InstallModeType) bool { return t == m.Type })
			if m.Supported {
				s.other = append(s.other, m.Type)
			}
		}
		if dup && !slices.Contains(s.dup, m.Type) {
			s.dup = append(s.dup, m.Type)
		}
	}
	return s
}

// supports reports whether the set supports install mode t.
func (s installModeSet) supports(t graph.InstallModeType) bool {
	if i := modeIndex(t); i >= 0 {
		return s.four[i]
	}
	return slices.Contains(s.other, t)
}

// words lists the supported modes in OLM's order of the four types, then
// any other supported type by name: "OwnNamespace and SingleNamespace", or
// "no install mode".
func (s installModeSet) words() string {
	var out []string
	for i, t := range modeTypes {
		if s.four[i] {
			out = append(out, string(t))
		}
	}
	other := make([]string, len(s.other))
	for i, t := range s.other {
		other[i] = string(t)
	}
	slices.Sort(other)
	out = append(out, other...)
	if len(out) == 0 {
		return "no install mode"
	}
	return "only " + joinWords(out, "and")
}

// installModePrediction predicts what OLM does with CSV name, of install
// modes modes, in namespace ns whose OperatorGroup is g with targets t
// (known). It returns nil when OLM accepts it.
func installModePrediction(name string, modes []graph.InstallMode, ns string, g *cluster.OperatorGroup, t targets) *Prediction {
	og := g.Namespace + "/" + g.Name
	set := newInstallModeSet(modes)
	if len(set.dup) > 0 {
		dup := make([]string, len(set.dup))
		for i, d := range set.dup {
			dup[i] = string(d)
		}
		return &Prediction{Reason: ReasonInvalidInstallModes, Severity: SeverityFailure, OperatorGroup: og,
			Message: fmt.Sprintf("%s lists install mode %s more than once, and OLM rejects such a list", name, joinWords(dup, "and"))}
	}
	need, err := modesNeeded(ns, t.namespaces)
	if err != nil {
		return &Prediction{Reason: ReasonUnsupportedOperatorGroup, Severity: SeverityFailure, OperatorGroup: og,
			Message: fmt.Sprintf("OperatorGroup %s targets %s (%s): no install mode can serve it, because %v", og, t.words(ns), t.from, err)}
	}
	for _, m := range need {
		if set.supports(m) {
			continue
		}
		return &Prediction{Reason: ReasonUnsupportedOperatorGroup, Severity: SeverityFailure, OperatorGroup: og,
			Message: fmt.Sprintf("OperatorGroup %s targets %s, which needs install mode %s, and %s supports %s", og, t.words(ns), m, name, set.words())}
	}
	return nil
}

// supportsTargets reports whether modes serve namespace ns under targets t.
func supportsTargets(modes []graph.InstallMode, ns string, t targets) bool {
	set := newInstallModeSet(modes)
	if len(set.dup) > 0 {
		return false
	}
	need, err := modesNeeded(ns, t.namespaces)
	if err != nil {
		return false
	}
	for _, m := range need {
		if !set.supports(m) {
			return false
		}
	}
	return true
}

// minKubePrediction predicts OLM's requirement check of a CSV's
// minKubeVersion against the server version: nil when it is met or there
// is none.
func minKubePrediction(name, minKube string, server semver.Version) *Prediction {
	if minKube == "" {
		return nil
	}
	v, err := graph.ParseKubeVersion(minKube, false)
	if err != nil {
		return &Prediction{Reason: ReasonRequirementsNotMet, Severity: SeverityFailure,
			Message: fmt.Sprintf("%s has minKubeVersion %q, which OLM cannot parse (it wants major.minor.patch), so its requirements are never met", name, minKube)}
	}
	if v.Compare(server) > 0 {
		return &Prediction{Reason: ReasonRequirementsNotMet, Severity: SeverityFailure,
			Message: fmt.Sprintf("%s needs Kubernetes %s or later: minKubeVersion (%s) > server version (%s)", name, minKube, minKube, server)}
	}
	return nil
}

// nextOpenShiftMinor returns the release OLM checks maxOpenShiftVersion
// against: the next minor version, or, for a prerelease, the release
// itself (its .0).
func nextOpenShiftMinor(v semver.Version) semver.Version {
	n := semver.Version{Major: v.Major, Minor: v.Minor}
	if len(v.Pre) == 0 {
		n.Minor++
	}
	return n
}

// maxOpenShiftPrediction is the warning of an operator with
// olm.maxOpenShiftVersion m on OpenShift current: nil when it does not
// block the next minor upgrade.
func maxOpenShiftPrediction(name string, m *graph.MaxOpenShiftVersion, current semver.Version) *Prediction {
	if m == nil {
		return nil
	}
	next := nextOpenShiftMinor(current)
	if m.Err != nil {
		return &Prediction{Reason: ReasonMaxOpenShiftVersion, Severity: SeverityWarning,
			Message: fmt.Sprintf("%s has an invalid olm.maxOpenShiftVersion (%v): while it is installed, OLM blocks every OpenShift minor upgrade", name, m.Err)}
	}
	if m.Version.GTE(next) {
		return nil
	}
	return &Prediction{Reason: ReasonMaxOpenShiftVersion, Severity: SeverityWarning,
		Message: fmt.Sprintf("%s supports OpenShift up to %d.%d (olm.maxOpenShiftVersion): while it is installed, OLM blocks upgrading the cluster past %d.%d, so %d.%d needs another version of it first", name, m.Version.Major, m.Version.Minor, m.Version.Major, m.Version.Minor, next.Major, next.Minor)}
}

// groupSurface is an OperatorGroup as OLM's API intersection check sees
// it: its target namespaces (its own namespace added) and the APIs its
// operators provide.
type groupSurface struct {
	g       *cluster.OperatorGroup
	targets targets
	// apis is the olm.providedAPIs annotation, or, without one, the APIs
	// of the installed CSVs of its namespace; sorted, no duplicates.
	apis []graph.GVK
	// fromCSVs reports that apis come from the installed CSVs.
	fromCSVs bool
}

// groupKey identifies an OperatorGroup.
type groupKey struct{ namespace, name string }

func (s *groupSurface) key() groupKey { return groupKey{s.g.Namespace, s.g.Name} }

// name returns "namespace/name".
func (s *groupSurface) name() string { return s.g.Namespace + "/" + s.g.Name }

// intersects reports whether the target namespaces of a and b intersect
// (all namespaces intersect everything), as OLM compares them: each
// group's own namespace counts among its targets.
func (a *groupSurface) intersects(b *groupSurface) bool {
	if !a.targets.known || !b.targets.known {
		return false
	}
	if a.targets.all() || b.targets.all() {
		return true
	}
	in := func(ns string, s *groupSurface) bool {
		return ns == s.g.Namespace || slices.Contains(s.targets.namespaces, ns)
	}
	if in(a.g.Namespace, b) {
		return true
	}
	for _, ns := range a.targets.namespaces {
		if in(ns, b) {
			return true
		}
	}
	return false
}

// apiPrediction predicts OLM's API intersection check for a CSV name that
// provides apis (sorted), in the group own, beside the other groups (in a
// fixed order): nil when OLM lets it through.
func apiPrediction(name string, apis []graph.GVK, own *groupSurface, others []*groupSurface) *Prediction {
	if len(apis) == 0 {
		return nil
	}
	var clash []graph.GVK
	var with []string
	for _, o := range others {
		if o == own || !own.intersects(o) {
			continue
		}
		hit := intersectGVKs(apis, o.apis)
		if len(hit) == 0 {
			continue
		}
		with = append(with, fmt.Sprintf("OperatorGroup %s (%s)", o.name(), o.targets.words(o.g.Namespace)))
		clash = append(clash, hit...)
	}
	slices.SortFunc(clash, graph.GVK.Compare)
	clash = slices.Compact(clash)
	subset := subsetGVKs(apis, own.apis)
	switch {
	case len(clash) > 0 && !(subset && own.g.StaticProvidedAPIs):
		// OLM: the CSV's APIs meet an intersecting group's; when its own
		// group lists them too, OLM removes them from it first, then fails
		// the CSV the same way.
		return &Prediction{Reason: ReasonInterOperatorGroupOwnerConflict, Severity: SeverityFailure, OperatorGroup: own.name(),
			Message: fmt.Sprintf("OperatorGroup %s (%s) intersects %s, whose operators already provide %s, which %s provides too; OLM lets only one of intersecting OperatorGroups provide an API",
				own.name(), own.targets.words(own.g.Namespace), joinWords(with, "and"), apiWords(clash), name)}
	case len(clash) > 0:
		return &Prediction{Reason: ReasonCannotModifyStaticOperatorGroupProvidedAPIs, Severity: SeverityFailure, OperatorGroup: own.name(),
			Message: fmt.Sprintf("OperatorGroup %s has spec.staticProvidedAPIs and lists %s, which intersecting %s provides too: OLM would have to remove them from its %s annotation", own.name(), apiWords(clash), joinWords(with, "and"), cluster.ProvidedAPIsAnnotation)}
	case !subset && own.g.StaticProvidedAPIs:
		return &Prediction{Reason: ReasonCannotModifyStaticOperatorGroupProvidedAPIs, Severity: SeverityFailure, OperatorGroup: own.name(),
			Message: fmt.Sprintf("OperatorGroup %s has spec.staticProvidedAPIs, and its %s annotation lacks %s, which %s provides", own.name(), cluster.ProvidedAPIsAnnotation, apiWords(differenceGVKs(apis, own.apis)), name)}
	}
	return nil
}

// apiWords names APIs, at most three: "API a, API b and 2 more".
func apiWords(apis []graph.GVK) string {
	const show = 3
	s := make([]string, 0, show+1)
	for i, g := range apis {
		if i == show {
			s = append(s, fmt.Sprintf("%d more", len(apis)-show))
			break
		}
		s = append(s, g.String())
	}
	if len(apis) == 1 {
		return "API " + s[0]
	}
	return "APIs " + joinWords(s, "and")
}

// intersectGVKs returns the APIs in both sorted lists, sorted.
func intersectGVKs(a, b []graph.GVK) []graph.GVK {
	var out []graph.GVK
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch c := a[i].Compare(b[j]); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

// differenceGVKs returns the APIs of sorted a missing from sorted b.
func differenceGVKs(a, b []graph.GVK) []graph.GVK {
	var out []graph.GVK
	for _, g := range a {
		if _, ok := slices.BinarySearchFunc(b, g, graph.GVK.Compare); !ok {
			out = append(out, g)
		}
	}
	return out
}

// subsetGVKs reports whether every API of sorted a is in sorted b.
func subsetGVKs(a, b []graph.GVK) bool {
	for _, g := range a {
		if _, ok := slices.BinarySearchFunc(b, g, graph.GVK.Compare); !ok {
			return false
		}
	}
	return true
}

// sortedSet sorts apis in place and drops repeats; the caller owns apis.
func sortedSet(apis []graph.GVK) []graph.GVK {
	slices.SortFunc(apis, graph.GVK.Compare)
	return slices.Compact(apis)
}

// sortedStrings returns ss sorted without repeats: ss itself when it
// already is, else a sorted copy (ss is not modified).
func sortedStrings(ss []string) []string {
	for i := 1; i < len(ss); i++ {
		if ss[i-1] >= ss[i] {
			return slices.Compact(slices.Sorted(slices.Values(ss)))
		}
	}
	return ss
}

// unionGVKs returns the sorted union of sorted lists, without duplicates.
func unionGVKs(a, b []graph.GVK) []graph.GVK {
	out := slices.Concat(a, b)
	slices.SortFunc(out, graph.GVK.Compare)
	return slices.Compact(out)
}
