package resolver

import "github.com/sextantdev/sextant/graph"

// varKind tells the three kinds of solver variables apart.
type varKind uint8

const (
	varSubscription varKind = iota + 1 // a subscription (mandatory)
	varInstalled                       // an installed CSV
	varBundle                          // a (catalog, channel, bundle) entry
)

// variable is a solver variable's identity: a comparable struct, never a
// string. For varSubscription and varInstalled, idx indexes the resolution's
// subscriptions or installed CSVs; for varBundle, ch and b name the channel
// entry (the channel knows its catalog) and idx is the entry's position
// among the channel's candidates (-1 for a startingCSV off the chain), a
// function of ch and b.
type variable struct {
	kind varKind
	idx  int32
	ch   *chanIndex
	b    *graph.Bundle
}

// reason is the caller-side reason of every constraint: enough to turn a
// conflict core into facts.
type reason struct {
	kind    FactKind
	sub     *subNode
	subject variable
	req     *requirement
	pkg     string
	gvk     *graph.GVK // FactOnePerAPI: the API; shared, never changed
}

// requirement is one requirement of a bundle or an installed CSV: graph's
// model of it, which also matches and words it.
type requirement = graph.Requirement

// dependency is one Dependency constraint of a selected-able subject, kept
// to explain and order the plan.
type dependency struct {
	subject variable
	req     *requirement
	cands   []variable
}

// reqKey caches the candidates of a requirement: per requirement and the
// dependent's catalog (preferred first).
type reqKey struct {
	kind graph.RequirementKind
	gvk  graph.GVK
	name string // package or label
	text string // range text
	c    *graph.Constraint
	cat  *catalogIndex
}
