package olmv1_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/olmv1"
)

// TestOutcomeWriteText: an outcome's text, line by line, for each shape an
// extension's block takes — a fresh install with the default channel's
// head passed over, an upgrade with its release, a stay, operator-
// controller's error with the installed bundle, catalogs not searched,
// deprecations, predictions (operator-controller's own multi-line message
// indented under Sextant's), and the next hops with their predictions or
// the error that stops them. Outcomes are plain data: each case writes
// one made by hand.
func TestOutcomeWriteText(t *testing.T) {
	release := "3"
	installed := &cluster.InstalledBundle{Name: "p.v1.0.0", Version: "1.0.0"}
	fail := olmv1.Prediction{Reason: olmv1.ReasonInstallMode, Severity: olmv1.SeverityFailure, Bundle: "p.v2.0.0",
		Message: "supports OwnNamespace only", V1Message: "unsupported bundle:\nfirst\nsecond"}
	warn := olmv1.Prediction{Reason: olmv1.ReasonMinKubeVersion, Severity: olmv1.SeverityWarning, Bundle: "p.v2.0.0",
		Message: "minKubeVersion 1.99.0 is above the cluster's Kubernetes 1.30.0"}
	tests := []struct {
		name string
		x    olmv1.ExtensionOutcome
		opts olmv1.TextOptions
		want string
	}{
		{
			name: "fresh install, default head passed over",
			x: olmv1.ExtensionOutcome{Name: "x", Package: "p", Bundle: "p.v2.0.0", Version: "2.0.0", Catalog: "c", Action: olmv1.ActionInstall,
				Reason:      "highest version of the package",
				DefaultHead: &olmv1.ChannelHead{Bundle: "p.v1.0.0", Version: "1.0.0", Channel: "stable"},
				PassedOver:  []olmv1.PassedOver{{Bundle: "p.v1.0.0", Version: "1.0.0", Catalog: "c", Reason: olmv1.ExcludedLower, Detail: "2.0.0 is higher"}}},
			want: `clusterextension x: install p.v2.0.0 2.0.0 (package p, catalog c)
  why: highest version of the package
  passed over: p.v1.0.0 1.0.0 (catalog c; head of the default channel stable, what OLM v0 installs): lower-version: 2.0.0 is higher
  next: stays (no upgrade from p.v2.0.0)
`,
		},
		{
			name: "upgrade with a release, catalog skipped, deprecated, predictions",
			x: olmv1.ExtensionOutcome{Name: "x", Package: "p", Bundle: "p.v2.0.0", Version: "2.0.0", Release: &release, Catalog: "c",
				Action: olmv1.ActionUpgrade, Installed: installed, Reason: "successor of p.v1.0.0",
				SkippedCatalogs: []olmv1.SkippedCatalog{{Catalog: "other", Reason: "not selected"}},
				Deprecations:    []string{"package p is deprecated"},
				Predictions:     []olmv1.Prediction{fail, warn}},
			want: `clusterextension x: upgrade p.v2.0.0 2.0.0 release "3" (package p, catalog c)
  installed: p.v1.0.0 1.0.0
  why: successor of p.v1.0.0
  catalog other not searched: not selected
  deprecated: package p is deprecated
  will fail: InstallMode: supports OwnNamespace only
    operator-controller: unsupported bundle:
      first
      second
  warning: MinKubeVersion: minKubeVersion 1.99.0 is above the cluster's Kubernetes 1.30.0
  next: stays (no upgrade from p.v2.0.0)
`,
		},
		{
			name: "stay, next hops",
			x: olmv1.ExtensionOutcome{Name: "x", Package: "p", Bundle: "p.v1.0.0", Version: "1.0.0", Catalog: "c", Action: olmv1.ActionStay,
				Installed: installed, Reason: "installed",
				Next: []olmv1.Hop{
					{Bundle: "p.v2.0.0", Version: "2.0.0", Release: &release, Catalog: "c", Predictions: []olmv1.Prediction{fail, warn}},
					{Error: "no bundles found for package \"p\""},
				}},
			want: `clusterextension x: stay at p.v1.0.0 1.0.0 (package p, catalog c)
  why: installed
  next: p.v2.0.0 2.0.0 release "3" (catalog c) [will fail: InstallMode] [warning: MinKubeVersion] → error: no bundles found for package "p"
`,
		},
		{
			name: "operator-controller's error",
			x: olmv1.ExtensionOutcome{Name: "x", Package: "p", Error: `no bundles found for package "p" matching version "3.x"`,
				ErrorKind: olmv1.ErrorNoBundle, Installed: installed,
				PassedOver: []olmv1.PassedOver{{Bundle: "p.v2.0.0", Version: "2.0.0", Catalog: "c", Reason: olmv1.ExcludedRange, Detail: `outside "3.x"`}}},
			want: `clusterextension x: error: no bundles found for package "p" matching version "3.x"
  installed: p.v1.0.0 1.0.0
  passed over: p.v2.0.0 2.0.0 (catalog c): version-range: outside "3.x"
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := (&olmv1.Outcome{Extensions: []olmv1.ExtensionOutcome{tt.x}}).WriteText(&b, tt.opts); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", b.String(), tt.want)
			}
		})
	}
	t.Run("blocks apart", func(t *testing.T) {
		res := &olmv1.Outcome{Extensions: []olmv1.ExtensionOutcome{
			{Name: "a", Package: "p", Error: "e1"},
			{Name: "b", Package: "q", Error: "e2"},
		}}
		var b strings.Builder
		if err := res.WriteText(&b, olmv1.TextOptions{}); err != nil {
			t.Fatal(err)
		}
		want := "clusterextension a: error: e1\n\nclusterextension b: error: e2\n"
		if b.String() != want {
			t.Errorf("got %q, want %q (one blank line between extensions)", b.String(), want)
		}
	})
}

// TestAPIExtensionsWriteText: what serves each API (an extension of the
// state, one to create, or why nothing does), then the outcome after a
// blank line; no blank line when there is no extension to resolve.
func TestAPIExtensionsWriteText(t *testing.T) {
	db := graph.GVK{Group: "example.com", Version: "v1", Kind: "DB"}
	cache := graph.GVK{Group: "example.com", Version: "v1", Kind: "Cache"}
	queue := graph.GVK{Group: "example.com", Version: "v1", Kind: "Queue"}
	a := &olmv1.APIExtensions{
		APIs: []olmv1.APIExtension{
			{API: cache, Extension: "cache", Package: "cache", New: true},
			{API: db, Extension: "db-ext", Package: "db"},
			{API: queue, Error: "no package of the catalogs provides it"},
		},
		Create: []cluster.ClusterExtension{{Name: "cache", Namespace: "cache", SourceType: "Catalog", Package: "cache"}},
		Outcome: &olmv1.Outcome{Extensions: []olmv1.ExtensionOutcome{
			{Name: "cache", Package: "cache", Error: "e"},
		}},
	}
	var b strings.Builder
	if err := a.WriteText(&b, olmv1.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	want := `application: 3 API(s), 1 ClusterExtension(s) to create
  example.com/v1 Cache: package cache, ClusterExtension cache to create
  example.com/v1 DB: ClusterExtension db-ext (package db)
  example.com/v1 Queue: no package of the catalogs provides it

clusterextension cache: error: e
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}

	none := &olmv1.APIExtensions{APIs: []olmv1.APIExtension{{API: queue, Error: "no package of the catalogs provides it"}}, Outcome: &olmv1.Outcome{}}
	b.Reset()
	if err := none.WriteText(&b, olmv1.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	want = "application: 1 API(s), 0 ClusterExtension(s) to create\n  example.com/v1 Queue: no package of the catalogs provides it\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// TestWriteAPIPackagesText: one line per package and API — the bundle a
// ClusterExtension naming the package installs, whether it provides the
// API, or operator-controller's error — and "nothing provides QUERY" for
// none.
func TestWriteAPIPackagesText(t *testing.T) {
	db := graph.GVK{Group: "example.com", Version: "v1", Kind: "DB"}
	tests := []struct {
		name      string
		providers []olmv1.APIPackage
		want      string
	}{
		{"nothing", nil, "nothing provides example.com/v1 DB\n"},
		{"every kind", []olmv1.APIPackage{
			{API: db, Package: "a", Bundle: "a.v2.0.0", Version: "2.0.0", Catalog: "c", Provides: true, Catalogs: []string{"c"}},
			{API: db, Package: "b", Bundle: "b.v3.0.0", Version: "3.0.0", Catalog: "c", Catalogs: []string{"c"}},
			{API: db, Package: "c", Error: `no bundles found for package "c"`, ErrorKind: olmv1.ErrorNoBundle, Catalogs: []string{"c"}},
		}, `example.com/v1 DB: package a → a ClusterExtension installs a.v2.0.0 2.0.0 (catalog c), which provides it
example.com/v1 DB: package b → a ClusterExtension installs b.v3.0.0 3.0.0 (catalog c), which does not provide it (older bundles do)
example.com/v1 DB: package c: a ClusterExtension fails: no bundles found for package "c"
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := olmv1.WriteAPIPackagesText(&b, "example.com/v1 DB", tt.providers); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", b.String(), tt.want)
			}
		})
	}
}

// TestWriteTextError: a writer's error comes back from every renderer.
func TestWriteTextError(t *testing.T) {
	res := &olmv1.Outcome{Extensions: []olmv1.ExtensionOutcome{{Name: "a", Package: "p", Error: "e"}}}
	if err := res.WriteText(failWriter{}, olmv1.TextOptions{}); !errors.Is(err, errWrite) {
		t.Errorf("Outcome.WriteText = %v, want the writer's error", err)
	}
	app := &olmv1.APIExtensions{Outcome: res}
	if err := app.WriteText(failWriter{}, olmv1.TextOptions{}); !errors.Is(err, errWrite) {
		t.Errorf("APIExtensions.WriteText = %v, want the writer's error", err)
	}
	if err := olmv1.WriteAPIPackagesText(failWriter{}, "q", nil); !errors.Is(err, errWrite) {
		t.Errorf("WriteAPIPackagesText = %v, want the writer's error", err)
	}
}

var errWrite = errors.New("disk full")

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errWrite }

// TestStrings: Prediction and Range as text.
func TestStrings(t *testing.T) {
	p := olmv1.Prediction{Reason: olmv1.ReasonSingleOwnership, Severity: olmv1.SeverityFailure, Message: "x installs p too"}
	if got, want := p.String(), "failure: SingleOwnership: x installs p too"; got != want {
		t.Errorf("Prediction.String = %q, want %q", got, want)
	}
	r, err := olmv1.ParseRange(">=1.2, <2")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.String(), ">=1.2, <2"; got != want {
		t.Errorf("Range.String = %q, want %q (as written)", got, want)
	}
	if got := (olmv1.Range{}).String(); got != "" {
		t.Errorf("zero Range.String = %q, want empty", got)
	}
}
