package openshift

import (
	"testing"

	"github.com/sextantdev/sextant/cluster"
)

// TestSourceAt: which CatalogSources follow the platform's index at the
// next minor, as the marketplace operator of each release moves them, and
// which keep their catalog.
func TestSourceAt(t *testing.T) {
	const mp = MarketplaceNamespace
	tests := []struct {
		name string
		cs   cluster.CatalogSource
		at   Minor
		kind SourceKind
		img  string
	}{
		{"managed default", cluster.CatalogSource{Namespace: mp, Name: "redhat-operators", Image: "registry.redhat.io/redhat/redhat-operator-index:v4.16", ManagedBy: "marketplace-operator"},
			Minor{4, 17}, SourceFollows, "registry.redhat.io/redhat/redhat-operator-index:v4.17"},
		{"a default without the annotation", cluster.CatalogSource{Namespace: mp, Name: "community-operators", Image: "registry.redhat.io/redhat/community-operator-index:v4.18"},
			Minor{4, 19}, SourceFollows, "registry.redhat.io/redhat/community-operator-index:v4.19"},
		{"OKD's community index", cluster.CatalogSource{Namespace: mp, Name: "community-operators", Image: "registry.access.redhat.com/redhat/community-operator-index:v4.20", ManagedBy: "marketplace-operator"},
			Minor{4, 21}, SourceFollows, "registry.access.redhat.com/redhat/community-operator-index:v4.21"},
		{"managed, edited to a mirror: reset", cluster.CatalogSource{Namespace: mp, Name: "certified-operators", Image: "mirror.example.com/redhat/certified-operator-index:v4.16", ManagedBy: "marketplace-operator"},
			Minor{4, 17}, SourceFollows, "registry.redhat.io/redhat/certified-operator-index:v4.17"},
		{"redhat-marketplace at 4.22", cluster.CatalogSource{Namespace: mp, Name: "redhat-marketplace", Image: "registry.redhat.io/redhat/redhat-marketplace-index:v4.21", ManagedBy: "marketplace-operator"},
			Minor{4, 22}, SourceNoLongerDefault, "registry.redhat.io/redhat/redhat-marketplace-index:v4.21"},
		{"redhat-marketplace at 4.21", cluster.CatalogSource{Namespace: mp, Name: "redhat-marketplace", Image: "registry.redhat.io/redhat/redhat-marketplace-index:v4.20", ManagedBy: "marketplace-operator"},
			Minor{4, 21}, SourceFollows, "registry.redhat.io/redhat/redhat-marketplace-index:v4.21"},
		{"a mirror under a default name, defaults disabled", cluster.CatalogSource{Namespace: mp, Name: "redhat-operators", Image: "mirror.example.com:5000/olm/redhat-operator-index:v4.16"},
			Minor{4, 17}, SourceMirrored, "mirror.example.com:5000/olm/redhat-operator-index:v4.16"},
		{"pinned by digest", cluster.CatalogSource{Namespace: mp, Name: "redhat-operators", Image: "registry.redhat.io/redhat/redhat-operator-index@sha256:0123"},
			Minor{4, 17}, SourcePinned, "registry.redhat.io/redhat/redhat-operator-index@sha256:0123"},
		{"the index in another namespace", cluster.CatalogSource{Namespace: "olm", Name: "redhat-operators", Image: "registry.redhat.io/redhat/redhat-operator-index:v4.16"},
			Minor{4, 17}, SourceCustom, "registry.redhat.io/redhat/redhat-operator-index:v4.16"},
		{"custom", cluster.CatalogSource{Namespace: mp, Name: "my-catalog", Image: "quay.io/me/catalog:latest"},
			Minor{4, 17}, SourceCustom, "quay.io/me/catalog:latest"},
		{"no image", cluster.CatalogSource{Namespace: mp, Name: "grpc"},
			Minor{4, 17}, SourceCustom, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := SourceAt(tt.cs, tt.at)
			if s.Kind != tt.kind || s.Image != tt.img || s.Why == "" {
				t.Errorf("SourceAt = %+v, want %s %s", s, tt.kind, tt.img)
			}
		})
	}
}
