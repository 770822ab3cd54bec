package resolvertest

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"sigs.k8s.io/yaml"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/txtar"
	"github.com/sextantdev/sextant/olmv1"
	"github.com/sextantdev/sextant/resolver"
)

// The files of a scenario archive.
const (
	fileOptions     = "options.yaml"
	fileClusterYAML = "cluster.yaml"
	fileClusterJSON = "cluster.json"
	fileApp         = "app.yaml"
	fileWant        = "want"
	fileSkip        = "skip"
	catalogPrefix   = "catalog/"
)

// Option changes how RunFile and RunDir run scenario files. Options are
// made by the functions of this package only.
type Option interface{ apply(*config) }

type config struct{ update bool }

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

// Update, when on, makes RunFile and RunDir rewrite each scenario's want
// file with the result instead of comparing (scenarios with a skip file are
// left alone). Wire it to a flag of your own:
//
//	var update = flag.Bool("update", false, "rewrite the scenarios' want")
//	...
//	resolvertest.RunDir(t, "testdata/scenarios", resolvertest.Update(*update))
func Update(on bool) Option { return optionFunc(func(c *config) { c.update = on }) }

// scenarioOptions is the content of a scenario's options.yaml. Every field
// is optional; the zero value resolves DefaultNamespace with the resolver's
// defaults. Keep the package documentation in step with it.
type scenarioOptions struct {
	// Namespace is the namespace resolved (DefaultNamespace when empty).
	Namespace string `json:"namespace,omitempty"`
	// GlobalNamespace is the global catalog namespace
	// (resolver.DefaultGlobalNamespace when empty).
	GlobalNamespace string `json:"globalNamespace,omitempty"`
	// Rollout, when positive, simulates a rollout of at most that many
	// rounds instead of resolving once.
	Rollout int `json:"rollout,omitempty"`
	// Approve approves, in a rollout, every plan that waits for approval.
	Approve bool `json:"approve,omitempty"`
	// SemverUpgrades and SemverAllowMajor are the resolver options of the
	// same names.
	SemverUpgrades   bool `json:"semverUpgrades,omitempty"`
	SemverAllowMajor bool `json:"semverAllowMajor,omitempty"`
	// NoCEL resolves without a cel evaluator (resolver.Options.CEL nil),
	// to show what a program that does not link celrule reports.
	NoCEL bool `json:"noCEL,omitempty"`
	// KubeVersion and OpenShiftVersion are the resolver options of the
	// same names: the cluster's versions for the predictions (DESIGN §8).
	KubeVersion      string `json:"kubeVersion,omitempty"`
	OpenShiftVersion string `json:"openShiftVersion,omitempty"`
	// AllNamespaces resolves every namespace of the cluster state, one
	// after another (Resolver.ResolveAll), instead of Namespace.
	AllNamespaces bool `json:"allNamespaces,omitempty"`
	// AllowInvalid is the resolver option of the same name.
	AllowInvalid bool `json:"allowInvalid,omitempty"`
	// SingleOwnNamespace is the olmv1 option of the same name (OLM v1
	// scenarios: operator-controller's SingleOwnNamespaceInstallSupport).
	SingleOwnNamespace bool `json:"singleOwnNamespace,omitempty"`
	// BundleRelease and NoWebhookProvider are the olmv1 options of the
	// same names (operator-controller's BundleReleaseSupport; its webhook
	// certificate providers off).
	BundleRelease     bool `json:"bundleRelease,omitempty"`
	NoWebhookProvider bool `json:"noWebhookProvider,omitempty"`
	// FeatureSet is operator-controller's feature set whose CRDs the
	// ClusterExtensions and ClusterCatalogs of cluster.yaml are checked
	// against (cluster.Loader.V1FeatureSet): "standard" (the default) or
	// "experimental". It sets no feature gate: they have keys of their own.
	FeatureSet string `json:"featureSet,omitempty"`
}

// scenario is a parsed scenario file.
type scenario struct {
	path    string
	archive *txtar.Archive
	opts    scenarioOptions
	// catalogs holds, per catalog, its files (archive names).
	catalogs map[resolver.CatalogKey][]txtar.File
	cluster  *txtar.File
	app      *txtar.File
	want     []byte
	hasWant  bool
	skip     string
}

// parseScenario reads a scenario archive; every problem is reported.
func parseScenario(name string, data []byte) (*scenario, error) {
	s := &scenario{path: name, archive: txtar.Parse(data), catalogs: map[resolver.CatalogKey][]txtar.File{}}
	var errs []error
	fail := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: "+format, append([]any{name}, args...)...))
	}
	if len(bytes.TrimSpace(s.archive.Comment)) == 0 {
		fail("no comment: say what the scenario proves and why")
	}
	seen := map[string]bool{}
	for i := range s.archive.Files {
		f := &s.archive.Files[i]
		if seen[f.Name] {
			fail("file %q appears twice", f.Name)
			continue
		}
		seen[f.Name] = true
		switch {
		case f.Name == fileOptions:
			if err := yaml.UnmarshalStrict(f.Data, &s.opts); err != nil {
				fail("%s: %v", f.Name, err)
			}
			if s.opts.Rollout < 0 {
				fail("%s: rollout %d is negative", f.Name, s.opts.Rollout)
			}
		case f.Name == fileClusterYAML || f.Name == fileClusterJSON:
			if s.cluster != nil {
				fail("both %s and %s", fileClusterYAML, fileClusterJSON)
			}
			s.cluster = f
		case f.Name == fileApp:
			s.app = f
		case f.Name == fileWant:
			s.want, s.hasWant = f.Data, true
		case f.Name == fileSkip:
			s.skip = strings.TrimSpace(string(f.Data))
			if s.skip == "" {
				fail("%s: empty: give the reason the scenario is skipped", f.Name)
			}
		case strings.HasPrefix(f.Name, catalogPrefix):
			key, err := catalogKey(f.Name)
			if err != nil {
				fail("%v", err)
				continue
			}
			s.catalogs[key] = append(s.catalogs[key], *f)
		default:
			fail("unknown file %q (want %s, %s, %s, %s, %s, %s or %s<namespace>/<name>.yaml)", f.Name, fileOptions, fileClusterYAML, fileClusterJSON, fileApp, fileWant, fileSkip, catalogPrefix)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return s, nil
}

// catalogKey reads a catalog's identity from a file name:
// catalog/<namespace>/<name>.<ext> or catalog/<namespace>/<name>/<file>.
func catalogKey(name string) (resolver.CatalogKey, error) {
	parts := strings.Split(strings.TrimPrefix(name, catalogPrefix), "/")
	if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
		return resolver.CatalogKey{}, fmt.Errorf("catalog file %q: want %s<namespace>/<name>.yaml (or .json, or a folder <name>/)", name, catalogPrefix)
	}
	catName := parts[1]
	if len(parts) == 2 {
		ext := path.Ext(catName)
		switch ext {
		case ".yaml", ".yml", ".json":
		default:
			return resolver.CatalogKey{}, fmt.Errorf("catalog file %q: want a .yaml, .yml or .json file", name)
		}
		catName = strings.TrimSuffix(catName, ext)
	}
	return resolver.CatalogKey{Namespace: parts[0], Name: catName}, nil
}

// input decodes the scenario's catalogs and cluster state. A catalog that
// does not decode is an error (the scenario is broken); a cluster state
// that does not decode is a result (returned as text), since decoding the
// cluster state is part of what scenarios check.
func (s *scenario) input() (in *input, clusterErr error, err error) {
	in = &input{
		namespace: s.opts.Namespace,
		rollout:   s.opts.Rollout,
		approve:   s.opts.Approve,
		opts: resolver.Options{
			GlobalNamespace:  s.opts.GlobalNamespace,
			SemverUpgrades:   s.opts.SemverUpgrades,
			SemverAllowMajor: s.opts.SemverAllowMajor,
			KubeVersion:      s.opts.KubeVersion,
			OpenShiftVersion: s.opts.OpenShiftVersion,
			AllowInvalid:     s.opts.AllowInvalid,
		},
		all:   s.opts.AllNamespaces,
		noCEL: s.opts.NoCEL,
		v1: olmv1.Options{SingleOwnNamespace: s.opts.SingleOwnNamespace, BundleRelease: s.opts.BundleRelease,
			NoWebhookProvider: s.opts.NoWebhookProvider, KubeVersion: s.opts.KubeVersion, OpenShiftVersion: s.opts.OpenShiftVersion},
		state: &cluster.State{},
	}
	keys := make([]resolver.CatalogKey, 0, len(s.catalogs))
	for k := range s.catalogs {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b resolver.CatalogKey) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	var errs []error
	for _, k := range keys {
		files := s.catalogs[k]
		var gc *graph.Catalog
		var err error
		if len(files) == 1 && strings.Count(files[0].Name, "/") == 2 {
			gc, err = graph.Decode(bytes.NewReader(files[0].Data), files[0].Name)
		} else {
			fsys := fstest.MapFS{}
			for _, f := range files {
				if strings.Count(f.Name, "/") == 2 {
					err = fmt.Errorf("catalog %s is both a file %q and a folder", k, f.Name)
					break
				}
				fsys[f.Name] = &fstest.MapFile{Data: f.Data}
			}
			if err == nil {
				gc, err = graph.LoadFS(fsys, catalogPrefix+k.Namespace+"/"+k.Name)
			}
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: catalog %s: %w", s.path, k, err))
			continue
		}
		in.catalogs = append(in.catalogs, resolver.Catalog{Key: k, Catalog: gc})
	}
	if len(errs) > 0 {
		return nil, nil, errors.Join(errs...)
	}
	if s.cluster != nil {
		l := cluster.Loader{V1FeatureSet: cluster.FeatureSet(s.opts.FeatureSet)}
		st, err := l.Decode(context.Background(), bytes.NewReader(s.cluster.Data), s.cluster.Name)
		if err != nil {
			return in, err, nil
		}
		in.state = st
	}
	if s.app != nil {
		objs, err := cluster.DecodeObjects(bytes.NewReader(s.app.Data), s.app.Name)
		if err != nil {
			return in, err, nil
		}
		in.app = objs
	}
	return in, nil, nil
}

// result runs the scenario and returns its text.
func (s *scenario) result(ctx context.Context) (string, error) {
	in, clusterErr, err := s.input()
	if err != nil {
		return "", err
	}
	if clusterErr != nil {
		return FormatError(clusterErr), nil
	}
	return in.result(ctx)
}

// RunFile runs the scenario file at path (see the package documentation
// for the format) and reports on t, with a diff, when the result differs
// from the file's want. With Update(true) it rewrites want instead. A
// scenario with a skip file is skipped with t.Skip and its reason. A
// scenario that cannot be read or set up fails with t.Fatal.
func RunFile(t testing.TB, path string, opts ...Option) {
	t.Helper()
	var cfg config
	for _, o := range opts {
		o.apply(&cfg)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
		return
	}
	s, err := parseScenario(path, data)
	if err != nil {
		t.Fatal(err)
		return
	}
	if s.skip != "" {
		t.Skipf("%s: skipped: %s", path, s.skip)
		return
	}
	got, err := s.result(context.Background())
	if err != nil {
		t.Fatal(err)
		return
	}
	if cfg.update {
		if !s.hasWant || !bytes.Equal(s.want, []byte(got)) {
			s.archive.Set(fileWant, []byte(got))
			if err := os.WriteFile(path, txtar.Format(s.archive), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	if !s.hasWant {
		t.Fatalf("%s: no %q file (run with the update option to write it)", path, fileWant)
		return
	}
	if d := Diff(string(s.want), got); d != "" {
		t.Errorf("%s: result differs from want (-want +got):\n%s", path, d)
	}
}

// RunDir runs every *.txtar file of dir (not its subfolders), in name
// order, each as a subtest named after the file without its extension. It
// fails when dir has no scenario.
func RunDir(t *testing.T, dir string, opts ...Option) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no scenario (*.txtar) in %s", dir)
	}
	slices.Sort(paths)
	for _, p := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(p), ".txtar"), func(t *testing.T) {
			t.Helper()
			RunFile(t, p, opts...)
		})
	}
}
