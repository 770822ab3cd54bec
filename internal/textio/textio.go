// Package textio holds the one writer the text renderers share.
package textio

import "io"

// ErrWriter passes writes to W and keeps the first write error in Err, so
// that a renderer can print freely and check once at the end. After an error
// every later write fails with it and writes nothing.
type ErrWriter struct {
	W   io.Writer
	Err error
}

// Write writes p to W unless an earlier write failed.
func (e *ErrWriter) Write(p []byte) (int, error) {
	if e.Err != nil {
		return 0, e.Err
	}
	n, err := e.W.Write(p)
	if err != nil {
		e.Err = err
	}
	return n, err
}
