package sextant

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/crd"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/olmv1"
	"github.com/sextantdev/sextant/registryv1"
	"github.com/sextantdev/sextant/resolver"
)

// World is what Load made of the inputs: the cluster state, the catalogs
// with their identities, the namespaces to resolve, and the resolvers
// built from them. Its fields are read-only: a World is shared by the
// answers it gives and is safe for concurrent use.
type World struct {
	// State is the cluster state of the manifests (and of the
	// application's OLM objects, with Input.For), with the OperatorGroups
	// read from the CSVs' annotations added (cluster.OperatorGroup.FromCSVs).
	State *cluster.State
	// Catalogs are the catalogs: those given, in order, then the images of
	// the CatalogSources read, by namespace and name.
	Catalogs []Catalog
	// Namespaces are the namespaces to resolve: the one chosen, or every
	// namespace of the state resolution concerns (Input.AllNamespaces).
	// Empty when the manifests hold only OLM v1 objects.
	Namespaces []string
	// AllNamespaces reports Input.AllNamespaces.
	AllNamespaces bool
	// GlobalNamespace is the namespace whose catalogs serve every
	// namespace.
	GlobalNamespace string
	// OperatorGroups say, per namespace of Namespaces, where its
	// OperatorGroup comes from.
	OperatorGroups []OperatorGroupFact
	// Notes are what the world decided or left out that the input did not
	// say, in the order they arose.
	Notes []Note
	// Resolver is the OLM v0 resolver of the catalogs; nil when the
	// manifests hold only OLM v1 objects (or Input.ForV1).
	Resolver *resolver.Resolver
	// V1 is the OLM v1 resolver of the catalogs, each the ClusterCatalog
	// of its name; nil when the manifests hold no ClusterExtension (and
	// the application's kinds are not answered in v1 terms).
	V1 *olmv1.Resolver
	// Application are the objects of Input.For.
	Application []cluster.Object
	// Bundles finds the contents of the catalogs' bundles: the folders of
	// Input.Bundles, a bundle's olm.bundle.object properties, and with
	// Options.BundleImages its image (Options.Bundles when set). Never
	// nil: with nothing given it finds the properties alone.
	Bundles *registryv1.Set

	opts  Options
	in    Input
	files map[cluster.Ref]string // the file of each object of State
	// crds parses the CRDs of the bundles whose custom resources a step
	// checks, once per content digest.
	crds *registryv1.CRDCache
}

// Catalog is one catalog of a world: its identity and priority as the
// resolvers see it, its content, and where it comes from.
type Catalog struct {
	Key      resolver.CatalogKey
	Priority int
	Catalog  *graph.Catalog
	Origin   Origin
}

// Origin says where a catalog comes from and how it got its name.
type Origin struct {
	// Path is the file or folder read, the image reference, or how a
	// stream or a catalog given loaded was named.
	Path string
	// Image is the image read, when the catalog is one: its reference, as
	// understood, and the digest read.
	Image *ImageOrigin `json:"image,omitempty"`
	// CatalogSource is the CatalogSource whose spec.image was read, when
	// the catalog is one.
	CatalogSource cluster.Ref `json:"catalogSource,omitzero"`
	// Named says how the catalog got its name.
	Named NameRule
}

// ImageOrigin is the image a catalog was read from.
type ImageOrigin struct {
	Image
	ImageRead
}

// NameRule says how a catalog got its name.
type NameRule string

// The ways a catalog gets its name (see the package documentation).
const (
	// NamedGiven: the input named it (CatalogInput.Name).
	NamedGiven NameRule = "given"
	// NamedByPath: the base name of its file, folder or image repository.
	NamedByPath NameRule = "path"
	// NamedByCatalogSource: the CatalogSources whose spec.image its image
	// reference is share that name.
	NamedByCatalogSource NameRule = "catalogsource-image"
	// NamedCatalogSource: the image of a CatalogSource, read for its
	// subscriptions; the catalog has the CatalogSource's name.
	NamedCatalogSource NameRule = "catalogsource"
)

// OperatorGroupFact says where a namespace's OperatorGroup comes from.
type OperatorGroupFact struct {
	Namespace string
	// From is where its group comes from.
	From GroupOrigin
	// Group is the group read from the CSVs' annotations (GroupFromCSVs).
	Group *cluster.OperatorGroup `json:"group,omitempty"`
	// Disagreement says how the CSVs disagree (GroupsDisagree).
	Disagreement *cluster.GroupDisagreement `json:"disagreement,omitempty"`
}

// GroupOrigin is where a namespace's OperatorGroup comes from.
type GroupOrigin string

// Where an OperatorGroup comes from.
const (
	// GroupListed: the manifests list OperatorGroups; the namespace's are
	// in State (none or several: resolution says so).
	GroupListed GroupOrigin = "listed"
	// GroupFromCSVs: the manifests list none; the CSVs' annotations name
	// the group (cluster.State.InferOperatorGroups).
	GroupFromCSVs GroupOrigin = "csv-annotations"
	// GroupsDisagree: the manifests list none, and the namespace's CSVs
	// name different groups: one plain group is assumed.
	GroupsDisagree GroupOrigin = "csvs-disagree"
	// GroupAssumed: nothing names one: one plain group is assumed, its
	// target namespaces unknown.
	GroupAssumed GroupOrigin = "assumed"
)

// Assumed reports a namespace whose group is assumed.
func (f OperatorGroupFact) Assumed() bool { return f.From == GroupAssumed || f.From == GroupsDisagree }

// ResolverCatalogs returns the catalogs as resolver takes them, in the
// world's order. The caller owns the slice.
func (w *World) ResolverCatalogs() []resolver.Catalog {
	out := make([]resolver.Catalog, len(w.Catalogs))
	for i, c := range w.Catalogs {
		out[i] = resolver.Catalog{Key: c.Key, Priority: c.Priority, Catalog: c.Catalog}
	}
	return out
}

// ResolverOptions returns the options the world's v0 resolver was built
// with: for a feature that builds resolvers of its own (filtered catalogs)
// that must resolve as the world does.
func (w *World) ResolverOptions() resolver.Options {
	return resolver.Options{
		GlobalNamespace:  w.GlobalNamespace,
		Tracer:           w.opts.Tracer,
		SemverUpgrades:   w.opts.SemverUpgrades,
		SemverAllowMajor: w.opts.SemverAllowMajor,
		CEL:              w.opts.CEL,
		KubeVersion:      w.opts.KubeVersion,
		AllowInvalid:     w.opts.AllowInvalid,
		OpenShiftVersion: w.opts.OpenShiftVersion,
		BundleCRDs:       w.bundleCRDs,
	}
}

// bundleCRDs returns the CRDs of catalog bundle b's contents (World.Bundles),
// each parsed once per world: nil and no error when its contents are not
// found; an error when they, or one of their CRDs, cannot be read.
func (w *World) bundleCRDs(ctx context.Context, b *graph.Bundle) ([]*crd.Definition, error) {
	if w.Bundles == nil {
		return nil, nil
	}
	c, _, err := w.Bundles.For(ctx, b)
	if err != nil || c == nil {
		return nil, err
	}
	cache := w.crds
	if cache == nil { // a World not made by Load
		cache = &registryv1.CRDCache{}
	}
	out := make([]*crd.Definition, 0, len(c.CRDs))
	for _, ref := range c.CRDs {
		d, _, err := cache.Parse(ref)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ref.Where(), err)
		}
		out = append(out, d)
	}
	return out, nil
}

// V1Options returns the options of the world's v1 resolver.
func (w *World) V1Options() olmv1.Options {
	return olmv1.Options{
		KubeVersion: w.opts.KubeVersion, OpenShiftVersion: w.opts.OpenShiftVersion,
		SingleOwnNamespace: w.opts.V1.SingleOwnNamespace, BundleRelease: w.opts.V1.BundleRelease, NoWebhookProvider: w.opts.V1.NoWebhookProvider,
		Bundles: w.Bundles,
	}
}

// CatalogImages returns, per catalog, the registry image it stands for:
// the registry image it was read from, else the spec.image of its
// CatalogSource (the one of its name in its namespace). A catalog with
// neither has none.
func (w *World) CatalogImages() map[resolver.CatalogKey]string {
	out := map[resolver.CatalogKey]string{}
	for _, c := range w.Catalogs {
		if o := c.Origin.Image; o != nil && len(o.Names) > 0 && o.Kind == "registry image" {
			out[c.Key] = o.Text
			continue
		}
		for _, cs := range w.State.CatalogSources {
			if cs.Name == c.Key.Name && cs.Namespace == c.Key.Namespace && cs.Image != "" {
				out[c.Key] = cs.Image
			}
		}
	}
	return out
}

// Options returns the options the world was built with.
func (w *World) Options() Options { return w.opts }

// Reload builds the world of the same cluster state (State, with the
// application) and the same choices — the namespaces, the global
// namespace, v0 or v1 — with other catalogs and options: what the world
// of a cluster is at another time (the catalogs of the next OpenShift
// minor, other versions). A catalog given under a CatalogSource's name
// stands for it, whatever its spec.image; the images of the
// CatalogSources no catalog stands for are read as Load reads them.
func (w *World) Reload(ctx context.Context, catalogs []CatalogInput, opts Options) (*World, error) {
	in := Input{
		Catalogs:        catalogs,
		State:           w.State,
		Application:     w.Application,
		AllNamespaces:   w.AllNamespaces,
		GlobalNamespace: w.GlobalNamespace,
		ForV1:           w.in.ForV1,
	}
	if opts.Bundles == nil && opts.BundleImages == nil {
		opts.Bundles = w.Bundles
	}
	if !w.AllNamespaces && len(w.Namespaces) == 1 {
		in.Namespace = w.Namespaces[0]
	}
	return Load(ctx, in, opts)
}

// File returns the file the object ref was read from ("" for one the
// world made, such as an OperatorGroup read from annotations).
func (w *World) File(ref cluster.Ref) string { return w.files[ref] }

// Load builds the world of in: it reads every manifest and catalog (the
// files and streams of the catalogs while the manifests are read), names
// the catalogs, chooses the namespaces, reads the images of the
// CatalogSources the subscriptions name, places each catalog, reads the
// OperatorGroups the CSVs' annotations name, and builds the resolvers —
// by the rules of the package documentation. Every problem of the inputs
// is reported (errors.Join), each naming its file and object; no image is
// read, and no registry reached, before the manifests and the catalog
// names are known to be right. When ctx ends first the error matches
// errors.Is(err, ctx.Err()).
//
// Load reads the readers of in once; it does not close them.
func Load(ctx context.Context, in Input, opts Options) (*World, error) {
	if err := checkInput(in, opts); err != nil {
		return nil, err
	}
	l := &loader{ctx: ctx, in: in, opts: opts, files: map[cluster.Ref]string{}}
	w, err := l.load()
	if err != nil {
		return nil, err
	}
	return w, nil
}

// checkInput reports the first field of in or opts that is wrong or goes
// against another.
func checkInput(in Input, opts Options) error {
	switch {
	case in.AllNamespaces && in.Namespace != "":
		return &InputError{Field: "Namespace", Value: in.Namespace, Err: errors.New("excludes AllNamespaces")}
	case opts.SemverAllowMajor && !opts.SemverUpgrades:
		return &InputError{Field: "SemverAllowMajor", Err: errors.New("goes with SemverUpgrades")}
	case opts.Bundles != nil && len(in.Bundles) > 0:
		return &InputError{Field: "Bundles", Err: errors.New("bundle folders are given, and Options.Bundles already holds bundle contents")}
	case opts.Bundles != nil && opts.BundleImages != nil:
		return &InputError{Field: "BundleImages", Err: errors.New("Options.Bundles already holds bundle contents, with their image source")}
	}
	if opts.KubeVersion != "" {
		if _, err := graph.ParseKubeVersion(opts.KubeVersion, true); err != nil {
			return &InputError{Field: "KubeVersion", Value: opts.KubeVersion, Err: err}
		}
	}
	if opts.OpenShiftVersion != "" {
		if _, err := semver.ParseTolerant(opts.OpenShiftVersion); err != nil {
			return &InputError{Field: "OpenShiftVersion", Value: opts.OpenShiftVersion, Err: err}
		}
	}
	return nil
}

// loader builds one world.
type loader struct {
	ctx   context.Context
	in    Input
	opts  Options
	files map[cluster.Ref]string
	notes []Note
}

// note records a note, and tells Options.OnNote.
func (l *loader) note(n Note) {
	l.notes = append(l.notes, n)
	if l.opts.OnNote != nil {
		l.opts.OnNote(n)
	}
}

// notef records a note of code about nothing in particular.
func (l *loader) notef(code NoteCode, format string, args ...any) {
	l.note(Note{Code: code, Text: fmt.Sprintf(format, args...)})
}

// load is Load of checked input.
func (l *loader) load() (*World, error) {
	cats, err := l.catalogSpecs()
	if err != nil {
		return nil, err
	}
	state, app, err := l.readInputs(cats)
	if err != nil {
		return nil, err
	}
	w := &World{State: state, Application: app, AllNamespaces: l.in.AllNamespaces, opts: l.opts, in: l.in, files: l.files, crds: &registryv1.CRDCache{}}
	if w.Bundles = l.opts.Bundles; w.Bundles == nil {
		if w.Bundles, err = ReadBundles(l.ctx, l.in.Bundles, l.opts.Limits, l.opts.BundleImages, l.note); err != nil {
			return nil, err
		}
	}
	if len(l.in.Manifests) == 0 && len(l.in.For) == 0 && l.in.State == nil && len(l.in.Application) == 0 {
		return l.catalogsOnly(w, cats)
	}
	if err := l.nameImages(state, cats); err != nil {
		return nil, err
	}
	v1, err := l.wantV1(state, cats)
	if err != nil {
		return nil, err
	}
	// With only ClusterExtensions (or v1 answers for an application), no
	// v0 world: no namespace, no CatalogSource image.
	v0 := !l.in.ForV1 && (!v1 || len(state.Subscriptions) > 0 || len(state.CSVs) > 0)
	given := cats
	if v0 {
		if err := l.placeV0(w, state, &cats); err != nil {
			return nil, err
		}
	} else {
		if len(cats) == 0 {
			return nil, ErrNoCatalog
		}
		if err := l.loadImages(cats); err != nil {
			return nil, err
		}
		for _, c := range cats {
			c.key.Name = c.name
		}
	}
	for _, c := range cats {
		w.Catalogs = append(w.Catalogs, c.catalog())
	}
	l.noteImagesRead(given)
	l.noteUnreadKeys(cats)
	if v1 {
		if err := l.buildV1(w, given); err != nil {
			return nil, err
		}
	}
	if v0 {
		if err := l.buildV0(w); err != nil {
			return nil, err
		}
	}
	w.Notes = l.notes
	return w, nil
}

// catalogsOnly builds the world of catalogs without manifests: each in the
// global namespace (or its own), priority 0, and both resolvers, each
// catalog the ClusterCatalog of its name for v1.
func (l *loader) catalogsOnly(w *World, cats []*catalogSpec) (*World, error) {
	if len(cats) == 0 {
		return nil, ErrNoCatalog
	}
	for _, c := range cats {
		if c.name == "" {
			c.name, c.named = c.img.BaseName, NamedByPath
		}
	}
	if err := checkNames(cats); err != nil {
		return nil, err
	}
	if err := l.loadImages(cats); err != nil {
		return nil, err
	}
	w.GlobalNamespace = cmp.Or(l.in.GlobalNamespace, resolver.DefaultGlobalNamespace)
	v1cats := make([]olmv1.Catalog, len(cats))
	for i, c := range cats {
		c.key = resolver.CatalogKey{Namespace: cmp.Or(c.in.Namespace, w.GlobalNamespace), Name: c.name}
		w.Catalogs = append(w.Catalogs, c.catalog())
		v1cats[i] = olmv1.Catalog{ClusterCatalog: cluster.NewClusterCatalog(c.name), Content: c.cat}
	}
	var err error
	if w.V1, err = olmv1.New(v1cats, w.V1Options()); err != nil {
		return nil, err
	}
	if err := l.buildV0(w); err != nil {
		return nil, err
	}
	w.Notes = l.notes
	return w, nil
}

// placeV0 chooses the namespaces, adds the images of the CatalogSources,
// checks every subscription's source, reads the images, and places every
// catalog: the v0 world.
func (l *loader) placeV0(w *World, state *cluster.State, cats *[]*catalogSpec) error {
	var err error
	if w.Namespaces, err = l.namespaces(state, w.Application); err != nil {
		return err
	}
	srcs := l.sourceImages(state, w.Namespaces, *cats)
	if len(*cats) == 0 && len(srcs) == 0 {
		return ErrNoCatalog
	}
	w.OperatorGroups = l.operatorGroups(state, w.Namespaces)
	w.GlobalNamespace = l.globalNamespace(state)
	if err := l.checkSources(state, w.Namespaces, *cats, srcs); err != nil {
		return err
	}
	if err := l.loadImages(*cats); err != nil {
		return err
	}
	if err := l.loadSourceImages(srcs); err != nil {
		return err
	}
	*cats = append(*cats, srcs...)
	return l.place(state, w.Namespaces, w.GlobalNamespace, *cats)
}

// buildV0 builds the v0 resolver of the world's catalogs.
func (l *loader) buildV0(w *World) error {
	if l.opts.SemverUpgrades {
		span := "within a major version"
		if l.opts.SemverAllowMajor {
			span = "across major versions"
		}
		l.notef(NoteSemverUpgrades, "an installed operator may upgrade to any higher version of its channel %s, beyond the catalog's replaces, skips and skipRange edges (OLM follows only those)", span)
	}
	res, err := resolver.NewContext(l.ctx, w.ResolverCatalogs(), w.ResolverOptions())
	if err != nil {
		return err
	}
	w.Resolver = res
	return nil
}

// readInputs reads the manifests (and the application's, Input.For) and
// the catalogs that are files, folders or streams; every problem of both
// is reported, the manifests' first. The catalogs load meanwhile, on
// another core, unless an input is a stream (read in order).
func (l *loader) readInputs(cats []*catalogSpec) (*cluster.State, []cluster.Object, error) {
	var done chan struct{} // nil: the catalogs load after the manifests
	var catErrs []error
	cl := &loader{ctx: l.ctx, in: l.in, opts: l.opts}
	cl.opts.OnNote = nil // its notes are told once the manifests are read
	if !l.streams() {
		done = make(chan struct{})
		go func() {
			defer close(done)
			catErrs = cl.loadFiles(cats)
		}()
	}
	var errs []error
	var state *cluster.State
	var app []cluster.Object
	if len(l.in.Manifests) > 0 {
		var err error
		if state, err = l.readState(l.in.Manifests); err != nil {
			errs = appendErrors(errs, err)
		} else {
			state.ClaimCustomResources()
			if ignored := state.IgnoredText(); ignored != "" {
				l.notef(NoteIgnoredKinds, "ignored: %s (kinds resolution does not read)", ignored)
			}
			l.noteState(state)
		}
	} else {
		state = &cluster.State{}
	}
	if l.in.State != nil && state != nil {
		given := l.in.State.Clone()
		for _, r := range given.Merge(state) {
			errs = append(errs, &DefinedTwiceError{File: l.files[r], Object: r, Prev: "the state given"})
		}
		given.Sort()
		given.ClaimCustomResources()
		state = given
	}
	app = slices.Clone(l.in.Application)
	if len(l.in.For) > 0 {
		objs, appState, err := l.readApplication(l.in.For)
		if err != nil {
			errs = appendErrors(errs, err)
		} else if state != nil {
			app = append(app, objs...)
			if err := mergeApplication(state, appState); err != nil {
				errs = appendErrors(errs, err)
			}
		}
	}
	if done != nil {
		<-done
		for _, n := range cl.notes {
			l.note(n)
		}
	} else {
		catErrs = l.loadFiles(cats)
	}
	errs = append(errs, catErrs...)
	if len(errs) > 0 {
		return nil, nil, errors.Join(errs...)
	}
	return state, app, nil
}

// streams reports whether an input is a stream.
func (l *loader) streams() bool {
	for _, fs := range [][]File{l.in.Manifests, l.in.For} {
		if slices.ContainsFunc(fs, func(f File) bool { return f.Reader != nil }) {
			return true
		}
	}
	return slices.ContainsFunc(l.in.Catalogs, func(c CatalogInput) bool { return c.Reader != nil })
}
