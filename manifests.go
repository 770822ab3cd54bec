package sextant

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/docstream"
	"github.com/sextantdev/sextant/internal/fileerr"
	"github.com/sextantdev/sextant/internal/words"
)

// manifestFile is one manifest input: a path, read when decoded, one
// document at a time; or a stream, read once into data (it may be decoded
// twice), within the size limit and failing at the first binary byte.
type manifestFile struct {
	name   string
	data   []byte
	stream bool
}

// open returns the input's stream; close it when done.
func (in manifestFile) open() (io.ReadCloser, error) {
	if in.stream {
		return memoryInput{bytes.NewReader(in.data)}, nil
	}
	f, err := os.Open(in.name)
	if err != nil {
		return nil, fileerr.Path(in.name, err)
	}
	return f, nil
}

// memoryInput is an input read into memory: its Len tells the readers its
// size.
type memoryInput struct{ *bytes.Reader }

// Close does nothing.
func (memoryInput) Close() error { return nil }

// manifestExtensions are the file name extensions of the manifests read
// from a folder, as kubectl reads them.
var manifestExtensions = []string{".yaml", ".yml", ".json"}

// listManifests lists the manifest inputs of files in order, reading the
// streams; every file that cannot be read is reported, each naming its
// path.
func (l *loader) listManifests(files []File) ([]manifestFile, error) {
	var ins []manifestFile
	var errs []error
	for _, f := range files {
		if f.Reader != nil {
			data, err := l.readStream(f.Reader, f.name())
			if err != nil {
				errs = append(errs, err)
				continue
			}
			ins = append(ins, manifestFile{name: f.name(), data: data, stream: true})
			continue
		}
		fi, err := os.Stat(f.Path)
		if err != nil {
			errs = append(errs, fileerr.Path(f.Path, err))
			continue
		}
		if fi.IsDir() {
			dirIns, err := l.readFolder(f.Path)
			if err != nil {
				errs = appendErrors(errs, err)
			}
			ins = append(ins, dirIns...)
			continue
		}
		ins = append(ins, manifestFile{name: f.Path})
	}
	return ins, errors.Join(errs...)
}

// readStream reads a stream whole, within the input size limit, stopping
// at the first binary byte (so /dev/zero fails at once).
func (l *loader) readStream(r io.Reader, name string) ([]byte, error) {
	data, err := docstream.ReadAll(r, docstream.Limit(l.opts.Limits.MaxBytes, cluster.DefaultMaxBytes))
	var be *graph.BinaryError
	switch {
	case errors.As(err, &be):
		return nil, fmt.Errorf("%s:%d: %w", name, be.Line, err)
	case err != nil:
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return data, nil
}

// readFolder lists every manifest file of the folder dir, in lexical order
// of path; with Input.Recursive, its subfolders' too. A folder without any
// manifest is an error (almost always a wrong path). What is not read —
// files of other extensions, subfolders without Recursive, anything but a
// regular file — is counted in one note.
func (l *loader) readFolder(dir string) ([]manifestFile, error) {
	var ins []manifestFile
	var errs []error
	var otherFiles, subfolders, special int
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, fileerr.Path(path, err))
			if d != nil && d.IsDir() && path != dir {
				return fs.SkipDir
			}
			return nil
		}
		switch {
		case d.IsDir():
			if path != dir && !l.in.Recursive {
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
		ins = append(ins, manifestFile{name: path})
		return nil
	})
	if err != nil {
		errs = append(errs, fileerr.Path(dir, err))
	}
	var skipped []string
	if otherFiles > 0 {
		skipped = append(skipped, words.Plural(otherFiles, "file")+" not named .yaml, .yml or .json")
	}
	if special > 0 {
		skipped = append(skipped, words.Plural(special, "file")+" that are not regular (FIFO, socket, device)")
	}
	code := NoteSkippedFiles
	if subfolders > 0 {
		skipped = append(skipped, words.Plural(subfolders, "subfolder"))
		code = NoteSkippedSubfolders
	}
	if len(skipped) > 0 && len(ins) > 0 {
		l.note(Note{Code: code, File: dir, Text: fmt.Sprintf("%s: skipped %s", dir, strings.Join(skipped, ", "))})
	}
	if len(ins) == 0 && len(errs) == 0 {
		errs = append(errs, &EmptyInputError{File: dir, Folder: true, Subfolders: subfolders})
	}
	return ins, errors.Join(errs...)
}

// decodeManifests decodes one input's manifests within the size limits.
func (l *loader) decodeManifests(in manifestFile) (*cluster.State, error) {
	r, err := in.open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	ml := l.opts.Limits.ManifestLoader()
	ml.V1FeatureSet = l.opts.V1.FeatureSet
	return ml.Decode(l.ctx, r, in.name)
}

// decodeObjects reads every object of one input (see
// cluster.DecodeObjects).
func (l *loader) decodeObjects(in manifestFile) ([]cluster.Object, error) {
	r, err := in.open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return cluster.DecodeObjects(docstream.LimitReader(r, docstream.Limit(l.opts.Limits.MaxBytes, cluster.DefaultMaxBytes)), in.name)
}

// readState decodes the manifests of every file into one state and
// records the file each object comes from. Every problem is reported; an
// object defined twice is an error naming both files.
func (l *loader) readState(files []File) (*cluster.State, error) {
	// Each file on its own, so that the files that can be read are still
	// checked when another cannot.
	var ins []manifestFile
	var errs []error
	for _, f := range files {
		in, err := l.listManifests([]File{f})
		if err != nil {
			errs = appendErrors(errs, err)
			continue
		}
		ins = append(ins, in...)
	}
	state := &cluster.State{}
	merged := 0
	for _, in := range ins {
		s, err := l.decodeManifests(in)
		if err != nil {
			errs = appendErrors(errs, fileerr.Name(err, in.name))
			continue
		}
		if len(s.Refs()) == 0 && len(s.Ignored) == 0 {
			if err := emptyManifests(in); err != nil {
				errs = append(errs, err)
				continue
			}
		}
		for _, k := range s.Refs() {
			if prev, ok := l.files[k]; ok {
				errs = append(errs, &DefinedTwiceError{File: in.name, Object: k, Prev: prev})
				continue
			}
			l.files[k] = in.name
		}
		if merged == 0 {
			state = s // nothing to merge into: no copy
		} else {
			state.Merge(s) // what it leaves out is reported above
		}
		merged++
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	state.Sort()
	return state, nil
}

// emptyManifests returns the error for an input that decoded to no object
// at all when it is empty — nothing but white space, comments and document
// markers — and nil otherwise (an empty List says what it is).
func emptyManifests(in manifestFile) error {
	r, err := in.open()
	if err != nil {
		return err
	}
	defer r.Close()
	blank, err := docstream.IsBlank(r)
	if err != nil || !blank {
		return err
	}
	return &EmptyInputError{File: in.name, Stream: in.stream}
}

// appendErrors appends err to errs, or the errors it joins, so that every
// problem keeps a line of its own.
func appendErrors(errs []error, err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			errs = appendErrors(errs, e)
		}
		return errs
	}
	return append(errs, err)
}
