package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant/graph"
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
	return addChoiceFlag(cmd, "output", "o", "output format", formats...)
}

// addFilenameFlag adds the repeatable -f/--filename flag ("-" is standard
// input, a folder is every manifest in it) and -R/--recursive for commands
// that read manifests; read them with env.readInputs, with env.recursive
// set from recursive.
func addFilenameFlag(cmd *cobra.Command, files *[]string, recursive *bool, usage string) {
	cmd.Flags().StringArrayVarP(files, "filename", "f", nil, usage+` (repeatable; "-" reads standard input; a folder, every .yaml, .yml and .json file in it)`)
	cmd.Flags().BoolVarP(recursive, "recursive", "R", false, "read the folders given with -f recursively")
}

// addNamespaceFlag adds -n/--namespace.
func addNamespaceFlag(cmd *cobra.Command, ns *string, usage string) {
	cmd.Flags().StringVarP(ns, "namespace", "n", "", usage)
}

// stdinName names standard input in messages and positions.
const stdinName = "<stdin>"

// input is one file given with -f, read whole.
type input struct {
	Name string // the path, or "<stdin>"
	Data []byte
}

// readInputs reads the files named with -f in order; "-" reads standard
// input. Every unreadable file is reported, each naming its path.
func (e *env) readInputs(names []string) ([]input, error) {
	var ins []input
	var errs []error
	for _, name := range names {
		if name == "-" {
			r, err := e.takeStdin(`-f "-"`)
			if err != nil {
				return nil, err
			}
			data, err := io.ReadAll(r)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", stdinName, err))
				continue
			}
			ins = append(ins, input{Name: stdinName, Data: data})
			continue
		}
		fi, err := os.Stat(name)
		if err != nil {
			errs = append(errs, pathError(name, err))
			continue
		}
		if fi.IsDir() {
			dirIns, err := e.readFolder(name)
			if err != nil {
				errs = appendErrors(errs, err)
			}
			ins = append(ins, dirIns...)
			continue
		}
		data, err := os.ReadFile(name)
		if err != nil {
			errs = append(errs, pathError(name, err))
			continue
		}
		ins = append(ins, input{Name: name, Data: data})
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return ins, nil
}

// loadCatalog reads the catalog at path — an FBC file or folder, or "-" for
// standard input. The error names the path. A catalog with no blob at all
// (an empty file, a folder with no catalog file) is an error: it is almost
// always a wrong path, and checking it would pass silently.
func (e *env) loadCatalog(path string) (*graph.Catalog, error) {
	var cat *graph.Catalog
	name := path
	if path == "-" {
		name = stdinName
		r, err := e.takeStdin(`catalog "-"`)
		if err != nil {
			return nil, err
		}
		if cat, err = graph.Decode(r, stdinName); err != nil {
			return nil, naming(err, stdinName)
		}
	} else {
		fi, err := os.Stat(path)
		if err != nil {
			return nil, pathError(path, err)
		}
		if cat, err = graph.Load(path); err != nil {
			return nil, naming(err, path)
		}
		if fi.IsDir() && len(cat.Packages()) == 0 && len(cat.Others()) == 0 {
			return nil, fmt.Errorf("%s: no catalog in the folder (no .json, .yaml or .yml file, plain or .gz, with a blob)", path)
		}
	}
	if len(cat.Packages()) == 0 && len(cat.Others()) == 0 {
		return nil, fmt.Errorf("%s: the catalog is empty (no blob)", name)
	}
	return cat, nil
}

// naming makes sure every problem in err names the file: a message that
// does not mention name gets it as a prefix. Joined errors stay joined.
func naming(err error, name string) error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs := j.Unwrap()
		out := make([]error, len(errs))
		for i, e := range errs {
			out[i] = naming(e, name)
		}
		return errors.Join(out...)
	}
	if strings.Contains(err.Error(), name) {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// pathError turns "open PATH: no such file or directory" into "PATH: no such
// file or directory"; errors.Is still sees the cause.
func pathError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", path, pe.Err)
	}
	return naming(err, path)
}

// manifestExtensions are the file name extensions of the manifests read
// from a folder, as kubectl reads them.
var manifestExtensions = []string{".yaml", ".yml", ".json"}

// readFolder reads every manifest file of the folder dir, in lexical order
// of path; with e.recursive, its subfolders too. A folder without any
// manifest is an error (almost always a wrong path). What is not read —
// files of other extensions, subfolders without -R, anything but a regular
// file — is counted in one note.
func (e *env) readFolder(dir string) ([]input, error) {
	var ins []input
	var errs []error
	var otherFiles, subfolders, special int
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, pathError(path, err))
			if d != nil && d.IsDir() && path != dir {
				return fs.SkipDir
			}
			return nil
		}
		switch {
		case d.IsDir():
			if path != dir && !e.recursive {
				subfolders++
				return fs.SkipDir
			}
			return nil
		case !slices.Contains(manifestExtensions, filepath.Ext(path)):
			otherFiles++
			return nil
		case !d.Type().IsRegular():
			special++
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			errs = append(errs, pathError(path, err))
			return nil
		}
		ins = append(ins, input{Name: path, Data: data})
		return nil
	})
	if err != nil {
		errs = append(errs, pathError(dir, err))
	}
	var skipped []string
	if otherFiles > 0 {
		skipped = append(skipped, plural(otherFiles, "file")+" not named .yaml, .yml or .json")
	}
	if special > 0 {
		skipped = append(skipped, plural(special, "file")+" that are not regular (FIFO, socket, device)")
	}
	if subfolders > 0 {
		skipped = append(skipped, plural(subfolders, "subfolder")+" (-R reads them)")
	}
	if len(skipped) > 0 && len(ins) > 0 {
		e.notef("%s: skipped %s", dir, strings.Join(skipped, ", "))
	}
	if len(ins) == 0 && len(errs) == 0 {
		hint := ""
		if subfolders > 0 {
			hint = "; -R reads its subfolders"
		}
		errs = append(errs, fmt.Errorf("%s: no manifest in the folder (no .yaml, .yml or .json file%s)", dir, hint))
	}
	return ins, errors.Join(errs...)
}
