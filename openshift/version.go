// Package openshift plans an OpenShift cluster's upgrade with the operators
// OLM installed on it (DESIGN §18): from the cluster's version to a target,
// minor by minor, what blocks each hop (OLM's upgrade gate on
// olm.maxOpenShiftVersion, for OLM v0's ClusterServiceVersions and OLM v1's
// ClusterExtensions), the smallest operator upgrades that lift it, what
// OLM does once the default catalogs move to the next minor's index, and
// the ordered actions a person takes.
//
// The pure parts — OpenShift minors and the Kubernetes version each
// ships, the hop path, the gates, how a CatalogSource's image follows the
// platform — need no catalogs and are usable on their own.
package openshift

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/blang/semver/v4"
)

// Minor is an OpenShift minor release, such as 4.16. It is comparable and
// used as a map key; the zero value is 0.0, no release.
type Minor struct {
	Major, Minor int
}

// String returns "4.16".
func (m Minor) String() string { return strconv.Itoa(m.Major) + "." + strconv.Itoa(m.Minor) }

// MarshalText writes m as "4.16": its JSON form is that string.
func (m Minor) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads what MarshalText writes.
func (m *Minor) UnmarshalText(b []byte) error {
	v, err := ParseMinor(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// Compare returns -1, 0 or 1 as m is below, equal to or above o.
func (m Minor) Compare(o Minor) int {
	return cmp.Or(cmp.Compare(m.Major, o.Major), cmp.Compare(m.Minor, o.Minor))
}

// Next returns the minor after m in the same major version: 4.17 after
// 4.16. OpenShift updates one minor at a time.
func (m Minor) Next() Minor { return Minor{m.Major, m.Minor + 1} }

// Version returns m as the semver version major.minor.0.
func (m Minor) Version() semver.Version {
	return semver.Version{Major: uint64(m.Major), Minor: uint64(m.Minor)}
}

// MinorOf returns the minor of release v: 4.16 for 4.16.21.
func MinorOf(v semver.Version) Minor { return Minor{int(v.Major), int(v.Minor)} }

// ParseMinor reads a minor written "4.16" (a leading "v" allowed). A patch
// version is refused: a minor names a release line, not a release.
func ParseMinor(s string) (Minor, error) {
	t := strings.TrimPrefix(strings.TrimSpace(s), "v")
	maj, min, ok := strings.Cut(t, ".")
	a, err1 := strconv.Atoi(maj)
	b, err2 := strconv.Atoi(min)
	if !ok || err1 != nil || err2 != nil || a < 0 || b < 0 || maj != strconv.Itoa(a) || min != strconv.Itoa(b) {
		return Minor{}, fmt.Errorf("OpenShift minor %q: want MAJOR.MINOR, such as 4.18", s)
	}
	return Minor{a, b}, nil
}

// ParseRelease reads an OpenShift release version as the cluster reports
// it (ClusterVersion status.desired.version, "4.16.21", or a minor "4.16",
// read as its .0), tolerantly, as OLM reads its own RELEASE_VERSION.
func ParseRelease(s string) (semver.Version, error) {
	v, err := semver.ParseTolerant(s)
	if err != nil {
		return semver.Version{}, fmt.Errorf("OpenShift version %q: %w", s, err)
	}
	return v, nil
}

// kubeMinors is the Kubernetes minor each OpenShift 4 minor ships: the
// k8s.io/api version that github.com/openshift/api's release-4.N branch
// builds against (v0.25 on release-4.12 … v0.36 on release-4.23), which
// the release notes confirm ("uses Kubernetes 1.28" for 4.15).
var kubeMinors = map[Minor]int{
	{4, 12}: 25, {4, 13}: 26, {4, 14}: 27, {4, 15}: 28, {4, 16}: 29, {4, 17}: 30,
	{4, 18}: 31, {4, 19}: 32, {4, 20}: 33, {4, 21}: 34, {4, 22}: 35, {4, 23}: 36,
}

// Known is the range of OpenShift minors whose Kubernetes version Sextant
// knows: the upgrade plans it makes stay within it.
var Known = [2]Minor{{4, 12}, {4, 23}}

// KubernetesMinor returns the Kubernetes minor version that OpenShift
// minor m ships (1.29 for 4.16); ok is false for a minor outside [Known].
func KubernetesMinor(m Minor) (kube Minor, ok bool) {
	k, ok := kubeMinors[m]
	return Minor{1, k}, ok
}
