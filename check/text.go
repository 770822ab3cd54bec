package check

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/safetext"
	"github.com/sextantdev/sextant/internal/textio"
)

// TextOptions tunes WriteText. The zero value writes the short form, each
// line within 160 characters.
type TextOptions struct {
	// Full writes every finding on its own, with its whole message (the
	// further lines of a multi-line message below it) and its position as
	// file:line — no line is shortened and nothing is grouped.
	Full bool
	// Width is the most characters a line of the short form takes (a line
	// is longer only when the names it must show take more); zero or less
	// means DefaultWidth.
	Width int
}

// DefaultWidth is the width of the short form of WriteText.
const DefaultWidth = 160

// minMessage is the fewest characters of a message the short form shows,
// however long the names before it.
const minMessage = 60

func (o TextOptions) width() int {
	if o.Width > 0 {
		return o.Width
	}
	return DefaultWidth
}

// WriteText writes the report for people: per catalog, a line naming it,
// the findings by package (a line with the package's name, then its
// findings), the findings the change resolved and the suppressed ones, a
// summary line, the comparison with the baseline, then — what Report has
// and CatalogReports has not — the upgrade paths and the counts per code.
// See CatalogReports.WriteText for the finding lines. It returns the first
// write error, or an error when the findings are not in report order.
func (r *Report) WriteText(w io.Writer, opts TextOptions) error {
	c, err := r.ByCatalog()
	if err != nil {
		return err
	}
	t := newTextReport(w, opts, c.Catalogs)
	for i := range c.Catalogs {
		if i > 0 {
			fmt.Fprintln(t.w)
		}
		cr := &c.Catalogs[i]
		t.catalog(cr)
		t.paths(r.Paths, cr.Path)
		if len(cr.Counts) > 0 {
			fmt.Fprintf(t.w, "counts:\n")
			for _, n := range cr.Counts {
				fmt.Fprintf(t.w, "  %-7s  %-*s  %d\n", n.Severity, t.codeWidth, n.Code, n.Count)
			}
		}
	}
	return t.w.Err
}

// WriteText writes the reports as `sextant check` prints them. Per
// catalog: "catalog PATH: N packages, N channels, N bundles"; the findings
// by package, a line with the package's name (quoted when it holds
// characters a terminal would act on) and one line per finding — with a
// baseline the new ones first, then "existing: in the baseline too" and the
// others —; the findings the change resolved
// ("resolved: …") and the suppressed ones ("suppressed: …", each with the
// reason that accepts it), in the same form; a summary line; with the
// CRDs check's counts (CatalogReport.CRDs) two lines saying what it
// compared ("CRDs: …", "  bundle contents: …"); and with a baseline the
// comparison and what was added and removed.
//
// A finding's line is
//
//	SEVERITY  [new]  CODE  CHANNEL BUNDLE: MESSAGE (POSITION)
//
// with severity, status (with a baseline: "new" for what the change
// introduced) and code in columns aligned over the whole report. In the
// short form (the default) a line takes at most opts.Width characters: the
// message is the finding's Brief, made for this line, and one that still
// does not fit keeps its start and its end around " … " (never cutting a
// character or an escape); the position is the file relative to the
// catalog ("line 25" in a one-file catalog). Findings of one Group are one
// line: "CHANNEL, N bundles FIRST … LAST: BRIEF", the group's Brief, at
// the place of the first; a group of upgrade edges (one CRD change
// refused on each) is "N upgrades CRD: BRIEF" and a line below listing
// them, "upgrades FROM → TO, …". A finding about one edge names it "FROM →
// TO", and the CRD it is about after it. opts.Full writes every finding
// whole instead, with its Message. It returns the first write error.
func (c *CatalogReports) WriteText(w io.Writer, opts TextOptions) error {
	t := newTextReport(w, opts, c.Catalogs)
	for i := range c.Catalogs {
		if i > 0 {
			fmt.Fprintln(t.w)
		}
		t.catalog(&c.Catalogs[i])
	}
	return t.w.Err
}

// textReport writes reports as text; it holds what every line shares.
type textReport struct {
	w    *textio.ErrWriter
	opts TextOptions
	// codeWidth is the width of the code column: the longest code of the
	// whole report.
	codeWidth int
	// status: some catalog has a baseline, so lines have a status column.
	status bool
}

func newTextReport(w io.Writer, opts TextOptions, cs []CatalogReport) *textReport {
	t := &textReport{w: &textio.ErrWriter{W: w}, opts: opts}
	for _, c := range cs {
		t.status = t.status || c.Baseline != nil
		for _, fs := range [][]Finding{c.Findings, c.Resolved, c.Suppressed} {
			for _, f := range fs {
				t.codeWidth = max(t.codeWidth, len(f.Code))
			}
		}
	}
	return t
}

// catalog writes one catalog's report.
func (t *textReport) catalog(r *CatalogReport) {
	fmt.Fprintf(t.w, "catalog %s: %s, %s, %s\n", safetext.Name(r.Path),
		plural(r.Packages, "package", "packages"), plural(r.Channels, "channel", "channels"), plural(r.Bundles, "bundle", "bundles"))
	fs := r.Findings
	n := 0 // the new findings of a comparison come first
	for r.Baseline != nil && n < len(fs) && fs[n].Status == StatusNew {
		n++
	}
	t.findings(fs[:n], r.Path, lineFinding)
	if n > 0 && n < len(fs) {
		fmt.Fprintf(t.w, "existing: in the baseline too\n")
	}
	t.findings(fs[n:], r.Path, lineFinding)
	if len(r.Resolved) > 0 {
		fmt.Fprintf(t.w, "resolved: in the baseline, not any more\n")
		t.findings(r.Resolved, r.Path, lineResolved)
	}
	if len(r.Suppressed) > 0 {
		fmt.Fprintf(t.w, "suppressed: accepted in %s\n", safetext.Name(r.Suppressed[0].Suppression.Pos.File))
		t.findings(r.Suppressed, r.Path, lineSuppressed)
	}
	pkgs := 0
	for i, f := range r.Findings {
		if f.Package != "" && (i == 0 || f.Package != r.Findings[i-1].Package) {
			pkgs++ // a finding about no package (an unknown schema's) is in none
		}
	}
	s := CountSeverities(r.Findings)
	suppressed := ""
	if len(r.Suppressed) > 0 {
		suppressed = fmt.Sprintf(" (%d suppressed)", len(r.Suppressed))
	}
	fmt.Fprintf(t.w, "%s: %s, %s, %d info in %d of %s%s\n", safetext.Name(r.Path),
		plural(s.Error, "error", "errors"), plural(s.Warning, "warning", "warnings"), s.Info,
		pkgs, plural(r.Packages, "package", "packages"), suppressed)
	if c := r.CRDs; c != nil {
		for _, l := range c.describe() {
			fmt.Fprintf(t.w, "%s\n", t.fit(l))
		}
	}
	if b := r.Baseline; b != nil {
		regs := 0
		for _, f := range r.Findings {
			if IsRegression(f.Code) {
				regs++
			}
		}
		fmt.Fprintf(t.w, "against the baseline: %s\n", b.describe(regs))
		for _, l := range strings.SplitAfter(b.NamesAddedRemoved("  "), "\n") {
			if l != "" {
				fmt.Fprintf(t.w, "%s\n", t.fit(strings.TrimSuffix(l, "\n")))
			}
		}
	}
}

// fit shortens a line of the short form to the width; the full form
// keeps it.
func (t *textReport) fit(line string) string {
	if t.opts.Full {
		return line
	}
	return safetext.Shorten(line, t.opts.width())
}

// paths writes the upgrade path statistics of catalog name.
func (t *textReport) paths(ps []PathStats, name string) {
	var entries, stranded, longest int
	var longestPkg string
	for _, p := range ps {
		if p.Catalog != name {
			continue
		}
		entries += p.Entries
		stranded += p.Stranded
		if h := p.MaxHops(); h > longest {
			longest, longestPkg = h, p.Package
		}
	}
	if entries == 0 {
		return
	}
	fmt.Fprintf(t.w, "upgrade paths: %s below a channel head, %d stranded", plural(entries, "entry", "entries"), stranded)
	if longest > 0 {
		fmt.Fprintf(t.w, "; the longest takes %s (package %s)", plural(longest, "hop", "hops"), safetext.Name(longestPkg))
	}
	fmt.Fprintln(t.w)
}

// lineKind says which list a finding line belongs to.
type lineKind int

const (
	lineFinding    lineKind = iota // the catalog's findings
	lineResolved                   // the baseline's, resolved
	lineSuppressed                 // accepted by a suppression
)

// findings writes fs (in report order) by package; in the short form each
// group is one line, at the place of its first finding.
func (t *textReport) findings(fs []Finding, catalog string, kind lineKind) {
	var lead map[int]*Group
	var member map[int]bool
	if !t.opts.Full {
		lead, member = groupLeads(fs)
	}
	pkg, printed := "", false
	for i, f := range fs {
		g := lead[i]
		if member[i] && g == nil {
			continue
		}
		if !printed || f.Package != pkg {
			pkg, printed = f.Package, true
			fmt.Fprintf(t.w, "%s\n", packageLabel(safetext.Name(pkg)))
		}
		if g != nil {
			t.line(fs[g.Findings[0]], g, catalog, kind)
		} else {
			t.line(f, nil, catalog, kind)
		}
	}
}

// line writes the line of one finding, or of group g (whose first
// finding, in name order, is f): in the full form with the further lines
// of its message below it.
func (t *textReport) line(f Finding, g *Group, catalog string, kind lineKind) {
	var b strings.Builder
	fmt.Fprintf(&b, "  %-7s  ", f.Severity)
	if t.status {
		st := ""
		if f.Status == StatusNew && kind == lineFinding {
			st = "new"
		}
		fmt.Fprintf(&b, "%-3s  ", st)
	}
	fmt.Fprintf(&b, "%-*s  ", t.codeWidth, f.Code)
	indent := strings.Repeat(" ", b.Len()+2)
	if obj := object(f, g); obj != "" {
		b.WriteString(obj + ": ")
	}
	if !t.opts.Full {
		pos := shortPos(f.Pos, catalog)
		if pos != "" {
			pos = " (" + pos + ")"
		}
		if s := f.Suppression; kind == lineSuppressed && s != nil {
			// The reason is the user's words: never shortened.
			fmt.Fprintf(t.w, "%sby line %d: %s%s\n", b.String(), s.Pos.Line, strings.ReplaceAll(s.Reason, "\n", " "), pos)
			return
		}
		room := max(t.opts.width()-safetext.Width(b.String())-safetext.Width(pos), minMessage)
		fmt.Fprintf(t.w, "%s%s%s\n", b.String(), safetext.Shorten(shortMessage(f, g), room), pos)
		if g != nil && len(g.Upgrades) > 0 {
			fmt.Fprintf(t.w, "%s\n", t.upgrades(indent, g))
		}
		return
	}
	first, rest, _ := strings.Cut(f.Message, "\n")
	b.WriteString(first)
	if pos := fullPos(f.Pos); pos != "" {
		b.WriteString(" (" + pos + ")")
	}
	fmt.Fprintf(t.w, "%s\n", b.String())
	for _, l := range strings.Split(rest, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			fmt.Fprintf(t.w, "%s%s\n", indent, l)
		}
	}
	if s := f.Suppression; kind == lineSuppressed && s != nil {
		fmt.Fprintf(t.w, "%ssuppressed by %s: %s\n", indent, s.Pos, s.Reason)
	}
}

// object names what a finding line is about: "CHANNEL BUNDLE" ("FROM →
// TO CRD" for an upgrade edge's), or for a group "CHANNEL, N bundles FIRST
// … LAST" (LAST without the package's name when both start with it; "N
// upgrades CRD" for upgrade edges'); the package is the heading.
func object(f Finding, g *Group) string {
	var parts []string
	if f.Channel != "" {
		parts = append(parts, safetext.Name(f.Channel))
	}
	switch {
	case g != nil && len(g.Upgrades) > 0:
		parts = append(parts, fmt.Sprintf("%d upgrades", g.Count))
		if g.CRD != "" {
			parts = append(parts, safetext.Name(g.CRD))
		}
	case g != nil:
		if len(parts) > 0 {
			parts[0] += ","
		}
		last := g.Last
		for _, sep := range []string{".", "-", "_"} {
			if p := g.Package + sep; g.Package != "" && strings.HasPrefix(g.First, p) && strings.HasPrefix(last, p) {
				last = last[len(p):]
				break
			}
		}
		parts = append(parts, fmt.Sprintf("%d bundles %s … %s", g.Count, safetext.Name(g.First), safetext.Name(last)))
	case f.From != "":
		parts = append(parts, safetext.Name(f.From)+" → "+safetext.Name(withoutPackage(f.Package, f.Bundle)))
	case f.Bundle != "":
		parts = append(parts, safetext.Name(f.Bundle))
	}
	if f.CRD != "" && g == nil {
		parts = append(parts, safetext.Name(f.CRD))
	}
	return strings.Join(parts, " ")
}

// withoutPackage returns a bundle's name without its package's name and
// the separator after it (etcd.v0.9.4 → v0.9.4), when it starts so.
func withoutPackage(pkg, name string) string {
	for _, sep := range []string{".", "-", "_"} {
		if rest, ok := strings.CutPrefix(name, pkg+sep); pkg != "" && ok && rest != "" {
			return rest
		}
	}
	return name
}

// upgrades is the line listing a group's upgrade edges: as many as fit
// the width, then how many more ("and N more"); all of them in the full
// form.
func (t *textReport) upgrades(indent string, g *Group) string {
	line := func(n int) string { return indent + "upgrades " + upgradeList(g.Package, g.Upgrades, n) }
	if t.opts.Full {
		return line(len(g.Upgrades))
	}
	for n := len(g.Upgrades); n > 1; n-- {
		if l := line(n); safetext.Width(l) <= t.opts.width() {
			return l
		}
	}
	return t.fit(line(1))
}

// upgradeList lists upgrade edges of package pkg as "v1.0.0 → v1.1.0,
// v1.0.1 → v1.1.0, …", the names without the package's, at most max of
// them ("and N more" after).
func upgradeList(pkg string, us []Upgrade, max int) string {
	parts := make([]string, 0, min(len(us), max)+1)
	for _, u := range us[:min(len(us), max)] {
		parts = append(parts, safetext.Name(withoutPackage(pkg, u.From))+" → "+safetext.Name(withoutPackage(pkg, u.To)))
	}
	if len(us) > max {
		parts = append(parts, fmt.Sprintf("and %d more", len(us)-max))
	}
	return strings.Join(parts, ", ")
}

// shortMessage is what the line of a finding or group says: the finding's
// brief, for a group with each bundle's name written "…".
func shortMessage(f Finding, g *Group) string {
	if g != nil {
		return g.Brief
	}
	return f.brief()
}

// brief is the finding's Brief, or for a finding without one (not made by
// Run) its message on one line, the further lines after the first joined
// by "; ".
func (f *Finding) brief() string {
	if f.Brief != "" {
		return f.Brief
	}
	first, rest, _ := strings.Cut(f.Message, "\n")
	if facts := factLines(rest); len(facts) > 0 {
		first += " " + strings.Join(facts, "; ")
	}
	return first
}

// factLines returns the further lines of a message ("- fact"), without the
// dash.
func factLines(rest string) []string {
	var facts []string
	for _, l := range strings.Split(rest, "\n") {
		if l = strings.TrimPrefix(strings.TrimSpace(l), "- "); l != "" {
			facts = append(facts, l)
		}
	}
	return facts
}

// fullPos is a position as file:line; "" when unknown.
func fullPos(p graph.Position) string {
	if p.File == "" && p.Line == 0 {
		return ""
	}
	return p.String()
}

// shortPos is a position with the file relative to the catalog: "line
// 25" for the catalog's own file, "alpha.json:2" for a file of a folder
// catalog, the whole path for another file (the baseline's, the
// suppressions file); "" when unknown.
func shortPos(p graph.Position, catalog string) string {
	if p.File == "" && p.Line == 0 {
		return ""
	}
	file := p.File
	switch {
	case file == catalog:
		file = ""
	case catalog != "" && strings.HasPrefix(file, catalog) && len(file) > len(catalog) && (file[len(catalog)] == '/' || file[len(catalog)] == filepath.Separator):
		file = file[len(catalog)+1:]
	case catalog != "" && (strings.HasSuffix(catalog, "/") || strings.HasSuffix(catalog, string(filepath.Separator))) && strings.HasPrefix(file, catalog):
		file = file[len(catalog):]
	}
	switch {
	case p.Line > 0 && file == "":
		return fmt.Sprintf("line %d", p.Line)
	case p.Line > 0:
		return fmt.Sprintf("%s:%d", file, p.Line)
	case file == "":
		return fmt.Sprintf("offset %d", p.Offset)
	}
	return fmt.Sprintf("%s: offset %d", file, p.Offset)
}

// packageLabel names a finding's package in text; "(catalog)" for a
// finding about no package.
func packageLabel(name string) string {
	if name == "" {
		return "(catalog)"
	}
	return name
}

// describe says in one line what the comparison found.
func (b *BaselineSummary) describe(regressions int) string {
	return fmt.Sprintf("%s (%s), %d existing, %d resolved; packages +%d -%d, channels +%d -%d, bundles +%d -%d",
		plural(b.New, "new finding", "new findings"), plural(regressions, "regression", "regressions"), b.Existing, b.Resolved,
		b.PackagesAdded, b.PackagesRemoved, b.ChannelsAdded, b.ChannelsRemoved, b.BundlesAdded, b.BundlesRemoved)
}

// NamesAddedRemoved names what was added and removed, a few of each kind,
// one line each ("added: ...", "removed: ..."); nothing when nothing was.
func (b *BaselineSummary) NamesAddedRemoved(indent string) string {
	var out strings.Builder
	if s := b.Added.describe(5); s != "" {
		fmt.Fprintf(&out, "%sadded: %s\n", indent, s)
	}
	if s := b.Removed.describe(5); s != "" {
		fmt.Fprintf(&out, "%sremoved: %s\n", indent, s)
	}
	return out.String()
}

// regressions counts the regression findings of catalog name.
func (r *Report) regressions(name string) int {
	n := 0
	for _, f := range r.Findings {
		if f.Catalog == name && IsRegression(f.Code) {
			n++
		}
	}
	return n
}
