// Package fileerr makes every problem of an input file name its file, the
// one rule the world's inputs (package sextant) and the command line's own
// readers share.
package fileerr

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

// Name makes sure every problem in err names the file: one that is not a
// typed error carrying its file (see [NamesFile]) gets name as a prefix.
// Joined errors stay joined, each named.
func Name(err error, name string) error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs := j.Unwrap()
		out := make([]error, len(errs))
		for i, e := range errs {
			out[i] = Name(e, name)
		}
		return errors.Join(out...)
	}
	if NamesFile(err) {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// NamesFile reports whether err is, or wraps, an error that states its
// file: a catalog's decode or duplicate error, a manifest's error, an
// invalid package's finding at its position, or a file system error with
// its path.
func NamesFile(err error) bool {
	var de *graph.DecodeError
	if errors.As(err, &de) {
		return de.File != ""
	}
	var dup *graph.DuplicateError
	if errors.As(err, &dup) {
		return dup.Second.File != ""
	}
	var ce *cluster.Error
	if errors.As(err, &ce) {
		return ce.File != ""
	}
	var ip *resolver.InvalidPackageError
	if errors.As(err, &ip) {
		return ip.Finding.Pos.File != ""
	}
	var pe *fs.PathError
	return errors.As(err, &pe)
}

// Path turns "open PATH: no such file or directory" into "PATH: no such
// file or directory" (errors.Is still sees the cause); any other error is
// named as [Name] names it.
func Path(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", path, pe.Err)
	}
	return Name(err, path)
}
