package godiff

// editType is one step of an edit script between two lists.
type editType uint8

const (
	identity editType = iota // the pair is equal
	uniqueX                  // an element of x only
	uniqueY                  // an element of y only
	modified                 // the pair differs, but is similar
)

type editScript []editType

// dist counts the steps that are not identities.
func (es editScript) dist() int {
	n := 0
	for _, e := range es {
		if e != identity {
			n++
		}
	}
	return n
}

// difference returns go-cmp's edit script between lists of lengths nx and
// ny whose pairs eq compares: not a minimal one, but the one its greedy
// meet-in-the-middle search finds (internal/diff.Difference), searching
// forward first as it does in its deterministic mode. Its search budget
// bounds the cost to O(nx+ny) comparisons beyond the matched runs.
func difference(nx, ny int, eq func(ix, iy int) result) editScript {
	fwd := path{dir: 1, es: make(editScript, 0, (nx+ny)/2)}
	rev := path{dir: -1, pt: point{nx, ny}}
	fwdFrontier, revFrontier := fwd.pt, rev.pt
	budget := 4 * (nx + ny)
	forward := true
	for fwdFrontier.x < revFrontier.x && fwdFrontier.y < revFrontier.y && budget > 0 {
		if forward {
			for stop1, stop2, i := false, false, 0; !(stop1 && stop2) && budget > 0; i++ {
				z := zigzag(i)
				p := point{fwdFrontier.x + z, fwdFrontier.y - z}
				switch {
				case p.x >= rev.pt.x || p.y < fwd.pt.y:
					stop1 = true
				case p.y >= rev.pt.y || p.x < fwd.pt.x:
					stop2 = true
				case eq(p.x, p.y).equal():
					fwd.connect(p, eq)
					fwd.add(identity)
					for fwd.pt.x < rev.pt.x && fwd.pt.y < rev.pt.y && eq(fwd.pt.x, fwd.pt.y).equal() {
						fwd.add(identity)
					}
					fwdFrontier = fwd.pt
					stop1, stop2 = true, true
				default:
					budget--
				}
			}
			if rev.pt.x-fwdFrontier.x >= rev.pt.y-fwdFrontier.y {
				fwdFrontier.x++
			} else {
				fwdFrontier.y++
			}
		} else {
			for stop1, stop2, i := false, false, 0; !(stop1 && stop2) && budget > 0; i++ {
				z := zigzag(i)
				p := point{revFrontier.x - z, revFrontier.y + z}
				switch {
				case fwd.pt.x >= p.x || rev.pt.y < p.y:
					stop1 = true
				case fwd.pt.y >= p.y || rev.pt.x < p.x:
					stop2 = true
				case eq(p.x-1, p.y-1).equal():
					rev.connect(p, eq)
					rev.add(identity)
					for fwd.pt.x < rev.pt.x && fwd.pt.y < rev.pt.y && eq(rev.pt.x-1, rev.pt.y-1).equal() {
						rev.add(identity)
					}
					revFrontier = rev.pt
					stop1, stop2 = true, true
				default:
					budget--
				}
			}
			if revFrontier.x-fwd.pt.x >= revFrontier.y-fwd.pt.y {
				revFrontier.x--
			} else {
				revFrontier.y--
			}
		}
		forward = !forward
	}
	fwd.connect(rev.pt, eq)
	for i := len(rev.es) - 1; i >= 0; i-- {
		fwd.add(rev.es[i])
	}
	return fwd.es
}

type point struct{ x, y int }

type path struct {
	dir int // +1 forward, -1 reverse
	pt  point
	es  editScript
}

func (p *path) add(t editType) {
	p.es = append(p.es, t)
	switch t {
	case identity, modified:
		p.pt.x += p.dir
		p.pt.y += p.dir
	case uniqueX:
		p.pt.x += p.dir
	case uniqueY:
		p.pt.y += p.dir
	}
}

// connect adds the steps from p's point to dst.
func (p *path) connect(dst point, eq func(ix, iy int) result) {
	if p.dir > 0 {
		for dst.x > p.pt.x && dst.y > p.pt.y {
			switch r := eq(p.pt.x, p.pt.y); {
			case r.equal():
				p.add(identity)
			case r.similar():
				p.add(modified)
			case dst.x-p.pt.x >= dst.y-p.pt.y:
				p.add(uniqueX)
			default:
				p.add(uniqueY)
			}
		}
		for dst.x > p.pt.x {
			p.add(uniqueX)
		}
		for dst.y > p.pt.y {
			p.add(uniqueY)
		}
		return
	}
	for p.pt.x > dst.x && p.pt.y > dst.y {
		switch r := eq(p.pt.x-1, p.pt.y-1); {
		case r.equal():
			p.add(identity)
		case r.similar():
			p.add(modified)
		case p.pt.y-dst.y >= p.pt.x-dst.x:
			p.add(uniqueY)
		default:
			p.add(uniqueX)
		}
	}
	for p.pt.x > dst.x {
		p.add(uniqueX)
	}
	for p.pt.y > dst.y {
		p.add(uniqueY)
	}
}

// zigzag maps 0, 1, 2, 3, 4, ... to 0, -1, +1, -2, +2, ...
func zigzag(x int) int {
	if x&1 != 0 {
		x = ^x
	}
	return x >> 1
}
