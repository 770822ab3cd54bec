package olmv1

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/registryv1"
)

// Catalog is one ClusterCatalog with its content: its identity, labels,
// priority and availability, and the File-Based Catalog it serves.
type Catalog struct {
	cluster.ClusterCatalog
	// Content is the catalog's File-Based Catalog; nil serves nothing.
	Content *graph.Catalog
}

// Options are the knobs of a [Resolver]. The zero value resolves as a
// default operator-controller does and predicts nothing that needs the
// cluster's versions.
type Options struct {
	// KubeVersion is the cluster's Kubernetes version (e.g. "1.25.3"), read
	// as graph.ParseKubeVersion reads a server version; "" does not check
	// minKubeVersion (which OLM v1 never checks either).
	KubeVersion string
	// OpenShiftVersion is the cluster's OpenShift version (e.g. "4.16");
	// "" does not check olm.maxOpenShiftVersion.
	OpenShiftVersion string
	// SingleOwnNamespace is operator-controller's SingleOwnNamespaceInstallSupport
	// feature gate (off by default): with it, a bundle without the
	// AllNamespaces install mode installs for the namespace that
	// spec.config.inline.watchNamespace names.
	SingleOwnNamespace bool
	// BundleRelease is operator-controller's BundleReleaseSupport feature
	// gate (alpha, off by default): with it, the release field of a
	// bundle's olm.package property, when present (even empty), is the
	// bundle's release and its version keeps its build metadata; the
	// version and release are recorded apart (ExtensionOutcome.Version,
	// ExtensionOutcome.Release), as status.install.bundle records them.
	BundleRelease bool
	// NoWebhookProvider runs operator-controller with its two webhook
	// certificate providers off (the feature gates
	// WebhookProviderCertManager and WebhookProviderOpenshiftServiceCA, GA
	// and on by default): a bundle that defines webhooks is then refused.
	NoWebhookProvider bool
	// Bundles finds the contents of the catalogs' bundles (package
	// registryv1): with them, [Resolver.Resolve] predicts OLM v1's CRD
	// upgrade safety preflight in full, comparing each CRD the chosen
	// bundle carries with the cluster's CRD of its name (the state's
	// CustomResourceDefinitions read whole, cluster.CRD.Definition). nil,
	// or a bundle whose contents it does not find: only the stored
	// versions are compared, from the APIs the bundle's olm.gvk properties
	// list, and Outcome.Unchecked says so.
	Bundles *registryv1.Set
	// MaxHops bounds the upgrades [Resolver.Resolve] looks ahead for each
	// extension (0: DefaultMaxHops; negative: none).
	MaxHops int
}

// DefaultMaxHops is the number of next upgrades looked ahead by default.
const DefaultMaxHops = 20

// Resolver chooses a bundle for ClusterExtensions as operator-controller
// does. It reads each package's bundles once, when a resolution first
// needs them, and is safe for concurrent use by many goroutines.
type Resolver struct {
	catalogs  []Catalog // by name
	opts      Options
	kube      *semver.Version
	openShift *semver.Version

	mu    sync.Mutex
	facts map[*graph.Package][]bundleFacts
	crds  registryv1.CRDCache // the chosen bundles' CRDs, parsed once
}

// bundleFacts is what OLM v1 reads of one bundle, in the order of its
// package's Bundles.
type bundleFacts struct {
	vr         versionRelease
	vrErr      error
	deprecated bool // an olm.deprecations entry of schema olm.bundle names it
}

// New returns a resolver of catalogs. Two catalogs with one name are an
// error, as is a version in opts that does not parse. The catalogs are
// read, not copied; they must not change afterwards.
func New(catalogs []Catalog, opts Options) (*Resolver, error) {
	r := &Resolver{catalogs: slices.Clone(catalogs), opts: opts, facts: map[*graph.Package][]bundleFacts{}}
	slices.SortStableFunc(r.catalogs, func(a, b Catalog) int { return cmp.Compare(a.Name, b.Name) })
	for i := 1; i < len(r.catalogs); i++ {
		if r.catalogs[i].Name == r.catalogs[i-1].Name {
			return nil, fmt.Errorf("two catalogs are named %q", r.catalogs[i].Name)
		}
	}
	if opts.KubeVersion != "" {
		v, err := graph.ParseKubeVersion(opts.KubeVersion, true)
		if err != nil {
			return nil, fmt.Errorf("kube version %q: %w", opts.KubeVersion, err)
		}
		r.kube = &v
	}
	if opts.OpenShiftVersion != "" {
		v, err := semver.ParseTolerant(opts.OpenShiftVersion)
		if err != nil {
			return nil, fmt.Errorf("openshift version %q: %w", opts.OpenShiftVersion, err)
		}
		r.openShift = &v
	}
	return r, nil
}

// Options returns the resolver's options.
func (r *Resolver) Options() Options { return r.opts }

// Catalogs returns the resolver's catalogs sorted by name. The slice is
// shared and must not be modified.
func (r *Resolver) Catalogs() []Catalog { return r.catalogs }

// packageFacts returns the facts of p's bundles, reading them once.
func (r *Resolver) packageFacts(p *graph.Package) []bundleFacts {
	r.mu.Lock()
	f, ok := r.facts[p]
	r.mu.Unlock()
	if ok {
		return f
	}
	f = make([]bundleFacts, len(p.Bundles))
	for i, b := range p.Bundles {
		f[i].vr, f[i].vrErr = bundleVersion(b, r.opts.BundleRelease)
		f[i].deprecated = len(p.Deprecations) > 0 && len(p.DeprecationsOf(graph.SchemaBundle, b.Name)) > 0
	}
	r.mu.Lock()
	r.facts[p] = f
	r.mu.Unlock()
	return f
}

// Resolve chooses the bundle of each extension of state (state's
// ClusterExtensions, by name), looks ahead at the next upgrades and
// predicts what operator-controller will refuse; see [ExtensionOutcome]. It fails
// only when ctx is done. A nil state has no extensions; state is not
// modified.
func (r *Resolver) Resolve(ctx context.Context, state *cluster.State) (*Outcome, error) {
	if state == nil {
		state = &cluster.State{}
	}
	exts := slices.Clone(state.ClusterExtensions)
	slices.SortStableFunc(exts, func(a, b cluster.ClusterExtension) int { return cmp.Compare(a.Name, b.Name) })
	res := &Outcome{Extensions: make([]ExtensionOutcome, 0, len(exts))}
	for i := range exts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res.Extensions = append(res.Extensions, r.ResolveExtension(&exts[i]))
	}
	r.crdPreflights(ctx, res, exts, state.CRDs)
	r.besideV0(res, exts, state)
	r.ownership(res, exts)
	return res, nil
}

// ResolveExtension resolves one extension alone: its choice, the
// candidates passed over, the next upgrades and the predictions about its
// bundle (not those between extensions, which [Resolver.Resolve] adds).
func (r *Resolver) ResolveExtension(ext *cluster.ClusterExtension) ExtensionOutcome {
	res := ExtensionOutcome{Name: ext.Name, Package: ext.Package, Installed: ext.Installed}
	c := r.choose(ext, ext.Installed, true)
	res.setChoice(c, r.opts.BundleRelease)
	if c.err != nil {
		res.Remedies = r.remedies(ext, c.err, c)
		return res
	}
	res.Action = action(ext.Installed, c)
	res.Reason = c.reason(ext)
	res.DefaultHead = r.defaultHead(ext, c)
	res.Deprecations = deprecations(ext, c)
	res.Predictions = r.predict(ext, c.bundle, res.Version)
	res.Next = r.hops(ext, c)
	return res
}

// Choose returns operator-controller's choice for ext with installed
// installed (nil: a fresh install), and nothing else: the bundle, its
// catalog, or v1's error, always an [*Error].
func (r *Resolver) Choose(ext *cluster.ClusterExtension, installed *cluster.InstalledBundle) (bundle *graph.Bundle, catalog string, err error) {
	c := r.choose(ext, installed, false)
	if c.err != nil {
		return nil, "", c.err
	}
	return c.bundle, c.catalog.Name, nil
}
