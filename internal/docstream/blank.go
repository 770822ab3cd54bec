package docstream

import (
	"bufio"
	"bytes"
	"io"
)

// IsBlank reports whether r holds nothing but white space, comment lines
// and YAML document markers ("---", "..."), after a byte order mark: a
// manifests file with no object in it. It reads r to its end or to the
// first byte of something else, a line at a time in bounded memory.
func IsBlank(r io.Reader) (bool, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	inComment := false // in a comment line longer than the buffer
	for first := true; ; first = false {
		chunk, isPrefix, err := br.ReadLine()
		if err == io.EOF {
			return true, nil
		}
		if err != nil {
			return false, err
		}
		if first {
			chunk = bytes.TrimPrefix(chunk, []byte("\xef\xbb\xbf"))
		}
		if !inComment {
			t := bytes.TrimSpace(chunk)
			switch {
			case len(t) == 0:
			case t[0] == '#':
				inComment = isPrefix
			case !isPrefix && (string(t) == "---" || string(t) == "..."):
			default:
				return false, nil
			}
		}
		if !isPrefix {
			inComment = false
		}
	}
}
