package graph

import (
	"slices"
	"strconv"
	"strings"

	"github.com/blang/semver/v4"
)

// Subject is what a requirement is matched against, as OLM's resolver sees
// a catalog bundle or an installed operator: its package, its version, and
// the APIs and labels it provides. The zero Subject matches only
// requirements that nothing can fail (an empty olm.constraint all, say).
type Subject struct {
	Package string
	// Version is the subject's version; it counts only when HasVersion is
	// set. A subject without a valid version is in no version range.
	Version    semver.Version
	HasVersion bool
	Provides   []GVK
	Labels     []string
}

// Subject returns the bundle as a requirement matches it: its version
// counts only when it is valid (ValidVersion). The slices are the
// bundle's, shared.
func (b *Bundle) Subject() Subject {
	return Subject{Package: b.Package, Version: b.Version, HasVersion: b.versionOK, Provides: b.Provides, Labels: b.Labels}
}

// inRange reports whether the subject has a valid version in r.
func (s *Subject) inRange(r Range) bool { return s.HasVersion && r.Contains(s.Version) }

// String returns "package range", e.g. "etcd >=0.9.0 <1.0.0".
func (r PackageRequirement) String() string { return r.Package + " " + r.Range.String() }

// Matches reports whether s is a bundle of r.Package with a valid version
// in r.Range.
func (r PackageRequirement) Matches(s Subject) bool {
	return s.Package == r.Package && s.inRange(r.Range)
}

// Matches reports whether s satisfies the constraint as OLM evaluates an
// olm.constraint: as a predicate over that one subject. package needs
// s's package and a valid version in the range; gvk, that s provides the
// API; all, that every child matches (an empty all matches); any, that one
// does; not, that none does. A cel node matches when cel, called with the
// rule's text, says so; with a nil cel it never matches (evaluating CEL is
// for the caller: graph has no CEL engine).
func (c *Constraint) Matches(s Subject, cel func(rule string) bool) bool {
	return c.matches(&s, cel)
}

func (c *Constraint) matches(s *Subject, cel func(string) bool) bool {
	switch c.Kind {
	case ConstraintPackage:
		return s.Package == c.Package.Package && s.inRange(c.Package.Range)
	case ConstraintGVK:
		return slices.Contains(s.Provides, c.GVK)
	case ConstraintAll:
		for i := range c.Children {
			if !c.Children[i].matches(s, cel) {
				return false
			}
		}
		return true
	case ConstraintAny:
		for i := range c.Children {
			if c.Children[i].matches(s, cel) {
				return true
			}
		}
		return false
	case ConstraintNot:
		for i := range c.Children {
			if c.Children[i].matches(s, cel) {
				return false
			}
		}
		return true
	case ConstraintCEL:
		return cel != nil && cel(c.CEL)
	}
	return false
}

// HasCEL reports whether the constraint or one of its descendants is a cel
// rule.
func (c *Constraint) HasCEL() bool {
	if c.Kind == ConstraintCEL {
		return true
	}
	for i := range c.Children {
		if c.Children[i].HasCEL() {
			return true
		}
	}
	return false
}

// String describes the constraint in words, without its failure message:
// "package etcd >=0.9.0", "gvk etcd.database.coreos.com/v1beta2
// EtcdCluster", "all of (…)", "any of (…)", "none of (…)" or "cel RULE".
func (c *Constraint) String() string {
	var sb strings.Builder
	c.describe(&sb)
	return sb.String()
}

func (c *Constraint) describe(sb *strings.Builder) {
	var word string
	switch c.Kind {
	case ConstraintPackage:
		sb.WriteString("package ")
		sb.WriteString(c.Package.String())
		return
	case ConstraintGVK:
		sb.WriteString("gvk ")
		sb.WriteString(c.GVK.String())
		return
	case ConstraintCEL:
		sb.WriteString("cel ")
		sb.WriteString(c.CEL)
		return
	case ConstraintAll:
		word = "all of ("
	case ConstraintAny:
		word = "any of ("
	case ConstraintNot:
		word = "none of ("
	default:
		sb.WriteString("constraint(" + strconv.Itoa(int(c.Kind)) + ")")
		return
	}
	sb.WriteString(word)
	for i := range c.Children {
		if i > 0 {
			sb.WriteString(", ")
		}
		c.Children[i].describe(sb)
	}
	sb.WriteByte(')')
}

// RequirementKind is the kind of a bundle's requirement: the property type
// that states it.
type RequirementKind uint8

// The requirement kinds.
const (
	RequireGVK        RequirementKind = iota + 1 // olm.gvk.required
	RequirePackage                               // olm.package.required
	RequireLabel                                 // olm.label.required
	RequireConstraint                            // olm.constraint
)

// Requirement is one thing a bundle needs from the bundles selected with it:
// one olm.gvk.required, olm.package.required, olm.label.required or
// olm.constraint property, typed. The zero Requirement is invalid.
type Requirement struct {
	Kind RequirementKind
	// Property is the property as written (its raw value for tools).
	Property   Property
	GVK        GVK                // RequireGVK
	Package    PackageRequirement // RequirePackage
	Label      string             // RequireLabel
	Constraint *Constraint        // RequireConstraint; shared with its bundle
}

// Requirements returns the bundle's requirements in property order. The
// slice is freshly allocated; the constraints are the bundle's, shared.
func (b *Bundle) Requirements() []Requirement {
	n := len(b.RequiresGVK) + len(b.RequiresPackage) + len(b.RequiresLabel) + len(b.Constraints)
	if n == 0 {
		return nil
	}
	reqs := make([]Requirement, 0, n)
	var ng, np, nl, nc int
	for _, p := range b.Properties {
		switch p.Type {
		case TypeGVKRequired:
			if ng < len(b.RequiresGVK) {
				reqs = append(reqs, Requirement{Kind: RequireGVK, Property: p, GVK: b.RequiresGVK[ng]})
				ng++
			}
		case TypePackageRequired:
			if np < len(b.RequiresPackage) {
				reqs = append(reqs, Requirement{Kind: RequirePackage, Property: p, Package: b.RequiresPackage[np]})
				np++
			}
		case TypeLabelRequired:
			if nl < len(b.RequiresLabel) {
				reqs = append(reqs, Requirement{Kind: RequireLabel, Property: p, Label: b.RequiresLabel[nl]})
				nl++
			}
		case TypeConstraint:
			if nc < len(b.Constraints) {
				reqs = append(reqs, Requirement{Kind: RequireConstraint, Property: p, Constraint: &b.Constraints[nc]})
				nc++
			}
		}
	}
	return reqs
}

// Type returns the property type that states the requirement, e.g.
// "olm.gvk.required".
func (r Requirement) Type() string {
	switch r.Kind {
	case RequireGVK:
		return TypeGVKRequired
	case RequirePackage:
		return TypePackageRequired
	case RequireLabel:
		return TypeLabelRequired
	case RequireConstraint:
		return TypeConstraint
	}
	return ""
}

// What states what is required, without the property type:
// "example.com/v1 Widget", "etcd >=0.9.0", the label, or the constraint's
// String.
func (r Requirement) What() string {
	switch r.Kind {
	case RequireGVK:
		return r.GVK.String()
	case RequirePackage:
		return r.Package.String()
	case RequireLabel:
		return r.Label
	case RequireConstraint:
		if r.Constraint != nil {
			return r.Constraint.String()
		}
	}
	return ""
}

// String returns the property type and what is required, e.g.
// "olm.gvk.required example.com/v1 Widget": the words explanations and
// plans use.
func (r Requirement) String() string { return r.Type() + " " + r.What() }

// Matches reports whether s meets the requirement: s provides the API or
// the label, is a bundle of the package with a valid version in the range,
// or satisfies the constraint (see Constraint.Matches for cel).
func (r Requirement) Matches(s Subject, cel func(rule string) bool) bool {
	switch r.Kind {
	case RequireGVK:
		return slices.Contains(s.Provides, r.GVK)
	case RequirePackage:
		return r.Package.Matches(s)
	case RequireLabel:
		return slices.Contains(s.Labels, r.Label)
	case RequireConstraint:
		return r.Constraint != nil && r.Constraint.matches(&s, cel)
	}
	return false
}
