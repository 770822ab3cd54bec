package check

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/safetext"
)

// maxBrief is the most characters a brief takes on the small catalogs of
// TestBriefs: one that fits a line of the short form beside a channel, a
// short bundle name and a position.
const maxBrief = 90

// checkBriefs checks the briefs of fs: every finding has one, on one line,
// shorter than its message, without its own package, channel or bundle
// quoted (the line that shows the brief names them).
func checkBriefs(t *testing.T, fs []Finding) {
	t.Helper()
	for _, f := range fs {
		switch {
		case f.Brief == "":
			t.Errorf("finding %s has no brief", f)
		case strings.Contains(f.Brief, "\n"):
			t.Errorf("finding %s: brief %q is not one line", f, f.Brief)
		case safetext.Width(f.Brief) >= safetext.Width(f.Message):
			t.Errorf("finding %s: brief %q is no shorter than its message", f, f.Brief)
		}
		for _, own := range []string{f.Package, f.Channel, f.Bundle} {
			if own != "" && strings.Contains(f.Brief, fmt.Sprintf("%q", own)) {
				t.Errorf("finding %s: brief %q names its own %q", f, f.Brief, own)
			}
		}
	}
}

// briefCatalogs are small catalogs that make every finding code: a broken
// one for graph's structural codes, one with a problem per semantic code, a
// second catalog that meets a requirement of the first, a baseline whose
// changes are the regressions, and a suppression that matches nothing.
const (
	briefBroken = `
package p stable
bundle p p.v1 1.0.0
bundle p p.v2 2.0.0
bundle p p.v3 3.0.0
channel p stable
  entry p.v2 replaces=p.v1
  entry p.v1
channel p heads
  entry p.v1
  entry p.v2
channel p loop
  entry p.v1 replaces=p.v2
  entry p.v2 replaces=p.v1
channel p entries
  entry p.v3 replaces=p.v0 skips=,p.gone skipRange='1.x.x.x'
  entry p.v1
  entry p.v1
  entry p.ghost
channel p stranded
  entry p.v1
  entry p.v2 replaces=p.v1 skips=p.x2
  entry p.x1
  entry p.x2 replaces=p.x1
`
	briefSemantic = `
package app stable
bundle app app.v1 1.0.0 gvk=x.io/v1/A gvk=x.io/v1/B csv='{"installModes":[{"type":"OwnNamespace","supported":true},{"type":"AllNamespaces","supported":true}],"minKubeVersion":"1.20.0"}'
bundle app app.v2 2.0.0 gvk=x.io/v2/A csv='{"installModes":[{"type":"AllNamespaces","supported":true}],"minKubeVersion":"1.25.0"}'
bundle app app.v3 3.0.0 gvk=x.io/v2/A csv='{"installModes":[{"type":"AllNamespaces","supported":true}],"minKubeVersion":"1.25.0"}' requires-package=lib:>=2.0.0
bundle app app.v0 0.5.0 gvk=x.io/v1/A gvk=x.io/v1/B csv='{"installModes":[{"type":"OwnNamespace","supported":true}],"minKubeVersion":"1.19.0"}'
channel app stable
  entry app.v2 replaces=app.v1
  entry app.v1
  entry app.v3 replaces=app.v2 skipRange='<2.0.0'
channel app old
  entry app.v0 replaces=app.v1 skipRange='<0.1.0'
  entry app.v1
  entry app.v2
channel app cross
  entry app.v2 replaces=lib.v1
package lib stable
bundle lib lib.v1 1.0.0 csv='{"installModes":[],"minKubeVersion":"1.2"}' requires-gvk=y.io/v1/C
channel lib stable
  entry lib.v1
deprecate lib olm.channel stable
package dep stable
bundle dep dep.v1 1.0.0 deprecated
channel dep stable
  entry dep.v1
package need stable
bundle need need.v1 1.0.0 requires-package=nothing:>=1.0.0
bundle need need.v2 2.0.0
channel need stable
  entry need.v2 replaces=need.v1
  entry need.v1
`
	briefOther = `
package y stable
bundle y y.v1 1.0.0 gvk=y.io/v1/C
channel y stable
  entry y.v1
`
	briefOld = `
package gone stable
bundle gone gone.v1 1.0.0
channel gone stable
  entry gone.v1
package lib stable
bundle lib lib.v1 1.0.0
channel lib stable
  entry lib.v1
package app stable
bundle app app.v1 1.0.0
bundle app app.v2 2.0.0
bundle app app.v3 3.0.0
bundle app app.v4 4.0.0 requires-package=lib:>=1.0.0
channel app stable
  entry app.v1
  entry app.v2 replaces=app.v1
  entry app.v3 replaces=app.v2
channel app fast
  entry app.v3
channel app path
  entry app.v1
  entry app.v2 replaces=app.v1
  entry app.v3 replaces=app.v2
channel app old
  entry app.v1
channel app needs
  entry app.v4
`
	briefNew = `
package lib stable
bundle lib lib.v1 1.0.0 deprecated
channel lib stable
  entry lib.v1
package app fast
bundle app app.v1 1.0.0
bundle app app.v2 2.0.0
bundle app app.v3 3.0.0
bundle app app.v4 4.0.0 requires-package=lib:>=1.0.0
channel app stable
  entry app.v2
channel app fast
  entry app.v3
channel app path
  entry app.v1
  entry app.v3 replaces=app.v2
channel app needs
  entry app.v4
deprecate app olm.channel needs
`
)

// briefKeys is a catalog whose keys opm does not read as written.
const briefKeys = `{"schema":"olm.package","name":"k","defaultchannel":"stable"}
{"schema":"olm.channel","package":"k","name":"stable","entries":[{"name":"k.v1"},{"name":"k.v2","replace":"k.v1"}]}
{"schema":"olm.bundle","name":"k.v1","package":"k","image":"i","properties":[{"type":"olm.package","value":{"packageName":"k","version":"1.0.0"}}]}
{"schema":"olm.bundle","name":"k.v2","package":"k","image":"i","properties":[{"type":"olm.package","value":{"packageName":"k","version":"2.0.0"}}]}
{"schema":"olm.pakage","name":"k2"}
`

// briefReports runs the checks on briefCatalogs and returns every finding
// (suppressed ones too), by "code package/channel bundle".
func briefReports(t *testing.T) map[string][]Finding {
	t.Helper()
	var fs []Finding
	run := func(ins []Input, opts Options) {
		t.Helper()
		opts.CEL = testCEL
		rep, err := Run(t.Context(), ins, opts)
		if err != nil {
			t.Fatal(err)
		}
		fs = append(fs, rep.Findings...)
		fs = append(fs, rep.Suppressed...)
		checkText(t, rep)
	}
	run([]Input{{Name: "broken", Catalog: briefStructural(t)}}, Options{})
	sups, err := ReadConfig(strings.NewReader("suppressions:\n  - {code: cycle, package: app, reason: gone long ago}\n"), ".sextant.yaml")
	if err != nil {
		t.Fatal(err)
	}
	run([]Input{{Name: "semantic", Catalog: buildSpec(t, briefSemantic)}, {Name: "dir/other", Catalog: buildSpec(t, briefOther)}}, Options{Suppressions: sups})
	run([]Input{{Name: "c", Catalog: buildSpec(t, briefNew)}}, Options{Baseline: []Input{{Name: "c", Catalog: buildSpec(t, briefOld)}}})
	keys, err := graph.Decode(strings.NewReader(briefKeys), "keys.json")
	if err != nil {
		t.Fatal(err)
	}
	run([]Input{{Name: "keys", Catalog: keys}}, Options{Checks: []Check{Structural}})
	empty, err := graph.Decode(strings.NewReader(""), "empty.json")
	if err != nil {
		t.Fatal(err)
	}
	run([]Input{{Name: "empty", Catalog: empty}}, Options{})
	out := map[string][]Finding{}
	for _, f := range fs {
		k := strings.TrimPrefix(key(f), f.Catalog+" ")
		out[k] = append(out[k], f)
	}
	checkBriefs(t, fs)
	return out
}

// briefStructural builds a catalog with every structural problem
// briefBroken cannot write in the spec format: packages, bundles and
// properties that are wrong.
func briefStructural(t *testing.T) *graph.Catalog {
	b := graph.NewBuilder()
	add := func(name, pkg, image string, props ...graph.Property) {
		_ = b.AddBundle(name, pkg, image, props...)
	}
	for _, line := range strings.Split(briefBroken, "\n") {
		f := tokens(line)
		switch {
		case len(f) == 0:
		case f[0] == "package":
			b.AddPackage(f[1], f[2])
		case f[0] == "bundle":
			add(f[2], f[1], "img", graph.PackageProperty(f[1], f[3]))
		}
	}
	// The channels of briefBroken, by the spec reader.
	spec := buildSpecChannels(t, briefBroken)
	for _, c := range spec {
		b.AddChannel(c.pkg, c.name, c.entries...)
	}
	b.AddChannel("p", "", graph.Entry{Name: "p.v1"})
	b.AddChannel("p", "empty")
	add("p.dup", "p", "img", graph.PackageProperty("p", "1.0.0"))
	add("p.loose", "p", "")
	add("", "p", "img", graph.PackageProperty("p", "9.0.0"))
	add("p.two", "p", "img", graph.PackageProperty("p", "4.0.0"), graph.PackageProperty("p", "4.0.1"))
	add("p.other", "p", "img", graph.PackageProperty("q", "5.0.0"))
	add("p.bad", "p", "img", graph.PackageProperty("p", "6.0.0"), graph.Property{Type: graph.TypeGVK, Value: []byte(`"nope"`)})
	add("p.five", "p", "img", graph.PackageProperty("p", "five"))
	add("p.loose2", "p", "img", graph.PackageProperty("p", "v7.1"))
	b.AddChannel("p", "more", graph.Entry{Name: "p.dup"}, graph.Entry{Name: "p.two", Replaces: "p.dup"}, graph.Entry{Name: "p.other", Replaces: "p.two"},
		graph.Entry{Name: "p.bad", Replaces: "p.other"}, graph.Entry{Name: "p.five", Replaces: "p.bad"}, graph.Entry{Name: "p.loose2", Replaces: "p.five"})
	add("ghost.v1", "ghost", "img", graph.PackageProperty("ghost", "1.0.0"))
	b.AddChannel("ghost", "stable", graph.Entry{Name: "ghost.v1"})
	b.AddPackage("Bad_Name", "stable")
	add("bad.v1", "Bad_Name", "img", graph.PackageProperty("Bad_Name", "1.0.0"))
	b.AddChannel("Bad_Name", "stable", graph.Entry{Name: "bad.v1"})
	b.AddPackage("nodefault", "")
	add("nd.v1", "nodefault", "img", graph.PackageProperty("nodefault", "1.0.0"))
	b.AddChannel("nodefault", "stable", graph.Entry{Name: "nd.v1"})
	b.AddPackage("nochannel", "stable")
	b.AddDeprecations("nochannel", graph.Deprecation{Reference: graph.DeprecationRef{Schema: graph.SchemaBundle, Name: "nc.v9"}})
	b.AddDeprecations("nochannel")
	cat, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// buildSpecChannels reads the channels of a spec (see buildSpec).
func buildSpecChannels(t *testing.T, spec string) []struct {
	pkg, name string
	entries   []graph.Entry
} {
	cat := buildSpec(t, spec)
	var out []struct {
		pkg, name string
		entries   []graph.Entry
	}
	for _, p := range cat.Packages() {
		for _, c := range p.Channels {
			out = append(out, struct {
				pkg, name string
				entries   []graph.Entry
			}{p.Name, c.Name, c.Entries})
		}
	}
	return out
}

// TestBriefs checks the brief of every finding code, on catalogs that make
// each (briefCatalogs): each documented code has a case, and its finding
// the brief of the case.
func TestBriefs(t *testing.T) {
	got := briefReports(t)
	cases := []struct {
		code, object, want string
	}{
		// Structural (graph.Catalog.Validate).
		{graph.CodeMissingPackage, "ghost", "no olm.package declares it; 1 channel(s) and 1 bundle(s) name it"},
		{graph.CodeInvalidPackageName, "Bad_Name", `not a DNS-1123 label: character 'B' at 0 is not a lower-case letter, digit or '-'`},
		{graph.CodeNoDefaultChannel, "nodefault", "no default channel"},
		{graph.CodeUnknownDefault, "nochannel", `default channel "stable" is not one of its channels`},
		{graph.CodeNoChannels, "nochannel", "no channel"},
		{graph.CodeDuplicateVersion, "p", `bundles "p.dup", "p.v1" share version 1.0.0`},
		{graph.CodeMultipleDeprecations, "nochannel", "2 olm.deprecations blobs; at most one is allowed"},
		{graph.CodeInvalidDeprecation, "nochannel", `deprecation entry 0 names bundle "nc.v9", not in the package`},
		{graph.CodeMissingChannelName, "p", "a channel has no name"},
		{graph.CodeEmptyChannel, "p/empty", "no entries"},
		{graph.CodeDuplicateEntry, "p/entries p.v1", "listed more than once"},
		{graph.CodeUnknownBundle, "p/entries p.ghost", "no olm.bundle of the package has this name"},
		{graph.CodeEmptySkip, "p/entries p.v3", "skips[0] is empty"},
		{graph.CodeNoHead, "p/loop", "no head: every entry is replaced or skipped"},
		{graph.CodeMultipleHeads, "p/heads", "2 heads: p.v1, p.v2"},
		{graph.CodeCycle, "p/loop", "p.v1 -> p.v2 -> p.v1"},
		{graph.CodeStrandedBundles, "p/stranded", "1 stranded entry: p.x1"},
		{graph.CodeInvalidSkipRange, "p/entries p.v3", `skipRange "1.x.x.x" is not a semver range`},
		{graph.CodeDanglingReplaces, "p/entries p.v3", `replaces "p.v0"`},
		{graph.CodeDanglingSkip, "p/entries p.v3", `skips "p.gone"`},
		{graph.CodeMissingBundleName, "p", "a bundle has no name"},
		{graph.CodeNotInChannel, "p p.loose", "in no channel"},
		{graph.CodeMissingImage, "p p.loose", "no image and no olm.bundle.object property"},
		{graph.CodeMissingPackageProperty, "p p.loose", "no olm.package property"},
		{graph.CodeMultiplePackageProps, "p p.two", "2 olm.package properties; exactly one is allowed"},
		{graph.CodePackageMismatch, "p p.other", `its olm.package property names package "q"`},
		{graph.CodeUnknownKey, "k/stable k.v2", `"replace" at entries[1] is not read (did you mean "replaces"?)`},
		{graph.CodeMiscasedKey, "k", `"defaultchannel" is read as "defaultChannel"`},
		{graph.CodeUnknownSchema, "", `schema "olm.pakage" is not one opm reads (did you mean "olm.package"?)`},
		{graph.CodeInvalidProperty, "p p.bad", "property 1 (olm.gvk): value is a string, want an object"},
		{graph.CodeInvalidVersion, "p p.five", `version "five" is not semver: No Major.Minor.Patch elements found`},
		{graph.CodeNonStrictVersion, "p p.loose2", `version "v7.1" is semver only when read tolerantly (as 7.1.0)`},
		// The checks of this package.
		{CodeEmptyCatalog, "", "empty catalog: serves nothing"},
		{CodeNoUpgradePath, "app/old app.v1", "no path to head 2.0.0: upgrades end at 0.5.0"},
		{CodeDowngradeEdge, "app/old app.v0", "replaces higher 1.0.0"},
		{CodeSkipRangeMatchesNothing, "app/old app.v0", `skipRange "<0.1.0" matches no other entry`},
		{CodeCrossPackageEdge, "app/cross app.v2", `replaces "lib.v1", a bundle of package "lib"`},
		{CodeDefaultChannelDeprecated, "lib/stable", "the default channel is deprecated, the package is not"},
		{CodeDefaultChannelHeadDeprecated, "dep/stable dep.v1", "the default channel's head has olm.deprecated: new subscriptions cannot install it"},
		{CodeSatisfiedByOtherCatalog, "lib lib.v1", `requires API y.io/v1 C, which catalog "other" meets`},
		{CodeHeadNotInstallable, "app/stable app.v3", "requires package lib >=2.0.0: unmet"},
		{CodeNotInstallable, "need/stable need.v1", "requires package nothing >=1.0.0: unmet"},
		{CodeAPIDroppedOnUpgrade, "app/stable app.v2", "from 1.0.0 drops A v1 and 1 more API"},
		{CodeInstallModeDropped, "app/stable app.v2", "from 1.0.0 drops OwnNamespace"},
		{CodeNoInstallMode, "lib/stable lib.v1", "supports no install mode (UnsupportedOperatorGroup)"},
		{CodeInvalidMinKubeVersion, "lib/stable lib.v1", `minKubeVersion "1.2" does not parse: OLM wants major.minor.patch`},
		{CodeMinKubeVersionRaised, "app/stable app.v2", "from 1.0.0 raises minKubeVersion 1.20.0 to 1.25.0"},
		{CodeStaleSuppression, "app", "the suppression of cycle matches no finding: remove it"},
		// The regressions against a baseline.
		{CodePackageRemoved, "gone", "gone (had 1 channel, 1 bundle)"},
		{CodeChannelRemoved, "app/old", "gone (had 1 entry); its head is in path"},
		{CodeDefaultChannelChanged, "app/fast", `was "stable" (same head 3.0.0)`},
		{CodeHeadRemoved, "app/stable app.v3", "gone (still in fast, path); the head is now 2.0.0"},
		{CodeBundleRemoved, "app/path app.v2", "gone (still in stable); its clusters can upgrade to 3.0.0"},
		{CodeChannelHeadLowered, "app/stable app.v2", "lowered from 3.0.0"},
		{CodeUpgradePathLost, "app/path app.v1", "no path to head 3.0.0 any more (2 hops before): no upgrade from it"},
		{CodeNoLongerInstallable, "app/needs app.v4", "requires package lib >=1.0.0, satisfied only by lib.v1; lib.v1 is deprecated"},
		{CodeRequirementNewlyUnmet, "app app.v4", "requires package lib >=1.0.0 (met in the baseline by lib.v1)"},
		{CodeDeprecationAdded, "app/needs", `deprecated: "deprecated"`},
	}
	tested := map[string]bool{
		// Made from bundle contents: TestCRDCases checks their briefs.
		CodeCRDUpgradeUnsafe: true, CodeBundleContentsInvalid: true,
	}
	for _, tc := range cases {
		tested[tc.code] = true
		k := tc.code + " " + tc.object
		fs := got[k]
		if len(fs) == 0 {
			var keys []string
			for k := range got {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			t.Errorf("no finding %s; the findings:\n%s", k, strings.Join(keys, "\n"))
			continue
		}
		if !slices.ContainsFunc(fs, func(f Finding) bool { return f.Brief == tc.want }) {
			var briefs []string
			for _, f := range fs {
				briefs = append(briefs, f.Brief)
			}
			t.Errorf("%s: briefs %q, want %q", k, briefs, tc.want)
		}
		for _, f := range fs {
			if w := safetext.Width(f.Brief); w > maxBrief {
				t.Errorf("%s: brief %q takes %d characters, more than %d", k, f.Brief, w, maxBrief)
			}
		}
	}
	for _, d := range Codes() {
		if !tested[d.Code] {
			t.Errorf("code %s has no case", d.Code)
		}
	}
}
