package catalogimage_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sextantdev/sextant/catalogimage"
)

// Each form of reference, and how it is understood.
func ExampleParseReference() {
	for _, s := range []string{
		"quay.io/operatorhubio/catalog:latest",
		"registry.example.com:5000/olm/catalog@sha256:4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945",
		"oci:/srv/mirror/catalog:v4.20",
		"docker-archive:catalog.tar",
		"catalog.json",
	} {
		ref, err := catalogimage.ParseReference(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s, named %q\n", ref.Describe(), ref.BaseName())
	}
	// Output:
	// registry image quay.io/operatorhubio/catalog:latest, named "catalog"
	// registry image registry.example.com:5000/olm/catalog@sha256:4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945, named "catalog"
	// OCI layout /srv/mirror/catalog (tag v4.20), named "catalog"
	// docker archive catalog.tar, named "catalog"
	// "catalog.json": not an image reference (not oci:DIR, docker-archive:FILE or REGISTRY/REPO:TAG)
}

// Reading a catalog image offline: what the cache lacks is named, not
// pulled.
func ExampleReader_Load() {
	cache, err := os.MkdirTemp("", "sextant-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(cache)
	r := catalogimage.New(catalogimage.Options{CacheDir: filepath.Join(cache, "sextant"), Offline: true})
	ref, err := catalogimage.ParseReference("quay.io/operatorhubio/catalog:latest")
	if err != nil {
		panic(err)
	}
	_, _, err = r.Load(context.Background(), ref)
	fmt.Println(err)
	// Output:
	// quay.io/operatorhubio/catalog:latest (registry image): offline: would pull quay.io/operatorhubio/catalog:latest (not in the cache)
}
