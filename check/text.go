package check

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/safetext"
)

// WriteText writes the report for people: per catalog, a summary line, the
// findings grouped by package (each with its channel and bundle; the
// further lines of a message, such as the facts of an installability
// finding, indented below it; "new" before those a change introduced, when
// the catalog has a baseline), a summary of the upgrade paths, the
// comparison with the baseline and the counts per code. It returns the
// first write error.
func (r *Report) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	i := 0
	for _, s := range r.Catalogs {
		var errs, warns, infos int
		for _, c := range s.Counts {
			switch c.Severity {
			case graph.SeverityError:
				errs += c.Count
			case graph.SeverityWarning:
				warns += c.Count
			default:
				infos += c.Count
			}
		}
		fmt.Fprintf(bw, "catalog %s: %s, %s, %s: %s, %s, %d info\n", safetext.Name(s.Name),
			plural(s.Packages, "package", "packages"), plural(s.Channels, "channel", "channels"), plural(s.Bundles, "bundle", "bundles"),
			plural(errs, "error", "errors"), plural(warns, "warning", "warnings"), infos)
		pkg := "\x00"
		for ; i < len(r.Findings) && r.Findings[i].Catalog == s.Name; i++ {
			f := r.Findings[i]
			if f.Package != pkg {
				pkg = f.Package
				name := safetext.Name(pkg)
				if name == "" {
					name = "(no package)"
				}
				fmt.Fprintf(bw, "\npackage %s\n", name)
			}
			obj := f.Channel
			if f.Bundle != "" {
				if obj != "" {
					obj += " "
				}
				obj += f.Bundle
			}
			if obj != "" {
				obj = " " + obj
			}
			first, rest, _ := strings.Cut(f.Message, "\n")
			mark, indent := "", ""
			if s.Baseline != nil {
				mark, indent = "    ", "    "
				if f.Status == StatusNew {
					mark = "new "
				}
			}
			fmt.Fprintf(bw, "  %s%-7s %s%s: %s\n", mark, f.Severity.String(), f.Code, obj, first)
			if rest != "" {
				for _, line := range strings.Split(rest, "\n") {
					fmt.Fprintf(bw, "          %s%s\n", indent, line)
				}
			}
		}
		var entries, stranded, longest int
		var longestPkg string
		for _, p := range r.Paths {
			if p.Catalog != s.Name {
				continue
			}
			entries += p.Entries
			stranded += p.Stranded
			if h := p.MaxHops(); h > longest {
				longest, longestPkg = h, p.Package
			}
		}
		if entries > 0 {
			fmt.Fprintf(bw, "\nupgrade paths (%s): %s below a channel head, %d stranded", s.Name, plural(entries, "entry", "entries"), stranded)
			if longest > 0 {
				fmt.Fprintf(bw, "; the longest takes %s (package %s)", plural(longest, "hop", "hops"), safetext.Name(longestPkg))
			}
			bw.WriteString("\n")
		}
		writeSuppressed(bw, r.Suppressed, s.Name)
		if b := s.Baseline; b != nil {
			fmt.Fprintf(bw, "\nbaseline (%s): %s\n%s", s.Name, b.describe(r.regressions(s.Name)), b.NamesAddedRemoved("  "))
		}
		if len(s.Counts) > 0 {
			fmt.Fprintf(bw, "\ncounts (%s):\n", s.Name)
			for _, c := range s.Counts {
				fmt.Fprintf(bw, "  %-7s %-32s %d\n", c.Severity.String(), c.Code, c.Count)
			}
		}
		fmt.Fprintln(bw)
	}
	return bw.Flush()
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

// writeSuppressed lists the suppressed findings of catalog name, each with
// the reason and the place of the entry that accepts it.
func writeSuppressed(w io.Writer, fs []Finding, name string) {
	n := 0
	for _, f := range fs {
		if f.Catalog != name {
			continue
		}
		if n == 0 {
			fmt.Fprintf(w, "\nsuppressed (%s):\n", name)
		}
		n++
		first, _, _ := strings.Cut(f.Message, "\n")
		s := f.Suppression
		fmt.Fprintf(w, "  %-7s %s %s: %s\n          suppressed by %s: %s\n", f.Severity.String(), f.Code, s.String(), first, s.Pos, s.Reason)
	}
}
