package graph_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/testcatalog"
)

// gz compresses data.
func gz(t testing.TB, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// repeatReader yields b over and over, n bytes in all (n < 0: for ever).
type repeatReader struct {
	b    []byte
	n    int64
	read int64
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n >= 0 && r.read >= r.n {
		return 0, io.EOF
	}
	if r.n >= 0 && int64(len(p)) > r.n-r.read {
		p = p[:r.n-r.read]
	}
	n := 0
	for n < len(p) {
		n += copy(p[n:], r.b[(r.read+int64(n))%int64(len(r.b)):])
	}
	r.read += int64(n)
	return n, nil
}

func TestLimits(t *testing.T) {
	blob := `{"schema":"olm.package","name":"a"}` + "\n"
	blobs := func(n int) io.Reader {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, `{"schema":"olm.package","name":"p%d"}`+"\n", i)
		}
		return strings.NewReader(b.String())
	}
	big := `{"schema":"olm.bundle","name":"b","package":"a","image":"` + strings.Repeat("x", 5000) + `"}` + "\n"
	tests := []struct {
		name   string
		reason string
		loader graph.Loader
		file   string
		in     io.Reader
		want   string // in the error
		what   string // the LimitError's What, if any
	}{
		{name: "input over the limit", loader: graph.Loader{MaxBytes: 1000}, file: "c.json",
			in: blobs(100), want: "c.json: input is larger than the limit of 1000 bytes (uncompressed)", what: "input"},
		{name: "white space over the limit", reason: "a stream of white space is read only up to the limit", loader: graph.Loader{MaxBytes: 1 << 20}, file: "c.json",
			in: &repeatReader{b: []byte("        \n"), n: -1}, want: "c.json: input is larger than the limit of 1 MiB", what: "input"},
		{name: "gzip bomb of white space", loader: graph.Loader{MaxBytes: 1 << 20}, file: "c.json.gz",
			in: bytes.NewReader(gz(t, bytes.Repeat([]byte(" "), 4<<20))), want: "c.json.gz: input is larger than the limit of 1 MiB (uncompressed)", what: "input"},
		{name: "blob over the limit", loader: graph.Loader{MaxBlob: 4096}, file: "c.json",
			in: io.MultiReader(strings.NewReader(blob+big), blobs(2)), want: `c.json:2: olm.bundle "b": blob is larger than the limit of 4 KiB`, what: "blob"},
		{name: "yaml document over the limit", loader: graph.Loader{MaxBlob: 4096}, file: "c.yaml",
			in: strings.NewReader("schema: olm.package\nname: a\n---\nschema: olm.bundle\nimage: " + strings.Repeat("x", 5000) + "\n"), want: "c.yaml:4: document is larger than the limit of 4 KiB", what: "document"},
		{name: "gzip bomb of zeros", reason: "binary data fails on its first byte, not after expanding", file: "c.json.gz",
			in: bytes.NewReader(gz(t, make([]byte, 8<<20))), want: "c.json.gz:1: binary data (byte 0x00)"},
		{name: "zeros for ever", reason: "like /dev/zero", file: "zero",
			in: &repeatReader{b: []byte{0}, n: -1}, want: "zero:1: binary data (byte 0x00)"},
		{name: "zeros after a blob for ever", file: "c.json",
			in: io.MultiReader(strings.NewReader(blob), &repeatReader{b: []byte{0}, n: -1}), want: "c.json:2: binary data (byte 0x00)"},
		{name: "random bytes for ever", reason: "like /dev/urandom", file: "random",
			in: &repeatReader{b: []byte("\xa3\x17\x00\x9c\n\xff"), n: -1}, want: "random:1: binary data (byte 0x17)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := tt.loader.Decode(context.Background(), tt.in, tt.file)
			if err == nil || c != nil {
				t.Fatalf("no error")
			}
			if !strings.Contains(err.Error(), tt.want) || strings.Count(err.Error(), "\n") > 0 {
				t.Errorf("error %q, want one containing %q", err, tt.want)
			}
			var le *graph.LimitError
			if errors.As(err, &le) != (tt.what != "") || (le != nil && le.What != tt.what) {
				t.Errorf("error %v: LimitError %+v, want What %q", err, le, tt.what)
			}
		})
	}
}

func TestLimitsAllowExactSizes(t *testing.T) {
	in := `{"schema":"olm.package","name":"a"}` + "\n"
	for _, l := range []graph.Loader{{MaxBytes: int64(len(in))}, {MaxBlob: int64(len(in))}, {MaxBytes: -1, MaxBlob: -1}} {
		if _, err := l.Decode(context.Background(), strings.NewReader(in), "c.json"); err != nil {
			t.Errorf("%+v: %v", l, err)
		}
	}
}

func TestLoadDirSkipsSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.json"), []byte(`{"schema":"olm.package","name":"a"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "b.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	if err := os.Symlink(fifo, filepath.Join(dir, "c.yaml")); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := graph.LoadDir(dir)
		done <- err
	}()
	select {
	case err := <-done:
		want := []string{
			filepath.Join(dir, "b.json") + ": not a regular file (a named pipe); only regular files are read from a folder",
			filepath.Join(dir, "c.yaml") + ": not a regular file (a named pipe); only regular files are read from a folder",
		}
		if err == nil || err.Error() != strings.Join(want, "\n") {
			t.Errorf("error %v, want %q", err, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("LoadDir blocked on a named pipe")
	}
}

// generatedCatalog returns a JSON catalog of n packages with a channel of
// m bundles each.
func generatedCatalog(n, m int) []byte {
	var b bytes.Buffer
	for p := range n {
		fmt.Fprintf(&b, `{"schema":"olm.package","name":"p%d","defaultChannel":"stable"}`+"\n", p)
		b.WriteString(`{"schema":"olm.channel","package":"p` + fmt.Sprint(p) + `","name":"stable","entries":[`)
		for i := range m {
			if i > 0 {
				fmt.Fprintf(&b, `,{"name":"p%d.v1.0.%d","replaces":"p%d.v1.0.%d"}`, p, i, p, i-1)
			} else {
				fmt.Fprintf(&b, `{"name":"p%d.v1.0.0"}`, p)
			}
		}
		b.WriteString("]}\n")
		for i := range m {
			fmt.Fprintf(&b, `{"schema":"olm.bundle","name":"p%d.v1.0.%d","package":"p%d","image":"img","properties":[{"type":"olm.package","value":{"packageName":"p%d","version":"1.0.%d"}},{"type":"olm.gvk","value":{"group":"g%d.io","version":"v1","kind":"K"}}]}`+"\n", p, i, p, p, i, p)
		}
	}
	return b.Bytes()
}

func TestLoadCancel(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 200
	}
	data := generatedCatalog(n, 50) // 100,000 bundles (10,000 with -short)
	for _, tt := range []struct {
		name string
		file string
		data []byte
	}{{"json", "c.json", data}, {"gzip", "c.json.gz", gz(t, data)}} {
		t.Run(tt.name, func(t *testing.T) {
			testcatalog.CheckCancel(t, 5*time.Millisecond, testcatalog.CancelBudget, func(ctx context.Context) error {
				_, err := graph.Loader{}.Decode(ctx, bytes.NewReader(tt.data), tt.file)
				return err
			})
		})
	}
	t.Run("already cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		fsys := fstest.MapFS{"a.json": {Data: data[:1000]}}
		if _, err := (graph.Loader{}).LoadFS(ctx, fsys, "."); !errors.Is(err, context.Canceled) {
			t.Errorf("LoadFS: %v", err)
		}
	})
}

// BenchmarkDecodeHostile reads the hostile inputs of issue 11 at two sizes
// each (the larger skipped with -short): endless NUL bytes and random bytes
// fail on their first byte whatever the size; white space is read up to the
// input limit, in time linear in the limit and constant memory; a gzip bomb
// of NUL bytes fails on its first byte.
func BenchmarkDecodeHostile(b *testing.B) {
	bomb := func(n int) []byte { return gz(b, make([]byte, n)) }
	for _, tt := range []struct {
		name  string
		sizes []int64
		in    func(n int64) io.Reader
		limit bool // MaxBytes is the size: the input is read to the limit
	}{
		{"zeros", []int64{64 << 20, 1 << 30}, func(n int64) io.Reader { return &repeatReader{b: []byte{0}, n: n} }, false},
		{"random", []int64{64 << 20, 1 << 30}, func(n int64) io.Reader { return &repeatReader{b: []byte("\xa3\x17\x00\x9c\n\xff"), n: n} }, false},
		{"whitespace", []int64{64 << 20, 512 << 20}, func(n int64) io.Reader { return &repeatReader{b: []byte("        \n"), n: -1} }, true},
	} {
		for i, n := range tt.sizes {
			if i > 0 && testing.Short() {
				continue
			}
			b.Run(fmt.Sprintf("%s/%dMiB", tt.name, n>>20), func(b *testing.B) {
				l := graph.Loader{}
				if tt.limit {
					l.MaxBytes = n
				}
				b.ReportAllocs()
				for b.Loop() {
					if _, err := l.Decode(context.Background(), tt.in(n), "c.json"); err == nil {
						b.Fatal("no error")
					}
				}
			})
		}
	}
	for i, n := range []int{8 << 20, 64 << 20} {
		if i > 0 && testing.Short() {
			continue
		}
		data := bomb(n)
		b.Run(fmt.Sprintf("gzip-zeros/%dMiB", n>>20), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := graph.Decode(bytes.NewReader(data), "c.json.gz"); err == nil {
					b.Fatal("no error")
				}
			}
		})
	}
	// One blob of 80 MB on one line, over the 64 MiB default: refused once
	// 64 MiB of it is read, from a file's known size (the window grows to
	// the limit at once past a few MiB) or a stream (the window doubles).
	text := `{"schema":"olm.package","name":"x","description":"` + strings.Repeat("abcdefgh", 10_000_000) + `"}` + "\n"
	for _, sized := range []bool{true, false} {
		b.Run(fmt.Sprintf("oneline-80MB/sized=%v", sized), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var r io.Reader = strings.NewReader(text)
				if !sized {
					r = io.MultiReader(r)
				}
				if _, err := graph.Decode(r, "c.json"); err == nil {
					b.Fatal("no error")
				}
			}
		})
	}
}

// A blob over the limit is refused once the limit's worth of it has been
// read, whatever follows, and named as a blob read whole is: from a stream
// of unknown size (the window doubles) and from text of known size (past
// a few MiB the window grows to the limit at once).
func TestBlobOverLimitStopsReading(t *testing.T) {
	const limit = 8 << 20
	head := `{"schema":"olm.package","name":"x","description":"`
	for _, lead := range []string{"", `{"schema":"olm.package","name":"a"}` + "\n"} {
		text := lead + head + strings.Repeat("abcdefgh", 4<<20)
		sized := strings.NewReader(text)
		stream := &repeatReader{b: []byte(text), n: int64(len(text))}
		for _, in := range []struct {
			name string
			r    io.Reader
			read func() int64
		}{
			{"stream", stream, func() int64 { return stream.read }},
			{"sized", sized, func() int64 { return int64(len(text) - sized.Len()) }},
		} {
			c, err := graph.Loader{MaxBlob: limit}.Decode(context.Background(), in.r, "c.json")
			if err == nil || c != nil {
				t.Fatalf("%s: no error", in.name)
			}
			line := 1 + strings.Count(lead, "\n")
			if want := fmt.Sprintf(`c.json:%d: olm.package "x": blob is larger than the limit of 8 MiB`, line); err.Error() != want {
				t.Errorf("%s: error %q, want %q", in.name, err, want)
			}
			if n := in.read(); n > int64(len(lead))+limit {
				t.Errorf("%s: read %d bytes, want at most the limit past the blob's start, %d", in.name, n, len(lead)+limit)
			}
		}
	}
}
