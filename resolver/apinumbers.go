package resolver

import (
	"hash/maphash"
	"math"
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
	index   apiIndex
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

// number numbers provides. The APIs no catalog provides are found twice
// by sorting their hashes, not through a map of the APIs (some 100 bytes
// an entry, each written at random): for the hundreds of thousands of APIs
// an annotation may list.
func (p *providedAPIs) number(r *Resolver, provides []graph.GVK) {
	p.ids = make([]int32, len(provides))
	for i, g := range provides {
		if id, ok := r.gvkIDs[g]; ok {
			p.ids[i] = id
			continue
		}
		if p.index.keys == nil {
			p.index = apiIndex{seed: maphash.MakeSeed(), keys: make([]uint64, 0, len(provides)-i)}
		}
		p.ids[i] = unnumbered
		p.index.keys = append(p.index.keys, p.index.key(g, i))
	}
	if p.index.keys == nil {
		return
	}
	slices.Sort(p.index.keys)
	// An API listed again is numbered as where it is first listed: first
	// is its first place, for each later one (seldom any).
	var first map[int32]int32
	keys := p.index.keys
	for a := 0; a < len(keys); {
		b := a + 1
		for b < len(keys) && keys[b]>>indexBits == keys[a]>>indexBits {
			b++
		}
		for x := a + 1; x < b; x++ { // the same hash: the same API, or not
			i := int32(keys[x] & indexMask)
			for y := a; y < x; y++ { // by place: the first equal is the first place
				if j := int32(keys[y] & indexMask); provides[i] == provides[j] {
					if first == nil {
						first = map[int32]int32{}
					}
					first[i] = j
					break
				}
			}
		}
		a = b
	}
	p.foreign = make([]int32, 0, len(keys)-len(first))
	for i, id := range p.ids {
		if id != unnumbered {
			continue
		}
		if j, ok := first[int32(i)]; ok {
			p.ids[i] = p.ids[j] // numbered: j < i
			continue
		}
		p.ids[i] = -1 - int32(len(p.foreign))
		p.foreign = append(p.foreign, int32(i))
	}
}

// unnumbered marks, while numbering, an API no catalog provides.
const unnumbered = math.MinInt32

// lookup returns k when g is the k-th API of p's list provides no catalog
// provides.
func (p *providedAPIs) lookup(provides []graph.GVK, g graph.GVK) (int32, bool) {
	keys := p.index.keys
	h := p.index.key(g, 0)
	for x, _ := slices.BinarySearch(keys, h); x < len(keys) && keys[x]>>indexBits == h>>indexBits; x++ {
		if i := keys[x] & indexMask; provides[i] == g {
			return -1 - p.ids[i], true
		}
	}
	return 0, false
}

// apiIndex finds the APIs of a list that no catalog provides (a
// providedAPIs' foreign APIs): for each, its hash's high bits and its
// place in the list in one number, sorted.
type apiIndex struct {
	seed maphash.Seed
	keys []uint64
}

// The low indexBits bits of a key are the API's place in its list.
const (
	indexBits = 31
	indexMask = 1<<indexBits - 1
)

// key returns the key of API g at place i.
func (x *apiIndex) key(g graph.GVK, i int) uint64 {
	return maphash.Comparable(x.seed, g)>>indexBits<<indexBits | uint64(i)
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
