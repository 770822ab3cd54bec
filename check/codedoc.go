package check

import (
	"slices"

	"github.com/sextantdev/sextant/graph"
)

// CodeDoc documents one finding code: its usual severity, the check that
// reports it ("baseline" for the regressions of a baseline comparison) and what
// it means, in Markdown (code in backquotes). The text is CHECKS.md's: a
// test keeps the two the same.
type CodeDoc struct {
	Code     string
	Severity graph.Severity
	Check    string
	Help     string
}

// Codes returns the documentation of every finding code of graph's
// structural checks and of this package, sorted by code. The caller owns
// the returned slice.
func Codes() []CodeDoc { return slices.Clone(codeDocs) }

// CodeDocOf returns the documentation of code, and whether it is a known
// code.
func CodeDocOf(code string) (CodeDoc, bool) {
	i, ok := slices.BinarySearchFunc(codeDocs, code, func(d CodeDoc, c string) int {
		if d.Code < c {
			return -1
		}
		if d.Code > c {
			return 1
		}
		return 0
	})
	if !ok {
		return CodeDoc{}, false
	}
	return codeDocs[i], true
}
