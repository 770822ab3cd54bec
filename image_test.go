package sextant_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/catalogimage"
	"github.com/sextantdev/sextant/celrule"
	"github.com/sextantdev/sextant/internal/imagetest"
)

// subscriptionTo returns manifests with a subscription to package db in
// namespace shop from catalog source (in olm), whose CatalogSource's
// spec.image is image.
func subscriptionTo(t *testing.T, source, image string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "cluster.yaml")
	data := `apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: app, namespace: shop}
spec: {name: db, channel: stable, source: ` + source + `, sourceNamespace: olm}
---
apiVersion: operators.coreos.com/v1alpha1
kind: CatalogSource
metadata: {name: ` + source + `, namespace: olm}
spec: {sourceType: grpc, image: "` + image + `"}
`
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestUnnamedImages: an image given without a name whose reference is a
// CatalogSource's spec.image takes that CatalogSource's name — a
// registry reference, normalized as the kubelet reads spec.image, an OCI
// layout whose index records the whole reference, a docker archive's
// RepoTags; where no rule applies, the subscription's source is an error
// naming the image given and the fix, and no registry is reached.
func TestUnnamedImages(t *testing.T) {
	data, err := os.ReadFile(cliCatalogs + "db.json")
	if err != nil {
		t.Fatal(err)
	}
	img := imagetest.CatalogImage(t, map[string][]byte{"db/catalog.json": data})
	dir := t.TempDir()
	reg := imagetest.NewRegistry(t)
	byTag, _ := reg.Push(t, "example/app-catalog:v1", img)
	layoutFull := imagetest.WriteLayout(t, filepath.Join(dir, "full"), "quay.io/example/app-catalog:v1", img)
	layoutTag := imagetest.WriteLayout(t, filepath.Join(dir, "tag"), "v1", img)
	archive := imagetest.WriteArchive(t, filepath.Join(dir, "cat.tar"), img) // tagged example.com/catalog:latest
	images := catalogimage.New(catalogimage.Options{CacheDir: t.TempDir(), Insecure: []string{reg.Host}}).Source()

	tests := []struct {
		name, catalog, specImage string
		named                    bool // named after the CatalogSource, else a *SourceError
	}{
		{"registry", byTag, byTag, true},
		{"OCI layout recording the reference", "oci:" + layoutFull, "quay.io/example/app-catalog:v1", true},
		{"docker archive", "docker-archive:" + archive, "example.com/catalog", true},
		{"OCI layout recording a tag", "oci:" + layoutTag, byTag, false},
		{"another image", "oci:" + layoutFull, byTag, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg.Requests("manifests") // resets the count
			w, err := sextant.Load(context.Background(), sextant.Input{
				Catalogs:  []sextant.CatalogInput{{Path: tt.catalog}},
				Manifests: []sextant.File{{Path: subscriptionTo(t, "app-catalog", tt.specImage)}},
			}, sextant.Options{Images: images, CEL: celrule.New()})
			if !tt.named {
				var se *sextant.SourceError
				if !errors.As(err, &se) || len(se.Unnamed) != 1 || se.Unnamed[0].Path != tt.catalog || se.Image != tt.specImage {
					t.Fatalf("error %v, want a *SourceError naming %s and its fix", err, tt.catalog)
				}
				if !strings.Contains(err.Error(), `name it "app-catalog" (app-catalog=`+tt.catalog+`)`) {
					t.Errorf("error %q names no fix", err)
				}
				if n := reg.Requests("manifests"); n != 0 {
					t.Errorf("%d registry requests before the error", n)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(w.Catalogs) != 1 || w.Catalogs[0].Key.Name != "app-catalog" || w.Catalogs[0].Origin.Named != sextant.NamedByCatalogSource {
				t.Fatalf("catalogs %+v", w.Catalogs)
			}
			if o := w.Catalogs[0].Origin.Image; o == nil || !strings.HasPrefix(o.Digest, "sha256:") {
				t.Errorf("origin %+v: no image digest", w.Catalogs[0].Origin)
			}
			a, err := w.Resolve(context.Background(), sextant.AnswerOptions{})
			if err != nil || a.No() || len(a.Namespaces[0].Plan.Steps) != 1 {
				t.Errorf("resolve: %v, no: %v", err, a.No())
			}
		})
	}
}
