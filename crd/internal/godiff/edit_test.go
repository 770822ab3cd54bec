package godiff

import "testing"

// FuzzDifference checks the edit script of two byte strings: it consumes
// both whole, pairs as identical only equal elements, and is all
// identities exactly when the strings are equal.
func FuzzDifference(f *testing.F) {
	f.Add([]byte("ABCABBA"), []byte("CBABAC"))
	f.Add([]byte(""), []byte("x"))
	f.Add([]byte("same"), []byte("same"))
	f.Fuzz(func(t *testing.T, x, y []byte) {
		es := difference(len(x), len(y), func(ix, iy int) result { return boolResult(x[ix] == y[iy]) })
		ix, iy := 0, 0
		for _, e := range es {
			switch e {
			case identity:
				if x[ix] != y[iy] {
					t.Fatalf("identity of %q and %q", x[ix], y[iy])
				}
				ix++
				iy++
			case modified:
				t.Fatal("a boolean comparison is never similar")
			case uniqueX:
				ix++
			case uniqueY:
				iy++
			}
		}
		if ix != len(x) || iy != len(y) {
			t.Fatalf("script %v consumes %d of %d and %d of %d", es, ix, len(x), iy, len(y))
		}
		if (es.dist() == 0) != (string(x) == string(y)) {
			t.Fatalf("distance %d for %q and %q", es.dist(), x, y)
		}
	})
}
