package check

import (
	"fmt"
	"strings"

	"github.com/sextantdev/sextant/graph"
)

// requirement is one requirement of a bundle, in a form that can be matched
// against the bundles of any catalog.
type requirement struct {
	// text describes the requirement in words, e.g. "olm.gvk.required
	// example.com/v1 Widget".
	text string
	// candidates returns the bundles of cat that satisfy the requirement
	// as a predicate, before the rules about candidates apply.
	candidates func(cat *graph.Catalog) []*graph.Bundle
}

// requirements returns b's requirements in a fixed order: olm.gvk.required,
// olm.package.required, olm.label.required, olm.constraint, each in property
// order. Constraints with a cel node are left out: they cannot be evaluated
// here.
func requirements(b *graph.Bundle) []requirement {
	var rs []requirement
	for _, g := range b.RequiresGVK {
		rs = append(rs, requirement{
			text:       fmt.Sprintf("%s %s", graph.TypeGVKRequired, g),
			candidates: func(cat *graph.Catalog) []*graph.Bundle { return cat.Providers(g) },
		})
	}
	for _, r := range b.RequiresPackage {
		rs = append(rs, requirement{
			text:       fmt.Sprintf("%s %s %q", graph.TypePackageRequired, r.Package, r.Range.String()),
			candidates: func(cat *graph.Catalog) []*graph.Bundle { return packageInRange(cat, r) },
		})
	}
	for _, l := range b.RequiresLabel {
		rs = append(rs, requirement{
			text:       fmt.Sprintf("%s %q", graph.TypeLabelRequired, l),
			candidates: func(cat *graph.Catalog) []*graph.Bundle { return cat.LabelProviders(l) },
		})
	}
	for _, c := range b.Constraints {
		if hasCEL(c) {
			continue
		}
		text := fmt.Sprintf("%s %s", graph.TypeConstraint, describeConstraint(c))
		if c.FailureMessage != "" {
			text += fmt.Sprintf(" (%q)", c.FailureMessage)
		}
		rs = append(rs, requirement{
			text: text,
			candidates: func(cat *graph.Catalog) []*graph.Bundle {
				var out []*graph.Bundle
				for _, p := range cat.Packages() {
					for _, x := range p.Bundles {
						if matchConstraint(c, x) {
							out = append(out, x)
						}
					}
				}
				return out
			},
		})
	}
	return rs
}

func packageInRange(cat *graph.Catalog, r graph.PackageRequirement) []*graph.Bundle {
	p := cat.Package(r.Package)
	if p == nil {
		return nil
	}
	var out []*graph.Bundle
	for _, b := range p.Bundles {
		if v, ok := versionOf(b); ok && r.Range.Contains(v) {
			out = append(out, b)
		}
	}
	return out
}

func hasCEL(c graph.Constraint) bool {
	if c.Kind == graph.ConstraintCEL {
		return true
	}
	for _, ch := range c.Children {
		if hasCEL(ch) {
			return true
		}
	}
	return false
}

// matchConstraint reports whether bundle b satisfies constraint c as a
// predicate (cel nodes never match).
func matchConstraint(c graph.Constraint, b *graph.Bundle) bool {
	switch c.Kind {
	case graph.ConstraintPackage:
		v, ok := versionOf(b)
		return ok && b.Package == c.Package.Package && c.Package.Range.Contains(v)
	case graph.ConstraintGVK:
		for _, g := range b.Provides {
			if g == c.GVK {
				return true
			}
		}
		return false
	case graph.ConstraintAll:
		for _, ch := range c.Children {
			if !matchConstraint(ch, b) {
				return false
			}
		}
		return true
	case graph.ConstraintAny:
		for _, ch := range c.Children {
			if matchConstraint(ch, b) {
				return true
			}
		}
		return false
	case graph.ConstraintNot:
		for _, ch := range c.Children {
			if matchConstraint(ch, b) {
				return false
			}
		}
		return true
	}
	return false
}

func describeConstraint(c graph.Constraint) string {
	switch c.Kind {
	case graph.ConstraintPackage:
		return fmt.Sprintf("package %s %q", c.Package.Package, c.Package.Range.String())
	case graph.ConstraintGVK:
		return fmt.Sprintf("gvk %s", c.GVK)
	case graph.ConstraintCEL:
		return fmt.Sprintf("cel %q", c.CEL)
	}
	var word string
	switch c.Kind {
	case graph.ConstraintAll:
		word = "all"
	case graph.ConstraintAny:
		word = "any"
	case graph.ConstraintNot:
		word = "not"
	default:
		word = fmt.Sprintf("kind(%d)", c.Kind)
	}
	parts := make([]string, len(c.Children))
	for i, ch := range c.Children {
		parts[i] = describeConstraint(ch)
	}
	return word + "(" + strings.Join(parts, ", ") + ")"
}

// candidateSet holds the bundles of a catalog that the resolver may select
// to meet a requirement: not deprecated and, in some channel of their
// package, on the replacement chain from the head and skipped by no entry
// (OLM's chain walk).
type candidateSet map[*graph.Bundle]bool

func newCandidateSet(cat *graph.Catalog) candidateSet {
	s := candidateSet{}
	for _, p := range cat.Packages() {
		for _, c := range p.Channels {
			for _, name := range c.Chain() {
				if b := p.Bundle(name); b != nil && !b.Deprecated && !c.IsSkipped(name) {
					s[b] = true
				}
			}
		}
	}
	return s
}

// satisfiers returns the candidates of cat that meet req and can be
// installed beside the requirer: the requirer itself (a bundle may meet its
// own requirement, DESIGN §2.2) and the bundles of other packages.
func satisfiers(cat *graph.Catalog, cands candidateSet, requirer *graph.Bundle, req requirement) []*graph.Bundle {
	var out []*graph.Bundle
	for _, b := range req.candidates(cat) {
		if (b == requirer || b.Package != requirer.Package) && cands[b] {
			out = append(out, b)
		}
	}
	return out
}

// otherCatalogs reports the requirements of catalog inputs[ci] that no
// candidate of that catalog satisfies and some other input's candidates do.
// sets[i] is the candidate set of inputs[i]: see candidateSet. The
// requirements checked are those of the bundles installability checks:
// every bundle in a channel without the olm.deprecated property.
func otherCatalogs(inputs []Input, sets []candidateSet, ci int) []Finding {
	cat := inputs[ci].Catalog
	var fs []Finding
	for _, p := range cat.Packages() {
		for _, b := range p.Bundles {
			if len(b.Channels) == 0 || b.Deprecated {
				continue // as installability: not checked
			}
			for _, req := range requirements(b) {
				if len(satisfiers(cat, sets[ci], b, req)) > 0 {
					continue
				}
				var where []string
				for j, other := range inputs {
					if j == ci {
						continue
					}
					if s := satisfiers(other.Catalog, sets[j], b, req); len(s) > 0 {
						names := make([]string, len(s))
						for k, x := range s {
							names[k] = x.Name
						}
						where = append(where, fmt.Sprintf("catalog %q (%s)", other.Name, quoteList(names, 3)))
					}
				}
				if len(where) == 0 {
					continue
				}
				fs = append(fs, Finding{
					Severity: graph.SeverityInfo,
					Code:     CodeSatisfiedByOtherCatalog,
					Catalog:  inputs[ci].Name,
					Package:  p.Name,
					Bundle:   b.Name,
					Message: fmt.Sprintf("%q requires %s: no candidate of catalog %q meets it, %s %s",
						b.Name, req.text, inputs[ci].Name, strings.Join(where, " and "), verb(len(where), "does", "do")),
					Pos: b.Pos,
				})
			}
		}
	}
	return fs
}

// verb returns one or many by count.
func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
