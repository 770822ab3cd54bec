// Command genscale writes the large inputs that BENCHMARKS.md measures
// whole commands on, as package scalegen makes them: catalog.json and
// cluster.yaml (cluster.json with -kindless -json). The same flags give
// the same bytes.
//
//	go run ./internal/genscale -n 50000 -out /tmp/scale
//	go run ./cmd/sextant resolve --catalog c=/tmp/scale/catalog.json -f /tmp/scale/cluster.yaml
//
// -list writes the manifests as one List document, as `kubectl get -o
// yaml` prints them, instead of one document per object; -kindless, a List
// of n Subscriptions without their kind (each an input error); -kindless
// -json, that List as JSON, in cluster.json.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sextantdev/sextant/internal/scalegen"
)

func main() {
	n := flag.Int("n", 50000, "packages and subscriptions")
	versions := flag.Int("bundles", 2, "bundles per package (a replaces chain)")
	list := flag.Bool("list", false, "write the manifests as one List document")
	kindless := flag.Bool("kindless", false, "write the manifests as one List of subscriptions without their kind")
	asJSON := flag.Bool("json", false, "with -kindless: write the List as JSON (cluster.json), as kubectl get -o json prints it")
	out := flag.String("out", ".", "folder to write catalog.json and cluster.yaml in")
	flag.Parse()
	if *n < 1 || *versions < 1 || *versions > 100 {
		fmt.Fprintln(os.Stderr, "genscale: -n must be at least 1 and -bundles from 1 to 100")
		os.Exit(2)
	}
	if err := write(filepath.Join(*out, "catalog.json"), func(w io.Writer) error { return scalegen.Catalog(w, *n, *versions) }); err != nil {
		fmt.Fprintln(os.Stderr, "genscale:", err)
		os.Exit(1)
	}
	manifests, name := func(w io.Writer) error { return scalegen.Manifests(w, *n, *list) }, "cluster.yaml"
	switch {
	case *kindless && *asJSON:
		manifests, name = func(w io.Writer) error { return scalegen.KindlessListJSON(w, *n) }, "cluster.json"
	case *kindless:
		manifests = func(w io.Writer) error { return scalegen.KindlessList(w, *n) }
	}
	if err := write(filepath.Join(*out, name), manifests); err != nil {
		fmt.Fprintln(os.Stderr, "genscale:", err)
		os.Exit(1)
	}
}

func write(path string, body func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := body(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
