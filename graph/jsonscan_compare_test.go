package graph

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/sextantdev/sextant/internal/testcatalog"
)

// stdBlob is what encoding/json decodes of each blob: the fields the
// hand-written decoder reads, values of properties kept raw.
type stdBlob struct {
	Schema         string `json:"schema"`
	Name           string `json:"name"`
	Package        string `json:"package"`
	DefaultChannel string `json:"defaultChannel"`
	Image          string `json:"image"`
	Entries        []struct {
		Name      string   `json:"name"`
		Replaces  string   `json:"replaces"`
		Skips     []string `json:"skips"`
		SkipRange string   `json:"skipRange"`
	} `json:"entries"`
	Properties []struct {
		Type  string          `json:"type"`
		Value json.RawMessage `json:"value"`
	} `json:"properties"`
}

// decodeStd builds a catalog from a JSON stream with encoding/json doing
// the scanning: the same work as Decode (typed properties, entries with
// parsed ranges, Build), without positions or error recovery.
func decodeStd(tb testing.TB, data []byte, unmarshal func([]byte, any) error) *Catalog {
	dec := json.NewDecoder(bytes.NewReader(data))
	return decodeStdWith(tb, func() ([]byte, error) {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		return raw, err
	}, unmarshal)
}

// decodeStdWith is decodeStd with next splitting the stream into blobs
// (io.EOF at the end).
func decodeStdWith(tb testing.TB, next func() ([]byte, error), unmarshal func([]byte, any) error) *Catalog {
	b := NewBuilder()
	ranges := map[string]Range{}
	for {
		raw, err := next()
		if err == io.EOF {
			break
		} else if err != nil {
			tb.Fatal(err)
		}
		var blob stdBlob
		if err := unmarshal(raw, &blob); err != nil {
			tb.Fatal(err)
		}
		switch blob.Schema {
		case SchemaPackage:
			b.AddPackage(blob.Name, blob.DefaultChannel)
		case SchemaChannel:
			entries := make([]Entry, len(blob.Entries))
			for i, e := range blob.Entries {
				entries[i] = Entry{Name: e.Name, Replaces: e.Replaces, Skips: e.Skips}
				if e.SkipRange != "" {
					r, ok := ranges[e.SkipRange]
					if !ok {
						r, _ = ParseRange(e.SkipRange)
						ranges[e.SkipRange] = r
					}
					entries[i].SkipRange = r
				}
			}
			b.AddChannel(blob.Package, blob.Name, entries...)
		case SchemaBundle:
			props := make([]Property, len(blob.Properties))
			for i, p := range blob.Properties {
				props[i] = Property{Type: p.Type, Value: p.Value}
			}
			_ = b.addBundle(Position{}, blob.Name, blob.Package, blob.Image, props)
		}
	}
	c := mustBuild(tb, b)
	return c
}

// TestDecodeStdAgrees: the encoding/json baseline of the benchmark builds
// the same catalog as Decode, so the comparison is of the same work.
func TestDecodeStdAgrees(t *testing.T) {
	data := testcatalog.Read(t, "community-operators-prod.v4.20-index.json.gz")
	if testing.Short() {
		data = data[:bytes.LastIndex(data[:2<<20], []byte("\n{"))+1]
	}
	want, err := Decode(bytes.NewReader(data), "c.json")
	if err != nil {
		t.Fatal(err)
	}
	got := decodeStd(t, data, json.Unmarshal)
	if len(got.Packages()) != len(want.Packages()) {
		t.Fatalf("%d packages, want %d", len(got.Packages()), len(want.Packages()))
	}
	for _, p := range want.Packages() {
		q := got.Package(p.Name)
		if q == nil || len(q.Bundles) != len(p.Bundles) || len(q.Channels) != len(p.Channels) {
			t.Fatalf("package %q differs", p.Name)
		}
		for i, bd := range p.Bundles {
			if o := q.Bundles[i]; o.Name != bd.Name || o.VersionText != bd.VersionText || len(o.Provides) != len(bd.Provides) || len(o.RequiresPackage) != len(bd.RequiresPackage) {
				t.Fatalf("bundle %q differs", bd.Name)
			}
		}
	}
}

// BenchmarkDecodeJSONScanner and BenchmarkDecodeEncodingJSON do the same
// work on the community index (13.7 MB): decode every blob, type the
// properties, build the catalog. The first is Decode with the hand-written
// scanner (graph/internal/jsonscan); the second uses encoding/json. The
// encoding/json/v2 variant is in jsonscan_v2_test.go (GOEXPERIMENT=jsonv2).
func BenchmarkDecodeJSONScanner(b *testing.B) {
	benchmarkLoad(b, "community-operators-prod.v4.20-index.json.gz")
}

func BenchmarkDecodeEncodingJSON(b *testing.B) {
	benchmarkBytes(b, "community-operators-prod.v4.20-index.json.gz", func(data []byte) {
		decodeStd(b, data, json.Unmarshal)
	})
}
