package graph

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/sextantdev/sextant/internal/testcatalog"
)

// benchmarkBytes runs op on the decompressed contents of the shipped file
// in the benchmark loop, reporting throughput and allocations.
func benchmarkBytes(b *testing.B, file string, op func(data []byte)) {
	data := testcatalog.Read(b, file)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	defer testcatalog.ReportCPU(b)()
	for b.Loop() {
		op(data)
	}
}

// benchmarkLoad measures Decode (decoding and indexing) of a shipped file.
func benchmarkLoad(b *testing.B, file string) {
	benchmarkBytes(b, file, func(data []byte) {
		if _, err := Decode(bytes.NewReader(data), file); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkLoadCommunityIndex is the speed target: decoding and
// indexing community-operators-prod.v4.20-index.json (13.7 MB, 5,624
// bundles). operator-registry v1.47 takes 1.33 s and 321 MB on the
// reference machine.
func BenchmarkLoadCommunityIndex(b *testing.B) {
	benchmarkLoad(b, "community-operators-prod.v4.20-index.json.gz")
}

func BenchmarkLoadCommunityDeclared(b *testing.B) {
	benchmarkLoad(b, "community-operators-prod.declared.json.gz")
}

func BenchmarkLoadCertifiedIndex(b *testing.B) {
	benchmarkLoad(b, "certified-operators.v4.20-index.json.gz")
}

func BenchmarkLoadCertifiedDeclared(b *testing.B) {
	benchmarkLoad(b, "certified-operators.declared.json.gz")
}

// BenchmarkDecodeOnlyCommunityIndex measures the decoder alone (scanning,
// typed properties, handing blobs to a Builder) without Build's indexing.
func BenchmarkDecodeOnlyCommunityIndex(b *testing.B) {
	benchmarkBytes(b, "community-operators-prod.v4.20-index.json.gz", func(data []byte) {
		d := newDecoder(NewBuilder())
		d.decodeReader("community", bytes.NewReader(data), int64(len(data)))
		if len(d.errs) > 0 {
			b.Fatal(d.errs[0])
		}
	})
}

// BenchmarkLoadFileCommunityIndex loads the shipped gzip file itself:
// reading, decompressing, decoding and indexing.
func BenchmarkLoadFileCommunityIndex(b *testing.B) {
	path := catalogPath(b, "community-operators-prod.v4.20-index")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LoadFile(path); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeYAML decodes the YAML fixture: the YAML path converts each
// document with sigs.k8s.io/yaml and is much slower per byte than JSON.
func BenchmarkDecodeYAML(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "decode", "etcd.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(bytes.NewReader(data), "etcd.yaml"); err != nil {
			b.Fatal(err)
		}
	}
}
