package mirror

import (
	"fmt"
	"strings"

	"github.com/sextantdev/sextant/resolver"
)

// ImageSetAPIVersion and ImageSetKind are the apiVersion and kind of
// oc-mirror v2's ImageSetConfiguration.
const (
	ImageSetAPIVersion = "mirror.openshift.io/v2alpha1"
	ImageSetKind       = "ImageSetConfiguration"
)

// ImageSetConfiguration is an oc-mirror v2 ImageSetConfiguration that
// selects the set's bundles, as Set.ImageSet makes it. Its JSON (and YAML
// through sigs.k8s.io/yaml) is the file oc-mirror reads
// (`oc mirror --v2 -c FILE`): mirror.operators[] with the catalog image,
// skipDependencies and packages[] each with name and bundles[].name.
type ImageSetConfiguration struct {
	APIVersion string         `json:"apiVersion"`
	Kind       string         `json:"kind"`
	Mirror     ImageSetMirror `json:"mirror"`
}

// ImageSetMirror is the mirror section: one entry per catalog.
type ImageSetMirror struct {
	Operators []ImageSetOperator `json:"operators"`
}

// ImageSetOperator selects the kept packages and bundles of one catalog.
// SkipDependencies is true: the set already holds every dependency at the
// versions the resolver picks, and oc-mirror's own dependency search would
// add more.
type ImageSetOperator struct {
	Catalog          string            `json:"catalog"`
	SkipDependencies bool              `json:"skipDependencies"`
	Packages         []ImageSetPackage `json:"packages"`
}

// ImageSetPackage selects bundles of a package by name. oc-mirror v2
// refuses a package that selects bundles and also channels or
// minVersion/maxVersion, so the channels are not named: its filter keeps
// the channels the selected bundles sit in, as the set does.
type ImageSetPackage struct {
	Name    string           `json:"name"`
	Bundles []ImageSetBundle `json:"bundles"`
}

// ImageSetBundle names one bundle.
type ImageSetBundle struct {
	Name string `json:"name"`
}

// ImageSet returns the ImageSetConfiguration that selects the set's
// bundles, catalog by catalog in key order. catalogImages gives the image
// reference of each catalog with kept bundles (what oc-mirror pulls, e.g.
// registry.redhat.io/redhat/community-operator-index:v4.20); a catalog
// without one is an error naming it.
func (s *Set) ImageSet(catalogImages map[resolver.CatalogKey]string) (*ImageSetConfiguration, error) {
	isc := &ImageSetConfiguration{APIVersion: ImageSetAPIVersion, Kind: ImageSetKind, Mirror: ImageSetMirror{Operators: []ImageSetOperator{}}}
	var missing []string
	for _, c := range s.Catalogs {
		ref := catalogImages[c.Catalog]
		if ref == "" {
			missing = append(missing, c.Catalog.String())
			continue
		}
		op := ImageSetOperator{Catalog: ref, SkipDependencies: true, Packages: []ImageSetPackage{}}
		for _, p := range c.Packages {
			ip := ImageSetPackage{Name: p.Name, Bundles: []ImageSetBundle{}}
			for _, b := range p.Bundles {
				ip.Bundles = append(ip.Bundles, ImageSetBundle{Name: b.Name})
			}
			op.Packages = append(op.Packages, ip)
		}
		isc.Mirror.Operators = append(isc.Mirror.Operators, op)
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("no image reference for catalog %s: an ImageSetConfiguration names each catalog by the image oc-mirror pulls", strings.Join(missing, ", "))
	}
	return isc, nil
}
