package cluster

import (
	"bytes"
	"encoding/json"
)

// jsonListItems is parseDocument's split for a JSON document: `kubectl
// get -o json` prints every object in the "items" array of one List
// object. It returns the document's other fields, decoded, with the items
// array under "items" as jsonItems, to be decoded one item at a time; ok
// is false (decode the document whole) for a document that is not a
// valid JSON list object with one "items" array. line is the line text
// starts at.
func jsonListItems(text []byte, line int) (header map[string]any, ok bool) {
	if !bytes.Contains(text, []byte(`"items"`)) || !json.Valid(text) {
		return nil, false // an invalid document keeps the whole decode's error
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	start, end := -1, -1
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, false
		}
		key, _ := t.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, false
		}
		if key != "items" {
			continue
		}
		if start >= 0 || len(raw) == 0 || raw[0] != '[' {
			return nil, false // "items" twice, or not an array
		}
		end = int(dec.InputOffset())
		start = end - len(raw)
	}
	if start < 0 {
		return nil, false
	}
	h := make([]byte, 0, len(text)-(end-start)+4)
	h = append(append(append(h, text[:start]...), "null"...), text[end:]...)
	d := json.NewDecoder(bytes.NewReader(h))
	d.UseNumber()
	if err := d.Decode(&header); err != nil {
		return nil, false
	}
	kind, _ := header["kind"].(string)
	apiVersion, _ := header["apiVersion"].(string)
	if !isListKind(kind, apiVersion) {
		return nil, false
	}
	header["items"] = &jsonItems{text: text[start:end], line: line + bytes.Count(text[:start], []byte("\n"))}
	return header, true
}

// jsonItems stands for the items of a JSON List document in its header's
// value: they are decoded and read one by one (decoder.readJSONItems).
// line is the line text starts at.
type jsonItems struct {
	text []byte
	line int
}

// readJSONItems decodes the items of a JSON List one at a time and calls
// read with each and its line, in order. The document was valid JSON, so
// the items decode.
func (d *decoder) readJSONItems(ji *jsonItems, line int, read func(i, line int, v any)) {
	dec := json.NewDecoder(bytes.NewReader(ji.text))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		d.errs = append(d.errs, &Error{File: d.file, Line: line, Err: err})
		return
	}
	// The line of each item: the newlines up to its first byte, counted
	// from the last item's.
	itemLine, counted := ji.line, 0
	for i := 0; dec.More() && !d.cancelled(); i++ {
		start := int(dec.InputOffset())
		for start < len(ji.text) && (ji.text[start] == ',' || ji.text[start] == ' ' || ji.text[start] == '\t' || ji.text[start] == '\n' || ji.text[start] == '\r') {
			start++
		}
		itemLine += bytes.Count(ji.text[counted:start], []byte("\n"))
		counted = start
		var v any
		if err := dec.Decode(&v); err != nil {
			d.errs = append(d.errs, &Error{File: d.file, Line: itemLine, Err: err})
			return
		}
		read(i, itemLine, v)
	}
}
