package sextant

import (
	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolver/predict"
)

// Note is something the world decided or left out that the user did not
// say: input not read, a name or a namespace taken by a rule, an
// OperatorGroup read from annotations or assumed. Code says which; Text
// says it in words (naming no command-line flag); File, Object and
// Catalog say what it is about, when it is about one.
type Note struct {
	Code NoteCode `json:"code"`
	Text string   `json:"text"`
	// File is the input file it is about, if any.
	File string `json:"file,omitempty"`
	// Object is the manifest object it is about, if any.
	Object cluster.Ref `json:"object,omitzero"`
	// Catalog is the catalog it is about, if any.
	Catalog resolver.CatalogKey `json:"catalog,omitzero"`
	// Namespace is the namespace resolved that an answer's note is about.
	Namespace string `json:"namespace,omitempty"`
}

// String returns the note's text.
func (n Note) String() string { return n.Text }

// NoteCode says what a Note is about. Codes are stable: filter on them.
type NoteCode string

// The codes of the notes a world gives.
const (
	// NoteSkippedFiles: files of a manifest folder not read (not named
	// .yaml, .yml or .json; not regular files). File is the folder.
	NoteSkippedFiles NoteCode = "skipped-files"
	// NoteSkippedSubfolders: as NoteSkippedFiles, and the folder's
	// subfolders were not read either (Input.Recursive reads them); the
	// text ends with them.
	NoteSkippedSubfolders NoteCode = "skipped-subfolders"
	// NoteIgnoredKinds: objects of kinds resolution does not read.
	NoteIgnoredKinds NoteCode = "ignored-kinds"
	// NoteImageNotCached: an image read could not be cached.
	NoteImageNotCached NoteCode = "image-not-cached"
	// NoteImageCache: the image cache changed beyond the image written
	// (a damaged entry replaced, the least recently used entries removed
	// to keep the cache within its limit), or could not be kept within
	// it.
	NoteImageCache NoteCode = "image-cache"
	// NoteHeldByV1: a subscription of a namespace answered whose package a
	// ClusterExtension asks for too, as in a cluster migrated halfway:
	// OLM v1 lets one owner hold an object, so one of them fails (the v1
	// answer predicts which). Object is the subscription.
	NoteHeldByV1 NoteCode = "held-by-clusterextension"
	// NoteEmptyCatalog: a catalog with no blob at all (an empty file or
	// stream, a folder with no catalog file, an image whose catalog
	// folder holds none). It serves nothing, as catalogd and opm serve
	// it: resolution goes on with the other catalogs. File is its path
	// or image.
	NoteEmptyCatalog NoteCode = "catalog-empty"
	// NoteImageSkipped: entries of an image's catalog folder that are not
	// regular files, not read.
	NoteImageSkipped NoteCode = "image-skipped-entries"
	// NoteImageNamed: an image given without a name takes the name of the
	// CatalogSources whose spec.image it is.
	NoteImageNamed NoteCode = "image-named"
	// NoteImagesRead: the catalog images given (Input.Catalogs) that were
	// read, each with the digest its reference resolved to, so that a log
	// says exactly what was checked or resolved.
	NoteImagesRead NoteCode = "images-read"
	// NoteUnreadKeys: a catalog carries keys or schemas opm does not read
	// as written (graph.Catalog.KeyFindings: a typo such as "replace"
	// silently drops an upgrade edge); one note per catalog (Catalog names
	// it, File is the first one's file), with the first and their count.
	NoteUnreadKeys NoteCode = "catalog-unread-keys"
	// NoteSourceImages: the images of CatalogSources read, with their
	// digests.
	NoteSourceImages NoteCode = "catalogsource-images"
	// NoteGlobalNamespace: the global catalog namespace is where the
	// manifests point for catalogs (Catalog.Namespace names it).
	NoteGlobalNamespace NoteCode = "global-namespace"
	// NoteGlobalNamespaceKept: the manifests point to catalogs in several
	// namespaces; the global catalog namespace stays the default.
	NoteGlobalNamespaceKept NoteCode = "global-namespace-kept"
	// NoteOperatorGroupFromCSVs: the manifests list no OperatorGroup, and
	// a namespace's group was read from its CSVs' annotations.
	NoteOperatorGroupFromCSVs NoteCode = "operatorgroup-from-csvs"
	// NoteOperatorGroupsDisagree: a namespace's CSVs name different
	// OperatorGroups in their annotations; none is read.
	NoteOperatorGroupsDisagree NoteCode = "operatorgroups-disagree"
	// NoteOperatorGroupAssumed: the manifests list no OperatorGroup and
	// nothing names one: one plain group is assumed, its targets unknown.
	NoteOperatorGroupAssumed NoteCode = "operatorgroup-assumed"
	// NoteSemverUpgrades: upgrade edges are derived from versions
	// (Options.SemverUpgrades).
	NoteSemverUpgrades NoteCode = "semver-upgrades"
	// NoteExtensionsNotResolved: the ClusterExtensions of the manifests are
	// not resolved (an application's kinds are answered for OLM v0).
	NoteExtensionsNotResolved NoteCode = "extensions-not-resolved"
	// NoteSubscriptionsNotResolved: the Subscriptions of the manifests are
	// not resolved (an application's kinds are answered for OLM v1).
	NoteSubscriptionsNotResolved NoteCode = "subscriptions-not-resolved"
	// NoteClusterCatalogsUnused: ClusterCatalogs read, and no
	// ClusterExtension to use them.
	NoteClusterCatalogsUnused NoteCode = "clustercatalogs-unused"
	// NoteClusterCatalogAssumed: catalogs without a ClusterCatalog of
	// their name, taken as Available, priority 0.
	NoteClusterCatalogAssumed NoteCode = "clustercatalog-assumed"
	// NoteClusterCatalogUnserved: ClusterCatalogs without a Serving
	// condition, taken as served.
	NoteClusterCatalogUnserved NoteCode = "clustercatalog-no-status"
	// NoteAppNamespace: the application's objects are in another
	// namespace than the one resolved.
	NoteAppNamespace NoteCode = "application-namespace"
	// NoteExcluded: an invalid package left out (Options.AllowInvalid).
	NoteExcluded NoteCode = "excluded"
	// NoteCatalogNotVisible: a subscription's catalog was given, but its
	// namespace is neither the namespace resolved nor the global one
	// (Catalog names it): most likely, the global namespace is wrong, and
	// the catalog's namespace is the cluster's global catalog namespace.
	NoteCatalogNotVisible NoteCode = "catalog-not-visible"
	// NoteNamespaceDropped, NoteServiceAccountIgnored and
	// NoteCatalogNameLabel are the notes of the manifests' decoding
	// (cluster.State.Notes, under the same codes): what the API server or
	// catalogd changes in an OLM v1 object without a word.
	NoteNamespaceDropped      = NoteCode(cluster.NoteNamespaceDropped)
	NoteServiceAccountIgnored = NoteCode(cluster.NoteServiceAccountIgnored)
	NoteCatalogNameLabel      = NoteCode(cluster.NoteCatalogNameLabel)
	// NoteCustomResourcesUnchecked is a plan's note (under the same code,
	// predict.NoteCustomResourcesUnchecked): steps whose bundles would
	// replace CRDs that have custom resources in the manifests, whose
	// contents are not known, so those are not validated against the new
	// CRDs.
	NoteCustomResourcesUnchecked = NoteCode(predict.NoteCustomResourcesUnchecked)
)
