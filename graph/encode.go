package graph

import (
	"fmt"
	"io"

	"github.com/sextantdev/sextant/graph/internal/jsonscan"
)

// Encode writes c as a File-Based Catalog JSON stream, one blob per line:
// for each package in name order its olm.package blob, its olm.channel blobs
// by channel name, its olm.bundle blobs by bundle name and one
// olm.deprecations blob holding all its deprecation entries; then the blobs
// of other schemas (Catalog.Others) in source order. Property values and
// other blobs are written compacted but otherwise as the catalog holds them.
//
// The output is deterministic, and decoding it gives back the same model:
// decode → Encode → decode → Encode yields the same bytes twice. What the
// model does not keep is not written: package icons and descriptions and
// unknown fields of known schemas. A bundle's relatedImages are written
// after its properties, each with its name (empty when it had none) and
// image. A package that had no
// olm.package blob (see Builder.Build) gets none. A package with olm.deprecations
// blobs gets one, even when they have no entries.
//
// Encode fails when a property value or an unknown blob is not valid JSON
// (possible only for catalogs built in code), or when w fails.
func Encode(w io.Writer, c *Catalog) error {
	e := encoder{w: w}
	for _, p := range c.Packages() {
		if err := e.pkg(p); err != nil {
			return err
		}
		if e.err != nil {
			return e.err
		}
	}
	for _, m := range c.Others() {
		if err := e.other(m); err != nil {
			return err
		}
	}
	return e.err
}

// pkg writes the blobs of one package: olm.package, olm.channel,
// olm.bundle, olm.deprecations. It returns a property value's error; w's
// error stays in e.err.
func (e *encoder) pkg(p *Package) error {
	if p.declared {
		e.start(SchemaPackage)
		e.field("name", p.Name)
		e.fieldOmit("defaultChannel", p.DefaultChannel)
		e.end()
	}
	for _, ch := range p.Channels {
		e.channel(ch)
	}
	for _, b := range p.Bundles {
		if err := e.bundle(b); err != nil {
			return err
		}
	}
	if len(p.Deprecations) > 0 || len(p.depBlobs) > 0 {
		e.deprecations(p)
	}
	return nil
}

// channel writes an olm.channel blob.
func (e *encoder) channel(ch *Channel) {
	e.start(SchemaChannel)
	e.field("package", ch.Package)
	e.field("name", ch.Name)
	e.beginList("entries")
	for i, en := range ch.Entries {
		e.item(i)
		e.buf = append(e.buf, `{"name":`...)
		e.buf = appendString(e.buf, en.Name)
		e.fieldOmit("replaces", en.Replaces)
		if len(en.Skips) > 0 {
			e.beginList("skips")
			for j, s := range en.Skips {
				e.item(j)
				e.buf = appendString(e.buf, s)
			}
			e.buf = append(e.buf, ']')
		}
		e.fieldOmit("skipRange", en.SkipRange.String())
		e.buf = append(e.buf, '}')
	}
	e.buf = append(e.buf, ']')
	e.end()
}

// bundle writes an olm.bundle blob, failing when a property value is not
// valid JSON.
func (e *encoder) bundle(b *Bundle) error {
	e.start(SchemaBundle)
	e.field("name", b.Name)
	e.field("package", b.Package)
	e.fieldOmit("image", b.Image)
	if len(b.Properties) > 0 {
		e.beginList("properties")
		for i, pr := range b.Properties {
			e.item(i)
			e.buf = append(e.buf, `{"type":`...)
			e.buf = appendString(e.buf, pr.Type)
			if pr.Value != nil {
				e.buf = append(e.buf, `,"value":`...)
				if err := e.raw(pr.Value); err != nil {
					return fmt.Errorf("encode bundle %q of package %q: property %d (%s): %w", b.Name, b.Package, i, pr.Type, err)
				}
			}
			e.buf = append(e.buf, '}')
		}
		e.buf = append(e.buf, ']')
	}
	if len(b.RelatedImages) > 0 {
		e.beginList("relatedImages")
		for i, r := range b.RelatedImages {
			e.item(i)
			e.buf = append(e.buf, `{"name":`...)
			e.buf = appendString(e.buf, r.Name)
			e.buf = append(e.buf, `,"image":`...)
			e.buf = appendString(e.buf, r.Image)
			e.buf = append(e.buf, '}')
		}
		e.buf = append(e.buf, ']')
	}
	e.end()
	return nil
}

// deprecations writes the package's one olm.deprecations blob.
func (e *encoder) deprecations(p *Package) {
	e.start(SchemaDeprecations)
	e.field("package", p.Name)
	e.beginList("entries")
	for i, d := range p.Deprecations {
		e.item(i)
		e.buf = append(e.buf, `{"reference":{"schema":`...)
		e.buf = appendString(e.buf, d.Reference.Schema)
		e.fieldOmit("name", d.Reference.Name)
		e.buf = append(e.buf, '}')
		e.fieldOmit("message", d.Message)
		e.buf = append(e.buf, '}')
	}
	e.buf = append(e.buf, ']')
	e.end()
}

// other writes a blob of another schema: as it was read, or, for one built
// in code without a blob, its schema, package and name.
func (e *encoder) other(m Meta) error {
	if m.Blob == nil {
		e.start(m.Schema)
		e.fieldOmit("package", m.Package)
		e.fieldOmit("name", m.Name)
		e.end()
		return nil
	}
	if err := e.raw(m.Blob); err != nil {
		return fmt.Errorf("encode %s blob %q: %w", m.Schema, m.Name, err)
	}
	e.buf = append(e.buf, '\n')
	e.flush()
	return nil
}

// encoder builds one blob at a time and writes it.
type encoder struct {
	w   io.Writer
	buf []byte
	err error
}

func (e *encoder) start(schema string) {
	e.buf = append(e.buf[:0], `{"schema":`...)
	e.buf = appendString(e.buf, schema)
}

func (e *encoder) end() {
	e.buf = append(e.buf, "}\n"...)
	e.flush()
}

func (e *encoder) flush() {
	if e.err == nil {
		_, e.err = e.w.Write(e.buf)
	}
	e.buf = e.buf[:0]
}

func (e *encoder) field(key, value string) {
	e.key(key)
	e.buf = appendString(e.buf, value)
}

// key appends `,"key":`, the start of a field after the first.
func (e *encoder) key(key string) {
	e.buf = append(e.buf, ',', '"')
	e.buf = append(e.buf, key...)
	e.buf = append(e.buf, '"', ':')
}

// beginList appends the start of a field key holding a JSON array, whose
// items item separates and ']' closes.
func (e *encoder) beginList(key string) {
	e.key(key)
	e.buf = append(e.buf, '[')
}

// item appends the comma before each item of a list but the first; i is
// the item's index.
func (e *encoder) item(i int) {
	if i > 0 {
		e.buf = append(e.buf, ',')
	}
}

func (e *encoder) fieldOmit(key, value string) {
	if value != "" {
		e.field(key, value)
	}
}

// raw appends a JSON value compacted, checking it.
func (e *encoder) raw(v []byte) error {
	s := jsonscan.Scanner{Data: v}
	if err := s.Skip(); err != nil {
		return err
	}
	if !s.AtEnd() {
		return fmt.Errorf("invalid character %q after the value", v[s.Pos])
	}
	e.buf = jsonscan.AppendCompact(e.buf, v)
	return nil
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string. Unlike encoding/json it leaves
// <, > and & alone; invalid UTF-8 is kept as is, as decoding keeps it.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
