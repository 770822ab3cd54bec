package graph

import (
	"slices"
	"strings"

	"github.com/blang/semver/v4"
)

// This file answers skipRange questions by version order: the entries a
// skipRange contains are found as runs of the channel's entries sorted by
// version (binary searches on the range's bounds), never by testing the
// range against every entry. A channel of n entries that each skipRange all
// earlier ones implies n·(n-1)/2 edges; the checks and distances that read
// it through these runs cost n·log n.

// versionOrder is the channel's entries with a valid version sorted by
// version, computed on first use.
type versionOrder struct {
	idx []int32 // entry indices by ascending version, then order position
	pos []int32 // per entry: index in idx, or -1
}

// versions returns the channel's version order, computing it once.
func (c *Channel) versions() *versionOrder {
	e := c.g.entries
	e.vonce.Do(func() {
		g := &c.g
		n := len(c.Entries)
		vo := &e.vorder
		vo.pos = make([]int32, n)
		for i := range n {
			vo.pos[i] = -1
			if !g.isDup(i) && g.vers[i] != nil {
				vo.idx = append(vo.idx, int32(i))
			}
		}
		slices.SortFunc(vo.idx, func(x, y int32) int {
			if d := g.vers[x].Compare(*g.vers[y]); d != 0 {
				return d
			}
			return int(g.orderPos[x] - g.orderPos[y])
		})
		for k, i := range vo.idx {
			vo.pos[i] = int32(k)
		}
	})
	return &e.vorder
}

// VersionOrder returns the entries of the channel whose bundle has a valid
// version, by ascending version (equal versions in Order). It is the order
// whose positions VersionRuns returns. The slice is freshly allocated.
func (c *Channel) VersionOrder() []string {
	return c.entryNames(c.versions().idx)
}

// VersionPosition returns the index of the entry named name in
// VersionOrder, or -1 when it is not an entry or its bundle has no valid
// version.
func (c *Channel) VersionPosition(name string) int {
	i := c.entryIndex(name)
	if i < 0 {
		return -1
	}
	return int(c.versions().pos[i])
}

// VersionRuns returns the entries of VersionOrder whose versions r
// contains, as half-open runs [lo, hi) of positions, ascending and
// disjoint; nil when r contains none (or is invalid). The entries of a
// skipRange's edges (see Edges) are those of its runs, less the entry that
// declares it. A range whose bounds are plain comparisons (<, <=, >, >=, =,
// joined by spaces and ||) costs a few binary searches; any other (!=,
// wildcards) is tested against every entry.
func (c *Channel) VersionRuns(r Range) [][2]int {
	if !r.Valid() {
		return nil
	}
	g := &c.g
	vo := c.versions()
	ver := func(k int) *semver.Version { return g.vers[vo.idx[k]] }
	n := len(vo.idx)
	var runs [][2]int
	add := func(lo, hi int) {
		if lo < hi {
			runs = append(runs, [2]int{lo, hi})
		}
	}
	ivs, ok := rangeIntervals(r.String())
	if ok {
		for _, iv := range ivs {
			lo, hi := 0, n
			if iv.lo != nil {
				// The first version above the bound (open) or at it (closed).
				if !iv.loOpen {
					lo, _ = slices.BinarySearchFunc(vo.idx, iv.lo, func(i int32, v *semver.Version) int {
						return cmpOr(g.vers[i].Compare(*v), 1)
					})
				} else {
					lo, _ = slices.BinarySearchFunc(vo.idx, iv.lo, func(i int32, v *semver.Version) int {
						return cmpOr(g.vers[i].Compare(*v), -1)
					})
				}
			}
			if iv.hi != nil {
				if iv.hiOpen {
					hi, _ = slices.BinarySearchFunc(vo.idx, iv.hi, func(i int32, v *semver.Version) int {
						return cmpOr(g.vers[i].Compare(*v), 1)
					})
				} else {
					hi, _ = slices.BinarySearchFunc(vo.idx, iv.hi, func(i int32, v *semver.Version) int {
						return cmpOr(g.vers[i].Compare(*v), -1)
					})
				}
			}
			add(lo, hi)
		}
		slices.SortFunc(runs, func(a, b [2]int) int { return a[0] - b[0] })
		runs = mergeRuns(runs)
		// The bounds must agree with the range itself at every run's edges;
		// if not, fall back to testing every entry.
		for _, rn := range runs {
			if !r.Contains(*ver(rn[0])) || !r.Contains(*ver(rn[1] - 1)) ||
				rn[0] > 0 && r.Contains(*ver(rn[0] - 1)) || rn[1] < n && r.Contains(*ver(rn[1])) {
				ok = false
				break
			}
		}
		if ok {
			return runs
		}
		runs = runs[:0]
	}
	start := -1
	for k := range n {
		in := r.Contains(*ver(k))
		switch {
		case in && start < 0:
			start = k
		case !in && start >= 0:
			runs = append(runs, [2]int{start, k})
			start = -1
		}
	}
	if start >= 0 {
		runs = append(runs, [2]int{start, n})
	}
	if len(runs) == 0 {
		return nil
	}
	return runs
}

func cmpOr(d, tie int) int {
	if d != 0 {
		return d
	}
	return tie
}

// mergeRuns merges overlapping or touching runs sorted by start.
func mergeRuns(runs [][2]int) [][2]int {
	out := runs[:0]
	for _, rn := range runs {
		if m := len(out); m > 0 && out[m-1][1] >= rn[0] {
			out[m-1][1] = max(out[m-1][1], rn[1])
			continue
		}
		out = append(out, rn)
	}
	return out
}

// interval is one conjunction of a range as bounds: nil for unbounded.
type interval struct {
	lo, hi         *semver.Version
	loOpen, hiOpen bool
}

// rangeIntervals reads a range written in blang/semver syntax as a union of
// intervals, when every comparison in it is one of <, <=, >, >=, =, == or
// none (equality) on a full version; ok is false otherwise (!=, wildcards,
// anything unusual), and for an empty conjunction. The caller checks the
// answer against the parsed range.
func rangeIntervals(text string) (ivs []interval, ok bool) {
	for _, part := range strings.Split(text, "||") {
		var iv interval
		// blang joins an operator to the version after spaces: ">= 1.0.0".
		fields := strings.Fields(part)
		var toks []string
		for k := 0; k < len(fields); k++ {
			f := fields[k]
			if strings.Trim(f, "<>=") == "" && k+1 < len(fields) {
				f += fields[k+1]
				k++
			}
			toks = append(toks, f)
		}
		if len(toks) == 0 {
			return nil, false
		}
		for _, t := range toks {
			op := t[:len(t)-len(strings.TrimLeft(t, "<>=!"))]
			v, err := semver.Parse(t[len(op):])
			if err != nil {
				return nil, false
			}
			switch op {
			case "<", "<=":
				if iv.hi == nil || v.LT(*iv.hi) || v.EQ(*iv.hi) && op == "<" {
					iv.hi, iv.hiOpen = &v, op == "<"
				}
			case ">", ">=":
				if iv.lo == nil || v.GT(*iv.lo) || v.EQ(*iv.lo) && op == ">" {
					iv.lo, iv.loOpen = &v, op == ">"
				}
			case "", "=", "==":
				w := v
				if iv.hi == nil || w.LT(*iv.hi) {
					iv.hi, iv.hiOpen = &w, false
				}
				if iv.lo == nil || v.GT(*iv.lo) {
					iv.lo, iv.loOpen = &v, false
				}
			default:
				return nil, false
			}
		}
		ivs = append(ivs, iv)
	}
	return ivs, true
}
