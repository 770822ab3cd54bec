package resolver

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/graph"
)

// celCache holds a Resolver's compiled cel rules: each distinct rule text
// is compiled once, the first time a resolution reaches it.
type celCache struct {
	mu    sync.Mutex
	rules map[string]celResult
}

type celResult struct {
	rule CELRule
	err  error
}

// ErrNoCEL is wrapped by the error of a resolution that reaches an
// olm.constraint cel rule without an evaluator (Options.CEL). It wraps
// errors.ErrUnsupported.
var ErrNoCEL = fmt.Errorf("no cel evaluator: set resolver.Options.CEL (celrule.New() from github.com/sextantdev/sextant/celrule evaluates rules as OLM v0.28 does; the sextant command uses it): %w", errors.ErrUnsupported)

// celRule returns the compiled rule for text, compiling it the first time.
func (r *Resolver) celRule(text string) (CELRule, error) {
	r.cel.mu.Lock()
	defer r.cel.mu.Unlock()
	if c, ok := r.cel.rules[text]; ok {
		return c.rule, c.err
	}
	rule, err := r.opts.CEL.Compile(text)
	if err == nil && rule == nil {
		err = errors.New("the cel evaluator returned no rule")
	}
	if r.cel.rules == nil {
		r.cel.rules = map[string]celResult{}
	}
	r.cel.rules[text] = celResult{rule, err}
	return rule, err
}

// compileCEL compiles the cel rules of c that this resolution has not met
// yet, so that evalConstraint can evaluate them.
func (res *resolution) compileCEL(c *graph.Constraint) error {
	if c.Kind == graph.ConstraintCEL {
		if _, ok := res.cel[c.CEL]; ok {
			return nil
		}
		if res.r.opts.CEL == nil {
			return fmt.Errorf("olm.constraint with a cel rule (%q): %w", c.CEL, ErrNoCEL)
		}
		rule, err := res.r.celRule(c.CEL)
		if err != nil {
			return fmt.Errorf("olm.constraint with an invalid cel rule (%q): %w", c.CEL, err)
		}
		if res.cel == nil {
			res.cel = map[string]CELRule{}
		}
		res.cel[c.CEL] = rule
		return nil
	}
	for i := range c.Children {
		if err := res.compileCEL(&c.Children[i]); err != nil {
			return err
		}
	}
	return nil
}

// celProperties returns the properties a cel rule sees for an installed
// CSV, as OLM builds them: the properties annotation's when the CSV has
// one; otherwise olm.gvk for each provided API, olm.gvk.required for each
// required one, and olm.package when the CSV's package is known from its
// subscription (its version empty when spec.version is absent).
func (n *instNode) celProperties() []graph.Property {
	if n.celDone {
		return n.celProps
	}
	n.celDone = true
	if n.csv.Properties != nil {
		n.celProps = n.csv.Properties.List()
		return n.celProps
	}
	var props []graph.Property
	add := func(typ string, v any) {
		b, err := json.Marshal(v)
		if err == nil {
			props = append(props, graph.Property{Type: typ, Value: b})
		}
	}
	for _, g := range n.provides {
		add(graph.TypeGVK, g)
	}
	for _, g := range n.csv.Requires {
		add(graph.TypeGVKRequired, g)
	}
	if n.pkg != "" {
		version := ""
		if !n.csv.Version.Equals(semver.Version{}) {
			version = n.csv.Version.String()
		}
		add(graph.TypePackage, map[string]string{"packageName": n.pkg, "version": version})
	}
	n.celProps = props
	return props
}
