package cluster

import (
	"fmt"
	"strings"

	"github.com/sextantdev/sextant/internal/fastyaml"
)

// streamedItems stands for the items of a List document in its header's
// value: they are parsed and read one by one (decoder.listItems).
type streamedItems struct{ items []fastyaml.ListItem }

// parseDocument parses one YAML document: a List document by its header,
// its items left for later (streamedItems under "items"), unless whole is
// set; any other whole.
func parseDocument(text []byte, whole bool) (any, error) {
	if header, items, ok := fastyaml.ListItems(text); ok && !whole {
		if v, err := fastyaml.Value(header); err == nil {
			if m, ok := v.(map[string]any); ok {
				kind, _ := m["kind"].(string)
				apiVersion, _ := m["apiVersion"].(string)
				if raw, present := m["items"]; present && raw == nil && isListKind(kind, apiVersion) {
					m["items"] = &streamedItems{items}
					return m, nil
				}
			}
		}
	}
	return fastyaml.Value(text)
}

// isListKind reports whether an object of kind and apiVersion is a list
// whose items decoder.value reads: a List, or a list kind of OLM's group
// (SubscriptionList).
func isListKind(kind, apiVersion string) bool {
	group, _, hasSlash := strings.Cut(apiVersion, "/")
	return kind == "List" || (strings.HasSuffix(kind, "List") && hasSlash && group == apiGroup)
}

// readItems parses the items of a List document, ahead on other cores, and
// calls read with each value in order; an item that does not parse is
// recorded as the document would be, with its line.
func (d *decoder) readItems(si *streamedItems, line int, read func(i int, v any)) {
	p := yamlPipeline{take: func(j *yamlJob) {
		j.wait()
		if j.verr != nil {
			d.errs = append(d.errs, &Error{File: d.file, Line: line, Err: fmt.Errorf("invalid YAML: %w", fastyaml.ItemLineError(j.verr, j.item.First+1))})
			return
		}
		read(j.index, j.v)
	}}
	defer p.close()
	for i := range si.items {
		if d.cancelled() {
			return
		}
		p.add(&yamlJob{item: &si.items[i], index: i}, true)
	}
	p.flush(d.cancelled)
}
