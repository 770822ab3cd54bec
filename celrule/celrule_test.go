package celrule_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/celrule"
	"github.com/sextantdev/sextant/graph"
)

func props(kv ...string) []graph.Property {
	var ps []graph.Property
	for i := 0; i+1 < len(kv); i += 2 {
		ps = append(ps, graph.Property{Type: kv[i], Value: []byte(kv[i+1])})
	}
	return ps
}

func TestEval(t *testing.T) {
	pkg := props("olm.package", `{"packageName":"app","version":"1.2.3"}`, "olm.gvk", `{"group":"example.com","version":"v1","kind":"Widget"}`, "certified", `true`, "olm.maxOpenShiftVersion", `4.12`)
	tests := []struct {
		name, rule string
		props      []graph.Property
		want       bool
		wantErr    string // substring of Eval's error; empty for none
		reason     string
	}{
		{name: "true", rule: "true", want: true},
		{name: "exists type", rule: `properties.exists(p, p.type == "certified")`, props: pkg, want: true},
		{name: "exists type absent", rule: `properties.exists(p, p.type == "certified")`, props: props("olm.package", `{"packageName":"x","version":"1.0.0"}`), want: false},
		{name: "bool value", rule: `properties.exists(p, p.type == "certified" && p.value == true)`, props: pkg, want: true},
		{name: "semver_compare higher", rule: `properties.exists(p, p.type == "olm.package" && semver_compare(p.value.version, "1.2.0") > 0)`, props: pkg, want: true},
		{name: "semver_compare equal", rule: `properties.exists(p, p.type == "olm.package" && semver_compare(p.value.version, "v1.2.3") == 0)`, props: pkg, want: true, reason: "a leading v is tolerated"},
		{name: "semver_compare lower", rule: `properties.exists(p, p.type == "olm.package" && semver_compare(p.value.version, "2") == -1)`, props: pkg, want: true, reason: "missing minor and patch are tolerated"},
		{name: "semver_compare on a number", rule: `properties.exists(p, p.type == "olm.maxOpenShiftVersion" && semver_compare(p.value, "4.12.0") == 0)`, props: pkg, want: true, reason: "a JSON number is formatted as text (4.12) and parsed tolerantly"},
		{name: "semver_compare unparsable", rule: `semver_compare("not a version", "1.0.0") == 0`, wantErr: "cannot parse", reason: "an evaluation error"},
		{name: "missing key", rule: `properties.exists(p, p.value.nothing == "x")`, props: pkg, wantErr: "no such key", reason: "an evaluation error: no match"},
		{name: "gvk", rule: `properties.exists(p, p.type == "olm.gvk" && p.value.kind == "Widget" && p.value.group == "example.com")`, props: pkg, want: true},
		{name: "invalid JSON value", rule: `properties.size() == 1`, props: props("x", `{`), want: true, reason: "the entry stays, empty"},
	}
	e := celrule.New()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := e.CompileRule(tt.rule)
			if err != nil {
				t.Fatalf("CompileRule(%q): %v", tt.rule, err)
			}
			got, err := r.Eval(tt.props)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Eval = %v, %v; want an error containing %q (%s)", got, err, tt.wantErr, tt.reason)
				}
				if r.Matches(tt.props) {
					t.Error("Matches is true on an evaluation error")
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Eval = %v, %v; want %v (%s)", got, err, tt.want, tt.reason)
			}
			if r.Matches(tt.props) != tt.want {
				t.Errorf("Matches disagrees with Eval")
			}
		})
	}
}

func TestCompileErrors(t *testing.T) {
	tests := []struct{ name, rule, wantErr string }{
		{"syntax", `properties.exists(p,`, "Syntax error"},
		{"not bool", `1 + 2`, "must be of type bool, not int"},
		{"dyn", `properties[0].value`, "must be of type bool"},
		{"unknown variable", `bundle.name == "x"`, "undeclared reference"},
		{"wrong argument count", `semver_compare("1.0.0") == 0`, "found no matching overload"},
	}
	e := celrule.New()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.CompileRule(tt.rule)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("CompileRule(%q) = %v, want an error containing %q", tt.rule, err, tt.wantErr)
			}
			if _, err2 := e.Compile(tt.rule); err2 == nil || err2.Error() != err.Error() {
				t.Errorf("second compile: %v, want the same error", err2)
			}
		})
	}
}

func TestCompileOnce(t *testing.T) {
	e := celrule.New()
	a, err := e.CompileRule("true")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := e.CompileRule("true")
	if a != b {
		t.Error("the same rule text compiled twice")
	}
}

// TestResolverDoesNotLinkCEL checks the reason this package exists: the
// resolver package does not depend on cel-go, the sextant command does.
func TestResolverDoesNotLinkCEL(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	deps := func(pkg string) string {
		out, err := exec.Command(goCmd, "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		return string(out)
	}
	for _, pkg := range []string{"../resolver", "../graph", "../constraints", "../cluster"} {
		if strings.Contains(deps(pkg), "github.com/google/cel-go") {
			t.Errorf("%s depends on cel-go", pkg)
		}
	}
	if !strings.Contains(deps("../cmd/sextant"), "github.com/google/cel-go/cel\n") {
		t.Error("cmd/sextant does not link cel-go")
	}
}

func BenchmarkRuleEval(b *testing.B) {
	r, err := celrule.New().CompileRule(`properties.exists(p, p.type == "olm.package" && p.value.packageName == "lib" && semver_compare(p.value.version, "2.0.0") < 0)`)
	if err != nil {
		b.Fatal(err)
	}
	ps := props("olm.package", `{"packageName":"lib","version":"1.5.0"}`, "olm.gvk", `{"group":"example.com","version":"v1","kind":"Widget"}`,
		"olm.gvk.required", `{"group":"example.com","version":"v1","kind":"Gadget"}`, "olm.csv.metadata", `{"displayName":"Lib","description":"a library operator"}`)
	b.ReportAllocs()
	for b.Loop() {
		if !r.Matches(ps) {
			b.Fatal("no match")
		}
	}
}

// FuzzRule checks that compiling and evaluating any rule over any property
// value never panics, that an evaluation error comes with false, and that
// Matches agrees with Eval. Rules that iterate over a map's keys may give
// different answers from run to run (CEL iterates Go maps, and so does
// OLM); such an input is skipped rather than reported.
func FuzzRule(f *testing.F) {
	f.Add(`properties.exists(p, p.type == "olm.package" && semver_compare(p.value.version, "1.0.0") >= 0)`, "olm.package", `{"packageName":"a","version":"1.2.0"}`)
	f.Add(`properties.all(p, p.value.x > 1)`, "t", `{"x":2}`)
	f.Add(`semver_compare(properties[0].value, "v1") == 0`, "t", `"1"`)
	f.Add(`size(properties) == 1`, "t", `[1,2,{"a":null}]`)
	e := celrule.New()
	f.Fuzz(func(t *testing.T, rule, typ, value string) {
		r, err := e.CompileRule(rule)
		if err != nil {
			if r != nil {
				t.Fatal("a rule and an error")
			}
			return
		}
		ps := props(typ, value)
		a, errA := r.Eval(ps)
		if errA != nil && a {
			t.Fatalf("Eval = true with error %v", errA)
		}
		b, errB := r.Eval(ps)
		if (errA == nil) != (errB == nil) || a != b {
			t.Skip("the rule's answer depends on map iteration order")
		}
		if m := r.Matches(ps); m != (errA == nil && a) {
			if c, errC := r.Eval(ps); (errC == nil) == (errA == nil) && c == a {
				t.Fatalf("Matches = %v, Eval = %v, %v", m, a, errA)
			}
		}
	})
}

// TestConcurrentUse shares one Evaluator and its rules between goroutines
// (run with -race).
func TestConcurrentUse(t *testing.T) {
	e := celrule.New()
	ps := props("olm.package", `{"packageName":"lib","version":"1.5.0"}`)
	rules := []string{`true`, `properties.exists(p, semver_compare(p.value.version, "1.0.0") > 0)`, `1 + 1`}
	done := make(chan bool)
	for i := range 8 {
		go func() {
			ok := true
			for j := range 50 {
				r, err := e.CompileRule(rules[(i+j)%len(rules)])
				if err == nil && !r.Matches(ps) {
					ok = false
				}
			}
			done <- ok
		}()
	}
	for range 8 {
		if !<-done {
			t.Error("a rule that matches did not match")
		}
	}
}
