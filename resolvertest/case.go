package resolvertest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/sextantdev/sextant/celrule"
	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/olmv1"
	"github.com/sextantdev/sextant/resolver"
)

// DefaultNamespace is the namespace resolved when a Case or a scenario file
// names none.
const DefaultNamespace = "operators"

// Case is one resolution to check, for table-driven tests: catalogs and a
// cluster state built in code, and the expected text (see FormatResult and
// FormatRollout). The zero value resolves an empty namespace against no
// catalog.
type Case struct {
	// Name names the subtest (Run) and Reason says, for a subtle case,
	// why Want is right; both are shown when the case fails.
	Name   string
	Reason string
	// Catalogs are the catalogs to resolve against.
	Catalogs []*Catalog
	// State is the cluster state; nil is an empty one.
	State *State
	// Namespace is the namespace resolved; empty means the State's, or
	// DefaultNamespace without a State.
	Namespace string
	// Options are the resolver's options. When Options.CEL is nil, the
	// case evaluates cel rules with a celrule.Evaluator, as the sextant
	// command does.
	Options resolver.Options
	// Rollout, when positive, simulates a rollout of at most Rollout
	// rounds (Resolver.Rollout) instead of resolving once.
	Rollout int
	// Application, when not empty, resolves what these objects need
	// (Resolver.ResolveFor; see FormatApplication) instead of the state's
	// subscriptions alone.
	Application []cluster.Object
	// Approve approves, in a rollout, every plan that waits for approval
	// (RolloutOptions.Approve).
	Approve bool
	// AllNamespaces resolves every namespace of the state, one after
	// another (Resolver.ResolveAll; see FormatAll), instead of Namespace.
	// Options.KubeVersion and Options.OpenShiftVersion give the cluster's
	// versions to the predictions (DESIGN §8).
	AllNamespaces bool
	// Want is the expected text.
	Want string
}

// Result resolves the case and returns the text a scenario compares: the
// plan, the conflict or the error of the resolution, or the rollout. It
// returns an error only when the case cannot be set up (a catalog that does
// not build, a resolver that cannot be created).
func (c *Case) Result(ctx context.Context) (string, error) {
	in := input{namespace: c.Namespace, opts: c.Options, rollout: c.Rollout, approve: c.Approve, state: &cluster.State{}, app: c.Application, all: c.AllNamespaces}
	if c.State != nil {
		in.state = c.State.State()
		if in.namespace == "" {
			in.namespace = c.State.Namespace()
		}
	}
	var errs []error
	for _, cat := range c.Catalogs {
		rc, err := cat.Build()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		in.catalogs = append(in.catalogs, rc)
	}
	if len(errs) > 0 {
		return "", errors.Join(errs...)
	}
	return in.result(ctx)
}

// Run resolves the case and reports on t, with a diff, when the result
// differs from Want.
func (c *Case) Run(t testing.TB) {
	t.Helper()
	got, err := c.Result(context.Background())
	if err != nil {
		t.Fatalf("%s: %v", c.Name, err)
		return
	}
	if d := Diff(c.Want, got); d != "" {
		msg := fmt.Sprintf("%s: result differs from want (-want +got):\n%s", c.Name, d)
		if c.Reason != "" {
			msg += "reason: " + c.Reason + "\n"
		}
		t.Error(msg)
	}
}

// Run runs each case as a subtest named by its Name.
func Run(t *testing.T, cases []Case) {
	t.Helper()
	for i := range cases {
		c := &cases[i]
		t.Run(c.Name, func(t *testing.T) {
			t.Helper()
			c.Run(t)
		})
	}
}

// input is a resolution ready to run, from a Case or a scenario file.
type input struct {
	catalogs  []resolver.Catalog
	state     *cluster.State
	namespace string
	opts      resolver.Options
	noCEL     bool
	rollout   int
	app       []cluster.Object
	approve   bool
	all       bool
	// v1 are the olmv1 options (OLM v1 scenarios).
	v1 olmv1.Options
}

// defaultCEL is the cel evaluator of cases and scenarios that name none.
var defaultCEL = sync.OnceValue(celrule.New)

// result resolves (or rolls out) and renders the outcome: OLM v0's for
// the subscriptions, then OLM v1's for the ClusterExtensions (a state with
// only ClusterExtensions gives only v1's).
func (in *input) result(ctx context.Context) (string, error) {
	if len(in.state.ClusterExtensions) == 0 {
		return in.resultV0(ctx)
	}
	v1, err := in.resultV1(ctx)
	if err != nil || (len(in.state.Subscriptions) == 0 && len(in.state.CSVs) == 0) {
		return v1, err
	}
	v0, err := in.resultV0(ctx)
	if err != nil {
		return "", err
	}
	return v0 + "\n" + v1, nil
}

// resultV1 resolves the ClusterExtensions with package olmv1: each
// catalog is the ClusterCatalog of its name (its namespace is not read),
// which a ClusterCatalog of the state describes; the text is
// olmv1.Outcome.WriteText with every bundle passed over.
func (in *input) resultV1(ctx context.Context) (string, error) {
	var cats []olmv1.Catalog
	for _, c := range in.catalogs {
		cc := cluster.NewClusterCatalog(c.Key.Name)
		if found := in.state.ClusterCatalog(c.Key.Name); found != nil {
			cc = *found
		}
		cats = append(cats, olmv1.Catalog{ClusterCatalog: cc, Content: c.Catalog})
	}
	r, err := olmv1.New(cats, in.v1)
	if err != nil {
		return "", err
	}
	res, err := r.Resolve(ctx, in.state)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := res.WriteText(&b, olmv1.TextOptions{Why: true}); err != nil {
		return "", err
	}
	return b.String(), nil
}

// resultV0 resolves (or rolls out) the subscriptions with package
// resolver and renders the outcome.
func (in *input) resultV0(ctx context.Context) (string, error) {
	if in.namespace == "" {
		in.namespace = DefaultNamespace
	}
	// A CatalogSource in the state gives its catalog a priority.
	for i := range in.catalogs {
		for _, cs := range in.state.CatalogSources {
			if (resolver.CatalogKey{Namespace: cs.Namespace, Name: cs.Name}) == in.catalogs[i].Key {
				in.catalogs[i].Priority = cs.Priority
			}
		}
	}
	if in.opts.CEL == nil && !in.noCEL {
		in.opts.CEL = defaultCEL()
	}
	r, err := resolver.New(in.catalogs, in.opts)
	if err != nil {
		return "", err
	}
	if len(in.app) > 0 {
		app, err := r.ResolveFor(ctx, in.namespace, in.state, in.app)
		return FormatApplication(app, err), nil
	}
	if in.rollout > 0 {
		ro, err := r.Rollout(ctx, in.namespace, in.state, resolver.RolloutOptions{MaxRounds: in.rollout, Approve: in.approve})
		if err != nil && ro == nil {
			return "", err
		}
		text := FormatRollout(ro)
		if ro.Outcome == resolver.RolloutSettled {
			stops, err := ro.Stops(ctx, resolver.HeldBackOptions{})
			if err != nil {
				return text + FormatError(err), nil
			}
			text += FormatStops(stops)
		}
		return text, nil
	}
	if in.all {
		all, err := r.ResolveAll(ctx, in.state)
		if err != nil {
			return "", err
		}
		results := make([]Result, len(all))
		for i, s := range all {
			if results[i], err = explained(ctx, s); err != nil {
				return "", err
			}
		}
		return FormatAll(results), nil
	}
	before := in.state.Clone()
	s, err := r.Resolve(ctx, in.namespace, in.state)
	if !reflect.DeepEqual(before, in.state) {
		return "", errors.New("resolvertest: Resolve modified the cluster state it was given")
	}
	if err != nil && s == nil {
		return FormatResult(nil, err), nil
	}
	res, err := explained(ctx, s)
	if err != nil {
		return "", err
	}
	return FormatResult(res.Plan, res.Err) + formatFixes(res.Fixes), nil
}

// Result is one namespace's answer as FormatAll renders it: its plan with
// the held-back reasons, and the fixes of its predicted failures, or the
// error that leaves it without a plan.
type Result struct {
	Namespace string
	Plan      *resolver.Plan
	Err       error
	Fixes     []resolver.Suggestion
}

// explained returns the answer of a resolution: its plan with the
// held-back reasons and, when OLM is predicted to fail some of it, the
// fixes (Resolution.Fixes).
func explained(ctx context.Context, s *resolver.Resolution) (Result, error) {
	res := Result{Namespace: s.Namespace(), Err: s.Err()}
	if res.Err != nil {
		return res, nil
	}
	plan, err := s.HeldBack(ctx, resolver.HeldBackOptions{})
	if err != nil {
		res.Err = err
		return res, nil
	}
	res.Plan = plan
	fixes, err := s.Fixes(ctx, resolver.ExplainOptions{})
	if err != nil {
		return res, err
	}
	res.Fixes = fixes
	return res, nil
}
