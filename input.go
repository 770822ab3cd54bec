package sextant

import (
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

// Input is what a world is built from. The zero values of its fields
// ask for the rules of the package documentation. Without manifests
// (Manifests and For empty) the world is one of catalogs alone, each in
// the global namespace (or its own), priority 0, with no namespace to
// resolve: enough to ask which packages provide an API.
type Input struct {
	// Catalogs are the catalogs given, in order. None is fine when the
	// subscriptions' CatalogSources name their images (spec.image).
	Catalogs []CatalogInput
	// Manifests are the cluster state: kubectl get csv,sub,catsrc,og,ip
	// -o yaml as it prints them, one file, folder or stream each.
	Manifests []File
	// State, if not nil, is cluster state already read (olmapi.State of
	// a controller's objects, a state built in code): the world's state
	// is a copy of it with the objects of Manifests added (an object in
	// both is an error).
	State *cluster.State
	// Recursive reads the folders of Manifests and For with their
	// subfolders (kubectl's -R); without it a folder's subfolders are
	// noted and not read.
	Recursive bool
	// Namespace is the namespace to resolve; "": the one the
	// subscriptions share, else the one the installed CSVs share.
	Namespace string
	// AllNamespaces resolves every namespace of the manifests; it excludes
	// Namespace.
	AllNamespaces bool
	// GlobalNamespace is the namespace whose catalogs serve every
	// namespace; "": the one namespace the manifests point to for
	// catalogs, else resolver.DefaultGlobalNamespace.
	GlobalNamespace string
	// For are an application's manifests (any kinds): the world resolves
	// what their kinds need ([World.ResolveFor]). Their OLM objects are
	// cluster state too, and their namespace the one to resolve when
	// Namespace is empty.
	For []File
	// Application are an application's objects already read (as For
	// reads them: cluster.DecodeObjects); with For, those of For are
	// added.
	Application []cluster.Object
	// Bundles are folders holding registry+v1 bundle folders at any
	// depth (a bundle folder has metadata/annotations.yaml and its
	// manifests, as catalog repositories keep them): the contents of the
	// catalogs' bundles, matched by their CSV's name (ReadBundles,
	// World.Bundles). The answers read them where OLM reads a bundle's
	// manifests.
	Bundles []string
	// ForV1 answers the application's kinds in OLM v1 terms
	// (ClusterExtensions, World.ResolveForV1): the Subscriptions of the
	// manifests are not resolved, and no namespace is chosen.
	ForV1 bool
}

// File is one input file: a path (a file or a folder), or a stream,
// Reader, named Path in messages ("<stdin>" for standard input).
type File struct {
	Path   string
	Reader io.Reader
}

// name returns how the file is named in messages.
func (f File) name() string {
	if f.Path == "" && f.Reader != nil {
		return "<reader>"
	}
	return f.Path
}

// CatalogInput is one catalog given: a path (a File-Based Catalog file,
// plain or .gz, or a folder of them), a catalog image reference (see
// [Options.Images]), a stream (Reader, named Path in messages) or a
// catalog already loaded (Catalog, named Path in messages if set).
type CatalogInput struct {
	// Name is the catalog's name: the name of the CatalogSource it stands
	// for. "": named by the rule of the package documentation (required
	// for a Reader or a Catalog).
	Name string
	// Path is the file, folder or image reference; for a Reader or a
	// Catalog, how messages name it.
	Path string
	// Reader, if set, is read as a catalog (JSON or YAML as Path's
	// extension says; YAML without one).
	Reader io.Reader
	// Catalog, if set, is the catalog itself; nothing is read.
	Catalog *graph.Catalog
	// Namespace, if set, is the catalog's namespace, whatever the
	// manifests say; its priority is then its CatalogSource's there, if
	// any, else 0.
	Namespace string
}

// catalogNameRE matches a catalog name given as NAME=PATH: a Kubernetes
// object name, so that a path containing "=" is not mistaken for one.
var catalogNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$`) })

// ParseCatalogArg reads a catalog as a command line gives it,
// "[NAME=]PATH": NAME, when it is a Kubernetes object name, is the
// catalog's name; the rest (or all of s) is its path, file, folder or
// image reference. "-" (standard input) must be named, and its Reader
// set by the caller.
func ParseCatalogArg(s string) (CatalogInput, error) {
	if name, path, ok := strings.Cut(s, "="); ok && catalogNameRE().MatchString(name) {
		if path == "" {
			return CatalogInput{}, &CatalogArgError{Arg: s, Problem: fmt.Sprintf("no path after %q", name+"=")}
		}
		return CatalogInput{Name: name, Path: path}, nil
	}
	if s == "" {
		return CatalogInput{}, &CatalogArgError{Arg: s, Problem: "empty path"}
	}
	if s == "-" {
		return CatalogInput{}, &CatalogArgError{Arg: s, Problem: "the catalog read from standard input needs a name (NAME=-)"}
	}
	return CatalogInput{Path: s}, nil
}

// CatalogArgError is a catalog argument that [ParseCatalogArg] cannot read.
type CatalogArgError struct {
	Arg     string
	Problem string
}

func (e *CatalogArgError) Error() string { return fmt.Sprintf("catalog %q: %s", e.Arg, e.Problem) }

// PathCatalogName returns the name a catalog given by path without a name
// takes: its file or folder name without its catalog extensions
// (.gz, then .json, .yaml or .yml): "x/community.v4.20-index.json.gz" →
// "community.v4.20-index".
func PathCatalogName(path string) string {
	base := filepath.Base(filepath.Clean(path))
	base = strings.TrimSuffix(base, ".gz")
	for _, ext := range []string{".json", ".yaml", ".yml"} {
		if b, ok := strings.CutSuffix(base, ext); ok {
			return b
		}
	}
	return base
}
