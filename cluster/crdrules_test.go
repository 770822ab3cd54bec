package cluster

import (
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// TestCRDRulesAgreeWithCEL: each validation rule of the OLM v1 CRDs,
// compiled to Go by internal/schemagen, gives what CEL gives for the rule
// as the CRD writes it, on values written to hit every branch (the
// strings near the rules' patterns, objects with and without each field).
// find is Kubernetes' regex library function (the first match, "" for
// none).
func TestCRDRulesAgreeWithCEL(t *testing.T) {
	env, err := cel.NewEnv(cel.Variable("self", cel.DynType),
		// substring(i) as cel-go's strings extension has it (code points;
		// past the end an error), written here to keep that extension's
		// dependencies out of the module.
		cel.Function("substring", cel.MemberOverload("string_substring_int", []*cel.Type{cel.StringType, cel.IntType}, cel.StringType,
			cel.BinaryBinding(func(s, i ref.Val) ref.Val {
				r := []rune(string(s.(types.String)))
				n := int(i.(types.Int))
				if n < 0 || n > len(r) {
					return types.NewErr("index out of range: %d", n)
				}
				return types.String(string(r[n:]))
			}))),
		cel.Function("find", cel.MemberOverload("string_find_string", []*cel.Type{cel.StringType, cel.StringType}, cel.StringType,
			cel.BinaryBinding(func(s, re ref.Val) ref.Val {
				return types.String(regexp.MustCompile(string(re.(types.String))).FindString(string(s.(types.String))))
			}))))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	strs := ruleStrings(rng)
	seen := map[string]bool{}
	for key, root := range v1Schemas() {
		walkSchemas(root, func(s *crdSchema) {
			for _, r := range s.rules {
				if seen[s.typ+r.rule] {
					continue
				}
				seen[s.typ+r.rule] = true
				ast, iss := env.Compile(r.rule)
				if iss.Err() != nil {
					t.Fatalf("%v: %s: %v", key, r.rule, iss.Err())
				}
				prg, err := env.Program(ast)
				if err != nil {
					t.Fatal(err)
				}
				var values []any
				if s.typ == "string" {
					for _, v := range strs {
						values = append(values, v)
					}
				} else {
					values = ruleObjects(s, strs, rng)
				}
				for _, v := range values {
					out, _, err := prg.Eval(map[string]any{"self": celValue(v)})
					if err != nil {
						t.Errorf("%s on %v: CEL fails: %v", r.rule, v, err)
						continue
					}
					if got, want := r.check(v), out == types.True; got != want {
						t.Errorf("%s on %#v: Go %v, CEL %v", r.rule, v, got, want)
					}
				}
			}
		})
	}
	if len(seen) < 15 {
		t.Errorf("%d rules checked, want every one", len(seen))
	}
}

// walkSchemas calls f on s and every schema under it.
func walkSchemas(s *crdSchema, f func(*crdSchema)) {
	if s == nil {
		return
	}
	f(s)
	for _, p := range s.props {
		walkSchemas(p, f)
	}
	walkSchemas(s.items, f)
	walkSchemas(s.additional, f)
}

// ruleStrings returns strings near the rules' patterns: names, versions,
// image references, and random mixes of their characters.
func ruleStrings(rng *rand.Rand) []string {
	out := []string{"", "a", "ns", "Foo", "-a", "a-", "a.b", "a..b", "a_b", "x.y-z", "1.2.3", ">=1.0.0, <2.0.0", "~1.2",
		"^1", "1.x", "v1.2.3-rc.1+b", ">>1", "junk", "1.0.0 || 2.0.0", "=1", "!=1.2", "quay.io/a/b:latest", "quay.io/a/b",
		"quay.io/a/b@sha256:" + string(make([]byte, 0)), "quay.io/a/b@sha256:0123456789abcdef0123456789abcdef",
		"quay.io/a/b@sha256:0123456789abcdef0123456789abcdeg", "quay.io/a/b@md5:0123456789abcdef0123456789abcdef01",
		"localhost:5000/a/b:v1", "b:1", "quay.io/a/b:-x", "quay.io/a/b:" + repeat('t', 127), "quay.io/a/b:" + repeat('t', 128),
		"é", "a/b", "Quay.io/A/b:1", "quay.io//b:1", ":", "@:", "a@b:c"}
	alphabet := "aZ09.-_:/@+ ^~<>=,|xXé"
	for range 400 {
		n := rng.IntN(24)
		b := make([]rune, 0, n)
		for range n {
			b = append(b, []rune(alphabet)[rng.IntN(len([]rune(alphabet)))])
		}
		out = append(out, string(b))
	}
	return out
}

func repeat(c byte, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = c
	}
	return string(b)
}

// ruleObjects returns objects of schema s with each of its properties
// present or not, the strings from strs and integers for integers.
func ruleObjects(s *crdSchema, strs []string, rng *rand.Rand) []any {
	var out []any
	for range 300 {
		m := map[string]any{}
		for k, p := range s.props {
			if rng.IntN(3) == 0 && !contains(s.required, k) {
				continue
			}
			switch p.typ {
			case "string":
				if len(p.enum) > 0 && rng.IntN(2) == 0 {
					m[k] = p.enum[rng.IntN(len(p.enum))]
				} else {
					m[k] = strs[rng.IntN(len(strs))]
				}
			case "integer":
				m[k] = json.Number("10")
			default:
				m[k] = map[string]any{}
			}
		}
		out = append(out, m)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// celValue turns a decoded value into what CEL takes.
func celValue(v any) any {
	switch v := v.(type) {
	case json.Number:
		n, _ := v.Int64()
		return n
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			out[k] = celValue(x)
		}
		return out
	}
	return v
}
