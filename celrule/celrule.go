// Package celrule evaluates the cel rules of olm.constraint properties as
// Operator Lifecycle Manager v0.28 does, with github.com/google/cel-go.
//
// A rule is a CEL expression of type bool over one variable, properties:
// the candidate bundle's properties as a list of maps {"type": string,
// "value": any}, each value decoded from its JSON. One function is added to
// CEL's standard library: semver_compare(a, b) returns -1, 0 or 1 as
// version a is lower than, equal to or higher than b, each argument
// formatted as text and parsed tolerantly (a leading "v", missing minor or
// patch numbers are accepted); a value that does not parse is an
// evaluation error. A rule that does not compile, or whose type is not
// bool, is an error of [Evaluator.Compile]; an evaluation error, or a
// result that is not a bool, means the bundle does not match.
//
// Evaluation is deterministic except for rules whose result depends on the
// order of a map's keys (p.value.map(k, k)[0], say): CEL iterates Go maps,
// in OLM as here. Real rules test whether a property exists and do not.
//
// The resolver does not import this package: give it an [Evaluator]
// through resolver.Options.CEL, so that programs that never meet a cel rule
// do not link cel-go.
//
//	r, err := resolver.New(catalogs, resolver.Options{CEL: celrule.New()})
package celrule

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/blang/semver/v4"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

// PropertiesVariable is the name of the variable a rule reads.
const PropertiesVariable = "properties"

// Evaluator compiles cel rules, each distinct rule text once (the compiled
// rule, or the error, is kept for the Evaluator's lifetime). The zero value
// is not usable; call [New]. An Evaluator is safe for concurrent use.
type Evaluator struct {
	env   func() *cel.Env // made on the first compile: most catalogs have no rule
	mu    sync.Mutex
	rules map[string]compiled
}

type compiled struct {
	rule *Rule
	err  error
}

var _ resolver.CEL = (*Evaluator)(nil)

// New returns an Evaluator with OLM's environment: the properties variable
// and semver_compare. The environment is made when the first rule is
// compiled (~1 ms), so an Evaluator that compiles none costs nothing.
func New() *Evaluator {
	return &Evaluator{env: sync.OnceValue(newEnv), rules: map[string]compiled{}}
}

// newEnv returns OLM's cel environment for rules.
func newEnv() *cel.Env {
	env, err := cel.NewEnv(
		cel.Variable(PropertiesVariable, cel.ListType(cel.MapType(cel.StringType, cel.AnyType))),
		cel.Function("semver_compare",
			cel.Overload("semver_compare", []*cel.Type{cel.AnyType, cel.AnyType}, cel.IntType,
				cel.BinaryBinding(semverCompare))),
	)
	if err != nil {
		// The environment is fixed: it fails only if cel-go changes
		// incompatibly, which the tests catch.
		panic(fmt.Sprintf("celrule: cel environment: %v", err))
	}
	return env
}

// Compile compiles rule, or returns the result of an earlier Compile of the
// same text. It is [Evaluator.CompileRule] with the result typed for
// resolver.Options.CEL.
func (e *Evaluator) Compile(rule string) (resolver.CELRule, error) {
	r, err := e.CompileRule(rule)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// CompileRule compiles rule, or returns the result of an earlier compile of
// the same text. The error says why the rule is invalid: a syntax or type
// error, or a type other than bool.
func (e *Evaluator) CompileRule(rule string) (*Rule, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if c, ok := e.rules[rule]; ok {
		return c.rule, c.err
	}
	r, err := e.compile(rule)
	e.rules[rule] = compiled{r, err}
	return r, err
}

func (e *Evaluator) compile(rule string) (*Rule, error) {
	ast, issues := e.env().Compile(rule)
	if err := issues.Err(); err != nil {
		return nil, err
	}
	if t := ast.OutputType(); !t.IsExactType(cel.BoolType) {
		return nil, fmt.Errorf("a cel rule must be of type bool, not %s", t)
	}
	prog, err := e.env().Program(ast)
	if err != nil {
		return nil, err
	}
	return &Rule{text: rule, prog: prog}, nil
}

// Rule is a compiled rule. It is safe for concurrent use.
type Rule struct {
	text string
	prog cel.Program
}

// String returns the rule's text.
func (r *Rule) String() string { return r.text }

// Matches reports whether a bundle with these properties meets the rule:
// [Rule.Eval] without the error, which means no match.
func (r *Rule) Matches(properties []graph.Property) bool {
	ok, err := r.Eval(properties)
	return err == nil && ok
}

// Eval evaluates the rule over properties. A property whose value is not
// valid JSON is seen as an empty entry, as OLM leaves it. The error is the
// evaluation error, or says that the result is not a bool.
func (r *Rule) Eval(properties []graph.Property) (bool, error) {
	list := make([]any, len(properties))
	for i, p := range properties {
		var v any
		if err := json.Unmarshal(p.Value, &v); err != nil {
			list[i] = map[string]any(nil)
			continue
		}
		list[i] = map[string]any{"type": p.Type, "value": v}
	}
	out, _, err := r.prog.Eval(map[string]any{PropertiesVariable: list})
	if err != nil {
		return false, err
	}
	b, ok := out.Value().(bool)
	if !ok {
		return false, fmt.Errorf("cel rule %q evaluated to %T, not bool", r.text, out.Value())
	}
	return b, nil
}

// semverCompare compares two values as versions: each is formatted as
// text and parsed tolerantly.
func semverCompare(a, b ref.Val) ref.Val {
	va, err := semver.ParseTolerant(fmt.Sprint(a.Value()))
	if err != nil {
		return types.NewErr("semver_compare: cannot parse %q as a version", fmt.Sprint(a.Value()))
	}
	vb, err := semver.ParseTolerant(fmt.Sprint(b.Value()))
	if err != nil {
		return types.NewErr("semver_compare: cannot parse %q as a version", fmt.Sprint(b.Value()))
	}
	return types.Int(va.Compare(vb))
}
