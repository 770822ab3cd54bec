package cluster

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/sextantdev/sextant/internal/docstream"
	"github.com/sextantdev/sextant/internal/fastyaml"
)

// streamedItems stands for the items of a List document in its header's
// value: they are parsed and read one by one (decoder.listItems). textLine
// is the line of the document's first line of text, where the items'
// lines count from.
type streamedItems struct {
	items    fastyaml.Items
	textLine int
}

// parseDocument parses one YAML document, whose text starts at line
// textLine: a List document by its header, its items left for later
// (streamedItems under "items"), unless whole is set; any other whole.
func parseDocument(text []byte, textLine int, whole bool) (any, error) {
	if header, items, ok := fastyaml.ListItems(text); ok && !whole {
		if v, err := fastyaml.Value(header); err == nil {
			if m, ok := v.(map[string]any); ok {
				kind, _ := m["kind"].(string)
				apiVersion, _ := m["apiVersion"].(string)
				if raw, present := m["items"]; present && raw == nil && isListKind(kind, apiVersion) {
					m["items"] = &streamedItems{items: items, textLine: textLine}
					return m, nil
				}
			}
		}
	}
	// The document's text is the caller's to keep: a long annotation's
	// value is read where it lies.
	v, err := fastyaml.ValueSharing(text)
	if err != nil {
		if line, msg, ok := docstream.YAMLErrorLine(err, textLine, docstream.LastLine(text, textLine)); ok {
			return nil, &yamlLineError{line: line, msg: msg}
		}
	}
	return v, err
}

// yamlLineError is a YAML library's error with the line it names moved to
// the stream (docstream.YAMLErrorLine).
type yamlLineError struct {
	line int
	msg  string
}

func (e *yamlLineError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

// isListKind reports whether an object of kind and apiVersion is a list
// whose items decoder.value reads: a List, or a list kind of OLM's group
// (SubscriptionList).
func isListKind(kind, apiVersion string) bool {
	group, _, hasSlash := strings.Cut(apiVersion, "/")
	return kind == "List" || (strings.HasSuffix(kind, "List") && hasSlash && group == APIGroupV0)
}

// readItems parses the items of a List document, ahead on other cores, and
// calls read with each value and its line, in order; an item that does
// not parse is recorded as the document would be, at its line. skim
// (items given no kind by their list) lets the items that are plainly
// objects without a kind go to read as a skimmed value, checked but not
// built.
func (d *decoder) readItems(si *streamedItems, skim bool, read func(i, line int, v any)) {
	// The jobs taken are parsed again: a List's items cost no memory
	// beyond pipelineWindow jobs.
	var free []*yamlJob
	next := func(index int) *yamlJob {
		if len(free) == 0 {
			return &yamlJob{index: index, skim: skim}
		}
		j := free[len(free)-1]
		free = free[:len(free)-1]
		j.items, j.index = j.items[:0], index
		return j
	}
	p := yamlPipeline{take: func(j *yamlJob) {
		j.wait()
		for k := range j.items {
			line := si.textLine + j.items[k].First
			if err := j.verrs[k]; err != nil {
				// At the line the parser names, counted from the item's.
				if l, msg, ok := docstream.YAMLErrorLine(err, line, 0); ok {
					line, err = l, errors.New(msg)
				}
				d.errs = append(d.errs, &Error{File: d.file, Line: line, Err: fmt.Errorf("invalid YAML: %w", err)})
				continue
			}
			read(j.index+k, line, j.vs[k])
		}
		free = append(free, j)
	}}
	defer p.close()
	j, size := next(0), 0
	for it := range si.items.All() {
		j.items = append(j.items, it)
		if size += it.Size(); size < jobBytes && len(j.items) < maxJobItems {
			continue
		}
		if d.cancelled() {
			return
		}
		p.add(j, true)
		j, size = next(j.index+len(j.items)), 0
	}
	if len(j.items) > 0 {
		p.add(j, true)
	}
	p.flush(d.cancelled)
}

// A worker parses the items of a List some at a time, so that handing
// them over costs little beside the parsing: jobBytes of text, or
// maxJobItems items.
const (
	jobBytes    = 32 << 10
	maxJobItems = 1024
)

// itemReader reads the items of a List on one goroutine, reusing its
// memory from one item to the next.
type itemReader struct {
	text    []byte
	scanner *fastyaml.Scanner
}

// The top-level fields readItem's scan looks at, by index.
const (
	scanAPIVersion = iota
	scanKind
	scanSchema
)

// read parses the item it. With skim, an item that is plainly an object
// without a kind (no "kind" in its text) is first only scanned: one that
// is (no kind, a string or no apiVersion, no schema: an error that Decode
// spells out only MaxSameErrors times) is returned as a yamlSkimmed value,
// anything else is parsed.
func (r *itemReader) read(it *fastyaml.ListItem, skim bool) (any, error) {
	// The item is read where it lies in the document, its dash blanked
	// meanwhile (no copy of a large item), or else from a copy. In the
	// document's text — which the decoder keeps, and which changes only at
	// the items' dashes — a long string is read where it lies too.
	text, inPlace := it.BlankDash()
	if inPlace {
		defer it.Restore()
	} else {
		r.text = it.AppendText(r.text[:0])
		text = r.text
	}
	if skim && !bytes.Contains(text, []byte("kind")) {
		if r.scanner == nil {
			r.scanner = fastyaml.NewScanner("apiVersion", "kind", "schema")
		}
		if root, ok := r.scanner.Scan(text); ok && root == fastyaml.Object && kindless(r.scanner) {
			return yamlSkimmed{it}, nil
		}
	}
	if inPlace {
		return fastyaml.ValueSharing(text)
	}
	return fastyaml.Value(text) // r.text: the next item's
}

// kindless reports whether the object s scanned has no kind, no schema
// (it is no File-Based Catalog blob) and a string or no apiVersion: what
// decoder.value reports, with no default kind, as its kind missing and
// nothing else.
func kindless(s *fastyaml.Scanner) bool {
	api, kind, schema := s.Field(scanAPIVersion), s.Field(scanKind), s.Field(scanSchema)
	return (api.Type == fastyaml.Absent || api.Type == fastyaml.Null || api.Type == fastyaml.String) &&
		(kind.Type == fastyaml.Absent || kind.Type == fastyaml.Null || (kind.Type == fastyaml.String && len(kind.Text) == 0)) &&
		(schema.Type == fastyaml.Absent || schema.Type == fastyaml.Null)
}

// skimmed stands for an item of a List that was only scanned: an object
// without a kind, whose value decoder.value builds only when it spells out
// the error. value builds it.
type skimmed interface{ value() any }

// yamlSkimmed is an item of a YAML List that readItem only scanned.
type yamlSkimmed struct{ item *fastyaml.ListItem }

// value parses the item, which the scan took.
func (s yamlSkimmed) value() any {
	v, _ := fastyaml.Fast(s.item.Text())
	return v
}
