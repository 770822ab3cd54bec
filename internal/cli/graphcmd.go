package cli

import (
	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/internal/suggest"

	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/textio"
	"github.com/sextantdev/sextant/resolver"
)

// graphFlags are the flags of graph.
type graphFlags struct {
	pkgName, chName, from string
	fenced                bool
	output, skipRanges    *choice
}

func newGraphCmd(e *env) *cobra.Command {
	f := &graphFlags{}
	cmd := &cobra.Command{
		Use:   "graph PATH --package P [--channel C]",
		Short: "Draw the upgrade graph of a package as Mermaid, Graphviz dot or text",
		Long:  graphHelp(),
		Example: `  sextant graph catalog/ --package etcd --channel alpha -o mermaid --fenced
  sextant graph index.json.gz --package etcd -o dot | dot -Tsvg > etcd.svg`,
		Args: cobra.ExactArgs(1),
	}
	f.output = addOutputFlag(cmd, "text", "mermaid", "dot")
	f.skipRanges = addChoiceFlag(cmd, "skip-ranges", "", "how skipRanges are drawn", "auto", "edges", "labels")
	cmd.Flags().StringVar(&f.pkgName, "package", "", "the `PACKAGE` to draw (required)")
	cmd.Flags().StringVar(&f.chName, "channel", "", "the `CHANNEL` to draw (default: every channel of the package)")
	cmd.Flags().StringVar(&f.from, "from", "", "mark the path a cluster at `BUNDLE` takes to the channel head")
	cmd.Flags().BoolVar(&f.fenced, "fenced", false, "wrap the output in a Markdown code fence, for a GitHub comment")
	_ = cmd.MarkFlagRequired("package")
	cmd.RunE = func(cmd *cobra.Command, args []string) error { return e.runGraph(cmd, f, args[0]) }
	return withTopics(cmd, "catalogs", "diagrams")
}

// graphHelp is graph's long help.
func graphHelp() string {
	return `Graph draws the upgrade graph of one channel of a package, or of every channel (one box per
channel), from the catalog at PATH: an FBC file or folder, "-" for standard input, or an image.

Nodes are bundles (name and version), in channel order, head first. An edge goes from a bundle to
the entry that upgrades it: solid for replaces, dashed for skips, dotted and labelled with the
range for skipRange. Heads and deprecated bundles are marked. A diagram with more than ` + strconv.Itoa(maxDiagramEdges) + `
edges writes skipRanges as labels instead (--skip-ranges). --from BUNDLE marks the path a cluster
at BUNDLE takes to the channel head, and where and why it stops short of it. -o mermaid prints a
Mermaid flowchart for a GitHub comment (--fenced adds the fence); -o dot is for "dot -Tsvg".

Exit status: 0 drawn, 1 when the catalog has no such package or channel, 2 for bad input or usage.`
}

// runGraph is graph: the view of the catalog at path that the flags ask
// for, with --from's path, written in the format asked for.
func (e *env) runGraph(cmd *cobra.Command, f *graphFlags, path string) error {
	cat, err := e.loadCatalog(path)
	if err != nil {
		return err
	}
	name := path
	if path == "-" {
		name = stdinName
	}
	v, err := f.view(cat, name)
	if err != nil {
		return err
	}
	if f.from != "" {
		catName := "stdin"
		if path != "-" {
			catName = defaultCatalogName(path)
		}
		if v.Path, err = buildPath(cmd.Context(), cat, name, catName, f.pkgName, f.chName, f.from); err != nil {
			return err
		}
	}
	bw := &textio.ErrWriter{W: e.stdout}
	if f.fenced {
		fmt.Fprintf(bw, "```%s\n", f.output.value)
	}
	switch f.output.value {
	case "mermaid":
		writeMermaid(bw, v)
	case "dot":
		writeDot(bw, v)
	default:
		writeGraphText(bw, v)
	}
	if f.fenced {
		fmt.Fprintln(bw, "```")
	}
	return bw.Err
}

// view builds the view of the package and channel asked for in cat (named
// name in messages), with skipRanges drawn as --skip-ranges says.
func (f *graphFlags) view(cat *graph.Catalog, name string) (*graphView, error) {
	// Text and drawn skipRange edges need every edge; labels only the
	// counts, so a skipRange over thousands of entries costs no memory
	// per edge.
	text := f.output.value == "text"
	keep := f.skipRanges.value == "edges"
	v, err := buildGraphViewKeep(cat, name, f.pkgName, f.chName, keep)
	if err != nil {
		return nil, err
	}
	if !keep && f.skipRanges.value == "auto" && (text && v.skipRangeEdges() <= maxTextSkipRangeEdges || !text && v.diagramEdges() <= maxDiagramEdges) {
		// A small diagram draws its skipRange edges: build them.
		if v, err = buildGraphViewKeep(cat, name, f.pkgName, f.chName, true); err != nil {
			return nil, err
		}
	}
	switch f.skipRanges.value {
	case "labels":
		v.SkipRangeLabels = true
	case "auto":
		if text {
			v.SkipRangeLabels = v.skipRangeEdges() > maxTextSkipRangeEdges
		} else {
			v.SkipRangeLabels = v.diagramEdges() > maxDiagramEdges
		}
	}
	return v, nil
}

// edgeKind is why one bundle upgrades to another: graph's kinds, strongest
// first.
type edgeKind = graph.EdgeKind

const (
	edgeReplaces  = graph.EdgeReplaces
	edgeSkips     = graph.EdgeSkips
	edgeSkipRange = graph.EdgeSkipRange
)

// graphView is the drawable upgrade graph of a package: what the renderers
// print, in the order they print it.
type graphView struct {
	// SkipRangeLabels makes diagrams write skipRanges in the boxes of their
	// entries instead of drawing their edges.
	SkipRangeLabels bool

	Package        string
	DefaultChannel string
	Deprecated     bool   // olm.deprecations names the package
	Deprecation    string // its message
	Channels       []channelView
	// Path, with --from, is the path a cluster at a bundle takes.
	Path *resolver.Path
}

type channelView struct {
	Name        string
	Default     bool
	Deprecated  bool
	Deprecation string
	// Nodes are the channel's entries in Channel.Order, then the names that
	// edges refer to but that are not entries, sorted.
	Nodes []nodeView
	// Edges are sorted by target node, kind, then source node. Every
	// (from, to, kind) appears once.
	Edges []edgeView
	// edgeStart[i] is the index in Edges of the first edge to node i;
	// edgeStart[len(Nodes)] is len(Edges).
	edgeStart []int
	// drawn is the number of edges a diagram draws with skipRange edges.
	drawn int
}

// edgesTo returns the edges that lead to node i, in Edges order.
func (c channelView) edgesTo(i int) []edgeView {
	return c.Edges[c.edgeStart[i]:c.edgeStart[i+1]]
}

// edgeStarts returns where the edges to each of n nodes start in edges,
// which are sorted by target.
func edgeStarts(n int, edges []edgeView) []int {
	start := make([]int, n+1)
	for _, e := range edges {
		start[e.To+1]++
	}
	for i := range n {
		start[i+1] += start[i]
	}
	return start
}

type nodeView struct {
	Name       string
	Version    string // as written; "" when there is no bundle
	Head       bool
	Deprecated bool
	Missing    bool // not an entry of the channel
	NoBundle   bool // no bundle of this name in the package
	// SkipRange is the entry's skipRange as written, "" when it has none;
	// SkipRangeValid reports whether it parses.
	SkipRange      string
	SkipRangeValid bool
	// skipRangeMatches is the number of entries the skipRange matches.
	skipRangeMatches int
}

type edgeView struct {
	From, To int // node indexes
	Kind     edgeKind
	Range    string // skipRange: the range's text
}

// maxDiagramEdges is the number of edges past which --skip-ranges auto
// writes skipRanges as labels: Mermaid's default maxEdges.
const maxDiagramEdges = 500

// maxTextSkipRangeEdges is the number of skipRange edges past which
// --skip-ranges auto makes text output give each skipRange's number of
// matches instead of their names: listed, a skipRange over every lower
// version of a channel of n entries is n²/2 names.
const maxTextSkipRangeEdges = 10000

// skipRangeEdges returns the number of skipRange edges of the view's
// channels, kept or only counted.
func (v *graphView) skipRangeEdges() int {
	n := 0
	for _, c := range v.Channels {
		for _, node := range c.Nodes {
			n += node.skipRangeMatches
		}
	}
	return n
}

// diagramEdges returns the number of edges a diagram draws with skipRange
// edges.
func (v *graphView) diagramEdges() int {
	n := 0
	for _, c := range v.Channels {
		n += c.drawn
	}
	return n
}

// maxListed is how many names an unknown-name error lists.
const maxListed = 10

// buildGraphView builds the view of channel chName of package pkgName, or of
// every channel when chName is empty. An unknown package or channel is the
// answer no (exit status 1, as for a subscription to a package the catalog
// lacks), whose message lists what exists; path names the catalog in it.
func buildGraphView(cat *graph.Catalog, path, pkgName, chName string) (*graphView, error) {
	return buildGraphViewKeep(cat, path, pkgName, chName, true)
}

// buildGraphViewKeep is buildGraphView keeping skipRange edges only with
// keepSkipRange: without them (a diagram of labels) the view costs time
// linear in the edges but memory linear in the entries.
func buildGraphViewKeep(cat *graph.Catalog, path, pkgName, chName string, keepSkipRange bool) (*graphView, error) {
	pkg := cat.Package(pkgName)
	if pkg == nil {
		var names []string
		for _, p := range cat.Packages() {
			names = append(names, p.Name)
		}
		return nil, noErrorf("%s: no package %q in the catalog (%s)", path, pkgName, available("packages", names, pkgName))
	}
	chans := pkg.Channels
	if chName != "" {
		ch := pkg.Channel(chName)
		if ch == nil {
			var names []string
			for _, c := range pkg.Channels {
				names = append(names, c.Name)
			}
			return nil, noErrorf("%s: no channel %q in package %q (%s)", path, chName, pkgName, available("channels", names, chName))
		}
		chans = []*graph.Channel{ch}
	}
	v := &graphView{Package: pkg.Name, DefaultChannel: pkg.DefaultChannel}
	v.Deprecation, v.Deprecated = deprecationMessage(pkg, graph.SchemaPackage, "")
	for _, ch := range chans {
		cv := channelView{Name: ch.Name, Default: ch.Name == pkg.DefaultChannel}
		cv.Deprecation, cv.Deprecated = deprecationMessage(pkg, graph.SchemaChannel, ch.Name)
		cv.Nodes, cv.Edges, cv.drawn = channelGraph(pkg, ch, keepSkipRange)
		cv.edgeStart = edgeStarts(len(cv.Nodes), cv.Edges)
		v.Channels = append(v.Channels, cv)
	}
	return v, nil
}

// deprecationMessage returns the message of the olm.deprecations entry of
// pkg about the object of schema named name (the last, in a package that
// repeats one), and whether there is one.
func deprecationMessage(pkg *graph.Package, schema, name string) (string, bool) {
	ds := pkg.DeprecationsOf(schema, name)
	if len(ds) == 0 {
		return "", false
	}
	return ds[len(ds)-1].Message, true
}

// available describes the names that exist, listing them when there are
// few, else counting them and listing up to maxListed of those that contain
// the name asked for or are contained in it (ignoring case).
func available(what string, names []string, asked string) string {
	if near := suggest.Nearest(asked, names); near != "" {
		return fmt.Sprintf("did you mean %q? %s", near, listed(what, names, asked))
	}
	return listed(what, names, asked)
}

// listed is available without the nearest name.
func listed(what string, names []string, asked string) string {
	switch {
	case len(names) == 0:
		return "it has no " + what
	case len(names) <= maxListed:
		return what + ": " + strings.Join(names, ", ")
	}
	s := fmt.Sprintf("%d %s", len(names), what)
	var similar []string
	q := strings.ToLower(asked)
	for _, n := range names {
		l := strings.ToLower(n)
		if q != "" && (strings.Contains(l, q) || strings.Contains(q, l)) {
			similar = append(similar, n)
			if len(similar) == maxListed {
				break
			}
		}
	}
	if len(similar) > 0 {
		s += "; similar: " + strings.Join(similar, ", ")
	}
	return s
}

// channelGraph returns the nodes and edges of one channel.
func channelGraph(pkg *graph.Package, ch *graph.Channel, keepSkipRange bool) (_ []nodeView, _ []edgeView, drawn int) {
	index := map[string]int{}
	var nodes []nodeView
	heads := map[string]bool{}
	for _, h := range ch.Heads() {
		heads[h] = true
	}
	addNode := func(name string, missing bool) int {
		if i, ok := index[name]; ok {
			return i
		}
		n := nodeView{Name: name, Head: heads[name] && !missing, Missing: missing}
		if b := pkg.Bundle(name); b != nil {
			n.Version = b.VersionText
			n.Deprecated = b.Deprecated
		} else {
			n.NoBundle = true
		}
		if pkg.DeprecationsOf(graph.SchemaBundle, name) != nil {
			n.Deprecated = true
		}
		index[name] = len(nodes)
		nodes = append(nodes, n)
		return index[name]
	}
	for _, name := range ch.Order() {
		i := addNode(name, false)
		if en, ok := ch.Entry(name); ok && en.SkipRange.String() != "" {
			nodes[i].SkipRange, nodes[i].SkipRangeValid = en.SkipRange.String(), en.SkipRange.Valid()
		}
	}
	// Names that edges refer to but that are not entries, sorted: only
	// replaces and skips name them (a skipRange matches entries).
	var missing []string
	for _, en := range ch.Entries {
		if en.Replaces != "" && ch.Position(en.Replaces) < 0 {
			missing = append(missing, en.Replaces)
		}
		for _, name := range en.Skips {
			if name != "" && ch.Position(name) < 0 {
				missing = append(missing, name)
			}
		}
	}
	sort.Strings(missing)
	for _, name := range missing {
		addNode(name, true)
	}
	// graph's Edges come by target in Order, kind, then source (entries in
	// Order, then the other names sorted): the node order, so edges are
	// sorted by target, kind and source node as they come. Every skipRange
	// match is counted in its node; the edge is kept only with keepSkipRange
	// (a diagram that writes skipRanges as labels needs only the counts).
	// drawn counts the edges a diagram would draw with skipRange edges: one
	// per pair of nodes.
	var edges []edgeView
	stamp := make([]int, len(nodes)) // stamp[from] == to+1: pair drawn
	for e := range ch.Edges() {
		from, to := index[e.From], index[e.To]
		if stamp[from] != to+1 {
			stamp[from] = to + 1
			drawn++
		}
		if e.Kind == edgeSkipRange {
			nodes[to].skipRangeMatches++
			if !keepSkipRange {
				continue
			}
		}
		edges = append(edges, edgeView{From: from, To: to, Kind: e.Kind, Range: e.Range.String()})
	}
	return nodes, edges, drawn
}

// eachDrawnEdge calls f (when not nil) with each edge of c a diagram
// draws: one per (from, to) pair, the strongest kind, and no skipRange edge
// when noSkipRange is set, in Edges order. It returns their number; its cost
// is linear in the edges.
func eachDrawnEdge(c channelView, noSkipRange bool, f func(edgeView)) int {
	stamp := make([]int, len(c.Nodes)) // stamp[from] == to+1: drawn already
	n := 0
	for to := range c.Nodes {
		// Edges to a node come by kind, strongest first: the first edge
		// from a node is the one drawn.
		for _, e := range c.edgesTo(to) {
			if noSkipRange && e.Kind == edgeSkipRange || stamp[e.From] == to+1 {
				continue
			}
			stamp[e.From] = to + 1
			n++
			if f != nil {
				f(e)
			}
		}
	}
	return n
}

// skipRangeLabel is the line a diagram writes in an entry's box for its
// skipRange when skipRanges are labels, or "".
func skipRangeLabel(v *graphView, c channelView, node int) string {
	n := c.Nodes[node]
	if !v.SkipRangeLabels || n.SkipRange == "" {
		return ""
	}
	if !n.SkipRangeValid {
		return "skipRange " + n.SkipRange + " (invalid)"
	}
	matches := n.skipRangeMatches
	if matches == 1 {
		return "skipRange " + n.SkipRange + " (matches 1 entry)"
	}
	return fmt.Sprintf("skipRange %s (matches %d entries)", n.SkipRange, matches)
}

// skipRangeNote is the comment a diagram starts with when it writes
// skipRanges as labels, or "".
func skipRangeNote(v *graphView) string {
	if !v.SkipRangeLabels {
		return ""
	}
	return fmt.Sprintf("skipRanges are written in the boxes, not drawn: drawn, the diagram would have %d edges (--skip-ranges edges draws them)", v.diagramEdges())
}

// textChannelTitle is channelTitle with the name as text output prints it.
func textChannelTitle(c channelView) string {
	c.Name = textName(c.Name)
	return channelTitle(c)
}

// channelTitle is "channel NAME" with its marks.
func channelTitle(c channelView) string {
	s := "channel " + c.Name
	var marks []string
	if c.Default {
		marks = append(marks, "default")
	}
	if c.Deprecated {
		marks = append(marks, "deprecated")
	}
	if len(marks) > 0 {
		s += " (" + strings.Join(marks, ", ") + ")"
	}
	return s
}

// nodeMarks are the words that qualify a node: head, deprecated, not in
// channel, no bundle.
func nodeMarks(n nodeView) []string {
	var marks []string
	if n.Head {
		marks = append(marks, "head")
	}
	if n.Deprecated {
		marks = append(marks, "deprecated")
	}
	if n.Missing {
		marks = append(marks, "not in channel")
	}
	if n.NoBundle {
		marks = append(marks, "no bundle")
	}
	return marks
}

// writeGraphText writes an indented list per channel: each entry with its
// version and marks, then the edges that lead to it.
func writeGraphText(w io.Writer, v *graphView) {
	if v.DefaultChannel == "" {
		fmt.Fprintf(w, "package %s (no default channel)\n", textName(v.Package))
	} else {
		fmt.Fprintf(w, "package %s (default channel %s)\n", textName(v.Package), textName(v.DefaultChannel))
	}
	if v.Deprecated {
		fmt.Fprintf(w, "  deprecated: %s\n", v.Deprecation)
	}
	if v.SkipRangeLabels {
		fmt.Fprintf(w, "  note: each skipRange gives the number of entries it matches, not their names: listed, they would be %d edges (--skip-ranges edges lists them)\n", v.skipRangeEdges())
	}
	for _, c := range v.Channels {
		fmt.Fprintf(w, "%s\n", textChannelTitle(c))
		if c.Deprecated {
			fmt.Fprintf(w, "  deprecated: %s\n", c.Deprecation)
		}
		var skips, rangeFrom []string
		for i, n := range c.Nodes {
			if n.Missing {
				continue
			}
			line := "  " + textName(n.Name)
			if n.Version != "" {
				line += " " + textName(n.Version)
			}
			if marks := nodeMarks(n); len(marks) > 0 {
				line += " [" + strings.Join(marks, ", ") + "]"
			}
			fmt.Fprintln(w, line)
			skips, rangeFrom = skips[:0], rangeFrom[:0]
			for _, e := range c.edgesTo(i) {
				from := c.Nodes[e.From]
				name := textName(from.Name)
				if from.Missing {
					name += " (not in channel)"
				}
				switch e.Kind {
				case edgeReplaces:
					fmt.Fprintf(w, "    replaces %s\n", name)
				case edgeSkips:
					skips = append(skips, name)
				case edgeSkipRange:
					rangeFrom = append(rangeFrom, name)
				}
			}
			if len(skips) > 0 {
				fmt.Fprintf(w, "    skips %s\n", strings.Join(skips, ", "))
			}
			switch {
			case n.SkipRange == "":
			case !n.SkipRangeValid:
				fmt.Fprintf(w, "    skipRange %q: not a semver range\n", n.SkipRange)
			case v.SkipRangeLabels && n.skipRangeMatches == 1:
				fmt.Fprintf(w, "    skipRange %q: matches 1 entry\n", n.SkipRange)
			case v.SkipRangeLabels && n.skipRangeMatches > 1:
				fmt.Fprintf(w, "    skipRange %q: matches %d entries\n", n.SkipRange, n.skipRangeMatches)
			case len(rangeFrom) == 0:
				fmt.Fprintf(w, "    skipRange %q: matches no entry of the channel\n", n.SkipRange)
			default:
				fmt.Fprintf(w, "    skipRange %q: %s\n", n.SkipRange, strings.Join(rangeFrom, ", "))
			}
		}
		writePathText(w, v, c)
	}
}

// mermaidEscaper replaces what would end or break a quoted Mermaid label
// with entity codes; line breaks become spaces.
var mermaidEscaper = strings.NewReplacer(
	"#", "#35;",
	`"`, "#quot;",
	"<", "#60;",
	">", "#62;",
	"&", "#38;",
	"`", "#96;",
	"\r", " ",
	"\n", " ",
)

// mermaidText escapes s for a quoted Mermaid label.
func mermaidText(s string) string { return mermaidEscaper.Replace(s) }

// writeMermaid writes a Mermaid flowchart: one subgraph per channel, node
// ids c<channel>n<node>, class and link styles for marks and edge kinds.
func writeMermaid(w io.Writer, v *graphView) {
	title := "package " + v.Package
	if v.Deprecated {
		title += " (deprecated)"
	}
	// The front matter's title is drawn above the chart.
	fmt.Fprintf(w, "---\ntitle: %q\n---\n", title)
	fmt.Fprintln(w, "graph LR")
	fmt.Fprintln(w, "  %% edges: solid = replaces, dashed = skips, dotted = skipRange")
	if note := skipRangeNote(v); note != "" {
		fmt.Fprintf(w, "  %%%% %s\n", note)
	}
	var classes = map[string][]string{}
	var dashed, dotted []string
	link := 0
	for ci, c := range v.Channels {
		fmt.Fprintf(w, "  subgraph c%d[\"%s\"]\n", ci, mermaidText(channelTitle(c)))
		for ni, n := range c.Nodes {
			id := fmt.Sprintf("c%dn%d", ci, ni)
			label := []string{mermaidText(n.Name)}
			if n.Version != "" {
				label = append(label, mermaidText(n.Version))
			}
			if marks := nodeMarks(n); len(marks) > 0 {
				label = append(label, mermaidText(strings.Join(marks, ", ")))
			}
			if l := skipRangeLabel(v, c, ni); l != "" {
				label = append(label, mermaidText(l))
			}
			fmt.Fprintf(w, "    %s[\"%s\"]\n", id, strings.Join(label, "<br/>"))
			if n.Head {
				classes["head"] = append(classes["head"], id)
			}
			if n.Deprecated {
				classes["deprecated"] = append(classes["deprecated"], id)
			}
			if n.Missing || n.NoBundle {
				classes["missing"] = append(classes["missing"], id)
			}
		}
		fmt.Fprintln(w, "  end")
		eachDrawnEdge(c, v.SkipRangeLabels, func(e edgeView) {
			from, to := fmt.Sprintf("c%dn%d", ci, e.From), fmt.Sprintf("c%dn%d", ci, e.To)
			switch e.Kind {
			case edgeReplaces:
				fmt.Fprintf(w, "  %s --> %s\n", from, to)
			case edgeSkips:
				fmt.Fprintf(w, "  %s -.-> %s\n", from, to)
				dashed = append(dashed, fmt.Sprint(link))
			case edgeSkipRange:
				fmt.Fprintf(w, "  %s -.->|\"%s\"| %s\n", from, mermaidText(e.Range), to)
				dotted = append(dotted, fmt.Sprint(link))
			}
			link++
		})
		link = writeMermaidPath(w, v, ci, c, link)
	}
	fmt.Fprintln(w, "  classDef head stroke-width:3px")
	fmt.Fprintln(w, "  classDef deprecated fill:#eeeeee,color:#777777")
	fmt.Fprintln(w, "  classDef missing stroke-dasharray:3 3,color:#777777")
	for _, name := range []string{"head", "deprecated", "missing"} {
		if ids := classes[name]; len(ids) > 0 {
			fmt.Fprintf(w, "  class %s %s\n", strings.Join(ids, ","), name)
		}
	}
	if len(dashed) > 0 {
		fmt.Fprintf(w, "  linkStyle %s stroke-dasharray:8 4\n", strings.Join(dashed, ","))
	}
	if len(dotted) > 0 {
		fmt.Fprintf(w, "  linkStyle %s stroke-dasharray:2 3\n", strings.Join(dotted, ","))
	}
}

var dotEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

// dotText quotes s as a Graphviz string.
func dotText(s string) string { return `"` + dotEscaper.Replace(s) + `"` }

// writeDot writes a Graphviz digraph with one cluster per channel.
func writeDot(w io.Writer, v *graphView) {
	title := "package " + v.Package
	if v.Deprecated {
		title += " (deprecated)"
	}
	fmt.Fprintf(w, "digraph %s {\n", dotText(v.Package))
	fmt.Fprintln(w, "  // edges: solid = replaces, dashed = skips, dotted = skipRange")
	if note := skipRangeNote(v); note != "" {
		fmt.Fprintf(w, "  // %s\n", note)
	}
	fmt.Fprintf(w, "  label=%s;\n  labelloc=t;\n  rankdir=LR;\n  node [shape=box];\n", dotText(title))
	for ci, c := range v.Channels {
		fmt.Fprintf(w, "  subgraph \"cluster_%d\" {\n    label=%s;\n", ci, dotText(channelTitle(c)))
		for ni, n := range c.Nodes {
			label := n.Name
			if n.Version != "" {
				label += "\n" + n.Version
			}
			if marks := nodeMarks(n); len(marks) > 0 {
				label += "\n" + strings.Join(marks, ", ")
			}
			if l := skipRangeLabel(v, c, ni); l != "" {
				label += "\n" + l
			}
			attrs := []string{"label=" + dotText(label)}
			if n.Head {
				attrs = append(attrs, "penwidth=3")
			}
			var style []string
			if n.Missing || n.NoBundle {
				style = append(style, "dashed")
				attrs = append(attrs, `fontcolor="gray40"`)
			}
			if n.Deprecated {
				style = append(style, "filled")
				attrs = append(attrs, `fillcolor="gray90"`)
			}
			if len(style) > 0 {
				attrs = append(attrs, "style="+dotText(strings.Join(style, ",")))
			}
			fmt.Fprintf(w, "    \"c%dn%d\" [%s];\n", ci, ni, strings.Join(attrs, ", "))
		}
		fmt.Fprintln(w, "  }")
		eachDrawnEdge(c, v.SkipRangeLabels, func(e edgeView) {
			var attrs []string
			switch e.Kind {
			case edgeSkips:
				attrs = []string{"style=dashed"}
			case edgeSkipRange:
				attrs = []string{"style=dotted", "label=" + dotText(e.Range)}
			}
			a := ""
			if len(attrs) > 0 {
				a = " [" + strings.Join(attrs, ", ") + "]"
			}
			fmt.Fprintf(w, "  \"c%dn%d\" -> \"c%dn%d\"%s;\n", ci, e.From, ci, e.To, a)
		})
		writeDotPath(w, v, ci, c)
	}
	fmt.Fprintln(w, "}")
}

// defaultCatalogName is the name of the catalog at path, given without
// one: an image's BaseName, else sextant.PathCatalogName.
func defaultCatalogName(path string) string {
	if ref, isImage, _ := imageReference(path); isImage {
		return ref.BaseName()
	}
	return sextant.PathCatalogName(path)
}
