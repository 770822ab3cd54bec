package docstream

import (
	"io"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/internal/scalegen"
)

// BenchmarkYAML splits a List of 300,000 items (one 41 MB document) and
// the same items as 300,000 documents, reading each document's text as
// cluster does (Take).
func BenchmarkYAML(b *testing.B) {
	var list strings.Builder
	if err := scalegen.KindlessList(&list, 300000); err != nil {
		b.Fatal(err)
	}
	docs := strings.ReplaceAll(list.String(), "\n- ", "\n---\n  ")
	for _, in := range []struct{ name, text string }{{"list", list.String()}, {"docs", docs}} {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.text)))
			b.ReportAllocs()
			for b.Loop() {
				y := NewYAML(strings.NewReader(in.text), 64<<20, 0, 1)
				n := 0
				for {
					d, err := y.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					n += len(d.Text)
					_ = y.Take()
				}
				if n == 0 {
					b.Fatal("no text")
				}
			}
		})
	}
}

// BenchmarkYAMLOverLimit splits an 80 MB document of one line, over the
// 64 MiB limit: refused once 64 MiB of it is read, in a buffer that grows
// by doubling up to the limit.
func BenchmarkYAMLOverLimit(b *testing.B) {
	text := `{"a":"` + strings.Repeat("abcdefgh", 10_000_000) + `"}` + "\n"
	b.ReportAllocs()
	for b.Loop() {
		y := NewYAML(strings.NewReader(text), 64<<20, 0, 1)
		y.Expect(int64(len(text)))
		if _, err := y.Next(); err == nil {
			b.Fatal("no error")
		}
	}
}
