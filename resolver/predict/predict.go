// Package predict says what OLM's olm-operator will do with a
// ClusterServiceVersion once a plan is applied: install modes against the
// target namespaces of its OperatorGroup, APIs provided by intersecting
// OperatorGroups, minKubeVersion against the Kubernetes server, and
// olm.maxOpenShiftVersion against the OpenShift version (DESIGN §8).
//
// The rules are OLM v0.28's, read from the data Sextant has: catalog
// bundles (graph) and the cluster state (cluster). Package resolver
// attaches predictions to every step and staying CSV of a plan; package
// check reads the ones that hold on every cluster.
package predict

import (
	"errors"
	"fmt"
	"slices"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/graph"
)

// Reason is the reason word OLM's olm-operator sets on a CSV's status when
// it fails (or holds) it, or, for a warning, the name of what the operator
// will get in the way of.
type Reason string

// The reasons of predictions, as OLM v0.28 names them on a CSV's status.
const (
	// ReasonUnsupportedOperatorGroup: the CSV's install modes do not
	// support the target namespaces of its namespace's OperatorGroup.
	ReasonUnsupportedOperatorGroup Reason = "UnsupportedOperatorGroup"
	// ReasonInvalidInstallModes: the CSV lists an install mode twice.
	ReasonInvalidInstallModes Reason = "InvalidInstallModes"
	// ReasonInterOperatorGroupOwnerConflict: an OperatorGroup whose target
	// namespaces intersect the CSV's group already provides an API the CSV
	// provides.
	ReasonInterOperatorGroupOwnerConflict Reason = "InterOperatorGroupOwnerConflict"
	// ReasonCannotModifyStaticOperatorGroupProvidedAPIs: the CSV's group
	// has spec.staticProvidedAPIs and its olm.providedAPIs annotation lacks
	// an API the CSV provides.
	ReasonCannotModifyStaticOperatorGroupProvidedAPIs Reason = "CannotModifyStaticOperatorGroupProvidedAPIs"
	// ReasonRequirementsNotMet: the CSV's minKubeVersion is above the
	// cluster's Kubernetes version (Platform.Kube), or does not parse.
	ReasonRequirementsNotMet Reason = "RequirementsNotMet"
	// ReasonMaxOpenShiftVersion (a warning): the operator declares
	// olm.maxOpenShiftVersion, and while it is installed OLM marks the
	// cluster not upgradeable past that minor version of OpenShift
	// (Platform.OpenShift).
	ReasonMaxOpenShiftVersion Reason = "MaxOpenShiftVersion"
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
// is applied, predicted from the data Sextant reads. It is plain data; its
// JSON form is the fields' tags.
type Prediction struct {
	Reason   Reason   `json:"reason"`
	Severity Severity `json:"severity"`
	// Message says in plain words what will happen and why, naming the
	// OperatorGroup, the install modes or the versions.
	Message string `json:"message"`
	// OperatorGroup is the group the prediction is about
	// ("namespace/name"), when there is one.
	OperatorGroup string `json:"operatorGroup,omitempty"`
}

// String returns "Reason: message".
func (p Prediction) String() string { return string(p.Reason) + ": " + p.Message }

// Failing reports whether any of ps is a failure.
func Failing(ps []Prediction) bool {
	return slices.ContainsFunc(ps, func(p Prediction) bool { return p.Severity == SeverityFailure })
}

// Platform is the cluster's versions the predictions compare with. A nil
// version is not known, and nothing is assumed of it. The zero value
// knows neither.
type Platform struct {
	// Kube is the Kubernetes server version, as OLM reads it
	// (graph.ParseKubeVersion with server true).
	Kube *semver.Version
	// OpenShift is the OpenShift version, read tolerantly.
	OpenShift *semver.Version
}

// ParsePlatform reads the Kubernetes and OpenShift versions given as
// text; "" leaves a version unknown. Every version that does not parse is
// reported.
func ParsePlatform(kube, openShift string) (Platform, error) {
	var p Platform
	var errs []error
	if kube != "" {
		v, err := graph.ParseKubeVersion(kube, true)
		if err != nil {
			errs = append(errs, fmt.Errorf("kube version: %w", err))
		} else {
			p.Kube = &v
		}
	}
	if openShift != "" {
		v, err := semver.ParseTolerant(openShift)
		if err != nil {
			errs = append(errs, fmt.Errorf("openshift version %q: %w", openShift, err))
		} else {
			p.OpenShift = &v
		}
	}
	if len(errs) > 0 {
		return Platform{}, errors.Join(errs...)
	}
	return p, nil
}
