//go:build goexperiment.jsonv2

package graph

import (
	"bytes"
	"encoding/json/jsontext"
	jsonv2 "encoding/json/v2"
	"testing"
)

// BenchmarkDecodeEncodingJSONv2 is BenchmarkDecodeEncodingJSON with
// encoding/json/v2: jsontext splitting the stream, jsonv2.Unmarshal each
// blob (GOEXPERIMENT=jsonv2).
func BenchmarkDecodeEncodingJSONv2(b *testing.B) {
	benchmarkBytes(b, "community-operators-prod.v4.20-index.json.gz", func(data []byte) {
		dec := jsontext.NewDecoder(bytes.NewReader(data))
		decodeStdWith(b, func() ([]byte, error) {
			v, err := dec.ReadValue()
			return v, err
		}, func(d []byte, v any) error { return jsonv2.Unmarshal(d, v) })
	})
}
