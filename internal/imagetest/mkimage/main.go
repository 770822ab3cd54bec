// Command mkimage writes a catalog image of a File-Based Catalog file, as
// an OCI layout and as a docker archive, for timing whole commands on
// images (BENCHMARKS.md):
//
//	go run ./internal/imagetest/mkimage -fbc testdata/catalogs/community-operators-prod.v4.20-index.json.gz -oci /tmp/img/community-operators-prod.v4.20-index -archive /tmp/img/community-operators-prod.v4.20-index.tar
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
	"os"

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
	flag.Parse()
	if *fbc == "" || (*oci == "" && *archive == "") {
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
}
