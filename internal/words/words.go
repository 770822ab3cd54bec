// Package words joins lists into English prose, the one way every report
// of the library writes a list.
package words

import "strings"

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
