package check

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/graph"
)

// buildSpec builds a catalog from a compact line format used by the tests:
//
//	package NAME [DEFAULT-CHANNEL]
//	bundle PACKAGE NAME VERSION [gvk=G/V/K] [requires-gvk=G/V/K] [requires-package=PKG:RANGE]
//	       [label=L] [requires-label=L] [deprecated] [csv='OLM.CSV.METADATA JSON']
//	channel PACKAGE NAME
//	  entry NAME [replaces=NAME] [skips=A,B] [skipRange='RANGE']
//	deprecate PACKAGE SCHEMA [NAME]
//
// Values with spaces are single-quoted. Blank lines and lines starting with
// # are ignored.
func buildSpec(t testing.TB, spec string) *graph.Catalog {
	t.Helper()
	b := graph.NewBuilder()
	type pending struct {
		pkg, name string
		entries   []graph.Entry
	}
	var chans []*pending
	for n, line := range strings.Split(spec, "\n") {
		f := tokens(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("spec line %d %q: %s", n+1, line, fmt.Sprintf(format, args...))
		}
		switch f[0] {
		case "package":
			def := ""
			if len(f) > 2 {
				def = f[2]
			}
			b.AddPackage(f[1], def)
		case "bundle":
			if len(f) < 4 {
				fail("want bundle PACKAGE NAME VERSION ...")
			}
			props := []graph.Property{graph.PackageProperty(f[1], f[3])}
			for _, kv := range f[4:] {
				k, v, _ := strings.Cut(kv, "=")
				switch k {
				case "gvk":
					props = append(props, graph.GVKProperty(parseGVK(t, v)))
				case "requires-gvk":
					props = append(props, graph.RequiredGVKProperty(parseGVK(t, v)))
				case "requires-package":
					pkg, r, _ := strings.Cut(v, ":")
					props = append(props, graph.RequiredPackageProperty(pkg, r))
				case "label":
					props = append(props, graph.LabelProperty(v))
				case "requires-label":
					props = append(props, graph.RequiredLabelProperty(v))
				case "deprecated":
					props = append(props, graph.DeprecatedProperty())
				case "constraint":
					props = append(props, graph.Property{Type: graph.TypeConstraint, Value: []byte(v)})
				case "csv":
					props = append(props, graph.Property{Type: "olm.csv.metadata", Value: []byte(v)})
				case "csv-manifest": // the spec of a CSV manifest the bundle embeds (olm.bundle.object)
					csv := `{"kind":"ClusterServiceVersion","metadata":{"name":"` + f[2] + `"},"spec":` + v + `}`
					props = append(props, graph.Property{Type: graph.TypeBundleObject,
						Value: []byte(`{"data":"` + base64.StdEncoding.EncodeToString([]byte(csv)) + `"}`)})
				default:
					fail("unknown bundle attribute %q", k)
				}
			}
			if err := b.AddBundle(f[2], f[1], "example.com/"+f[2], props...); err != nil {
				fail("%v", err)
			}
		case "channel":
			chans = append(chans, &pending{pkg: f[1], name: f[2]})
		case "entry":
			if len(chans) == 0 {
				fail("entry outside a channel")
			}
			e := graph.Entry{Name: f[1]}
			for _, kv := range f[2:] {
				k, v, _ := strings.Cut(kv, "=")
				switch k {
				case "replaces":
					e.Replaces = v
				case "skips":
					e.Skips = strings.Split(v, ",")
				case "skipRange":
					e.SkipRange, _ = graph.ParseRange(v)
				default:
					fail("unknown entry attribute %q", k)
				}
			}
			c := chans[len(chans)-1]
			c.entries = append(c.entries, e)
		case "deprecate":
			ref := graph.DeprecationRef{Schema: f[2]}
			if len(f) > 3 {
				ref.Name = f[3]
			}
			b.AddDeprecations(f[1], graph.Deprecation{Reference: ref, Message: "deprecated"})
		default:
			fail("unknown directive %q", f[0])
		}
	}
	for _, c := range chans {
		b.AddChannel(c.pkg, c.name, c.entries...)
	}
	cat, err := b.Build()
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	return cat
}

// tokens splits a line on spaces, keeping single-quoted parts together
// (without their quotes).
func tokens(line string) []string {
	var out []string
	var cur strings.Builder
	in, have := false, false
	for _, r := range line {
		switch {
		case r == '\'':
			in = !in
			have = true
		case (r == ' ' || r == '\t') && !in:
			if have {
				out = append(out, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteRune(r)
			have = true
		}
	}
	if have {
		out = append(out, cur.String())
	}
	return out
}

func parseGVK(t testing.TB, s string) graph.GVK {
	parts := strings.Split(s, "/")
	if len(parts) != 3 {
		t.Fatalf("gvk %q: want GROUP/VERSION/KIND", s)
	}
	return graph.GVK{Group: parts[0], Version: parts[1], Kind: parts[2]}
}
