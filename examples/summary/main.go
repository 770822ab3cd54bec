// Command summary loads a File-Based Catalog and prints a deterministic
// summary: packages, channels, bundles, channel heads and the structural
// findings by severity and code, counted as `sextant check` counts them
// (check.CountSeverities).
//
// Usage, from the repository root:
//
//	go run ./examples/summary [-list] [catalog]
//
// catalog is a file (.json, .yaml, .yml, optionally .gz) or a folder; it
// defaults to testdata/catalogs/community-operators-prod.v4.20-index.json.gz,
// relative to the working directory. -list prints every finding too.
package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/sextantdev/sextant/check"
	"github.com/sextantdev/sextant/graph"
)

const defaultCatalog = "testdata/catalogs/community-operators-prod.v4.20-index.json.gz"

func main() {
	list := flag.Bool("list", false, "print every finding")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: summary [-list] [catalog]\n\ncatalog defaults to %s\n\n", defaultCatalog)
		flag.PrintDefaults()
	}
	flag.Parse()
	path := defaultCatalog
	switch flag.NArg() {
	case 0:
	case 1:
		path = flag.Arg(0)
	default:
		flag.Usage()
		os.Exit(2)
	}
	if err := run(os.Stdout, path, *list); err != nil {
		fmt.Fprintln(os.Stderr, "summary:", err)
		os.Exit(1)
	}
}

// run loads the catalog at path and writes its summary to w.
func run(w io.Writer, path string, list bool) error {
	cat, err := graph.Load(path)
	if err != nil {
		return err
	}
	s := summarize(cat)
	fmt.Fprintf(w, "catalog: %s\n", path)
	fmt.Fprintf(w, "packages: %d\n", s.packages)
	fmt.Fprintf(w, "channels: %d\n", s.channels)
	fmt.Fprintf(w, "bundles: %d\n", s.bundles)
	fmt.Fprintf(w, "channel entries: %d\n", s.entries)
	fmt.Fprintf(w, "channel heads: %d (channels with one head: %d, several: %d, none: %d)\n",
		s.heads, s.oneHead, s.manyHeads, s.noHead)
	if s.others > 0 {
		fmt.Fprintf(w, "other blobs: %d\n", s.others)
	}
	rep, err := check.Run(context.Background(), []check.Input{{Name: path, Catalog: cat}}, check.Options{Checks: []check.Check{check.Structural}})
	if err != nil {
		return err
	}
	fs := rep.Findings
	n := check.CountSeverities(fs)
	fmt.Fprintf(w, "findings: %s, %s, %d info\n", plural(n.Error, "error"), plural(n.Warning, "warning"), n.Info)
	counts := rep.Counts()
	// Most severe first, then by code.
	slices.SortStableFunc(counts, func(a, b check.CodeCount) int { return cmp.Compare(b.Severity, a.Severity) })
	for _, c := range counts {
		fmt.Fprintf(w, "  %-8s %-28s %d\n", c.Severity, c.Code, c.Count)
	}
	if rejected := rejectedPackages(fs); len(rejected) > 0 {
		fmt.Fprintf(w, "packages with errors: %d\n", len(rejected))
	}
	if list {
		for _, f := range fs {
			fmt.Fprintf(w, "%s (%s)\n", f, f.Pos)
		}
	}
	return nil
}

// summary holds the counts run prints.
type summary struct {
	packages, channels, bundles, entries int
	heads, oneHead, manyHeads, noHead    int
	others                               int
}

func summarize(cat *graph.Catalog) summary {
	var s summary
	for _, p := range cat.Packages() {
		s.packages++
		s.bundles += len(p.Bundles)
		for _, ch := range p.Channels {
			s.channels++
			s.entries += len(ch.Entries)
			h := len(ch.Heads())
			s.heads += h
			switch {
			case h == 0:
				s.noHead++
			case h == 1:
				s.oneHead++
			default:
				s.manyHeads++
			}
		}
	}
	s.others = len(cat.Others())
	return s
}

// rejectedPackages returns the packages with an error finding; findings
// are sorted by package.
func rejectedPackages(fs []check.Finding) []string {
	var out []string
	for _, f := range fs {
		if f.Severity >= graph.SeverityError && (len(out) == 0 || out[len(out)-1] != f.Package) {
			out = append(out, f.Package)
		}
	}
	return out
}

// plural is "1 word" or "n words", as sextant check counts (info is a mass
// noun: "0 info", "3 info").
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
