package fastyaml

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/sextantdev/sextant/internal/testcatalog"
)

// catalogDocs returns the blobs of the community index as YAML documents,
// as sigs.k8s.io/yaml writes them, and their total size.
func catalogDocs(tb testing.TB) ([][]byte, int64) {
	tb.Helper()
	dec := json.NewDecoder(bytes.NewReader(testcatalog.Read(tb, "community-operators-prod.v4.20-index.json.gz")))
	var docs [][]byte
	var n int64
	for {
		var raw json.RawMessage
		if err := dec.Decode(&raw); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			tb.Fatal(err)
		}
		y, err := yaml.JSONToYAML(raw)
		if err != nil {
			tb.Fatal(err)
		}
		docs = append(docs, y)
		n += int64(len(y))
	}
	return docs, n
}

// BenchmarkConvert converts the community index's blobs, written as YAML,
// to JSON with one Converter, as graph reads a YAML catalog.
func BenchmarkConvert(b *testing.B) {
	docs, n := catalogDocs(b)
	b.SetBytes(n)
	b.ReportAllocs()
	var c Converter
	for b.Loop() {
		for _, d := range docs {
			if _, err := c.Convert(d); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkFast reads the same documents into values, as cluster reads
// manifests.
func BenchmarkFast(b *testing.B) {
	docs, n := catalogDocs(b)
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range docs {
			if _, ok := Fast(d); !ok {
				b.Fatal("not fast")
			}
		}
	}
}

// BenchmarkScan checks the same documents without building their values,
// as cluster skims the items of a List that have no kind.
func BenchmarkScan(b *testing.B) {
	docs, n := catalogDocs(b)
	b.SetBytes(n)
	b.ReportAllocs()
	s := NewScanner("apiVersion", "kind", "schema")
	for b.Loop() {
		for _, d := range docs {
			if _, ok := s.Scan(d); !ok {
				b.Fatal("not fast")
			}
		}
	}
}
