package graph

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
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
// A JSON stream is read through a small window and decoded in one pass;
// the catalog keeps copies of property values and unknown blobs (packed in a
// few large blocks) and nothing else of the input: icons, descriptions,
// relatedImages and unknown fields are skipped. YAML is read whole and
// converted document by document. Decode, Load, LoadFile, LoadDir and LoadFS
// are safe for concurrent use.
func Decode(r io.Reader, name string) (*Catalog, error) {
	d := newDecoder(NewBuilder())
	size := int64(-1)
	if l, ok := r.(interface{ Len() int }); ok {
		size = int64(l.Len())
	}
	d.decodeReader(name, r, size)
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
	d := newDecoder(NewBuilder())
	d.decodeFile(path, func(name string) (fs.File, error) { return os.Open(name) })
	return d.build()
}

// LoadDir reads every .json, .yaml and .yml file (and their .gz forms) below
// dir, recursively and in lexical order, into one catalog. Other files are
// ignored. Errors are as for Decode: every problem of every file is
// reported, positions naming each file by its path.
func LoadDir(dir string) (*Catalog, error) {
	return loadTree(dir, filepath.WalkDir, func(name string) (fs.File, error) { return os.Open(name) })
}

// LoadFS is LoadDir on a file system: it reads every catalog file below
// root (a slash-separated path in fsys; "." for all of it). Positions name
// files by their path in fsys.
func LoadFS(fsys fs.FS, root string) (*Catalog, error) {
	walk := func(root string, fn fs.WalkDirFunc) error { return fs.WalkDir(fsys, root, fn) }
	return loadTree(root, walk, fsys.Open)
}

// loadTree decodes every catalog file that walk finds below root, opening
// each with open. An unreadable folder or file is an error that names it;
// the walk goes on.
func loadTree(root string, walk func(string, fs.WalkDirFunc) error, open func(string) (fs.File, error)) (*Catalog, error) {
	d := newDecoder(NewBuilder())
	err := walk(root, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			d.errs = append(d.errs, &DecodeError{File: p, Offset: -1, Err: err})
			if de != nil && de.IsDir() && p != root {
				return fs.SkipDir
			}
			return nil
		}
		if de.IsDir() || !isCatalogFile(de.Name()) {
			return nil
		}
		d.decodeFile(p, open)
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

// decodeFile opens and decodes one file.
func (d *decoder) decodeFile(name string, open func(string) (fs.File, error)) {
	f, err := open(name)
	if err != nil {
		d.errs = append(d.errs, &DecodeError{File: name, Offset: -1, Err: err})
		return
	}
	defer f.Close()
	size := int64(-1)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	d.decodeReader(name, f, size)
}

// defaultWindow is the initial size of the window a JSON stream is read
// through; it grows to hold the largest blob.
const defaultWindow = 256 << 10

// decodeReader decodes one file read from r: gzip-compressed or not, a JSON
// stream or YAML. size is the file's size when known (a hint), else -1.
func (d *decoder) decodeReader(name string, r io.Reader, size int64) {
	d.file, d.r, d.eof, d.base, d.keep = name, r, false, 0, true
	d.lineOff, d.line, d.doc = 0, 1, nil
	if d.window == 0 {
		d.window = defaultWindow
	}
	if cap(d.win) == 0 {
		w := d.window
		if size >= 0 && size < int64(w) {
			w = max(int(size)+1, 64) // a small file: no larger window
		}
		d.win = make([]byte, 0, w)
	}
	d.data = d.win[:0]
	defer func() {
		if cap(d.data) > cap(d.win) {
			d.win = d.data[:0]
		}
		d.data, d.r = nil, nil
	}()
	d.fillAtLeast(3)
	if isGzip(d.data) {
		prefix := bytes.Clone(d.data)
		zr, err := gzip.NewReader(io.MultiReader(bytes.NewReader(prefix), r))
		if err != nil {
			d.errs = append(d.errs, &DecodeError{File: name, Offset: -1, Err: fmt.Errorf("invalid gzip data: %w", err)})
			return
		}
		d.r, d.eof, d.data = gzipErrors{zr}, false, d.data[:0]
		d.fillAtLeast(3)
	}
	if bytes.HasPrefix(d.data, []byte("\xef\xbb\xbf")) {
		copy(d.data, "   ") // the window is ours; offsets stay the file's
	}
	i := 0
	for {
		for i < len(d.data) && (d.data[i] == ' ' || d.data[i] == '\t' || d.data[i] == '\n' || d.data[i] == '\r') {
			i++
		}
		if i < len(d.data) || d.eof {
			break
		}
		d.fill() // grows the window: YAML needs the whole file
	}
	if i == len(d.data) {
		return // nothing but white space
	}
	if d.data[i] == '{' {
		d.decodeJSON()
		return
	}
	for !d.eof {
		d.fill()
	}
	data := d.data
	d.r, d.keep = nil, false
	d.decodeYAML(data)
	d.data = data
}

// fillAtLeast reads until the window holds n bytes or the input ends.
func (d *decoder) fillAtLeast(n int) {
	for len(d.data) < n && !d.eof {
		d.fill()
	}
}

// gzipErrors words the errors of a gzip stream.
type gzipErrors struct{ r io.Reader }

func (g gzipErrors) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("invalid gzip data: %w", err)
	}
	return n, err
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
