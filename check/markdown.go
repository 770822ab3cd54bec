package check

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/safetext"
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
	// mdBrief and mdMessage are the longest brief and line of a message
	// written, in characters; longer ones are cut between words, marked
	// "…" (safetext.Shorten).
	mdBrief   = 400
	mdMessage = 1000
	// mdUpgrades is how many upgrade edges of a group are named; mdLines
	// how many lines of a message are written (operator-controller's CRD
	// messages have a line per change).
	mdUpgrades = 20
	mdLines    = 30
)

// WriteMarkdown writes the report as GitHub-flavoured Markdown for a
// pull-request comment: per catalog a heading, the comparison with the
// baseline when there is one, a table of counts by severity and code (new
// and existing apart with a baseline), then the findings grouped by
// package, most severe package first — with a baseline the new findings
// first, then the existing and the resolved ones folded in <details>.
// Each finding is a list item with its Brief and position, its Message
// folded below it.
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
		if c := s.CRDs; c != nil {
			l := c.describe()
			fmt.Fprintf(bw, " %s;%s.", mdText(l[0]), mdText(strings.TrimPrefix(l[1], " ")))
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

// writeMarkdownFindings writes findings by package, the packages with the
// most severe findings first (then by name), each package's findings most
// severe first — the findings of a Group as one item — until the budget
// of bytes is spent.
func writeMarkdownFindings(w *bufio.Writer, fs []Finding, budget *int) {
	type item struct {
		sev  graph.Severity
		text string
	}
	type pkgItems struct {
		pkg   string
		max   graph.Severity
		fs    []Finding
		items []item
	}
	lead, member := groupLeads(fs)
	var pkgs []*pkgItems
	byPkg := map[string]*pkgItems{}
	for i, f := range fs {
		p := byPkg[f.Package]
		if p == nil {
			p = &pkgItems{pkg: f.Package, max: f.Severity}
			byPkg[f.Package] = p
			pkgs = append(pkgs, p)
		}
		p.max = max(p.max, f.Severity)
		p.fs = append(p.fs, f)
		switch g := lead[i]; {
		case g != nil:
			p.items = append(p.items, item{f.Severity, markdownFinding(fs[g.Findings[0]], g)})
		case !member[i]:
			p.items = append(p.items, item{f.Severity, markdownFinding(f, nil)})
		}
	}
	slices.SortStableFunc(pkgs, func(a, b *pkgItems) int { return cmp.Compare(b.max, a.max) })
	left := len(fs)
	for pi, p := range pkgs {
		if *budget <= 0 {
			fmt.Fprintf(w, "… and %s in %s more (`sextant check` lists them all).\n\n",
				plural(left, "finding", "findings"), plural(len(pkgs)-pi, "package", "packages"))
			return
		}
		slices.SortStableFunc(p.items, func(a, b item) int { return cmp.Compare(b.sev, a.sev) })
		name := p.pkg
		if name == "" {
			name = "(catalog)"
		}
		folded := len(p.items) > mdOpen
		if folded {
			fmt.Fprintf(w, "<details><summary><b>%s</b>: %s</summary>\n\n", mdHTML(name), severityCounts(p.fs))
		} else {
			fmt.Fprintf(w, "**%s**\n\n", mdText(name))
		}
		for i, it := range p.items {
			if *budget <= 0 {
				fmt.Fprintf(w, "- … and %d more of this package\n", len(p.items)-i)
				break
			}
			*budget -= len(it.text)
			w.WriteString(it.text)
		}
		left -= len(p.fs)
		w.WriteString("\n")
		if folded {
			w.WriteString("</details>\n\n")
		}
	}
}

// markdownFinding returns one finding as a list item, or the findings of
// group g (f the first, in name order; nil for a finding alone): severity,
// code, channel and bundle ("N bundles FIRST … LAST" for a group, see
// WriteText), the brief, a suppressed finding's reason (whole) and the
// position (the first's); below it, folded,
// the message (see writeMarkdownMessage), a group's shared one.
func markdownFinding(f Finding, g *Group) string {
	var w strings.Builder
	fmt.Fprintf(&w, "- %s `%s`", f.Severity.String(), f.Code)
	if obj := markdownObject(f, g); obj != "" {
		fmt.Fprintf(&w, " %s", obj)
	}
	fmt.Fprintf(&w, ": %s", mdText(safetext.Shorten(shortMessage(f, g), mdBrief)))
	if s := f.Suppression; s != nil {
		// The reason is the user's words: never shortened.
		fmt.Fprintf(&w, " — suppressed: %s", mdText(strings.ReplaceAll(s.Reason, "\n", " ")))
	}
	writeMarkdownPos(&w, f.Pos)
	w.WriteString("\n")
	if g != nil && len(g.Upgrades) > 0 {
		fmt.Fprintf(&w, "  upgrades: %s\n", mdText(upgradeList(g.Package, g.Upgrades, mdUpgrades)))
	}
	msg := f.Message
	if g != nil {
		msg = g.Message
	}
	writeMarkdownMessage(&w, msg)
	return w.String()
}

// writeMarkdownMessage writes a finding's message under its list item,
// folded in a <details> element on one line: its first line, then its
// further lines ("- fact") each after a line break; a line is cut to about
// 1,000 characters, between words (a list cut says how many items it left
// out).
func writeMarkdownMessage(w *strings.Builder, msg string) {
	first, rest, _ := strings.Cut(msg, "\n")
	fmt.Fprintf(w, "  <details><summary>message</summary>%s", mdHTML(safetext.Shorten(first, mdMessage)))
	facts := factLines(rest)
	for _, line := range facts[:min(len(facts), mdLines)] {
		fmt.Fprintf(w, "<br>- %s", mdHTML(safetext.Shorten(line, mdMessage)))
	}
	if len(facts) > mdLines {
		fmt.Fprintf(w, "<br>… and %d more lines (the JSON report has them all)", len(facts)-mdLines)
	}
	w.WriteString("</details>\n")
}

// markdownObject names the channel and bundle of a finding, or the bundles
// of a group.
func markdownObject(f Finding, g *Group) string {
	var where []string
	if f.Channel != "" {
		where = append(where, "channel `"+mdCode(f.Channel)+"`")
	}
	switch {
	case g != nil && len(g.Upgrades) > 0:
		where = append(where, fmt.Sprintf("%d upgrades", g.Count))
		if g.CRD != "" {
			where = append(where, "CRD `"+mdCode(g.CRD)+"`")
		}
	case g != nil:
		where = append(where, fmt.Sprintf("%d bundles `%s` … `%s`", g.Count, mdCode(g.First), mdCode(g.Last)))
	case f.From != "":
		where = append(where, fmt.Sprintf("`%s` → `%s`", mdCode(f.From), mdCode(withoutPackage(f.Package, f.Bundle))))
	case f.Bundle != "":
		where = append(where, "`"+mdCode(f.Bundle)+"`")
	}
	if f.CRD != "" && g == nil {
		where = append(where, "CRD `"+mdCode(f.CRD)+"`")
	}
	return strings.Join(where, " ")
}

// writeMarkdownPos writes " (`file:line`)" when the position is known.
func writeMarkdownPos(w *strings.Builder, p graph.Position) {
	if p.File != "" && p.Line > 0 {
		fmt.Fprintf(w, " (`%s`)", mdCode(p.String()))
	}
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
