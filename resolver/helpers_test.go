package resolver_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

// cat describes a catalog for tests: packages with channels and bundles.
type cat struct {
	key      resolver.CatalogKey
	priority int
	pkgs     []pkg
}

type pkg struct {
	name     string
	def      string
	channels []ch
	bundles  []bdl
	deps     []graph.Deprecation
}

type ch struct {
	name    string
	entries []graph.Entry
}

type bdl struct {
	name, version string
	props         []graph.Property
}

// e is a channel entry: name, replaces, skips....
func e(name, replaces string, skips ...string) graph.Entry {
	return graph.Entry{Name: name, Replaces: replaces, Skips: skips}
}

func eRange(name, replaces, skipRange string) graph.Entry {
	r, err := graph.ParseRange(skipRange)
	if err != nil {
		panic(err)
	}
	return graph.Entry{Name: name, Replaces: replaces, SkipRange: r}
}

var (
	gvk      = func(g, v, k string) graph.GVK { return graph.GVK{Group: g, Version: v, Kind: k} }
	provides = func(g graph.GVK) graph.Property { return graph.GVKProperty(g) }
	requires = func(g graph.GVK) graph.Property { return graph.RequiredGVKProperty(g) }
	needsPkg = graph.RequiredPackageProperty
	raw      = func(typ, value string) graph.Property { return graph.Property{Type: typ, Value: []byte(value)} }
)

func key(ns, name string) resolver.CatalogKey { return resolver.CatalogKey{Namespace: ns, Name: name} }

func buildCatalog(t testing.TB, c cat) resolver.Catalog {
	t.Helper()
	b := graph.NewBuilder()
	for _, p := range c.pkgs {
		b.AddPackage(p.name, p.def)
		for _, ch := range p.channels {
			b.AddChannel(p.name, ch.name, ch.entries...)
		}
		for _, bd := range p.bundles {
			props := append([]graph.Property{graph.PackageProperty(p.name, bd.version)}, bd.props...)
			if err := b.AddBundle(bd.name, p.name, "img/"+bd.name, props...); err != nil {
				t.Fatal(err)
			}
		}
		if p.deps != nil {
			b.AddDeprecations(p.name, p.deps...)
		}
	}
	gc, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if c.key == (resolver.CatalogKey{}) {
		c.key = key("olm", "community")
	}
	return resolver.Catalog{Key: c.key, Priority: c.priority, Catalog: gc}
}

func newResolver(t testing.TB, opts resolver.Options, cs ...cat) *resolver.Resolver {
	t.Helper()
	var catalogs []resolver.Catalog
	for _, c := range cs {
		catalogs = append(catalogs, buildCatalog(t, c))
	}
	r, err := resolver.New(catalogs, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// sub returns a subscription in namespace "ns" to package on channel from
// the catalog olm/community.
func sub(name, pkg, channel string) cluster.Subscription {
	return cluster.Subscription{Name: name, Namespace: "ns", Package: pkg, Channel: channel, Source: "community", SourceNamespace: "olm"}
}

func installedSub(name, pkg, channel, csv string) cluster.Subscription {
	s := sub(name, pkg, channel)
	s.InstalledCSV, s.CurrentCSV = csv, csv
	return s
}

func csv(name, version string, props ...graph.Property) cluster.CSV {
	c := cluster.CSV{Name: name, Namespace: "ns", VersionText: version, Phase: "Succeeded"}
	if version != "" {
		c.Version = mustVersion(version)
	}
	if props != nil {
		c.HasProperties, c.Properties = true, props
	}
	return c
}

// summary renders a plan compactly: one line per step, then unchanged CSVs.
func summary(p *resolver.Plan) string {
	var lines []string
	for _, s := range p.Steps {
		l := fmt.Sprintf("%s %s", s.Action, s.Bundle)
		if s.Replaces != "" {
			l = fmt.Sprintf("%s %s->%s", s.Action, s.Replaces, s.Bundle)
		}
		l += fmt.Sprintf(" [%s %s] %s", s.Catalog.Name, s.Channel, s.Reason)
		if s.Dependency {
			l += " +sub"
		}
		for _, w := range s.Warnings {
			l += " !" + w
		}
		lines = append(lines, l)
	}
	for _, u := range p.Unchanged {
		lines = append(lines, "keep "+u.CSV)
	}
	return strings.Join(lines, "\n")
}

func mustVersion(s string) semver.Version {
	v, err := semver.ParseTolerant(s)
	if err != nil {
		panic(err)
	}
	return v
}

var (
	widget = gvk("example.com", "v1", "Widget")
	gadget = gvk("example.com", "v1", "Gadget")
)

// etcd is a package with a three-entry chain on "alpha" (the default) and a
// "beta" channel whose head is etcd.v4.
func etcd(extra ...bdl) pkg {
	return pkg{
		name: "etcd", def: "alpha",
		channels: []ch{
			{"alpha", []graph.Entry{e("etcd.v3", "etcd.v2"), e("etcd.v2", "etcd.v1"), e("etcd.v1", "")}},
			{"beta", []graph.Entry{e("etcd.v4", "etcd.v3"), e("etcd.v3", "")}},
		},
		bundles: append([]bdl{
			{"etcd.v1", "0.1.0", nil}, {"etcd.v2", "0.2.0", nil}, {"etcd.v3", "0.3.0", nil}, {"etcd.v4", "0.4.0", nil},
		}, extra...),
	}
}

// single is a package with one channel "stable" holding one bundle.
func single(name, version string, props ...graph.Property) pkg {
	b := name + ".v" + version
	return pkg{name: name, def: "stable", channels: []ch{{"stable", []graph.Entry{e(b, "")}}}, bundles: []bdl{{b, version, props}}}
}

func summaryState(s *cluster.State) string {
	var b strings.Builder
	if err := cluster.Encode(&b, s); err != nil {
		return err.Error()
	}
	return b.String()
}
