package catalogimage

import (
	"archive/tar"
	"bufio"
	"compress/flate"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"path"
	"strings"
	"testing/fstest"

	v1 "github.com/google/go-containerregistry/pkg/v1"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/docstream"
)

// Whiteout names of the OCI image layer format.
const (
	whiteoutPrefix = ".wh."
	whiteoutOpaque = ".wh..wh..opq"
)

// files is the catalog folder of an image: its regular files, by their
// path in the image (no leading slash), below root.
type files struct {
	root   string
	m      fstest.MapFS
	bundle bool // a bundle's files, not a catalog's
}

// kind names what the files are: "catalog" or "bundle".
func (f *files) kind() string {
	if f.bundle {
		return "bundle"
	}
	return "catalog"
}

// fs returns the files as a file system.
func (f *files) fs() fs.FS { return f.m }

// hidden is what the layers above the one being read decide: paths they
// hold (a file there hides the lower layers' file and everything below a
// path it replaces with a file), paths they whited out, and folders they
// made opaque.
type hidden struct {
	present  map[string]bool // path → it is a folder
	whiteout map[string]bool
	opaque   map[string]bool
}

func newHidden() *hidden {
	return &hidden{present: map[string]bool{}, whiteout: map[string]bool{}, opaque: map[string]bool{}}
}

// hides reports whether the layers above hide p in the layers below.
func (h *hidden) hides(p string) bool {
	if isDir, ok := h.present[p]; ok && !isDir {
		return true
	}
	if h.whiteout[p] {
		return true
	}
	for q := path.Dir(p); q != "." && q != "/"; q = path.Dir(q) {
		if h.whiteout[q] || h.opaque[q] {
			return true
		}
		if isDir, ok := h.present[q]; ok && !isDir {
			return true
		}
	}
	return false
}

// merge adds what one layer decided.
func (h *hidden) merge(l *hidden) {
	for p, d := range l.present {
		if _, ok := h.present[p]; !ok {
			h.present[p] = d
		}
	}
	for p := range l.whiteout {
		h.whiteout[p] = true
	}
	for p := range l.opaque {
		h.opaque[p] = true
	}
}

// extract reads the catalog folder of img: the label, then the layers, top
// first, so that every file read is the one the image shows.
func (r *Reader) extract(ctx context.Context, img v1.Image, info *Info, byDiffID bool, stream *streamDecode) (*files, error) {
	cfg, err := img.ConfigFile()
	if err != nil {
		return nil, fmt.Errorf("reading the image config: %w", err)
	}
	labels := cfg.Config.Labels
	dir := labels[ConfigsLabel]
	if dir == "" {
		return nil, &NotCatalogError{SQLite: labels[DatabaseLabel] != "", Labels: sortedKeys(labels)}
	}
	info.Dir = dir
	root := path.Clean(strings.TrimLeft(dir, "/"))
	if root == "." || root == ".." || strings.HasPrefix(root, "../") {
		return nil, fmt.Errorf("label %s names %q, not a folder inside the image", ConfigsLabel, dir)
	}
	layers, err := img.Layers()
	if err != nil {
		return nil, fmt.Errorf("listing the layers: %w", err)
	}
	diffIDs := cfg.RootFS.DiffIDs
	if len(diffIDs) != len(layers) {
		return nil, fmt.Errorf("the config lists %d diff IDs for %d layers", len(diffIDs), len(layers))
	}
	maxBytes := docstream.Limit(r.opts.Loader.MaxBytes, graph.DefaultMaxBytes)
	out := &files{root: root, m: fstest.MapFS{}}
	above := newHidden()
	var kept int64
	for i := len(layers) - 1; i >= 0; i-- {
		l := layers[i]
		lh, err := r.readLayer(ctx, l, diffIDs[i], byDiffID, under(root), above, out, &kept, maxBytes, info, stream)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, &Error{Layer: i + 1, Layers: len(layers), LayerDigest: layerName(l, diffIDs[i], byDiffID), Err: err}
		}
		above.merge(lh)
	}
	stream.close()
	if len(out.m) == 0 {
		return nil, fmt.Errorf("the catalog folder %s (label %s) holds no file", dir, ConfigsLabel)
	}
	return out, nil
}

// layerName names a layer by its digest, or by its diff ID.
func layerName(l v1.Layer, diffID v1.Hash, byDiffID bool) string {
	if byDiffID {
		return diffID.String()
	}
	h, err := l.Digest()
	if err != nil {
		return "digest unknown"
	}
	return h.String()
}

// under returns the test of paths below the folder root.
func under(roots ...string) func(p string) bool {
	return func(p string) bool {
		for _, root := range roots {
			if strings.HasPrefix(p, root+"/") {
				return true
			}
		}
		return false
	}
}

// readLayer reads one layer's tar stream, keeping the regular files keep
// accepts that the layers above do not hide, and checks the stream against
// the layer's diff ID. It returns what the layer hides below it. stream
// may be nil (the files are not decoded as they come).
func (r *Reader) readLayer(ctx context.Context, l v1.Layer, diffID v1.Hash, byDiffID bool, keep func(string) bool, above *hidden, out *files, kept *int64, maxBytes int64, info *Info, stream *streamDecode) (*hidden, error) {
	rc, check, err := layerStream(l, diffID, byDiffID)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	in := docstream.LimitReader(rc, maxBytes)
	mine := newHidden()
	readHere := map[string]bool{} // the files kept from this layer
	tr := tar.NewReader(in)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, readErr(err)
		}
		p := path.Clean(strings.TrimLeft(strings.TrimPrefix(hdr.Name, "./"), "/"))
		if p == "." || p == ".." || strings.HasPrefix(p, "../") {
			continue
		}
		dirName, base := path.Split(p)
		dirName = strings.TrimSuffix(dirName, "/")
		if base == whiteoutOpaque {
			if dirName != "" {
				mine.opaque[dirName] = true
			}
			continue
		}
		if target, ok := strings.CutPrefix(base, whiteoutPrefix); ok {
			mine.whiteout[path.Join(dirName, target)] = true
			continue
		}
		isDir := hdr.Typeflag == tar.TypeDir
		if _, seen := mine.present[p]; !seen || !isDir {
			mine.present[p] = isDir // the last entry of a path wins
		}
		if isDir || above.hides(p) || !keep(p) {
			continue
		}
		if maxBytes > 0 && *kept+hdr.Size > maxBytes {
			return nil, fmt.Errorf("%s: the %s is larger than the limit of %s", p, out.kind(), docstream.Size(maxBytes))
		}
		data, err := fileData(tr, hdr, readHere, out)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		if data == nil {
			info.Skipped++
			if _, ok := out.m[p]; ok {
				delete(out.m, p)
				stream.spoil()
			}
			continue
		}
		if prev, ok := out.m[p]; ok {
			*kept -= int64(len(prev.Data))
		}
		if *kept += int64(len(data)); maxBytes > 0 && *kept > maxBytes {
			return nil, fmt.Errorf("%s: the %s is larger than the limit of %s", p, out.kind(), docstream.Size(maxBytes))
		}
		readHere[p] = true
		out.m[p] = &fstest.MapFile{Data: data, Mode: 0o444}
		stream.send(p, data)
	}
	// Read to the end, so that the whole stream is checked.
	if _, err := io.Copy(io.Discard, in); err != nil {
		return nil, readErr(err)
	}
	if err := check(); err != nil {
		return nil, err
	}
	return mine, nil
}

// fileData returns the contents of a regular file of a layer, or of a hard
// link to a file kept from the same layer; nil for any other entry (a
// symbolic link, a device, a hard link to a file not kept).
func fileData(tr *tar.Reader, hdr *tar.Header, readHere map[string]bool, out *files) ([]byte, error) {
	switch hdr.Typeflag {
	case tar.TypeReg: // the reader turns the old "\x00" flag into TypeReg
		if hdr.Size > 64<<20 {
			// Larger than any real catalog file: grow as the bytes come,
			// rather than trust the header with one allocation.
			data, err := io.ReadAll(io.LimitReader(tr, hdr.Size))
			if err != nil {
				return nil, readErr(err)
			}
			if int64(len(data)) < hdr.Size {
				return nil, readErr(io.ErrUnexpectedEOF)
			}
			return data, nil
		}
		data := make([]byte, hdr.Size)
		if _, err := io.ReadFull(tr, data); err != nil {
			return nil, readErr(err)
		}
		return data, nil
	case tar.TypeLink:
		target := path.Clean(strings.TrimLeft(strings.TrimPrefix(hdr.Linkname, "./"), "/"))
		if f, ok := out.m[target]; ok && readHere[target] {
			return f.Data, nil
		}
	}
	return nil, nil
}

// layerStream opens the uncompressed tar stream of a layer, with a check
// to run once the stream is read to its end. A gzip layer whose digest is
// known without reading it (in a registry or an OCI layout) is checked
// against that digest, which costs the hashing of the compressed bytes
// only; any other (a docker archive's, a zstd layer) is checked,
// uncompressed, against its diff ID.
func layerStream(l v1.Layer, diffID v1.Hash, byDiffID bool) (io.ReadCloser, func() error, error) {
	if d, err := l.Digest(); !byDiffID && err == nil && d.Algorithm == "sha256" {
		rc, err := l.Compressed()
		if err != nil {
			return nil, nil, fmt.Errorf("opening: %w", err)
		}
		h := sha256.New()
		br := bufio.NewReaderSize(io.TeeReader(rc, h), 64<<10)
		if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
			zr, err := gzip.NewReader(br)
			if err != nil {
				rc.Close()
				return nil, nil, fmt.Errorf("invalid gzip data: %w", readErr(err))
			}
			check := func() error {
				if _, err := io.Copy(io.Discard, br); err != nil {
					return readErr(err)
				}
				return matches(h, d, "digest")
			}
			return readCloser{zr, rc}, check, nil
		}
		rc.Close()
	}
	rc, err := l.Uncompressed()
	if err != nil {
		return nil, nil, fmt.Errorf("opening: %w", err)
	}
	if diffID.Algorithm != "sha256" {
		return rc, func() error { return nil }, nil
	}
	h := sha256.New()
	return readCloser{io.TeeReader(rc, h), rc}, func() error { return matches(h, diffID, "diff ID") }, nil
}

// matches checks what h hashed against want.
func matches(h hash.Hash, want v1.Hash, what string) error {
	if got := hex.EncodeToString(h.Sum(nil)); got != want.Hex {
		return fmt.Errorf("the content does not match its %s %s (it is sha256:%s): the layer is corrupted", what, want, got)
	}
	return nil
}

// readCloser reads from a reader and closes a closer.
type readCloser struct {
	io.Reader
	io.Closer
}

// readErr words a read error of a layer: a truncated stream says so.
func readErr(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("reading: %w (the layer is truncated or corrupted)", err)
	}
	var ce flate.CorruptInputError
	if errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || errors.As(err, &ce) || errors.Is(err, tar.ErrHeader) {
		return fmt.Errorf("reading: %w (the layer is corrupted)", err)
	}
	var tl *docstream.TooLargeError
	if errors.As(err, &tl) {
		return fmt.Errorf("uncompressed, the layer is larger than the limit of %s", docstream.Size(tl.Limit))
	}
	return fmt.Errorf("reading: %w", err)
}
