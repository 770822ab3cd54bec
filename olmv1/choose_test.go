package olmv1_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/olmv1"
)

// fbc builds a catalog from YAML documents.
func fbc(t testing.TB, docs string) *graph.Catalog {
	t.Helper()
	c, err := graph.Decode(strings.NewReader(docs), "catalog.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// etcd: channels stable (1.0.0 → 1.1.0 → 1.2.0, skipRange on 1.2.0) and
// fast (1.2.0 → 2.0.0-rc.1 → 2.0.0), a deprecated 1.3.0 in stable, a
// bundle in no channel, a release in build metadata.
const etcdFBC = `
schema: olm.package
name: etcd
defaultChannel: stable
---
schema: olm.channel
package: etcd
name: stable
entries:
- {name: etcd.v1.0.0}
- {name: etcd.v1.1.0, replaces: etcd.v1.0.0}
- {name: etcd.v1.2.0, replaces: etcd.v1.1.0, skipRange: ">=1.0.0 <1.2.0"}
- {name: etcd.v1.3.0, replaces: etcd.v1.2.0}
---
schema: olm.channel
package: etcd
name: fast
entries:
- {name: etcd.v1.2.0}
- {name: etcd.v2.0.0-rc.1, replaces: etcd.v1.2.0}
- {name: etcd.v2.0.0, replaces: etcd.v2.0.0-rc.1}
- {name: etcd.v2.0.0-1, replaces: etcd.v2.0.0}
---
schema: olm.deprecations
package: etcd
entries:
- {reference: {schema: olm.bundle, name: etcd.v1.3.0}, message: broken}
---
schema: olm.bundle
package: etcd
name: etcd.v1.0.0
image: x
properties: [{type: olm.package, value: {packageName: etcd, version: 1.0.0}}]
---
schema: olm.bundle
package: etcd
name: etcd.v1.1.0
image: x
properties: [{type: olm.package, value: {packageName: etcd, version: 1.1.0}}]
---
schema: olm.bundle
package: etcd
name: etcd.v1.2.0
image: x
properties: [{type: olm.package, value: {packageName: etcd, version: 1.2.0}}]
---
schema: olm.bundle
package: etcd
name: etcd.v1.3.0
image: x
properties: [{type: olm.package, value: {packageName: etcd, version: 1.3.0}}]
---
schema: olm.bundle
package: etcd
name: etcd.v2.0.0-rc.1
image: x
properties: [{type: olm.package, value: {packageName: etcd, version: 2.0.0-rc.1}}]
---
schema: olm.bundle
package: etcd
name: etcd.v2.0.0
image: x
properties: [{type: olm.package, value: {packageName: etcd, version: 2.0.0}}]
---
schema: olm.bundle
package: etcd
name: etcd.v2.0.0-1
image: x
properties: [{type: olm.package, value: {packageName: etcd, version: "2.0.0+1"}}]
`

// lonely: a bundle in no channel.
const lonelyFBC = `
schema: olm.package
name: lonely
defaultChannel: stable
---
schema: olm.channel
package: lonely
name: stable
entries:
- {name: lonely.v1.0.0}
---
schema: olm.bundle
package: lonely
name: lonely.v1.0.0
image: x
properties: [{type: olm.package, value: {packageName: lonely, version: 1.0.0}}]
---
schema: olm.bundle
package: lonely
name: lonely.v9.0.0
image: x
properties: [{type: olm.package, value: {packageName: lonely, version: 9.0.0}}]
---
schema: olm.package
name: needs
defaultChannel: stable
---
schema: olm.channel
package: needs
name: stable
entries:
- {name: needs.v1.0.0}
---
schema: olm.bundle
package: needs
name: needs.v1.0.0
image: x
properties: [{type: olm.package, value: {packageName: needs, version: 1.0.0}}, {type: olm.gvk.required, value: {group: g, version: v1, kind: K}}]
`

func catalog(name string, prio int32, content *graph.Catalog) olmv1.Catalog {
	c := cluster.NewClusterCatalog(name)
	c.Priority = prio
	return olmv1.Catalog{ClusterCatalog: c, Content: content}
}

func TestChoose(t *testing.T) {
	etcd := fbc(t, etcdFBC)
	lonely := fbc(t, lonelyFBC)
	one := []olmv1.Catalog{catalog("community", 0, etcd), catalog("other", 0, lonely)}
	unavailable := catalog("community", 0, etcd)
	unavailable.AvailabilityMode = cluster.AvailabilityUnavailable
	notServed := catalog("community", 0, etcd)
	notServed.Serving = "False"
	labelled := catalog("labelled", 5, etcd)
	labelled.Labels["tier"] = "prod"
	installed := func(name, version string) *cluster.InstalledBundle {
		return &cluster.InstalledBundle{Name: name, Version: version}
	}
	release := "7"
	tests := []struct {
		name      string
		reason    string
		catalogs  []olmv1.Catalog
		ext       cluster.ClusterExtension
		installed *cluster.InstalledBundle
		want      string // bundle (catalog) or "error: ..."
	}{
		{"fresh, no channel", "the highest version of every channel, release breaks the tie with 2.0.0",
			one, cluster.ClusterExtension{Package: "etcd"}, nil, "etcd.v2.0.0-1 (community)"},
		{"fresh, channel", "only stable's bundles; the deprecated 1.3.0 ranks last",
			one, cluster.ClusterExtension{Package: "etcd", Channels: []string{"stable"}}, nil, "etcd.v1.2.0 (community)"},
		{"fresh, every candidate deprecated", "deprecated bundles are still chosen when nothing else is left",
			one, cluster.ClusterExtension{Package: "etcd", Version: ">=1.3.0 <2.0.0-0"}, nil, "etcd.v1.3.0 (community)"},
		{"range without pre-release", "Masterminds: 2.0.0-rc.1 is not in >=1.5.0 <2.0.0; 2.0.0 is above",
			one, cluster.ClusterExtension{Package: "etcd", Version: ">=1.5.0 <2.0.0"}, nil,
			`error: no bundles found for package "etcd" matching version ">=1.5.0 <2.0.0"`},
		{"range with pre-release", "a pre-release bound admits pre-releases",
			one, cluster.ClusterExtension{Package: "etcd", Version: ">=2.0.0-0 <2.0.0"}, nil, "etcd.v2.0.0-rc.1 (community)"},
		{"invalid range", "Masterminds' own error",
			one, cluster.ClusterExtension{Package: "etcd", Version: ">>1"}, nil,
			`error: desired version range ">>1" is invalid: improper constraint: ">>1"`},
		{"bundle in no channel", "with no channel named, a bundle no channel lists is a candidate",
			one, cluster.ClusterExtension{Package: "lonely"}, nil, "lonely.v9.0.0 (other)"},
		{"bundle in no channel, channel named", "",
			one, cluster.ClusterExtension{Package: "lonely", Channels: []string{"stable"}}, nil, "lonely.v1.0.0 (other)"},
		{"unknown channel", "",
			one, cluster.ClusterExtension{Package: "etcd", Channels: []string{"beta", "alpha"}}, nil,
			`error: no bundles found for package "etcd" in channels [beta alpha]`},
		{"unknown package", "",
			one, cluster.ClusterExtension{Package: "nope"}, nil, `error: no bundles found for package "nope"`},
		{"upgrade along replaces", "1.1.0's successors: 1.2.0 (replaces, skipRange); stable only",
			one, cluster.ClusterExtension{Package: "etcd", Channels: []string{"stable"}}, installed("etcd.v1.1.0", "1.1.0"), "etcd.v1.2.0 (community)"},
		{"upgrade through skipRange", "1.0.0 is in 1.2.0's skipRange",
			one, cluster.ClusterExtension{Package: "etcd", Channels: []string{"stable"}}, installed("etcd.v1.0.0", "1.0.0"), "etcd.v1.2.0 (community)"},
		{"upgrade across channels", "no channel named: successors in every channel (fast's 2.0.0-rc.1 replaces 1.2.0)",
			one, cluster.ClusterExtension{Package: "etcd"}, installed("etcd.v1.2.0", "1.2.0"), "etcd.v2.0.0-rc.1 (community)"},
		{"successors come from the channels named", "fast's edge from 1.2.0 does not count when only stable is named; stable's 1.3.0 is deprecated, 1.2.0 itself ranks first",
			one, cluster.ClusterExtension{Package: "etcd", Channels: []string{"stable"}}, installed("etcd.v1.2.0", "1.2.0"), "etcd.v1.2.0 (community)"},
		{"successors only from the channels named", "no entry of fast reaches 1.1.0 (stable's 1.2.0 does, but stable is not named)",
			one, cluster.ClusterExtension{Package: "etcd", Channels: []string{"fast"}}, installed("etcd.v1.1.0", "1.1.0"),
			`error: error upgrading from currently installed version "1.1.0": no bundles found for package "etcd" in channels [fast]`},
		{"installed not in the catalog", "no edge names it and no bundle has its version",
			one, cluster.ClusterExtension{Package: "etcd"}, installed("etcd.v0.9.0", "0.9.0"),
			`error: error upgrading from currently installed version "0.9.0": no bundles found for package "etcd"`},
		{"installed version matched by version", "the name differs, the version is the same",
			one, cluster.ClusterExtension{Package: "etcd", Channels: []string{"stable"}}, installed("etcd-old", "1.3.0"), "etcd.v1.3.0 (community)"},
		{"self-certified", "any version",
			one, cluster.ClusterExtension{Package: "etcd", UpgradeConstraintPolicy: cluster.UpgradeSelfCertified, Version: "<2.0.0-0"},
			installed("etcd.v0.9.0", "0.9.0"), "etcd.v1.2.0 (community)"},
		{"installed version not semver", "",
			one, cluster.ClusterExtension{Package: "etcd"}, installed("etcd.vx", "1.0"),
			`error: error walking catalogs: error finding upgrade edges: failed to get version and release of installed bundle: No Major.Minor.Patch elements found`},
		{"installed release", "an explicit release is read apart from the version",
			one, cluster.ClusterExtension{Package: "etcd", Version: "2.0.0"}, &cluster.InstalledBundle{Name: "x", Version: "2.0.0", Release: &release},
			`error: error upgrading from currently installed version "2.0.0": no bundles found for package "etcd" matching version "2.0.0"`},
		{"dependency refused", "",
			one, cluster.ClusterExtension{Package: "needs"}, nil,
			`error: validating bundle "needs.v1.0.0": bundle "needs.v1.0.0" has a dependency declared via property "olm.gvk.required" which is currently not supported`},
		{"two catalogs, same priority", "",
			[]olmv1.Catalog{catalog("a", 0, etcd), catalog("b", 0, etcd)}, cluster.ClusterExtension{Package: "etcd", Channels: []string{"stable"}}, nil,
			`error: found bundles for package "etcd" in channels [stable] in multiple catalogs with the same priority [a b]`},
		{"two catalogs, priority decides", "",
			[]olmv1.Catalog{catalog("a", 0, etcd), catalog("b", 1, etcd)}, cluster.ClusterExtension{Package: "etcd"}, nil, "etcd.v2.0.0-1 (b)"},
		{"non-deprecated beats priority", "a's only candidate, 1.3.0, is deprecated there; b deprecates 1.2.0 instead, so its 1.3.0 wins over a's priority",
			[]olmv1.Catalog{catalog("a", 9, etcd), catalog("b", 0, fbc(t, strings.Replace(etcdFBC, "name: etcd.v1.3.0}, message", "name: etcd.v1.2.0}, message", 1)))},
			cluster.ClusterExtension{Package: "etcd", Version: ">=1.3.0 <1.4.0"}, nil, "etcd.v1.3.0 (b)"},
		{"unavailable catalog dropped", "",
			[]olmv1.Catalog{unavailable}, cluster.ClusterExtension{Package: "etcd"}, nil, `error: no bundles found for package "etcd"`},
		{"catalog not served", "",
			[]olmv1.Catalog{notServed}, cluster.ClusterExtension{Package: "lonely"}, nil,
			`error: error walking catalogs: error getting package "lonely" from catalog "community": catalog "community" is not being served`},
		{"selector by name", "",
			[]olmv1.Catalog{catalog("a", 9, etcd), catalog("b", 0, etcd)},
			cluster.ClusterExtension{Package: "etcd", Selector: &cluster.LabelSelector{MatchLabels: map[string]string{cluster.MetadataNameLabel: "b"}}}, nil, "etcd.v2.0.0-1 (b)"},
		{"invalid selector", "the API server takes In without values; operator-controller refuses this extension alone, in apimachinery's words",
			one, cluster.ClusterExtension{Package: "etcd", Selector: &cluster.LabelSelector{MatchExpressions: []cluster.LabelSelectorRequirement{{Key: "tier", Operator: "In", Values: []string{}}}}}, nil,
			`error: desired catalog selector is invalid: values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty`},
		{"unknown selector operator", "",
			one, cluster.ClusterExtension{Package: "etcd", Selector: &cluster.LabelSelector{MatchExpressions: []cluster.LabelSelectorRequirement{{Key: "tier", Operator: "Bad"}}}}, nil,
			`error: desired catalog selector is invalid: "Bad" is not a valid label selector operator`},
		{"selector by label", "",
			[]olmv1.Catalog{catalog("a", 9, etcd), labelled},
			cluster.ClusterExtension{Package: "etcd", Selector: &cluster.LabelSelector{MatchExpressions: []cluster.LabelSelectorRequirement{{Key: "tier", Operator: "Exists"}}}}, nil, "etcd.v2.0.0-1 (labelled)"},
	}
	// kinds is the ErrorKind of each case that ends in an error.
	kinds := map[string]olmv1.ErrorKind{
		"range without pre-release":               olmv1.ErrorNoBundle,
		"invalid range":                           olmv1.ErrorVersionRange,
		"unknown channel":                         olmv1.ErrorNoBundle,
		"unknown package":                         olmv1.ErrorNoBundle,
		"successors only from the channels named": olmv1.ErrorNoBundle,
		"installed not in the catalog":            olmv1.ErrorNoBundle,
		"installed version not semver":            olmv1.ErrorInstalledVersion,
		"installed release":                       olmv1.ErrorNoBundle,
		"dependency refused":                      olmv1.ErrorDependency,
		"two catalogs, same priority":             olmv1.ErrorSamePriority,
		"unavailable catalog dropped":             olmv1.ErrorNoBundle,
		"catalog not served":                      olmv1.ErrorNotServed,
		"invalid selector":                        olmv1.ErrorSelector,
		"unknown selector operator":               olmv1.ErrorSelector,
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := olmv1.New(tt.catalogs, olmv1.Options{})
			if err != nil {
				t.Fatal(err)
			}
			b, cat, err := r.Choose(&tt.ext, tt.installed)
			got := ""
			var v1err *olmv1.Error
			if err != nil && (!errors.As(err, &v1err) || v1err.Kind != kinds[tt.name]) {
				t.Errorf("error %v: want an *olmv1.Error of kind %q", err, kinds[tt.name])
			}
			if v1err != nil && v1err.Kind == olmv1.ErrorSamePriority && strings.Join(v1err.Catalogs, " ") != "a b" {
				t.Errorf("Catalogs = %q, want the two that tie", v1err.Catalogs)
			}
			if err != nil {
				got = "error: " + err.Error()
			} else {
				got = b.Name + " (" + cat + ")"
			}
			if got != tt.want {
				t.Errorf("got  %s\nwant %s\n(%s)", got, tt.want, tt.reason)
			}
		})
	}
}

func TestResolveExplains(t *testing.T) {
	r, err := olmv1.New([]olmv1.Catalog{catalog("community", 0, fbc(t, etcdFBC))}, olmv1.Options{})
	if err != nil {
		t.Fatal(err)
	}
	state := &cluster.State{ClusterExtensions: []cluster.ClusterExtension{
		{Name: "b", Package: "etcd", Channels: []string{"stable"}, Installed: &cluster.InstalledBundle{Name: "etcd.v1.0.0", Version: "1.0.0"}},
		{Name: "a", Package: "etcd"},
	}}
	res, err := r.Resolve(context.Background(), state)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	if err := res.WriteText(&sb, olmv1.TextOptions{Why: true}); err != nil {
		t.Fatal(err)
	}
	want := `clusterextension a: install etcd.v2.0.0-1 2.0.0+1 (package etcd, catalog community)
  why: the highest version of every channel (the extension names none); it is in channel(s) fast
  passed over: etcd.v2.0.0 2.0.0 (catalog community): lower-version: below 2.0.0+1 (etcd.v2.0.0-1)
  passed over: etcd.v2.0.0-rc.1 2.0.0-rc.1 (catalog community): lower-version: below 2.0.0+1 (etcd.v2.0.0-1)
  passed over: etcd.v1.3.0 1.3.0 (catalog community; head of the default channel stable, what OLM v0 installs): deprecated: ranked after etcd.v2.0.0-1, which is not deprecated
  passed over: etcd.v1.2.0 1.2.0 (catalog community): lower-version: below 2.0.0+1 (etcd.v2.0.0-1)
  passed over: etcd.v1.1.0 1.1.0 (catalog community): lower-version: below 2.0.0+1 (etcd.v2.0.0-1)
  passed over: etcd.v1.0.0 1.0.0 (catalog community): lower-version: below 2.0.0+1 (etcd.v2.0.0-1)
  will fail: SingleOwnership: package etcd is also installed by ClusterExtension b (bundle etcd.v1.2.0), and OLM v1 lets one extension own an object: b is installed and keeps it; this one fails
  next: stays (no upgrade from etcd.v2.0.0-1)

clusterextension b: upgrade etcd.v1.2.0 1.2.0 (package etcd, catalog community)
  installed: etcd.v1.0.0 1.0.0
  why: the highest version of channel(s) stable among the successors of etcd.v1.0.0 (replaces, skips, skipRange) and 1.0.0 itself
  passed over: etcd.v2.0.0-1 2.0.0+1 (catalog community): channel: in channel(s) fast, not stable
  passed over: etcd.v2.0.0 2.0.0 (catalog community): channel: in channel(s) fast, not stable
  passed over: etcd.v2.0.0-rc.1 2.0.0-rc.1 (catalog community): channel: in channel(s) fast, not stable
  passed over: etcd.v1.3.0 1.3.0 (catalog community): not-successor: no replaces, skips or skipRange reaches it from etcd.v1.0.0 1.0.0
  passed over: etcd.v1.1.0 1.1.0 (catalog community): lower-version: below 1.2.0 (etcd.v1.2.0)
  passed over: etcd.v1.0.0 1.0.0 (catalog community): lower-version: below 1.2.0 (etcd.v1.2.0)
  next: stays (no upgrade from etcd.v1.2.0)
`
	if got := sb.String(); got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
	if !res.Failed() {
		t.Error("Failed() = false with a predicted ownership failure")
	}
}

func TestExtensionsForAPIs(t *testing.T) {
	r, err := olmv1.New([]olmv1.Catalog{catalog("community", 0, fbc(t, etcdFBC)), catalog("other", 0, fbc(t, lonelyFBC))}, olmv1.Options{})
	if err != nil {
		t.Fatal(err)
	}
	state := &cluster.State{ClusterExtensions: []cluster.ClusterExtension{{Name: "mine", Package: "lonely"}}}
	apis := []graph.GVK{{Group: "example.com", Version: "v1", Kind: "Nothing"}}
	app, err := r.ExtensionsForAPIs(context.Background(), state, apis)
	if err != nil {
		t.Fatal(err)
	}
	if !app.Unserved() || len(app.Create) != 0 || app.APIs[0].Error != "no package of the catalogs provides it" {
		t.Errorf("app = %+v", app)
	}
	if len(app.Outcome.Extensions) != 1 || app.Outcome.Extensions[0].Bundle != "lonely.v9.0.0" {
		t.Errorf("resolution = %+v, want the state's extension resolved", app.Outcome.Extensions)
	}
	if len(state.ClusterExtensions) != 1 {
		t.Error("ExtensionsForAPIs modified the state")
	}
}
