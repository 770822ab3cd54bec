package fastjson

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/internal/scalegen"
)

// BenchmarkValid checks a List of 200,000 items as `kubectl get -o json`
// prints it (59 MB), with Valid and with encoding/json.Valid.
func BenchmarkValid(b *testing.B) {
	var buf strings.Builder
	if err := scalegen.KindlessListJSON(&buf, 200000); err != nil {
		b.Fatal(err)
	}
	data := []byte(buf.String())
	for _, v := range []struct {
		name  string
		valid func([]byte) bool
	}{{"fastjson", Valid}, {"encoding-json", json.Valid}} {
		b.Run(v.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if !v.valid(data) {
					b.Fatal("not valid")
				}
			}
		})
	}
}
