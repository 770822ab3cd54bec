package catalogimage

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"

	"github.com/sextantdev/sextant/graph"
)

// streamDecode decodes the catalog files of an image as the layers yield
// them, on a goroutine of its own, for as long as they come in the order
// graph.Loader.LoadFS walks a folder (so the catalog is the one LoadFS
// would build from the same files). Files come out of the layers top layer
// first, each final when it comes (a lower layer cannot change a file of
// an upper one); in the usual image, whose catalog is in one layer written
// in walk order, every file streams.
type streamDecode struct {
	ch      chan keptFile
	cancel  context.CancelFunc
	done    chan struct{}
	cat     *graph.Catalog
	err     error
	last    []string // the path elements of the last file sent
	inOrder bool
	once    sync.Once
}

type keptFile struct {
	name string
	data []byte
}

// startDecode starts decoding what send is given.
func (r *Reader) startDecode(ctx context.Context) *streamDecode {
	sctx, cancel := context.WithCancel(ctx)
	s := &streamDecode{ch: make(chan keptFile, 64), cancel: cancel, done: make(chan struct{}), inOrder: true}
	go func() {
		defer close(s.done)
		s.cat, s.err = r.opts.Loader.LoadSeq(sctx, func(yield func(string, io.Reader) bool) {
			for f := range s.ch {
				if !yield(f.name, bytes.NewReader(f.data)) {
					break
				}
			}
			for range s.ch { // let the sender finish
			}
		})
	}()
	return s
}

// send offers a file kept: it is decoded if it comes in walk order, and
// the stream is spoilt otherwise.
func (s *streamDecode) send(name string, data []byte) {
	if s == nil || !s.inOrder {
		return
	}
	el := strings.Split(name, "/")
	if s.last != nil && !walksBefore(s.last, el) {
		s.spoil()
		return
	}
	s.last = el
	s.ch <- keptFile{name, data}
}

// spoil gives up streaming: a file sent was replaced, or one came out of
// order.
func (s *streamDecode) spoil() {
	if s != nil && s.inOrder {
		s.inOrder = false
		s.cancel()
	}
}

// close says that no more files come.
func (s *streamDecode) close() { s.once.Do(func() { close(s.ch) }) }

// result waits for the decoding; ok is false when the stream was spoilt
// (the files must be decoded again, in walk order).
func (s *streamDecode) result() (cat *graph.Catalog, ok bool, err error) {
	s.close()
	<-s.done
	s.cancel()
	if !s.inOrder {
		return nil, false, nil
	}
	return s.cat, true, s.err
}

// abandon stops the decoding and waits for it.
func (s *streamDecode) abandon() {
	s.cancel()
	s.close()
	<-s.done
}

// walksBefore reports whether fs.WalkDir visits the file of path elements
// a before that of b: elements compare by name, a folder's files before
// its next sibling's.
func walksBefore(a, b []string) bool {
	for i := range a {
		switch {
		case i == len(b):
			return false
		case a[i] != b[i]:
			return a[i] < b[i]
		}
	}
	return len(a) < len(b)
}
