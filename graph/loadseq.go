package graph

import (
	"context"
	"io"
	"iter"
	"path"
)

// LoadSeq reads the catalog files that files yields — each a name and its
// contents — in the order yielded, into one catalog: what LoadFS does with
// the files of a folder, for files that arrive one at a time (extracted
// from an archive as it is read, say). A file whose name has no catalog
// extension (.json, .yaml, .yml, optionally .gz) is skipped, as LoadFS
// skips it. Positions name files as files names them; errors are as for
// LoadFS. The sequence is not read further once ctx is done.
func (l Loader) LoadSeq(ctx context.Context, files iter.Seq2[string, io.Reader]) (*Catalog, error) {
	d := l.decoder(ctx)
	for name, r := range files {
		if d.cancelled() {
			break
		}
		if !IsCatalogFile(path.Base(name)) {
			continue
		}
		size := int64(-1)
		if s, ok := r.(interface{ Size() int64 }); ok {
			size = s.Size()
		}
		d.decodeReader(name, r, size)
	}
	return d.build()
}
