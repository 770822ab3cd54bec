package graph

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// The objects as operator-registry's declcfg declares them (the keys it
// reads), for the reference reading of FuzzKeysAsOpm.
type (
	opmPackage struct {
		Schema, Name, DefaultChannel string
	}
	opmChannel struct {
		Schema, Name, Package string
		Entries               []struct {
			Name, Replaces string
			Skips          []string
			SkipRange      string
		}
	}
	opmBundle struct {
		Schema, Name, Package, Image string
		Properties                   []struct {
			Type  string
			Value json.RawMessage
		}
		RelatedImages []struct{ Name, Image string }
	}
	opmDeprecation struct {
		Schema, Package string
		Entries         []struct {
			Reference struct{ Schema, Name string }
			Message   string
		}
	}
)

// opmRead reads one blob as opm's declcfg does: into a map (the last of
// keys written alike wins), refusing two top-level keys equal under full
// case folding, then the map re-encoded (keys in byte order) into the
// schema's type by encoding/json, which matches a key ignoring case. It
// returns the reading in modelText's words for the parts both read, "" for
// a schema opm does not model, or the error.
func opmRead(blob []byte) (string, error) {
	var m map[string]any
	if err := json.Unmarshal(blob, &m); err != nil {
		return "", err
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var schema any
	for i, k := range keys {
		for _, l := range keys[i+1:] {
			if fullFoldEqual(k, l) {
				return "", fmt.Errorf("duplicate keys for key %q", foldedKey(k))
			}
		}
		if fullFoldEqual(k, "schema") {
			schema = m[k]
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return "", err
	}
	var b strings.Builder
	switch schema {
	case SchemaPackage:
		var p opmPackage
		if err := json.Unmarshal(buf.Bytes(), &p); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "package %q default %q\n", p.Name, p.DefaultChannel)
	case SchemaChannel:
		var c opmChannel
		if err := json.Unmarshal(buf.Bytes(), &c); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "channel %q/%q\n", c.Package, c.Name)
		for _, e := range c.Entries {
			fmt.Fprintf(&b, "  entry %q replaces %q skips %q skipRange %q\n", e.Name, e.Replaces, e.Skips, e.SkipRange)
		}
	case SchemaBundle:
		var bd opmBundle
		if err := json.Unmarshal(buf.Bytes(), &bd); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "bundle %q/%q image %q\n", bd.Package, bd.Name, bd.Image)
		for _, p := range bd.Properties {
			fmt.Fprintf(&b, "  property %q\n", p.Type)
		}
		for _, r := range bd.RelatedImages {
			fmt.Fprintf(&b, "  related image %q %q\n", r.Name, r.Image)
		}
	case SchemaDeprecations:
		var d opmDeprecation
		if err := json.Unmarshal(buf.Bytes(), &d); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "deprecations %q\n", d.Package)
		for _, e := range d.Entries {
			fmt.Fprintf(&b, "  deprecation %q %q: %q\n", e.Reference.Schema, e.Reference.Name, e.Message)
		}
	}
	return b.String(), nil
}

// sextantRead is what the catalog c, decoded from one blob, read of it, in
// opmRead's words.
func sextantRead(c *Catalog) string {
	var b strings.Builder
	for _, p := range c.Packages() {
		if p.Declared() {
			fmt.Fprintf(&b, "package %q default %q\n", p.Name, p.DefaultChannel)
		}
		for _, ch := range p.Channels {
			fmt.Fprintf(&b, "channel %q/%q\n", ch.Package, ch.Name)
			for _, e := range ch.Entries {
				skips := e.Skips
				if skips == nil {
					skips = []string{}
				}
				fmt.Fprintf(&b, "  entry %q replaces %q skips %q skipRange %q\n", e.Name, e.Replaces, skips, e.SkipRange)
			}
		}
		for _, bd := range p.Bundles {
			fmt.Fprintf(&b, "bundle %q/%q image %q\n", bd.Package, bd.Name, bd.Image)
			for _, pr := range bd.Properties {
				fmt.Fprintf(&b, "  property %q\n", pr.Type)
			}
			for _, r := range bd.RelatedImages {
				fmt.Fprintf(&b, "  related image %q %q\n", r.Name, r.Image)
			}
		}
		if len(p.depBlobs) > 0 {
			fmt.Fprintf(&b, "deprecations %q\n", p.Name)
			for _, d := range p.Deprecations {
				fmt.Fprintf(&b, "  deprecation %q %q: %q\n", d.Reference.Schema, d.Reference.Name, d.Message)
			}
		}
	}
	return b.String()
}

// FuzzKeysAsOpm holds the decoder's reading of a blob's keys to opm's:
// for one JSON blob of the four schemas that both read without error, both
// read the same names, edges, images and references, whatever the case
// and the repeats of its keys (in UTF-8: encoding/json reads a byte that
// is not UTF-8 as U+FFFD, the decoder keeps it); and a blob opm refuses for keys equal under
// case folding, the decoder refuses too (and no other blob for that).
func FuzzKeysAsOpm(f *testing.F) {
	for _, s := range []string{
		`{"schema":"olm.package","name":"foo","defaultchannel":"stable"}`,
		`{"schema":"olm.package","name":"foo","defaultChannel":"a","DefaultChannel":"b"}`,
		`{"Schema":"olm.channel","PACKAGE":"foo","Name":"stable","Entries":[{"NAME":"a"},{"name":"b","ſkipRange":"<1.1.0","replaceſ":"x"}]}`,
		`{"schema":"olm.channel","package":"foo","name":"s","entries":[{"name":"b","Replaces":"x","replaces":"zzz"},{"name":"c","replaces":"a","REPLACES":"b","Replaces":"c"},{"name":"d","Replaces":"a","replaces":null}]}`,
		`{"schema":"olm.channel","package":"foo","name":"s","entries":[{"name":"b","skips":["a"],"Skips":null},{"name":"c","skips":["a"],"skips":null}]}`,
		`{"schema":"olm.bundle","name":"b","package":"p","image":"i","Properties":[{"Type":"olm.package","VALUE":{"packageName":"p","version":"1.0.0"}},{"type":"x","value":1,"Value":null}],"relatedImages":[{"NAME":"a","Image":"b"}]}`,
		`{"schema":"olm.deprecations","package":"p","entries":[{"reference":{"schema":"olm.bundle","name":"a"},"Reference":{"name":"b"}},{"Reference":{"schema":"olm.bundle","name":"a"},"reference":{"name":"b"}},{"reference":{"schema":"olm.bundle"},"reference":{"name":"x"}},{"reference":{"name":"x"},"reference":null,"message":"m","Message":null}]}`,
		`{"schema":"olm.package","name":"foo","straße":1,"STRASSE":2}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, blob []byte) {
		if !json.Valid(blob) || bytes.TrimSpace(blob)[0] != '{' || bytes.ContainsAny(blob, "\n\r") || !utf8.Valid(blob) {
			return // one JSON blob on one line, in UTF-8 (encoding/json reads a byte that is not as U+FFFD, the decoder keeps it)
		}
		want, werr := opmRead(blob)
		c, err := Decode(bytes.NewReader(blob), "fuzz")
		dup := func(err error) bool { return err != nil && strings.Contains(err.Error(), "duplicate keys for key") }
		if dup(werr) != dup(err) {
			t.Fatalf("duplicate keys: opm %v, decoder %v", werr, err)
		}
		if werr != nil || err != nil || want == "" {
			return
		}
		if got := sextantRead(c); got != want {
			t.Fatalf("read\n%s\nopm reads\n%s", got, want)
		}
		// Every key finding is at a key of the blob.
		for _, kf := range c.KeyFindings() {
			if kf.Code == CodeUnknownSchema {
				continue
			}
			off := kf.Pos.Offset
			if off < 0 || off >= int64(len(blob)) || blob[off] != '"' {
				t.Fatalf("%s at offset %d, not a key", kf.Message, off)
			}
		}
	})
}
