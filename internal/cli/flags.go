package cli

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/docstream"
	"github.com/sextantdev/sextant/internal/fileerr"
)

// choice is a flag value restricted to a fixed set of words. An invalid
// value is a flag error, which Run maps to exit status 2.
type choice struct {
	value   string
	allowed []string
}

func (c *choice) String() string { return c.value }

func (c *choice) Type() string { return "string" }

func (c *choice) Set(s string) error {
	for _, a := range c.allowed {
		if s == a {
			c.value = s
			return nil
		}
	}
	return fmt.Errorf("want one of %s", strings.Join(c.allowed, ", "))
}

// addChoiceFlag adds a flag whose value must be one of allowed; the first
// is the default.
func addChoiceFlag(cmd *cobra.Command, name, short, usage string, allowed ...string) *choice {
	c := &choice{value: allowed[0], allowed: allowed}
	cmd.Flags().VarP(c, name, short, fmt.Sprintf("%s: %s", usage, strings.Join(allowed, "|")))
	return c
}

// addOutputFlag adds -o/--output with the given formats; the first is the
// default.
func addOutputFlag(cmd *cobra.Command, formats ...string) *choice {
	return addChoiceFlag(cmd, "output", "o", "format", formats...)
}

// addFilenameFlag adds the repeatable -f/--filename flag ("-" is standard
// input, a folder is every manifest in it) and -R/--recursive for commands
// that read manifests; the world reads them (sextant.Input.Manifests and
// Recursive, see env.worldInput).
func addFilenameFlag(cmd *cobra.Command, files *[]string, recursive *bool, usage string) {
	cmd.Flags().StringArrayVarP(files, "filename", "f", nil, usage+": a `FILE`, a folder or \"-\" (repeatable)")
	cmd.Flags().BoolVarP(recursive, "recursive", "R", false, "read the folders given with -f recursively")
}

// addNamespaceFlag adds -n/--namespace.
func addNamespaceFlag(cmd *cobra.Command, ns *string, usage string) {
	cmd.Flags().StringVarP(ns, "namespace", "n", "", usage)
}

// stdinName names standard input in messages and positions.
const stdinName = "<stdin>"

// context is the context of the run.
func (e *env) context() context.Context {
	if e.ctx == nil {
		return context.Background()
	}
	return e.ctx
}

// limits are the size limits set with --max-input-size and
// --max-document-size (0: the libraries' defaults).
type limits struct {
	input, document sizeFlag
}

func (l limits) catalogLoader() graph.Loader {
	return graph.Loader{MaxBytes: int64(l.input), MaxBlob: int64(l.document)}
}

func (l limits) clusterLoader() cluster.Loader {
	return cluster.Loader{MaxBytes: int64(l.input), MaxDocument: int64(l.document)}
}

// addLimitFlags adds the size limit flags, for every command.
func addLimitFlags(root *cobra.Command, l *limits) {
	root.PersistentFlags().Var(&l.input, "max-input-size",
		fmt.Sprintf("largest file read, uncompressed (default %s; -1: no limit)", docstream.Size(graph.DefaultMaxBytes)))
	root.PersistentFlags().Var(&l.document, "max-document-size",
		fmt.Sprintf("largest blob or document read (default %s; -1: no limit)", docstream.Size(graph.DefaultMaxBlob)))
}

// sizeFlag is a byte count given as a number with an optional unit: B, KiB,
// MiB, GiB (or K, M, G, KB, MB, GB, all binary). 0 keeps the default.
type sizeFlag int64

func (f *sizeFlag) String() string {
	if *f == 0 {
		return ""
	}
	return docstream.Size(int64(*f))
}

func (f *sizeFlag) Type() string { return "size" }

func (f *sizeFlag) Set(v string) error {
	t := strings.TrimSpace(v)
	if t == "-1" {
		*f = -1
		return nil
	}
	mult := int64(1)
	upper := strings.ToUpper(t)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"GIB", 1 << 30}, {"MIB", 1 << 20}, {"KIB", 1 << 10}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(upper, u.suffix) {
			t, mult = strings.TrimSpace(t[:len(t)-len(u.suffix)]), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return fmt.Errorf("invalid size %q: want a positive number of bytes with an optional unit (KiB, MiB, GiB), or -1", v)
	}
	*f = sizeFlag(n * mult)
	return nil
}

// loadCatalog reads the catalog at path — an FBC file or folder, "-" for
// standard input, or a catalog image (see imageReference). The error names
// the path. A catalog with no blob at all (an empty file, a folder with no
// catalog file) is read as opm serves it: a catalog that serves nothing
// (check reports it as a finding; graph finds no package in it).
func (e *env) loadCatalog(path string) (*graph.Catalog, error) {
	prepareHeap()
	var cat *graph.Catalog
	if path == "-" {
		r, err := e.takeStdin(`catalog "-"`)
		if err != nil {
			return nil, err
		}
		if cat, err = e.limits.catalogLoader().Decode(e.context(), r, stdinName); err != nil {
			return nil, advise(fileerr.Name(err, stdinName), e.catalogAdvice)
		}
	} else {
		ref, isImage, err := imageReference(path)
		if err != nil {
			return nil, err
		}
		if isImage {
			cat, info, err := e.loadImage(ref)
			if err == nil {
				e.notef("read catalog image %s", imageSummary(info))
			}
			return cat, err
		}
		if _, err := os.Stat(path); err != nil {
			return nil, fileerr.Path(path, err)
		}
		if cat, err = e.limits.catalogLoader().Load(e.context(), path); err != nil {
			return nil, advise(fileerr.Name(err, path), e.catalogAdvice)
		}
	}
	return cat, nil
}
