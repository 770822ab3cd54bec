package openshift

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

// Engine names which OLM applies a gate: OLM v0 (its olm-operator, on
// ClusterServiceVersions) or OLM v1 (cluster-olm-operator, on
// ClusterExtensions).
type Engine string

// The engines that gate OpenShift minor updates.
const (
	EngineV0 Engine = "v0"
	EngineV1 Engine = "v1"
)

// The reasons of a gate's condition, as OLM sets them.
const (
	// ReasonIncompatibleOperatorsInstalled: an installed operator does
	// not support the next minor, or (v0) declares an invalid
	// olm.maxOpenShiftVersion.
	ReasonIncompatibleOperatorsInstalled = "IncompatibleOperatorsInstalled"
	// ReasonFailureGettingExtensionMetadata (v1): only invalid
	// olm.maxOpenShiftVersion properties were found.
	ReasonFailureGettingExtensionMetadata = "FailureGettingExtensionMetadata"
)

// The conditions the gates set on the olm ClusterOperator.
const (
	// ConditionUpgradeable is OLM v0's condition type.
	ConditionUpgradeable = "Upgradeable"
	// ConditionV1Upgradeable is cluster-olm-operator's condition for OLM
	// v1's extensions, which the olm ClusterOperator reports as
	// Upgradeable.
	ConditionV1Upgradeable = "InstalledOLMOperatorsUpgradeable"
)

// Blocker is one installed operator that keeps a gate closed.
type Blocker struct {
	Engine Engine `json:"engine"`
	// Namespace and Name name the ClusterServiceVersion (v0); Name alone
	// names the ClusterExtension (v1).
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	// Bundle is the ClusterExtension's installed bundle (v1).
	Bundle string `json:"bundle,omitempty"`
	// Max is the olm.maxOpenShiftVersion the operator declares, as
	// major.minor; empty when Invalid is set.
	Max string `json:"max,omitempty"`
	// Invalid says why the operator's olm.maxOpenShiftVersion is invalid,
	// in OLM's words; an invalid value is a blocker of its own.
	Invalid string `json:"invalid,omitempty"`
	// Message is the part of the gate's message about this operator, in
	// OLM's words.
	Message string `json:"message"`
}

// Gate is OLM's upgrade gate for one minor update, as one engine computes
// it: the olm ClusterOperator's condition while the cluster runs Current.
type Gate struct {
	Engine Engine `json:"engine"`
	// Current is the release the cluster runs; Next the minor the gate
	// checks operators against.
	Current semver.Version `json:"-"`
	Next    Minor          `json:"next"`
	// Blockers are the operators that keep the gate closed: for v0,
	// invalid values first, then the others, each by namespace and name;
	// for v1, by name.
	Blockers []Blocker `json:"blockers,omitempty"`
	// Condition, Reason and Message are the condition OLM sets when
	// Blockers is not empty (Upgradeable=False); empty otherwise.
	Condition string `json:"condition,omitempty"`
	Reason    string `json:"reason,omitempty"`
	Message   string `json:"message,omitempty"`
}

// Open reports whether the gate lets the cluster update to Next.
func (g *Gate) Open() bool { return len(g.Blockers) == 0 }

// NextV0 is the release OLM v0 checks olm.maxOpenShiftVersion against
// while the cluster runs current: the next minor, or, for a prerelease,
// its own minor (OLM v0.28 helpers.go nextY).
func NextV0(current semver.Version) Minor {
	m := MinorOf(current)
	if len(current.Pre) > 0 {
		return m
	}
	return m.Next()
}

// GateV0 computes OLM v0's gate while the cluster runs current, over the
// installed CSVs, as OLM v0.28's olm-operator does
// (pkg/controller/operators/openshift/helpers.go): copied CSVs are
// skipped; a CSV whose operatorframework.io/properties annotation declares
// an olm.maxOpenShiftVersion below the next minor blocks, and so does one
// whose value is invalid; a CSV without the annotation or the property
// never does. OLM lists the blockers in its cache's order, which varies;
// Sextant sorts them (invalid values first, as OLM puts them).
func GateV0(current semver.Version, csvs []cluster.CSV) *Gate {
	next := NextV0(current)
	g := &Gate{Engine: EngineV0, Current: current, Next: next}
	var invalid, blocked []Blocker
	for i := range csvs {
		c := &csvs[i]
		if c.Copied || c.Properties == nil {
			continue
		}
		m := c.Properties.Typed().MaxOpenShiftVersion
		if m == nil {
			continue
		}
		b := Blocker{Engine: EngineV0, Namespace: c.Namespace, Name: c.Name}
		if m.Err != nil {
			b.Invalid = m.Err.Error()
			b.Message = fmt.Sprintf("%s/%s has invalid %s properties: %s", c.Namespace, c.Name, graph.TypeMaxOpenShift, m.Err)
			invalid = append(invalid, b)
			continue
		}
		if m.Version.GTE(next.Version()) {
			continue
		}
		b.Max = fmt.Sprintf("%d.%d", m.Version.Major, m.Version.Minor)
		b.Message = fmt.Sprintf("%s/%s is incompatible with OpenShift minor versions greater than %s", c.Namespace, c.Name, b.Max)
		blocked = append(blocked, b)
	}
	byName := func(a, b Blocker) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	}
	slices.SortFunc(invalid, byName)
	slices.SortFunc(blocked, byName)
	g.Blockers = append(invalid, blocked...)
	if len(g.Blockers) > 0 {
		msgs := make([]string, len(g.Blockers))
		for i, b := range g.Blockers {
			msgs[i] = b.Message
		}
		g.Condition, g.Reason = ConditionUpgradeable, ReasonIncompatibleOperatorsInstalled
		g.Message = "ClusterServiceVersions blocking cluster upgrade: " + strings.Join(msgs, ",")
	}
	return g
}

// Extension is a ClusterExtension's installed bundle as the v1 gate reads
// it: its properties, as the catalog records them (opm puts the CSV's
// olm.properties annotation and metadata/properties.yaml there, which is
// what operator-controller copies onto the installed revision).
type Extension struct {
	Name   string
	Bundle string
	// Properties of the installed bundle; nil when none are known.
	Properties []graph.Property
}

// NextV1 is the minor cluster-olm-operator names as the next one while the
// cluster runs current: the next minor; from 4.23, which is co-released
// with 5.0, 5.1.
func NextV1(current semver.Version) Minor {
	m := MinorOf(current)
	if m == (Minor{4, 23}) {
		return Minor{5, 1}
	}
	return m.Next()
}

// GateV1 computes the gate cluster-olm-operator sets for OLM v1's
// ClusterExtensions while the cluster runs current
// (pkg/controller/incompatible_operator_controller.go of
// openshift/cluster-olm-operator): a bundle whose olm.maxOpenShiftVersion
// is not above the cluster's minor blocks (at 4.23, above 5.0); an invalid
// value, or two properties, is an error that closes the gate too.
// Extensions are taken by name.
func GateV1(current semver.Version, exts []Extension) *Gate {
	cur := MinorOf(current)
	effective := cur.Version()
	if cur == (Minor{4, 23}) {
		effective = semver.Version{Major: 5}
	}
	g := &Gate{Engine: EngineV1, Current: current, Next: NextV1(current)}
	exts = slices.Clone(exts)
	slices.SortFunc(exts, func(a, b Extension) int { return cmp.Compare(a.Name, b.Name) })
	var incompatible, errs []string
	for _, e := range exts {
		var problems []error
		var max *semver.Version
		n := 0
		for _, p := range e.Properties {
			if p.Type != graph.TypeMaxOpenShift {
				continue
			}
			if n++; n > 1 {
				problems = append(problems, fmt.Errorf("more than one %s found in bundle", graph.TypeMaxOpenShift))
				break
			}
			v, err := v1AllowedSemver(p.Value)
			if err != nil {
				problems = append(problems, fmt.Errorf("error converting to semver for version %s: %v", string(p.Value), err))
				continue
			}
			max = v
		}
		b := Blocker{Engine: EngineV1, Name: e.Name, Bundle: e.Bundle}
		switch {
		case len(problems) > 0:
			b.Invalid = errors.Join(problems...).Error()
			b.Message = fmt.Sprintf("error(s) with cluster extension %s: error in bundle %s: %v", e.Name, e.Bundle, errors.Join(problems...))
			errs = append(errs, b.Message)
		case max != nil && !max.GT(effective):
			b.Max = fmt.Sprintf("%d.%d", max.Major, max.Minor)
			b.Message = fmt.Sprintf("bundle %q for ClusterExtension %q", e.Bundle, e.Name)
			incompatible = append(incompatible, b.Message)
		default:
			continue
		}
		g.Blockers = append(g.Blockers, b)
	}
	switch {
	case len(incompatible) > 0:
		sort := slices.Clone(incompatible)
		slices.Sort(sort)
		g.Condition, g.Reason = ConditionV1Upgradeable, ReasonIncompatibleOperatorsInstalled
		g.Message = fmt.Sprintf("Found ClusterExtensions that require upgrades prior to upgrading cluster to version %s: %s.", g.Next, strings.Join(sort, ","))
		if len(errs) > 0 {
			g.Message += "\n Additionally the following errors were encountered while getting extension metadata: " + strings.Join(errs, "\n")
		}
	case len(errs) > 0:
		g.Condition, g.Reason = ConditionV1Upgradeable, ReasonFailureGettingExtensionMetadata
		g.Message = strings.Join(errs, "\n")
	}
	return g
}

// majorMinor is what cluster-olm-operator accepts of a number.
var majorMinor = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([1-9][0-9]*)\.(0|[1-9][0-9]*)$`) })

// v1AllowedSemver reads an olm.maxOpenShiftVersion value as
// cluster-olm-operator does (internal/versionutils ToAllowedSemver): a
// JSON number or string, major.minor only, no leading "v".
func v1AllowedSemver(data []byte) (*semver.Version, error) {
	var raw any
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	var s string
	switch v := raw.(type) {
	case float64:
		m := majorMinor().FindStringSubmatch(string(data))
		if len(m) != 3 {
			return nil, fmt.Errorf("invalid semver format %q: expected <major>.<minor>", string(data))
		}
		s = m[1] + "." + m[2]
	case string:
		s = v
	default:
		return nil, fmt.Errorf("invalid type %T for olm.maxOpenshiftVersion: %s", v, string(data))
	}
	if strings.HasPrefix(s, "v") || strings.Count(s, ".") != 1 {
		return nil, errors.New("invalid version format")
	}
	v, err := semver.ParseTolerant(s)
	if err != nil {
		return nil, err
	}
	return &v, nil
}
