package check

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/words"
	"github.com/sextantdev/sextant/resolver"
)

// Explanation says why a bundle cannot be installed: the resolver's minimal
// set of facts, or, when resolution stopped before solving (a candidate's
// channel without a single head, an olm.constraint cel rule that does not
// compile), its error.
// The checked catalog appears in facts as the catalog "olm/<Input.Name>".
type Explanation struct {
	// Facts is the resolver's conflict (resolver.ConflictError.Facts) minus
	// the facts about the synthetic subscription that asks for the bundle:
	// together with "install this bundle" they make installation
	// impossible, and dropping any one makes it possible.
	Facts []resolver.Fact `json:"facts,omitempty"`
	// Error is the resolver's error when it failed for another reason than
	// a conflict.
	Error string `json:"error,omitempty"`
}

// String returns the facts, one per line, or the error.
func (e *Explanation) String() string {
	if e.Error != "" {
		return e.Error
	}
	lines := make([]string, len(e.Facts))
	for i := range e.Facts {
		lines[i] = e.Facts[i].String()
	}
	return strings.Join(lines, "\n")
}

// The identity under which a checked catalog is given to the resolver, and
// the namespace of the synthetic subscriptions.
const (
	installCatalogNamespace = resolver.DefaultGlobalNamespace
	installNamespace        = "sextant-check"
)

// installCatalogKey returns the resolver identity of a checked catalog.
func installCatalogKey(name string) resolver.CatalogKey {
	if name == "" {
		name = "catalog"
	}
	return resolver.CatalogKey{Namespace: installCatalogNamespace, Name: name}
}

// installer resolves bundles of one catalog on an empty cluster. It is safe
// for concurrent use: the resolver's index is built once and shared.
type installer struct {
	name string
	key  resolver.CatalogKey
	cat  *graph.Catalog
	r    *resolver.Resolver
	// always makes every bundle go through the resolver, even those the
	// fast path would decide (tests compare both).
	always bool
	// all resolves with every catalog of the Run, when there are several:
	// a bundle installable with them is installable on a cluster that sees
	// them all, and gets no finding (the Catalogs check says which
	// catalog meets what). Nil with one catalog.
	all func() (*resolver.Resolver, error)
}

// allCatalogs returns a function that builds, once, a resolver over every
// input: the catalogs a cluster sees together.
func allCatalogs(inputs []Input, cel resolver.CEL) func() (*resolver.Resolver, error) {
	return sync.OnceValues(func() (*resolver.Resolver, error) {
		cats := make([]resolver.Catalog, len(inputs))
		for i, in := range inputs {
			cats[i] = resolver.Catalog{Key: installCatalogKey(in.Name), Catalog: in.Catalog}
		}
		r, err := resolver.New(cats, resolver.Options{CEL: cel, SkipValidation: true})
		if err != nil {
			return nil, fmt.Errorf("the catalogs together: %w", err)
		}
		return r, nil
	})
}

func newInstaller(ctx context.Context, in Input, cel resolver.CEL) (*installer, error) {
	key := installCatalogKey(in.Name)
	r, err := resolver.New([]resolver.Catalog{{Key: key, Catalog: in.Catalog}}, resolver.Options{CEL: cel, SkipValidation: true})
	if err != nil {
		return nil, fmt.Errorf("catalog %q: %w", in.Name, err)
	}
	return &installer{name: in.Name, key: key, cat: in.Catalog, r: r}, nil
}

// hasRequirements reports whether b needs any other bundle.
func hasRequirements(b *graph.Bundle) bool {
	return len(b.RequiresGVK) > 0 || len(b.RequiresPackage) > 0 || len(b.RequiresLabel) > 0 || len(b.Constraints) > 0
}

// installJobs returns one job per bundle of the catalog that needs the
// resolver. Bundles in no channel (structural finding bundle-not-in-channel)
// and bundles with the olm.deprecated property (never selected, by design)
// are not checked. A bundle with no requirement is installable alone — its
// subscription's only candidate, nothing to depend on, nothing to conflict
// with — and is decided without the resolver.
func installJobs(ctx context.Context, ci int, in Input, opts Options, all func() (*resolver.Resolver, error)) ([]job, error) {
	ins, err := newInstaller(ctx, in, opts.CEL)
	if err != nil {
		return nil, err
	}
	ins.always, ins.all = opts.resolveAll, all
	var jobs []job
	for _, p := range in.Catalog.Packages() {
		for _, b := range p.Bundles {
			if len(b.Channels) == 0 || b.Deprecated || (!hasRequirements(b) && !ins.always) {
				continue
			}
			jobs = append(jobs, job{ci, func(ctx context.Context) ([]Finding, *PathStats, error) {
				f, err := ins.check(ctx, p, b)
				if err != nil || f == nil {
					return nil, nil, err
				}
				return []Finding{*f}, nil, nil
			}})
		}
	}
	return jobs, nil
}

// check resolves a subscription that asks for exactly b (startingCSV) in
// the first channel b heads, or else its first channel, and returns the
// finding when b cannot be installed.
func (ins *installer) check(ctx context.Context, p *graph.Package, b *graph.Bundle) (*Finding, error) {
	channel, head := installChannel(p, b)
	sub := cluster.Subscription{
		Name:            b.Name,
		Namespace:       installNamespace,
		Package:         b.Package,
		Channel:         channel,
		StartingCSV:     b.Name,
		Source:          ins.key.Name,
		SourceNamespace: ins.key.Namespace,
	}
	installs := func(res *resolver.Resolution) bool {
		return slices.ContainsFunc(res.Plan().Steps, func(s resolver.Step) bool { return s.Bundle == b.Name && s.Package == b.Package })
	}
	res, err := ins.r.Resolve(ctx, installNamespace, &cluster.State{Subscriptions: []cluster.Subscription{sub}})
	if err == nil {
		if !installs(res) {
			return nil, fmt.Errorf("catalog %q: bundle %q: the resolver's plan does not install it", ins.name, b.Name)
		}
		return nil, nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return nil, fmt.Errorf("check: %w", ctxErr)
	}
	where := installAlone
	if ins.all != nil {
		all, aerr := ins.all()
		if aerr != nil {
			return nil, aerr
		}
		res, aerr := all.Resolve(ctx, installNamespace, &cluster.State{Subscriptions: []cluster.Subscription{sub}})
		if aerr == nil && installs(res) {
			return nil, nil // installable with the other catalogs
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, fmt.Errorf("check: %w", ctxErr)
		}
		if aerr != nil {
			// Say what a cluster that sees every catalog lacks: the
			// reason from this catalog alone may be a requirement another
			// catalog meets, which satisfied-by-other-catalog reports.
			err, where = aerr, installWithAll
		}
	}
	ex := installExplanation(err, sub.Name)
	return ins.notInstallable(b, channel, head, where, ex, ins.installBrief(err, ex, b.Name)), nil
}

// installChannel returns the channel check subscribes b in: the first that
// b heads (head true), or else its first.
func installChannel(p *graph.Package, b *graph.Bundle) (channel string, head bool) {
	for _, name := range b.Channels {
		if c := p.Channel(name); c != nil {
			if h, ok := channelHead(c); ok && h == b.Name {
				return name, true
			}
		}
	}
	return b.Channels[0], false
}

// installExplanation explains err, the resolution of the subscription
// named sub: the facts of a conflict but the subscription's own (all of
// them when nothing else is left), or the error's text.
func installExplanation(err error, sub string) *Explanation {
	ex := &Explanation{}
	var conflict *resolver.ConflictError
	if !errors.As(err, &conflict) {
		ex.Error = err.Error()
		return ex
	}
	for _, f := range conflict.Facts {
		if f.Subscription == sub && (f.Kind == resolver.FactSubscription || f.Kind == resolver.FactSubscriptionCandidates) {
			continue
		}
		ex.Facts = append(ex.Facts, f)
	}
	if len(ex.Facts) == 0 {
		ex.Facts = conflict.Facts
	}
	return ex
}

// notInstallable is the finding that b, subscribed in channel (which it
// heads, or not), cannot be installed where says (installAlone,
// installWithAll), for the reason ex, in brief brief.
func (ins *installer) notInstallable(b *graph.Bundle, channel string, head bool, where string, ex *Explanation, brief string) *Finding {
	f := &Finding{
		Brief:       brief,
		Severity:    graph.SeverityWarning,
		Code:        CodeNotInstallable,
		Catalog:     ins.name,
		Package:     b.Package,
		Channel:     channel,
		Bundle:      b.Name,
		Pos:         b.Pos,
		Explanation: ex,
	}
	what := fmt.Sprintf("%q", b.Name)
	if head {
		f.Severity, f.Code = graph.SeverityError, CodeHeadNotInstallable
		what = fmt.Sprintf("%q, the head of channel %q,", b.Name, channel)
	}
	f.Message = what + where
	switch {
	case ex.Error != "":
		f.Message += " " + ex.Error
	case len(ex.Facts) == 1:
		f.Message += " " + ex.Facts[0].String()
	default:
		// One line per fact: together they are the reason.
		for i := range ex.Facts {
			f.Message += "\n- " + ex.Facts[i].String()
		}
	}
	return f
}

// The words of an installability message after the bundle it is about:
// from its catalog alone, or, with several catalogs, on a cluster that
// sees them all.
const (
	installAlone   = " cannot be installed on an empty cluster from this catalog alone:"
	installWithAll = " cannot be installed on an empty cluster from the catalogs given:"
)

// installBrief says in brief why bundle cannot be installed: each fact of
// ex (factBrief), or for an error that is not a conflict, the catalog
// problem it reports.
func (ins *installer) installBrief(err error, ex *Explanation, bundle string) string {
	if ex.Error == "" {
		facts := make([]string, len(ex.Facts))
		for i := range ex.Facts {
			facts[i] = factBrief(&ex.Facts[i], bundle)
		}
		return strings.Join(facts, "; ")
	}
	// The innermost catalog error says what is wrong; the errors around
	// it say how resolution got there.
	var ce *resolver.CatalogError
	for e := err; e != nil; e = errors.Unwrap(e) {
		if c, ok := e.(*resolver.CatalogError); ok {
			ce = c
		}
	}
	switch {
	case ce == nil:
		return oneLine(ex.Error)
	case ce.Channel != "":
		heads := "no single head"
		if c := ins.channel(ce); c != nil {
			heads = plural(len(c.Heads()), "head", "heads")
			if len(c.Heads()) == 0 {
				heads = "no head"
			}
		}
		return fmt.Sprintf("candidate channel %s/%s has %s", ce.Package, ce.Channel, heads)
	case ce.Bundle != "" && ce.Bundle != bundle:
		return fmt.Sprintf("candidate %s: %s", ce.Bundle, oneLine(ce.Err.Error()))
	}
	return oneLine(ce.Err.Error())
}

// channel returns the channel a catalog error is about when it is in the
// installer's catalog; nil otherwise.
func (ins *installer) channel(ce *resolver.CatalogError) *graph.Channel {
	if ce.Catalog != ins.key {
		return nil
	}
	if p := ins.cat.Package(ce.Package); p != nil {
		return p.Channel(ce.Channel)
	}
	return nil
}

// factBrief states a fact in brief: without the name of bundle, which the
// finding's line shows, and with candidates by name only.
func factBrief(f *resolver.Fact, bundle string) string {
	subject := ""
	switch {
	case f.CSV != "" && f.Bundle == "":
		subject = "installed CSV " + f.CSV + " "
	case f.Bundle != bundle:
		subject = f.Bundle + " "
	}
	switch f.Kind {
	case resolver.FactRequirement:
		s := subject + "requires " + requirementWords(f.Property, f.Requirement)
		if f.FailureMessage != "" {
			s += fmt.Sprintf(" (%q)", f.FailureMessage)
		}
		if len(f.Candidates) > 0 {
			return s + ", satisfied only by " + candidateNames(f.Candidates, "or")
		}
		// The notes (what comes close) are for the message.
		return s + ": unmet"
	case resolver.FactDeprecated:
		return subject + "is deprecated"
	case resolver.FactOnePerPackage:
		return fmt.Sprintf("at most one bundle of package %s: %s", f.Package, candidateNames(f.Candidates, "and"))
	case resolver.FactOnePerAPI:
		return fmt.Sprintf("at most one provider of API %s: %s", f.Requirement, candidateNames(f.Candidates, "and"))
	}
	return f.String()
}

// requirementWords names a requirement of property type typ in plain
// words: "package etcd >=0.9.0", "API example.com/v1 Widget", `label
// "beta"`; a constraint as it describes itself ("package …", "all of (…)").
func requirementWords(typ, what string) string {
	switch typ {
	case graph.TypeGVKRequired:
		return "API " + what
	case graph.TypePackageRequired:
		return "package " + what
	case graph.TypeLabelRequired:
		return fmt.Sprintf("label %q", what)
	case graph.TypeConstraint:
		return what
	}
	return strings.TrimSpace(typ + " " + what)
}

// candidateNames joins the first two candidates' bundle names with conj
// and says how many more there are.
func candidateNames(cs []resolver.Candidate, conj string) string {
	names := make([]string, min(len(cs), 2))
	for i := range names {
		names[i] = cs[i].Bundle
	}
	if len(cs) > len(names) {
		return strings.Join(names, ", ") + fmt.Sprintf(" %s %d more", conj, len(cs)-len(names))
	}
	return words.Join(names, conj)
}

// oneLine returns s on one line.
func oneLine(s string) string { return strings.ReplaceAll(s, "\n", "; ") }

func isInstallCode(code string) bool {
	return code == CodeNotInstallable || code == CodeHeadNotInstallable
}
