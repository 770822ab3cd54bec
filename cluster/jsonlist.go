package cluster

import (
	"bytes"
	"encoding/json"

	"github.com/sextantdev/sextant/internal/fastjson"
)

// jsonListItems is parseDocument's split for a JSON document: `kubectl
// get -o json` prints every object in the "items" array of one List
// object. It returns the document's other fields, decoded, with the items
// array under "items" as jsonItems, to be decoded one item at a time; ok
// is false (decode the document whole) for a document that is not a
// valid JSON list object with one "items" array. line is the line text
// starts at.
func jsonListItems(text []byte, line int) (header map[string]any, ok bool) {
	if !bytes.Contains(text, []byte(`"items"`)) {
		return nil, false
	}
	members, valid := fastjson.ValidObject(text)
	if !valid {
		return nil, false // an invalid document keeps the whole decode's error
	}
	start, end := -1, -1
	for _, m := range members {
		if !bytes.Equal(m.Key, []byte("items")) && fastjson.Key(m.Key) != "items" {
			continue
		}
		if start >= 0 || text[m.Start] != '[' {
			return nil, false // "items" twice, or not an array
		}
		start, end = m.Start, m.End
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
// the items decode. With skim (items given no kind by their list), an item
// that is plainly an object without a kind goes to read as a skimmed
// value, not decoded (jsonKindless).
func (d *decoder) readJSONItems(ji *jsonItems, skim bool, read func(i, line int, v any)) {
	// The line of each item: the newlines up to its first byte, counted
	// from the last item's.
	itemLine, counted := ji.line, 0
	item := new([]byte) // the item a skimmed value stands for, while it is read
	text := ji.text
	for i, start := 0, fastjson.After(text, 1); text[start] != ']'; i++ {
		if d.cancelled() {
			return
		}
		itemLine += bytes.Count(text[counted:start], []byte("\n"))
		counted = start
		kindless, end := false, 0
		if skim && text[start] == '{' {
			kindless, end = jsonKindless(text, start)
		} else {
			end = fastjson.End(text, start)
		}
		*item = text[start:end]
		if start = fastjson.After(text, end); text[start] == ',' {
			start = fastjson.After(text, start+1)
		}
		if kindless {
			read(i, itemLine, jsonSkimmed{item})
			continue
		}
		v, err := decodeJSON(*item)
		if err != nil {
			d.errs = append(d.errs, &Error{File: d.file, Line: itemLine, Err: err})
			return
		}
		read(i, itemLine, v)
	}
}

// decodeJSON decodes one JSON value, numbers as json.Number.
func decodeJSON(text []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// jsonKindless reports whether the object at text[start], valid JSON, is
// one that decoder.value reports, with no default kind, as its kind
// missing and nothing else: no kind (or null, or ""), no schema (or null)
// and a string or no apiVersion (or null), each as its last member of
// that name says (encoding/json keeps the last). A key with an escape or
// a byte beyond ASCII is left to the decoding. It returns where the
// object ends.
func jsonKindless(text []byte, start int) (kindless bool, end int) {
	api, kind, schema := byte('n'), byte('n'), byte('n') // the first byte of each value; 'n': none or null
	kindEmpty, plainKeys := true, true
	last := start + 1 // past the last member
	for m := range fastjson.Members(text, start) {
		last = m.End
		for _, c := range m.Key {
			if c == '\\' || c >= 0x80 {
				plainKeys = false
			}
		}
		switch string(m.Key) {
		case "apiVersion":
			api = text[m.Start]
		case "kind":
			kind, kindEmpty = text[m.Start], m.End-m.Start == 2
		case "schema":
			schema = text[m.Start]
		}
	}
	kindless = plainKeys && (api == 'n' || api == '"') && (kind == 'n' || kind == '"' && kindEmpty) && schema == 'n'
	return kindless, fastjson.After(text, last) + 1 // past the '}'
}

// jsonSkimmed stands for an item of a JSON List that readJSONItems did not
// decode: an object without a kind (jsonKindless), whose value
// decoder.value builds only when it spells out the error.
type jsonSkimmed struct{ item *[]byte }

// value decodes the item.
func (s jsonSkimmed) value() any {
	v, _ := decodeJSON(*s.item)
	return v
}
