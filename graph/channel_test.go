package graph

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/blang/semver/v4"
)

// e is shorthand for a channel entry: "name", then optional replaces, skips
// and skipRange.
func e(name, replaces string, skips []string, skipRange string) Entry {
	ent := Entry{Name: name, Replaces: replaces, Skips: skips}
	if skipRange != "" {
		ent.SkipRange, _ = ParseRange(skipRange)
	}
	return ent
}

// testChannel builds a package "p" with one channel "c" of entries, and one
// bundle per entry whose version versions gives (no bundle when absent).
func testChannel(t testing.TB, entries []Entry, versions map[string]string) *Channel {
	t.Helper()
	b := NewBuilder()
	b.AddPackage("p", "c")
	b.AddChannel("p", "c", entries...)
	seen := map[string]bool{}
	for _, ent := range entries {
		v, ok := versions[ent.Name]
		if !ok || seen[ent.Name] {
			continue
		}
		seen[ent.Name] = true
		if err := b.AddBundle(ent.Name, "p", "example.com/"+ent.Name, PackageProperty("p", v)); err != nil {
			t.Fatal(err)
		}
	}
	cat := mustBuild(t, b)
	return cat.Package("p").Channel("c")
}

// Shared fixtures.
var (
	// a linear chain a3 → a2 → a1.
	linearEntries = []Entry{e("a1", "", nil, ""), e("a2", "a1", nil, ""), e("a3", "a2", nil, "")}
	linearVers    = map[string]string{"a1": "1.0.0", "a2": "2.0.0", "a3": "3.0.0"}

	// d replaces b and skips c; b replaces a1; c's skipRange takes 1.x.
	diamondEntries = []Entry{
		e("a1", "", nil, ""),
		e("b", "a1", nil, ""),
		e("c", "", nil, ">=1.0.0 <2.0.0"),
		e("d", "b", []string{"c"}, ""),
	}
	diamondVers = map[string]string{"a1": "1.0.0", "b": "2.0.0", "c": "2.5.0", "d": "3.0.0"}
)

func TestChannelStructure(t *testing.T) {
	tests := []struct {
		name      string
		reason    string
		entries   []Entry
		versions  map[string]string
		heads     []string
		chain     []string
		order     []string
		skipped   []string
		notSkiped []string
	}{
		{
			name: "linear", entries: linearEntries, versions: linearVers,
			heads: []string{"a3"}, chain: []string{"a3", "a2", "a1"}, order: []string{"a3", "a2", "a1"},
			notSkiped: []string{"a1", "a2", "a3"},
		},
		{
			name: "skips", entries: diamondEntries, versions: diamondVers,
			reason: "c is only skipped: it follows the chain in Order",
			heads:  []string{"d"}, chain: []string{"d", "b", "a1"}, order: []string{"d", "b", "a1", "c"},
			skipped: []string{"c"}, notSkiped: []string{"a1", "b", "d", "nothing"},
		},
		{
			name:   "multiple heads",
			reason: "no single head: no chain, Order is by descending version then name",
			entries: []Entry{
				e("x1", "", nil, ""), e("x2", "x1", nil, ""), e("y1", "", nil, ""), e("z", "", nil, ""),
			},
			versions: map[string]string{"x1": "1.0.0", "x2": "2.0.0", "y1": "2.0.0"},
			heads:    []string{"x2", "y1", "z"}, chain: nil, order: []string{"x2", "y1", "x1", "z"},
		},
		{
			name: "cycle, no head", entries: []Entry{e("a", "b", nil, ""), e("b", "a", nil, "")},
			versions: map[string]string{"a": "1.0.0", "b": "2.0.0"},
			heads:    nil, chain: nil, order: []string{"b", "a"},
		},
		{
			name:   "cycle below the head",
			reason: "the chain stops when it comes back to an entry",
			entries: []Entry{
				e("h", "a", nil, ""), e("a", "b", nil, ""), e("b", "a", nil, ""),
			},
			versions: map[string]string{"h": "3.0.0", "a": "2.0.0", "b": "1.0.0"},
			heads:    []string{"h"}, chain: []string{"h", "a", "b"}, order: []string{"h", "a", "b"},
		},
		{
			name:     "chain stops at a missing entry",
			entries:  []Entry{e("a2", "a1", nil, ""), e("a3", "a2", nil, ""), e("other", "", []string{"gone"}, "")},
			versions: map[string]string{"a2": "2.0.0", "a3": "3.0.0", "other": "0.1.0"},
			heads:    []string{"a3", "other"}, chain: nil, order: []string{"a3", "a2", "other"},
			skipped: []string{"gone"},
		},
		{
			name:     "self replace is not a head",
			reason:   "as in opm, an entry that replaces itself has an incoming edge",
			entries:  []Entry{e("a", "a", nil, "")},
			versions: map[string]string{"a": "1.0.0"},
			heads:    nil, chain: nil, order: []string{"a"},
		},
		{
			name:     "duplicate entry ignored",
			entries:  []Entry{e("a1", "", nil, ""), e("a2", "a1", nil, ""), e("a1", "a2", nil, "")},
			versions: map[string]string{"a1": "1.0.0", "a2": "2.0.0"},
			heads:    []string{"a2"}, chain: []string{"a2", "a1"}, order: []string{"a2", "a1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ch := testChannel(t, tt.entries, tt.versions)
			if got := ch.Heads(); !slices.Equal(got, tt.heads) {
				t.Errorf("Heads() = %q, want %q", got, tt.heads)
			}
			head, ok := ch.Head()
			if wantOK := len(tt.heads) == 1; ok != wantOK || (ok && head != tt.heads[0]) {
				t.Errorf("Head() = %q, %v; heads %q", head, ok, tt.heads)
			}
			if got := ch.Chain(); !slices.Equal(got, tt.chain) {
				t.Errorf("Chain() = %q, want %q", got, tt.chain)
			}
			if got := ch.Order(); !slices.Equal(got, tt.order) {
				t.Errorf("Order() = %q, want %q", got, tt.order)
			}
			for i, n := range tt.order {
				if got := ch.Position(n); got != i {
					t.Errorf("Position(%q) = %d, want %d", n, got, i)
				}
			}
			if got := ch.Position("absent"); got != -1 {
				t.Errorf("Position(absent) = %d, want -1", got)
			}
			for _, n := range tt.skipped {
				if !ch.IsSkipped(n) {
					t.Errorf("IsSkipped(%q) = false, want true", n)
				}
			}
			for _, n := range tt.notSkiped {
				if ch.IsSkipped(n) {
					t.Errorf("IsSkipped(%q) = true, want false", n)
				}
			}
		})
	}
}

func TestChannelEntry(t *testing.T) {
	ch := testChannel(t, diamondEntries, diamondVers)
	got, ok := ch.Entry("d")
	if !ok || got.Replaces != "b" || !slices.Equal(got.Skips, []string{"c"}) {
		t.Errorf("Entry(d) = %+v, %v", got, ok)
	}
	if _, ok := ch.Entry("b2"); ok {
		t.Error("Entry(b2) found an entry that does not exist")
	}
}

func TestSuccessors(t *testing.T) {
	tests := []struct {
		name     string
		reason   string
		entries  []Entry
		versions map[string]string
		from     string
		version  string
		want     []string
	}{
		{name: "replaces", entries: linearEntries, versions: linearVers, from: "a1", version: "1.0.0", want: []string{"a2"}},
		{name: "head has none", entries: linearEntries, versions: linearVers, from: "a3", version: "3.0.0", want: nil},
		{
			name: "replaces and skipRange, in Order", entries: diamondEntries, versions: diamondVers,
			from: "a1", version: "1.0.0", want: []string{"b", "c"},
		},
		{
			name: "skips", entries: diamondEntries, versions: diamondVers,
			from: "c", version: "2.5.0", want: []string{"d"},
		},
		{
			name:    "installed version not in the channel",
			reason:  "an installed CSV the channel never listed is reached by skipRange alone",
			entries: diamondEntries, versions: diamondVers,
			from: "a0.9-custom", version: "1.5.0", want: []string{"c"},
		},
		{
			name:    "installed version outside every range",
			entries: diamondEntries, versions: diamondVers,
			from: "a0.1", version: "0.1.0", want: nil,
		},
		{
			name:     "installed name replaced by an entry",
			reason:   "a dangling replaces still names the installed CSV",
			entries:  []Entry{e("a2", "a1", nil, ""), e("a3", "a2", []string{"old"}, "")},
			versions: map[string]string{"a2": "2.0.0", "a3": "3.0.0"},
			from:     "a1", version: "1.0.0", want: []string{"a2"},
		},
		{
			name:     "skips of a non-entry",
			entries:  []Entry{e("a2", "a1", nil, ""), e("a3", "a2", []string{"old"}, "")},
			versions: map[string]string{"a2": "2.0.0", "a3": "3.0.0"},
			from:     "old", version: "0.5.0", want: []string{"a3"},
		},
		{
			name:     "own skipRange excluded",
			reason:   "an entry whose skipRange holds its own version is not its own successor",
			entries:  []Entry{e("a1", "", nil, ""), e("a2", "a1", nil, ">=1.0.0 <3.0.0")},
			versions: map[string]string{"a1": "1.0.0", "a2": "2.0.0"},
			from:     "a2", version: "2.0.0", want: nil,
		},
		{
			name:     "replaces and skipRange by one entry listed once",
			entries:  []Entry{e("a1", "", nil, ""), e("a2", "a1", []string{"a1"}, "<2.0.0")},
			versions: map[string]string{"a1": "1.0.0", "a2": "2.0.0"},
			from:     "a1", version: "1.0.0", want: []string{"a2"},
		},
		{
			name:     "invalid skipRange is no edge",
			entries:  []Entry{e("a1", "", nil, ""), e("a2", "", nil, "not a range")},
			versions: map[string]string{"a1": "1.0.0", "a2": "2.0.0"},
			from:     "a1", version: "1.0.0", want: nil,
		},
		{
			name:   "many successors in Order",
			reason: "chain members first, then the others by descending version",
			entries: []Entry{
				e("base", "", nil, ""),
				e("s1", "", nil, "<1.1.0"),
				e("s2", "", []string{"base"}, ""),
				e("top", "mid", []string{"s1", "s2"}, ""),
				e("mid", "base", nil, ""),
			},
			versions: map[string]string{"base": "1.0.0", "s1": "1.5.0", "s2": "1.6.0", "mid": "2.0.0", "top": "3.0.0"},
			from:     "base", version: "1.0.0", want: []string{"mid", "s2", "s1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ch := testChannel(t, tt.entries, tt.versions)
			got := ch.Successors(tt.from, semver.MustParse(tt.version))
			if !slices.Equal(got, tt.want) {
				t.Errorf("Successors(%q, %s) = %q, want %q", tt.from, tt.version, got, tt.want)
			}
		})
	}
}

func TestEntrySuccessors(t *testing.T) {
	ch := testChannel(t, diamondEntries, diamondVers)
	for _, tt := range []struct {
		name string
		want []string
	}{
		{"a1", []string{"b", "c"}}, // replaced by b, in c's skipRange at 1.0.0
		{"b", []string{"d"}},
		{"c", []string{"d"}}, // 2.5.0 is outside c's own range anyway
		{"d", nil},
		{"zz", nil},
	} {
		if got := ch.EntrySuccessors(tt.name); !slices.Equal(got, tt.want) {
			t.Errorf("EntrySuccessors(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestDistancesTo(t *testing.T) {
	ch := testChannel(t, diamondEntries, diamondVers)
	if got, want := ch.Order(), []string{"d", "b", "a1", "c"}; !slices.Equal(got, want) {
		t.Fatalf("Order = %q, want %q", got, want)
	}
	for _, tt := range []struct {
		to   string
		want []int // by Order
	}{
		{"d", []int{0, 1, 2, 1}}, // a1 reaches d through b or c: 2 hops either way
		{"b", []int{-1, 0, 1, -1}},
		{"c", []int{-1, -1, 1, 0}}, // a1 is in c's skipRange
		{"zz", nil},
	} {
		if got := ch.DistancesTo(tt.to); !slices.Equal(got, tt.want) {
			t.Errorf("DistancesTo(%q) = %v, want %v", tt.to, got, tt.want)
		}
	}
}

func TestReachable(t *testing.T) {
	tests := []struct {
		name     string
		entries  []Entry
		versions map[string]string
		from     string
		want     []string
	}{
		{name: "linear tail", entries: linearEntries, versions: linearVers, from: "a1", want: []string{"a3", "a2"}},
		{name: "linear head", entries: linearEntries, versions: linearVers, from: "a3", want: nil},
		{name: "diamond", entries: diamondEntries, versions: diamondVers, from: "a1", want: []string{"d", "b", "c"}},
		{name: "not an entry", entries: diamondEntries, versions: diamondVers, from: "zz", want: nil},
		{
			name:     "cycle terminates",
			entries:  []Entry{e("a", "b", nil, ""), e("b", "a", nil, ""), e("c", "b", nil, "")},
			versions: map[string]string{"a": "1.0.0", "b": "2.0.0", "c": "3.0.0"},
			from:     "a", want: []string{"c", "b"},
		},
		{
			name:     "entry without a bundle has no range edges",
			entries:  []Entry{e("a1", "", nil, ""), e("a2", "", nil, "<2.0.0")},
			versions: map[string]string{"a2": "2.0.0"},
			from:     "a1", want: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ch := testChannel(t, tt.entries, tt.versions)
			if got := ch.Reachable(tt.from); !slices.Equal(got, tt.want) {
				t.Errorf("Reachable(%q) = %q, want %q", tt.from, got, tt.want)
			}
		})
	}
}

func TestShortestPath(t *testing.T) {
	tests := []struct {
		name     string
		reason   string
		entries  []Entry
		versions map[string]string
		from, to string
		want     []string
		ok       bool
	}{
		{name: "linear", entries: linearEntries, versions: linearVers, from: "a1", to: "a3", want: []string{"a1", "a2", "a3"}, ok: true},
		{name: "itself", entries: linearEntries, versions: linearVers, from: "a2", to: "a2", want: []string{"a2"}, ok: true},
		{name: "backwards", entries: linearEntries, versions: linearVers, from: "a3", to: "a1", ok: false},
		{name: "unknown", entries: linearEntries, versions: linearVers, from: "a1", to: "a9", ok: false},
		{
			name:    "tie broken by Order",
			reason:  "a1→b→d and a1→c→d both take two hops; b comes before c in Order",
			entries: diamondEntries, versions: diamondVers,
			from: "a1", to: "d", want: []string{"a1", "b", "d"}, ok: true,
		},
		{
			name:   "fewest hops beats Order",
			reason: "the skipRange jump is one hop, the chain two",
			entries: []Entry{
				e("a1", "", nil, ""), e("a2", "a1", nil, ""), e("a3", "a2", nil, ">=1.0.0 <2.0.0"),
			},
			versions: map[string]string{"a1": "1.0.0", "a2": "2.0.0", "a3": "3.0.0"},
			from:     "a1", to: "a3", want: []string{"a1", "a3"}, ok: true,
		},
		{
			name:   "tie broken by Order, the other way",
			reason: "with the chain through c, c's route wins",
			entries: []Entry{
				e("a1", "", nil, ""),
				e("b", "", nil, "<2.0.0"),
				e("c", "a1", nil, ""),
				e("d", "c", []string{"b"}, ""),
			},
			versions: map[string]string{"a1": "1.0.0", "b": "2.5.0", "c": "2.0.0", "d": "3.0.0"},
			from:     "a1", to: "d", want: []string{"a1", "c", "d"}, ok: true,
		},
		{
			name:     "through a cycle",
			entries:  []Entry{e("a", "b", nil, ""), e("b", "a", nil, ""), e("c", "b", nil, "")},
			versions: map[string]string{"a": "1.0.0", "b": "2.0.0", "c": "3.0.0"},
			from:     "a", to: "c", want: []string{"a", "b", "c"}, ok: true,
		},
		{
			name:     "unreachable inside a cycle",
			entries:  []Entry{e("a", "b", nil, ""), e("b", "a", nil, ""), e("c", "", nil, "")},
			versions: map[string]string{"a": "1.0.0", "b": "2.0.0", "c": "3.0.0"},
			from:     "a", to: "c", ok: false,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ch := testChannel(t, tt.entries, tt.versions)
			got, ok := ch.ShortestPath(tt.from, tt.to)
			if ok != tt.ok || !slices.Equal(got, tt.want) {
				t.Errorf("ShortestPath(%q, %q) = %q, %v; want %q, %v", tt.from, tt.to, got, ok, tt.want, tt.ok)
			}
		})
	}
}

// TestConcurrentReads runs many readers on one catalog; go test -race
// checks that reads share nothing mutable.
func TestConcurrentReads(t *testing.T) {
	ch := testChannel(t, diamondEntries, diamondVers)
	want := ch.Reachable("a1")
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				if got := ch.Reachable("a1"); !slices.Equal(got, want) {
					t.Errorf("Reachable = %q, want %q", got, want)
					return
				}
				ch.Successors("x", semver.MustParse("1.2.0"))
				ch.ShortestPath("a1", "d")
				ch.Heads()
				ch.Order()
				ch.IsSkipped("c")
			}
		}()
	}
	wg.Wait()
}

// TestConcurrentCatalogReads reads one catalog from many goroutines, Validate
// included, and checks they all see the same thing.
func TestConcurrentCatalogReads(t *testing.T) {
	b := NewBuilder()
	sound(b)
	b.AddChannel("p", "d", Entry{Name: "p.v1"}, Entry{Name: "p.v2"})
	g := GVK{Group: "g", Version: "v1", Kind: "K"}
	bundle(b, "q.v1", "q", "1.0.0", GVKProperty(g))
	b.AddChannel("q", "c", Entry{Name: "q.v1"})
	cat := mustBuild(t, b)
	want := fmt.Sprint(cat.Validate())
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				if got := fmt.Sprint(cat.Validate()); got != want {
					t.Errorf("Validate differs: %s", got)
					return
				}
				if len(cat.Providers(g)) != 1 || cat.Package("p").Bundle("p.v2") == nil || len(cat.BundlesNamed("q.v1")) != 1 {
					t.Error("lookups differ")
					return
				}
				cat.Package("p").Channel("c").Successors("p.v1", semver.MustParse("1.0.0"))
			}
		}()
	}
	wg.Wait()
}

func TestUnbuiltChannel(t *testing.T) {
	ch := &Channel{Package: "p", Name: "c", Entries: linearEntries}
	if ch.Heads() != nil || ch.Order() != nil || ch.Position("a1") != -1 || ch.IsSkipped("a1") ||
		ch.Successors("a1", semver.MustParse("1.0.0")) != nil || ch.Reachable("a1") != nil || ch.EntrySuccessors("a1") != nil {
		t.Error("an unbuilt channel has a graph")
	}
	if _, ok := ch.ShortestPath("a1", "a3"); ok {
		t.Error("an unbuilt channel has a path")
	}
	if e, ok := ch.Entry("a2"); !ok || e.Replaces != "a1" {
		t.Error("an unbuilt channel does not find its entries")
	}
}

func TestEdges(t *testing.T) {
	entries := []Entry{
		e("a1", "", nil, ""),
		e("b", "a1", []string{"gone", "a1", "", "a1"}, ""),
		e("c", "", nil, ">=1.0.0 <2.5.0"),
		e("d", "b", []string{"c"}, ""),
		e("bad", "", nil, ">=0.0.0"),
	}
	vers := map[string]string{"a1": "1.0.0", "b": "2.0.0", "c": "2.4.0", "d": "3.0.0", "bad": "not-a-version"}
	ch := testChannel(t, entries, vers)
	var got []string
	for ed := range ch.Edges() {
		s := fmt.Sprintf("%s -%s-> %s", ed.From, ed.Kind, ed.To)
		if ed.Kind == EdgeSkipRange {
			s += " " + ed.Range.String()
		}
		got = append(got, s)
	}
	// Two heads (d and bad), so Order is by version: d, c, b, a1, then
	// bad, which has no valid version — no skipRange contains it, and its
	// own skipRange contains every valid version.
	if order := ch.Order(); !slices.Equal(order, []string{"d", "c", "b", "a1", "bad"}) {
		t.Fatalf("Order() = %q", order)
	}
	want := []string{
		"b -replaces-> d",
		"c -skips-> d",
		"b -skipRange-> c >=1.0.0 <2.5.0",
		"a1 -skipRange-> c >=1.0.0 <2.5.0",
		"a1 -replaces-> b",
		"a1 -skips-> b", // listed twice, one edge; the empty skip makes none
		"gone -skips-> b",
		"d -skipRange-> bad >=0.0.0",
		"c -skipRange-> bad >=0.0.0",
		"b -skipRange-> bad >=0.0.0",
		"a1 -skipRange-> bad >=0.0.0",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Edges() =\n%q\nwant\n%q", got, want)
	}
	for ed := range ch.Edges() {
		if ed.Kind == EdgeSkipRange {
			break // stopping early is allowed
		}
	}
	if n := len(slices.Collect(new(Channel).Edges())); n != 0 {
		t.Errorf("an unbuilt channel has %d edges", n)
	}
}
