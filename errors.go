package sextant

import (
	"cmp"
	"errors"
	"fmt"
	"strings"

	"github.com/sextantdev/sextant/cluster"
)

// ErrNoCatalog is the input error of Load that is not about one file.
var (
	// ErrNoCatalog: no catalog is given, and no subscription's
	// CatalogSource names an image.
	ErrNoCatalog = errors.New("no catalog: none is given, and no CatalogSource the subscriptions name has a spec.image")
)

// InputError is a problem of Input or Options as a whole (not of a file).
type InputError struct {
	// Field names what is wrong: "Namespace", "KubeVersion", …
	Field string
	// Value is the value given.
	Value string
	Err   error
}

func (e *InputError) Error() string {
	if e.Value == "" {
		return fmt.Sprintf("%s: %v", e.Field, e.Err)
	}
	return fmt.Sprintf("%s %q: %v", e.Field, e.Value, e.Err)
}

func (e *InputError) Unwrap() error { return e.Err }

// NamespaceError says why the namespace to resolve cannot be chosen: the
// one asked for holds nothing resolution concerns, or none was asked for
// and the subscriptions (else the installed CSVs) are in no namespace or
// in several.
type NamespaceError struct {
	// Asked is the namespace asked for; "" when none was.
	Asked string
	// Namespaces are, when one was asked for, the namespaces resolution
	// concerns (resolver.Namespaces); else the namespaces of What.
	Namespaces []string
	// What is "subscriptions" or "installed CSVs" when none was asked for.
	What string
}

func (e *NamespaceError) Error() string {
	switch {
	case e.Asked != "" && len(e.Namespaces) == 0:
		return fmt.Sprintf("namespace %q: the manifests hold no subscription, installed CSV or OperatorGroup in any namespace", e.Asked)
	case e.Asked != "":
		return fmt.Sprintf("namespace %q: the manifests hold nothing there; namespaces present: %s", e.Asked, strings.Join(e.Namespaces, ", "))
	case len(e.Namespaces) == 0:
		return "no subscription and no installed CSV in the manifests: no namespace to resolve"
	}
	return fmt.Sprintf("the %s are in %d namespaces (%s): no namespace to resolve by default", e.What, len(e.Namespaces), strings.Join(e.Namespaces, ", "))
}

// CatalogNameError is two catalogs given with one name.
type CatalogNameError struct {
	Name string
	// Paths are the two catalogs' paths; equal when one catalog is given
	// twice.
	Paths [2]string
}

func (e *CatalogNameError) Error() string {
	if e.Paths[0] == e.Paths[1] {
		return fmt.Sprintf("catalog %s is given twice", e.Paths[0])
	}
	return fmt.Sprintf("two catalogs are named %q (%s and %s)", e.Name, e.Paths[0], e.Paths[1])
}

// SourceError is a subscription whose spec.source names no catalog given
// and no CatalogSource with an image (or one the world may not read:
// Image is then its spec.image). Unnamed are the catalogs given without a
// name whose name no subscription uses: one of them is likely the
// catalog meant, and needs the subscription's source as its name.
type SourceError struct {
	File         string
	Subscription cluster.Ref
	Source       string
	// Catalogs are the names of the catalogs given, sorted.
	Catalogs []string
	// Image is the spec.image of the CatalogSource the subscription names,
	// when it has one.
	Image string
	// Unnamed are the catalogs given without a name that no
	// subscription's source names.
	Unnamed []UnnamedCatalog
}

// UnnamedCatalog is a catalog given without a name, and the name its
// path gave it.
type UnnamedCatalog struct {
	Path string
	Name string
	// From says where the name comes from: "file", "folder",
	// "repository", "OCI layout folder", "docker archive file".
	From string
}

func (e *SourceError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%sSubscription %q: spec.source %q names no catalog given", inFile(e.File), e.Subscription.Namespace+"/"+e.Subscription.Name, e.Source)
	if e.Image != "" {
		fmt.Fprintf(&b, " (its CatalogSource's image is %s)", e.Image)
	}
	fmt.Fprintf(&b, " (catalogs: %s)", strings.Join(e.Catalogs, ", "))
	for _, u := range e.Unnamed {
		fmt.Fprintf(&b, "; catalog %s, given without a name, is named %q after its %s: if it is that catalog, name it %q (%s=%s)", u.Path, u.Name, u.From, e.Source, e.Source, u.Path)
	}
	return b.String()
}

// AmbiguousCatalogError is a catalog whose name several CatalogSources
// have, none in the namespace resolved.
type AmbiguousCatalogError struct {
	Name string
	// Sources are the CatalogSources, each with its file.
	Sources []cluster.Ref
	Files   []string
}

func (e *AmbiguousCatalogError) Error() string {
	where := make([]string, len(e.Sources))
	for i, cs := range e.Sources {
		where[i] = fmt.Sprintf("%s/%s in %s", cs.Namespace, cs.Name, cmp.Or(e.Files[i], "the state given"))
	}
	return fmt.Sprintf("catalog %q: %d CatalogSources have its name (%s); keep one", e.Name, len(e.Sources), strings.Join(where, ", "))
}

// DefinedTwiceError is one object in two places of the manifests.
type DefinedTwiceError struct {
	File   string
	Object cluster.Ref
	// Prev is the file that defines it first (File when it is twice in
	// one file).
	Prev string
}

func (e *DefinedTwiceError) Error() string {
	where := "twice"
	if e.Prev != e.File {
		where = "in " + e.Prev + " too"
	}
	return fmt.Sprintf("%s: %s %q is defined %s", e.File, e.Object.Kind, e.Object.Namespace+"/"+e.Object.Name, where)
}

// EmptyInputError is a manifest input that holds nothing: no object, no
// document (white space, comments and document markers at most), or a
// folder with no manifest file.
type EmptyInputError struct {
	File string
	// Folder reports a folder with no .yaml, .yml or .json file;
	// Subfolders counts its subfolders, not read (Input.Recursive).
	Folder     bool
	Subfolders int
	// Stream reports a stream (standard input) rather than a file.
	Stream bool
}

func (e *EmptyInputError) Error() string {
	switch {
	case e.Folder && e.Subfolders > 0:
		return fmt.Sprintf("%s: no manifest in the folder (no .yaml, .yml or .json file; its subfolders are not read)", e.File)
	case e.Folder:
		return fmt.Sprintf("%s: no manifest in the folder (no .yaml, .yml or .json file)", e.File)
	}
	what := "the file"
	if e.Stream {
		what = "standard input"
	}
	return fmt.Sprintf("%s: %s is empty: no Kubernetes object in it (the cluster state is what kubectl get csv,sub,catsrc,og -o yaml prints)", e.File, what)
}

// ClusterCatalogError is a ClusterCatalog of the manifests with no catalog
// of its name given: its content is unknown.
type ClusterCatalogError struct {
	File     string
	Name     string
	Catalogs []string // the names of the catalogs given, sorted
}

func (e *ClusterCatalogError) Error() string {
	return fmt.Sprintf("%sClusterCatalog %q: no catalog of that name is given (catalogs: %s)", inFile(e.File), e.Name, strings.Join(e.Catalogs, ", "))
}

// inFile returns "FILE: ", the start of a message about an object read
// from FILE, or "" for an object with no file (given already read, as
// Input.State).
func inFile(file string) string {
	if file == "" {
		return ""
	}
	return file + ": "
}

// NoImageSourceError is an image to read without Options.Images.
type NoImageSourceError struct {
	// Image is the reference.
	Image string
}

func (e *NoImageSourceError) Error() string {
	return fmt.Sprintf("%s: an image reference, and no image source is given to read it", e.Image)
}
