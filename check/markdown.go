package check

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/graph"
)

// Limits of WriteMarkdown, so that a report fits a pull-request comment
// (GitHub takes 65,536 characters) and stays short enough to read.
const (
	// mdBudget is how many bytes of findings a report lists, over all its
	// sections; the findings past it are counted, not listed.
	mdBudget = 48000
	// mdOpen is how many findings of one package are listed outside a
	// <details> block.
	mdOpen = 5
	// mdMessage is the longest message written, in bytes; longer ones are
	// cut with "…".
	mdMessage = 400
)

// WriteMarkdown writes the report as GitHub-flavoured Markdown for a
// pull-request comment: per catalog a heading, the comparison with the
// baseline when there is one, a table of counts by severity and code (new
// and existing apart with a baseline), then the findings grouped by
// package, most severe package first — with a baseline the new findings
// first, then the existing and the resolved ones folded in <details>.
// A package with more than a few findings is folded too, and the listing
// stops after about 48 kB of findings (the rest are counted), so that the
// comment fits GitHub's limit. The same report always
// gives the same text. It returns the first write error.
func (r *Report) WriteMarkdown(w io.Writer) error {
	bw := bufio.NewWriter(w)
	budget := mdBudget
	for _, s := range r.Catalogs {
		var fs, resolved []Finding
		for _, f := range r.Findings {
			if f.Catalog == s.Name {
				fs = append(fs, f)
			}
		}
		for _, f := range r.Resolved {
			if f.Catalog == s.Name {
				resolved = append(resolved, f)
			}
		}
		fmt.Fprintf(bw, "### Sextant check: `%s`\n\n", mdCode(s.Name))
		fmt.Fprintf(bw, "%s, %s, %s.", plural(s.Packages, "package", "packages"),
			plural(s.Channels, "channel", "channels"), plural(s.Bundles, "bundle", "bundles"))
		if b := s.Baseline; b != nil {
			fmt.Fprintf(bw, " Against the baseline: **%s** (%s), %d existing, %d resolved; packages +%d −%d, channels +%d −%d, bundles +%d −%d.",
				plural(b.New, "new finding", "new findings"), plural(r.regressions(s.Name), "regression", "regressions"),
				b.Existing, b.Resolved, b.PackagesAdded, b.PackagesRemoved, b.ChannelsAdded, b.ChannelsRemoved, b.BundlesAdded, b.BundlesRemoved)
			if s := b.Added.describe(5); s != "" {
				fmt.Fprintf(bw, " Added: %s.", mdText(s))
			}
			if s := b.Removed.describe(5); s != "" {
				fmt.Fprintf(bw, " Removed: %s.", mdText(s))
			}
		}
		bw.WriteString("\n\n")
		if len(fs) == 0 && len(resolved) == 0 && !slices.ContainsFunc(r.Suppressed, func(f Finding) bool { return f.Catalog == s.Name }) {
			bw.WriteString("No findings.\n\n")
			continue
		}
		writeMarkdownCounts(bw, fs, s.Baseline != nil)
		if s.Baseline == nil {
			writeMarkdownFindings(bw, fs, &budget)
			writeMarkdownSuppressed(bw, r.Suppressed, s.Name, &budget)
			continue
		}
		var fresh, old []Finding
		for _, f := range fs {
			if f.Status == StatusNew {
				fresh = append(fresh, f)
			} else {
				old = append(old, f)
			}
		}
		if len(fresh) == 0 {
			bw.WriteString("**No new findings.**\n\n")
		} else {
			fmt.Fprintf(bw, "#### New findings (%d)\n\n", len(fresh))
			writeMarkdownFindings(bw, fresh, &budget)
		}
		if len(old) > 0 {
			fmt.Fprintf(bw, "<details><summary>Existing findings (%d), already in the baseline</summary>\n\n", len(old))
			writeMarkdownFindings(bw, old, &budget)
			bw.WriteString("</details>\n\n")
		}
		if len(resolved) > 0 {
			fmt.Fprintf(bw, "<details><summary>Resolved findings (%d): in the baseline, not any more</summary>\n\n", len(resolved))
			writeMarkdownFindings(bw, resolved, &budget)
			bw.WriteString("</details>\n\n")
		}
		writeMarkdownSuppressed(bw, r.Suppressed, s.Name, &budget)
	}
	return bw.Flush()
}

// writeMarkdownSuppressed writes the suppressed findings of catalog name
// folded, each with the reason that accepts it.
func writeMarkdownSuppressed(w *bufio.Writer, all []Finding, name string, budget *int) {
	var fs []Finding
	for _, f := range all {
		if f.Catalog == name {
			first, rest, multi := strings.Cut(f.Message, "\n")
			f.Message = first + " — suppressed: " + f.Suppression.Reason
			if multi {
				f.Message += "\n" + rest
			}
			fs = append(fs, f)
		}
	}
	if len(fs) == 0 {
		return
	}
	fmt.Fprintf(w, "<details><summary>Suppressed findings (%d), accepted in the suppressions file</summary>\n\n", len(fs))
	writeMarkdownFindings(w, fs, budget)
	w.WriteString("</details>\n\n")
}

// writeMarkdownCounts writes the table of counts by severity and code,
// most severe first.
func writeMarkdownCounts(w *bufio.Writer, fs []Finding, baseline bool) {
	type row struct {
		sev           graph.Severity
		code          string
		fresh, exists int
	}
	byKey := map[string]*row{}
	var rows []*row
	for _, f := range fs {
		k := f.Severity.String() + " " + f.Code
		rw := byKey[k]
		if rw == nil {
			rw = &row{sev: f.Severity, code: f.Code}
			byKey[k] = rw
			rows = append(rows, rw)
		}
		if f.Status == StatusNew {
			rw.fresh++
		} else {
			rw.exists++
		}
	}
	slices.SortFunc(rows, func(a, b *row) int { return cmp.Or(cmp.Compare(b.sev, a.sev), strings.Compare(a.code, b.code)) })
	if baseline {
		w.WriteString("| severity | code | new | existing |\n| --- | --- | ---: | ---: |\n")
		for _, rw := range rows {
			fresh := fmt.Sprint(rw.fresh)
			if rw.fresh > 0 {
				fresh = "**" + fresh + "**"
			}
			fmt.Fprintf(w, "| %s | `%s` | %s | %d |\n", rw.sev.String(), rw.code, fresh, rw.exists)
		}
	} else {
		w.WriteString("| severity | code | count |\n| --- | --- | ---: |\n")
		for _, rw := range rows {
			fmt.Fprintf(w, "| %s | `%s` | %d |\n", rw.sev.String(), rw.code, rw.fresh+rw.exists)
		}
	}
	w.WriteString("\n")
}

// writeMarkdownFindings writes findings grouped by package, the packages
// with the most severe findings first (then by name), each package's
// findings most severe first, until the budget of bytes is spent.
func writeMarkdownFindings(w *bufio.Writer, fs []Finding, budget *int) {
	type group struct {
		pkg string
		max graph.Severity
		fs  []Finding
	}
	var groups []*group
	byPkg := map[string]*group{}
	for _, f := range fs {
		g := byPkg[f.Package]
		if g == nil {
			g = &group{pkg: f.Package, max: f.Severity}
			byPkg[f.Package] = g
			groups = append(groups, g)
		}
		g.max = max(g.max, f.Severity)
		g.fs = append(g.fs, f)
	}
	slices.SortStableFunc(groups, func(a, b *group) int { return cmp.Compare(b.max, a.max) })
	left := len(fs)
	for gi, g := range groups {
		if *budget <= 0 {
			fmt.Fprintf(w, "… and %s in %s more (`sextant check` lists them all).\n\n",
				plural(left, "finding", "findings"), plural(len(groups)-gi, "package", "packages"))
			return
		}
		slices.SortStableFunc(g.fs, func(a, b Finding) int { return cmp.Compare(b.Severity, a.Severity) })
		name := g.pkg
		if name == "" {
			name = "(catalog)"
		}
		folded := len(g.fs) > mdOpen
		if folded {
			fmt.Fprintf(w, "<details><summary><b>%s</b>: %s</summary>\n\n", mdHTML(name), severityCounts(g.fs))
		} else {
			fmt.Fprintf(w, "**%s**\n\n", mdText(name))
		}
		for i, f := range g.fs {
			if *budget <= 0 {
				fmt.Fprintf(w, "- … and %d more of this package\n", len(g.fs)-i)
				break
			}
			item := markdownFinding(f)
			*budget -= len(item)
			w.WriteString(item)
		}
		left -= len(g.fs)
		w.WriteString("\n")
		if folded {
			w.WriteString("</details>\n\n")
		}
	}
}

// markdownFinding returns one finding as a list item: severity, code,
// channel and bundle, message; the further lines of a message (the facts
// of an installability finding) as a nested list.
func markdownFinding(f Finding) string {
	var w strings.Builder
	first, rest, _ := strings.Cut(f.Message, "\n")
	fmt.Fprintf(&w, "- %s `%s`", f.Severity.String(), f.Code)
	var where []string
	if f.Channel != "" {
		where = append(where, "channel `"+mdCode(f.Channel)+"`")
	}
	if f.Bundle != "" {
		where = append(where, "`"+mdCode(f.Bundle)+"`")
	}
	if len(where) > 0 {
		fmt.Fprintf(&w, " %s", strings.Join(where, " "))
	}
	fmt.Fprintf(&w, ": %s", mdText(cut(first, mdMessage)))
	if f.Pos.File != "" && f.Pos.Line > 0 {
		fmt.Fprintf(&w, " (`%s`)", mdCode(f.Pos.String()))
	}
	w.WriteString("\n")
	if rest != "" {
		for _, line := range strings.Split(rest, "\n") {
			line = strings.TrimPrefix(strings.TrimSpace(line), "- ")
			if line != "" {
				fmt.Fprintf(&w, "  - %s\n", mdText(cut(line, mdMessage)))
			}
		}
	}
	return w.String()
}

// severityCounts returns "2 errors, 1 warning" for the findings.
func severityCounts(fs []Finding) string {
	var n [3]int
	for _, f := range fs {
		switch {
		case f.Severity >= graph.SeverityError:
			n[0]++
		case f.Severity == graph.SeverityWarning:
			n[1]++
		default:
			n[2]++
		}
	}
	var parts []string
	if n[0] > 0 {
		parts = append(parts, plural(n[0], "error", "errors"))
	}
	if n[1] > 0 {
		parts = append(parts, plural(n[1], "warning", "warnings"))
	}
	if n[2] > 0 {
		parts = append(parts, fmt.Sprintf("%d info", n[2]))
	}
	return strings.Join(parts, ", ")
}

// cut shortens s to at most n bytes, at a rune boundary, ending in "…".
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !isRuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// mdText escapes what Markdown or HTML would interpret in running text:
// tags (a skipRange "<v2.3.1"), emphasis and code marks, table pipes.
var mdText = strings.NewReplacer(
	"&", "&amp;", "<", "&lt;", ">", "&gt;",
	"*", `\*`, "_", `\_`, "`", "\\`", "|", `\|`, "[", `\[`, "]", `\]`,
).Replace

// mdHTML escapes text inside an HTML element.
var mdHTML = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace

// mdCode makes text safe inside a `code span` (no backquote can end it).
func mdCode(s string) string { return strings.ReplaceAll(s, "`", "'") }
