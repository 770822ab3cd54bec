// Command mkimage writes a catalog image of a File-Based Catalog file, as
// an OCI layout and as a docker archive, for timing whole commands on
// images (BENCHMARKS.md):
//
//	go run ./internal/imagetest/mkimage -fbc testdata/catalogs/community-operators-prod.v4.20-index.json.gz -oci /tmp/img/community-operators-prod.v4.20-index -archive /tmp/img/community-operators-prod.v4.20-index.tar
//
// With -serve ADDR it also serves the image from an in-process registry
// on ADDR (plain HTTP, until interrupted), as REPO:TAG given with -repo:
//
//	go run ./internal/imagetest/mkimage -fbc testdata/catalogs/community-operators-prod.v4.20-index.json.gz -serve 127.0.0.1:5000 -repo olm/community-operators-prod.v4.20-index:v4.20
//
// The image holds a stand-in opm layer, then the catalog as
// configs/catalog.json, with the label naming /configs.
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	"github.com/google/go-containerregistry/pkg/v1/remote"

	"github.com/sextantdev/sextant/internal/imagetest"
)

// fatal stops the command at the first error.
type fatal struct{}

func (fatal) Helper() {}

func (fatal) Fatal(args ...any) {
	fmt.Fprintln(os.Stderr, append([]any{"mkimage:"}, args...)...)
	os.Exit(1)
}

func main() {
	fbc := flag.String("fbc", "", "the FBC file (.json, or .json.gz)")
	oci := flag.String("oci", "", "write an OCI layout to this new folder")
	archive := flag.String("archive", "", "write a docker archive (crane pull's format) to this file")
	serve := flag.String("serve", "", "serve the image from a registry on this address (plain HTTP)")
	repo := flag.String("repo", "olm/catalog:latest", "with -serve, the image's REPO:TAG")
	flag.Parse()
	if *fbc == "" || (*oci == "" && *archive == "" && *serve == "") {
		flag.Usage()
		os.Exit(2)
	}
	data, err := os.ReadFile(*fbc)
	if err != nil {
		fatal{}.Fatal(err)
	}
	if zr, err := gzip.NewReader(bytes.NewReader(data)); err == nil {
		if data, err = io.ReadAll(zr); err != nil {
			fatal{}.Fatal(err)
		}
	}
	img := imagetest.CatalogImage(fatal{}, map[string][]byte{"catalog.json": data})
	if *oci != "" {
		imagetest.WriteLayout(fatal{}, *oci, "", img)
	}
	if *archive != "" {
		imagetest.WriteArchive(fatal{}, *archive, img)
	}
	if *serve != "" {
		l, err := net.Listen("tcp", *serve)
		if err != nil {
			fatal{}.Fatal(err)
		}
		go func() { fatal{}.Fatal(http.Serve(l, registry.New(registry.Logger(log.New(io.Discard, "", 0))))) }()
		ref, err := name.ParseReference(l.Addr().String()+"/"+*repo, name.Insecure)
		if err != nil {
			fatal{}.Fatal(err)
		}
		if err := remote.Write(ref, img); err != nil {
			fatal{}.Fatal(err)
		}
		d, err := img.Digest()
		if err != nil {
			fatal{}.Fatal(err)
		}
		fmt.Printf("serving %s (%s@%s); interrupt to stop\n", ref, ref.Context(), d)
		select {}
	}
}
