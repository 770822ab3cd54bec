package openshift

import (
	"fmt"
	"strings"

	"github.com/sextantdev/sextant/cluster"
)

// MarketplaceNamespace is the namespace of OpenShift's default
// CatalogSources, and its global catalog namespace.
const MarketplaceNamespace = "openshift-marketplace"

// ManagedByMarketplace is the value of [cluster.ManagedByAnnotation] on
// the default CatalogSources the marketplace operator manages.
const ManagedByMarketplace = "marketplace-operator"

// DefaultSource is one of the CatalogSources OpenShift's marketplace
// operator creates in openshift-marketplace, and the index image
// repository it serves (registry.redhat.io/redhat/<Index>:v4.N).
type DefaultSource struct {
	Name  string `json:"name"`
	Index string `json:"index"`
}

// defaultSources are the default CatalogSources of operator-marketplace's
// defaults/ folder, from release-4.12 to release-4.21; release-4.22
// removed redhat-marketplace.
var defaultSources = []DefaultSource{
	{"redhat-operators", "redhat-operator-index"},
	{"certified-operators", "certified-operator-index"},
	{"community-operators", "community-operator-index"},
	{"redhat-marketplace", "redhat-marketplace-index"},
}

// DefaultSources returns the default CatalogSources of OpenShift minor m,
// as operator-marketplace's release-4.N branch ships them. The caller owns
// the slice.
func DefaultSources(m Minor) []DefaultSource {
	if m.Compare(Minor{4, 22}) >= 0 {
		return append([]DefaultSource(nil), defaultSources[:3]...)
	}
	return append([]DefaultSource(nil), defaultSources...)
}

// defaultSource returns the default CatalogSource named name at minor m.
func defaultSource(name string, m Minor) (DefaultSource, bool) {
	for _, d := range DefaultSources(m) {
		if d.Name == name {
			return d, true
		}
	}
	return DefaultSource{}, false
}

// platformRegistries are the registries the default CatalogSources pull
// from: registry.redhat.io, and registry.access.redhat.com for OKD's
// community-operators.
var platformRegistries = []string{"registry.redhat.io", "registry.access.redhat.com"}

// DefaultImage returns the image of default source d at minor m on
// registry (registry.redhat.io when empty): REGISTRY/redhat/INDEX:v4.N.
func DefaultImage(d DefaultSource, registry string, m Minor) string {
	if registry == "" {
		registry = platformRegistries[0]
	}
	return fmt.Sprintf("%s/redhat/%s:v%s", registry, d.Index, m)
}

// SourceKind says how a CatalogSource's catalog behaves when the cluster
// moves to another minor.
type SourceKind string

// The ways a CatalogSource's catalog follows, or not, the platform.
const (
	// SourceFollows: a default CatalogSource; the marketplace operator
	// of the new release rewrites its image to the new minor's index.
	SourceFollows SourceKind = "follows-platform"
	// SourceNoLongerDefault: a default CatalogSource of the old minor
	// that the new release no longer ships (redhat-marketplace from
	// 4.22): left as it is.
	SourceNoLongerDefault SourceKind = "no-longer-default"
	// SourcePinned: its image names a digest; it never moves.
	SourcePinned SourceKind = "pinned-digest"
	// SourceMirrored: a copy of a Red Hat index on another registry; it
	// moves only when someone moves it.
	SourceMirrored SourceKind = "mirrored"
	// SourceCustom: any other image, or no image (a gRPC address or a
	// ConfigMap): it keeps its catalog.
	SourceCustom SourceKind = "custom"
	// SourceGiven: its catalog at the minor was given (NAME@MINOR=…).
	SourceGiven SourceKind = "given"
)

// Source is what becomes of a CatalogSource's (or, with no Namespace, a
// ClusterCatalog's) catalog at a minor.
type Source struct {
	Namespace string     `json:"namespace,omitempty"`
	Name      string     `json:"name"`
	Kind      SourceKind `json:"kind"`
	// Image is the image OLM serves the catalog from at the minor: the
	// new index for SourceFollows, spec.image otherwise ("" without one).
	Image string `json:"image,omitempty"`
	// Why says in words why the catalog moves or stays.
	Why string `json:"why"`
}

// SourceAt says what becomes of CatalogSource cs when the cluster reaches
// minor m: a default CatalogSource of minor m in openshift-marketplace
// that the marketplace operator manages (its annotation, or, without it,
// an image that is the platform's index of some minor) follows the
// platform: the marketplace operator of m resets its whole spec to the
// release's, the image REGISTRY/redhat/INDEX:v<m> (the registry the
// source pulls from, when it is one of the platform's). Any other keeps
// its image, and says why: a digest, a mirror, a custom image.
func SourceAt(cs cluster.CatalogSource, m Minor) Source {
	s := Source{Namespace: cs.Namespace, Name: cs.Name, Image: cs.Image}
	registry, repo, tag, digest := splitImage(cs.Image)
	d, isDefault := defaultSource(cs.Name, m)
	managed := cs.ManagedBy == ManagedByMarketplace
	platformImage := isPlatformRegistry(registry) && repo == "redhat/"+d.Index && strings.HasPrefix(tag, "v4.") && digest == ""
	if cs.Namespace == MarketplaceNamespace && isDefault && (managed || platformImage) {
		if !isPlatformRegistry(registry) {
			registry = ""
		}
		s.Kind, s.Image = SourceFollows, DefaultImage(d, registry, m)
		switch {
		case managed && cs.Image != "" && !platformImage:
			s.Why = fmt.Sprintf("a default CatalogSource the marketplace operator manages; at %s it resets the image %s to the release's", m, cs.Image)
		case managed:
			s.Why = fmt.Sprintf("a default CatalogSource the marketplace operator manages: at %s it serves the %s index", m, m)
		default:
			s.Why = fmt.Sprintf("its image is the platform's index (without the marketplace operator's annotation %s, taken as a default CatalogSource): at %s it serves the %s index", cluster.ManagedByAnnotation, m, m)
		}
		return s
	}
	_, wasDefault := defaultSource(cs.Name, Minor{4, 21})
	switch {
	case cs.Namespace == MarketplaceNamespace && wasDefault && !isDefault && managed:
		s.Kind = SourceNoLongerDefault
		s.Why = fmt.Sprintf("no longer a default CatalogSource at %s: the marketplace operator leaves it as it is", m)
	case cs.Image == "":
		s.Kind = SourceCustom
		s.Why = "it serves from a gRPC address or a ConfigMap, not an image: it keeps its catalog"
	case digest != "":
		s.Kind = SourcePinned
		s.Why = "its image is pinned to a digest: it keeps its catalog"
	case isPlatformRegistry(registry) && isIndexRepo(repo):
		s.Kind = SourceCustom
		s.Why = fmt.Sprintf("the Red Hat index at tag %s, in a CatalogSource the marketplace operator does not manage: it keeps its catalog", tag)
	case strings.HasSuffix(repo, "-index") && (isIndexRepo(repo) || wasDefault):
		s.Kind = SourceMirrored
		s.Why = "a mirror of a Red Hat index: it keeps its catalog until its image is pointed at the next index"
	default:
		s.Kind = SourceCustom
		s.Why = "a custom catalog image: it keeps its catalog"
	}
	return s
}

// isIndexRepo reports whether repo ends in the repository of a Red Hat
// index, on any registry.
func isIndexRepo(repo string) bool {
	for _, d := range defaultSources {
		if repo == d.Index || strings.HasSuffix(repo, "/"+d.Index) {
			return true
		}
	}
	return false
}

func isPlatformRegistry(r string) bool {
	for _, p := range platformRegistries {
		if r == p {
			return true
		}
	}
	return false
}

// splitImage splits an image reference as a CatalogSource's spec.image
// holds it (the registry defaulted as the kubelet defaults it) into
// registry, repository, tag and digest.
func splitImage(ref string) (registry, repo, tag, digest string) {
	rest := ref
	if i := strings.Index(rest, "@"); i >= 0 {
		rest, digest = rest[:i], rest[i+1:]
	}
	if i := strings.LastIndex(rest, ":"); i > strings.LastIndex(rest, "/") {
		rest, tag = rest[:i], rest[i+1:]
	}
	first, after, ok := strings.Cut(rest, "/")
	if ok && (strings.ContainsAny(first, ".:") || first == "localhost") {
		return first, after, tag, digest
	}
	if !ok {
		return "docker.io", "library/" + rest, tag, digest
	}
	return "docker.io", rest, tag, digest
}
