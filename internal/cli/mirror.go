package cli

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant/celrule"
	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/mirror"
	"github.com/sextantdev/sextant/resolver"
)

// mirrorFlags are the inputs of mirror.
type mirrorFlags struct {
	catalogs        []string // --catalog [NAME=]PATH
	files           []string // -f
	recursive       bool     // -R
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

What the cluster needs: its manifests (-f, every namespace: kubectl get csv,sub,catsrc -A -o yaml),
or, for a cluster yet to be built, packages: --package NAME[:CHANNEL][@RANGE] or --package-file
FILE (one such line each; # starts a comment). A package without a range is a new subscription
(the channel's head, the default channel when none is named); with a range (a semver range,
quoted: "cert-manager:stable@>=1.16.0 <1.17.0"), the cluster may start at any version of the
channel in the range and upgrades while it stays in the range.

Outputs (-o): text lists per package the bundles kept and why, and what a whole-channel mirror
would take; json and yaml the same as data; fbc the filtered File-Based Catalog (one catalog);
images every bundle image and related image, one per line; imageset an oc-mirror v2
ImageSetConfiguration of the kept bundles (each catalog's image: --catalog-image NAME=REF). The
README ("sextant mirror") says what is kept and why.

Exit status: 0 the set is computed; 1 some rollout has no plan with the full catalogs (each is
named); 2 bad input or usage.`,
		Example: `  sextant mirror --catalog testdata/catalogs/community-operators-prod.v4.20-index.json.gz \
    -f testdata/examples/cluster.yaml
  sextant mirror --catalog testdata/catalogs/community-operators-prod.v4.20-index.json.gz \
    --package cert-manager:stable -o images`,
		Args: cobra.NoArgs,
	}
	addCatalogFlag(cmd, &f.catalogs, "repeatable, required")
	addFilenameFlag(cmd, &f.files, &f.recursive, "every namespace's state")
	cmd.Flags().StringArrayVar(&f.packages, "package", nil, "a package to install (`PKG`: NAME[:CHANNEL][@RANGE]; repeatable)")
	cmd.Flags().StringVar(&f.packageFile, "package-file", "", "a `FILE` of packages, one NAME[:CHANNEL][@RANGE] per line")
	cmd.Flags().StringArrayVar(&f.catalogImages, "catalog-image", nil, "the image of a catalog, as `NAME=REF`, for -o imageset (repeatable)")
	cmd.Flags().StringVar(&f.globalNamespace, "global-namespace", resolver.DefaultGlobalNamespace, "the global catalog namespace `NS`")
	cmd.Flags().IntVar(&f.maxRounds, "max-rounds", defaultMaxRounds, "at most `N` rounds in each rollout")
	f.output = addOutputFlag(cmd, "text", "json", "yaml", "fbc", "imageset", "images")
	cmd.RunE = func(cmd *cobra.Command, args []string) error { return e.runMirror(cmd, f) }
	return withTopics(cmd, "catalogs", "manifests")
}

// runMirror reads the inputs, computes the set and writes it.
func (e *env) runMirror(cmd *cobra.Command, f *mirrorFlags) error {
	req, specs, images, err := e.mirrorRequest(f)
	if err != nil {
		return err
	}
	var cl catalogLoad
	cl.load(e, specs)
	if len(cl.errs) > 0 {
		return joinErrors(cl.errs)
	}
	cats := cl.cats
	var files map[objectKey]string
	if len(f.files) > 0 {
		state, fs, err := e.readState(f.files)
		if err != nil {
			return err
		}
		if ignored := state.IgnoredText(); ignored != "" {
			e.notef("ignored: %s (kinds mirror does not read)", ignored)
		}
		req.State, files = state, fs
		if !cmd.Flags().Changed("global-namespace") {
			f.globalNamespace = e.globalNamespace(state, f.globalNamespace)
		}
		if err := checkSources(state, "", specs, files); err != nil {
			return err
		}
	}
	state := req.State
	if state == nil {
		state = &cluster.State{}
	}
	keys := map[string]resolver.CatalogKey{}
	for i := range cats {
		key, prio, err := catalogIdentity(cats[i].Key.Name, "", f.globalNamespace, state, files)
		if err != nil {
			return err
		}
		cats[i].Key, cats[i].Priority = key, prio
		keys[key.Name] = key
	}
	set, err := mirror.Compute(cmd.Context(), cats, req, mirror.Options{Resolver: resolver.Options{GlobalNamespace: f.globalNamespace, CEL: celrule.New()}, MaxRounds: f.maxRounds})
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
	if err := e.writeMirror(f, set, keys, images); err != nil {
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

// writeMirror writes the set in the format asked for.
func (e *env) writeMirror(f *mirrorFlags, set *mirror.Set, keys map[string]resolver.CatalogKey, images map[string]string) error {
	switch format := f.output.String(); format {
	case "json", "yaml":
		return writeEncoded(e.stdout, format, set)
	case "fbc":
		return set.WriteFBC(e.stdout)
	case "images":
		return set.WriteImages(e.stdout)
	case "imageset":
		byKey := map[resolver.CatalogKey]string{}
		for name, ref := range images {
			byKey[keys[name]] = ref
		}
		isc, err := set.ImageSet(byKey)
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
func (e *env) mirrorRequest(f *mirrorFlags) (mirror.Request, []catalogSpec, map[string]string, error) {
	var req mirror.Request
	if len(f.catalogs) == 0 {
		return req, nil, nil, usageErrorf("no catalog: give one or more --catalog [NAME=]PATH")
	}
	if f.maxRounds < 1 {
		return req, nil, nil, usageErrorf("--max-rounds %d: want at least 1", f.maxRounds)
	}
	if f.globalNamespace == "" {
		return req, nil, nil, usageErrorf("--global-namespace is empty")
	}
	lines := slices.Clone(f.packages)
	where := make([]string, len(lines))
	for i := range where {
		where[i] = "--package"
	}
	if f.packageFile != "" {
		fl, fw, err := readPackageFile(f.packageFile)
		if err != nil {
			return req, nil, nil, err
		}
		lines, where = append(lines, fl...), append(where, fw...)
	}
	if len(f.files) == 0 && len(lines) == 0 {
		return req, nil, nil, usageErrorf("nothing to mirror for: give the cluster's manifests with -f FILE, or packages with --package NAME[:CHANNEL][@RANGE] or --package-file FILE")
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
	var specs []catalogSpec
	names := map[string]bool{}
	for _, s := range f.catalogs {
		spec, err := parseCatalogSpec(s)
		if err != nil {
			return req, nil, nil, err
		}
		if names[spec.name] {
			return req, nil, nil, usageErrorf("two catalogs are named %q; name them apart with --catalog NAME=PATH", spec.name)
		}
		names[spec.name] = true
		specs = append(specs, spec)
	}
	images := map[string]string{}
	for _, s := range f.catalogImages {
		name, ref, ok := strings.Cut(s, "=")
		switch {
		case !ok || name == "" || ref == "":
			errs = append(errs, usageErrorf("--catalog-image %q: want NAME=REF", s))
		case !names[name]:
			errs = append(errs, usageErrorf("--catalog-image %q: no --catalog is named %q", s, name))
		default:
			images[name] = ref
		}
	}
	if len(errs) > 0 {
		return req, nil, nil, joinErrors(errs)
	}
	return req, specs, images, nil
}

// readPackageFile reads one package request per line, "#" starting a
// comment; it returns the requests and where each is ("FILE:LINE").
func readPackageFile(path string) (lines, where []string, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, pathError(path, err)
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
