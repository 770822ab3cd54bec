package check

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/resolver"
)

// transitiveSpec is a catalog where app needs dep, whose only bundle needs
// an API nobody provides.
const transitiveSpec = `
package app stable
bundle app app.v1 1.0.0 requires-package=dep:>=1.0.0
channel app stable
  entry app.v1
package dep stable
bundle dep dep.v1 1.0.0 requires-gvk=example.com/v1/Gadget
channel dep stable
  entry dep.v1
`

func TestInstallability(t *testing.T) {
	runCases(t, []Check{Installability}, []checkCase{
		{
			name: "requirements met",
			specs: []string{`
package app stable
bundle app app.v1 1.0.0 requires-package=dep:>=1.0.0 requires-gvk=example.com/v1/Widget requires-label=l
channel app stable
  entry app.v1
package dep stable
bundle dep dep.v1 1.2.0 gvk=example.com/v1/Widget label=l
channel dep stable
  entry dep.v1
`},
		},
		{
			name:   "missing API",
			reason: "the head gets an error, an older entry a warning",
			specs: []string{`
package app stable
bundle app app.v1 1.0.0 requires-gvk=example.com/v1/Widget
bundle app app.v2 2.0.0 requires-gvk=example.com/v1/Widget
channel app stable
  entry app.v2 replaces=app.v1
  entry app.v1
`},
			want: []string{"a not-installable app/stable app.v1", "a head-not-installable app/stable app.v2"},
			messages: []string{
				`"app.v1" cannot be installed on an empty cluster from this catalog alone: bundle app.v1 requires olm.gvk.required example.com/v1 Widget, which nothing satisfies`,
				`"app.v2", the head of channel "stable", cannot be installed`,
			},
		},
		{
			name:     "transitive",
			reason:   "app needs dep, whose only bundle needs an API nobody provides: app and dep both fail",
			specs:    []string{transitiveSpec},
			want:     []string{"a head-not-installable app/stable app.v1", "a head-not-installable dep/stable dep.v1"},
			messages: []string{"alone:\n- bundle app.v1 requires olm.package.required dep >=1.0.0, satisfied only by dep.v1", "which nothing satisfies"},
		},
		{
			name:   "only provider skipped or deprecated",
			reason: "skipped entries and olm.deprecated bundles are never dependency candidates; the deprecated bundle itself is not checked",
			specs: []string{`
package app stable
bundle app app.v1 1.0.0 requires-package=dep:<2.0.0
bundle app app.v2 2.0.0 requires-gvk=example.com/v1/Old
channel app stable
  entry app.v2 replaces=app.v1
  entry app.v1
package dep stable
bundle dep dep.v1 1.0.0 gvk=example.com/v1/Old deprecated
bundle dep dep.v15 1.5.0
bundle dep dep.v2 2.0.0
channel dep stable
  entry dep.v2 replaces=dep.v1 skips=dep.v15
  entry dep.v15
  entry dep.v1
`},
			want: []string{"a not-installable app/stable app.v1", "a head-not-installable app/stable app.v2"},
		},
		{
			name:   "two providers of one API",
			reason: "app needs both a and b, which both provide Widget: at most one provider per API",
			specs: []string{`
package app stable
bundle app app.v1 1.0.0 requires-package=a:>=1.0.0 requires-package=b:>=1.0.0
channel app stable
  entry app.v1
package a stable
bundle a a.v1 1.0.0 gvk=example.com/v1/Widget
channel a stable
  entry a.v1
package b stable
bundle b b.v1 1.0.0 gvk=example.com/v1/Widget
channel b stable
  entry b.v1
`},
			want:     []string{"a head-not-installable app/stable app.v1"},
			messages: []string{"\n- at most one provider of API example.com/v1 Widget can be installed"},
			explain:  []string{"at most one provider of API example.com/v1 Widget can be installed: a.v1 (channel stable, catalog olm/a) and b.v1"},
		},
		{
			name:   "dependency in a channel with two heads",
			reason: "the resolver cannot order a channel without a single head: the explanation is its error",
			specs: []string{`
package app stable
bundle app app.v1 1.0.0 requires-package=dep:>=1.0.0
channel app stable
  entry app.v1
package dep stable
bundle dep dep.v1 1.0.0
bundle dep dep.v2 2.0.0
channel dep stable
  entry dep.v1
  entry dep.v2
`},
			want:     []string{"a head-not-installable app/stable app.v1"},
			messages: []string{`has 2 heads`},
		},
		{
			name:   "cel constraint nothing meets",
			reason: "cel rules are evaluated as OLM v0.28 does: no bundle has an arch property, and the failureMessage is in the finding",
			specs: []string{`
package app stable
bundle app app.v1 1.0.0 'constraint={"failureMessage":"needs arch","cel":{"rule":"properties.exists(p, p.type == \"arch\")"}}'
channel app stable
  entry app.v1
`},
			want:     []string{"a head-not-installable app/stable app.v1"},
			messages: []string{`requires olm.constraint cel properties.exists(p, p.type == "arch") ("needs arch"), which nothing satisfies`},
		},
		{
			name:   "cel constraint met",
			reason: "a cel rule with semver_compare that dep 2.0.0 meets: installable, no finding",
			specs: []string{`
package app stable
bundle app app.v1 1.0.0 'constraint={"cel":{"rule":"properties.exists(p, p.type == \"olm.package\" && p.value.packageName == \"dep\" && semver_compare(p.value.version, \"1.5.0\") >= 0)"}}'
channel app stable
  entry app.v1
package dep stable
bundle dep dep.v2 2.0.0
channel dep stable
  entry dep.v2
`},
		},
		{
			name:   "head of a channel with two heads",
			reason: "a startingCSV needs no channel order: both heads install",
			specs: []string{`
package dep stable
bundle dep dep.v1 1.0.0 requires-label=x
bundle dep dep.v2 2.0.0 requires-label=x
channel dep stable
  entry dep.v1
  entry dep.v2
package x stable
bundle x x.v1 1.0.0 label=x
channel x stable
  entry x.v1
`},
		},
	})
}

func TestInstallabilityExplanation(t *testing.T) {
	cat := buildSpec(t, transitiveSpec)
	rep, err := Run(t.Context(), []Input{{Name: "c", Catalog: cat}}, Options{CEL: testCEL, Checks: []Check{Installability}})
	if err != nil {
		t.Fatal(err)
	}
	f := rep.Findings[0]
	if f.Bundle != "app.v1" || f.Explanation == nil {
		t.Fatalf("finding %+v: want app.v1 with an explanation", f)
	}
	var kinds []resolver.FactKind
	for _, fact := range f.Explanation.Facts {
		kinds = append(kinds, fact.Kind)
		if fact.Kind == resolver.FactSubscription {
			t.Errorf("explanation keeps the synthetic subscription's fact %q", fact.String())
		}
	}
	if want := []resolver.FactKind{resolver.FactRequirement, resolver.FactRequirement}; !slices.Equal(kinds, want) {
		t.Errorf("fact kinds %q, want %q\n%s", kinds, want, f.Explanation)
	}
	data, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"explanation":{"facts":[{"kind":"requirement"`) {
		t.Errorf("JSON %s: no structured explanation", data)
	}
	var back Finding
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Explanation.String() != f.Explanation.String() {
		t.Errorf("round trip: explanation %q, want %q", back.Explanation, f.Explanation)
	}
	// The full text lists the facts below the finding; the short form
	// gives the explanation on the finding's line.
	var full, short strings.Builder
	if err := rep.WriteText(&full, TextOptions{Full: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(full.String(), "alone:\n"+strings.Repeat(" ", 35)+"- bundle app.v1 requires olm.package.required") {
		t.Errorf("full text output lacks the explanation:\n%s", full.String())
	}
	if err := rep.WriteText(&short, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if want := "  error    head-not-installable  stable app.v1: requires package dep >=1.0.0, satisfied only by dep.v1; dep.v1 requires API example.com/v1 Gadget: unmet\n"; !strings.Contains(short.String(), want) {
		t.Errorf("short text output lacks the explanation:\n%s", short.String())
	}
}

// TestInstallFastPath checks that deciding requirement-free bundles without
// the resolver gives the report the resolver gives, on every shipped
// index catalog and on a catalog of edge cases.
func TestInstallFastPath(t *testing.T) {
	edge := buildSpec(t, `
package p stable
bundle p p.v1 1.0.0
bundle p p.v2 2.0.0 gvk=example.com/v1/Widget
bundle p p.v3 3.0.0 deprecated
bundle p p.x 0.1.0
bundle p p.lost 0.0.1
channel p stable
  entry p.v3 replaces=p.v2
  entry p.v2 replaces=p.v1 skips=p.x
  entry p.v1
  entry p.x
channel p fast
  entry p.v1
  entry p.v2
`)
	inputs := []Input{{Name: "edge", Catalog: edge}}
	if !testing.Short() {
		inputs = append(inputs, Input{Name: "community", Catalog: loadShipped(t, "community-operators-prod.v4.20-index")})
	}
	for _, in := range inputs {
		t.Run(in.Name, func(t *testing.T) {
			opts := Options{CEL: testCEL, Checks: []Check{Installability}}
			fast, err := Run(t.Context(), []Input{in}, opts)
			if err != nil {
				t.Fatal(err)
			}
			opts.resolveAll = true
			slow, err := Run(t.Context(), []Input{in}, opts)
			if err != nil {
				t.Fatal(err)
			}
			a, _ := json.Marshal(fast)
			b, _ := json.Marshal(slow)
			if string(a) != string(b) {
				t.Errorf("fast path and resolver disagree:\nfast %s\nslow %s", a, b)
			}
		})
	}
}

// TestConcurrencyDeterministic checks that the report does not depend on
// the number of workers.
func TestConcurrencyDeterministic(t *testing.T) {
	name := "community-operators-prod.declared"
	if testing.Short() {
		name = "certified-operators.v4.20-index"
	}
	in := []Input{{Name: name, Catalog: loadShipped(t, name)}}
	var first []byte
	for _, n := range []int{1, 2, 7} {
		rep, err := Run(t.Context(), in, Options{CEL: testCEL, Concurrency: n})
		if err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = data
		} else if string(data) != string(first) {
			t.Fatalf("report with %d workers differs from the one with 1", n)
		}
	}
}
