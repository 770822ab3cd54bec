package graph

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/internal/testcatalog"
)

// channelFromBytes turns fuzz input into a small channel: up to 7 entries
// named e0..e6 with versions, replaces, skips and skipRanges chosen by the
// bytes, so that cycles, dangling names, duplicates and missing bundles all
// occur.
func channelFromBytes(t testing.TB, data []byte) *Channel {
	next := testcatalog.FuzzBytes(data)
	n := 1 + next()%7
	var entries []Entry
	versions := map[string]string{}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("e%d", next()%8) // e7 is never declared first: duplicates and gaps
		ent := Entry{Name: name}
		if r := next() % 10; r < 8 {
			ent.Replaces = fmt.Sprintf("e%d", r)
		}
		for k := next() % 3; k > 0; k-- {
			ent.Skips = append(ent.Skips, fmt.Sprintf("e%d", next()%9))
		}
		switch next() % 7 {
		case 1:
			ent.SkipRange = mustRange(fmt.Sprintf("<%d.0.0", next()%8))
		case 2:
			ent.SkipRange = mustRange(fmt.Sprintf(">=%d.0.0 <%d.0.0", next()%4, 4+next()%4))
		case 3:
			ent.SkipRange, _ = ParseRange("junk")
		case 4:
			ent.SkipRange = mustRange(fmt.Sprintf(">%d.0.0 <=%d.1.0 || =%d.0.0", next()%4, 2+next()%6, next()%8))
		case 5:
			ent.SkipRange = mustRange(fmt.Sprintf("!=%d.0.0", next()%8))
		case 6:
			ent.SkipRange = mustRange(fmt.Sprintf(">= %d.1.0 < %d.0.0", next()%4, next()%8))
		}
		entries = append(entries, ent)
		if next()%5 != 0 {
			versions[name] = fmt.Sprintf("%d.%d.0", next()%8, next()%2)
		}
	}
	return testChannel(t, entries, versions)
}

// checkChannelGraph compares the channel's graph operations with
// brute-force definitions.
func checkChannelGraph(t *testing.T, ch *Channel) {
	t.Helper()
	// The first entry of each name counts; later ones are ignored.
	var live []Entry
	seen := map[string]bool{}
	for _, e := range ch.Entries {
		if !seen[e.Name] {
			seen[e.Name] = true
			live = append(live, e)
		}
	}
	version := func(name string) *semver.Version { return ch.g.vers[ch.entryIndex(name)] }

	// Heads: no entry replaces or skips it.
	var heads []string
	for _, x := range live {
		in := false
		for _, y := range live {
			if y.Replaces == x.Name || slices.Contains(y.Skips, x.Name) {
				in = true
			}
		}
		if !in {
			heads = append(heads, x.Name)
		}
	}
	slices.Sort(heads)
	if !slices.Equal(ch.Heads(), heads) {
		t.Fatalf("Heads() = %q, brute force %q", ch.Heads(), heads)
	}
	// Order: a permutation of the live entries with the chain first.
	order := ch.Order()
	if len(order) != len(live) {
		t.Fatalf("Order() = %q has %d names, want %d", order, len(order), len(live))
	}
	for _, x := range live {
		if ch.Position(x.Name) < 0 || order[ch.Position(x.Name)] != x.Name {
			t.Fatalf("Position(%q) inconsistent with Order %q", x.Name, order)
		}
	}
	chain := ch.Chain()
	if !slices.Equal(order[:len(chain)], chain) {
		t.Fatalf("Chain %q is not a prefix of Order %q", chain, order)
	}
	for i := 1; i < len(chain); i++ {
		if e, _ := ch.Entry(chain[i-1]); e.Replaces != chain[i] {
			t.Fatalf("Chain %q: %s does not replace %s", chain, chain[i-1], chain[i])
		}
	}
	// Successors, for every name and a few versions.
	succ := func(name string, v *semver.Version) []string {
		var out []string
		for _, n := range order {
			y, _ := ch.Entry(n)
			if n == name {
				continue
			}
			if y.Replaces == name || slices.Contains(y.Skips, name) || (v != nil && y.SkipRange.Contains(*v)) {
				out = append(out, n)
			}
		}
		return out
	}
	for i := 0; i < 9; i++ {
		name := fmt.Sprintf("e%d", i)
		for _, vs := range []string{"0.0.0", "1.0.0", "2.1.0", "5.0.0"} {
			v := semver.MustParse(vs)
			if got, want := ch.Successors(name, v), succ(name, &v); !slices.Equal(got, want) {
				t.Fatalf("Successors(%s, %s) = %q, brute force %q", name, vs, got, want)
			}
		}
		if got := ch.IsSkipped(name); got != slices.ContainsFunc(live, func(e Entry) bool { return slices.Contains(e.Skips, name) }) {
			t.Fatalf("IsSkipped(%s) = %v", name, got)
		}
	}
	// VersionRuns against testing every entry, for each skipRange.
	vorder := ch.VersionOrder()
	nv := 0
	for _, x := range live {
		if version(x.Name) != nil {
			nv++
		}
	}
	if len(vorder) != nv || !slices.IsSortedFunc(vorder, func(a, b string) int { return version(a).Compare(*version(b)) }) {
		t.Fatalf("VersionOrder() = %q: want the %d entries with a version, by version", vorder, nv)
	}
	for _, y := range live {
		var want [][2]int
		for k, n := range vorder {
			if v := version(n); v != nil && y.SkipRange.Contains(*v) {
				if m := len(want); m > 0 && want[m-1][1] == k {
					want[m-1][1]++
				} else {
					want = append(want, [2]int{k, k + 1})
				}
			}
		}
		if got := ch.VersionRuns(y.SkipRange); !slices.Equal(got, want) {
			t.Fatalf("VersionRuns(%q) over %q = %v, brute force %v", y.SkipRange.String(), vorder, got, want)
		}
	}
	// Reachable and ShortestPath against breadth-first search over the
	// brute-force successors.
	distTo := map[string][]int{}
	for _, to := range live {
		distTo[to.Name] = ch.DistancesTo(to.Name)
		if len(distTo[to.Name]) != len(order) {
			t.Fatalf("DistancesTo(%s) has %d elements, want one per entry of Order (%d)", to.Name, len(distTo[to.Name]), len(order))
		}
	}
	for _, from := range live {
		if got, want := ch.EntrySuccessors(from.Name), succ(from.Name, version(from.Name)); !slices.Equal(got, want) {
			t.Fatalf("EntrySuccessors(%s) = %q, brute force %q", from.Name, got, want)
		}
		dist := map[string]int{from.Name: 0}
		parent := map[string]string{}
		queue := []string{from.Name}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for _, y := range succ(x, version(x)) {
				if _, ok := dist[y]; !ok {
					dist[y] = dist[x] + 1
					parent[y] = x
					queue = append(queue, y)
				}
			}
		}
		var reach []string
		for _, n := range order {
			if _, ok := dist[n]; ok && n != from.Name {
				reach = append(reach, n)
			}
		}
		if got := ch.Reachable(from.Name); !slices.Equal(got, reach) {
			t.Fatalf("Reachable(%s) = %q, brute force %q", from.Name, got, reach)
		}
		for _, to := range live {
			path, ok := ch.ShortestPath(from.Name, to.Name)
			d, reachable := dist[to.Name]
			if got := distTo[to.Name][slices.Index(order, from.Name)]; (got >= 0) != reachable || reachable && got != d {
				t.Fatalf("DistancesTo(%s) from %s = %d, brute force %d (reachable %v)", to.Name, from.Name, got, d, reachable)
			}
			if ok != reachable {
				t.Fatalf("ShortestPath(%s, %s) ok = %v, want %v", from.Name, to.Name, ok, reachable)
			}
			if !ok {
				continue
			}
			if len(path) != d+1 || path[0] != from.Name || path[len(path)-1] != to.Name {
				t.Fatalf("ShortestPath(%s, %s) = %q, want %d hops", from.Name, to.Name, path, d)
			}
			for i := 1; i < len(path); i++ {
				if !slices.Contains(succ(path[i-1], version(path[i-1])), path[i]) {
					t.Fatalf("ShortestPath(%s, %s) = %q: %s is no successor of %s", from.Name, to.Name, path, path[i], path[i-1])
				}
			}
			// Ties: the path whose hops are discovered first in Order.
			want := []string{to.Name}
			for x := to.Name; x != from.Name; x = parent[x] {
				want = append(want, parent[x])
			}
			slices.Reverse(want)
			if !slices.Equal(path, want) {
				t.Fatalf("ShortestPath(%s, %s) = %q, want %q (ties by Order)", from.Name, to.Name, path, want)
			}
		}
	}
	checkEdges(t, ch, live, version)
	// Validate terminates and is sorted.
	cat := &Catalog{packages: []*Package{{Name: "p", Channels: []*Channel{ch}}}}
	if fs := cat.Validate(); !slices.IsSortedFunc(fs, CompareFindings) {
		t.Fatal("findings not sorted")
	}
}

// FuzzChannelGraph checks the channel graph operations against brute-force
// definitions on small generated channels.
func FuzzChannelGraph(f *testing.F) {
	f.Add([]byte{3, 1, 0, 0, 0, 2, 1, 1, 1, 1})
	f.Add([]byte{6, 0, 1, 2, 1, 3, 1, 2, 2, 3, 3, 0, 4, 2, 5, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		checkChannelGraph(t, channelFromBytes(t, data))
	})
}

// TestChannelGraphRandom runs the fuzz property on seeded random inputs.
func TestChannelGraphRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	runs := 3000
	if testing.Short() {
		runs = 300
	}
	for i := 0; i < runs; i++ {
		data := make([]byte, 64)
		for k := range data {
			data[k] = byte(r.IntN(256))
		}
		ch := channelFromBytes(t, data)
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkChannelGraph(t, ch) })
		if t.Failed() {
			t.Logf("input %v", data)
			return
		}
	}
}

// checkEdges compares Edges with the channel's declarations and with
// EntrySuccessors: every edge is declared by its target as its kind says,
// every declaration makes its edge once, the order is by target, kind and
// source, and the targets of an entry's edges are its successors.
func checkEdges(t *testing.T, ch *Channel, live []Entry, version func(string) *semver.Version) {
	t.Helper()
	edges := slices.Collect(ch.Edges())
	var declared []Edge
	for _, ed := range edges {
		if ed.Kind != EdgeSkipRange {
			declared = append(declared, ed)
		}
	}
	if got := slices.Collect(ch.DeclaredEdges()); !slices.EqualFunc(got, declared, func(a, b Edge) bool { return a.From == b.From && a.To == b.To && a.Kind == b.Kind }) {
		t.Fatalf("DeclaredEdges() = %v, want the replaces and skips edges of Edges %v", got, declared)
	}
	rank := func(name string) (int, string) {
		if p := ch.Position(name); p >= 0 {
			return p, ""
		}
		return len(live), name
	}
	want := 0
	for _, y := range live {
		if y.Replaces != "" {
			want++
		}
		skips := map[string]bool{}
		for _, s := range y.Skips {
			if s != "" && !skips[s] {
				skips[s] = true
				want++
			}
		}
		for _, x := range live {
			if v := version(x.Name); x.Name != y.Name && v != nil && y.SkipRange.Contains(*v) {
				want++
			}
		}
	}
	if len(edges) != want {
		t.Fatalf("Edges() = %d edges %v, the declarations make %d", len(edges), edges, want)
	}
	for i, ed := range edges {
		to, ok := ch.Entry(ed.To)
		if !ok {
			t.Fatalf("edge %v: target is not an entry", ed)
		}
		switch ed.Kind {
		case EdgeReplaces:
			ok = to.Replaces == ed.From
		case EdgeSkips:
			ok = slices.Contains(to.Skips, ed.From)
		case EdgeSkipRange:
			v := version(ed.From)
			ok = v != nil && ed.From != ed.To && to.SkipRange.Contains(*v) && ed.Range.String() == to.SkipRange.String()
		default:
			ok = false
		}
		if !ok {
			t.Fatalf("edge %v is not declared by %+v", ed, to)
		}
		if i > 0 {
			p := edges[i-1]
			pt, _ := rank(p.To)
			et, _ := rank(ed.To)
			pf, pn := rank(p.From)
			ef, en := rank(ed.From)
			c := cmp.Or(pt-et, int(p.Kind)-int(ed.Kind), pf-ef, strings.Compare(pn, en))
			if c >= 0 {
				t.Fatalf("edges %v and %v out of order or repeated", p, ed)
			}
		}
	}
	for _, x := range live {
		var succ []string
		for _, ed := range edges {
			if ed.From == x.Name && ed.To != x.Name && !slices.Contains(succ, ed.To) {
				succ = append(succ, ed.To)
			}
		}
		if got := ch.EntrySuccessors(x.Name); !slices.Equal(got, succ) {
			t.Fatalf("EntrySuccessors(%s) = %q, edges from it lead to %q", x.Name, got, succ)
		}
	}
}
