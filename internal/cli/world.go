package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/celrule"
	"github.com/sextantdev/sextant/internal/words"
	"github.com/sextantdev/sextant/registryv1"
)

// The command line's side of the one door: flags become a sextant.Input
// and sextant.Options, sextant.Load builds the world, and the world's
// notes and typed errors get the command line's words and flag advice.

// worldInput returns the input the flags of f name: the catalogs, the
// manifests and the application's manifests, "-" taking standard input
// (the manifests first, then the application's, then the catalogs).
func (e *env) worldInput(f *resolveFlags) (sextant.Input, error) {
	in := sextant.Input{Recursive: f.recursive, Namespace: f.namespace, AllNamespaces: f.all, ForV1: f.olm != nil && f.olm.value == "v1",
		Bundles: f.bundles.dirs}
	if f.cmd != nil && f.cmd.Flags().Changed("global-namespace") {
		in.GlobalNamespace = f.globalNamespace
	}
	var err error
	if in.Manifests, err = e.files(f.files, `-f "-"`); err != nil {
		return in, err
	}
	if in.For, err = e.files(f.forFiles, `--for "-"`); err != nil {
		return in, err
	}
	in.Catalogs, err = e.catalogInputs(f.catalogs)
	return in, err
}

// files returns the inputs of paths, "-" standard input (taken as what).
func (e *env) files(paths []string, what string) ([]sextant.File, error) {
	var out []sextant.File
	for _, p := range paths {
		if p != "-" {
			out = append(out, sextant.File{Path: p})
			continue
		}
		r, err := e.takeStdin(what)
		if err != nil {
			return nil, err
		}
		out = append(out, sextant.File{Path: stdinName, Reader: r})
	}
	return out, nil
}

// catalogInputs returns the catalogs of the --catalog values.
func (e *env) catalogInputs(values []string) ([]sextant.CatalogInput, error) {
	prepareHeap()
	var out []sextant.CatalogInput
	for _, s := range values {
		c, err := sextant.ParseCatalogArg(s)
		if err != nil {
			return nil, catalogArgError(s, err)
		}
		if c.Path == "-" {
			r, err := e.takeStdin(`catalog "-"`)
			if err != nil {
				return nil, err
			}
			c.Path, c.Reader = stdinName, r
		}
		out = append(out, c)
	}
	return out, nil
}

// catalogArgError is the usage error of a --catalog value that does not
// parse.
func catalogArgError(s string, err error) error {
	var ce *sextant.CatalogArgError
	switch {
	case !errors.As(err, &ce):
		return err
	case s == "":
		return usageErrorf("--catalog: empty path")
	case s == "-":
		return usageErrorf(`--catalog "-": name the catalog read from standard input, as NAME=-`)
	}
	name, _, _ := strings.Cut(s, "=")
	return usageErrorf("--catalog %q: no path after %q", s, name+"=")
}

// worldOptions returns the options the flags of f set.
func (e *env) worldOptions(f *resolveFlags) sextant.Options {
	return sextant.Options{
		Limits:           e.worldLimits(),
		Images:           e.imageReader().Source(),
		CEL:              celrule.New(),
		KubeVersion:      f.kubeVersion,
		OpenShiftVersion: f.openShift,
		SemverUpgrades:   f.semver,
		SemverAllowMajor: f.semverMajor,
		AllowInvalid:     f.allowInvalid,
		V1:               f.v1Gates(),
		BundleImages:     e.bundleImages(f.bundles.images),
		OnNote:           e.printNote,
	}
}

// bundleImages is the reader of bundle images of --bundle-images (on):
// nil when it is off.
func (e *env) bundleImages(on bool) registryv1.ImageSource {
	if !on {
		return nil
	}
	return e.imageReader().BundleSource()
}

// readBundles reads the bundle folders of f as the world does
// (sextant.ReadBundles), its notes printed; nil when neither --bundles
// nor --bundle-images is given.
func (e *env) readBundles(ctx context.Context, f bundleFlags) (*registryv1.Set, error) {
	if len(f.dirs) == 0 && !f.images {
		return nil, nil
	}
	set, err := sextant.ReadBundles(ctx, f.dirs, e.worldLimits(), e.bundleImages(f.images), e.printNote)
	if err != nil {
		return nil, e.worldError(err)
	}
	return set, nil
}

// noteUnusedBundles notes the folders of --bundles no answer used, with
// why (what the command asked bundle contents for).
func (e *env) noteUnusedBundles(set *registryv1.Set, why string) {
	if n, ok := sextant.UnusedBundles(set, why); ok {
		e.printNote(n)
	}
}

// noteUnusedWorldBundles notes the folders of --bundles no answer of w
// used.
func (e *env) noteUnusedWorldBundles(w *sextant.World) {
	if n, ok := w.UnusedBundles(); ok {
		e.printNote(n)
	}
}

// worldLimits are the limits of --max-input-size and --max-document-size.
func (e *env) worldLimits() sextant.Limits {
	return sextant.Limits{MaxBytes: int64(e.limits.input), MaxDocument: int64(e.limits.document)}
}

// loadWorld checks the flags of f and builds their world; its notes are
// printed as they arise, its errors in the command line's words.
func (e *env) loadWorld(f *resolveFlags) (*sextant.World, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	in, err := e.worldInput(f)
	if err != nil {
		return nil, err
	}
	w, err := sextant.Load(e.context(), in, e.worldOptions(f))
	if err != nil {
		return nil, e.worldError(err)
	}
	return w, nil
}

// printNote prints a note of the world on standard error, with the
// command line's advice.
func (e *env) printNote(n sextant.Note) {
	switch n.Code {
	case sextant.NoteSemverUpgrades:
		e.notef("--semver-upgrades: %s", n.Text)
	case sextant.NoteExtensionsNotResolved:
		e.notef("--for: %s", n.Text)
	case sextant.NoteSubscriptionsNotResolved:
		e.notef("--olm v1: %s", n.Text)
	default:
		e.notef("%s%s", n.Text, noteAdvice(n))
	}
}

// printNotes prints the notes of an answer (but those its text holds).
func (e *env) printNotes(notes []sextant.Note) {
	for _, n := range notes {
		if n.Code != sextant.NoteCatalogNotVisible {
			e.printNote(n)
		}
	}
}

// noteAdvice is the flag advice added to a note of the code of n.
func noteAdvice(n sextant.Note) string {
	switch n.Code {
	case sextant.NoteSkippedSubfolders:
		return " (-R reads them)"
	case sextant.NoteGlobalNamespace, sextant.NoteGlobalNamespaceKept:
		return " (--global-namespace sets it)"
	case sextant.NoteAppNamespace:
		return ", as -n says"
	case sextant.NoteExcluded:
		return " (--allow-invalid)"
	case sextant.NoteCustomResourcesUnchecked:
		return " (--bundles DIR gives bundle folders; --bundle-images reads the bundles' images)"
	case sextant.NoteCRDPreflightUnchecked:
		return " (--bundles DIR or --bundle-images gives the bundles' contents; kubectl get crd -o yaml the cluster's CRDs)"
	case sextant.NoteCatalogNotVisible:
		return fmt.Sprintf("; if %s is the cluster's global catalog namespace, add --global-namespace %s", n.Catalog.Namespace, n.Catalog.Namespace)
	}
	return ""
}

// textOptions are the text options of the flags of f.
func textOptions(f *resolveFlags) sextant.TextOptions {
	return sextant.TextOptions{Full: f.full, Advice: noteAdvice}
}

// answerOptions are the answer options of --max-suggestions (0: none).
func answerOptions(maxSuggestions int) sextant.AnswerOptions {
	if maxSuggestions <= 0 {
		maxSuggestions = -1
	}
	return sextant.AnswerOptions{MaxSuggestions: maxSuggestions}
}

// worldError returns the errors of Load in the command line's words:
// each with its flag advice, usage errors (which point to --help) where
// the flags are wrong.
func (e *env) worldError(err error) error {
	errs := appendErrors(nil, err)
	if len(errs) == 1 {
		return e.worldProblem(errs[0])
	}
	out := make([]error, len(errs))
	for i, x := range errs {
		out[i] = e.worldProblem(x)
	}
	return errors.Join(out...)
}

// worldProblem is one problem of Load in the command line's words.
func (e *env) worldProblem(err error) error {
	var (
		ns      *sextant.NamespaceError
		names   *sextant.CatalogNameError
		source  *sextant.SourceError
		amb     *sextant.AmbiguousCatalogError
		cc      *sextant.ClusterCatalogError
		empty   *sextant.EmptyInputError
		noApp   *sextant.EmptyApplicationError
		appDup  *sextant.ApplicationConflictError
		unknown *sextant.UnknownExtensionError
		bundles *sextant.BundlesError
	)
	switch {
	case errors.As(err, &bundles):
		return fmt.Errorf("--bundles: %w", bundles.Err)
	case errors.Is(err, sextant.ErrNoCatalog):
		return usageErrorf("no catalog: give one or more --catalog [NAME=]PATH, or CatalogSources with spec.image for the subscriptions")
	case errors.As(err, &ns):
		return namespaceError(ns, e.cmdPath == "sextant resolve")
	case errors.As(err, &names) && names.Paths[0] == names.Paths[1]:
		return usageErrorf("catalog %s is given twice", names.Paths[0])
	case errors.As(err, &names):
		return usageErrorf("two catalogs are named %q (%s and %s); name them apart with --catalog NAME=PATH", names.Name, names.Paths[0], names.Paths[1])
	case errors.As(err, &source):
		return sourceError(source)
	case errors.As(err, &amb):
		return usageErrorf("%v", amb)
	case errors.As(err, &cc):
		return fmt.Errorf("%sClusterCatalog %q: no catalog of that name is given; give its content with --catalog %s=PATH (catalogs: %s)", inFile(cc.File), cc.Name, cc.Name, strings.Join(cc.Catalogs, ", "))
	case errors.As(err, &empty) && empty.Folder && empty.Subfolders > 0:
		return fmt.Errorf("%s: no manifest in the folder (no .yaml, .yml or .json file; -R reads its subfolders)", empty.File)
	case errors.As(err, &noApp):
		return usageErrorf("--for: no object in %s", strings.Join(noApp.Files, ", "))
	case errors.As(err, &appDup):
		return fmt.Errorf("--for: %s %q is in the application and in the cluster state (-f)", appDup.Object.Kind, appDup.Object.Namespace+"/"+appDup.Object.Name)
	case errors.As(err, &unknown):
		return usageErrorf("--why %q: no ClusterExtension of that name (extensions: %s)", unknown.Name, strings.Join(unknown.Extensions, ", "))
	}
	return advise(advise(err, e.catalogAdvice), manifestsAdvice)
}

// namespaceError is a *sextant.NamespaceError in the command line's
// words; withAll: the command has -A.
func namespaceError(ns *sextant.NamespaceError, withAll bool) error {
	switch {
	case ns.Asked != "" && len(ns.Namespaces) == 0:
		return fmt.Errorf("-n %s: the manifests hold no subscription, installed CSV or OperatorGroup in any namespace", ns.Asked)
	case ns.Asked != "":
		return fmt.Errorf("-n %s: the manifests hold nothing in namespace %q; namespaces present: %s", ns.Asked, ns.Asked, strings.Join(ns.Namespaces, ", "))
	case ns.What == "":
		return usageErrorf("no namespace in the manifests: no subscription, installed CSV or OperatorGroup")
	case len(ns.Namespaces) == 0:
		return usageErrorf("no subscription and no installed CSV in the manifests: name the namespace with -n")
	case withAll && ns.What != "application's objects":
		return usageErrorf("the %s are in %d namespaces (%s): choose one with -n, or resolve every namespace with -A", ns.What, len(ns.Namespaces), strings.Join(ns.Namespaces, ", "))
	}
	return usageErrorf("the %s are in %d namespaces (%s): choose one with -n", ns.What, len(ns.Namespaces), strings.Join(ns.Namespaces, ", "))
}

// sourceError is a *sextant.SourceError in the command line's words: the
// catalogs given with --catalog, and for each catalog given without a
// name that no subscription names, the --catalog NAME=PATH that makes it
// the subscription's.
func sourceError(e *sextant.SourceError) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%sSubscription %q: spec.source %q names no catalog given with --catalog (catalogs: %s)", inFile(e.File), e.Subscription.Namespace+"/"+e.Subscription.Name, e.Source, strings.Join(e.Catalogs, ", "))
	if e.Image != "" && len(e.Unnamed) > 0 {
		fmt.Fprintf(&b, "; its CatalogSource's image %s is not read while %s given without a name may be it", e.Image, words.Plural(len(e.Unnamed), "catalog"))
	}
	for _, u := range e.Unnamed {
		fmt.Fprintf(&b, "; --catalog %s is named %q after its %s: if it is that catalog, give it as --catalog %s=%s", u.Path, u.Name, u.From, e.Source, u.Path)
	}
	if e.Image != "" && len(e.Unnamed) > 0 {
		b.WriteString(", or name it to read the CatalogSource's image beside it")
	}
	return errors.New(b.String())
}

// inFile returns "FILE: " to start a message about an object read from
// FILE, or "" for an object with no file.
func inFile(file string) string {
	if file == "" {
		return ""
	}
	return file + ": "
}
