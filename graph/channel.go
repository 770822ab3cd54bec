package graph

import (
	"iter"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/blang/semver/v4"
)

// chanGraph is a channel's upgrade graph, computed once by Build.
//
// Names are numbered: the channel's entries first (id = index in Entries),
// then the names that replaces or skips mention but no entry carries. A
// duplicate entry (a second entry with a name already seen) is ignored by
// every graph operation; Validate reports it.
type chanGraph struct {
	ids      nameIDs // name → id
	dup      []bool  // per entry: a duplicate of an earlier entry; nil when none
	bundle   []int32 // per entry: index in the package's Bundles, or -1
	vers     []*semver.Version
	inStart  []int32 // per id, CSR offsets into in (len ids+1)
	in       []int32 // entries that replace or skip the id, by order position
	skipped  []bool  // per id: some entry lists it in skips
	ranged   []int32 // entries with a valid skipRange, by order position
	heads    []string
	chain    []string
	order    []string
	orderPos []int32 // per entry: index in order, -1 for duplicates
	entries  *entryGraph
}

// entryGraph holds the successors of every entry at its own bundle's
// version — the edges Reachable and ShortestPath follow. It costs a
// skipRange test per entry and ranged entry, so it is computed on first use,
// once, whatever the number of concurrent callers.
type entryGraph struct {
	once  sync.Once
	start []int32 // per entry: offset of its successors in succ (len n+1)
	succ  []int32 // successors, each entry's by order position

	vonce  sync.Once
	vorder versionOrder // see versions
}

// arena hands out the small slices of many channel graphs from shared
// chunks, so that Build allocates per catalog rather than per channel.
// Scratch slices are reused from one channel to the next.
type arena struct {
	i32  []int32
	str  []string
	flag []bool
	vers []*semver.Version

	scratch    []int32
	scratch2   []int32
	scratchStr []string
	scratchOn  []bool
	lazies     []entryGraph
}

const arenaChunk = 1 << 12

// newArena returns an arena sized for channels with entries and edges in
// all: what the channel graphs need at most.
func newArena(channels, entries, edges int) arena {
	return arena{
		i32:    make([]int32, 0, 4*entries+2*edges+channels),
		str:    make([]string, 0, 2*entries),
		flag:   make([]bool, 0, 2*entries+edges),
		vers:   make([]*semver.Version, 0, entries),
		lazies: make([]entryGraph, channels),
	}
}

// entryGraph returns a fresh entryGraph.
func (a *arena) entryGraph() *entryGraph {
	if len(a.lazies) == 0 {
		a.lazies = make([]entryGraph, 64)
	}
	e := &a.lazies[0]
	a.lazies = a.lazies[1:]
	return e
}

func (a *arena) ints(n int) []int32 { return carve(&a.i32, n) }

func (a *arena) strings(n int) []string { return carve(&a.str, n) }

func (a *arena) flags(n int) []bool { return carve(&a.flag, n) }

func (a *arena) versions(n int) []*semver.Version { return carve(&a.vers, n) }

// carve returns the next n elements of *buf, starting a fresh chunk of at
// least arenaChunk elements when *buf has no room for them.
func carve[T any](buf *[]T, n int) []T {
	if len(*buf)+n > cap(*buf) {
		*buf = make([]T, 0, max(n, arenaChunk))
	}
	k := len(*buf)
	*buf = (*buf)[:k+n]
	return (*buf)[k : k+n : k+n]
}

// build computes the channel's graph; p is the channel's package, whose
// Bundles are sorted.
func (c *Channel) build(p *Package, a *arena) {
	g := &c.g
	nEdges := c.numberEntries(p, a)
	counts := c.countIncoming(a, nEdges)
	c.findHeads(counts, a)
	c.orderEntries(a)
	c.linkIncoming(counts, a)
	a.scratch = counts[:0]
	g.entries = a.entryGraph()
}

// numberEntries gives every entry its id (its index), marks the entries
// that repeat an earlier name as duplicates, and looks up each entry's
// bundle and version in p. It returns the number of replaces and skips
// edges the entries list.
func (c *Channel) numberEntries(p *Package, a *arena) (nEdges int) {
	g := &c.g
	n := len(c.Entries)
	for i := range c.Entries {
		e := &c.Entries[i]
		nEdges += len(e.Skips)
		if e.Replaces != "" {
			nEdges++
		}
	}
	g.ids = newNameIDs(n, nEdges)
	g.bundle = a.ints(n)
	g.vers = a.versions(n)
	for i := range c.Entries {
		e := &c.Entries[i]
		if _, ok := g.ids.get(e.Name); ok {
			if g.dup == nil {
				g.dup = a.flags(n)
			}
			g.dup[i] = true
			g.bundle[i] = -1
			continue
		}
		g.ids.set(e.Name, int32(i))
		bi := p.bundleIndex(e.Name)
		g.bundle[i] = int32(bi)
		if bi >= 0 && p.Bundles[bi].versionOK {
			g.vers[i] = &p.Bundles[bi].Version
		}
	}
	return nEdges
}

// countIncoming numbers the names that edges mention but no entry carries
// (after the entries' ids) and returns, per id, how many edges of the
// channel's non-duplicate entries point at it. The counts live in
// a.scratch, grown as needed.
func (c *Channel) countIncoming(a *arena, nEdges int) []int32 {
	g := &c.g
	n := len(c.Entries)
	a.scratch = slices.Grow(a.scratch[:0], n+nEdges)[:n]
	clear(a.scratch)
	counts := a.scratch
	for i := range c.Entries {
		if g.isDup(i) {
			continue
		}
		e := &c.Entries[i]
		if e.Replaces != "" {
			counts[g.numberEdgeTarget(e.Replaces, &counts)]++
		}
		for _, s := range e.Skips {
			counts[g.numberEdgeTarget(s, &counts)]++
		}
	}
	return counts
}

// numberEdgeTarget returns the id of name, giving it the next free id (and
// a zero count) when no entry and no earlier edge named it.
func (g *chanGraph) numberEdgeTarget(name string, counts *[]int32) int32 {
	if k, ok := g.ids.get(name); ok {
		return k
	}
	k := int32(len(*counts))
	g.ids.set(name, k)
	*counts = append(*counts, 0)
	return k
}

// findHeads records the heads: entries with no incoming edge, as opm
// counts them (an entry that replaces or skips itself is not a head),
// sorted by name.
func (c *Channel) findHeads(counts []int32, a *arena) {
	g := &c.g
	heads := a.scratchStr[:0]
	for i := range c.Entries {
		if !g.isDup(i) && counts[i] == 0 {
			heads = append(heads, c.Entries[i].Name)
		}
	}
	a.scratchStr = heads
	if len(heads) > 0 {
		g.heads = a.strings(len(heads))
		copy(g.heads, heads)
		slices.Sort(g.heads)
	}
}

// orderEntries computes the channel's order — the chain first, then the
// other entries by descending version (no version last), then name — and
// each entry's position in it.
func (c *Channel) orderEntries(a *arena) {
	g := &c.g
	n := len(c.Entries)
	nOrder := n
	for i := range c.Entries {
		if g.isDup(i) {
			nOrder--
		}
	}
	g.order = a.strings(nOrder)[:0]
	a.scratchOn = slices.Grow(a.scratchOn[:0], n)[:n]
	onChain := a.scratchOn
	clear(onChain)
	c.followChain(onChain)
	rest := a.scratch2[:0]
	for i := range c.Entries {
		if !g.isDup(i) && !onChain[i] {
			rest = append(rest, int32(i))
		}
	}
	slices.SortFunc(rest, func(x, y int32) int {
		vx, vy := g.vers[x], g.vers[y]
		switch {
		case vx != nil && vy != nil:
			if d := vy.Compare(*vx); d != 0 {
				return d
			}
		case vx != nil:
			return -1
		case vy != nil:
			return 1
		}
		return strings.Compare(c.Entries[x].Name, c.Entries[y].Name)
	})
	for _, i := range rest {
		g.order = append(g.order, c.Entries[i].Name)
	}
	a.scratch2 = rest[:0]
	g.orderPos = a.ints(n)
	for i := range g.orderPos {
		g.orderPos[i] = -1
	}
	for pos, name := range g.order {
		g.orderPos[g.ids.at(name)] = int32(pos)
	}
}

// followChain appends the chain to the (empty) order and marks its entries
// in onChain: from the single head along replaces, to a missing entry or a
// cycle. A channel with no head or several heads has no chain.
func (c *Channel) followChain(onChain []bool) {
	g := &c.g
	if len(g.heads) != 1 {
		return
	}
	n := len(c.Entries)
	k := g.ids.at(g.heads[0])
	for int(k) < n && !onChain[k] {
		onChain[k] = true
		g.order = append(g.order, c.Entries[k].Name)
		r := c.Entries[k].Replaces
		if r == "" {
			break
		}
		k = g.ids.at(r) // every replaces was numbered by countIncoming
	}
	g.chain = g.order[:len(g.order):len(g.order)]
}

// linkIncoming stores the incoming edges in CSR form, each id's list by
// order position, marks the skipped ids, and lists the entries with a valid
// skipRange by order position. It uses counts as cursors, overwriting them.
func (c *Channel) linkIncoming(counts []int32, a *arena) {
	g := &c.g
	ids := len(counts)
	g.inStart = a.ints(ids + 1)
	g.inStart[0] = 0
	for k := 0; k < ids; k++ {
		g.inStart[k+1] = g.inStart[k] + counts[k]
	}
	g.in = a.ints(int(g.inStart[ids]))
	g.skipped = a.flags(ids)
	fill := counts
	copy(fill, g.inStart[:ids])
	nRanged := 0
	for _, name := range g.order {
		j := g.ids.at(name)
		e := &c.Entries[j]
		if e.Replaces != "" {
			k := g.ids.at(e.Replaces)
			g.in[fill[k]] = j
			fill[k]++
		}
		for _, s := range e.Skips {
			k := g.ids.at(s)
			g.in[fill[k]] = j
			fill[k]++
			g.skipped[k] = true
		}
		if e.SkipRange.Valid() {
			nRanged++
		}
	}
	if nRanged > 0 {
		g.ranged = a.ints(nRanged)[:0]
		for _, name := range g.order {
			if j := g.ids.at(name); c.Entries[j].SkipRange.Valid() {
				g.ranged = append(g.ranged, j)
			}
		}
	}
}

// isDup reports whether entry i repeats an earlier entry's name.
func (g *chanGraph) isDup(i int) bool { return g.dup != nil && g.dup[i] }

// incoming returns the entries that replace or skip the name with id k, by
// order position; an entry may appear twice when it both replaces and skips.
func (g *chanGraph) incoming(k int32) []int32 { return g.in[g.inStart[k]:g.inStart[k+1]] }

// Entry returns the entry named name (the first, if the channel lists it
// twice).
func (c *Channel) Entry(name string) (Entry, bool) {
	if !c.g.ids.built() { // not built: search
		for _, e := range c.Entries {
			if e.Name == name {
				return e, true
			}
		}
		return Entry{}, false
	}
	if i := c.entryIndex(name); i >= 0 {
		return c.Entries[i], true
	}
	return Entry{}, false
}

// entryIndex returns the index of the entry named name, or -1.
func (c *Channel) entryIndex(name string) int {
	if k, ok := c.g.ids.get(name); ok && int(k) < len(c.Entries) {
		return int(k)
	}
	return -1
}

// Heads returns the entries that no other entry of the channel replaces or
// skips, sorted by name. A sound channel has exactly one. As in opm, an entry
// that replaces or skips itself is not a head. The slice is shared and must
// not be modified.
func (c *Channel) Heads() []string { return c.g.heads }

// Head returns the channel's single head; ok is false when there is none or
// there are several.
func (c *Channel) Head() (name string, ok bool) {
	if len(c.g.heads) != 1 {
		return "", false
	}
	return c.g.heads[0], true
}

// Chain returns the replacement chain: the head, the entry it replaces, and
// so on along replaces, head first. It stops at an entry missing from the
// channel or at a cycle. Nil when the channel has no single head. The slice
// is shared and must not be modified.
func (c *Channel) Chain() []string { return c.g.chain }

// Order returns every entry of the channel in preference order: the Chain
// first, then the remaining entries by descending version, then name. This
// is the "position in the channel, head first" of resolution. Entries whose
// bundle is missing or has no valid version come after those with one. The
// slice is shared and must not be modified.
func (c *Channel) Order() []string { return c.g.order }

// Position returns the index of name in Order, or -1.
func (c *Channel) Position(name string) int {
	if i := c.entryIndex(name); i >= 0 {
		return int(c.g.orderPos[i])
	}
	return -1
}

// IsSkipped reports whether some entry of the channel lists name in its
// skips. Skipped entries are never resolution candidates.
func (c *Channel) IsSkipped(name string) bool {
	k, ok := c.g.ids.get(name)
	return ok && c.g.skipped[k]
}

// Successors returns the direct successors of a bundle named name at version
// v — which need not be an entry of the channel (an installed CSV): entries
// that replace name, list it in skips, or whose valid skipRange contains v.
// name itself is excluded. The result is in Order and freshly allocated.
func (c *Channel) Successors(name string, v semver.Version) []string {
	var stack [16]int32
	return c.entryNames(c.successors(name, &v, stack[:0]))
}

// entryNames returns the names of the entries at idx, freshly allocated;
// nil when idx is empty.
func (c *Channel) entryNames(idx []int32) []string {
	if len(idx) == 0 {
		return nil
	}
	out := make([]string, len(idx))
	for k, j := range idx {
		out[k] = c.Entries[j].Name
	}
	return out
}

// successors appends to buf the entries that succeed name at version v (nil:
// no skipRange edges), by order position, without duplicates or name itself.
func (c *Channel) successors(name string, v *semver.Version, buf []int32) []int32 {
	g := &c.g
	var byEdge []int32
	if k, ok := g.ids.get(name); ok {
		byEdge = g.incoming(k)
	}
	out := buf[:0]
	// Merge two lists sorted by order position.
	i := 0
	add := func(j int32) {
		if c.Entries[j].Name == name {
			return
		}
		if n := len(out); n > 0 && out[n-1] == j {
			return
		}
		out = append(out, j)
	}
	if v != nil {
		for _, j := range g.ranged {
			if !c.Entries[j].SkipRange.Contains(*v) {
				continue
			}
			for i < len(byEdge) && g.orderPos[byEdge[i]] <= g.orderPos[j] {
				add(byEdge[i])
				i++
			}
			add(j)
		}
	}
	for ; i < len(byEdge); i++ {
		add(byEdge[i])
	}
	return out
}

// entrySuccessors returns the successors of entry i at its bundle's version,
// by order position. The slice is shared.
func (c *Channel) entrySuccessors(i int32) []int32 {
	e := c.g.entries
	e.once.Do(func() {
		n := len(c.Entries)
		e.start = make([]int32, n+1)
		var buf []int32
		for k := 0; k < n; k++ {
			e.start[k] = int32(len(e.succ))
			if c.g.isDup(k) {
				continue
			}
			buf = c.successors(c.Entries[k].Name, c.g.vers[k], buf)
			e.succ = append(e.succ, buf...)
		}
		e.start[n] = int32(len(e.succ))
		e.succ = slices.Clip(e.succ)
	})
	return e.succ[e.start[i]:e.start[i+1]]
}

// EntrySuccessors returns the direct successors of the entry named name at
// its own bundle's version: the entries that replace it, skip it, or whose
// valid skipRange contains that version (no skipRange edges when the
// bundle is missing or its version does not parse). These are the edges
// Reachable and ShortestPath follow. The result is in Order and freshly
// allocated; nil when name is not an entry.
func (c *Channel) EntrySuccessors(name string) []string {
	i := c.entryIndex(name)
	if i < 0 || c.g.isDup(i) {
		return nil
	}
	return c.entryNames(c.entrySuccessors(int32(i)))
}

// Reachable returns every entry reachable from name along successor edges
// (excluding name), in Order. name must be an entry of the channel; the
// skipRange edges out of each entry use its bundle's version. Cycles are
// followed once. The result is freshly allocated; nil when nothing is
// reachable.
func (c *Channel) Reachable(name string) []string {
	start := c.entryIndex(name)
	if start < 0 || c.g.isDup(start) {
		return nil
	}
	// Breadth-first; the queue is also the list of entries seen.
	seen := make([]bool, len(c.Entries))
	seen[start] = true
	queue := make([]int32, 1, len(c.Entries))
	queue[0] = int32(start)
	for head := 0; head < len(queue); head++ {
		for _, j := range c.entrySuccessors(queue[head]) {
			if !seen[j] {
				seen[j] = true
				queue = append(queue, j)
			}
		}
	}
	if len(queue) == 1 {
		return nil
	}
	reached := queue[1:]
	pos := c.g.orderPos
	slices.SortFunc(reached, func(a, b int32) int { return int(pos[a] - pos[b]) })
	return c.entryNames(reached)
}

// DistancesTo returns, for every entry of the channel, the number of hops of
// its shortest upgrade path to the entry named to, along the edges
// Reachable and ShortestPath follow: element i is for Order()[i], 0 for to
// itself, -1 when to cannot be reached. It answers for every entry at the
// cost of one search. The result is freshly allocated; nil when to is not an
// entry of the channel.
func (c *Channel) DistancesTo(to string) []int {
	t := c.entryIndex(to)
	if t < 0 {
		return nil
	}
	// Breadth-first from to, against the edges: the entries an entry
	// replaces or skips, and those its skipRange contains, found by
	// version order; an entry leaves the version order once reached, so
	// each is visited once whatever the number of skipRange edges.
	g := &c.g
	vo := c.versions()
	dist := make([]int, len(g.order))
	for i := range dist {
		dist[i] = -1
	}
	// next[k] leads to the first position at or after k in the version
	// order not yet reached (path-halving union-find).
	next := make([]int32, len(vo.idx)+1)
	for k := range next {
		next[k] = int32(k)
	}
	find := func(k int32) int32 {
		for next[k] != k {
			next[k] = next[next[k]]
			k = next[k]
		}
		return k
	}
	queue := make([]int32, 0, len(c.Entries))
	reach := func(i int32, d int) {
		if i == -1 || g.isDup(int(i)) || dist[g.orderPos[i]] >= 0 {
			return
		}
		dist[g.orderPos[i]] = d
		if p := vo.pos[i]; p >= 0 {
			next[p] = p + 1
		}
		queue = append(queue, i)
	}
	reach(int32(t), 0)
	for head := 0; head < len(queue); head++ {
		k := queue[head]
		d := dist[g.orderPos[k]] + 1
		e := &c.Entries[k]
		if e.Replaces != "" {
			reach(int32(c.entryIndex(e.Replaces)), d)
		}
		for _, s := range e.Skips {
			reach(int32(c.entryIndex(s)), d)
		}
		if !e.SkipRange.Valid() {
			continue
		}
		for _, rn := range c.VersionRuns(e.SkipRange) {
			for p := find(int32(rn[0])); int(p) < rn[1]; p = find(p + 1) {
				reach(vo.idx[p], d)
			}
		}
	}
	return dist
}

// ShortestPath returns the fewest-hop upgrade path from one entry to
// another, both included; ties are broken by taking successors in Order.
// ok is false when to is not reachable from from, or either is not an entry
// of the channel. A path from an entry to itself is that entry alone.
func (c *Channel) ShortestPath(from, to string) (path []string, ok bool) {
	s, t := c.entryIndex(from), c.entryIndex(to)
	if s < 0 || t < 0 {
		return nil, false
	}
	if s == t {
		return []string{from}, true
	}
	// Breadth-first: the first time an entry is reached is by a fewest-hop
	// path, and visiting successors in Order makes that path the one whose
	// hops come earliest in Order.
	parent := make([]int32, len(c.Entries))
	for i := range parent {
		parent[i] = -1
	}
	parent[s] = int32(s)
	queue := make([]int32, 1, len(c.Entries))
	queue[0] = int32(s)
	for head := 0; head < len(queue) && parent[t] < 0; head++ {
		i := queue[head]
		for _, j := range c.entrySuccessors(i) {
			if parent[j] < 0 {
				parent[j] = i
				queue = append(queue, j)
			}
		}
	}
	if parent[t] < 0 {
		return nil, false
	}
	for k := int32(t); ; k = parent[k] {
		path = append(path, c.Entries[k].Name)
		if int(k) == s {
			break
		}
	}
	slices.Reverse(path)
	return path, true
}

// EdgeKind is how a channel declares an upgrade edge.
type EdgeKind uint8

// The kinds of upgrade edge, in the order Edges lists them for one entry.
const (
	EdgeReplaces  EdgeKind = iota + 1 // the entry's replaces
	EdgeSkips                         // a name in the entry's skips
	EdgeSkipRange                     // an entry whose version the entry's skipRange contains
)

// String returns "replaces", "skips" or "skipRange".
func (k EdgeKind) String() string {
	switch k {
	case EdgeReplaces:
		return "replaces"
	case EdgeSkips:
		return "skips"
	case EdgeSkipRange:
		return "skipRange"
	}
	return "edge(" + strconv.Itoa(int(k)) + ")"
}

// Edge is one upgrade edge of a channel: a cluster at From may upgrade to
// To, the entry that declares the edge.
type Edge struct {
	// From is the bundle upgraded from. For replaces and skips it is the
	// name as written, which need not be an entry of the channel (a
	// dangling edge) nor a bundle of the package; for skipRange it is an
	// entry whose bundle has a valid version in the range.
	From string
	// To is the entry that declares the edge.
	To   string
	Kind EdgeKind
	// Range is To's skipRange for EdgeSkipRange; the zero Range otherwise.
	Range Range
}

// Edges returns every upgrade edge of the channel, by target in Order,
// then kind (replaces, skips, skipRange), then source (entries in Order,
// then names that are not entries, sorted). Each (From, To, Kind) appears
// once: an empty skip, a duplicate entry, a skipRange that does not parse
// and a skipRange containing its own entry's version make no edge. A
// skipRange edge needs the source entry's bundle to have a valid version;
// an entry may replace or skip itself (Validate reports the cycle). This is
// the one derivation of the channel's edges that checks, diagrams and
// impact reports read. Listing every skipRange edge costs the number of
// entries with a skipRange times the entries of the channel.
func (c *Channel) Edges() iter.Seq[Edge] {
	return func(yield func(Edge) bool) { c.edges(yield, true) }
}

// DeclaredEdges returns the edges of Edges that replaces and skips
// declare, in the same order, without the skipRange edges: a listing whose
// cost is that of the declarations. The checks read the skipRange edges by
// version order instead (VersionRuns).
func (c *Channel) DeclaredEdges() iter.Seq[Edge] {
	return func(yield func(Edge) bool) { c.edges(yield, false) }
}

// edges yields the channel's edges as Edges lists them, the skipRange ones
// only when ranged is set; it returns false when yield stops it.
func (c *Channel) edges(yield func(Edge) bool, ranged bool) bool {
	g := &c.g
	var skips []string
	for _, name := range g.order {
		j := g.ids.at(name)
		e := &c.Entries[j]
		if e.Replaces != "" && !yield(Edge{From: e.Replaces, To: name, Kind: EdgeReplaces}) {
			return false
		}
		skips = append(skips[:0], e.Skips...)
		slices.SortFunc(skips, c.compareNodes)
		for k, s := range skips {
			if s == "" || k > 0 && skips[k-1] == s {
				continue
			}
			if !yield(Edge{From: s, To: name, Kind: EdgeSkips}) {
				return false
			}
		}
		if !ranged || !e.SkipRange.Valid() {
			continue
		}
		for _, other := range g.order {
			k := g.ids.at(other)
			if v := g.vers[k]; other != name && v != nil && e.SkipRange.Contains(*v) {
				if !yield(Edge{From: other, To: name, Kind: EdgeSkipRange, Range: e.SkipRange}) {
					return false
				}
			}
		}
	}
	return true
}

// compareNodes orders names as Edges lists sources: entries by position in
// Order, then names that are not entries, by name.
func (c *Channel) compareNodes(a, b string) int {
	pa, pb := c.Position(a), c.Position(b)
	switch {
	case pa >= 0 && pb >= 0:
		return pa - pb
	case pa >= 0:
		return -1
	case pb >= 0:
		return 1
	}
	return strings.Compare(a, b)
}

// nameIDs numbers the names of a channel: its entries and the names their
// edges mention. Most channels have a few entries, and a catalog many
// channels: up to smallNames names are kept in two short slices and
// looked up by a scan, which costs a fraction of a map each.
type nameIDs struct {
	m     map[string]int32
	names []string
	ids   []int32
}

// smallNames is the most names a nameIDs keeps without a map.
const smallNames = 8

// newNameIDs returns an empty numbering for the names of entries entries
// and of at most edges edges (most of which name entries).
func newNameIDs(entries, edges int) nameIDs {
	n := entries + edges
	if n > smallNames {
		return nameIDs{m: make(map[string]int32, entries)}
	}
	return nameIDs{names: make([]string, 0, max(n, 1)), ids: make([]int32, 0, max(n, 1))}
}

// built reports whether the numbering was made (the channel was built).
func (x *nameIDs) built() bool { return x.m != nil || x.names != nil }

// get returns the number of name.
func (x *nameIDs) get(name string) (int32, bool) {
	if x.m != nil {
		k, ok := x.m[name]
		return k, ok
	}
	for i, s := range x.names {
		if s == name {
			return x.ids[i], true
		}
	}
	return 0, false
}

// at returns the number of name, or 0 (as a map does).
func (x *nameIDs) at(name string) int32 {
	k, _ := x.get(name)
	return k
}

// set numbers name k; past smallNames names it moves to a map.
func (x *nameIDs) set(name string, k int32) {
	if x.m == nil && len(x.names) == smallNames {
		x.m = make(map[string]int32, 2*smallNames)
		for i, s := range x.names {
			x.m[s] = x.ids[i]
		}
		x.names, x.ids = nil, nil
	}
	if x.m != nil {
		x.m[name] = k
		return
	}
	x.names = append(x.names, name)
	x.ids = append(x.ids, k)
}
