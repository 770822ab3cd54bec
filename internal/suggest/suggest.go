// Package suggest finds the name a user most likely meant: the one "did you
// mean" of every message that meets a name matching nothing (a field, a
// kind, a package, a channel, an API).
package suggest

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Nearest returns the name of known closest to s when s is a likely typo of
// it, else "". A likely typo is the same name in another case, or a name
// at most one edit away (a character added, dropped, changed, or two
// swapped) for names of three to seven characters, two for longer ones,
// without regard to case; names that differ only in their digits (lib.v1,
// lib.v9) are different names, not typos. Between names as close, the
// first in known wins; s itself (an exact match) is never suggested, and
// nothing is suggested for an empty s.
func Nearest(s string, known []string) string {
	if s == "" {
		return ""
	}
	n := utf8.RuneCountInString(s)
	limit := 2
	switch {
	case n < 3:
		limit = 0
	case n < 8:
		limit = 1
	}
	best, bestD := "", limit+1
	ls := []rune(strings.ToLower(s))
	for _, k := range known {
		if k == s {
			continue
		}
		if strings.EqualFold(k, s) {
			return k
		}
		if limit == 0 || abs(len(k)-len(s)) > 4*limit {
			continue // too far apart in length (bytes; a rune is at most 4)
		}
		if d := distance(ls, []rune(strings.ToLower(k)), limit); d < bestD && !digitsOnly(s, k) {
			best, bestD = k, d
		}
	}
	return best
}

// Message returns ` (did you mean "x"?)` for the nearest of known to s,
// or "" when none is close.
func Message(s string, known []string) string {
	if near := Nearest(s, known); near != "" {
		return ` (did you mean "` + near + `"?)`
	}
	return ""
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// digitsOnly reports whether a and b are the same but for their digits.
func digitsOnly(a, b string) bool {
	strip := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsDigit(r) {
				return -1
			}
			return r
		}, s)
	}
	return strip(a) == strip(b)
}

// distance is the edit distance between a and b — insertions, deletions,
// substitutions and swaps of two neighbours — or a number above limit once
// it is sure to exceed it.
func distance(a, b []rune, limit int) int {
	if abs(len(a)-len(b)) > limit {
		return limit + 1
	}
	// Three rows: the one before the previous (for swaps), the previous,
	// the current.
	pp := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], pp[j-2]+1)
			}
			low = min(low, cur[j])
		}
		if low > limit {
			return limit + 1
		}
		pp, prev, cur = prev, cur, pp
	}
	return prev[len(b)]
}
