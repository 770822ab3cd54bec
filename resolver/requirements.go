package resolver

import (
	"cmp"
	"fmt"
	"iter"
	"slices"

	"github.com/sextantdev/sextant/graph"
)

// candidates returns the variables that satisfy q for a dependent self in
// catalog cat (nil for an installed CSV), most preferred first: installed
// CSVs, then catalog entries by catalog (the dependent's first, then base
// preference), default channel first, package, channel name and position in
// the channel. As in OLM, every matching entry is a candidate — self and the
// other entries of its package included: the latter can never be chosen
// beside self (one bundle per package), so a package meets its own
// requirement only through the very bundle (or installed CSV) that has it.
func (res *resolution) candidates(q *requirement, cat *catalogIndex, self variable) ([]variable, error) {
	key := reqKey{kind: q.Kind, cat: cat}
	switch q.Kind {
	case graph.RequireGVK:
		key.gvk = q.GVK
	case graph.RequirePackage:
		key.name, key.text = q.Package.Package, q.Package.Range.String()
	case graph.RequireLabel:
		key.name = q.Label
	case graph.RequireConstraint:
		key.c = q.Constraint
	}
	if c, ok := res.cache[key]; ok {
		return c, nil
	}
	if q.Kind == graph.RequireConstraint {
		if err := res.compileCEL(q.Constraint); err != nil {
			return nil, res.celError(self, err)
		}
	}
	var out []variable
	for _, n := range res.instOrder {
		if res.matchInstalled(q, n) {
			out = append(out, variable{kind: varInstalled, idx: n.idx})
		}
	}
	type entry struct {
		v    variable
		rank int
	}
	var entries []entry
	for _, ci := range res.visible {
		rank := res.rank[ci.ord]
		if ci == cat {
			rank = -1
		}
		for b, pi := range res.satisfying(ci, q) {
			if ok, err := res.usable(pi, func() string { return fmt.Sprintf("%s: candidate %q", res.describe(self), b.Name) }); err != nil {
				return nil, err
			} else if !ok {
				continue
			}
			for _, chName := range b.Channels {
				x := pi.channel(chName)
				if x == nil {
					continue
				}
				if x.err != nil {
					return nil, fmt.Errorf("%s: candidate %q: %w", res.describe(self), b.Name, x.err)
				}
				pos := x.position(b.Name)
				if pos < 0 {
					continue
				}
				entries = append(entries, entry{variable{kind: varBundle, idx: int32(pos), ch: x, b: b}, rank})
			}
		}
	}
	slices.SortFunc(entries, func(a, b entry) int {
		if c := cmp.Compare(a.rank, b.rank); c != 0 {
			return c
		}
		if a.v.ch.isDefault != b.v.ch.isDefault {
			if a.v.ch.isDefault {
				return -1
			}
			return 1
		}
		return cmp.Or(
			cmp.Compare(a.v.b.Package, b.v.b.Package),
			cmp.Compare(a.v.ch.ch.Name, b.v.ch.ch.Name),
			cmp.Compare(a.v.idx, b.v.idx),
		)
	})
	for _, e := range entries {
		out = append(out, e.v)
	}
	res.cache[key] = out
	return out, nil
}

// satisfying yields the bundles of catalog ci that satisfy q, in the order
// generate returns them, each with the index of its package; a bundle
// whose package ci does not index is left out.
func (res *resolution) satisfying(ci *catalogIndex, q *requirement) iter.Seq2[*graph.Bundle, *pkgIndex] {
	return func(yield func(*graph.Bundle, *pkgIndex) bool) {
		for _, b := range res.generate(ci, q) {
			if !res.matchBundle(q, b) {
				continue
			}
			pi := ci.pkgs[b.Package]
			if pi == nil {
				continue
			}
			if !yield(b, pi) {
				return
			}
		}
	}
}

// generate returns a superset of the catalog bundles that satisfy q, from
// the catalog's indexes.
func (res *resolution) generate(ci *catalogIndex, q *requirement) []*graph.Bundle {
	switch q.Kind {
	case graph.RequireGVK:
		return ci.cat.Providers(q.GVK)
	case graph.RequirePackage:
		if pi := ci.pkgs[q.Package.Package]; pi != nil {
			return pi.pkg.Bundles
		}
		return nil
	case graph.RequireLabel:
		return ci.cat.LabelProviders(q.Label)
	}
	bs, all := generateConstraint(ci, q.Constraint)
	if all {
		for _, pi := range ci.cat.Packages() {
			bs = append(bs, pi.Bundles...)
		}
	}
	return bs
}

// generateConstraint returns the bundles of ci that may satisfy c, or
// all=true when that is every bundle.
func generateConstraint(ci *catalogIndex, c *graph.Constraint) (bs []*graph.Bundle, all bool) {
	switch c.Kind {
	case graph.ConstraintPackage:
		if pi := ci.pkgs[c.Package.Package]; pi != nil {
			return pi.pkg.Bundles, false
		}
		return nil, false
	case graph.ConstraintGVK:
		return ci.cat.Providers(c.GVK), false
	case graph.ConstraintAll:
		for i := range c.Children {
			if bs, all := generateConstraint(ci, &c.Children[i]); !all {
				return bs, false
			}
		}
		return nil, true
	case graph.ConstraintAny:
		seen := map[*graph.Bundle]bool{}
		for i := range c.Children {
			cbs, all := generateConstraint(ci, &c.Children[i])
			if all {
				return nil, true
			}
			for _, b := range cbs {
				if !seen[b] {
					seen[b] = true
					bs = append(bs, b)
				}
			}
		}
		return bs, false
	}
	return nil, true
}

// matchBundle reports whether catalog bundle b meets q (graph's
// Requirement.Matches; cel rules by the compiled rules of compileCEL).
func (res *resolution) matchBundle(q *requirement, b *graph.Bundle) bool {
	return q.Matches(b.Subject(), res.celMatcher(q, b.Properties, nil))
}

// matchInstalled reports whether installed CSV n meets q: with its
// spec.version or, when its properties annotation states another valid
// one, with that.
func (res *resolution) matchInstalled(q *requirement, n *instNode) bool {
	s := graph.Subject{Package: n.pkg, Provides: n.provides, Labels: n.labels}
	cel := res.celMatcher(q, nil, n)
	if len(n.versions) == 0 {
		return q.Matches(s, cel)
	}
	for _, v := range n.versions {
		s.Version, s.HasVersion = v, true
		if q.Matches(s, cel) {
			return true
		}
	}
	return false
}

// celMatcher returns how q's cel rules are decided for a subject with
// props (an installed CSV's are built on first use): by the rules
// compileCEL compiled; nil when q has none.
func (res *resolution) celMatcher(q *requirement, props []graph.Property, n *instNode) func(string) bool {
	if q.Kind != graph.RequireConstraint || !q.Constraint.HasCEL() {
		return nil
	}
	return func(text string) bool {
		rule := res.cel[text]
		if rule == nil {
			return false
		}
		if n != nil {
			return rule.Matches(n.celProperties())
		}
		return rule.Matches(props)
	}
}

// celError names the bundle (or installed CSV) whose cel rule failed to
// compile, or that needs an evaluator.
func (res *resolution) celError(self variable, err error) error {
	if self.kind == varBundle {
		return &CatalogError{Catalog: self.ch.pkg.cat.key, Package: self.b.Package, Bundle: self.b.Name, Err: err}
	}
	return fmt.Errorf("%s: %w", res.describe(self), err)
}
