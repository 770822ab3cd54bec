// Package registryv1 reads what registry+v1 bundles contain — the
// ClusterServiceVersion, the CustomResourceDefinitions and the other
// manifests that a File-Based Catalog only names — from bundle folders as
// catalog repositories keep them (manifests/ and metadata/, at any depth),
// from bundle images (through an [ImageSource]) and from a catalog's
// olm.bundle.object properties. A catalog's bundle is matched to its
// contents by its name, the CSV's metadata.name ([Set.For]).
//
// Reading is strict and bounded as the other readers are (graph,
// cluster): files within size limits, binary data refused, documents
// read as Kubernetes reads YAML, and every problem of a bundle reported
// with its file and line ([Problem]). CRDs are not parsed when read: each
// is kept by the SHA-256 of its text ([CRDRef]) and parsed when asked,
// once per digest with a [CRDCache], since a catalog repository repeats
// most CRDs from one bundle to the next and two manifests of one text
// are one CRD.
package registryv1

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"strings"

	"github.com/sextantdev/sextant/graph"
)

// SourceKind says where a bundle's contents were read.
type SourceKind uint8

// The sources of bundle contents.
const (
	// FromFolder: a bundle folder (manifests/ and metadata/).
	FromFolder SourceKind = iota + 1
	// FromCatalog: the olm.bundle.object properties of a catalog's
	// bundle.
	FromCatalog
	// FromImage: a bundle image.
	FromImage
)

// String returns "folder", "catalog" or "image".
func (k SourceKind) String() string {
	switch k {
	case FromFolder:
		return "folder"
	case FromCatalog:
		return "catalog"
	case FromImage:
		return "image"
	}
	return fmt.Sprintf("SourceKind(%d)", uint8(k))
}

// MarshalText writes the kind's name.
func (k SourceKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Source is where a bundle's contents were read.
type Source struct {
	Kind SourceKind `json:"kind"`
	// Path is the bundle folder, for FromFolder.
	Path string `json:"path,omitempty"`
	// Image is the image reference and Digest what it was read at, for
	// FromImage.
	Image  string `json:"image,omitempty"`
	Digest string `json:"digest,omitempty"`
	// Bundle names the catalog's bundle, for FromCatalog.
	Bundle string `json:"bundle,omitempty"`
}

// String names the source as messages do: "bundle folder DIR", "bundle
// image REF@DIGEST", "bundle NAME's olm.bundle.object properties".
func (s Source) String() string {
	switch s.Kind {
	case FromFolder:
		return "bundle folder " + s.Path
	case FromImage:
		if s.Digest != "" && !strings.Contains(s.Image, "@") {
			return "bundle image " + s.Image + "@" + s.Digest
		}
		return "bundle image " + s.Image
	case FromCatalog:
		return fmt.Sprintf("bundle %q (%s)", s.Bundle, graph.TypeBundleObject)
	}
	return "unknown source"
}

// Digest is the SHA-256 of a manifest's text.
type Digest [sha256.Size]byte

// String writes the digest as "sha256:…".
func (d Digest) String() string { return "sha256:" + hex.EncodeToString(d[:]) }

// MarshalText writes the digest as String does.
func (d Digest) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// Object names one manifest of a bundle other than its CSV and CRDs.
type Object struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Name       string `json:"name,omitempty"`
	Namespace  string `json:"namespace,omitempty"`
	// File and Line say where the manifest is: the file relative to the
	// bundle's source ("manifests/x.yaml"; for a catalog's properties,
	// "property N"), Line 0 when it has none.
	File string `json:"file"`
	Line int    `json:"line,omitempty"`
	// Rules are the rules of a Role or ClusterRole
	// (rbac.authorization.k8s.io), in order; nil for other kinds. The
	// installer of the bundle must hold them to create the role (RBAC
	// forbids granting what one does not hold).
	Rules []graph.PolicyRule `json:"rules,omitempty"`
	// RoleRef is the role a RoleBinding or ClusterRoleBinding binds; nil
	// for other kinds.
	RoleRef *RoleRef `json:"roleRef,omitempty"`
}

// RoleRef is a binding's roleRef: the kind (Role or ClusterRole) and
// name of the role it binds.
type RoleRef struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
}

// Bundle is what one registry+v1 bundle contains.
type Bundle struct {
	// CSV is the bundle's ClusterServiceVersion, as graph reads a CSV
	// manifest.
	CSV *graph.CSVManifest `json:"csv"`
	// Package is the package the bundle's metadata/annotations.yaml
	// names (operators.operatorframework.io.bundle.package.v1); "" for
	// a catalog's properties.
	Package string `json:"package,omitempty"`
	Source  Source `json:"source"`
	// CRDs are the bundle's CustomResourceDefinitions, unparsed, in the
	// order of the files (by name) and of the documents in them.
	CRDs []CRDRef `json:"crds"`
	// Objects are the bundle's other manifests, in the same order.
	Objects []Object `json:"objects"`
}

// CRDRef is a CustomResourceDefinition of a bundle, not yet parsed: the
// digest of its manifest and where it is. [CRDRef.Parse] and
// [CRDCache.Parse] read it.
type CRDRef struct {
	Digest Digest `json:"digest"`
	// APIVersion is the manifest's apiVersion. A CRD of another version
	// than apiextensions.k8s.io/v1 is kept, but it does not parse (a
	// *crd.VersionError): v1beta1 is not served since Kubernetes 1.22,
	// and OLM v1's preflight reads v1 CRDs only.
	APIVersion string `json:"apiVersion"`
	// File and Line say where the manifest is, as Object's.
	File string `json:"file"`
	Line int    `json:"line,omitempty"`

	src  Source
	text []byte // the manifest, when held in memory
	fsys fs.FS  // else the file system File is read from
	off  int64  // at this offset
	size int    // and length
}

// Where names the manifest: "bundle folder DIR: manifests/x.yaml:3".
func (r CRDRef) Where() string {
	w := r.src.String() + ": " + r.File
	if r.Line > 0 {
		w += fmt.Sprintf(":%d", r.Line)
	}
	return w
}

// Problem is something wrong with a bundle's contents: a manifest that
// does not decode, a field of the wrong type, a folder without a CSV.
type Problem struct {
	// Source is the bundle's source; File and Line the manifest (File
	// relative to the source; Line 0 when it has none).
	Source Source
	File   string
	Line   int
	// Object names the object when known ("ClusterServiceVersion
	// etcd.v0.9.4").
	Object string
	Err    error
}

// Error returns "SOURCE: FILE:LINE: OBJECT: what is wrong".
func (p *Problem) Error() string {
	var b strings.Builder
	b.WriteString(p.Source.String())
	if p.File != "" {
		b.WriteString(": " + p.File)
		if p.Line > 0 {
			fmt.Fprintf(&b, ":%d", p.Line)
		}
	}
	if p.Object != "" {
		b.WriteString(": " + p.Object)
	}
	b.WriteString(": " + p.Err.Error())
	return b.String()
}

// Unwrap returns the cause.
func (p *Problem) Unwrap() error { return p.Err }
