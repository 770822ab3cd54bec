package cli

import (
	"fmt"
	"strings"

	"github.com/sextantdev/sextant/cluster"
)

// maxSameLines is how many error lines of one kind, for one file, a
// command prints; the others are counted in one line "… and N more like
// the above". It is the manifests' bound (cluster.MaxSameErrors), applied
// to every input, so that a catalog of 30,000 malformed blobs answers in
// one screen too.
const maxSameLines = cluster.MaxSameErrors

// boundLines keeps, of lines (one problem each, "FILE:LINE: message" or
// "FILE: message"), the first maxSameLines of each kind of problem of each
// file, in order, and puts after the last one kept of a kind the count of
// those left out. A kind of problem is its message with the names (quoted
// text) and the numbers left out.
func boundLines(lines []string) []string {
	count := map[lineKey]int{}
	var order []lineKey
	for _, l := range lines {
		k := lineKind(l)
		if count[k] == 0 {
			order = append(order, k)
		}
		count[k]++
	}
	if len(count) == len(lines) {
		return lines // every line a kind of its own
	}
	over := false
	for _, k := range order {
		over = over || count[k] > maxSameLines
	}
	if !over {
		return lines
	}
	out := make([]string, 0, len(order)*(maxSameLines+1))
	seen := map[lineKey]int{}
	for _, l := range lines {
		k := lineKind(l)
		seen[k]++
		switch n := seen[k]; {
		case n <= maxSameLines:
			out = append(out, l)
			if n == maxSameLines && count[k] > n {
				out = append(out, fmt.Sprintf("%s: … and %d more like the above (%d in all)", k.file, count[k]-n, count[k]))
			}
		}
	}
	return out
}

// lineKey is a kind of problem of one file.
type lineKey struct{ file, shape string }

// lineKind returns the file an error line names and its message's shape.
func lineKind(l string) lineKey {
	head, msg, ok := strings.Cut(l, ": ")
	if !ok {
		return lineKey{"", shape(l)}
	}
	if i := strings.LastIndexByte(head, ':'); i >= 0 && isDigits(head[i+1:]) {
		head = head[:i] // FILE:LINE
	}
	return lineKey{head, shape(msg)}
}

// shape returns s with its quoted parts emptied ("…", and a character
// quoted as '…') and each run of digits made one '#'.
func shape(s string) string {
	var b strings.Builder
	var quote byte
	digits := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				b.WriteByte(c)
				quote = 0
			}
			continue
		case c == '"' || c == '\'' && quotedChar(s[i:]):
			quote = c
			b.WriteByte(c)
		case '0' <= c && c <= '9':
			if !digits {
				b.WriteByte('#')
			}
			digits = true
			continue
		default:
			b.WriteByte(c)
		}
		digits = false
	}
	return b.String()
}

// quotedChar reports whether s starts with a character quoted as Go quotes
// a rune ('x', '\n', '\u202e'), not an apostrophe.
func quotedChar(s string) bool {
	end := strings.IndexByte(s[1:], '\'')
	return end > 0 && end <= 10 && !strings.ContainsRune(s[1:1+end], ' ')
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
