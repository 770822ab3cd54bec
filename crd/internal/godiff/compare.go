package godiff

// node is one node of the comparison tree: what go-cmp's reporter records
// of each step of its walk (valueNode).
type node struct {
	parent *node
	t      *Type
	x, y   *Value // nil: absent on that side
	// numSame and numDiff count the equal and unequal leaves below.
	numSame, numDiff int
	// numChildren counts every node below; maxDepth is the tree's depth
	// below (0 for a leaf).
	numChildren, maxDepth int
	// records are a struct's fields, a slice's elements or a map's
	// entries; value is what a pointer points to.
	records []record
	value   *node
}

type record struct {
	// key is the field name or the map key; hasKey is unset for slice
	// elements.
	key    string
	hasKey bool
	isMap  bool
	value  *node
}

// result is go-cmp's diff.Result: the equal and unequal leaves of a
// comparison.
type result struct{ same, diff int }

func (r result) equal() bool   { return r.diff == 0 }
func (r result) similar() bool { return r.same+1 >= r.diff }

// compare builds the comparison tree of x and y, of type t.
func compare(t *Type, x, y *Value) *node {
	n := &node{t: t, x: x, y: y}
	n.walk()
	return n
}

// child adds a child node for a step into (x, y) of type t.
func (n *node) child(t *Type, x, y *Value) *node {
	c := &node{parent: n, t: t, x: x, y: y}
	c.walk()
	n.numSame += c.numSame
	n.numDiff += c.numDiff
	n.numChildren += c.numChildren + 1
	n.maxDepth = max(n.maxDepth, c.maxDepth+1)
	return c
}

func (n *node) report(eq bool) {
	if eq {
		n.numSame++
	} else {
		n.numDiff++
	}
}

// walk compares n.x and n.y as go-cmp's compareAny does.
func (n *node) walk() {
	x, y := n.x, n.y
	if x == nil || y == nil {
		n.report(x == nil && y == nil)
		return
	}
	switch n.t.Kind {
	case Bool:
		n.report(x.Bool == y.Bool)
	case Int, Uint8:
		n.report(x.Int == y.Int)
	case Float:
		n.report(x.Float == y.Float)
	case String:
		n.report(x.Str == y.Str)
	case Struct:
		for i, name := range n.t.Fields {
			c := n.child(x.Fields[i].T, x.Fields[i], y.Fields[i])
			n.records = append(n.records, record{key: name, hasKey: true, value: c})
		}
	case Ptr:
		if x.Nil || y.Nil {
			n.report(x.Nil && y.Nil)
			return
		}
		n.value = n.child(n.t.Elem, x.Elem, y.Elem)
	case Map:
		if x.Nil || y.Nil {
			n.report(x.Nil && y.Nil)
			return
		}
		n.walkMap()
	case Slice:
		if x.Nil || y.Nil {
			n.report(x.Nil && y.Nil)
			return
		}
		n.walkSlice()
	}
}

func (n *node) walkMap() {
	x, y := n.x, n.y
	i, j := 0, 0
	for i < len(x.Keys) || j < len(y.Keys) {
		var k string
		var vx, vy *Value
		switch {
		case j == len(y.Keys) || i < len(x.Keys) && x.Keys[i] < y.Keys[j]:
			k, vx = x.Keys[i], x.Vals[i]
			i++
		case i == len(x.Keys) || y.Keys[j] < x.Keys[i]:
			k, vy = y.Keys[j], y.Vals[j]
			j++
		default:
			k, vx, vy = x.Keys[i], x.Vals[i], y.Vals[j]
			i++
			j++
		}
		c := n.child(n.t.Elem, vx, vy)
		n.records = append(n.records, record{key: k, hasKey: true, isMap: true, value: c})
	}
}

func (n *node) walkSlice() {
	x, y := n.x, n.y
	edits := difference(len(x.Elems), len(y.Elems), func(ix, iy int) result {
		c := compare(n.t.Elem, x.Elems[ix], y.Elems[iy])
		return result{c.numSame, c.numDiff}
	})
	ix, iy := 0, 0
	for _, e := range edits {
		var vx, vy *Value
		switch e {
		case uniqueX:
			vx = x.Elems[ix]
			ix++
		case uniqueY:
			vy = y.Elems[iy]
			iy++
		default:
			vx, vy = x.Elems[ix], y.Elems[iy]
			ix++
			iy++
		}
		c := n.child(n.t.Elem, vx, vy)
		n.records = append(n.records, record{value: c})
	}
}
