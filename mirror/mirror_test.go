package mirror_test

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/celrule"
	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/testcatalog"
	"github.com/sextantdev/sextant/mirror"
	"github.com/sextantdev/sextant/resolver"
)

// The shipped index catalogs, loaded once for every test of the package.
var (
	loadOnce sync.Once
	loaded   map[string]*graph.Catalog
	loadErr  error
)

const (
	community = "community-operators-prod.v4.20-index"
	certified = "certified-operators.v4.20-index"
)

func shipped(t testing.TB, name string) resolver.Catalog {
	t.Helper()
	loadOnce.Do(func() {
		loaded = map[string]*graph.Catalog{}
		for _, n := range []string{community, certified} {
			c, err := graph.LoadFile(testcatalog.Path(t, n+".json.gz"))
			if err != nil {
				loadErr = err
				return
			}
			loaded[n] = c
		}
	})
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	return resolver.Catalog{Key: resolver.CatalogKey{Namespace: "olm", Name: name}, Catalog: loaded[name]}
}

func options() mirror.Options { return mirror.Options{} }

// world returns the world of state (nil: none, a cluster yet to be built)
// and catalogs, every namespace resolved with celrule's CEL.
func world(t testing.TB, state *cluster.State, catalogs ...resolver.Catalog) *sextant.World {
	t.Helper()
	in := sextant.Input{State: state, AllNamespaces: state != nil}
	for _, c := range catalogs {
		in.Catalogs = append(in.Catalogs, sextant.CatalogInput{Name: c.Key.Name, Namespace: c.Key.Namespace, Catalog: c.Catalog})
	}
	w, err := sextant.Load(context.Background(), in, sextant.Options{CEL: celrule.New()})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// checkMinimal checks property (c): removing any one kept bundle breaks
// the structural check or changes some rollout.
func checkMinimal(t *testing.T, s *mirror.Set) {
	t.Helper()
	for _, c := range s.Catalogs {
		for _, p := range c.Packages {
			for _, b := range p.Bundles {
				without := func(k resolver.CatalogKey, x *graph.Bundle) bool {
					return s.Keeps(k, x) && !(k == c.Catalog && x.Package == p.Name && x.Name == b.Name)
				}
				err := s.Check(context.Background(), without)
				var ce *mirror.CheckError
				if !errors.As(err, &ce) {
					t.Errorf("without %s (%v): the check still passes (err %v): the set is not minimal", b.Name, b.Reasons, err)
				}
			}
		}
	}
}

// TestClusterExample is the README's example: the sample namespace's
// rollout against the community catalog.
func TestClusterExample(t *testing.T) {
	state, err := cluster.LoadFiles("../testdata/examples/cluster.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := mirror.Compute(context.Background(), world(t, state, shipped(t, community)), mirror.Request{}, options())
	if err != nil {
		t.Fatal(err)
	}
	images := s.Images()
	var b strings.Builder
	if err := s.WriteImages(&b); err != nil {
		t.Fatal(err)
	}
	if want := strings.Join(images, "\n") + "\n"; b.String() != want || len(images) != s.Kept.Images {
		t.Errorf("WriteImages writes\n%s\nwant Images one a line, %d of them (Kept.Images)", b.String(), s.Kept.Images)
	}
	if !slices.IsSorted(images) || len(slices.Compact(slices.Clone(images))) != len(images) {
		t.Errorf("images not sorted or not each once:\n%s", strings.Join(images, "\n"))
	}
	for _, want := range []string{
		"quay.io/community-operator-pipeline-prod/cert-manager:1.16.5",              // the hop 1.16.1 → 1.16.5
		"quay.io/community-operator-pipeline-prod/rabbitmq-cluster-operator:2.22.3", // a dependency
		"quay.io/rabbitmqoperator/cluster-operator:2.22.3",                          // its operand
	} {
		if !slices.Contains(images, want) {
			t.Errorf("images lack %s:\n%s", want, strings.Join(images, "\n"))
		}
	}
	// Nothing from a package the cluster never uses.
	used := map[string]bool{}
	for _, p := range s.Catalogs[0].Packages {
		used[p.Name] = true
	}
	if want := []string{"alloydb-omni-operator", "cert-manager", "etcd", "rabbitmq-cluster-operator", "rabbitmq-messaging-topology-operator"}; len(used) != len(want) {
		t.Errorf("packages %v, want %v", used, want)
	}
	for _, p := range shipped(t, community).Catalog.Packages() {
		if used[p.Name] {
			continue
		}
		for _, b := range p.Bundles {
			if slices.Contains(images, b.Image) {
				t.Errorf("image %s of unused package %s is in the list", b.Image, p.Name)
			}
		}
	}
	checkMinimal(t, s)
}

// TestFilteredCatalogRoundTrip checks that the FBC written decodes to a
// catalog that passes the structural check and keeps exactly the set.
func TestFilteredCatalogRoundTrip(t *testing.T) {
	state, err := cluster.LoadFiles("../testdata/examples/cluster.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := mirror.Compute(context.Background(), world(t, state, shipped(t, community)), mirror.Request{Packages: []mirror.PackageRequest{{Package: "etcd", Channel: "clusterwide-alpha"}}}, options())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := s.WriteFBC(&buf); err != nil {
		t.Fatal(err)
	}
	c, err := graph.Decode(&buf, "filtered.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range c.Validate() {
		if f.Severity == graph.SeverityError {
			t.Errorf("filtered catalog: %s", f)
		}
	}
	n := 0
	for _, p := range c.Packages() {
		for _, b := range p.Bundles {
			n++
			if !s.Keeps(shipped(t, community).Key, b) {
				t.Errorf("filtered catalog has %s, which the set does not keep", b.Name)
			}
			if p.Default() == nil {
				t.Errorf("package %s: default channel %q missing", p.Name, p.DefaultChannel)
			}
		}
	}
	if n != s.Kept.Bundles {
		t.Errorf("filtered catalog has %d bundles, the set keeps %d", n, s.Kept.Bundles)
	}
}

func TestParsePackageRequest(t *testing.T) {
	tests := []struct {
		in      string
		pkg, ch string
		rng     string
		err     string
	}{
		{in: "cert-manager", pkg: "cert-manager"},
		{in: "cert-manager:stable", pkg: "cert-manager", ch: "stable"},
		{in: "cert-manager@>=1.16.0 <1.17.0", pkg: "cert-manager", rng: ">=1.16.0 <1.17.0"},
		{in: "cert-manager:stable@>=1.16.0", pkg: "cert-manager", ch: "stable", rng: ">=1.16.0"},
		{in: "", err: "no package name"},
		{in: ":stable", err: "no package name"},
		{in: "cert-manager:", err: "empty channel"},
		{in: "cert-manager@", err: "empty version range"},
		{in: "cert-manager@>=x", err: "invalid semver range"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			p, err := mirror.ParsePackageRequest(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Package != tt.pkg || p.Channel != tt.ch || p.Range.String() != tt.rng {
				t.Errorf("got %q %q %q", p.Package, p.Channel, p.Range)
			}
			if p.String() != tt.in {
				t.Errorf("String() = %q, want %q", p.String(), tt.in)
			}
		})
	}
}

// TestRolloutError: a package no catalog has, and a conflict, are
// errors naming the rollout.
func TestRolloutError(t *testing.T) {
	state, err := cluster.LoadFiles("../testdata/examples/conflict.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = mirror.Compute(context.Background(), world(t, state, shipped(t, community)), mirror.Request{}, options())
	var re *mirror.RolloutError
	var ce *resolver.ConflictError
	if !errors.As(err, &re) || !errors.As(err, &ce) {
		t.Fatalf("err %v, want a *RolloutError wrapping a *resolver.ConflictError", err)
	}
	_, err = mirror.Compute(context.Background(), world(t, nil, shipped(t, community)), mirror.Request{Packages: []mirror.PackageRequest{{Package: "no-such-package"}}}, options())
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "package no-such-package") {
		t.Fatalf("err %v, want a *RolloutError naming the package", err)
	}
}

// TestCycleAndPartial: a subscription with no channel to debezium-operator
// hops between channels for ever (3.0.0 → 2.7.0 → 2.7.3 → 3.0.0 → 2.7.0, the
// state of round 2 again, the installed CSV now naming what it replaced): the set
// holds the bundles of the cycle; l5-operator has no plan on its own: the
// set of the other rollouts comes with its *RolloutError.
func TestCycleAndPartial(t *testing.T) {
	req := mirror.Request{Packages: []mirror.PackageRequest{{Package: "debezium-operator"}, {Package: "l5-operator"}}}
	s, err := mirror.Compute(context.Background(), world(t, nil, shipped(t, community)), req, options())
	var re *mirror.RolloutError
	if !errors.As(err, &re) || re.Rollout != "package l5-operator" {
		t.Fatalf("err %v, want the *RolloutError of package l5-operator", err)
	}
	if s == nil || len(s.Rollouts) != 1 || !s.Rollouts[0].Cycles || s.Rollouts[0].Rounds != 5 {
		t.Fatalf("rollouts %+v, want debezium-operator's, cycling at round 5", s.Rollouts)
	}
	var names []string
	for _, b := range s.Catalogs[0].Packages[0].Bundles {
		names = append(names, b.Name)
	}
	if want := []string{"debezium-operator.v2.7.0-final", "debezium-operator.v2.7.3-final", "debezium-operator.v3.0.0-final"}; !slices.Equal(names, want) {
		t.Errorf("bundles %q, want %q", names, want)
	}
	checkMinimal(t, s)
}

// TestCancel: Compute on the 315 packages of the community index returns
// soon after its context is cancelled, with the context's error.
func TestCancel(t *testing.T) {
	cat := shipped(t, community)
	req := mirror.Request{Packages: communityPackages(t)}
	for _, after := range []time.Duration{0, 20 * time.Millisecond, 60 * time.Millisecond} {
		t.Run(after.String(), func(t *testing.T) {
			testcatalog.CheckCancel(t, after, testcatalog.CancelBudget, func(ctx context.Context) error {
				_, err := mirror.Compute(ctx, world(t, nil, cat), req, options())
				return err
			})
		})
	}
}
