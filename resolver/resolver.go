package resolver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver/predict"
)

// Catalog is a catalog as a resolver sees it: its identity, its priority
// (higher is preferred; a CatalogSource of the same identity in the cluster
// state overrides it) and its content.
type Catalog struct {
	Key      CatalogKey
	Priority int
	Catalog  *graph.Catalog
}

// Resolver resolves namespaces against a fixed set of catalogs. It is
// immutable after New and safe for concurrent use by many goroutines.
type Resolver struct {
	opts     Options
	plat     predict.Platform
	global   string
	catalogs []*catalogIndex // sorted by key
	byKey    map[CatalogKey]*catalogIndex
	// gvks numbers every API a catalog bundle provides; gvkIDs is the
	// inverse.
	gvks   []graph.GVK
	gvkIDs map[graph.GVK]int32
	// apis numbers the APIs of installed CSVs' long properties
	// annotations, once each.
	apis apiCache
	cel  celCache
	// lists are uniqueness passes' lists (*uniqueLists), for reuse.
	lists sync.Pool
	// crMemo remembers the custom resources validated against a step's
	// new CRDs (Options.BundleCRDs), for every resolution of r.
	crMemo predict.CRMemo
	// size is the last problem's numbers of variables and constraints
	// (packSize), the room the next one reserves.
	size atomic.Uint64
}

// catalogIndex is one catalog with the per-channel candidate lists that
// resolution reads.
type catalogIndex struct {
	key      CatalogKey
	priority int
	cat      *graph.Catalog
	ord      int // index in Resolver.catalogs
	pkgs     map[string]*pkgIndex
}

// pkgIndex is one package of a catalog.
type pkgIndex struct {
	cat *catalogIndex
	pkg *graph.Package
	// problems are the package's structural errors, computed once, when a
	// resolution first reaches the package (see invalid).
	problemsOnce sync.Once
	problems     []graph.Finding
	// The channels are indexed when a resolution first reads the package
	// (chans): a catalog has hundreds of packages, a namespace reads a few.
	chansOnce sync.Once
	r         *Resolver
	channels  []*chanIndex          // the default channel first, then by name
	byName    map[string]*chanIndex // by name, when there are more than smallIndex
}

// chanIndex is one channel: its candidates are the replacement chain from
// the head minus the entries some entry skips (OLM's chain walk).
type chanIndex struct {
	pkg       *pkgIndex
	ch        *graph.Channel
	isDefault bool
	cands     []*graph.Bundle
	apis      [][]int32        // per candidate: the numbers of the APIs it provides
	reqs      [][]requirement  // per candidate: its requirements
	pos       map[string]int32 // candidate name → index in cands, past smallIndex candidates
	err       error            // no single head: the channel has no order
}

// New indexes catalogs for resolution. Keys must be unique and every
// Catalog non-nil. The resolver keeps the catalogs; they must not change
// afterwards (graph catalogs are immutable). New is NewContext with a
// background context.
func New(catalogs []Catalog, opts Options) (*Resolver, error) {
	return NewContext(context.Background(), catalogs, opts)
}

// NewContext is New honouring ctx: indexing stops soon after ctx is done,
// and the error then matches errors.Is(err, ctx.Err()).
func NewContext(ctx context.Context, catalogs []Catalog, opts Options) (*Resolver, error) {
	r := &Resolver{opts: opts, global: opts.GlobalNamespace, byKey: make(map[CatalogKey]*catalogIndex, len(catalogs))}
	if r.global == "" {
		r.global = DefaultGlobalNamespace
	}
	var errs []error
	plat, err := predict.ParsePlatform(opts.KubeVersion, opts.OpenShiftVersion)
	if err != nil {
		errs = append(errs, err)
	}
	r.plat = plat
	for _, c := range catalogs {
		switch {
		case c.Key.Namespace == "" || c.Key.Name == "":
			errs = append(errs, fmt.Errorf("catalog %q: key needs a namespace and a name", c.Key))
			continue
		case c.Catalog == nil:
			errs = append(errs, fmt.Errorf("catalog %q: no catalog content", c.Key))
			continue
		case r.byKey[c.Key] != nil:
			errs = append(errs, fmt.Errorf("catalog %q given twice", c.Key))
			continue
		}
		ci := &catalogIndex{key: c.Key, priority: c.Priority, cat: c.Catalog}
		r.byKey[c.Key] = ci
		r.catalogs = append(r.catalogs, ci)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	slices.SortFunc(r.catalogs, func(a, b *catalogIndex) int {
		return cmp.Or(cmp.Compare(a.key.Namespace, b.key.Namespace), cmp.Compare(a.key.Name, b.key.Name))
	})
	r.gvkIDs = map[graph.GVK]int32{}
	for i, ci := range r.catalogs {
		ci.ord = i
		if err := ci.index(ctx, r); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// gvkID numbers an API.
func (r *Resolver) gvkID(g graph.GVK) int32 {
	id, ok := r.gvkIDs[g]
	if !ok {
		id = int32(len(r.gvks))
		r.gvks = append(r.gvks, g)
		r.gvkIDs[g] = id
	}
	return id
}

func (ci *catalogIndex) index(ctx context.Context, r *Resolver) error {
	pkgs := ci.cat.Packages()
	ci.pkgs = make(map[string]*pkgIndex, len(pkgs))
	for i, p := range pkgs {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		// APIs are numbered now, in catalog order, so that indexing a
		// package later only reads the numbers.
		for j := range p.Bundles {
			for _, g := range p.Bundles[j].Provides {
				r.gvkID(g)
			}
		}
		ci.pkgs[p.Name] = &pkgIndex{cat: ci, pkg: p, r: r}
	}
	return ctx.Err()
}

// chans returns the package's channels, the default first, indexing them
// on first use.
func (pi *pkgIndex) chans() []*chanIndex {
	pi.chansOnce.Do(func() {
		p := pi.pkg
		if len(p.Channels) > smallIndex {
			pi.byName = make(map[string]*chanIndex, len(p.Channels))
		}
		for _, ch := range p.Channels {
			x := &chanIndex{pkg: pi, ch: ch, isDefault: ch.Name == p.DefaultChannel}
			x.index(pi.r, p)
			if pi.byName != nil {
				pi.byName[ch.Name] = x
			}
			if x.isDefault {
				pi.channels = append([]*chanIndex{x}, pi.channels...)
			} else {
				pi.channels = append(pi.channels, x)
			}
		}
	})
	return pi.channels
}

func (x *chanIndex) index(r *Resolver, p *graph.Package) {
	chain := x.ch.Chain()
	if chain == nil {
		heads := x.ch.Heads()
		var err error
		if len(heads) == 0 {
			err = fmt.Errorf("channel %q of package %q has no head (an entry no other entry replaces or skips)", x.ch.Name, p.Name)
		} else {
			err = fmt.Errorf("channel %q of package %q has %d heads %q: a unique replacement chain is required to order its entries", x.ch.Name, p.Name, len(heads), heads)
		}
		x.err = &CatalogError{Catalog: x.pkg.cat.key, Package: p.Name, Channel: x.ch.Name, Err: err}
		return
	}
	if len(chain) > smallIndex {
		x.pos = make(map[string]int32, len(chain))
	}
	for _, name := range chain {
		if x.ch.IsSkipped(name) {
			continue
		}
		b := p.Bundle(name)
		if b == nil {
			continue
		}
		if x.pos != nil {
			x.pos[name] = int32(len(x.cands))
		}
		x.cands = append(x.cands, b)
		ids := make([]int32, len(b.Provides))
		for i, g := range b.Provides {
			ids[i] = r.gvkIDs[g] // numbered by catalogIndex.index
		}
		x.apis = append(x.apis, ids)
		x.reqs = append(x.reqs, b.Requirements())
	}
}

// position returns the index of name among the channel's candidates, or -1.
func (x *chanIndex) position(name string) int {
	if x.pos == nil {
		for i, b := range x.cands {
			if b.Name == name {
				return i
			}
		}
		return -1
	}
	if p, ok := x.pos[name]; ok {
		return int(p)
	}
	return -1
}

// channel returns the index of the package's channel name, or nil.
func (pi *pkgIndex) channel(name string) *chanIndex {
	chans := pi.chans()
	if pi.byName == nil {
		for _, x := range chans {
			if x.ch.Name == name {
				return x
			}
		}
		return nil
	}
	return pi.byName[name]
}

// smallIndex is the most channels of a package, or candidates of a
// channel, that are looked up by a scan rather than a map: most packages
// have one or two channels of a few entries, and a catalog has many
// packages, so a map each would cost more memory than it saves time.
const smallIndex = 8

// DefaultGlobalNamespace is the global catalog namespace when
// Options.GlobalNamespace is empty.
const DefaultGlobalNamespace = "olm"

// CatalogKey identifies a catalog (a CatalogSource) by namespace and name.
// It is comparable and used as a map key; the zero value names no catalog.
type CatalogKey struct {
	Namespace string
	Name      string
}

// SubscriptionCatalog returns the catalog subscription s names — its
// spec.sourceNamespace and spec.source — and true; or the zero key and
// false when it names none, and any catalog its namespace sees may serve
// it.
func SubscriptionCatalog(s *cluster.Subscription) (CatalogKey, bool) {
	if s.Source == "" {
		return CatalogKey{}, false
	}
	return CatalogKey{Namespace: s.SourceNamespace, Name: s.Source}, true
}

// takesFrom reports whether subscription s may take bundles from catalog
// k: it names k, or names no catalog.
func takesFrom(s *cluster.Subscription, k CatalogKey) bool {
	named, ok := SubscriptionCatalog(s)
	return !ok || named == k
}

// String returns "namespace/name".
func (k CatalogKey) String() string { return k.Namespace + "/" + k.Name }

// IsZero reports whether k is the zero key.
func (k CatalogKey) IsZero() bool { return k == CatalogKey{} }

// MarshalText encodes k as "namespace/name" (empty for the zero key).
func (k CatalogKey) MarshalText() ([]byte, error) {
	if k.IsZero() {
		return []byte{}, nil
	}
	return []byte(k.String()), nil
}

// UnmarshalText decodes "namespace/name" (or the empty string).
func (k *CatalogKey) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*k = CatalogKey{}
		return nil
	}
	ns, name, ok := strings.Cut(string(b), "/")
	if !ok || ns == "" || name == "" {
		return fmt.Errorf("invalid catalog key %q: want namespace/name", b)
	}
	*k = CatalogKey{Namespace: ns, Name: name}
	return nil
}
