package check

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"sync"
	"testing"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/testcatalog"
)

// blob is one FBC object of a catalog being edited: its identifying fields
// and the whole object.
type blob struct {
	Schema  string `json:"schema"`
	Package string `json:"package"`
	Name    string `json:"name"`
	raw     json.RawMessage
}

// edit changes the blobs of a catalog in place: it may modify, drop (set
// to nil) or append blobs.
type edit func(t testing.TB, blobs []*blob) []*blob

// blobCache holds the blobs of the shipped catalogs read so far, by name.
var blobCache sync.Map // string → []blob

// shippedBlobs returns the blobs of a shipped catalog, each a fresh copy
// the caller may edit (edits replace a blob's raw bytes, never change them).
func shippedBlobs(t testing.TB, name string) []*blob {
	t.Helper()
	if v, ok := blobCache.Load(name); ok {
		bs := v.([]blob)
		out := make([]*blob, len(bs))
		for i := range bs {
			b := bs[i]
			out[i] = &b
		}
		return out
	}
	out := readBlobs(t, name)
	bs := make([]blob, len(out))
	for i, b := range out {
		bs[i] = *b
	}
	blobCache.Store(name, bs)
	return out
}

// readBlobs reads the JSON stream of a shipped catalog.
func readBlobs(t testing.TB, name string) []*blob {
	t.Helper()
	dec := json.NewDecoder(testcatalog.Open(t, name+".json.gz"))
	var out []*blob
	for {
		var raw json.RawMessage
		if err := dec.Decode(&raw); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b := &blob{raw: raw}
		if err := json.Unmarshal(raw, b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b.Schema == "olm.package" {
			b.Package = b.Name
		}
		out = append(out, b)
	}
	return out
}

// editedShipped returns a shipped catalog with the edits applied, decoded
// as if from the file name+".json".
func editedShipped(t testing.TB, name string, edits ...edit) *graph.Catalog {
	t.Helper()
	blobs := shippedBlobs(t, name)
	for _, e := range edits {
		blobs = e(t, blobs)
	}
	return decodeBlobs(t, name, blobs)
}

func decodeBlobs(t testing.TB, name string, blobs []*blob) *graph.Catalog {
	t.Helper()
	var buf bytes.Buffer
	for _, b := range blobs {
		if b == nil {
			continue
		}
		buf.Write(b.raw)
		buf.WriteByte('\n')
	}
	cat, err := graph.Decode(&buf, name+".json")
	if err != nil {
		t.Fatalf("decode edited %s: %v", name, err)
	}
	return cat
}

// onlyPackages keeps the blobs of the named packages.
func onlyPackages(pkgs ...string) edit {
	return func(t testing.TB, blobs []*blob) []*blob {
		var out []*blob
		for _, b := range blobs {
			if slices.Contains(pkgs, b.Package) {
				out = append(out, b)
			}
		}
		return out
	}
}

// modify rewrites the object of each blob that match selects.
func modify(t testing.TB, blobs []*blob, match func(*blob) bool, change func(map[string]any)) {
	t.Helper()
	n := 0
	for _, b := range blobs {
		if b == nil || !match(b) {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(b.raw, &m); err != nil {
			t.Fatal(err)
		}
		change(m)
		raw, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		b.raw = raw
		b.Name, _ = m["name"].(string)
		n++
	}
	if n == 0 {
		t.Fatal("edit: no blob matches")
	}
}

// removeBundle drops the bundle pkg/name and its entries from every
// channel of the package; the entries that replaced it keep their edge (a
// dangling replaces, as a pruned catalog has).
func removeBundle(pkg, name string) edit {
	return func(t testing.TB, blobs []*blob) []*blob {
		t.Helper()
		for i, b := range blobs {
			if b.Schema == "olm.bundle" && b.Package == pkg && b.Name == name {
				blobs[i] = nil
			}
		}
		modify(t, blobs, func(b *blob) bool { return b.Schema == "olm.channel" && b.Package == pkg }, func(m map[string]any) {
			entries, _ := m["entries"].([]any)
			m["entries"] = slices.DeleteFunc(entries, func(e any) bool {
				return e.(map[string]any)["name"] == name
			})
		})
		return blobs
	}
}

// renameChannel renames channel from of pkg to to, and the default
// channel with it.
func renameChannel(pkg, from, to string) edit {
	return func(t testing.TB, blobs []*blob) []*blob {
		t.Helper()
		modify(t, blobs, func(b *blob) bool { return b.Schema == "olm.channel" && b.Package == pkg && b.Name == from },
			func(m map[string]any) { m["name"] = to })
		modify(t, blobs, func(b *blob) bool { return b.Schema == "olm.package" && b.Name == pkg }, func(m map[string]any) {
			if m["defaultChannel"] == from {
				m["defaultChannel"] = to
			}
		})
		return blobs
	}
}

// setDefaultChannel makes channel the default of pkg.
func setDefaultChannel(pkg, channel string) edit {
	return func(t testing.TB, blobs []*blob) []*blob {
		t.Helper()
		modify(t, blobs, func(b *blob) bool { return b.Schema == "olm.package" && b.Name == pkg },
			func(m map[string]any) { m["defaultChannel"] = channel })
		return blobs
	}
}

// dropAPI removes the olm.gvk property for kind from bundle pkg/name.
func dropAPI(pkg, name, group, version, kind string) edit {
	return func(t testing.TB, blobs []*blob) []*blob {
		t.Helper()
		modify(t, blobs, func(b *blob) bool { return b.Schema == "olm.bundle" && b.Package == pkg && b.Name == name }, func(m map[string]any) {
			props, _ := m["properties"].([]any)
			n := len(props)
			props = slices.DeleteFunc(props, func(p any) bool {
				pm := p.(map[string]any)
				v, _ := pm["value"].(map[string]any)
				return pm["type"] == "olm.gvk" && v["group"] == group && v["version"] == version && v["kind"] == kind
			})
			if len(props) == n {
				t.Fatalf("bundle %s/%s has no olm.gvk %s/%s %s", pkg, name, group, version, kind)
			}
			m["properties"] = props
		})
		return blobs
	}
}

// deprecate adds an olm.deprecations blob for pkg with one entry.
func deprecate(pkg, schema, name, message string) edit {
	return func(t testing.TB, blobs []*blob) []*blob {
		ref := map[string]any{"schema": schema}
		if name != "" {
			ref["name"] = name
		}
		raw, err := json.Marshal(map[string]any{
			"schema": "olm.deprecations", "package": pkg,
			"entries": []any{map[string]any{"reference": ref, "message": message}},
		})
		if err != nil {
			t.Fatal(err)
		}
		return append(blobs, &blob{Schema: "olm.deprecations", Package: pkg, raw: raw})
	}
}
