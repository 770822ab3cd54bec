package graph

import (
	"io"
	"sync"
)

// aheadReader reads r on a goroutine of its own, a few chunks ahead of its
// reader, so that decompressing a gzip catalog and decoding it share the
// machine's cores instead of taking turns. Close stops the goroutine (it
// finishes the read it is in) and must be called.
type aheadReader struct {
	full  chan chunk
	free  chan []byte
	done  chan struct{}
	once  sync.Once
	cur   []byte // the unread part of the current chunk
	buf   []byte // the current chunk's buffer, returned to free when read
	err   error
	ended bool
}

type chunk struct {
	b   []byte
	err error
}

const (
	aheadChunk  = 256 << 10
	aheadChunks = 4
)

func newAheadReader(r io.Reader) *aheadReader {
	a := &aheadReader{full: make(chan chunk, aheadChunks), free: make(chan []byte, aheadChunks), done: make(chan struct{})}
	for range aheadChunks {
		a.free <- make([]byte, aheadChunk)
	}
	go a.run(r)
	return a
}

func (a *aheadReader) run(r io.Reader) {
	defer close(a.full)
	for {
		var b []byte
		select {
		case b = <-a.free:
		case <-a.done:
			return
		}
		n, err := io.ReadFull(r, b)
		if err == io.ErrUnexpectedEOF {
			err = io.EOF
		}
		select {
		case a.full <- chunk{b[:n], err}:
		case <-a.done:
			return
		}
		if err != nil {
			return
		}
	}
}

// Read implements io.Reader.
func (a *aheadReader) Read(p []byte) (int, error) {
	for len(a.cur) == 0 {
		if a.ended {
			return 0, a.err
		}
		if a.buf != nil {
			a.free <- a.buf[:cap(a.buf)]
			a.buf = nil
		}
		c, ok := <-a.full
		if !ok {
			a.ended = true
			if a.err == nil {
				a.err = io.EOF
			}
			continue
		}
		a.buf, a.cur = c.b, c.b
		if c.err != nil {
			a.ended, a.err = true, c.err
		}
	}
	n := copy(p, a.cur)
	a.cur = a.cur[n:]
	return n, nil
}

// Close stops reading ahead.
func (a *aheadReader) Close() {
	a.once.Do(func() { close(a.done) })
}
