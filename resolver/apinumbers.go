package resolver

import (
	"runtime"
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
// else -1-k where foreign[k] is the API (each API no catalog provides once,
// in the order first listed; index is the inverse of foreign).
type providedAPIs struct {
	ids     []int32
	foreign []graph.GVK
	index   map[graph.GVK]int32
}

// apiCache holds a Resolver's providedAPIs, by the typed properties they
// were computed from. An entry lives as long as its properties: a weak
// key, deleted once the properties are collected.
type apiCache struct {
	mu sync.Mutex
	m  map[weak.Pointer[graph.Bundle]]*providedAPIs
}

// providedAPIs returns the numbered APIs of the typed properties bd,
// numbering them the first time.
func (r *Resolver) providedAPIs(bd *graph.Bundle) *providedAPIs {
	key := weak.Make(bd)
	c := &r.apis
	c.mu.Lock()
	p := c.m[key]
	c.mu.Unlock()
	if p != nil {
		return p
	}
	p = &providedAPIs{ids: make([]int32, len(bd.Provides))}
	for i, g := range bd.Provides {
		if id, ok := r.gvkIDs[g]; ok {
			p.ids[i] = id
			continue
		}
		if p.index == nil {
			p.index = make(map[graph.GVK]int32, len(bd.Provides)-i)
		}
		k, ok := p.index[g]
		if !ok {
			k = int32(len(p.foreign))
			p.index[g] = k
			p.foreign = append(p.foreign, g)
		}
		p.ids[i] = -1 - k
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if q := c.m[key]; q != nil {
		return q // numbered meanwhile by another resolution: the same numbers
	}
	if c.m == nil {
		c.m = map[weak.Pointer[graph.Bundle]]*providedAPIs{}
	}
	c.m[key] = p
	runtime.AddCleanup(bd, func(k weak.Pointer[graph.Bundle]) {
		c.mu.Lock()
		delete(c.m, k)
		c.mu.Unlock()
	}, key)
	return p
}

// apiNumbers numbers, for one resolution, the APIs only installed CSVs
// provide, after the Resolver's: one at a time (one), or as the run of a
// providedAPIs' foreign list (a block), which costs nothing per API.
// Every API gets one number whichever way it was first met.
type apiNumbers struct {
	r    *Resolver
	next int32 // the next number
	one  map[graph.GVK]int32
	runs []apiRun // by start
}

// apiRun is a run of numbers from start: APIs numbered one at a time, or a
// block's foreign list.
type apiRun struct {
	start int32
	gvks  []graph.GVK
	block *providedAPIs
}

func newAPINumbers(r *Resolver) *apiNumbers {
	return &apiNumbers{r: r, next: int32(len(r.gvks))}
}

// id returns g's number, numbering it if it has none.
func (a *apiNumbers) id(g graph.GVK, room int) int32 {
	if id, ok := a.r.gvkIDs[g]; ok {
		return id
	}
	if id, ok := a.one[g]; ok {
		return id
	}
	for i := range a.runs {
		if b := a.runs[i].block; b != nil {
			if k, ok := b.index[g]; ok {
				return a.runs[i].start + k
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

// block numbers p's foreign APIs as one run and returns its start; false
// when one of them already has a number (then they are numbered one at a
// time, with id).
func (a *apiNumbers) block(p *providedAPIs) (int32, bool) {
	for i := range a.runs {
		if a.runs[i].block == p {
			return a.runs[i].start, true
		}
	}
	if len(a.runs) > 0 {
		for _, g := range p.foreign {
			if _, ok := a.one[g]; ok {
				return 0, false
			}
			for i := range a.runs {
				if b := a.runs[i].block; b != nil {
					if _, ok := b.index[g]; ok {
						return 0, false
					}
				}
			}
		}
	}
	start := a.next
	a.next += int32(len(p.foreign))
	a.runs = append(a.runs, apiRun{start: start, gvks: p.foreign, block: p})
	return start, true
}

// gvk returns the API numbered id.
func (a *apiNumbers) gvk(id int32) *graph.GVK {
	if int(id) < len(a.r.gvks) {
		return &a.r.gvks[id]
	}
	i := sort.Search(len(a.runs), func(i int) bool { return a.runs[i].start > id }) - 1
	return &a.runs[i].gvks[id-a.runs[i].start]
}
