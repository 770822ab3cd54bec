package graph

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/sextantdev/sextant/internal/docstream"
)

// Default limits of a Loader (and of Decode, Load, LoadFile, LoadDir and
// LoadFS). The largest real catalogs are under 20 MB, with blobs under 5 MB.
const (
	// DefaultMaxBytes limits the uncompressed size of one catalog file.
	DefaultMaxBytes = 1 << 30
	// DefaultMaxBlob limits the size of one JSON blob or YAML document.
	DefaultMaxBlob = 64 << 20
)

// LimitError reports input over a size limit of a Loader: What is "input"
// (a file's uncompressed size, limit Loader.MaxBytes) or "blob" or
// "document" (limit Loader.MaxBlob). It is the Err of a *DecodeError that
// names the file.
type LimitError = docstream.TooLargeError

// BinaryError reports binary data where a catalog (or manifest) must hold
// text: a control character other than tab, line feed and carriage return.
// Decoding stops at the first one; it is the Err of a *DecodeError that
// names the file and the position.
type BinaryError = docstream.BinaryError

// Loader reads catalogs within size limits, honouring a context. The zero
// value reads with the default limits. A Loader is a value: it may be
// copied and used concurrently; each load owns its tables (interned
// strings, parsed ranges), so concurrent loads never wait for each other.
type Loader struct {
	// MaxBytes limits the uncompressed size of each file (for a gzip
	// file, of what it expands to); 0 means DefaultMaxBytes, a negative
	// value no limit.
	MaxBytes int64
	// MaxBlob limits the size of one JSON blob or one YAML document; 0
	// means DefaultMaxBlob, a negative value no limit.
	MaxBlob int64
}

func (l Loader) limits() (maxBytes, maxBlob int64) {
	return docstream.Limit(l.MaxBytes, DefaultMaxBytes), docstream.Limit(l.MaxBlob, DefaultMaxBlob)
}

func (l Loader) decoder(ctx context.Context) *decoder {
	d := newDecoder(NewBuilder())
	d.ctx = ctx
	d.maxBytes, d.maxBlob = l.limits()
	return d
}

// Decode reads one FBC stream — concatenated JSON objects or multi-document
// YAML, optionally gzip-compressed — and builds a catalog. name labels
// positions and errors (a file name; it may be empty).
//
// The format is chosen by name and content: when name ends in .json (or
// .json.gz) the stream is JSON, and its errors say so; otherwise input whose
// first non-space byte is '{' is a JSON stream (a later line starting with
// "---" switches to YAML for the rest), and anything else is YAML, whose
// documents may themselves be JSON. Blobs of unknown schemas are kept
// (Catalog.Others); a blob with no schema is an error. Every problem of the
// input is reported: the error joins one *DecodeError per problem (and the
// errors of Builder.Build, such as a *DuplicateError), and the catalog is
// nil. After malformed JSON, decoding resumes at the next line starting with
// '{', so later problems are reported too.
//
// Decoding stops at once, with an error naming the file, on binary data (a
// *BinaryError: a control character such as NUL, so /dev/zero and gzip
// bombs of zeros fail on their first byte), on input over a limit (a
// *LimitError), and when ctx is done (the error then matches
// errors.Is(err, ctx.Err())).
//
// A JSON stream is read through a small window and decoded in one pass,
// and YAML one document at a time; memory grows with the largest blob and
// with what the catalog keeps: copies of property values and unknown blobs
// (packed in a few large blocks) and bundles' relatedImages; icons,
// descriptions and unknown fields are skipped.
func (l Loader) Decode(ctx context.Context, r io.Reader, name string) (*Catalog, error) {
	d := l.decoder(ctx)
	size := int64(-1)
	if lr, ok := r.(interface{ Len() int }); ok {
		size = int64(lr.Len())
	}
	d.decodeReader(name, r, size)
	return d.build()
}

// Load reads a catalog from a file or a folder: see LoadFile and LoadDir.
func (l Loader) Load(ctx context.Context, path string) (*Catalog, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, &DecodeError{File: path, Offset: -1, Err: err}
	}
	if fi.IsDir() {
		return l.LoadDir(ctx, path)
	}
	return l.LoadFile(ctx, path)
}

// LoadFile reads a catalog from one file: a JSON stream or multi-document
// YAML (normally named .json, .yaml or .yml), optionally gzip-compressed
// (.gz; compression is recognised by its magic bytes whatever the name).
// Any file may be named, a device or a named pipe too: it is read with the
// same limits. Errors are as for Decode, positions naming path.
func (l Loader) LoadFile(ctx context.Context, path string) (*Catalog, error) {
	d := l.decoder(ctx)
	d.decodeFile(path, func(name string) (fs.File, error) { return os.Open(name) })
	return d.build()
}

// LoadDir reads every .json, .yaml and .yml file (and their .gz forms) below
// dir, recursively and in lexical order, into one catalog. Other files are
// ignored. A catalog-named entry that is not a regular file (a named pipe,
// socket or device, or a link to one) is an error naming it, and is not
// opened. Errors are as for Decode: every problem of every file is
// reported, positions naming each file by its path.
//
// A registry+v1 bundle (a folder whose metadata/annotations.yaml names the
// bundle media type), or its manifests/ folder, is not read: the error is a
// *NotCatalogError.
func (l Loader) LoadDir(ctx context.Context, dir string) (*Catalog, error) {
	open := func(name string) (fs.File, error) { return os.Open(name) }
	if bundle, ok := bundleOf(dir, filepath.Join, filepath.Dir, filepath.Base, open); ok {
		return nil, bundleError(dir, bundle)
	}
	return l.loadTree(ctx, dir, filepath.WalkDir, os.Stat, open)
}

// LoadFS is LoadDir on a file system: it reads every catalog file below
// root (a slash-separated path in fsys; "." for all of it). Positions name
// files by their path in fsys. A registry+v1 bundle is refused as by
// LoadDir.
func (l Loader) LoadFS(ctx context.Context, fsys fs.FS, root string) (*Catalog, error) {
	if bundle, ok := bundleOf(root, path.Join, path.Dir, path.Base, fsys.Open); ok {
		return nil, bundleError(root, bundle)
	}
	walk := func(root string, fn fs.WalkDirFunc) error { return fs.WalkDir(fsys, root, fn) }
	stat := func(name string) (fs.FileInfo, error) { return fs.Stat(fsys, name) }
	return l.loadTree(ctx, root, walk, stat, fsys.Open)
}

// Decode is Loader{}.Decode with a background context: default limits, no
// cancellation.
func Decode(r io.Reader, name string) (*Catalog, error) {
	return Loader{}.Decode(context.Background(), r, name)
}

// Load is Loader{}.Load with a background context.
func Load(path string) (*Catalog, error) {
	return Loader{}.Load(context.Background(), path)
}

// LoadFile is Loader{}.LoadFile with a background context.
func LoadFile(path string) (*Catalog, error) {
	return Loader{}.LoadFile(context.Background(), path)
}

// LoadDir is Loader{}.LoadDir with a background context.
func LoadDir(dir string) (*Catalog, error) {
	return Loader{}.LoadDir(context.Background(), dir)
}

// LoadFS is Loader{}.LoadFS with a background context.
func LoadFS(fsys fs.FS, root string) (*Catalog, error) {
	return Loader{}.LoadFS(context.Background(), fsys, root)
}

// loadTree decodes every catalog file that walk finds below root, opening
// each with open. An unreadable folder or file is an error that names it;
// the walk goes on.
func (l Loader) loadTree(ctx context.Context, root string, walk func(string, fs.WalkDirFunc) error, stat func(string) (fs.FileInfo, error), open func(string) (fs.File, error)) (*Catalog, error) {
	d := l.decoder(ctx)
	err := walk(root, func(p string, de fs.DirEntry, err error) error {
		if d.ctxErr != nil {
			return fs.SkipAll
		}
		if err != nil {
			d.errs = append(d.errs, &DecodeError{File: p, Offset: -1, Err: err})
			if de != nil && de.IsDir() && p != root {
				return fs.SkipDir
			}
			return nil
		}
		if de.IsDir() || !IsCatalogFile(de.Name()) {
			return nil
		}
		mode := de.Type()
		if mode&fs.ModeSymlink != 0 {
			fi, err := stat(p)
			if err != nil {
				d.errs = append(d.errs, &DecodeError{File: p, Offset: -1, Err: err})
				return nil
			}
			mode = fi.Mode().Type()
		}
		if !mode.IsRegular() {
			if mode.IsDir() {
				return nil // a link to a folder: not followed, as WalkDir does not
			}
			d.errs = append(d.errs, &DecodeError{File: p, Offset: -1, Err: fmt.Errorf("not a regular file (%s); only regular files are read from a folder", fileType(mode))})
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

// fileType names the type of a file that is not regular.
func fileType(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.String()
}

// IsCatalogFile reports whether a file name has a catalog extension, the
// files LoadDir, LoadFS and LoadSeq read: .json, .yaml or .yml, each
// optionally gzipped (.gz).
func IsCatalogFile(name string) bool {
	name = strings.TrimSuffix(name, ".gz")
	return strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")
}

// isJSONName reports whether a file name says JSON.
func isJSONName(name string) bool {
	return strings.HasSuffix(strings.TrimSuffix(name, ".gz"), ".json")
}

// decodeFile opens and decodes one file.
func (d *decoder) decodeFile(name string, open func(string) (fs.File, error)) {
	if d.cancelled() {
		return
	}
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
	d.file, d.eof, d.base, d.keep, d.cut, d.size = name, false, 0, true, "", size
	d.r = docstream.LimitReader(r, d.maxBytes)
	d.lineOff, d.line, d.col, d.backOff, d.doc = 0, 1, 1, -1, nil
	d.jsonOnly = isJSONName(name)
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
		zr, err := gzip.NewReader(io.MultiReader(bytes.NewReader(prefix), d.r))
		if err != nil {
			d.errs = append(d.errs, &DecodeError{File: name, Offset: -1, Err: fmt.Errorf("invalid gzip data: %w", err)})
			return
		}
		// Decompress on a second goroutine, ahead of decoding.
		ahead := newAheadReader(docstream.LimitReader(gzipErrors{zr}, d.maxBytes))
		defer ahead.Close()
		d.r, d.eof, d.data, d.size = ahead, false, d.data[:0], -1
		d.fillAtLeast(3)
	}
	if bytes.HasPrefix(d.data, []byte("\xef\xbb\xbf")) {
		copy(d.data, "   ") // the window is ours; offsets stay the file's
	}
	for {
		i := 0
		for i < len(d.data) && (d.data[i] == ' ' || d.data[i] == '\t' || d.data[i] == '\n' || d.data[i] == '\r') {
			i++
		}
		if i < len(d.data) || d.eof {
			if i == len(d.data) {
				return // nothing but white space
			}
			if !d.jsonOnly && d.data[i] != '{' {
				break
			}
			d.discard(i)
			d.decodeJSON()
			return
		}
		// White space only so far: drop its whole lines, keeping the window
		// small (the indentation of a line matters to YAML; a line of white
		// space longer than 64 KiB is dropped too).
		keep := bytes.LastIndexByte(d.data[:i], '\n') + 1
		if i-keep > 64<<10 {
			keep = i
		}
		d.discard(keep)
		d.fill()
	}
	d.decodeYAML()
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

// cancelled reports whether the load's context is done, recording its
// error once.
func (d *decoder) cancelled() bool {
	if d.ctxErr != nil {
		return true
	}
	if d.ctx == nil {
		return false
	}
	if err := d.ctx.Err(); err != nil {
		d.ctxErr = err
		return true
	}
	return false
}

// build builds the catalog and joins every problem. A cancelled load
// returns the context's error alone.
func (d *decoder) build() (*Catalog, error) {
	d.finishBundles()
	if d.cancelled() {
		return nil, d.ctxErr
	}
	d.b.ctx = d.ctx
	c, err := d.b.Build()
	if d.cancelled() {
		return nil, d.ctxErr
	}
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
