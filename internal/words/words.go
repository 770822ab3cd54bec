// Package words joins lists into English prose, the one way every report
// of the library writes a list.
package words

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Join joins s into a phrase with conj before the last item: "a", "a or
// b", "a, b or c"; "nothing" for an empty list.
func Join(s []string, conj string) string {
	switch len(s) {
	case 0:
		return "nothing"
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " " + conj + " " + s[len(s)-1]
}

// Plural returns "1 word" or "n words".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// IsAre returns "is" for one, "are" for several.
func IsAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// Limit keeps the first n names and counts the rest: "a", "b", "3 more".
func Limit(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return append(slices.Clone(s[:n]), fmt.Sprintf("%d more", len(s)-n))
}

// First joins the first n items of s with commas and counts the rest: "a,
// b and 3 more"; all of s, joined so, when it has at most n ("a, b"; ""
// for none). Unlike Join it puts no conjunction between the items: a list
// cut short reads as a sample.
func First(s []string, n int) string {
	n = max(n, 0)
	if len(s) <= n {
		return strings.Join(s, ", ")
	}
	return strings.Join(s[:n], ", ") + " and " + strconv.Itoa(len(s)-n) + " more"
}
