// Command app finds the operators an application needs: it reads the
// application's manifests, resolves which catalog packages serve their
// kinds (and what installing them brings along) against the community
// catalog shipped in testdata, and lists who provides one API. Run it from
// the repository root:
//
//	go run ./examples/app
//	go run ./examples/app -app my-app.yaml -namespace demo -provides Kafka
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

func main() {
	catalogPath := flag.String("catalog", "testdata/catalogs/community-operators-prod.v4.20-index.json.gz", "FBC catalog `file`")
	appPath := flag.String("app", "testdata/examples/app.yaml", "the application's manifests (`file`)")
	namespace := flag.String("namespace", "demo", "the namespace the application goes to")
	provides := flag.String("provides", "EtcdCluster", "an API to look up: KIND, GROUP/VERSION/KIND or GROUP")
	flag.Parse()
	if err := run(os.Stdout, *catalogPath, *appPath, *namespace, *provides); err != nil {
		fmt.Fprintln(os.Stderr, "app:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, catalogPath, appPath, namespace, provides string) error {
	gc, err := graph.LoadFile(catalogPath)
	if err != nil {
		return err
	}
	r, err := resolver.New([]resolver.Catalog{{Key: resolver.CatalogKey{Namespace: "olm", Name: "community"}, Catalog: gc}}, resolver.Options{})
	if err != nil {
		return err
	}
	f, err := os.Open(appPath)
	if err != nil {
		return err
	}
	defer f.Close()
	objects, err := cluster.DecodeObjects(f, appPath)
	if err != nil {
		return err
	}
	app, err := r.ResolveFor(context.Background(), namespace, &cluster.State{}, objects)
	var unserved *resolver.UnservedError
	switch {
	case errors.As(err, &unserved):
		fmt.Fprint(w, app)
		return err
	case err != nil:
		return err
	}
	fmt.Fprint(w, app)

	q, err := resolver.ParseAPIQuery(provides)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nwho provides %s:\n", q)
	for _, p := range r.Provides(q) {
		fmt.Fprintf(w, "  %s: package %s, channel %s (head %s), versions %v\n", p.API, p.Package, p.Channel, p.Head, p.Versions)
	}
	return nil
}
