// Package txtar reads and writes the txtar archive format used by Sextant's
// scenario files: a free-form comment, then files, each introduced by a line
// "-- name --".
//
// The format is the one the Go toolchain uses for its test scripts; this is
// a small independent implementation so that Sextant needs no extra module.
package txtar

import (
	"bytes"
	"strings"
)

// File is one file of an archive.
type File struct {
	Name string
	Data []byte
}

// Archive is a comment followed by files, in order.
type Archive struct {
	Comment []byte
	Files   []File
}

// Parse parses data. Every line that looks like a file marker starts a new
// file; everything before the first marker is the comment. Parse never fails.
func Parse(data []byte) *Archive {
	a := new(Archive)
	var name string
	a.Comment, name, data = findFile(data)
	for name != "" {
		f := File{Name: name}
		f.Data, name, data = findFile(data)
		a.Files = append(a.Files, f)
	}
	return a
}

// Format returns the archive's text. Each file's data ends with a newline.
func Format(a *Archive) []byte {
	var buf bytes.Buffer
	buf.Write(fixNL(a.Comment))
	for _, f := range a.Files {
		buf.WriteString("-- " + f.Name + " --\n")
		buf.Write(fixNL(f.Data))
	}
	return buf.Bytes()
}

// Get returns the data of the first file named name.
func (a *Archive) Get(name string) ([]byte, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// Set replaces the first file named name, or appends one.
func (a *Archive) Set(name string, data []byte) {
	for i := range a.Files {
		if a.Files[i].Name == name {
			a.Files[i].Data = data
			return
		}
	}
	a.Files = append(a.Files, File{Name: name, Data: data})
}

// findFile returns the text before the next marker line, the marker's file
// name (empty when there is none) and the text after the marker line.
func findFile(data []byte) (before []byte, name string, after []byte) {
	i := 0
	for i < len(data) {
		end := bytes.IndexByte(data[i:], '\n')
		line := data[i:]
		next := len(data)
		if end >= 0 {
			line = data[i : i+end]
			next = i + end + 1
		}
		if n, ok := marker(line); ok {
			return data[:i], n, data[next:]
		}
		i = next
	}
	return data, "", nil
}

func marker(line []byte) (string, bool) {
	s := strings.TrimRight(string(line), "\r")
	if !strings.HasPrefix(s, "-- ") || !strings.HasSuffix(s, " --") || len(s) < 7 {
		return "", false
	}
	name := strings.TrimSpace(s[3 : len(s)-3])
	return name, name != ""
}

func fixNL(b []byte) []byte {
	if len(b) == 0 || b[len(b)-1] == '\n' {
		return b
	}
	return append(append([]byte(nil), b...), '\n')
}
