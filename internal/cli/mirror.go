package cli

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/sextantdev/sextant"

	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant/celrule"
	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/internal/fileerr"
	"github.com/sextantdev/sextant/mirror"
	"github.com/sextantdev/sextant/resolver"
)

// mirrorFlags are the inputs of mirror.
type mirrorFlags struct {
	catalogs        []string // --catalog [NAME=]PATH
	files           []string // -f
	recursive       bool     // -R
	namespace       string   // -n
	packages        []string // --package NAME[:CHANNEL][@RANGE]
	packageFile     string   // --package-file
	catalogImages   []string // --catalog-image NAME=REF
	globalNamespace string   // --global-namespace
	maxRounds       int      // --max-rounds
	output          *choice  // -o
}

func newMirrorCmd(e *env) *cobra.Command {
	f := &mirrorFlags{}
	cmd := &cobra.Command{
		Use:   "mirror --catalog [NAME=]PATH... (-f MANIFESTS... | --package PKG...)",
		Short: "The smallest set of bundles a disconnected cluster needs",
		Long: `Mirror computes the smallest set of catalog bundles with which a disconnected cluster does
everything it would do with the full catalogs: install each subscription, take every upgrade hop
from each installed version to its channel's head, and install every dependency at every version
the resolver picks on the way. It rolls out every namespace of the manifests (and every package
asked for) as rollout --approve does, keeps the bundle of every step, adds what keeps the filtered
catalog valid with its edges unchanged, and checks that the filtered catalog passes the structural
check and that every rollout takes the same rounds against it.

What the cluster needs: its manifests (-f, every namespace, read as resolve reads them; -n NS
only one), or, for a cluster yet to be built, packages: --package NAME[:CHANNEL][@RANGE] or
--package-file FILE (one per line; # starts a comment). A package without a range is a new
subscription (the channel's head, the default channel when none is named); with a range (quoted:
"cert-manager:stable@>=1.16.0 <1.17.0"), the cluster may start at any version of the channel in
the range and upgrades while it stays in the range.

Outputs (-o): text lists per package the bundles kept and why, and what a whole-channel mirror
would take; json and yaml the same as data; fbc the filtered File-Based Catalog (one catalog);
images every bundle image and related image, one per line; imageset an oc-mirror v2
ImageSetConfiguration of the kept bundles (each catalog's image: the registry image it was read
from, else its CatalogSource's spec.image; --catalog-image NAME=REF gives or overrides it).
docs/mirror.md says what is kept and why.

Exit status: 0 the set is computed; 1 some rollout has no plan with the full catalogs (each is
named); 2 bad input or usage.`,
		Example: `  sextant mirror --catalog testdata/catalogs/community-operators-prod.v4.20-index.json.gz \
    -f testdata/examples/cluster.yaml
  sextant mirror --catalog testdata/catalogs/community-operators-prod.v4.20-index.json.gz \
    --package cert-manager:stable -o images`,
		Args: cobra.NoArgs,
	}
	addCatalogFlag(cmd, &f.catalogs, "repeatable")
	addFilenameFlag(cmd, &f.files, &f.recursive, "every namespace's state")
	addNamespaceFlag(cmd, &f.namespace, "only the namespace `NS` of the manifests (default: all)")
	cmd.Flags().StringArrayVar(&f.packages, "package", nil, "a package to install (`PKG`: NAME[:CHANNEL][@RANGE]; repeatable)")
	cmd.Flags().StringVar(&f.packageFile, "package-file", "", "a `FILE` of packages, one NAME[:CHANNEL][@RANGE] per line")
	cmd.Flags().StringArrayVar(&f.catalogImages, "catalog-image", nil, "the image of a catalog, as `NAME=REF`, for -o imageset (repeatable)")
	cmd.Flags().StringVar(&f.globalNamespace, "global-namespace", resolver.DefaultGlobalNamespace, "the global catalog namespace `NS`")
	cmd.Flags().IntVar(&f.maxRounds, "max-rounds", defaultMaxRounds, "at most `N` rounds in each rollout")
	f.output = addOutputFlag(cmd, "text", "json", "yaml", "fbc", "imageset", "images")
	cmd.RunE = func(cmd *cobra.Command, args []string) error { return e.runMirror(cmd, f) }
	return withTopics(cmd, "catalogs", "manifests")
}

// runMirror builds the world, computes its set (mirror.Compute) and
// writes it.
func (e *env) runMirror(cmd *cobra.Command, f *mirrorFlags) error {
	req, err := e.mirrorRequest(f)
	if err != nil {
		return err
	}
	in := sextant.Input{Recursive: f.recursive, Namespace: f.namespace, AllNamespaces: f.namespace == "" && len(f.files) > 0}
	if cmd.Flags().Changed("global-namespace") {
		in.GlobalNamespace = f.globalNamespace
	}
	if in.Manifests, err = e.files(f.files, `-f "-"`); err != nil {
		return err
	}
	if in.Catalogs, err = e.catalogInputs(f.catalogs); err != nil {
		return err
	}
	w, err := sextant.Load(e.context(), in, sextant.Options{Limits: e.worldLimits(), Images: e.imageReader().Source(), CEL: celrule.New(), OnNote: e.printNote})
	if err != nil {
		return e.worldError(err)
	}
	images, err := catalogImages(w, f.catalogImages)
	if err != nil {
		return err
	}
	set, err := mirror.Compute(cmd.Context(), w, req, mirror.Options{MaxRounds: f.maxRounds})
	var failed []string
	if err != nil {
		if failed = rolloutFailures(err); failed == nil {
			return err
		}
		if set == nil {
			fmt.Fprintln(e.stdout, strings.Join(failed, "\n"))
			return errNo
		}
	}
	if err := e.writeMirror(f, set, images); err != nil {
		return err
	}
	if failed == nil {
		return nil
	}
	// The set of the other rollouts is written; the failures are the
	// answer's "no": after a text report, on standard error after data.
	if f.output.String() == "text" {
		fmt.Fprintf(e.stdout, "\nno mirror set for %d of the rollouts:\n%s\n", len(failed), strings.Join(failed, "\n"))
		return errNo
	}
	return &exitError{code: ExitNo, err: errors.New(strings.Join(failed, "\n"))}
}

// catalogImages returns the image oc-mirror pulls for each catalog of the
// world: the one --catalog-image names (NAME=REF), else the registry image
// it stands for (sextant.World.CatalogImages).
func catalogImages(w *sextant.World, values []string) (map[resolver.CatalogKey]string, error) {
	images := w.CatalogImages()
	var errs []error
	for _, s := range values {
		name, ref, _ := strings.Cut(s, "=")
		i := slices.IndexFunc(w.Catalogs, func(c sextant.Catalog) bool { return c.Key.Name == name })
		if i < 0 {
			errs = append(errs, usageErrorf("--catalog-image %q: no catalog is named %q", s, name))
			continue
		}
		images[w.Catalogs[i].Key] = ref
	}
	return images, joinErrors(errs)
}

// writeMirror writes the set in the format asked for.
func (e *env) writeMirror(f *mirrorFlags, set *mirror.Set, images map[resolver.CatalogKey]string) error {
	switch format := f.output.String(); format {
	case "json", "yaml":
		return writeEncoded(e.stdout, format, set)
	case "fbc":
		return set.WriteFBC(e.stdout)
	case "images":
		return set.WriteImages(e.stdout)
	case "imageset":
		isc, err := set.ImageSet(images)
		if err != nil {
			return usageErrorf("-o imageset: %v; give it with --catalog-image NAME=REF", err)
		}
		return writeEncoded(e.stdout, "yaml", isc)
	default:
		return set.WriteText(e.stdout)
	}
}

// rolloutFailures returns a line per rollout that the full catalogs
// cannot carry through (a round with no plan, a rollout that does not
// settle), or nil when err holds anything else.
func rolloutFailures(err error) []string {
	var lines []string
	for _, x := range appendErrors(nil, err) {
		var re *mirror.RolloutError
		if !errors.As(x, &re) {
			return nil
		}
		var ce *resolver.ConflictError
		var og *cluster.OperatorGroupError
		if !errors.As(re, &ce) && !errors.Is(re, resolver.ErrRoundLimit) && !errors.As(re, &og) {
			return nil
		}
		lines = append(lines, re.Error())
	}
	return lines
}

// mirrorRequest checks the flags and reads the packages asked for; it
// returns the request (without the state), the catalogs to load and the
// catalog images by catalog name.
func (e *env) mirrorRequest(f *mirrorFlags) (mirror.Request, error) {
	var req mirror.Request
	if f.maxRounds < 1 {
		return req, usageErrorf("--max-rounds %d: want at least 1", f.maxRounds)
	}
	if f.globalNamespace == "" {
		return req, usageErrorf("--global-namespace is empty")
	}
	if f.namespace != "" && len(f.files) == 0 {
		return req, usageErrorf("-n %s: no manifests: -n chooses a namespace of the manifests given with -f", f.namespace)
	}
	lines := slices.Clone(f.packages)
	where := make([]string, len(lines))
	for i := range where {
		where[i] = "--package"
	}
	if f.packageFile != "" {
		fl, fw, err := readPackageFile(f.packageFile)
		if err != nil {
			return req, err
		}
		lines, where = append(lines, fl...), append(where, fw...)
	}
	if len(f.files) == 0 && len(lines) == 0 {
		return req, usageErrorf("nothing to mirror for: give the cluster's manifests with -f FILE, or packages with --package NAME[:CHANNEL][@RANGE] or --package-file FILE")
	}
	var errs []error
	for i, l := range lines {
		p, err := mirror.ParsePackageRequest(l)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", where[i], err))
			continue
		}
		req.Packages = append(req.Packages, p)
	}
	for _, s := range f.catalogImages {
		if name, ref, ok := strings.Cut(s, "="); !ok || name == "" || ref == "" {
			errs = append(errs, usageErrorf("--catalog-image %q: want NAME=REF", s))
		}
	}
	return req, joinErrors(errs)
}

// readPackageFile reads one package request per line, "#" starting a
// comment; it returns the requests and where each is ("FILE:LINE").
func readPackageFile(path string) (lines, where []string, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fileerr.Path(path, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		l, _, _ := strings.Cut(sc.Text(), "#")
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
			where = append(where, fmt.Sprintf("%s:%d", path, n))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return lines, where, nil
}
