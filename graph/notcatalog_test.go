package graph

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

// TestNotCatalog: manifests and registry+v1 bundles given as a catalog are
// one *NotCatalogError each (per file, per bundle folder) saying what they
// are, not one error per object or per file.
func TestNotCatalog(t *testing.T) {
	csv := "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: a.v1\n"
	crd := "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: as.example.com\n"
	annotations := "annotations:\n  operators.operatorframework.io.bundle.mediatype.v1: registry+v1\n"
	bundle := fstest.MapFS{
		"b/metadata/annotations.yaml": {Data: []byte(annotations)},
		"b/manifests/a.csv.yaml":      {Data: []byte(csv)},
		"b/manifests/a.crd.yaml":      {Data: []byte(crd)},
		// Not a bundle: annotations without the media type.
		"c/metadata/annotations.yaml": {Data: []byte("annotations: {}\n")},
		"c/manifests/a.csv.yaml":      {Data: []byte(csv)},
	}
	for _, tt := range []struct {
		name    string
		load    func() (*Catalog, error)
		want    NotCatalogError
		errs    int    // DecodeErrors in all
		message string // in the first
	}{
		{
			name:    "three manifests in one YAML file",
			load:    func() (*Catalog, error) { return Decode(strings.NewReader(csv+"---\n"+crd+"---\n"+csv), "m.yaml") },
			want:    NotCatalogError{What: NotCatalogManifests, Kind: "ClusterServiceVersion", Objects: 3},
			errs:    1,
			message: `m.yaml:1: Kubernetes manifests (3 objects, the first of kind ClusterServiceVersion), not a File-Based Catalog (whose blobs have a "schema")`,
		},
		{
			name: "a List in JSON",
			load: func() (*Catalog, error) {
				return Decode(strings.NewReader(`{"apiVersion": "v1", "kind": "List", "items": []}`), "m.json")
			},
			want:    NotCatalogError{What: NotCatalogManifests, Kind: "List", Objects: 1},
			errs:    1,
			message: `m.json:1: a Kubernetes List (as kubectl get prints it), not a File-Based Catalog (whose blobs have a "schema")`,
		},
		{
			name: "a manifest among blobs",
			load: func() (*Catalog, error) {
				return Decode(strings.NewReader(`{"schema": "olm.package", "name": "p"}`+"\n"+`{"apiVersion": "v1", "kind": "Secret"}`), "m.json")
			},
			want:    NotCatalogError{What: NotCatalogManifests, Kind: "Secret", Objects: 1},
			errs:    1,
			message: `m.json:2: Kubernetes manifests (kind Secret), not a File-Based Catalog (whose blobs have a "schema")`,
		},
		{
			name:    "a bundle folder",
			load:    func() (*Catalog, error) { return LoadFS(bundle, "b") },
			want:    NotCatalogError{What: NotCatalogBundle, Bundle: "b"},
			errs:    1,
			message: `b: a registry+v1 bundle (its metadata/annotations.yaml names the bundle media type), not a File-Based Catalog`,
		},
		{
			name:    "a bundle's manifests folder",
			load:    func() (*Catalog, error) { return LoadFS(bundle, "b/manifests") },
			want:    NotCatalogError{What: NotCatalogBundle, Bundle: "b", InManifests: true},
			errs:    1,
			message: `b/manifests: the manifests of the registry+v1 bundle b (its metadata/annotations.yaml names the bundle media type), not a File-Based Catalog`,
		},
		{
			name:    "annotations without the bundle media type: read file by file",
			load:    func() (*Catalog, error) { return LoadFS(bundle, "c") },
			want:    NotCatalogError{What: NotCatalogManifests, Kind: "ClusterServiceVersion", Objects: 1},
			errs:    2, // c/manifests/a.csv.yaml, c/metadata/annotations.yaml (no schema)
			message: `c/manifests/a.csv.yaml:1: Kubernetes manifests (kind ClusterServiceVersion), not a File-Based Catalog (whose blobs have a "schema")`,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.load()
			var nc *NotCatalogError
			if !errors.As(err, &nc) {
				t.Fatalf("error %v, want a *NotCatalogError", err)
			}
			if *nc != tt.want {
				t.Errorf("NotCatalogError %+v, want %+v", *nc, tt.want)
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != tt.errs || lines[0] != tt.message {
				t.Errorf("error:\n%s\nwant %d lines, the first:\n%s", err, tt.errs, tt.message)
			}
		})
	}
}
