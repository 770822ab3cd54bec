package check

import (
	"cmp"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/graph"
)

// findingOrder is the report order of findings: per catalog (in input
// order, which the report keeps by concatenation), with a baseline the
// new findings first, then by package, channel, and the bundles of a
// package in version order (a name that is no bundle with a version
// after those that are, by name with numbers compared by value; no bundle
// first), then code, CRD, the bundle an upgrade edge starts at (in
// version order), message, severity and position.
type findingOrder struct {
	// cats holds per catalog name the catalogs its bundles' versions are
	// read from: the input, then its baseline (for what the change
	// removed).
	cats map[string][]*graph.Catalog
}

// newFindingOrder returns the order of the findings of inputs, whose
// baselines are baselines.
func newFindingOrder(inputs, baselines []Input) *findingOrder {
	o := &findingOrder{cats: map[string][]*graph.Catalog{}}
	for _, in := range inputs {
		o.cats[in.Name] = append(o.cats[in.Name], in.Catalog)
	}
	for _, b := range baselines {
		o.cats[b.Name] = append(o.cats[b.Name], b.Catalog)
	}
	return o
}

// compare orders two findings of one catalog.
func (o *findingOrder) compare(a, b Finding) int {
	return cmp.Or(
		cmp.Compare(statusRank(a.Status), statusRank(b.Status)),
		strings.Compare(a.Package, b.Package),
		strings.Compare(a.Channel, b.Channel),
		o.compareBundles(a.Catalog, a.Package, a.Bundle, b.Bundle),
		strings.Compare(a.Code, b.Code),
		strings.Compare(a.CRD, b.CRD),
		o.compareBundles(a.Catalog, a.Package, a.From, b.From),
		strings.Compare(a.Message, b.Message),
		cmp.Compare(a.Severity, b.Severity),
		strings.Compare(a.Pos.File, b.Pos.File),
		cmp.Compare(a.Pos.Offset, b.Pos.Offset),
	)
}

// statusRank puts the new findings of a comparison first.
func statusRank(s Status) int {
	if s == StatusNew {
		return 0
	}
	return 1
}

// compareBundles orders two bundle names of package pkg of catalog.
func (o *findingOrder) compareBundles(catalog, pkg, a, b string) int {
	switch {
	case a == b:
		return 0
	case a == "":
		return -1
	case b == "":
		return 1
	}
	va, oka := o.version(catalog, pkg, a)
	vb, okb := o.version(catalog, pkg, b)
	switch {
	case oka && okb:
		return cmp.Or(va.Compare(vb), compareNames(a, b))
	case oka:
		return -1
	case okb:
		return 1
	}
	return compareNames(a, b)
}

// version returns the version of bundle name of package pkg in catalog,
// read from the first of its catalogs that has it.
func (o *findingOrder) version(catalog, pkg, name string) (semver.Version, bool) {
	for _, c := range o.cats[catalog] {
		if p := c.Package(pkg); p != nil {
			if bd := p.Bundle(name); bd != nil {
				return bd.ValidVersion()
			}
		}
	}
	return semver.Version{}, false
}
