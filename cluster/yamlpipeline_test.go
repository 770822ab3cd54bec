package cluster

import (
	"encoding/json"
	"os"
	"reflect"
	"strconv"
	"testing"

	"github.com/sextantdev/sextant/internal/docstream"
)

// TestPipelineOrder: documents parsed ahead on several goroutines are still
// taken in stream order, past the window, with JSON documents and stream
// errors in their places.
func TestPipelineOrder(t *testing.T) {
	var got []int
	p := yamlPipeline{take: func(j *yamlJob) {
		j.wait()
		got = append(got, j.doc.Line)
		if j.doc.JSON || j.err != nil {
			return
		}
		want := map[string]any{"k": json2(j.doc.Line)}
		if !reflect.DeepEqual(j.v, want) {
			t.Errorf("document %d: value %#v, want %#v", j.doc.Line, j.v, want)
		}
	}}
	defer p.close()
	n := 3*pipelineWindow + 5
	for i := range n {
		j := &yamlJob{doc: docstream.Doc{Line: i, Text: []byte("k: " + itoa(i))}}
		switch i % 7 {
		case 3:
			j.doc.JSON = true
		case 5:
			j.err = os.ErrInvalid
		}
		p.add(j, i%7 != 3 && i%7 != 5)
	}
	p.flush(func() bool { return false })
	for i, line := range got {
		if line != i {
			t.Fatalf("taken in order %v", got)
		}
	}
	if len(got) != n {
		t.Fatalf("took %d documents, want %d", len(got), n)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func json2(i int) json.Number { return json.Number(strconv.Itoa(i)) }
