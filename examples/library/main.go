// Command library resolves a namespace as `sextant resolve -o json` does,
// through the library alone: the same answer, byte for byte, with the
// same exit status (0 a plan, 1 no plan or a predicted failure, 2 input
// it cannot use). Run it from the repository root:
//
//	go run ./examples/library --catalog testdata/catalogs/community-operators-prod.v4.20-index.json.gz \
//	    -f testdata/examples/cluster.yaml
//
// --catalog [NAME=]PATH and -f PATH are repeatable; "-" reads standard
// input (a catalog from it needs a NAME). It imports only the module's
// exported packages: the root package sextant, which turns the inputs into
// a world and answers it, celrule (OLM's cel rules) and catalogimage
// (catalog images).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/catalogimage"
	"github.com/sextantdev/sextant/celrule"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// list is a repeatable flag.
type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(s string) error { *l = append(*l, s); return nil }

// run is the program: its exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("library", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var catalogs, files list
	fs.Var(&catalogs, "catalog", "a catalog, `[NAME=]PATH` (repeatable)")
	fs.Var(&files, "f", "the cluster's manifests, a `PATH` (repeatable)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	in := sextant.Input{}
	for _, c := range catalogs {
		ci, err := sextant.ParseCatalogArg(c)
		if err != nil {
			fmt.Fprintln(stderr, "library:", err)
			return 2
		}
		if ci.Path == "-" {
			ci.Path, ci.Reader = "<stdin>", stdin
		}
		in.Catalogs = append(in.Catalogs, ci)
	}
	for _, f := range files {
		if f == "-" {
			in.Manifests = append(in.Manifests, sextant.File{Path: "<stdin>", Reader: stdin})
			continue
		}
		in.Manifests = append(in.Manifests, sextant.File{Path: f})
	}
	if len(in.Manifests) == 0 {
		fmt.Fprintln(stderr, "library: no manifests: give the cluster state with -f PATH")
		return 2
	}

	w, err := sextant.Load(ctx, in, sextant.Options{
		CEL:    celrule.New(),
		Images: catalogimage.New(catalogimage.Options{}).Source(),
	})
	if err != nil {
		fmt.Fprintln(stderr, "library:", err) // every problem of the inputs, each naming its file
		return 2
	}
	for _, n := range w.Notes {
		fmt.Fprintf(stderr, "library: note (%s): %s\n", n.Code, n.Text)
	}
	answer, err := w.Resolve(ctx, sextant.AnswerOptions{})
	if err != nil {
		fmt.Fprintln(stderr, "library:", err) // input the resolution cannot use
		return 2
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(answer); err != nil {
		fmt.Fprintln(stderr, "library:", err)
		return 2
	}
	if answer.No() {
		return 1
	}
	return 0
}
