package check

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/blang/semver/v4"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/words"
)

// PathStats is the distribution of upgrade path lengths of one package: for
// every entry of every channel other than the channel's head, the number of
// hops of its shortest upgrade path to the head (counted once per channel
// the entry is in), or stranded when there is none.
type PathStats struct {
	Catalog string `json:"catalog"`
	Package string `json:"package"`
	// Entries is the number of entries counted: every entry of every
	// channel with a head, except the head itself.
	Entries int `json:"entries"`
	// Stranded is the number of those entries with no path to the head.
	Stranded int `json:"stranded"`
	// Lengths holds one element per path length that occurs, by increasing
	// hops; their counts and Stranded add up to Entries.
	Lengths []LengthCount `json:"lengths,omitempty"`
}

// LengthCount is the number of entries whose shortest upgrade path to their
// channel head has Hops hops.
type LengthCount struct {
	Hops  int `json:"hops"`
	Count int `json:"count"`
}

// MaxHops returns the longest shortest path, or 0 when there is none.
func (p PathStats) MaxHops() int {
	if len(p.Lengths) == 0 {
		return 0
	}
	return p.Lengths[len(p.Lengths)-1].Hops
}

// bundleVersion returns the version of the bundle of p named name, and
// whether that bundle exists and has a valid version (graph's answer).
func bundleVersion(p *graph.Package, name string) (semver.Version, bool) {
	if b := p.Bundle(name); b != nil {
		return b.ValidVersion()
	}
	return semver.Version{}, false
}

// channelHead returns the head a channel's entries must reach: its single
// head, or with several heads the first of them in the channel's order (the
// one a new subscription gets). ok is false when the channel has no head.
func channelHead(c *graph.Channel) (string, bool) {
	heads := c.Heads()
	switch len(heads) {
	case 0:
		return "", false
	case 1:
		return heads[0], true
	}
	for _, name := range c.Order() {
		if _, found := slices.BinarySearch(heads, name); found {
			return name, true
		}
	}
	return heads[0], true
}

// reachability checks that every entry of every channel of p reaches its
// channel head and measures the path lengths.
func reachability(catalog string, p *graph.Package) ([]Finding, *PathStats) {
	ps := &PathStats{Package: p.Name}
	hist := map[int]int{}
	var fs []Finding
	for _, c := range p.Channels {
		head, ok := channelHead(c)
		if !ok {
			continue // no head: a cycle, reported by the structural checks
		}
		dist := c.DistancesTo(head)
		heads := c.Heads()
		for i, name := range c.Order() {
			if name == head {
				continue
			}
			ps.Entries++
			if dist[i] > 0 {
				hist[dist[i]]++
				continue
			}
			ps.Stranded++
			msg, brief := strandedMessage(p, c, name, head, heads)
			fs = append(fs, Finding{
				Severity: graph.SeverityWarning,
				Code:     CodeNoUpgradePath,
				Catalog:  catalog,
				Package:  p.Name,
				Channel:  c.Name,
				Bundle:   name,
				Message:  msg,
				Brief:    brief,
				Pos:      c.EntryPos(name),
			})
		}
	}
	for h, n := range hist {
		ps.Lengths = append(ps.Lengths, LengthCount{Hops: h, Count: n})
	}
	slices.SortFunc(ps.Lengths, func(a, b LengthCount) int { return a.Hops - b.Hops })
	return fs, ps
}

// strandedMessage says why entry name of p's channel c cannot reach head:
// what it can reach instead; and the same in brief.
func strandedMessage(p *graph.Package, c *graph.Channel, name, head string, heads []string) (msg, brief string) {
	var b strings.Builder
	fmt.Fprintf(&b, "%q cannot upgrade to the channel head %q", name, head)
	if len(heads) > 1 {
		fmt.Fprintf(&b, " (the channel has %d heads)", len(heads))
	}
	r := c.Reachable(name)
	ends := deadEnds(c, r)
	msg = b.String() + ": " + deadEnd(r, ends)
	brief = "no path to head " + versionName(p, head)
	switch {
	case len(r) == 0:
		return msg, brief + ": no upgrade from it"
	case len(ends) == 0:
		return msg, brief + ": upgrades go round in a cycle"
	}
	return msg, brief + ": upgrades end at " + versionList(p, ends, 2)
}

// deadEnds returns the entries of reached (entries of c) that have no
// successor, sorted: where the upgrades through them end.
func deadEnds(c *graph.Channel, reached []string) []string {
	var ends []string
	for _, n := range reached {
		if len(c.EntrySuccessors(n)) == 0 {
			ends = append(ends, n)
		}
	}
	slices.Sort(ends)
	return ends
}

// versionName names bundle name of p in a brief: by its version when it
// has one (the line names the package), else by its name, quoted.
func versionName(p *graph.Package, name string) string {
	if b := p.Bundle(name); b != nil && b.VersionText != "" {
		return b.VersionText
	}
	return fmt.Sprintf("%q", name)
}

// versionList names the first n bundles of p as versionName does and says
// how many more there are.
func versionList(p *graph.Package, names []string, n int) string {
	vs := make([]string, len(names))
	for i, name := range names {
		vs[i] = versionName(p, name)
	}
	return words.First(vs, n)
}

// plural returns "1 thing" or "n things".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// quoteList quotes the first n names and says how many more there are.
func quoteList(names []string, n int) string {
	q := make([]string, len(names))
	for i, s := range names {
		q[i] = fmt.Sprintf("%q", s)
	}
	return words.First(q, n)
}

// listFirst joins the first items of a list of n with commas and says how
// many more there are, as listN does.
func listFirst(first []string, n int) string {
	if n > len(first) {
		return strings.Join(first, ", ") + fmt.Sprintf(" and %d more", n-len(first))
	}
	return strings.Join(first, ", ")
}

func bundlePos(p *graph.Package, name string) graph.Position {
	if b := p.Bundle(name); b != nil {
		return b.Pos
	}
	return graph.Position{}
}

// direction checks the edges of every channel of p: edges to a lower
// version, skipRanges that match nothing, and replaces/skips naming a
// bundle of another package. The declared edges are read one by one
// (graph's DeclaredEdges), the skipRanges by version order (VersionRuns).
func direction(catalog string, cat *graph.Catalog, p *graph.Package) []Finding {
	var fs []Finding
	add := func(sev graph.Severity, code string, c *graph.Channel, bundle, msg, brief string) {
		fs = append(fs, Finding{
			Severity: sev, Code: code, Catalog: catalog,
			Package: p.Name, Channel: c.Name, Bundle: bundle,
			Message: msg, Brief: brief, Pos: c.EntryPos(bundle),
		})
	}
	for _, c := range p.Channels {
		for ed := range c.DeclaredEdges() {
			if p.Bundle(ed.From) == nil {
				if others := otherPackages(cat, p.Name, ed.From); len(others) > 0 {
					add(graph.SeverityWarning, CodeCrossPackageEdge, c, ed.To,
						fmt.Sprintf("%q %s %q, which is not a bundle of package %q but of %s", ed.To, ed.Kind, ed.From, p.Name, quoteList(others, 3)),
						fmt.Sprintf("%s %q, a bundle of %s %s", ed.Kind, ed.From, verb(len(others), "package", "packages"), quoteList(others, 2)))
				}
				continue
			}
			ve, eok := bundleVersion(p, ed.To)
			vf, fok := bundleVersion(p, ed.From)
			if eok && fok && ve.LT(vf) {
				add(graph.SeverityWarning, CodeDowngradeEdge, c, ed.To,
					fmt.Sprintf("%q (%s) %s %q (%s): the upgrade goes to a lower version", ed.To, ve, ed.Kind, ed.From, vf),
					fmt.Sprintf("%s higher %s", ed.Kind, vf))
			}
		}
		var order []string // c.VersionOrder(), when a skipRange needs it
		for _, name := range c.Order() {
			e, _ := c.Entry(name)
			if !e.SkipRange.Valid() {
				continue
			}
			if order == nil {
				order = c.VersionOrder()
			}
			runs := c.VersionRuns(e.SkipRange)
			n := 0
			for _, rn := range runs {
				n += rn[1] - rn[0]
			}
			if self := c.VersionPosition(name); self >= 0 && slices.ContainsFunc(runs, func(rn [2]int) bool { return rn[0] <= self && self < rn[1] }) {
				n--
			}
			if n == 0 {
				add(graph.SeverityInfo, CodeSkipRangeMatchesNothing, c, name,
					fmt.Sprintf("skipRange %q of %q contains the version of no other entry of the channel", e.SkipRange.String(), name),
					fmt.Sprintf("skipRange %q matches no other entry", e.SkipRange.String()))
				continue
			}
			if ve, ok := bundleVersion(p, name); ok {
				if higher, first := higherInRuns(p, order, runs, ve); higher > 0 {
					// One finding per skipRange: open-ended ranges such as
					// ">=0.0.1" contain every later version.
					desc, vs := make([]string, len(first)), make([]string, len(first))
					for k, o := range first {
						vo, _ := bundleVersion(p, o)
						desc[k], vs[k] = fmt.Sprintf("%q (%s)", o, vo), vo.String()
					}
					add(graph.SeverityWarning, CodeDowngradeEdge, c, name,
						fmt.Sprintf("skipRange %q of %q (%s) contains %s: %s to a lower version", e.SkipRange.String(), name, ve,
							listFirst(desc, higher), plural(higher, "upgrade goes", "upgrades go")),
						fmt.Sprintf("skipRange %q covers higher %s", e.SkipRange.String(), listFirst(vs[:1], higher)))
				}
			}
		}
	}
	return fs
}

// higherInRuns counts the entries of order (a channel's VersionOrder) in
// runs whose version is above v, and returns the first three of them by
// ascending version, then name.
func higherInRuns(p *graph.Package, order []string, runs [][2]int, v semver.Version) (int, []string) {
	above, _ := slices.BinarySearchFunc(order, v, func(name string, v semver.Version) int {
		w, _ := bundleVersion(p, name)
		return cmp.Or(w.Compare(v), -1) // the first version above v
	})
	n := 0
	var first []string // the first three and those of the same version
	for _, rn := range runs {
		lo := max(rn[0], above)
		if lo >= rn[1] {
			continue
		}
		n += rn[1] - lo
		for k := lo; k < rn[1]; k++ {
			if len(first) >= 3 {
				w, _ := bundleVersion(p, order[k])
				if l, _ := bundleVersion(p, first[len(first)-1]); !w.EQ(l) {
					break
				}
			}
			first = append(first, order[k])
		}
	}
	slices.SortFunc(first, func(a, b string) int {
		va, _ := bundleVersion(p, a)
		vb, _ := bundleVersion(p, b)
		return cmp.Or(va.Compare(vb), strings.Compare(a, b))
	})
	return n, first[:min(len(first), 3)]
}

// otherPackages returns the packages other than pkg with a bundle named
// name, sorted.
func otherPackages(cat *graph.Catalog, pkg, name string) []string {
	var out []string
	for _, b := range cat.BundlesNamed(name) {
		if b.Package != pkg {
			out = append(out, b.Package)
		}
	}
	return out
}
