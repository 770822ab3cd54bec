package catalogimage_test

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	v1 "github.com/google/go-containerregistry/pkg/v1"

	"github.com/sextantdev/sextant/catalogimage"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/imagetest"
	"github.com/sextantdev/sextant/registryv1"
)

const bundleCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object}
`

// bundleImage is a registry+v1 bundle image as opm builds one: the labels
// of its annotations, metadata/ and manifests/ in a lower layer, a file
// elsewhere, and an upper layer that deletes one manifest.
func bundleImage(t *testing.T) v1.Image {
	labels := map[string]string{
		registryv1.AnnotationMediaType: registryv1.MediaType,
		registryv1.AnnotationManifests: "manifests/",
		registryv1.AnnotationPackage:   "widgets",
	}
	lower := imagetest.Layer(t,
		imagetest.File{Name: "metadata/annotations.yaml", Data: []byte("annotations:\n  " + registryv1.AnnotationMediaType + ": registry+v1\n  " + registryv1.AnnotationPackage + ": widgets\n")},
		imagetest.File{Name: "manifests/widgets.clusterserviceversion.yaml", Data: []byte("apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: widgets.v1.0.0\nspec:\n  version: 1.0.0\n")},
		imagetest.File{Name: "manifests/widgets.crd.yaml", Data: []byte(bundleCRD)},
		imagetest.File{Name: "manifests/gone.yaml", Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: gone\n")},
		imagetest.File{Name: "tests/scorecard/config.yaml", Data: []byte("not read\n")},
	)
	upper := imagetest.Layer(t, imagetest.File{Name: "manifests/.wh.gone.yaml"})
	return imagetest.Image(t, labels, lower, upper)
}

// TestLoadBundle reads a bundle image from a registry on loopback (then
// from the cache, with no layer fetched), an OCI layout and a docker
// archive, through BundleSource as a registryv1.Set reads it.
func TestLoadBundle(t *testing.T) {
	img := bundleImage(t)
	dir := t.TempDir()
	layoutDir := imagetest.WriteLayout(t, filepath.Join(dir, "layout"), "v1", img)
	archive := imagetest.WriteArchive(t, filepath.Join(dir, "bundle.tar"), img)
	reg := imagetest.NewRegistry(t)
	byTag, digest := reg.Push(t, "example/widgets-bundle:v1.0.0", img)
	cacheDir := t.TempDir()
	r := reader(t, reg, catalogimage.Options{CacheDir: cacheDir})
	for _, tc := range []struct{ name, ref string }{
		{"registry", byTag},
		{"registry, cached", byTag},
		{"registry by digest, cached", reg.Host + "/example/widgets-bundle@" + digest.String()},
		{"oci layout", "oci:" + layoutDir + ":v1"},
		{"docker archive", "docker-archive:" + archive},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg.Requests("blobs")
			fsys, info, err := r.LoadBundle(context.Background(), mustRef(t, tc.ref))
			if err != nil {
				t.Fatal(err)
			}
			var files []string
			fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					files = append(files, p)
				}
				return nil
			})
			want := "manifests/widgets.clusterserviceversion.yaml manifests/widgets.crd.yaml metadata/annotations.yaml"
			if got := strings.Join(files, " "); got != want {
				t.Errorf("files %s, want %s", got, want)
			}
			cached := strings.Contains(tc.name, "cached")
			if info.Cached != cached || info.Dir != "/manifests/" || info.Digest == "" {
				t.Errorf("info %+v", info)
			}
			if n := reg.Requests("blobs"); cached && n != 0 {
				t.Errorf("%d blobs fetched from the cache", n)
			}
		})
	}
	entries, err := catalogimage.ListCache(cacheDir)
	if err != nil || len(entries) != 1 || entries[0].Kind != "bundle" {
		t.Errorf("cache %+v, %v: want one bundle entry", entries, err)
	}
	// The catalog reader does not take the bundle's entry for a catalog.
	if _, _, err := r.Load(context.Background(), mustRef(t, byTag)); err == nil || !strings.Contains(err.Error(), "not a catalog image") {
		t.Errorf("Load of a bundle image: %v", err)
	}

	set := registryv1.NewSet()
	set.Images = r.BundleSource()
	cat, err := graph.Decode(strings.NewReader(`{"schema":"olm.package","name":"widgets","defaultChannel":"stable"}
{"schema":"olm.channel","package":"widgets","name":"stable","entries":[{"name":"widgets.v1.0.0"}]}
{"schema":"olm.bundle","package":"widgets","name":"widgets.v1.0.0","image":"`+byTag+`","properties":[{"type":"olm.package","value":{"packageName":"widgets","version":"1.0.0"}}]}
`), "catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	b, problems, err := set.For(context.Background(), cat.Package("widgets").Bundle("widgets.v1.0.0"))
	if err != nil || len(problems) > 0 || b == nil {
		t.Fatalf("For: %v, %v, %v", b, problems, err)
	}
	if d, _, err := b.CRDs[0].Parse(); err != nil || d.Name != "widgets.example.com" || b.Source.Kind != registryv1.FromImage {
		t.Errorf("CRD %v, %v from %v", d, err, b.Source)
	}
}

// TestLoadBundleRefused: an image that is no bundle, and one offline.
func TestLoadBundleRefused(t *testing.T) {
	reg := imagetest.NewRegistry(t)
	catRef, _ := reg.Push(t, "example/catalog:v1", twoPackages(t))
	plain := imagetest.Image(t, nil, imagetest.Layer(t, imagetest.File{Name: "manifests/x.yaml", Data: []byte("a: b\n")}))
	plainRef, _ := reg.Push(t, "example/plain:v1", plain)
	r := reader(t, reg, catalogimage.Options{})
	for _, tc := range []struct{ ref, want string }{
		{catRef, "a catalog image, not a bundle image"},
		{plainRef, "no metadata/annotations.yaml: not a registry+v1 bundle image"},
	} {
		if _, _, err := r.LoadBundle(context.Background(), mustRef(t, tc.ref)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.ref, err, tc.want)
		}
	}
	bundleRef, _ := reg.Push(t, "example/widgets-bundle:v1.0.0", bundleImage(t))
	off := reader(t, reg, catalogimage.Options{Offline: true})
	_, _, err := off.LoadBundle(context.Background(), mustRef(t, bundleRef))
	var oe *catalogimage.OfflineError
	if !errors.As(err, &oe) {
		t.Errorf("offline: %v, want an *OfflineError", err)
	}
}
