package graph_test

import (
	"bytes"
	"context"
	"io"
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/sextantdev/sextant/graph"
)

// TestLoadSeqAgreesWithLoadFS: the files of a folder yielded in the order
// LoadFS walks them give the same catalog, and the same errors.
func TestLoadSeqAgreesWithLoadFS(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
	}{
		{"two packages and a file of another kind", map[string]string{
			"configs/a/catalog.json": `{"schema":"olm.package","name":"a","defaultChannel":"s"}
{"schema":"olm.channel","package":"a","name":"s","entries":[{"name":"a.v1"}]}
{"schema":"olm.bundle","package":"a","name":"a.v1","image":"x","properties":[{"type":"olm.package","value":{"packageName":"a","version":"1.0.0"}}]}`,
			"configs/b.yaml": "schema: olm.package\nname: b\n",
			"configs/README": "not a catalog",
		}},
		{"errors", map[string]string{
			"configs/a.json": `{"schema":"olm.package"}`,
			"configs/b.json": `{"name":"x"}`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, data := range tc.files {
				fsys[name] = &fstest.MapFile{Data: []byte(data)}
			}
			want, wantErr := graph.Loader{}.LoadFS(context.Background(), fsys, "configs")
			seq := func(yield func(string, io.Reader) bool) {
				for _, name := range []string{"configs/README", "configs/a/catalog.json", "configs/a.json", "configs/b.json", "configs/b.yaml"} {
					if data, ok := tc.files[name]; ok && !yield(name, bytes.NewReader([]byte(data))) {
						return
					}
				}
			}
			got, err := graph.Loader{}.LoadSeq(context.Background(), seq)
			if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
				t.Fatalf("error %v, LoadFS's %v", err, wantErr)
			}
			if err == nil && !reflect.DeepEqual(got.Packages(), want.Packages()) {
				t.Errorf("packages differ from LoadFS's")
			}
		})
	}
}
