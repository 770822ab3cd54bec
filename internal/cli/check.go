package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant/graph"
)

// A checkFunc is one family of catalog checks. It must return its findings
// in a deterministic order and must not modify the catalog.
type checkFunc func(ctx context.Context, cat *graph.Catalog) ([]graph.Finding, error)

// checkFamilies are the check families `sextant check` runs, in order: the
// structural checks of package graph first. The semantic checks of package
// check plug in here.
var checkFamilies = []checkFunc{
	func(_ context.Context, cat *graph.Catalog) ([]graph.Finding, error) { return cat.Validate(), nil },
}

// catalogReport is the result of checking one catalog.
type catalogReport struct {
	Path     string
	Packages int // packages in the catalog
	Findings []graph.Finding
}

// gatherFindings loads the catalog at path and runs every check family on
// it. The findings are sorted by package, channel, bundle, code, then most
// severe first, then message.
func (e *env) gatherFindings(ctx context.Context, path string) (catalogReport, error) {
	cat, err := e.loadCatalog(path)
	if err != nil {
		return catalogReport{}, err
	}
	if path == "-" {
		path = stdinName
	}
	r := catalogReport{Path: path, Packages: len(cat.Packages())}
	for _, check := range checkFamilies {
		if err := ctx.Err(); err != nil {
			return catalogReport{}, err
		}
		fs, err := check(ctx, cat)
		if err != nil {
			return catalogReport{}, fmt.Errorf("%s: %w", path, err)
		}
		r.Findings = append(r.Findings, fs...)
	}
	sortFindings(r.Findings)
	return r, nil
}

func sortFindings(fs []graph.Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := &fs[i], &fs[j]
		switch {
		case a.Package != b.Package:
			return a.Package < b.Package
		case a.Channel != b.Channel:
			return a.Channel < b.Channel
		case a.Bundle != b.Bundle:
			return a.Bundle < b.Bundle
		case a.Code != b.Code:
			return a.Code < b.Code
		case a.Severity != b.Severity:
			return a.Severity > b.Severity
		default:
			return a.Message < b.Message
		}
	})
}

// checkSummary counts findings by severity.
type checkSummary struct {
	Error   int `json:"error"`
	Warning int `json:"warning"`
	Info    int `json:"info"`
}

func summarize(fs []graph.Finding) checkSummary {
	var s checkSummary
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

func newCheckCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "check PATH...",
		Short: "Check catalogs for problems that break installs and upgrades",
		Long: `Check loads each catalog — an FBC file (.json, .yaml, .yml, optionally .gz),
a folder of them, or "-" for standard input — and runs the catalog checks on it.

Text output groups the findings by package, one line per finding (severity,
code, channel and bundle, message, position), then a summary per catalog.
JSON output is:

  {"catalogs": [{"path": "...", "packages": N,
    "findings": [{"severity": "error"|"warning"|"info", "code": "...",
      "package": "...", "channel": "...", "bundle": "...", "message": "...",
      "file": "...", "line": N}],
    "summary": {"error": N, "warning": N, "info": N}}]}

Exit status: 0 when no finding reaches --fail-on, 1 when one does, 2 when a
catalog cannot be read.`,
		Example: `  sextant check catalog/
  sextant check -o json --fail-on warning index.json.gz`,
		Args: cobra.MinimumNArgs(1),
	}
	output := addOutputFlag(cmd, "text", "json")
	failOn := addChoiceFlag(cmd, "fail-on", "", "exit with status 1 when a finding is at least this severe", "error", "warning")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		reports := make([]catalogReport, 0, len(args))
		var errs []error
		for _, path := range args {
			r, err := e.gatherFindings(cmd.Context(), path)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			reports = append(reports, r)
		}
		if len(errs) > 0 {
			return joinErrors(errs)
		}
		var err error
		if output.value == "json" {
			err = writeCheckJSON(e.stdout, reports)
		} else {
			err = writeCheckText(e.stdout, reports)
		}
		if err != nil {
			return err
		}
		threshold := graph.SeverityError
		if failOn.value == "warning" {
			threshold = graph.SeverityWarning
		}
		for _, r := range reports {
			for _, f := range r.Findings {
				if f.Severity >= threshold {
					return errNo
				}
			}
		}
		return nil
	}
	return cmd
}

// joinErrors joins errs; a usage error among them wins, to keep its exit
// status and hint.
func joinErrors(errs []error) error {
	for _, err := range errs {
		if xe, ok := err.(*exitError); ok && xe.usage {
			return err
		}
	}
	return errors.Join(errs...)
}

// findingJSON is one finding in `check -o json`.
type findingJSON struct {
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Package  string `json:"package"`
	Channel  string `json:"channel"`
	Bundle   string `json:"bundle"`
	Message  string `json:"message"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
}

type catalogJSON struct {
	Path     string        `json:"path"`
	Packages int           `json:"packages"`
	Findings []findingJSON `json:"findings"`
	Summary  checkSummary  `json:"summary"`
}

func writeCheckJSON(w io.Writer, reports []catalogReport) error {
	out := struct {
		Catalogs []catalogJSON `json:"catalogs"`
	}{Catalogs: make([]catalogJSON, 0, len(reports))}
	for _, r := range reports {
		c := catalogJSON{Path: r.Path, Packages: r.Packages, Findings: make([]findingJSON, 0, len(r.Findings)), Summary: summarize(r.Findings)}
		for _, f := range r.Findings {
			c.Findings = append(c.Findings, findingJSON{
				Severity: f.Severity.String(),
				Code:     f.Code,
				Package:  f.Package,
				Channel:  f.Channel,
				Bundle:   f.Bundle,
				Message:  f.Message,
				File:     f.Pos.File,
				Line:     f.Pos.Line,
			})
		}
		out.Catalogs = append(out.Catalogs, c)
	}
	return writeJSON(w, out)
}

// writeCheckText writes the findings of each catalog grouped by package,
// one aligned line per finding, then a summary line.
func writeCheckText(w io.Writer, reports []catalogReport) error {
	bw := &errWriter{w: w}
	for i, r := range reports {
		if i > 0 {
			fmt.Fprintln(bw)
		}
		fmt.Fprintf(bw, "catalog %s\n", r.Path)
		tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
		pkgs := 0
		for j, f := range r.Findings {
			if j == 0 || f.Package != r.Findings[j-1].Package {
				pkgs++
				name := f.Package
				if name == "" {
					name = "(catalog)"
				}
				// A line without tabs ends the tabwriter's column block, so
				// columns align within a package.
				fmt.Fprintf(tw, "  %s\n", name)
			}
			fmt.Fprintf(tw, "    %s\t%s\t%s\n", f.Severity.String(), f.Code, findingText(f))
		}
		tw.Flush()
		s := summarize(r.Findings)
		fmt.Fprintf(bw, "%s: %s, %s, %d info in %d of %s\n", r.Path,
			plural(s.Error, "error"), plural(s.Warning, "warning"), s.Info,
			pkgs, plural(r.Packages, "package"))
	}
	return bw.err
}

// findingText is a finding's location and message: "channel C, bundle B:
// message (file:line)".
func findingText(f graph.Finding) string {
	var where []string
	if f.Channel != "" {
		where = append(where, "channel "+f.Channel)
	}
	if f.Bundle != "" {
		where = append(where, "bundle "+f.Bundle)
	}
	s := f.Message
	if len(where) > 0 {
		s = strings.Join(where, ", ") + ": " + s
	}
	if f.Pos.File != "" || f.Pos.Line > 0 {
		s += " (" + f.Pos.String() + ")"
	}
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// errWriter remembers the first write error so that printing code can
// ignore errors and check once at the end.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	if err != nil {
		e.err = err
	}
	return n, err
}
