package resolvertest

import (
	"strings"
	"testing"

	"github.com/sextantdev/sextant/resolver"
)

// Diff compares two texts line by line. It returns "" when they are equal,
// otherwise every line of both, prefixed "-" (only in want), "+" (only in
// got) or " " (in both), in the order of a longest common subsequence —
// a readable diff for the short texts plans and conflicts are.
func Diff(want, got string) string {
	if want == got {
		return ""
	}
	a, b := lines(want), lines(got)
	// lcs[i][j] is the length of the longest common subsequence of a[i:]
	// and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			out.WriteString("  " + a[i] + "\n")
			i, j = i+1, j+1
		case j < len(b) && (i == len(a) || lcs[i][j+1] > lcs[i+1][j]):
			out.WriteString("+ " + b[j] + "\n")
			j++
		default:
			out.WriteString("- " + a[i] + "\n")
			i++
		}
	}
	if out.Len() == 0 || (!strings.Contains(out.String(), "\n- ") && !strings.Contains(out.String(), "\n+ ") &&
		!strings.HasPrefix(out.String(), "- ") && !strings.HasPrefix(out.String(), "+ ")) {
		// Only the final newline differs.
		return "(the texts differ only in their final newline)\n"
	}
	return out.String()
}

// lines splits s into lines, without the final newline.
func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// CheckText reports an error on t, with a diff, when got differs from
// want. It returns whether they are equal.
func CheckText(t testing.TB, got, want string) bool {
	t.Helper()
	if d := Diff(want, got); d != "" {
		t.Errorf("result differs from want (-want +got):\n%s", d)
		return false
	}
	return true
}

// CheckResult reports an error on t, with a diff, when the result of
// Resolver.Resolve, rendered by FormatResult, differs from want. It returns
// whether they are equal.
func CheckResult(t testing.TB, plan *resolver.Plan, err error, want string) bool {
	t.Helper()
	return CheckText(t, FormatResult(plan, err), want)
}
