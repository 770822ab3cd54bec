package graph

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sextantdev/sextant/graph/internal/jsonscan"
	"github.com/sextantdev/sextant/internal/suggest"
	"github.com/sextantdev/sextant/internal/words"
)

// keySet is what operator-registry's declcfg reads of one kind of object:
// the keys its Go types declare. opm decodes a blob with encoding/json,
// which takes a key that matches none exactly for the one it equals
// ignoring case (strings.EqualFold); so does the decoder.
type keySet struct {
	// what names the kind of object in messages: "a channel entry".
	what string
	keys []string
	// nullSets: bit i set when a null keys[i] replaces what an earlier
	// spelling of the key gave (a list, a raw value); a null of the other
	// keys changes nothing.
	nullSets uint32
	// merges: bit i set when keys[i] is an object that a later spelling of
	// the key fills in, field by field (deprecation entries' reference).
	merges uint32
}

// The objects opm reads, as declcfg's types declare them (operator-registry
// v1.55: alpha/declcfg/declcfg.go and alpha/property).
var (
	// topKeys are the top-level keys of every schema that the decoder reads
	// or knows; which ones a blob may have depends on its schema (keysOf).
	topKeys          = keySet{what: "a blob", keys: []string{"schema", "name", "package", "defaultChannel", "image", "entries", "properties", "relatedImages", "icon", "description"}}
	packageKeys      = keySet{what: "an " + SchemaPackage + " blob", keys: []string{"schema", "name", "defaultChannel", "icon", "description", "properties"}}
	channelKeys      = keySet{what: "an " + SchemaChannel + " blob", keys: []string{"schema", "name", "package", "entries", "properties"}}
	bundleKeys       = keySet{what: "an " + SchemaBundle + " blob", keys: []string{"schema", "name", "package", "image", "properties", "relatedImages"}}
	deprecationsKeys = keySet{what: "an " + SchemaDeprecations + " blob", keys: []string{"schema", "package", "entries"}}
	entryKeys        = keySet{what: "a channel entry", keys: []string{"name", "replaces", "skips", "skipRange"}, nullSets: 1 << 2}
	depEntryKeys     = keySet{what: "a deprecation entry", keys: []string{"reference", "message"}, merges: 1 << 0}
	referenceKeys    = keySet{what: "a deprecation entry's reference", keys: []string{"schema", "name"}}
	propertyKeys     = keySet{what: "a property", keys: []string{"type", "value"}, nullSets: 1 << 1}
	relatedImageKeys = keySet{what: "a related image", keys: []string{"name", "image"}}
	iconKeys         = keySet{what: "an icon", keys: []string{"base64data", "mediatype"}}
)

// keysOf returns the top-level keys of a blob of schema; nil for a schema
// opm does not model (it keeps such a blob whole, whatever its keys).
func keysOf(schema string) *keySet {
	switch schema {
	case SchemaPackage:
		return &packageKeys
	case SchemaChannel:
		return &channelKeys
	case SchemaBundle:
		return &bundleKeys
	case SchemaDeprecations:
		return &deprecationsKeys
	}
	return nil
}

// index returns the index of the key of ks that key is, exactly or but
// for case (exact first, as encoding/json matches); -1 for none.
func (ks *keySet) index(key string) int {
	if i := slices.Index(ks.keys, key); i >= 0 {
		return i
	}
	return slices.IndexFunc(ks.keys, func(k string) bool { return strings.EqualFold(k, key) })
}

// Bits of blob.seen: the top-level keys the decoder's switch met, so that
// the end of the blob can tell those its schema does not have.
const (
	seenName uint16 = 1 << iota
	seenPackage
	seenDefaultChannel
	seenImage
	seenEntries
	seenProperties
	seenRelatedImages
	seenIcon
	seenDescription
	seenKind // kind and apiVersion: a manifest's, never a catalog blob's
)

// seenAllowed returns the seen bits of the keys a blob of schema may have;
// every bit for a schema opm does not model.
func seenAllowed(schema string) uint16 {
	switch schema {
	case SchemaPackage:
		return seenName | seenDefaultChannel | seenIcon | seenDescription | seenProperties
	case SchemaChannel:
		return seenName | seenPackage | seenEntries | seenProperties
	case SchemaBundle:
		return seenName | seenPackage | seenImage | seenProperties | seenRelatedImages
	case SchemaDeprecations:
		return seenPackage | seenEntries
	}
	return ^uint16(0)
}

// errOtherKey is what a fields callback returns for a key it does not
// read, leaving its value unread: fields notes the key and skips it.
var errOtherKey = errors.New("a key the callback does not read")

// keyNoteKind tells an unknown key from a key read in another case.
type keyNoteKind uint8

const (
	keyUnknown  keyNoteKind = iota + 1 // opm does not read it
	keyMiscased                        // opm reads it as near, a key in another case
)

// keyNote is a key of the blob being decoded that opm does not read as
// written. The blob's end makes it a finding (keyFindings), named after the
// blob.
type keyNote struct {
	kind   keyNoteKind
	off    int // the key's opening quote in d.data
	objOff int // the '{' of the object holding it
	key    string
	near   string // keyMiscased: the key it is read as; keyUnknown: the nearest known key, or ""
	// where the object is: the top level (list ""), or list[i], and in
	// it the object sub (reference, icon) when not "".
	list string
	i    int
	sub  string
}

// path writes where the key is: "entries[1].replace", "defaultchannel".
func (n *keyNote) path() string {
	var b strings.Builder
	if n.list != "" {
		b.WriteString(n.list)
		b.WriteByte('[')
		b.WriteString(strconv.Itoa(n.i))
		b.WriteString("].")
	}
	if n.sub != "" {
		b.WriteString(n.sub)
		b.WriteByte('.')
	}
	b.WriteString(n.key)
	return b.String()
}

// where says where a fields call is reading, for its notes: the list
// element or sub-object, as keyNote has them.
type where struct {
	list string
	i    int
	sub  string
}

// otherKey handles a key that the fields callback f did not read, whose
// value s is at: a known key in another case is read as that key (and
// noted, and *refold set: a key of the object may now have two spellings);
// any other is skipped, noted as unknown unless ks has it. At the top of a
// blob (ks is &topKeys) nothing is noted: which keys the blob may have
// depends on its schema, and the blob's end (auditTop) judges them.
func (d *decoder) otherKey(s *jsonscan.Scanner, ks *keySet, at where, objOff int, key []byte, f func([]byte) error, refold *bool) error {
	if ks == nil {
		return s.Skip()
	}
	top := ks == &topKeys
	if top {
		d.topOther = true
	}
	i := ks.index(string(key))
	switch {
	case i < 0:
		if !top {
			d.note(keyNote{kind: keyUnknown, off: s.KeyPos, objOff: objOff, key: string(key), near: suggest.Nearest(string(key), ks.keys), list: at.list, i: at.i, sub: at.sub})
		}
		return s.Skip()
	case ks.keys[i] == string(key):
		return s.Skip() // a key opm reads and Sextant need not
	}
	if !top {
		d.note(keyNote{kind: keyMiscased, off: s.KeyPos, objOff: objOff, key: string(key), near: ks.keys[i], list: at.list, i: at.i, sub: at.sub})
	}
	*refold = true
	err := f([]byte(ks.keys[i]))
	if err == errOtherKey {
		return s.Skip()
	}
	return err
}

// note records a key note of the blob being decoded.
func (d *decoder) note(n keyNote) { d.notes = append(d.notes, n) }

// spelling is one way an object writes one of its keys: the last value
// given under it (opm decodes a blob into a map first, which keeps the
// last of keys written alike).
type spelling struct {
	key      string
	valueOff int
	null     bool
}

// refold reads again, as opm reads them, the keys of the object between
// start (after its '{') that it writes in several
// ways ("replaces" and "Replaces"): opm's map holds each spelling once,
// and encoding/json then reads them in the map's key order (byte order),
// each over the one before — but a null that leaves a string or an
// object as it is (ks.nullSets), and an object a later spelling fills in
// field by field (ks.merges). f reads each again with s at its value; what
// it notes or reports is dropped, having been reported on the first read.
func (d *decoder) refold(s *jsonscan.Scanner, ks *keySet, start int, f func([]byte) error) {
	byKey := make([][]spelling, len(ks.keys))
	sub := jsonscan.Scanner{Data: s.Data, Pos: start}
	for first := true; ; first = false {
		key, more, err := sub.NextKeyUnescaped(first)
		if err != nil || !more {
			break
		}
		if i := ks.index(string(key)); i >= 0 {
			sp := spelling{key: string(key), valueOff: sub.Pos, null: sub.Peek() == 'n'}
			j := slices.IndexFunc(byKey[i], func(o spelling) bool { return o.key == sp.key })
			if j >= 0 {
				byKey[i][j] = sp
			} else {
				byKey[i] = append(byKey[i], sp)
			}
		}
		if sub.Skip() != nil {
			break
		}
	}
	pending, notes := len(d.pending), len(d.notes)
	saved := s.Pos
	for i, sps := range byKey {
		if len(sps) < 2 {
			continue // one spelling: read as it is
		}
		slices.SortFunc(sps, func(a, b spelling) int { return strings.Compare(a.key, b.key) })
		read := func(sp spelling, merge bool) {
			s.Pos = sp.valueOff
			d.merging = merge
			_ = f([]byte(ks.keys[i]))
			d.merging = false
		}
		bit := uint32(1) << i
		switch {
		case ks.nullSets&bit != 0:
			read(sps[len(sps)-1], false)
		case ks.merges&bit != 0:
			merge := false
			for _, sp := range sps {
				if !sp.null {
					read(sp, merge)
					merge = true
				}
			}
			if !merge {
				read(sps[len(sps)-1], false)
			}
		default:
			last := sps[len(sps)-1]
			for _, sp := range sps {
				if !sp.null {
					last = sp
				}
			}
			read(last, false)
		}
	}
	s.Pos = saved
	d.pending, d.notes = d.pending[:pending], d.notes[:notes]
}

// auditTop judges the top-level keys of the blob between start and end,
// now that its schema is known: keys its schema does not have, keys in
// another case, and — for every blob, as opm's Meta refuses them — keys
// that are one key under Unicode full case folding, written two ways (a
// problem of the blob: it is not read).
func (d *decoder) auditTop(f *blob, start, end int) {
	ks := keysOf(f.schema)
	type seen struct {
		key string
		off int
	}
	var keys []seen
	s := jsonscan.Scanner{Data: d.data, Pos: start}
	if s.BeginObject() != nil {
		return
	}
	for first := true; ; first = false {
		key, more, err := s.NextKeyUnescaped(first)
		if err != nil || !more {
			break
		}
		k := string(key)
		if !slices.ContainsFunc(keys, func(o seen) bool { return o.key == k }) {
			keys = append(keys, seen{k, s.KeyPos})
		}
		if ks != nil && f.hasSchema {
			switch i := ks.index(k); {
			case i < 0:
				d.note(keyNote{kind: keyUnknown, off: s.KeyPos, objOff: start, key: k, near: suggest.Nearest(k, ks.keys)})
			case ks.keys[i] != k:
				d.note(keyNote{kind: keyMiscased, off: s.KeyPos, objOff: start, key: k, near: ks.keys[i]})
			}
		}
		if s.Skip() != nil {
			break
		}
	}
	// Keys written two ways: opm lists them sorted, under the folded key.
	done := make([]bool, len(keys))
	for i := range keys {
		if done[i] {
			continue
		}
		dups := []string{keys[i].key}
		for j := i + 1; j < len(keys); j++ {
			if !done[j] && fullFoldEqual(keys[i].key, keys[j].key) {
				done[j] = true
				dups = append(dups, keys[j].key)
			}
		}
		if len(dups) > 1 {
			slices.Sort(dups)
			d.blobErrf(keys[i].off, "duplicate keys for key %q: [%s]", foldedKey(keys[i].key), strings.Join(dups, " "))
		}
	}
}

// keyFindings makes findings of the notes of the blob just added, whose
// fields are f and whose entries (an olm.channel's) are entries.
func (d *decoder) keyFindings(f *blob, entries []Entry) {
	slices.SortStableFunc(d.notes, func(a, b keyNote) int { return a.off - b.off })
	for i := range d.notes {
		n := &d.notes[i]
		fd := Finding{Severity: SeverityWarning, Pos: d.keyPos(n)}
		object := f.object()
		switch f.schema {
		case SchemaPackage:
			fd.Package = f.name
		case SchemaChannel:
			fd.Package, fd.Channel = f.pkg, f.name
			object += fmt.Sprintf(" of package %q", f.pkg)
			if n.list == "entries" && n.i < len(entries) {
				fd.Bundle = entries[n.i].Name
			}
		case SchemaBundle:
			fd.Package, fd.Bundle = f.pkg, f.name
			object += fmt.Sprintf(" of package %q", f.pkg)
		case SchemaDeprecations:
			fd.Package = f.pkg
		}
		path := n.path()
		at := ""
		if n.list != "" || n.sub != "" {
			at = " at " + strings.TrimSuffix(path, n.key)
			at = strings.TrimSuffix(at, ".")
		}
		if n.kind == keyMiscased {
			fd.Code = CodeMiscasedKey
			fd.Message = fmt.Sprintf("%s: key %s is read as %q: opm matches keys ignoring case, other readers of the catalog may not", object, strconv.Quote(path), n.near)
			fd.Brief = fmt.Sprintf("%q%s is read as %q", n.key, at, n.near)
		} else {
			ks := n.keys(f.schema)
			fd.Code = CodeUnknownKey
			fd.Message = fmt.Sprintf("%s: key %s is not read: opm reads %s of %s%s", object, strconv.Quote(path), words.Join(ks.keys, "and"), ks.what, nearMessage(n.near))
			fd.Brief = fmt.Sprintf("%q%s is not read%s", n.key, at, nearMessage(n.near))
		}
		d.b.keyFindings = append(d.b.keyFindings, fd)
	}
	d.notes = d.notes[:0]
}

// nearMessage is ` (did you mean "near"?)`, or "" for no near.
func nearMessage(near string) string {
	if near == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", near)
}

// keys returns the keys opm reads in the object of the note, in a blob of
// schema.
func (n *keyNote) keys(schema string) *keySet {
	switch {
	case n.sub == "reference":
		return &referenceKeys
	case n.sub == "icon":
		return &iconKeys
	case n.list == "entries" && schema == SchemaChannel:
		return &entryKeys
	case n.list == "entries":
		return &depEntryKeys
	case n.list == "properties":
		return &propertyKeys
	case n.list == "relatedImages":
		return &relatedImageKeys
	}
	if ks := keysOf(schema); ks != nil {
		return ks
	}
	return &topKeys
}

// keyPos locates a noted key: its own line and column in a JSON stream;
// in a YAML document, the line of the key in the block mapping that holds
// it, else the mapping's position (a flow mapping, a document the YAML
// library read: see Channel.EntryPos).
func (d *decoder) keyPos(n *keyNote) Position {
	if d.doc == nil {
		return d.posAt(n.off)
	}
	obj := d.objectAt(n.objOff)
	if obj.Offset < d.docText || obj.Column < 1 {
		return obj
	}
	text := d.docBytes
	off := int(obj.Offset - d.docText)
	indent := obj.Column - 1
	for line := obj.Line; off < len(text); line++ {
		end := len(text)
		if i := bytes.IndexByte(text[off:], '\n'); i >= 0 {
			end = off + i
		}
		l := text[off:end]
		if line == obj.Line {
			// The mapping's first key, after "- " or at the document's start.
			l = text[off:end]
			if yamlKeyIs(l, n.key) {
				return obj
			}
		} else if t := bytes.TrimLeft(l, " "); len(t) > 0 && t[0] != '#' {
			in := len(l) - len(t)
			if in < indent {
				break // the mapping ended
			}
			if in == indent && yamlKeyIs(t, n.key) {
				return Position{File: obj.File, Line: line, Column: obj.Column, Offset: d.docText + int64(off+in)}
			}
		}
		off = end + 1
	}
	return obj
}

// yamlKeyIs reports whether the line l starts with the block mapping key
// key: plain or quoted, then a colon.
func yamlKeyIs(l []byte, key string) bool {
	for _, q := range []string{"", `"`, "'"} {
		k := q + key + q
		if rest, ok := bytes.CutPrefix(l, []byte(k)); ok {
			rest = bytes.TrimLeft(rest, " \t")
			if len(rest) > 0 && rest[0] == ':' && (len(rest) == 1 || rest[1] == ' ' || rest[1] == '\t' || rest[1] == '\r') {
				return true
			}
		}
	}
	return false
}

// schemaFinding is the finding of a blob of a schema opm does not model,
// located at pos (its schema key): a warning when the schema is in OLM's
// olm. namespace or near one of the four (a typo, most likely), else an
// info — a tool's own schema, which opm serves along.
func schemaFinding(m Meta, pos Position) Finding {
	known := []string{SchemaPackage, SchemaChannel, SchemaBundle, SchemaDeprecations}
	near := suggest.Nearest(m.Schema, known)
	sev := SeverityInfo
	if near != "" || strings.HasPrefix(m.Schema, "olm.") {
		sev = SeverityWarning
	}
	what := fmt.Sprintf("a blob of schema %q", m.Schema)
	if m.Name != "" {
		what += fmt.Sprintf(" named %q", m.Name)
	}
	return Finding{
		Severity: sev, Code: CodeUnknownSchema, Package: m.Package, Pos: pos,
		Message: fmt.Sprintf("%s is kept but not read: opm models %s only%s", what, words.Join(known, "and"), nearMessage(near)),
		Brief:   fmt.Sprintf("schema %q is not one opm reads%s", m.Schema, nearMessage(near)),
	}
}
