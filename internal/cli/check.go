package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant/celrule"
	"github.com/sextantdev/sextant/check"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/registryv1"
)

// runChecks is the seam between the command and the checks: check.Run runs
// graph's structural checks and the semantic ones of package check.
var runChecks = check.Run

// gatherFindings loads the catalogs at paths and runs the checks on them
// (all checks when checks is empty), and returns the report, whole and
// split by catalog (one per path, in order). With a baseline path (then paths holds one
// catalog), the catalog is compared with the baseline. Every catalog that
// cannot be read is reported, each naming its path.
func (e *env) gatherFindings(ctx context.Context, paths []string, checks []check.Check, baseline string, sups []check.Suppression, bundles *registryv1.Set) (*check.CatalogReports, *check.Report, error) {
	inputs := make([]check.Input, 0, len(paths))
	var errs []error
	seen := map[string]bool{}
	for _, path := range paths {
		name := path
		if path == "-" {
			name = stdinName
		}
		if seen[name] {
			return nil, nil, usageErrorf("catalog %q is given twice", path)
		}
		seen[name] = true
		cat, err := e.loadCatalog(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		inputs = append(inputs, check.Input{Name: name, Catalog: cat})
	}
	opts := check.Options{Checks: checks, CEL: celrule.New(), Suppressions: sups, Bundles: bundles}
	if baseline != "" {
		if baseline == "-" && slices.Contains(paths, "-") {
			return nil, nil, usageErrorf("--baseline and the catalog cannot both be standard input")
		}
		var old *graph.Catalog
		var err error
		if spec, ok := strings.CutPrefix(baseline, gitBaselinePrefix); ok {
			old, err = e.loadGitBaseline(spec, paths[0])
		} else {
			old, err = e.loadCatalog(baseline)
		}
		if err != nil {
			errs = append(errs, err)
		} else if len(inputs) == 1 {
			// The baseline takes the catalog's name: findings match by it.
			opts.Baseline = []check.Input{{Name: inputs[0].Name, Catalog: old}}
		}
	}
	if len(errs) > 0 {
		return nil, nil, joinErrors(errs)
	}
	rep, err := runChecks(ctx, inputs, opts)
	if err != nil {
		return nil, nil, err
	}
	reports, err := rep.ByCatalog()
	if err != nil {
		return nil, nil, fmt.Errorf("internal error: %w", err)
	}
	return reports, rep, nil
}

// checkFlags are the flags of check.
type checkFlags struct {
	output    *choice  // -o
	failOn    *choice  // --fail-on
	baseline  string   // --baseline
	failOnNew bool     // --fail-on-new
	config    string   // --config
	checks    []string // --check
	full      bool     // --full
	bundles   bundleFlags
}

func newCheckCmd(e *env) *cobra.Command {
	f := &checkFlags{}
	cmd := &cobra.Command{
		Use:   "check PATH... | check --baseline OLD NEW",
		Short: "Check catalogs for problems that break installs and upgrades",
		Long:  checkHelp(),
		Example: `  sextant check catalog/
  sextant check -o json --fail-on warning index.json.gz
  sextant check --check structural --check reachability catalog/
  sextant check --baseline main/catalog --fail-on-new -o markdown catalog/
  sextant check --bundles operators/ catalog/`,
		Args: cobra.MinimumNArgs(1),
	}
	f.output = addOutputFlag(cmd, "text", "json", "yaml", "markdown", "sarif")
	f.failOn = addChoiceFlag(cmd, "fail-on", "", "exit 1 at findings this severe or worse", "error", "warning")
	cmd.Flags().StringVar(&f.config, "config", "", "the suppressions `FILE` (default: the nearest .sextant.yaml)")
	cmd.Flags().StringVar(&f.baseline, "baseline", "", "the previous version of the catalog, a `PATH` or git:REF[:PATH]")
	cmd.Flags().BoolVar(&f.failOnNew, "fail-on-new", false, "with --baseline: apply --fail-on to the new findings only")
	cmd.Flags().BoolVar(&f.full, "full", false, "print every finding whole (text output)")
	cmd.Flags().StringSliceVar(&f.checks, "check", nil, "run only these `CHECKS` (repeatable or comma-separated)")
	addBundleFlags(cmd, &f.bundles)
	cmd.RunE = func(cmd *cobra.Command, args []string) error { return e.runCheck(cmd, f, args) }
	return withTopics(cmd, "catalogs", "bundles", "check-output")
}

// checkHelp is check's long help.
func checkHelp() string {
	return `Check loads each catalog (an FBC file or folder, "-" for standard input, or an image) and runs
the catalog checks on them: the structural rules opm validate enforces, and semantic checks beyond
it (upgrade paths to the channel head, edges to lower versions, skipRanges that match nothing,
deprecations; with several catalogs, requirements only another catalog meets; with the bundles'
contents, the CRD changes OLM v1 refuses on upgrade).
--check selects some of them:
` + checkNames() + `.
The crds check reads the bundles' contents from the folders under --bundles (matched by the
CSV's name), the catalogs' olm.bundle.object properties, and with --bundle-images the bundle
images (read through the image cache, as catalog images are).
With --baseline OLD, the one catalog given is compared with its previous version: each finding is
new or existing, and the regressions of the change are added.

Exit status: 0 when no finding reaches --fail-on, 1 when one does, 2 when a catalog cannot be
read or the command line is wrong.`
}

// runCheck is check: the checks asked for, run on the catalogs of args,
// the report in the format asked for, and the answer no when a finding
// reaches --fail-on.
func (e *env) runCheck(cmd *cobra.Command, f *checkFlags, args []string) error {
	checks, err := f.parse(len(args))
	if err != nil {
		return err
	}
	sups, err := e.readSuppressions(f.config, args[0])
	if err != nil {
		return err
	}
	bundles, err := e.readBundles(cmd.Context(), f.bundles)
	if err != nil {
		return err
	}
	reports, rep, err := e.gatherFindings(cmd.Context(), args, checks, f.baseline, sups, bundles)
	if err != nil {
		return err
	}
	e.noteUnusedBundles(bundles, "no bundle on an upgrade edge of the catalogs")
	switch f.output.value {
	case "text":
		err = reports.WriteText(e.stdout, check.TextOptions{Full: f.full})
	case "markdown":
		err = rep.WriteMarkdown(e.stdout)
	case "sarif":
		err = rep.WriteSARIF(e.stdout, e.sarifOptions(args, f.baseline))
	default:
		err = writeEncoded(e.stdout, f.output.value, reports)
	}
	if err != nil {
		return err
	}
	if f.fails(reports) {
		return errNo
	}
	return nil
}

// parse returns the checks of --check and reports the flags that go
// against each other, for a command line of nargs catalogs.
func (f *checkFlags) parse(nargs int) ([]check.Check, error) {
	var checks []check.Check
	for _, name := range f.checks {
		c, err := check.ParseCheck(name)
		if err != nil {
			return nil, usageErrorf("--check: %w", err)
		}
		checks = append(checks, c)
	}
	if f.baseline != "" && nargs != 1 {
		return nil, usageErrorf("--baseline compares one catalog with its previous version: give one catalog, not %d", nargs)
	}
	if f.failOnNew && f.baseline == "" {
		return nil, usageErrorf("--fail-on-new needs --baseline")
	}
	if len(f.bundles.dirs) > 0 && len(checks) > 0 && !slices.Contains(checks, check.CRDs) {
		return nil, usageErrorf("--bundles is read by the %s check, which --check leaves out", check.CRDs)
	}
	return checks, nil
}

// fails reports whether a finding of reports reaches --fail-on (a new one,
// with --fail-on-new).
func (f *checkFlags) fails(reports *check.CatalogReports) bool {
	threshold := graph.SeverityError
	if f.failOn.value == "warning" {
		threshold = graph.SeverityWarning
	}
	for _, r := range reports.Catalogs {
		for _, finding := range r.Findings {
			if finding.Severity >= threshold && (!f.failOnNew || finding.Status == check.StatusNew) {
				return true
			}
		}
	}
	return false
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

// configName is the suppressions file check looks for.
const configName = ".sextant.yaml"

// readSuppressions reads the suppressions file: path, or else the first
// .sextant.yaml in the folder of catalog (the first catalog argument) or
// a folder above it, stopping at the top of the git repository (the
// folder with .git). A file found that way is named on standard error. No
// file: no suppressions.
func (e *env) readSuppressions(path, catalog string) ([]check.Suppression, error) {
	if path == "" {
		path = findConfig(catalog)
		if path == "" {
			return nil, nil
		}
		e.notef("suppressions: %s", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, usageErrorf("--config: %w", err)
	}
	defer f.Close()
	sups, err := check.ReadConfig(f, path)
	if err != nil {
		return nil, err // the file's problems, one a line
	}
	return sups, nil
}

// findConfig returns the .sextant.yaml nearest above catalog, up to the
// repository's top; "" when there is none.
func findConfig(catalog string) string {
	if catalog == "-" {
		catalog = "."
	}
	dir, err := filepath.Abs(catalog)
	if err != nil {
		return ""
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		dir = filepath.Dir(dir)
	}
	for {
		p := filepath.Join(dir, configName)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return underWorkingDir(p)
		}
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// underWorkingDir returns the absolute path p relative to the current
// directory when it is under it, else p.
func underWorkingDir(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	if rel, err := filepath.Rel(wd, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return rel
	}
	return p
}

// sarifOptions places the files of a SARIF log: relative to the top of
// the git work tree that holds the catalogs (found by its .git, without
// running git), so that code scanning places them whatever folder check
// runs in; the files of a baseline read from git are named by their
// repository path already. Catalogs from standard input or images, or
// outside a work tree, keep their names as they are.
func (e *env) sarifOptions(catalogs []string, baseline string) check.SARIFOptions {
	opts := check.SARIFOptions{ToolVersion: buildVersion().Version}
	var top string
	for _, c := range append(slices.Clone(catalogs), baseline) {
		if c == "" || strings.HasPrefix(c, gitBaselinePrefix) {
			continue
		}
		if _, isImage, _ := imageReference(c); c == "-" || isImage {
			return opts
		}
		t := workTreeTop(c)
		if t == "" || (top != "" && t != top) {
			return opts
		}
		top = t
	}
	if top == "" {
		return opts
	}
	opts.Root = top
	opts.Dir, _ = os.Getwd()
	if files := e.gitBaselineFiles; files != nil {
		opts.InRoot = func(file string) bool { return files[file] }
	}
	return opts
}

// workTreeTop returns the folder above path (or path itself) that holds
// .git — a folder, or the file of a linked work tree —, as an absolute
// path; "" when there is none.
func workTreeTop(path string) string {
	dir, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
