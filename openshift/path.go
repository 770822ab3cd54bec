package openshift

import (
	"fmt"
	"slices"
	"strings"

	"github.com/blang/semver/v4"
)

// Hop is one minor update of a path: the cluster goes from From to To,
// the next minor. OpenShift updates one minor at a time.
type Hop struct {
	From Minor `json:"from"`
	To   Minor `json:"to"`
	// ControlPlaneOnly is true when To is a minor the cluster passes
	// through with its worker pools paused (a Control Plane Only update,
	// formerly EUS to EUS): the control plane, OLM and the catalogs move
	// to To, and the cluster goes on to the next stop without waiting
	// there.
	ControlPlaneOnly bool `json:"controlPlaneOnly,omitempty"`
}

// Path is the hops from a cluster's release to a target minor, and the
// minors the cluster stops at.
type Path struct {
	// Current is the cluster's release.
	Current semver.Version `json:"-"`
	Target  Minor          `json:"target"`
	// Stops are the minors the cluster stops at, in order: the current
	// minor, every minor not passed as a Control Plane Only update, the
	// target.
	Stops []Minor `json:"stops"`
	// Hops are the minor updates in order; empty when the cluster is at
	// the target minor already.
	Hops []Hop `json:"hops"`
	// Warnings say where the path leaves what Red Hat documents: a
	// Control Plane Only update across more than one minor, or through an
	// even minor (Red Hat documents them between even minors, EUS to EUS).
	Warnings []string `json:"warnings,omitempty"`
}

// PathError is a path that cannot be planned: a target below the
// cluster's minor or outside the minors Sextant knows, a via minor
// outside the path. Every problem is listed.
type PathError struct {
	Problems []string
}

// Error returns the problems, joined with "; ".
func (e *PathError) Error() string {
	return "upgrade path: " + strings.Join(e.Problems, "; ")
}

// NewPath returns the path from release current to minor target, minor by
// minor. via names the minors between the two (in any order) that the
// cluster passes as Control Plane Only updates — its worker pools paused,
// their update skipped — without stopping; it stops at every other
// minor.
func NewPath(current semver.Version, target Minor, via []Minor) (*Path, error) {
	from := MinorOf(current)
	var problems []string
	if target.Major != from.Major {
		problems = append(problems, fmt.Sprintf("the target %s is in another major version than the cluster's %s: OpenShift updates minor by minor within a major version", target, from))
	} else if target.Compare(from) < 0 {
		problems = append(problems, fmt.Sprintf("the target %s is below the cluster's minor %s: OpenShift does not downgrade", target, from))
	}
	for _, m := range []Minor{from, target} {
		if _, ok := KubernetesMinor(m); !ok {
			problems = append(problems, fmt.Sprintf("OpenShift %s is outside the minors Sextant knows (%s to %s)", m, Known[0], Known[1]))
		}
	}
	stops := slices.Clone(via)
	slices.SortFunc(stops, Minor.Compare)
	for i, v := range stops {
		if i > 0 && stops[i-1] == v {
			problems = append(problems, fmt.Sprintf("via %s is given twice", v))
		}
		if v.Compare(from) <= 0 || v.Compare(target) >= 0 || v.Major != from.Major {
			problems = append(problems, fmt.Sprintf("via %s is not a minor between the cluster's %s and the target %s", v, from, target))
		}
	}
	if len(problems) > 0 {
		return nil, &PathError{Problems: problems}
	}
	p := &Path{Current: current, Target: target}
	transit := map[Minor]bool{}
	for _, v := range stops {
		transit[v] = true
	}
	for m := from; m.Compare(target) < 0; m = m.Next() {
		p.Hops = append(p.Hops, Hop{From: m, To: m.Next(), ControlPlaneOnly: transit[m.Next()]})
	}
	for m := from; m.Compare(target) <= 0; m = m.Next() {
		if !transit[m] {
			p.Stops = append(p.Stops, m)
		}
	}
	for i := 1; i < len(p.Stops); i++ {
		a, b := p.Stops[i-1], p.Stops[i]
		switch {
		case b.Minor-a.Minor > 2:
			p.Warnings = append(p.Warnings, fmt.Sprintf("from %s to %s the cluster passes %d minors with its worker pools paused; Red Hat documents Control Plane Only updates across one minor, between even minors (EUS to EUS)", a, b, b.Minor-a.Minor-1))
		case b.Minor-a.Minor == 2 && a.Minor%2 != 0:
			p.Warnings = append(p.Warnings, fmt.Sprintf("from %s to %s is a Control Plane Only update between odd minors; Red Hat documents them between even minors (EUS to EUS)", a, b))
		}
	}
	return p, nil
}

// StopAfter returns the stop the cluster reaches at or after minor m: m
// itself when it is a stop, else the next stop.
func (p *Path) StopAfter(m Minor) Minor {
	for _, s := range p.Stops {
		if s.Compare(m) >= 0 {
			return s
		}
	}
	return p.Target
}
