package check

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/safetext"
	"github.com/sextantdev/sextant/internal/textio"
)

// SeverityCounts counts findings by severity. Its JSON form is
// {"error": N, "warning": N, "info": N}.
type SeverityCounts struct {
	// Error counts the findings of severity error or above.
	Error int `json:"error"`
	// Warning counts the warnings.
	Warning int `json:"warning"`
	// Info counts the rest.
	Info int `json:"info"`
}

// CountSeverities counts fs by severity. The sextant command counts its
// findings with it.
func CountSeverities(fs []Finding) SeverityCounts {
	var s SeverityCounts
	for _, f := range fs {
		switch {
		case f.Severity >= graph.SeverityError:
			s.Error++
		case f.Severity == graph.SeverityWarning:
			s.Warning++
		default:
			s.Info++
		}
	}
	return s
}

// CatalogReports is a Report split by catalog, as `sextant check` prints
// it. Its JSON form is {"catalogs": [CatalogReport...]}.
type CatalogReports struct {
	// Catalogs holds one report per input, in input order.
	Catalogs []CatalogReport `json:"catalogs"`
}

// CatalogReport is what was found in one catalog. Its JSON form is
//
//	{"path": "...", "packages": N, "channels": N, "bundles": N,
//	 "findings": [Finding...], "summary": {"error": N, "warning": N, "info": N},
//	 "counts": [{"code": "...", "severity": "...", "count": N}],
//	 "baseline": {...}, "resolved": [Finding...], "suppressed": [Finding...]}
//
// where findings and counts are never null, and baseline, resolved and
// suppressed are left out when empty.
type CatalogReport struct {
	// Path is the catalog's Input.Name.
	Path string `json:"path"`
	// Packages, Channels and Bundles count what the catalog holds.
	Packages int `json:"packages"`
	Channels int `json:"channels"`
	Bundles  int `json:"bundles"`
	// Findings are the catalog's findings in report order (by package,
	// channel, bundle, code).
	Findings []Finding `json:"findings"`
	// Summary counts Findings by severity.
	Summary SeverityCounts `json:"summary"`
	// Counts holds one entry per code found, sorted by code.
	Counts []CodeCount `json:"counts"`
	// Baseline compares the catalog with its baseline; nil without one.
	Baseline *BaselineSummary `json:"baseline,omitempty"`
	// Resolved lists the baseline's findings the catalog no longer has.
	Resolved []Finding `json:"resolved,omitempty"`
	// Suppressed lists the findings the suppressions accept, each with its
	// Suppression.
	Suppressed []Finding `json:"suppressed,omitempty"`
}

// ByCatalog splits the report by catalog, in input order. It returns an
// error when the findings are not in report order (sorted by catalog in
// input order), which a Report from Run always is.
func (r *Report) ByCatalog() (*CatalogReports, error) {
	out := &CatalogReports{Catalogs: make([]CatalogReport, len(r.Catalogs))}
	fs := r.Findings
	for i, sum := range r.Catalogs {
		n := 0
		for n < len(fs) && fs[n].Catalog == sum.Name {
			n++
		}
		c := CatalogReport{
			Path:     sum.Name,
			Packages: sum.Packages,
			Channels: sum.Channels,
			Bundles:  sum.Bundles,
			Findings: fs[:n:n],
			Summary:  CountSeverities(fs[:n]),
			Counts:   sum.Counts,
			Baseline: sum.Baseline,
		}
		if c.Findings == nil {
			c.Findings = []Finding{}
		}
		if c.Counts == nil {
			c.Counts = []CodeCount{}
		}
		for _, f := range r.Resolved {
			if f.Catalog == sum.Name {
				c.Resolved = append(c.Resolved, f)
			}
		}
		for _, f := range r.Suppressed {
			if f.Catalog == sum.Name {
				c.Suppressed = append(c.Suppressed, f)
			}
		}
		out.Catalogs[i] = c
		fs = fs[n:]
	}
	if len(fs) > 0 {
		return nil, fmt.Errorf("check: %d findings of catalog %q out of report order", len(fs), fs[0].Catalog)
	}
	return out, nil
}

// WriteText writes the reports as `sextant check` prints them: per
// catalog, the findings grouped by package, one aligned line per finding
// (severity, code, channel and bundle, message, position; "new" before
// those a change introduced, when the catalog has a baseline; the further
// lines of a multi-line message indented below it), the resolved and the
// suppressed findings, then a summary line and, with a baseline, the
// comparison. It returns the first write error.
func (c *CatalogReports) WriteText(w io.Writer) error {
	bw := &textio.ErrWriter{W: w}
	for i, r := range c.Catalogs {
		if i > 0 {
			fmt.Fprintln(bw)
		}
		fmt.Fprintf(bw, "catalog %s\n", safetext.Name(r.Path))
		tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
		pkgs := 0
		for j, f := range r.Findings {
			if j == 0 || f.Package != r.Findings[j-1].Package {
				pkgs++
				// A line without tabs ends the tabwriter's column block, so
				// columns align within a package.
				fmt.Fprintf(tw, "  %s\n", packageLabel(safetext.Name(f.Package)))
			}
			first, rest, _ := strings.Cut(findingText(f), "\n")
			mark, pad := "", ""
			if r.Baseline != nil {
				mark, pad = "\t", "\t"
				if f.Status == StatusNew {
					mark = "new\t"
				}
			}
			fmt.Fprintf(tw, "    %s%s\t%s\t%s\n", mark, f.Severity, f.Code, first)
			for _, l := range strings.Split(rest, "\n") {
				if l = strings.TrimRight(l, " \t"); l != "" {
					fmt.Fprintf(tw, "%s\t\t  %s\n", pad, l)
				}
			}
		}
		if len(r.Resolved) > 0 {
			fmt.Fprintf(tw, "  resolved: in the baseline, not any more\n")
			for _, f := range r.Resolved {
				first, _, _ := strings.Cut(findingText(f), "\n")
				fmt.Fprintf(tw, "    \t%s\t%s\t%s: %s\n", f.Severity, f.Code, packageLabel(f.Package), first)
			}
		}
		if len(r.Suppressed) > 0 {
			fmt.Fprintf(tw, "  suppressed: accepted in %s\n", r.Suppressed[0].Suppression.Pos.File)
			for _, f := range r.Suppressed {
				first, _, _ := strings.Cut(findingText(f), "\n")
				s := f.Suppression
				fmt.Fprintf(tw, "    \t%s\t%s\t%s: %s\n    \t\t\t  suppressed by line %d: %s\n", f.Severity, f.Code, f.Package, first, s.Pos.Line, s.Reason)
			}
		}
		tw.Flush()
		s := CountSeverities(r.Findings)
		suppressed := ""
		if len(r.Suppressed) > 0 {
			suppressed = fmt.Sprintf(" (%d suppressed)", len(r.Suppressed))
		}
		fmt.Fprintf(bw, "%s: %s, %s, %d info in %d of %s%s\n", r.Path,
			plural(s.Error, "error", "errors"), plural(s.Warning, "warning", "warnings"), s.Info,
			pkgs, plural(r.Packages, "package", "packages"), suppressed)
		if b := r.Baseline; b != nil {
			regs := 0
			for _, f := range r.Findings {
				if IsRegression(f.Code) {
					regs++
				}
			}
			fmt.Fprintf(bw, "against the baseline: %s (%s), %d existing, %d resolved; packages +%d -%d, channels +%d -%d, bundles +%d -%d\n",
				plural(b.New, "new finding", "new findings"), plural(regs, "regression", "regressions"), b.Existing, b.Resolved,
				b.PackagesAdded, b.PackagesRemoved, b.ChannelsAdded, b.ChannelsRemoved, b.BundlesAdded, b.BundlesRemoved)
			fmt.Fprint(bw, b.NamesAddedRemoved("  "))
		}
	}
	return bw.Err
}

// packageLabel names a finding's package in text; "(catalog)" for a
// finding about no package.
func packageLabel(name string) string {
	if name == "" {
		return "(catalog)"
	}
	return name
}

// findingText is a finding's location, message and position: "channel C,
// bundle B: message (file:line)". The position ends the message's first
// line.
func findingText(f Finding) string {
	var where []string
	if f.Channel != "" {
		where = append(where, "channel "+f.Channel)
	}
	if f.Bundle != "" {
		where = append(where, "bundle "+f.Bundle)
	}
	first, rest, multi := strings.Cut(f.Message, "\n")
	if len(where) > 0 {
		first = strings.Join(where, ", ") + ": " + first
	}
	if f.Pos.File != "" || f.Pos.Line > 0 {
		first += " (" + f.Pos.String() + ")"
	}
	if multi {
		return first + "\n" + rest
	}
	return first
}
