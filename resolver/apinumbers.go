package resolver

import (
	"hash/maphash"
	"runtime"
	"slices"
	"sort"
	"sync"
	"weak"

	"github.com/sextantdev/sextant/graph"
)

// manyAPIs is the number of provided APIs from which an installed CSV's
// properties annotation has its APIs numbered once per Resolver rather
// than once per resolution (see providedAPIs). A CSV provides a few dozen
// APIs at most in practice; an annotation may list hundreds of thousands,
// and a command resolves its namespace many times (held-back reasons,
// fixes, confirmations).
var manyAPIs = 256

// providedAPIs is a long list of provided APIs (an installed CSV's
// properties annotation) numbered against a Resolver: ids[i] is the number
// of the i-th API, the Resolver's own when a catalog bundle provides it,
// else -1-k where the list's foreign[k]-th API is the k-th API no catalog
// provides (each once, in the order first listed); index finds k from
// the API. It holds no pointer to the list: the list is the caller's, and
// keys the cache.
type providedAPIs struct {
	once    sync.Once
	ids     []int32
	foreign []int32
	index   apiTable
}

// apiCache holds a Resolver's providedAPIs, by the typed properties they
// were computed from. An entry lives as long as its properties: a weak
// key, deleted once the properties are collected.
type apiCache struct {
	mu sync.Mutex
	m  map[weak.Pointer[graph.Bundle]]*providedAPIs
}

// providedAPIs returns the numbered APIs of the typed properties bd,
// numbering them the first time (once, however many resolutions ask at
// the same time).
func (r *Resolver) providedAPIs(bd *graph.Bundle) *providedAPIs {
	key := weak.Make(bd)
	c := &r.apis
	c.mu.Lock()
	p := c.m[key]
	if p == nil {
		if c.m == nil {
			c.m = map[weak.Pointer[graph.Bundle]]*providedAPIs{}
		}
		p = &providedAPIs{}
		c.m[key] = p
		runtime.AddCleanup(bd, func(k weak.Pointer[graph.Bundle]) {
			c.mu.Lock()
			delete(c.m, k)
			c.mu.Unlock()
		}, key)
	}
	c.mu.Unlock()
	p.once.Do(func() { p.number(r, bd.Provides) })
	return p
}

// number numbers provides.
func (p *providedAPIs) number(r *Resolver, provides []graph.GVK) {
	p.ids = make([]int32, len(provides))
	for i, g := range provides {
		if id, ok := r.gvkIDs[g]; ok {
			p.ids[i] = id
			continue
		}
		if p.foreign == nil {
			p.foreign = make([]int32, 0, len(provides)-i)
			p.index = newAPITable(len(provides) - i)
		}
		h := p.index.hash(g)
		slot, k, ok := p.index.find(h, provides, p.foreign, g)
		if !ok {
			k = int32(len(p.foreign))
			p.index.slots[slot] = h>>32<<32 | uint64(k+1)
			p.foreign = append(p.foreign, int32(i))
		}
		p.ids[i] = -1 - k
	}
	p.foreign = slices.Clip(p.foreign)
}

// lookup returns k when g is the k-th API of p's list provides no catalog
// provides.
func (p *providedAPIs) lookup(provides []graph.GVK, g graph.GVK) (int32, bool) {
	if len(p.foreign) == 0 {
		return 0, false
	}
	_, k, ok := p.index.find(p.index.hash(g), provides, p.foreign, g)
	return k, ok
}

// apiTable finds the APIs of a list that no catalog provides (a
// providedAPIs' foreign APIs) by their place in it: an open-addressed hash
// table of numbers, 8 bytes a slot, where a map of the APIs would take
// some 100 bytes an entry — for the hundreds of thousands of APIs an
// annotation may list.
type apiTable struct {
	seed maphash.Seed
	// Each slot: k+1 for the k-th foreign API in the low 32 bits, the high
	// 32 bits of its hash above them (an API compared only when they
	// match); 0 for an empty slot.
	slots []uint64
}

// newAPITable returns a table with room for n APIs, at most three quarters
// full.
func newAPITable(n int) apiTable {
	size := 8
	for size < n+n/3+1 {
		size <<= 1
	}
	return apiTable{seed: maphash.MakeSeed(), slots: make([]uint64, size)}
}

// hash returns the hash of API g in t.
func (t *apiTable) hash(g graph.GVK) uint64 { return maphash.Comparable(t.seed, g) }

// find returns the slot of API g, whose hash is h, of the list provides
// whose foreign APIs are listed in foreign: where it is, the k-th (found),
// or the empty slot where it goes.
func (t *apiTable) find(h uint64, provides []graph.GVK, foreign []int32, g graph.GVK) (slot int, k int32, found bool) {
	mask := len(t.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return i, 0, false
		}
		if s>>32 == h>>32 && provides[foreign[uint32(s)-1]] == g {
			return i, int32(uint32(s) - 1), true
		}
	}
}

// apiNumbers numbers, for one resolution, the APIs only installed CSVs
// provide, after the Resolver's: one at a time (one), or as the run of a
// providedAPIs' foreign APIs (a block), which costs nothing per API.
// Every API gets one number whichever way it was first met.
type apiNumbers struct {
	r    *Resolver
	next int32 // the next number
	one  map[graph.GVK]int32
	runs []apiRun // by start
}

// apiRun is a run of numbers from start: APIs numbered one at a time
// (gvks), or a block's foreign APIs (of provides).
type apiRun struct {
	start    int32
	gvks     []graph.GVK
	block    *providedAPIs
	provides []graph.GVK
}

func newAPINumbers(r *Resolver) *apiNumbers {
	return &apiNumbers{r: r, next: int32(len(r.gvks))}
}

// id returns g's number, numbering it if it has none. room is the number
// of APIs that may come this way.
func (a *apiNumbers) id(g graph.GVK, room int) int32 {
	if id, ok := a.r.gvkIDs[g]; ok {
		return id
	}
	if id, ok := a.one[g]; ok {
		return id
	}
	for i := range a.runs {
		if run := &a.runs[i]; run.block != nil {
			if k, ok := run.block.lookup(run.provides, g); ok {
				return run.start + k
			}
		}
	}
	if a.one == nil {
		// Room for the APIs still to come: a growing map rehashes them.
		a.one = make(map[graph.GVK]int32, room)
	}
	id := a.next
	a.next++
	a.one[g] = id
	if n := len(a.runs); n > 0 && a.runs[n-1].block == nil {
		a.runs[n-1].gvks = append(a.runs[n-1].gvks, g)
	} else {
		a.runs = append(a.runs, apiRun{start: id, gvks: []graph.GVK{g}})
	}
	return id
}

// block numbers the foreign APIs of p, numbered from provides, as one run
// and returns its start; false when one of them already has a number (then
// they are numbered one at a time, with id).
func (a *apiNumbers) block(p *providedAPIs, provides []graph.GVK) (int32, bool) {
	for i := range a.runs {
		if a.runs[i].block == p {
			return a.runs[i].start, true
		}
	}
	if len(a.runs) > 0 {
		for _, j := range p.foreign {
			g := provides[j]
			if _, ok := a.one[g]; ok {
				return 0, false
			}
			for i := range a.runs {
				if run := &a.runs[i]; run.block != nil {
					if _, ok := run.block.lookup(run.provides, g); ok {
						return 0, false
					}
				}
			}
		}
	}
	start := a.next
	a.next += int32(len(p.foreign))
	a.runs = append(a.runs, apiRun{start: start, block: p, provides: provides})
	return start, true
}

// gvk returns the API numbered id.
func (a *apiNumbers) gvk(id int32) *graph.GVK {
	if int(id) < len(a.r.gvks) {
		return &a.r.gvks[id]
	}
	i := sort.Search(len(a.runs), func(i int) bool { return a.runs[i].start > id }) - 1
	run := &a.runs[i]
	if run.block != nil {
		return &run.provides[run.block.foreign[id-run.start]]
	}
	return &run.gvks[id-run.start]
}
