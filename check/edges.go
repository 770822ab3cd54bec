package check

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/graph"
)

// CodeAPIDroppedOnUpgrade (warning): an upgrade edge — replaces, skips or
// a skipRange match — whose target bundle no longer provides an API
// (olm.gvk) its source provides. A cluster that upgrades along it keeps
// custom resources nothing serves any more; when only the version of a kind
// goes away, OLM refuses the install when objects are stored at that
// version ("risk of data loss"). One finding per edge of a package, naming
// the dropped APIs.
const CodeAPIDroppedOnUpgrade = "api-dropped-on-upgrade"

// edgeKey is one upgrade edge of a package, whatever the channels that
// carry it: a cluster running From may be upgraded to To.
type edgeKey struct {
	From, To string
}

// edgeInfo gathers what the channels of a package say about one edge.
// Its slices start in the struct's own buffers (most edges are in one or
// two channels), so an edgeInfo must not be copied: use it by pointer.
type edgeInfo struct {
	channels []string         // sorted, as p.Channels
	kinds    []graph.EdgeKind // replaces, skips, skipRange, in that order, without repeats
	chanBuf  [2]string
	kindBuf  [3]graph.EdgeKind
}

// edgeSet is the declared upgrade edges of a package (replaces and
// skips), each (From, To) once, in the order the channels first list them,
// with what the channels say about it — the skipRange kind and channels too
// when a skipRange makes the same edge. The edges that only skipRanges make
// are not listed one by one: ranged reads them by version order. The
// per-edge checks of one package share it.
type edgeSet struct {
	p        *graph.Package
	keys     []edgeKey
	infos    map[edgeKey]*edgeInfo
	declared map[edgeKey]bool // every declared (From, To)

	rangedOnce bool
	skipRanged []rangedChannel // see rangedChannels
}

// rangedChannel is a channel with skipRanges: its sources grouped, and its
// entries with a valid skipRange and a bundle, with the runs of the
// channel's version order their skipRange contains.
type rangedChannel struct {
	c       *graph.Channel
	groups  *sourceGroups
	targets []rangedTarget
}

type rangedTarget struct {
	to   *graph.Bundle
	runs [][2]int
}

// rangedChannels returns the channels of the package that have a valid
// skipRange, computed once for the checks that share the edge set.
func (es *edgeSet) rangedChannels() []rangedChannel {
	if es.rangedOnce {
		return es.skipRanged
	}
	es.rangedOnce = true
	p := es.p
	for _, c := range p.Channels {
		var rc *rangedChannel
		for _, name := range c.Order() {
			e, _ := c.Entry(name)
			to := p.Bundle(name)
			if !e.SkipRange.Valid() || to == nil {
				continue
			}
			if rc == nil {
				es.skipRanged = append(es.skipRanged, rangedChannel{c: c, groups: newSourceGroups(p, c)})
				rc = &es.skipRanged[len(es.skipRanged)-1]
			}
			rc.targets = append(rc.targets, rangedTarget{to, c.VersionRuns(e.SkipRange)})
		}
	}
	return es.skipRanged
}

// packageEdges returns the edge set of p's channels (graph's
// Channel.DeclaredEdges, and VersionRuns for the skipRanges).
func packageEdges(p *graph.Package) *edgeSet {
	es := &edgeSet{p: p, infos: map[edgeKey]*edgeInfo{}, declared: map[edgeKey]bool{}}
	var slab []edgeInfo // edgeInfos allocated in chunks; never moved
	add := func(k edgeKey, channel string, kind graph.EdgeKind) {
		in := es.infos[k]
		if in == nil {
			if len(slab) == cap(slab) {
				slab = make([]edgeInfo, 0, min(max(2*cap(slab), 16), 1024))
			}
			slab = slab[:len(slab)+1]
			in = &slab[len(slab)-1]
			in.channels, in.kinds = in.chanBuf[:0], in.kindBuf[:0]
			es.infos[k] = in
			es.keys = append(es.keys, k)
		}
		if !slices.Contains(in.channels, channel) {
			in.channels = append(in.channels, channel)
		}
		if !slices.Contains(in.kinds, kind) {
			in.kinds = append(in.kinds, kind)
		}
	}
	for _, c := range p.Channels {
		for ed := range c.DeclaredEdges() {
			k := edgeKey{ed.From, ed.To}
			es.declared[k] = true
			add(k, c.Name, ed.Kind)
		}
	}
	// A declared edge that a skipRange makes too, in any channel of its
	// target.
	for _, k := range es.keys {
		from, to := p.Bundle(k.From), p.Bundle(k.To)
		if from == nil || to == nil || k.From == k.To {
			continue
		}
		for _, name := range to.Channels {
			c := p.Channel(name)
			if e, ok := c.Entry(k.To); ok && e.SkipRange.Contains(from.Version) && c.VersionPosition(k.From) >= 0 {
				add(k, name, graph.EdgeSkipRange)
			}
		}
	}
	for _, in := range es.infos {
		slices.Sort(in.kinds)
		slices.Sort(in.channels)
	}
	return es
}

// ranged calls f for every target of edges that only skipRanges make
// (no channel declares them by replaces or skips) and that match, once per
// target: the target bundle, its entry in the first of the channels, the
// sorted channels of the matching edges and their sources by descending
// version (then name). match must depend on the source through its
// provided APIs and olm.csv.metadata only: the sources a skipRange contains
// are grouped by those, match is asked once per group, and only the
// sources of the groups that match are listed. A skipRange over n entries
// thus costs a few binary searches per group, not n edges.
func (es *edgeSet) ranged(match func(from, to *graph.Bundle) bool, f func(to *graph.Bundle, e graph.Entry, channels []string, from []*graph.Bundle)) {
	p := es.p
	type target struct {
		channels []string
		from     []*graph.Bundle
	}
	byTarget := map[string]*target{}
	var targets []string
	for _, rc := range es.rangedChannels() {
		for _, rt := range rc.targets {
			to, runs := rt.to, rt.runs
			for _, g := range rc.groups.groups {
				if !g.in(runs) || !match(g.rep, to) {
					continue
				}
				for _, rn := range runs {
					lo, _ := slices.BinarySearch(g.pos, rn[0])
					for _, k := range g.pos[lo:] {
						if k >= rn[1] {
							break
						}
						from := rc.groups.bundles[k]
						if from == to || es.declared[edgeKey{from.Name, to.Name}] {
							continue
						}
						t := byTarget[to.Name]
						if t == nil {
							t = &target{}
							byTarget[to.Name] = t
							targets = append(targets, to.Name)
						}
						t.from = append(t.from, from)
						if !slices.Contains(t.channels, rc.c.Name) {
							t.channels = append(t.channels, rc.c.Name)
						}
					}
				}
			}
		}
	}
	slices.Sort(targets)
	for _, name := range targets {
		t := byTarget[name]
		slices.Sort(t.channels)
		e, _ := p.Channel(t.channels[0]).Entry(name)
		slices.SortFunc(t.from, func(a, b *graph.Bundle) int {
			return cmp.Or(b.Version.Compare(a.Version), strings.Compare(a.Name, b.Name))
		})
		t.from = slices.CompactFunc(t.from, func(a, b *graph.Bundle) bool { return a == b })
		f(p.Bundle(name), e, t.channels, t.from)
	}
}

// sourceGroups groups the entries of a channel's version order by what the
// edge checks read of a source bundle: its provided APIs and its
// olm.csv.metadata.
type sourceGroups struct {
	bundles []*graph.Bundle // per position of the channel's VersionOrder
	groups  []*sourceGroup  // in order of first position
}

// sourceGroup is the positions of one group, ascending, and one of its
// bundles.
type sourceGroup struct {
	rep *graph.Bundle
	pos []int
}

// in reports whether a position of g falls in one of runs.
func (g *sourceGroup) in(runs [][2]int) bool {
	for _, rn := range runs {
		if k, _ := slices.BinarySearch(g.pos, rn[0]); k < len(g.pos) && g.pos[k] < rn[1] {
			return true
		}
	}
	return false
}

func newSourceGroups(p *graph.Package, c *graph.Channel) *sourceGroups {
	order := c.VersionOrder()
	sg := &sourceGroups{bundles: make([]*graph.Bundle, len(order))}
	byKey := map[string]*sourceGroup{}
	var key strings.Builder
	for k, name := range order {
		b := p.Bundle(name)
		sg.bundles[k] = b
		key.Reset()
		for _, g := range b.Provides {
			key.WriteString(g.Group)
			key.WriteByte(0)
			key.WriteString(g.Version)
			key.WriteByte(0)
			key.WriteString(g.Kind)
			key.WriteByte(0)
		}
		if m := b.CSVMetadata; m != nil {
			key.WriteByte(1)
			key.WriteString(m.MinKubeVersion)
			for _, mode := range m.Modes().Supported() {
				key.WriteByte(1)
				key.WriteString(string(mode))
			}
		}
		g := byKey[key.String()]
		if g == nil {
			g = &sourceGroup{rep: b}
			byKey[key.String()] = g
			sg.groups = append(sg.groups, g)
		}
		g.pos = append(g.pos, k)
	}
	return sg
}

// kindNames returns "replaces and skipRange" for the kinds.
func kindNames(kinds []graph.EdgeKind) string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.String()
	}
	return strings.Join(names, " and ")
}

// droppedAPIs returns the APIs from provides that to does not, in from's
// property order.
func droppedAPIs(from, to *graph.Bundle) []graph.GVK {
	var out []graph.GVK
	for _, g := range from.Provides {
		if !slices.Contains(to.Provides, g) && !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	return out
}

// apiDrops reports the upgrade edges of p whose target provides fewer APIs
// than their source. An edge made by replaces or skips gets a finding of
// its own (one per edge of the package, on the first channel that has it,
// naming every channel); the edges that only a target's skipRange makes get
// one finding per target, listing its sources, as a skipRange such as
// "<1.10.0" lets every older version upgrade at once. Each names the
// dropped APIs; a dropped API whose group and kind the target still
// provides at another version is marked: that is the CRD version removal
// OLM refuses at install time when objects are stored at the removed
// version.
func apiDrops(catalog string, p *graph.Package, es *edgeSet) []Finding {
	var fs []Finding
	for _, k := range es.keys {
		from, to := p.Bundle(k.From), p.Bundle(k.To)
		if from == nil || to == nil || len(droppedAPIs(from, to)) == 0 {
			continue
		}
		in := es.infos[k]
		fs = append(fs, Finding{
			Severity: graph.SeverityWarning,
			Code:     CodeAPIDroppedOnUpgrade,
			Catalog:  catalog,
			Package:  p.Name,
			Channel:  in.channels[0],
			Bundle:   to.Name,
			Message: fmt.Sprintf("the upgrade from %q (%s) to %q (%s) by %s%s drops %s",
				from.Name, from.VersionText, to.Name, to.VersionText, kindNames(in.kinds), inChannels(in.channels), droppedText(from, to)),
			Brief: fmt.Sprintf("from %s drops %s", from.VersionText, droppedBrief(from, to)),
			Pos:   to.Pos,
		})
	}
	drops := func(from, to *graph.Bundle) bool { return len(droppedAPIs(from, to)) > 0 }
	es.ranged(drops, func(to *graph.Bundle, e graph.Entry, channels []string, sources []*graph.Bundle) {
		parts := make([]string, min(len(sources), 3))
		for i, from := range sources[:len(parts)] {
			parts[i] = fmt.Sprintf("from %q (%s), %s", from.Name, from.VersionText, droppedText(from, to))
		}
		fs = append(fs, Finding{
			Severity: graph.SeverityWarning,
			Code:     CodeAPIDroppedOnUpgrade,
			Catalog:  catalog,
			Package:  p.Name,
			Channel:  channels[0],
			Bundle:   to.Name,
			Message: fmt.Sprintf("skipRange %q of %q (%s)%s makes %s APIs: %s",
				e.SkipRange.String(), to.Name, to.VersionText, inChannels(channels),
				plural(len(sources), "upgrade that drops", "upgrades that drop"), joinFirst(parts, len(sources), "; ")),
			Brief: rangedBrief(sources, "drops "+droppedBrief(sources[0], to), sameProvides),
			Pos:   to.Pos,
		})
	})
	return fs
}

// inChannels returns " (channel C)" or " (channels A, B)".
func inChannels(channels []string) string {
	if len(channels) == 1 {
		return " (channel " + channels[0] + ")"
	}
	return " (channels " + strings.Join(channels, ", ") + ")"
}

// droppedText names the APIs from provides that to does not: "1 API:
// g/v1 A (A still served at v2)".
func droppedText(from, to *graph.Bundle) string {
	dropped := droppedAPIs(from, to)
	var b strings.Builder
	fmt.Fprintf(&b, "%s:", plural(len(dropped), "API", "APIs"))
	for i, g := range dropped {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, " %s", g)
		var still []string
		for _, h := range to.Provides {
			if h.Group == g.Group && h.Kind == g.Kind && !slices.Contains(still, h.Version) {
				still = append(still, h.Version)
			}
		}
		if len(still) > 0 {
			fmt.Fprintf(&b, " (%s still served at %s)", g.Kind, strings.Join(still, ", "))
		}
	}
	return b.String()
}

// sameProvides reports whether a and b provide the same APIs: an upgrade
// to one bundle from either drops the same.
func sameProvides(a, b *graph.Bundle) bool { return slices.Equal(a.Provides, b.Provides) }

// droppedBrief names in brief the APIs from provides that to does not:
// the first by kind and version, "A v1alpha1", "A v1alpha1 and 2 more
// APIs".
func droppedBrief(from, to *graph.Bundle) string {
	dropped := droppedAPIs(from, to)
	s := dropped[0].Kind + " " + dropped[0].Version
	if len(dropped) > 1 {
		s += " and " + plural(len(dropped)-1, "more API", "more APIs")
	}
	return s
}

// rangedBrief says in brief what the edges a skipRange makes do, from
// sources (by descending version) to one target: "by skipRange from 1.2.0
// drops A v1", and with several sources "by skipRange from 1.2.0 and 2
// more drops A v1" when all of them do (same tells whether the upgrade
// from a source does what the first's does), else "3 upgrades by
// skipRange; from 1.2.0 drops A v1".
func rangedBrief(sources []*graph.Bundle, does string, same func(a, b *graph.Bundle) bool) string {
	first := sources[0]
	if !slices.ContainsFunc(sources[1:], func(b *graph.Bundle) bool { return !same(first, b) }) {
		return withMore("by skipRange from "+first.VersionText, len(sources)-1) + " " + does
	}
	return fmt.Sprintf("%d upgrades by skipRange; from %s %s", len(sources), first.VersionText, does)
}

// withMore appends " and N more" to s when more > 0.
func withMore(s string, more int) string {
	if more > 0 {
		return fmt.Sprintf("%s and %d more", s, more)
	}
	return s
}

// joinFirst joins the first items of a list of n with sep and says how
// many more there are.
func joinFirst(first []string, n int, sep string) string {
	if n > len(first) {
		return strings.Join(first, sep) + fmt.Sprintf("%sand %d more", sep, n-len(first))
	}
	return strings.Join(first, sep)
}
