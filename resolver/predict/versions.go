package predict

import (
	"fmt"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/graph"
)

// MinKube predicts OLM's requirement check of CSV name's minKubeVersion
// against the server version: RequirementsNotMet when it is above server
// or does not parse; nil when it is met or there is none.
func MinKube(name, minKube string, server semver.Version) *Prediction {
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

// MaxOpenShift is the warning of an operator name with
// olm.maxOpenShiftVersion m (nil: none) on OpenShift current: nil when it
// does not block the next minor upgrade.
func MaxOpenShift(name string, m *graph.MaxOpenShiftVersion, current semver.Version) *Prediction {
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

// Everywhere returns the failures OLM gives the CSV of bundle b on every
// cluster, under every OperatorGroup, in this order: InvalidInstallModes
// when its list of install modes (graph.Bundle.CSVRecord) names a type
// twice, else UnsupportedOperatorGroup when it supports no install mode;
// RequirementsNotMet when the minKubeVersion of its olm.csv.metadata does
// not parse. What the catalog does not record is not predicted. The
// predictions carry no OperatorGroup.
func Everywhere(b *graph.Bundle) []Prediction {
	var out []Prediction
	if rec, _ := b.CSVRecord(); rec.ModesKnown {
		set := graph.ReadInstallModes(rec.InstallModes)
		if dup := set.Duplicates(); len(dup) > 0 {
			out = append(out, invalidModes(b.Name, "", dup))
		} else if len(set.Supported()) == 0 {
			out = append(out, Prediction{Reason: ReasonUnsupportedOperatorGroup, Severity: SeverityFailure,
				Message: fmt.Sprintf("%s supports no install mode, so no OperatorGroup serves it", b.Name)})
		}
	}
	m := b.CSVMetadata
	if m == nil {
		return out
	}
	if m.MinKubeVersion != "" {
		if _, err := graph.ParseKubeVersion(m.MinKubeVersion, false); err != nil {
			// An unparsable minKubeVersion fails whatever the server.
			out = append(out, *MinKube(b.Name, m.MinKubeVersion, semver.Version{}))
		}
	}
	return out
}
