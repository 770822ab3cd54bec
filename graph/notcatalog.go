package graph

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"strconv"
)

// NotCatalog says what a catalog input holds instead of a File-Based
// Catalog.
type NotCatalog int

const (
	// NotCatalogManifests: Kubernetes objects (an apiVersion and a kind, no
	// "schema"), such as the cluster state kubectl get -o yaml prints or
	// the manifests of a bundle.
	NotCatalogManifests NotCatalog = iota + 1
	// NotCatalogBundle: a registry+v1 bundle, a folder with
	// metadata/annotations.yaml naming the bundle's media type (and its
	// manifests/); or the manifests/ folder of one.
	NotCatalogBundle
)

// NotCatalogError reports a catalog input that holds something else, that
// belongs elsewhere: Kubernetes manifests, or a registry+v1 bundle. It is
// the Err of a *DecodeError: for manifests, one per file, at its first
// object (the other objects of the file are counted, not reported); for a
// bundle, one for the folder, which is not read.
type NotCatalogError struct {
	What NotCatalog
	// Kind is the kind of the first object, for NotCatalogManifests.
	Kind string
	// Objects counts the objects of the file that are not blobs, for
	// NotCatalogManifests.
	Objects int
	// Bundle is the bundle's folder, for NotCatalogBundle; InManifests
	// says that the input is its manifests/ folder.
	Bundle      string
	InManifests bool
}

// Error says what the input holds.
func (e *NotCatalogError) Error() string {
	switch e.What {
	case NotCatalogBundle:
		if e.InManifests {
			return fmt.Sprintf("the manifests of the registry+v1 bundle %s (its %s names the bundle media type), not a File-Based Catalog", e.Bundle, bundleAnnotations)
		}
		return fmt.Sprintf("a registry+v1 bundle (its %s names the bundle media type), not a File-Based Catalog", bundleAnnotations)
	case NotCatalogManifests:
		if e.Kind == "List" && e.Objects == 1 {
			return `a Kubernetes List (as kubectl get prints it), not a File-Based Catalog (whose blobs have a "schema")`
		}
		what := "kind " + e.Kind
		if e.Objects > 1 {
			what = strconv.Itoa(e.Objects) + " objects, the first of kind " + e.Kind
		}
		return fmt.Sprintf(`Kubernetes manifests (%s), not a File-Based Catalog (whose blobs have a "schema")`, what)
	}
	return "not a File-Based Catalog"
}

// bundleAnnotations is the file that makes a folder a registry+v1 bundle.
const bundleAnnotations = "metadata/annotations.yaml"

// bundleMediaType is the annotation of a bundle's media type, in
// bundleAnnotations.
const bundleMediaType = "operators.operatorframework.io.bundle.mediatype.v1"

// isBundleAnnotations reports whether the file at name is the
// annotations of a registry+v1 bundle: a regular file that names the
// bundle's media type in its first 64 KiB.
func isBundleAnnotations(name string, open func(string) (fs.File, error)) bool {
	f, err := open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	head, _ := io.ReadAll(io.LimitReader(f, 64<<10))
	return bytes.Contains(head, []byte(bundleMediaType))
}

// bundleOf returns the registry+v1 bundle that the folder root is, or
// whose manifests/ folder it is, and whether there is one. join, dir and
// base are the path functions of the file system of root.
func bundleOf(root string, join func(...string) string, dir, base func(string) string, open func(string) (fs.File, error)) (string, bool) {
	if isBundleAnnotations(join(root, "metadata", "annotations.yaml"), open) {
		return root, true
	}
	if parent := dir(root); base(root) == "manifests" && isBundleAnnotations(join(parent, "metadata", "annotations.yaml"), open) {
		return parent, true
	}
	return "", false
}

// bundleError is the error of a catalog folder root that is the
// registry+v1 bundle at bundle, or its manifests/ folder.
func bundleError(root, bundle string) error {
	return &DecodeError{File: root, Offset: -1, Err: &NotCatalogError{What: NotCatalogBundle, Bundle: bundle, InManifests: bundle != root}}
}

// notCatalog records a blob with an apiVersion and a kind, not a schema:
// the first of its file is a NotCatalogError, the others are counted in
// it.
func (d *decoder) notCatalog(off int, kind string) {
	if d.manifests != nil && d.manifestsFile == d.file {
		d.manifests.Objects++
		return
	}
	d.manifests, d.manifestsFile = &NotCatalogError{What: NotCatalogManifests, Kind: kind, Objects: 1}, d.file
	d.errorAt(off, "", d.manifests)
}
