package check

import (
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

// edgeSet is every upgrade edge of a package, each (From, To) once, in the
// order the channels first list them, with what the channels say about it.
// The per-edge checks of one package share it.
type edgeSet struct {
	keys  []edgeKey
	infos map[edgeKey]*edgeInfo
}

// packageEdges returns every upgrade edge of p's channels (graph's
// Channel.Edges), each (From, To) once whatever the channels and kinds
// that make it, in the order the channels first list them.
func packageEdges(p *graph.Package) *edgeSet {
	var keys []edgeKey
	infos := map[edgeKey]*edgeInfo{}
	var slab []edgeInfo // edgeInfos allocated in chunks; never moved
	for _, c := range p.Channels {
		for ed := range c.Edges() {
			k := edgeKey{ed.From, ed.To}
			in := infos[k]
			if in == nil {
				if len(slab) == cap(slab) {
					slab = make([]edgeInfo, 0, min(max(2*cap(slab), 16), 1024))
				}
				slab = slab[:len(slab)+1]
				in = &slab[len(slab)-1]
				in.channels, in.kinds = in.chanBuf[:0], in.kindBuf[:0]
				infos[k] = in
				keys = append(keys, k)
			}
			if !slices.Contains(in.channels, c.Name) {
				in.channels = append(in.channels, c.Name)
			}
			if !slices.Contains(in.kinds, ed.Kind) {
				in.kinds = append(in.kinds, ed.Kind)
			}
		}
	}
	for _, in := range infos {
		slices.Sort(in.kinds)
	}
	return &edgeSet{keys, infos}
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
	keys, infos := es.keys, es.infos
	var fs []Finding
	var ranged rangedEdges
	for _, k := range keys {
		from, to := p.Bundle(k.From), p.Bundle(k.To)
		if from == nil || to == nil || len(droppedAPIs(from, to)) == 0 {
			continue
		}
		in := infos[k]
		if in.kinds[0] == graph.EdgeSkipRange {
			ranged.add(from, to, in.channels)
			continue
		}
		fs = append(fs, Finding{
			Severity: graph.SeverityWarning,
			Code:     CodeAPIDroppedOnUpgrade,
			Catalog:  catalog,
			Package:  p.Name,
			Channel:  in.channels[0],
			Bundle:   to.Name,
			Message: fmt.Sprintf("the upgrade from %q (%s) to %q (%s) by %s%s drops %s",
				from.Name, from.VersionText, to.Name, to.VersionText, kindNames(in.kinds), inChannels(in.channels), droppedText(from, to)),
			Pos: to.Pos,
		})
	}
	ranged.each(p, func(to *graph.Bundle, e graph.Entry, channels []string, sources []*graph.Bundle) {
		parts := make([]string, len(sources))
		for i, from := range sources {
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
				plural(len(sources), "upgrade that drops", "upgrades that drop"), joinN(parts, "; ", 3)),
			Pos: to.Pos,
		})
	})
	return fs
}

// rangedEdges gathers the upgrade edges that only a target's skipRange
// makes, by target, so that each target gets one finding listing its
// sources: a skipRange such as "<1.10.0" lets every older version upgrade at
// once. The zero value is empty.
type rangedEdges struct {
	byTarget map[string]*rangedTarget
	targets  []string // in the order first added
}

// rangedTarget is one target's skipRange sources and their channels.
type rangedTarget struct {
	channels []string
	from     []*graph.Bundle
}

// add records the edge from → to, in channels.
func (re *rangedEdges) add(from, to *graph.Bundle, channels []string) {
	if re.byTarget == nil {
		re.byTarget = map[string]*rangedTarget{}
	}
	r := re.byTarget[to.Name]
	if r == nil {
		r = &rangedTarget{}
		re.byTarget[to.Name] = r
		re.targets = append(re.targets, to.Name)
	}
	r.from = append(r.from, from)
	for _, c := range channels {
		if !slices.Contains(r.channels, c) {
			r.channels = append(r.channels, c)
		}
	}
}

// each calls f for every target in the order first added, with the target
// bundle, its entry in its first channel (by name), that channel first of
// the sorted channels, and the sources by descending version.
func (re *rangedEdges) each(p *graph.Package, f func(to *graph.Bundle, e graph.Entry, channels []string, from []*graph.Bundle)) {
	for _, name := range re.targets {
		r := re.byTarget[name]
		slices.Sort(r.channels)
		e, _ := p.Channel(r.channels[0]).Entry(name)
		slices.SortFunc(r.from, func(a, b *graph.Bundle) int { return b.Version.Compare(a.Version) })
		f(p.Bundle(name), e, r.channels, r.from)
	}
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

// joinN joins the first n items with sep and says how many more there are.
func joinN(items []string, sep string, n int) string {
	if len(items) > n {
		return strings.Join(items[:n], sep) + fmt.Sprintf("%sand %d more", sep, len(items)-n)
	}
	return strings.Join(items, sep)
}
