// Package check runs semantic checks on operator catalogs — the questions a
// catalog's maintainers and users ask beyond the structure that opm validate
// checks: can every bundle be installed on an empty cluster from its catalog
// alone, can every bundle upgrade to its channel head, do upgrade edges go
// up, do skipRanges and deprecations name something, and which requirements
// only another catalog satisfies.
//
// [Run] takes one or more catalogs and returns a [Report]: the findings of
// every selected check — the structural findings of [graph.Catalog.Validate]
// included — sorted deterministically, counts per code and the upgrade path
// statistics of every package. The same input always gives the same report,
// byte for byte, whatever the concurrency.
//
// With [Options.Baseline], the previous version of a catalog, Run reports
// what the change does to the clusters that use it: every finding is marked
// new or existing ([Status]), the regressions of the change are added
// ([RegressionCodes]) and the findings the change resolved are listed;
// [Report.OnlyNew] keeps what the change introduced, and
// [Report.WriteMarkdown] renders the report as a pull-request comment.
package check

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/registryv1"
	"github.com/sextantdev/sextant/resolver"
)

// Input is one catalog to check. Name identifies it in findings (for
// example "community" or "olm/community-operators"); the inputs of one Run
// must have distinct names.
type Input struct {
	Name    string
	Catalog *graph.Catalog
}

// Check names one group of checks. The values are stable and may be used on
// a command line.
type Check string

// The checks [Run] knows, in the order they are documented.
const (
	// Structural runs graph.Catalog.Validate: blob validity, default
	// channels, heads, cycles, replacement chains, versions, skipRanges.
	Structural Check = "structural"
	// Reachability checks that every channel entry can reach its channel
	// head along the channel's upgrade edges and records the upgrade path
	// lengths of every package (Report.Paths).
	Reachability Check = "reachability"
	// Direction checks the upgrade edges themselves: edges to a lower
	// version, skipRanges that match nothing, replaces/skips that name a
	// bundle of another package, edges whose target drops an API of their
	// source.
	Direction Check = "direction"
	// Deprecations checks whether a package's default channel, or that
	// channel's head, is deprecated while the package is not. (Deprecation
	// entries that name nothing are structural findings.)
	Deprecations Check = "deprecations"
	// Catalogs checks, when several catalogs are given, which requirements
	// only another catalog's candidates satisfy.
	Catalogs Check = "catalogs"
	// Installability resolves, for every bundle of every channel, a
	// subscription asking for exactly that bundle (startingCSV) on an empty
	// cluster with its own catalog alone, and reports those that fail with
	// the resolver's explanation — with several catalogs, those that fail
	// with all of them too (a cluster that sees them all installs the
	// others).
	Installability Check = "installability"
	// Platform checks what OLM's olm-operator checks after resolution,
	// from the bundles' olm.csv.metadata: bundles that support no install
	// mode, minKubeVersions OLM cannot parse, upgrade edges that drop an
	// install mode or raise minKubeVersion.
	Platform Check = "platform"
	// CRDs compares, on every upgrade edge, the CustomResourceDefinitions
	// both bundles carry as OLM v1's CRD upgrade safety preflight compares
	// them, from the bundles' contents (Options.Bundles, and the
	// catalogs' olm.bundle.object properties).
	CRDs Check = "crds"
)

// AllChecks returns every check in documentation order. The caller owns the
// returned slice.
func AllChecks() []Check {
	return []Check{Structural, Reachability, Direction, Deprecations, Catalogs, Installability, Platform, CRDs}
}

// ParseCheck returns the check named s, or an error listing the known names.
func ParseCheck(s string) (Check, error) {
	for _, c := range AllChecks() {
		if string(c) == s {
			return c, nil
		}
	}
	names := make([]string, 0, 6)
	for _, c := range AllChecks() {
		names = append(names, string(c))
	}
	return "", fmt.Errorf("unknown check %q (known: %s)", s, strings.Join(names, ", "))
}

// Options tunes Run. The zero value runs every check with one worker per
// CPU.
type Options struct {
	// Checks selects the checks to run; empty means all of them.
	Checks []Check
	// Concurrency is the number of workers; zero or less means
	// runtime.GOMAXPROCS(0). It never changes the report.
	Concurrency int
	// Baseline holds the previous versions of the catalogs, matched to the
	// inputs by Name: an input with a baseline is compared with it. Run
	// then checks the baselines too (with the same checks, together), marks
	// every finding of the input new or existing (Finding.Status), adds the
	// regressions of the change (RegressionCodes: what was removed, moved
	// or broken for the clusters that use the catalog; always new), and
	// lists what the baseline had and the input no longer has
	// (Report.Resolved). Empty: no comparison.
	Baseline []Input
	// CEL, if not nil, evaluates the cel rules of olm.constraint
	// properties, as resolver.Options.CEL does; package
	// github.com/sextantdev/sextant/celrule provides OLM v0.28's evaluator,
	// which the sextant command uses. Without it, the installability check
	// reports a bundle whose resolution reaches a cel rule with the
	// resolver's error (resolver.ErrNoCEL), and the other checks take a
	// requirement with a cel rule as met by no bundle.
	CEL resolver.CEL

	// Suppressions accept findings (see Suppression, ReadConfig): Run
	// moves those they match to Report.Suppressed and reports each entry
	// that matches nothing as a stale-suppression warning.
	Suppressions []Suppression

	// Bundles finds the contents of the catalogs' bundles for the CRDs
	// check (package registryv1: bundle folders, bundle images when it
	// has an ImageSource, and the catalogs' olm.bundle.object
	// properties); nil: the olm.bundle.object properties alone.
	Bundles *registryv1.Set

	// resolveAll sends every bundle through the resolver, even those the
	// installability check decides without it (tests compare both).
	resolveAll bool
}

func (o Options) enabled(c Check) bool {
	return len(o.Checks) == 0 || slices.Contains(o.Checks, c)
}

func (o Options) workers() int {
	if o.Concurrency > 0 {
		return o.Concurrency
	}
	return runtime.GOMAXPROCS(0)
}

// Report is the result of Run. It is a plain value: JSON-serialisable, and
// owned by the caller.
type Report struct {
	// Findings of every catalog, in report order: by catalog (in input
	// order); with a baseline, the new findings first; then by package,
	// channel, bundle — the bundles of a package in version order (semver
	// precedence; a name that is no bundle with a version after them, by
	// name with numbers compared by value) — code and message.
	Findings []Finding `json:"findings"`
	// Catalogs summarises each input, in input order.
	Catalogs []CatalogSummary `json:"catalogs"`
	// Paths holds the upgrade path statistics of every package, sorted by
	// catalog (in input order) then package. Empty when the Reachability
	// check did not run.
	Paths []PathStats `json:"paths,omitempty"`
	// Resolved holds, for the inputs with a baseline, the baseline's
	// findings the input no longer has, in the baseline's report order.
	Resolved []Finding `json:"resolved,omitempty"`
	// Suppressed holds the findings Options.Suppressions accept, each
	// with its Suppression, in report order. They count nowhere else.
	Suppressed []Finding `json:"suppressed,omitempty"`
}

// CatalogSummary counts what a catalog holds and what was found in it.
type CatalogSummary struct {
	Name     string `json:"name"`
	Packages int    `json:"packages"`
	Channels int    `json:"channels"`
	Bundles  int    `json:"bundles"`
	// Counts holds one entry per code found, sorted by code.
	Counts []CodeCount `json:"counts"`
	// Baseline compares the catalog with its baseline; nil without one.
	Baseline *BaselineSummary `json:"baseline,omitempty"`
	// CRDs counts what the CRDs check compared; nil when it did not run,
	// or found no bundle contents and was given none (Options.Bundles).
	CRDs *CRDSummary `json:"crds,omitempty"`
}

// CodeCount is the number of findings of one code, with the highest
// severity among them (a code has one severity in practice).
type CodeCount struct {
	Code     string         `json:"code"`
	Severity graph.Severity `json:"severity"`
	Count    int            `json:"count"`
}

// Counts returns the number of findings per code over all catalogs, sorted
// by code. The caller owns the returned slice.
func (r *Report) Counts() []CodeCount {
	return countCodes(r.Findings)
}

// Max returns the highest severity among the findings and whether there is
// any finding at all.
func (r *Report) Max() (graph.Severity, bool) {
	if len(r.Findings) == 0 {
		return graph.SeverityInfo, false
	}
	m := r.Findings[0].Severity
	for _, f := range r.Findings[1:] {
		m = max(m, f.Severity)
	}
	return m, true
}

// Errors returns the findings of severity error, in report order. The
// caller owns the returned slice.
func (r *Report) Errors() []Finding {
	return r.AtLeast(graph.SeverityError)
}

// AtLeast returns the findings of severity s or higher, in report order.
// The caller owns the returned slice.
func (r *Report) AtLeast(s graph.Severity) []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Severity >= s {
			out = append(out, f)
		}
	}
	return out
}

// Filter returns a copy of the report with only the findings (and resolved
// findings) of severity min or higher, and the counts of its catalogs and
// their baseline comparisons recomputed. Paths are kept.
// The copy shares nothing with r that the caller could modify.
func (r *Report) Filter(min graph.Severity) *Report {
	return r.filter(func(f Finding) bool { return f.Severity >= min })
}

// OnlyNew returns a copy of the report with only the findings a change
// introduced (Status new: with a baseline, the regressions and the
// findings the baseline had not), without resolved findings, and with the
// counts recomputed as Filter does. Combine with Filter to fail CI on new
// problems of some severity: r.OnlyNew().Filter(graph.SeverityWarning).
func (r *Report) OnlyNew() *Report {
	return r.filter(func(f Finding) bool { return f.Status == StatusNew })
}

// filter returns a copy of the report with the findings and resolved
// findings keep accepts; see Filter.
func (r *Report) filter(keep func(Finding) bool) *Report {
	out := &Report{
		Catalogs: slices.Clone(r.Catalogs),
		Paths:    slices.Clone(r.Paths),
	}
	for _, f := range r.Findings {
		if keep(f) {
			out.Findings = append(out.Findings, f)
		}
	}
	if out.Findings == nil {
		out.Findings = []Finding{}
	}
	for i := range out.Catalogs {
		var fs []Finding
		for _, f := range out.Findings {
			if f.Catalog == out.Catalogs[i].Name {
				fs = append(fs, f)
			}
		}
		out.Catalogs[i].Counts = countCodes(fs)
	}
	for i := range out.Paths {
		out.Paths[i].Lengths = slices.Clone(out.Paths[i].Lengths)
	}
	for _, f := range r.Resolved {
		if keep(f) {
			out.Resolved = append(out.Resolved, f)
		}
	}
	for _, f := range r.Suppressed {
		if keep(f) {
			out.Suppressed = append(out.Suppressed, f)
		}
	}
	for i := range out.Catalogs {
		b := out.Catalogs[i].Baseline
		if b == nil {
			continue
		}
		nb := *b
		nb.New, nb.Existing, nb.Resolved = 0, 0, 0
		for _, f := range out.Findings {
			if f.Catalog == nb.Name {
				if f.Status == StatusNew {
					nb.New++
				} else {
					nb.Existing++
				}
			}
		}
		for _, f := range out.Resolved {
			if f.Catalog == nb.Name {
				nb.Resolved++
			}
		}
		out.Catalogs[i].Baseline = &nb
	}
	return out
}

func countCodes(fs []Finding) []CodeCount {
	byCode := map[string]*CodeCount{}
	for _, f := range fs {
		c := byCode[f.Code]
		if c == nil {
			c = &CodeCount{Code: f.Code, Severity: f.Severity}
			byCode[f.Code] = c
		}
		c.Count++
		c.Severity = max(c.Severity, f.Severity)
	}
	out := make([]CodeCount, 0, len(byCode))
	for _, c := range byCode {
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b CodeCount) int { return strings.Compare(a.Code, b.Code) })
	return out
}

// Run checks every catalog of catalogs with the checks opts selects and
// returns the report. Checks of one catalog never look at another, except
// the Catalogs check, which compares them. Run fails only when ctx is done
// (the error then matches errors.Is(err, ctx.Err())), when an input has no
// catalog or repeats another's name, when a check is unknown, or when the resolver fails for a reason other than a conflict.
// Run is safe to call concurrently; it does not modify the catalogs.
func Run(ctx context.Context, catalogs []Input, opts Options) (*Report, error) {
	for i, in := range catalogs {
		if in.Catalog == nil {
			return nil, fmt.Errorf("input %d (%q): no catalog", i, in.Name)
		}
	}
	seen := map[string]bool{}
	for i, in := range catalogs {
		if seen[in.Name] {
			return nil, fmt.Errorf("input %d: duplicate catalog name %q", i, in.Name)
		}
		seen[in.Name] = true
	}
	for _, c := range opts.Checks {
		if _, err := ParseCheck(string(c)); err != nil {
			return nil, err
		}
	}
	if err := checkBaselines(catalogs, opts.Baseline); err != nil {
		return nil, err
	}
	order := newFindingOrder(catalogs, opts.Baseline)
	r := &runner{opts: opts, inputs: catalogs, order: order}
	r.crds.per = make([]*CRDSummary, len(catalogs))
	if err := r.run(ctx); err != nil {
		return nil, err
	}
	rep := r.report()
	if len(opts.Baseline) > 0 {
		if err := runBaseline(ctx, catalogs, opts, rep, order); err != nil {
			return nil, err
		}
	}
	rep.suppress(opts.Suppressions, order)
	return rep, nil
}

// runner holds the state of one Run.
type runner struct {
	opts   Options
	inputs []Input
	order  *findingOrder
	// findings[i] holds the findings of inputs[i], unsorted.
	findings [][]Finding
	paths    [][]PathStats

	setsOnce sync.Once
	sets     []candidateSet // per input, for the Catalogs check

	// all is the resolver over every input, for the installability check
	// with several catalogs; nil with one.
	all func() (*resolver.Resolver, error)

	crds crdSummaries // per input, the CRDs check's counts
}

// candidateSets returns the candidate set of every input, computed once.
func (r *runner) candidateSets() []candidateSet {
	r.setsOnce.Do(func() {
		r.sets = make([]candidateSet, len(r.inputs))
		for i, in := range r.inputs {
			r.sets[i] = newCandidateSet(in.Catalog)
		}
	})
	return r.sets
}

// job is one unit of work of the worker pool; it returns findings for the
// catalog it belongs to and, for package jobs, path statistics.
type job struct {
	catalog int
	run     func(ctx context.Context) ([]Finding, *PathStats, error)
}

type jobResult struct {
	findings []Finding
	paths    *PathStats
	err      error
}

func (r *runner) run(ctx context.Context) error {
	var jobs []job
	for i, in := range r.inputs {
		js, err := r.catalogJobs(ctx, i, in)
		if err != nil {
			return err
		}
		jobs = append(jobs, js...)
	}
	results := make([]jobResult, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(r.opts.workers(), max(len(jobs), 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := ctx.Err(); err != nil {
					results[i].err = err
					continue
				}
				fs, ps, err := jobs[i].run(ctx)
				results[i] = jobResult{fs, ps, err}
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("check: %w", err)
	}
	r.findings = make([][]Finding, len(r.inputs))
	r.paths = make([][]PathStats, len(r.inputs))
	for i, res := range results {
		if res.err != nil {
			return res.err
		}
		c := jobs[i].catalog
		r.findings[c] = append(r.findings[c], res.findings...)
		if res.paths != nil {
			r.paths[c] = append(r.paths[c], *res.paths)
		}
	}
	return nil
}

func (r *runner) report() *Report {
	rep := &Report{Findings: []Finding{}, Catalogs: make([]CatalogSummary, len(r.inputs))}
	for i, in := range r.inputs {
		fs := r.findings[i]
		slices.SortFunc(fs, r.order.compare)
		rep.Findings = append(rep.Findings, fs...)
		s := CatalogSummary{Name: in.Name, Counts: countCodes(fs)}
		for _, p := range in.Catalog.Packages() {
			s.Packages++
			s.Channels += len(p.Channels)
			s.Bundles += len(p.Bundles)
		}
		if c := r.crds.per[i]; c != nil && (c.Found > 0 || r.opts.Bundles != nil) {
			s.CRDs = c
		}
		rep.Catalogs[i] = s
		ps := r.paths[i]
		slices.SortFunc(ps, func(a, b PathStats) int { return strings.Compare(a.Package, b.Package) })
		rep.Paths = append(rep.Paths, ps...)
	}
	return rep
}

// catalogJobs lists the work for one catalog: the structural validation,
// one job per package for the graph checks, one for the cross-catalog check
// and the installability jobs.
func (r *runner) catalogJobs(ctx context.Context, ci int, in Input) ([]job, error) {
	var jobs []job
	cat := in.Catalog
	name := in.Name
	if r.opts.enabled(Structural) {
		jobs = append(jobs, job{ci, func(context.Context) ([]Finding, *PathStats, error) {
			return structural(name, cat), nil, nil
		}})
	}
	graphChecks := r.opts.enabled(Reachability) || r.opts.enabled(Direction) || r.opts.enabled(Deprecations) || r.opts.enabled(Platform)
	if graphChecks {
		for _, p := range cat.Packages() {
			jobs = append(jobs, job{ci, func(context.Context) ([]Finding, *PathStats, error) {
				fs, ps := r.packageChecks(name, cat, p)
				return fs, ps, nil
			}})
		}
	}
	if r.opts.enabled(Catalogs) && len(r.inputs) > 1 {
		jobs = append(jobs, job{ci, func(context.Context) ([]Finding, *PathStats, error) {
			return otherCatalogs(r.inputs, r.candidateSets(), ci, r.opts.CEL), nil, nil
		}})
	}
	if r.opts.enabled(CRDs) {
		set := r.opts.Bundles
		if set == nil {
			set = registryv1.NewSet()
		}
		for _, p := range cat.Packages() {
			jobs = append(jobs, job{ci, func(ctx context.Context) ([]Finding, *PathStats, error) {
				fs, sum, err := crdChecks(ctx, name, p, set)
				if err != nil {
					return nil, nil, err
				}
				r.crds.add(ci, sum)
				return fs, nil, nil
			}})
		}
	}
	if r.opts.enabled(Installability) {
		if len(r.inputs) > 1 && r.all == nil {
			r.all = allCatalogs(r.inputs, r.opts.CEL)
		}
		js, err := installJobs(ctx, ci, in, r.opts, r.all)
		if err != nil {
			return nil, err
		}
		jobs = append(jobs, js...)
	}
	return jobs, nil
}

// packageChecks runs the per-package graph checks that opts selects.
func (r *runner) packageChecks(name string, cat *graph.Catalog, p *graph.Package) ([]Finding, *PathStats) {
	var fs []Finding
	var ps *PathStats
	var es *edgeSet // the package's upgrade edges, for the per-edge checks
	edges := func() *edgeSet {
		if es == nil {
			es = packageEdges(p)
		}
		return es
	}
	if r.opts.enabled(Reachability) {
		var rf []Finding
		rf, ps = reachability(name, p)
		ps.Catalog = name
		fs = append(fs, rf...)
	}
	if r.opts.enabled(Direction) {
		fs = append(fs, direction(name, cat, p)...)
		fs = append(fs, apiDrops(name, p, edges())...)
	}
	if r.opts.enabled(Deprecations) {
		fs = append(fs, deprecations(name, p)...)
	}
	if r.opts.enabled(Platform) {
		fs = append(fs, platform(name, p, edges())...)
	}
	return fs, ps
}

// structural is graph.Catalog.Validate's findings, and CodeEmptyCatalog.
func structural(name string, cat *graph.Catalog) []Finding {
	if len(cat.Packages()) == 0 && len(cat.Others()) == 0 {
		return []Finding{{Severity: graph.SeverityError, Code: CodeEmptyCatalog, Catalog: name,
			Message: "the catalog is empty: no blob in it (olm.package, olm.channel, olm.bundle, …); opm serve and catalogd serve it as a catalog of no package",
			Brief:   "empty catalog: serves nothing"}}
	}
	vs := cat.Validate()
	out := make([]Finding, len(vs))
	for i, v := range vs {
		out[i] = Finding{
			Severity: v.Severity,
			Code:     v.Code,
			Catalog:  name,
			Package:  v.Package,
			Channel:  v.Channel,
			Bundle:   v.Bundle,
			Message:  v.Message,
			Brief:    v.Brief,
			Pos:      v.Pos,
		}
	}
	return out
}
