package graph

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Decode reads one FBC stream — concatenated JSON objects or multi-document
// YAML, optionally gzip-compressed — and builds a catalog. name labels
// positions and errors (a file name; it may be empty).
//
// The format is chosen by content: input whose first non-space byte is '{'
// is a JSON stream, anything else is YAML. Blobs of unknown schemas are kept
// (Catalog.Others); a blob with no schema is an error. Every problem of the
// input is reported: the error joins one *DecodeError per problem (and the
// errors of Builder.Build, such as a *DuplicateError), and the catalog is
// nil. After malformed JSON, decoding resumes at the next line starting with
// '{', so later problems are reported too.
//
// The catalog keeps the bytes read from r: property values and unknown blobs
// are slices of them. Decode, Load, LoadFile, LoadDir and LoadFS are safe for
// concurrent use.
func Decode(r io.Reader, name string) (*Catalog, error) {
	data, err := readAll(r)
	if err != nil {
		return nil, &DecodeError{File: name, Offset: -1, Err: err}
	}
	b := NewBuilder()
	d := newDecoder(b)
	d.decodeData(name, data)
	return d.build()
}

// Load reads a catalog from a file or a folder: see LoadFile and LoadDir.
func Load(path string) (*Catalog, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, &DecodeError{File: path, Offset: -1, Err: err}
	}
	if fi.IsDir() {
		return LoadDir(path)
	}
	return LoadFile(path)
}

// LoadFile reads a catalog from one file: a JSON stream or multi-document
// YAML (normally named .json, .yaml or .yml), optionally gzip-compressed
// (.gz; compression is recognised by its magic bytes whatever the name).
// Errors are as for Decode, positions naming path.
func LoadFile(path string) (*Catalog, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &DecodeError{File: path, Offset: -1, Err: err}
	}
	d := newDecoder(NewBuilder())
	d.decodeData(path, data)
	return d.build()
}

// LoadDir reads every .json, .yaml and .yml file (and their .gz forms) below
// dir, recursively and in lexical order, into one catalog. Other files are
// ignored. Errors are as for Decode: every problem of every file is
// reported, positions naming each file by its path.
func LoadDir(dir string) (*Catalog, error) {
	d := newDecoder(NewBuilder())
	err := filepath.WalkDir(dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			d.errs = append(d.errs, &DecodeError{File: p, Offset: -1, Err: err})
			if de != nil && de.IsDir() && p != dir {
				return fs.SkipDir
			}
			return nil
		}
		if de.IsDir() || !isCatalogFile(de.Name()) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			d.errs = append(d.errs, &DecodeError{File: p, Offset: -1, Err: err})
			return nil
		}
		d.decodeData(p, data)
		return nil
	})
	if err != nil {
		d.errs = append(d.errs, &DecodeError{File: dir, Offset: -1, Err: err})
	}
	return d.build()
}

// LoadFS is LoadDir on a file system: it reads every catalog file below
// root (a slash-separated path in fsys; "." for all of it). Positions name
// files by their path in fsys.
func LoadFS(fsys fs.FS, root string) (*Catalog, error) {
	d := newDecoder(NewBuilder())
	err := fs.WalkDir(fsys, root, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			d.errs = append(d.errs, &DecodeError{File: p, Offset: -1, Err: err})
			if de != nil && de.IsDir() && p != root {
				return fs.SkipDir
			}
			return nil
		}
		if de.IsDir() || !isCatalogFile(path.Base(p)) {
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			d.errs = append(d.errs, &DecodeError{File: p, Offset: -1, Err: err})
			return nil
		}
		d.decodeData(p, data)
		return nil
	})
	if err != nil {
		d.errs = append(d.errs, &DecodeError{File: root, Offset: -1, Err: err})
	}
	return d.build()
}

// isCatalogFile reports whether a file name has a catalog extension.
func isCatalogFile(name string) bool {
	name = strings.TrimSuffix(name, ".gz")
	return strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")
}

// decodeData decodes one file's raw contents, decompressing gzip.
func (d *decoder) decodeData(name string, data []byte) {
	if isGzip(data) {
		var err error
		if data, err = gunzip(data); err != nil {
			d.errs = append(d.errs, &DecodeError{File: name, Offset: -1, Err: fmt.Errorf("invalid gzip data: %w", err)})
			return
		}
	}
	d.decodeFile(name, data)
}

// build builds the catalog and joins every problem.
func (d *decoder) build() (*Catalog, error) {
	c, err := d.b.Build()
	if err != nil {
		d.errs = append(d.errs, err)
	}
	if len(d.errs) > 0 {
		return nil, errors.Join(d.errs...)
	}
	return c, nil
}

func isGzip(data []byte) bool {
	return len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b
}

// gunzip decompresses data, allocating the output once when the trailer's
// size is right.
func gunzip(data []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	size := 0
	if len(data) >= 18 {
		// ISIZE: the uncompressed size modulo 2^32 of the last member.
		size = int(binary.LittleEndian.Uint32(data[len(data)-4:]))
		if size > 64*len(data) {
			size = 0 // implausible; let the buffer grow
		}
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	if _, err := buf.ReadFrom(zr); err != nil {
		return nil, err
	}
	if err := zr.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// readAll reads r to the end, sizing the buffer once when r knows its
// length.
func readAll(r io.Reader) ([]byte, error) {
	var buf bytes.Buffer
	if l, ok := r.(interface{ Len() int }); ok {
		buf.Grow(l.Len() + bytes.MinRead)
	}
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
