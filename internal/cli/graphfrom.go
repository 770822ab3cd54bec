package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

// fromNamespace is the namespace graph --from simulates a cluster in.
const fromNamespace = "operators"

// fromMaxRounds bounds the rollout graph --from simulates.
const fromMaxRounds = 100

// pathView is the path a cluster at one bundle takes through a channel:
// the rollout's hops, and where and why it stops short of the head.
type pathView struct {
	Channel string
	// Hops are the bundles of the package the cluster has, round by round,
	// the starting bundle first.
	Hops []string
	// Stop, when the path ends below the head, says why.
	Stop string
	// Head is the channel's head.
	Head string
}

// stops reports whether the path ends below the head.
func (p *pathView) stops() bool { return p.Stop != "" }

// buildPath simulates graph --from: a namespace with bundle from installed,
// subscribed to channel chName of its package in catalog cat (named name),
// rolled out until it settles; every hop is a round that changes the
// package's bundle. chName empty means the package's default channel when
// from is in it, else the first channel (by name) that has it.
func buildPath(ctx context.Context, cat *graph.Catalog, path, name, pkgName, chName, from string) (*pathView, error) {
	pkg := cat.Package(pkgName)
	if pkg == nil {
		return nil, nil // buildGraphView reports it
	}
	if pkg.Bundle(from) == nil {
		var names []string
		for _, b := range pkg.Bundles {
			names = append(names, b.Name)
		}
		return nil, &exitError{code: ExitBadInput, err: fmt.Errorf("%s: --from %q: package %q has no such bundle (%s)", path, from, pkgName, available("bundles", names, from))}
	}
	var ch *graph.Channel
	if chName != "" {
		if ch = pkg.Channel(chName); ch == nil {
			return nil, nil // buildGraphView reports it
		}
		if _, ok := ch.Entry(from); !ok {
			return nil, &exitError{code: ExitBadInput, err: fmt.Errorf("%s: --from %q: not an entry of channel %q of package %q", path, from, chName, pkgName)}
		}
	} else {
		var in []*graph.Channel
		for _, c := range pkg.Channels {
			if _, ok := c.Entry(from); ok {
				in = append(in, c)
			}
		}
		if len(in) == 0 {
			return nil, &exitError{code: ExitBadInput, err: fmt.Errorf("%s: --from %q: in no channel of package %q", path, from, pkgName)}
		}
		slices.SortFunc(in, func(a, b *graph.Channel) int { return strings.Compare(a.Name, b.Name) })
		ch = in[0]
		for _, c := range in {
			if c.Name == pkg.DefaultChannel {
				ch = c
			}
		}
	}
	key := resolver.CatalogKey{Namespace: resolver.DefaultGlobalNamespace, Name: name}
	r, err := resolver.New([]resolver.Catalog{{Key: key, Catalog: cat}}, resolver.Options{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	// The installed CSV is the bundle as OLM would have installed it.
	state, err := r.Apply(&cluster.State{}, &resolver.Plan{Namespace: fromNamespace, Steps: []resolver.Step{{
		Action: resolver.ActionInstall, Package: pkgName, Bundle: from, Channel: ch.Name, Catalog: key,
	}}})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	state.Subscriptions = append(state.Subscriptions, cluster.Subscription{
		Name: pkgName, Namespace: fromNamespace, Package: pkgName, Channel: ch.Name,
		Source: key.Name, SourceNamespace: key.Namespace, InstalledCSV: from, CurrentCSV: from,
	})
	pv := &pathView{Channel: ch.Name, Hops: []string{from}}
	if head, ok := ch.Head(); ok {
		pv.Head = head
	}
	rounds, err := r.Rollout(ctx, fromNamespace, state, fromMaxRounds)
	for _, round := range rounds {
		for _, st := range round.Plan.Steps {
			if st.Package == pkgName && st.Bundle != pv.Hops[len(pv.Hops)-1] {
				pv.Hops = append(pv.Hops, st.Bundle)
			}
		}
	}
	last := pv.Hops[len(pv.Hops)-1]
	if err != nil {
		pv.Stop = fmt.Sprintf("round %d has no plan: %s", len(rounds)+1, firstLine(err.Error()))
		return pv, nil
	}
	if last == pv.Head {
		return pv, nil
	}
	final := state
	if len(rounds) > 0 {
		final = rounds[len(rounds)-1].State
	}
	stops, err := r.Stops(ctx, fromNamespace, final, resolver.HeldBackOptions{ReasonsOnly: true})
	if err != nil {
		pv.Stop = firstLine(err.Error())
		return pv, nil
	}
	for _, s := range stops {
		if s.Subscription == pkgName {
			pv.Stop = s.Reason
		}
	}
	if pv.Stop == "" {
		pv.Stop = "it stops below the head " + pv.Head
	}
	return pv, nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// pathNodes returns the node indexes of the path's hops in channel c, -1
// for a hop that is not a node of c.
func pathNodes(p *pathView, c channelView) []int {
	out := make([]int, len(p.Hops))
	for i, h := range p.Hops {
		out[i] = slices.IndexFunc(c.Nodes, func(n nodeView) bool { return n.Name == h && !n.Missing })
	}
	return out
}

// pathSummary is the path in one line: "path from A: A -> B -> C (head)"
// or "… -> B, stops below the head C: reason".
func pathSummary(p *pathView) string {
	s := fmt.Sprintf("path from %s: %s", p.Hops[0], strings.Join(p.Hops, " -> "))
	if len(p.Hops) == 1 && !p.stops() {
		return s + " (the head already)"
	}
	if !p.stops() {
		return s + " (head)"
	}
	return fmt.Sprintf("%s, stops below the head %s: %s", s, p.Head, p.Stop)
}

// writePathText writes the path under its channel's entries.
func writePathText(w io.Writer, v *graphView, c channelView) {
	p := v.Path
	if p == nil || p.Channel != c.Name {
		return
	}
	fmt.Fprintf(w, "  %s\n", pathSummary(p))
}

// writeMermaidPath draws the path of channel ci: a thick edge per hop,
// labelled with its round, the hops' boxes in class path and the box it
// stops at in class stop, with a note beside it that says why. link is the number of links drawn so far; it
// returns the new count.
func writeMermaidPath(w io.Writer, v *graphView, ci int, c channelView, link int) int {
	p := v.Path
	if p == nil || p.Channel != c.Name {
		return link
	}
	fmt.Fprintf(w, "  %%%% %s\n", strings.ReplaceAll(pathSummary(p), "\n", " "))
	nodes := pathNodes(p, c)
	var links, ids []string
	for i, n := range nodes {
		if n < 0 {
			continue
		}
		ids = append(ids, fmt.Sprintf("c%dn%d", ci, n))
		if i > 0 && nodes[i-1] >= 0 {
			fmt.Fprintf(w, "  c%dn%d ==>|\"round %d\"| c%dn%d\n", ci, nodes[i-1], i, ci, n)
			links = append(links, fmt.Sprint(link))
			link++
		}
	}
	if last := nodes[len(nodes)-1]; p.stops() && last >= 0 {
		fmt.Fprintf(w, "  c%dstop>\"%s\"]\n", ci, mermaidText("stops here: "+p.Stop))
		fmt.Fprintf(w, "  c%dn%d -.- c%dstop\n", ci, last, ci)
		link++
	}
	fmt.Fprintln(w, "  classDef path fill:#dbeafe,stroke:#1d4ed8")
	fmt.Fprintln(w, "  classDef stop fill:#fee2e2,stroke:#b91c1c,stroke-width:3px")
	if len(ids) > 0 {
		fmt.Fprintf(w, "  class %s path\n", strings.Join(ids, ","))
	}
	if p.stops() && nodes[len(nodes)-1] >= 0 {
		fmt.Fprintf(w, "  class c%dn%d,c%dstop stop\n", ci, nodes[len(nodes)-1], ci)
	}
	if len(links) > 0 {
		fmt.Fprintf(w, "  linkStyle %s stroke:#1d4ed8,stroke-width:3px\n", strings.Join(links, ","))
	}
	return link
}

// writeDotPath draws the path of channel ci in dot: the hops' boxes
// outlined in blue, the box it stops at filled red and labelled with the
// reason, and a bold edge per hop labelled with its round.
func writeDotPath(w io.Writer, v *graphView, ci int, c channelView) {
	p := v.Path
	if p == nil || p.Channel != c.Name {
		return
	}
	fmt.Fprintf(w, "  // %s\n", pathSummary(p))
	nodes := pathNodes(p, c)
	for i, n := range nodes {
		if n < 0 {
			continue
		}
		if p.stops() && i == len(nodes)-1 {
			fmt.Fprintf(w, "  \"c%dn%d\" [color=\"red3\", penwidth=3, xlabel=%s];\n", ci, n, dotText("stops: "+p.Stop))
		} else {
			fmt.Fprintf(w, "  \"c%dn%d\" [color=\"blue3\", penwidth=3];\n", ci, n)
		}
		if i > 0 && nodes[i-1] >= 0 {
			fmt.Fprintf(w, "  \"c%dn%d\" -> \"c%dn%d\" [color=\"blue3\", penwidth=3, label=%s];\n", ci, nodes[i-1], ci, n, dotText(fmt.Sprintf("round %d", i)))
		}
	}
}
