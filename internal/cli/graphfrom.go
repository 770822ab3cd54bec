package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

// fromNamespace is the namespace graph --from simulates a cluster in.
const fromNamespace = "operators"

// fromMaxRounds bounds the rollout graph --from simulates.
const fromMaxRounds = 100

// buildPath simulates graph --from: a namespace with bundle from installed,
// subscribed to channel chName of its package in catalog cat (named name),
// rolled out until it settles (resolver.Resolver.Path). chName empty means
// the package's default channel when from is in it, else the first channel
// (by name) that has it.
func buildPath(ctx context.Context, cat *graph.Catalog, path, name, pkgName, chName, from string) (*resolver.Path, error) {
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
	if chName != "" {
		ch := pkg.Channel(chName)
		if ch == nil {
			return nil, nil // buildGraphView reports it
		}
		if _, ok := ch.Entry(from); !ok {
			return nil, &exitError{code: ExitBadInput, err: fmt.Errorf("%s: --from %q: not an entry of channel %q of package %q", path, from, chName, pkgName)}
		}
	} else if !slices.ContainsFunc(pkg.Channels, func(c *graph.Channel) bool { _, ok := c.Entry(from); return ok }) {
		return nil, &exitError{code: ExitBadInput, err: fmt.Errorf("%s: --from %q: in no channel of package %q", path, from, pkgName)}
	}
	key := resolver.CatalogKey{Namespace: resolver.DefaultGlobalNamespace, Name: name}
	r, err := resolver.New([]resolver.Catalog{{Key: key, Catalog: cat}}, resolver.Options{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	p, err := r.Path(ctx, resolver.PathQuery{Namespace: fromNamespace, Catalog: key, Package: pkgName, Channel: chName, From: from, MaxRounds: fromMaxRounds})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// pathNodes returns the node indexes of the path's hops in channel c, -1
// for a hop that is not a node of c.
func pathNodes(p *resolver.Path, c channelView) []int {
	out := make([]int, len(p.Hops))
	for i, h := range p.Hops {
		out[i] = slices.IndexFunc(c.Nodes, func(n nodeView) bool { return n.Name == h && !n.Missing })
	}
	return out
}

// pathSummary is the path in one line: "path from A: A -> B -> C (head)"
// or "… -> B, stops below the head C: reason".
func pathSummary(p *resolver.Path) string {
	s := fmt.Sprintf("path from %s: %s", p.Hops[0], strings.Join(p.Hops, " -> "))
	if len(p.Hops) == 1 && !p.Stops() {
		return s + " (the head already)"
	}
	if !p.Stops() {
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
	if last := nodes[len(nodes)-1]; p.Stops() && last >= 0 {
		fmt.Fprintf(w, "  c%dstop>\"%s\"]\n", ci, mermaidText("stops here: "+p.Stop))
		fmt.Fprintf(w, "  c%dn%d -.- c%dstop\n", ci, last, ci)
		link++
	}
	fmt.Fprintln(w, "  classDef path fill:#dbeafe,stroke:#1d4ed8")
	fmt.Fprintln(w, "  classDef stop fill:#fee2e2,stroke:#b91c1c,stroke-width:3px")
	if len(ids) > 0 {
		fmt.Fprintf(w, "  class %s path\n", strings.Join(ids, ","))
	}
	if p.Stops() && nodes[len(nodes)-1] >= 0 {
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
		if p.Stops() && i == len(nodes)-1 {
			fmt.Fprintf(w, "  \"c%dn%d\" [color=\"red3\", penwidth=3, xlabel=%s];\n", ci, n, dotText("stops: "+p.Stop))
		} else {
			fmt.Fprintf(w, "  \"c%dn%d\" [color=\"blue3\", penwidth=3];\n", ci, n)
		}
		if i > 0 && nodes[i-1] >= 0 {
			fmt.Fprintf(w, "  \"c%dn%d\" -> \"c%dn%d\" [color=\"blue3\", penwidth=3, label=%s];\n", ci, nodes[i-1], ci, n, dotText(fmt.Sprintf("round %d", i)))
		}
	}
}
