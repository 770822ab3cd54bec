package check

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

// requirement is one requirement of a bundle, in a form that can be matched
// against the bundles of any catalog.
type requirement struct {
	graph.Requirement
	// text describes the requirement in words, e.g. "olm.gvk.required
	// example.com/v1 Widget".
	text string
}

// requirements returns b's requirements in a fixed order: olm.gvk.required,
// olm.package.required, olm.label.required, olm.constraint, each in property
// order. Constraints with a cel rule that does not compile with cel (or
// any cel rule, when cel is nil) are left out: the installability finding
// of the bundle reports the rule.
func requirements(b *graph.Bundle, cel resolver.CEL) []requirement {
	var rs []requirement
	for _, kind := range [...]graph.RequirementKind{graph.RequireGVK, graph.RequirePackage, graph.RequireLabel, graph.RequireConstraint} {
		for _, r := range b.Requirements() {
			if r.Kind != kind || kind == graph.RequireConstraint && !celCompiles(r.Constraint, cel) {
				continue
			}
			text := r.String()
			switch r.Kind {
			case graph.RequirePackage:
				text = fmt.Sprintf("%s %s %q", r.Type(), r.Package.Package, r.Package.Range.String())
			case graph.RequireLabel:
				text = fmt.Sprintf("%s %q", r.Type(), r.Label)
			case graph.RequireConstraint:
				if m := r.Constraint.FailureMessage; m != "" {
					text += fmt.Sprintf(" (%q)", m)
				}
			}
			rs = append(rs, requirement{Requirement: r, text: text})
		}
	}
	return rs
}

// words names the requirement in brief, in plain words (see
// requirementWords).
func (r *requirement) words() string {
	s := requirementWords(r.Type(), r.What())
	if r.Kind == graph.RequireConstraint && r.Constraint.FailureMessage != "" {
		s += fmt.Sprintf(" (%q)", r.Constraint.FailureMessage)
	}
	return s
}

// candidates returns the bundles of cat that satisfy the requirement as a
// predicate (graph's Matches, cel rules evaluated by cel), before the rules
// about candidates apply.
func (r *requirement) candidates(cat *graph.Catalog, cel resolver.CEL) []*graph.Bundle {
	var pool []*graph.Bundle
	switch r.Kind {
	case graph.RequireGVK:
		return cat.Providers(r.GVK)
	case graph.RequireLabel:
		return cat.LabelProviders(r.Label)
	case graph.RequirePackage:
		if p := cat.Package(r.Package.Package); p != nil {
			pool = p.Bundles
		}
	default:
		for _, p := range cat.Packages() {
			pool = append(pool, p.Bundles...)
		}
	}
	var out []*graph.Bundle
	for _, b := range pool {
		matches := func(rule string) bool {
			if cel == nil {
				return false
			}
			c, err := cel.Compile(rule)
			return err == nil && c.Matches(b.Properties)
		}
		if r.Matches(b.Subject(), matches) {
			out = append(out, b)
		}
	}
	return out
}

// celCompiles reports whether every cel rule of c compiles with cel (none
// does when cel is nil).
func celCompiles(c *graph.Constraint, cel resolver.CEL) bool {
	if c.Kind == graph.ConstraintCEL {
		if cel == nil {
			return false
		}
		_, err := cel.Compile(c.CEL)
		return err == nil
	}
	for i := range c.Children {
		if !celCompiles(&c.Children[i], cel) {
			return false
		}
	}
	return true
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
func satisfiers(cat *graph.Catalog, cands candidateSet, requirer *graph.Bundle, req requirement, cel resolver.CEL) []*graph.Bundle {
	var out []*graph.Bundle
	for _, b := range req.candidates(cat, cel) {
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
// every bundle in a channel without the olm.deprecated property; cel
// evaluates cel rules.
func otherCatalogs(inputs []Input, sets []candidateSet, ci int, cel resolver.CEL) []Finding {
	cat := inputs[ci].Catalog
	labels := catalogLabels(inputs)
	var fs []Finding
	for _, p := range cat.Packages() {
		for _, b := range p.Bundles {
			if len(b.Channels) == 0 || b.Deprecated {
				continue // as installability: not checked
			}
			for _, req := range requirements(b, cel) {
				if len(satisfiers(cat, sets[ci], b, req, cel)) > 0 {
					continue
				}
				var where, short []string
				for j, other := range inputs {
					if j == ci {
						continue
					}
					if s := satisfiers(other.Catalog, sets[j], b, req, cel); len(s) > 0 {
						names := make([]string, len(s))
						for k, x := range s {
							names[k] = x.Name
						}
						where = append(where, fmt.Sprintf("catalog %q (%s)", other.Name, quoteList(names, 3)))
						short = append(short, fmt.Sprintf("%q", labels[j]))
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
					Brief: fmt.Sprintf("requires %s, which %s %s %s", req.words(), verb(len(short), "catalog", "catalogs"), strings.Join(short, " and "), verb(len(short), "meets", "meet")),
					Pos:   b.Pos,
				})
			}
		}
	}
	return fs
}

// catalogLabels names the inputs in briefs: by the last element of their
// name (a catalog's file or folder) unless two inputs share it.
func catalogLabels(inputs []Input) []string {
	labels := make([]string, len(inputs))
	seen := map[string]int{}
	for i, in := range inputs {
		labels[i] = filepath.Base(in.Name)
		seen[labels[i]]++
	}
	for i, in := range inputs {
		if seen[labels[i]] > 1 {
			labels[i] = in.Name
		}
	}
	return labels
}

// verb returns one or many by count.
func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
