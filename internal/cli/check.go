package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant/check"
	"github.com/sextantdev/sextant/graph"
)

// runChecks is the seam between the command and the checks: check.Run runs
// graph's structural checks and the semantic ones of package check.
var runChecks = check.Run

// catalogReport is the result of checking one catalog.
type catalogReport struct {
	Path     string
	Summary  check.CatalogSummary
	Findings []check.Finding // sorted by package, channel, bundle, code
}

// gatherFindings loads the catalogs at paths and runs the checks on them
// (all checks when checks is empty), one report per path in order. Every
// catalog that cannot be read is reported, each naming its path.
func (e *env) gatherFindings(ctx context.Context, paths []string, checks []check.Check) ([]catalogReport, error) {
	inputs := make([]check.Input, 0, len(paths))
	var errs []error
	seen := map[string]bool{}
	for _, path := range paths {
		name := path
		if path == "-" {
			name = stdinName
		}
		if seen[name] {
			return nil, usageErrorf("catalog %q is given twice", path)
		}
		seen[name] = true
		cat, err := e.loadCatalog(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		inputs = append(inputs, check.Input{Name: name, Catalog: cat})
	}
	if len(errs) > 0 {
		return nil, joinErrors(errs)
	}
	rep, err := runChecks(ctx, inputs, check.Options{Checks: checks})
	if err != nil {
		return nil, err
	}
	reports := make([]catalogReport, len(rep.Catalogs))
	fs := rep.Findings
	for i, sum := range rep.Catalogs {
		n := 0
		for n < len(fs) && fs[n].Catalog == sum.Name {
			n++
		}
		reports[i] = catalogReport{Path: sum.Name, Summary: sum, Findings: fs[:n:n]}
		fs = fs[n:]
	}
	if len(fs) > 0 {
		return nil, fmt.Errorf("internal error: %d findings of catalog %q out of report order", len(fs), fs[0].Catalog)
	}
	return reports, nil
}

// checkSummary counts findings by severity.
type checkSummary struct {
	Error   int `json:"error"`
	Warning int `json:"warning"`
	Info    int `json:"info"`
}

func summarize(fs []check.Finding) checkSummary {
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
a folder of them, or "-" for standard input — and runs the catalog checks on
them: the structural rules opm validate enforces, and semantic checks beyond
it (upgrade paths to the channel head, edges to lower versions, skipRanges
that match nothing, deprecations; with several catalogs, requirements only
another catalog meets). --check selects some of them: ` + checkNames() + `.

Text output groups the findings of each catalog by package, one line per
finding (severity, code, channel and bundle, message, position), then a
summary line. JSON output is:

  {"catalogs": [{"path": "...", "packages": N, "channels": N, "bundles": N,
    "findings": [{"severity": "error"|"warning"|"info", "code": "...",
      "package": "...", "channel": "...", "bundle": "...", "message": "...",
      "file": "...", "line": N}],
    "summary": {"error": N, "warning": N, "info": N},
    "counts": [{"code": "...", "severity": "...", "count": N}]}]}

Exit status: 0 when no finding reaches --fail-on, 1 when one does, 2 when a
catalog cannot be read or the command line is wrong.`,
		Example: `  sextant check catalog/
  sextant check -o json --fail-on warning index.json.gz
  sextant check --check structural --check reachability catalog/`,
		Args: cobra.MinimumNArgs(1),
	}
	output := addOutputFlag(cmd, "text", "json", "yaml")
	failOn := addChoiceFlag(cmd, "fail-on", "", "exit with status 1 when a finding is at least this severe", "error", "warning")
	var checkFlags []string
	cmd.Flags().StringSliceVar(&checkFlags, "check", nil, "run only these checks (repeatable or comma-separated): "+checkNames())
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		var checks []check.Check
		for _, name := range checkFlags {
			c, err := check.ParseCheck(name)
			if err != nil {
				return usageErrorf("--check: %w", err)
			}
			checks = append(checks, c)
		}
		reports, err := e.gatherFindings(cmd.Context(), args, checks)
		if err != nil {
			return err
		}
		if output.value != "text" {
			err = writeCheckJSON(e.stdout, output.value, reports)
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

// checkNames lists the names --check accepts.
func checkNames() string {
	var names []string
	for _, c := range check.AllChecks() {
		names = append(names, string(c))
	}
	return strings.Join(names, ", ")
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
	Path     string            `json:"path"`
	Packages int               `json:"packages"`
	Channels int               `json:"channels"`
	Bundles  int               `json:"bundles"`
	Findings []findingJSON     `json:"findings"`
	Summary  checkSummary      `json:"summary"`
	Counts   []check.CodeCount `json:"counts"`
}

// writeCheckJSON writes the reports in the JSON contract, as JSON or (format
// "yaml") as YAML.
func writeCheckJSON(w io.Writer, format string, reports []catalogReport) error {
	out := struct {
		Catalogs []catalogJSON `json:"catalogs"`
	}{Catalogs: make([]catalogJSON, 0, len(reports))}
	for _, r := range reports {
		c := catalogJSON{
			Path:     r.Path,
			Packages: r.Summary.Packages,
			Channels: r.Summary.Channels,
			Bundles:  r.Summary.Bundles,
			Findings: make([]findingJSON, 0, len(r.Findings)),
			Summary:  summarize(r.Findings),
			Counts:   r.Summary.Counts,
		}
		if c.Counts == nil {
			c.Counts = []check.CodeCount{}
		}
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
	return writeEncoded(w, format, out)
}

// writeCheckText writes the findings of each catalog grouped by package,
// one aligned line per finding (the further lines of a multi-line message
// indented below it), then a summary line.
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
			first, rest, _ := strings.Cut(findingText(f), "\n")
			fmt.Fprintf(tw, "    %s\t%s\t%s\n", f.Severity, f.Code, first)
			for _, l := range strings.Split(rest, "\n") {
				if l = strings.TrimRight(l, " \t"); l != "" {
					fmt.Fprintf(tw, "\t\t  %s\n", l)
				}
			}
		}
		tw.Flush()
		s := summarize(r.Findings)
		fmt.Fprintf(bw, "%s: %s, %s, %d info in %d of %s\n", r.Path,
			plural(s.Error, "error"), plural(s.Warning, "warning"), s.Info,
			pkgs, plural(r.Summary.Packages, "package"))
	}
	return bw.err
}

// findingText is a finding's location, message and position: "channel C,
// bundle B: message (file:line)". The position ends the message's first
// line.
func findingText(f check.Finding) string {
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
