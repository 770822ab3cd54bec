package cluster

import (
	"fmt"
	"strings"

	"github.com/sextantdev/sextant/internal/fastyaml"
)

// streamedItems stands for the items of a List document in its header's
// value: they are parsed and read one by one (decoder.listItems). textLine
// is the line of the document's first line of text, where the items'
// lines count from.
type streamedItems struct {
	items    []fastyaml.ListItem
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
// calls read with each value and its line, in order; an item that does
// not parse is recorded as the document would be, at its line.
func (d *decoder) readItems(si *streamedItems, read func(i, line int, v any)) {
	p := yamlPipeline{take: func(j *yamlJob) {
		j.wait()
		for k := range j.items {
			line := si.textLine + j.items[k].First
			if err := j.verrs[k]; err != nil {
				d.errs = append(d.errs, &Error{File: d.file, Line: line, Err: fmt.Errorf("invalid YAML: %w", fastyaml.ItemLineError(err, line))})
				continue
			}
			read(j.index+k, line, j.vs[k])
		}
	}}
	defer p.close()
	for i := 0; i < len(si.items); i += itemsPerJob {
		if d.cancelled() {
			return
		}
		p.add(&yamlJob{items: si.items[i:min(i+itemsPerJob, len(si.items))], index: i}, true)
	}
	p.flush(d.cancelled)
}

// itemsPerJob is how many items of a List a worker parses at a time.
const itemsPerJob = 32
