package resolver

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

// PathQuery asks which path a cluster takes from one bundle of a package:
// see Resolver.Path.
type PathQuery struct {
	// Namespace is the namespace the cluster is simulated in.
	Namespace string
	// Catalog is the catalog of the package.
	Catalog CatalogKey
	// Package and From are the package and the bundle installed.
	Package string
	From    string
	// Channel is the channel subscribed to; empty means the package's
	// default channel when From is in it, else the first channel (by
	// name) that has it.
	Channel string
	// MaxRounds bounds the rollout.
	MaxRounds int
}

// Path is the path a cluster with one bundle installed takes through its
// channel: the bundles it has, round by round, and where and why it stops
// short of the head. It is plain data.
type Path struct {
	// Channel is the channel followed and Head its head.
	Channel string `json:"channel"`
	Head    string `json:"head"`
	// Hops are the bundles of the package the cluster has, round by
	// round, the starting bundle first.
	Hops []string `json:"hops"`
	// Stop, when the path ends below the head, says why.
	Stop string `json:"stop,omitempty"`
}

// Stops reports whether the path ends below the head.
func (p *Path) Stops() bool { return p.Stop != "" }

// Path simulates the path a cluster takes from bundle q.From: a namespace
// with the bundle installed (as Resolution.Apply installs one) and
// subscribed to its channel in q.Catalog, rolled out until it settles (at
// most q.MaxRounds rounds); every hop is a round that changes the
// package's bundle. When it ends below the head, Stop says why: the round
// without a plan, or the reason Resolution.Stops gives (with no search for
// a change that lets it move). It returns an error when the catalog, the
// package, the bundle or the channel is unknown, or the bundle is not in
// the channel.
func (r *Resolver) Path(ctx context.Context, q PathQuery) (*Path, error) {
	ci := r.byKey[q.Catalog]
	if ci == nil {
		return nil, fmt.Errorf("path: no catalog %s", q.Catalog)
	}
	pkg := ci.cat.Package(q.Package)
	if pkg == nil {
		return nil, fmt.Errorf("path: catalog %s has no package %q", q.Catalog, q.Package)
	}
	b := pkg.Bundle(q.From)
	if b == nil {
		return nil, fmt.Errorf("path: package %q has no bundle %q", q.Package, q.From)
	}
	ch, err := pathChannel(pkg, q.Channel, q.From)
	if err != nil {
		return nil, err
	}
	ns := q.Namespace
	state := &cluster.State{
		CSVs: []cluster.CSV{installedCSV(ns, b, "")},
		Subscriptions: []cluster.Subscription{{
			Name: q.Package, Namespace: ns, Package: q.Package, Channel: ch.Name,
			Source: q.Catalog.Name, SourceNamespace: q.Catalog.Namespace, InstalledCSV: q.From, CurrentCSV: q.From,
		}},
	}
	p := &Path{Channel: ch.Name, Hops: []string{q.From}}
	if head, ok := ch.Head(); ok {
		p.Head = head
	}
	ro, err := r.Rollout(ctx, ns, state, RolloutOptions{MaxRounds: q.MaxRounds})
	if err != nil && ro == nil {
		return nil, err
	}
	for _, round := range ro.Rounds {
		for _, st := range round.Plan.Steps {
			if st.Package == q.Package && st.Bundle != p.Hops[len(p.Hops)-1] {
				p.Hops = append(p.Hops, st.Bundle)
			}
		}
	}
	if err != nil {
		p.Stop = fmt.Sprintf("round %d has no plan: %s", len(ro.Rounds)+1, firstLine(err.Error()))
		return p, nil
	}
	if p.Hops[len(p.Hops)-1] == p.Head {
		return p, nil
	}
	stops, err := ro.Last().Stops(ctx, HeldBackOptions{ReasonsOnly: true})
	if err != nil {
		p.Stop = firstLine(err.Error())
		return p, nil
	}
	for _, s := range stops {
		if s.Subscription == q.Package {
			p.Stop = s.Reason
		}
	}
	if p.Stop == "" {
		p.Stop = "it stops below the head " + p.Head
	}
	return p, nil
}

// pathChannel returns the channel named name, or, when name is empty, the
// package's default channel when from is in it, else the first channel
// (by name) that has from.
func pathChannel(pkg *graph.Package, name, from string) (*graph.Channel, error) {
	if name != "" {
		ch := pkg.Channel(name)
		if ch == nil {
			return nil, fmt.Errorf("path: package %q has no channel %q", pkg.Name, name)
		}
		if _, ok := ch.Entry(from); !ok {
			return nil, fmt.Errorf("path: %q is not an entry of channel %q of package %q", from, name, pkg.Name)
		}
		return ch, nil
	}
	var in []*graph.Channel
	for _, c := range pkg.Channels {
		if _, ok := c.Entry(from); ok {
			in = append(in, c)
		}
	}
	if len(in) == 0 {
		return nil, fmt.Errorf("path: %q is in no channel of package %q", from, pkg.Name)
	}
	if i := slices.IndexFunc(in, func(c *graph.Channel) bool { return c.Name == pkg.DefaultChannel }); i >= 0 {
		return in[i], nil
	}
	return slices.MinFunc(in, func(a, b *graph.Channel) int { return cmp.Compare(a.Name, b.Name) }), nil
}

// firstLine returns the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
