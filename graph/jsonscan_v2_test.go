//go:build goexperiment.jsonv2

package graph

import (
	"bytes"
	"encoding/json/jsontext"
	jsonv2 "encoding/json/v2"
	"testing"

	"github.com/sextantdev/sextant/internal/testcatalog"
)

// BenchmarkDecodeEncodingJSONv2 is BenchmarkDecodeEncodingJSON with
// encoding/json/v2: jsontext splitting the stream, jsonv2.Unmarshal each
// blob (GOEXPERIMENT=jsonv2).
func BenchmarkDecodeEncodingJSONv2(b *testing.B) {
	data := testcatalog.Read(b, "community-operators-prod.v4.20-index.json.gz")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		dec := jsontext.NewDecoder(bytes.NewReader(data))
		decodeStdWith(b, func() ([]byte, error) {
			v, err := dec.ReadValue()
			return v, err
		}, func(d []byte, v any) error { return jsonv2.Unmarshal(d, v) })
	}
}
