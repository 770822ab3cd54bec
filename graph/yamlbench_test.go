package graph

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/sextantdev/sextant/internal/testcatalog"
)

// yamlCatalog converts a JSON catalog stream to a YAML stream, one
// document per blob, as sigs.k8s.io/yaml writes them.
func yamlCatalog(tb testing.TB, data []byte) []byte {
	tb.Helper()
	var out bytes.Buffer
	dec := json.NewDecoder(bytes.NewReader(data))
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
		out.WriteString("---\n")
		out.Write(y)
	}
	return out.Bytes()
}

// BenchmarkLoadCommunityIndexYAML decodes and indexes the community index
// converted to YAML (one document per blob, as sigs.k8s.io/yaml writes
// them): compare with BenchmarkLoadCommunityIndex, the same catalog as
// JSON. Both report the CPU time they take (cpu-ms/op), which a busy
// machine does not inflate as it does ns/op.
func BenchmarkLoadCommunityIndexYAML(b *testing.B) {
	data := yamlCatalog(b, testcatalog.Read(b, "community-operators-prod.v4.20-index.json.gz"))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	defer testcatalog.ReportCPU(b)()
	for b.Loop() {
		if _, err := Decode(bytes.NewReader(data), "community.yaml"); err != nil {
			b.Fatal(err)
		}
	}
}
