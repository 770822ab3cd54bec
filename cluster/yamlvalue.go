package cluster

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"sync/atomic"
	"unicode/utf8"

	yamlv2 "go.yaml.in/yaml/v2"
	"sigs.k8s.io/yaml"

	"github.com/sextantdev/sextant/internal/docstream"
)

// yamlValue decodes one YAML document into the value that Kubernetes'
// reading gives it: sigs.k8s.io/yaml.YAMLToJSON, then encoding/json with
// UseNumber (objects are map[string]any, numbers json.Number). It parses
// the YAML once with the parser sigs.k8s.io/yaml uses and converts the
// result in place, without writing and reading JSON text; a value the
// conversion does not know to give exactly as that round trip (a float key,
// an infinite number, text that is not UTF-8, a key written two ways) takes
// the round trip itself, so the value and the errors are the same. One
// difference: a key written two ways (1 and "1") is an error, where the
// round trip keeps one of the two at random.
func yamlValue(doc []byte) (any, error) {
	if fastYAMLOn {
		if v, ok := fastYAML(doc); ok {
			return v, nil
		}
	}
	return yamlValueLib(doc)
}

// fastYAMLOn turns fastYAML on; tests turn it off to compare.
var fastYAMLOn = true

// yamlValueLib is yamlValue by the YAML library alone.
func yamlValueLib(doc []byte) (any, error) {
	var y any
	if err := yamlv2.Unmarshal(doc, &y); err != nil {
		return nil, err
	}
	v, ok, err := jsonable(y)
	if err != nil || ok {
		return v, err
	}
	return yamlValueViaJSON(doc)
}

// keyTwiceError reports a mapping with two keys that are one key in JSON.
type keyTwiceError struct{ key string }

func (e *keyTwiceError) Error() string {
	return fmt.Sprintf("key %q is written twice in one mapping (once not as a string): which value counts is not defined", e.key)
}

// yamlValueViaJSON is yamlValue by the JSON round trip.
func yamlValueViaJSON(doc []byte) (any, error) {
	js, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// jsonable converts a value of the YAML parser to what encoding/json reads
// back from its JSON form, or reports false for a value it leaves to the
// round trip.
func jsonable(y any) (any, bool, error) {
	switch y := y.(type) {
	case nil, bool:
		return y, true, nil
	case string:
		return y, utf8.ValidString(y), nil
	case int:
		return json.Number(strconv.Itoa(y)), true, nil
	case int64:
		return json.Number(strconv.FormatInt(y, 10)), true, nil
	case uint64:
		return json.Number(strconv.FormatUint(y, 10)), true, nil
	case float64:
		if math.IsInf(y, 0) || math.IsNaN(y) {
			return nil, false, nil // encoding/json refuses them: the round trip says how
		}
		b, err := json.Marshal(y)
		return json.Number(b), err == nil, nil
	case []any:
		out := make([]any, len(y))
		for i, e := range y {
			v, ok, err := jsonable(e)
			if !ok || err != nil {
				return nil, ok, err
			}
			out[i] = v
		}
		return out, true, nil
	case map[any]any:
		out := make(map[string]any, len(y))
		for k, e := range y {
			var key string
			switch k := k.(type) {
			case string:
				if !utf8.ValidString(k) {
					return nil, false, nil
				}
				key = k
			case int:
				key = strconv.Itoa(k)
			case int64:
				key = strconv.FormatInt(k, 10)
			case bool:
				key = strconv.FormatBool(k)
			case float64: // as sigs.k8s.io/yaml words it
				switch {
				case math.IsInf(k, 1):
					key = ".inf"
				case math.IsInf(k, -1):
					key = "-.inf"
				case math.IsNaN(k):
					key = ".nan"
				default:
					key = strconv.FormatFloat(k, 'g', -1, 32)
				}
			default: // null and compound keys
				return nil, false, nil
			}
			if _, dup := out[key]; dup {
				return nil, true, &keyTwiceError{key}
			}
			v, ok, err := jsonable(e)
			if !ok || err != nil {
				return nil, ok, err
			}
			out[key] = v
		}
		return out, true, nil
	}
	return nil, false, nil
}

// yamlJob is one document of a YAML stream (or the stream's error at that
// place) and, for a YAML document, its value once parsed.
type yamlJob struct {
	err   error
	doc   docstream.Doc
	item  *listItem // an item of a List document, parsed from its lines
	index int       // the item's index in its List
	v     any
	verr  error
	done  chan struct{} // closed once v and verr are set; nil: nothing to parse
}

// wait waits until the job's document is parsed.
func (j *yamlJob) wait() {
	if j.done != nil {
		<-j.done
	}
}

// yamlPipeline parses the YAML documents of a stream on up to GOMAXPROCS
// goroutines while the stream is split and the values are read in order.
// At most pipelineWindow documents are held at once, so memory stays
// bounded by the document size limit. take is called with each job, in
// the order added; close stops the workers.
type yamlPipeline struct {
	take  func(*yamlJob)
	work  chan *yamlJob
	stop  *atomic.Bool // set by close: the workers skip what is left
	queue []*yamlJob
}

// pipelineWindow is the most documents a yamlPipeline holds: read, being
// parsed or parsed and waiting to be taken.
const pipelineWindow = 16

// start hands j's document to a worker, starting the workers on first use.
func (p *yamlPipeline) start(j *yamlJob) {
	j.done = make(chan struct{})
	if p.work == nil {
		p.work, p.stop = make(chan *yamlJob, pipelineWindow), new(atomic.Bool)
		for range min(runtime.GOMAXPROCS(0), 4) {
			go func(work <-chan *yamlJob, stop *atomic.Bool) {
				for j := range work {
					switch {
					case stop.Load():
					case j.item != nil:
						j.v, j.verr = yamlValue(j.item.text())
					default:
						j.v, j.verr = parseDocument(j.doc.Text)
					}
					j.doc.Text = nil
					close(j.done)
				}
			}(p.work, p.stop)
		}
	}
	p.work <- j
}

// add queues j, handing its document to a worker when parse is set, and
// takes the oldest job once the window is full.
func (p *yamlPipeline) add(j *yamlJob, parse bool) {
	if parse {
		p.start(j)
	}
	p.queue = append(p.queue, j)
	if len(p.queue) == pipelineWindow {
		p.take(p.pop())
	}
}

// flush takes the queued jobs in order, until cancelled reports true.
func (p *yamlPipeline) flush(cancelled func() bool) {
	for len(p.queue) > 0 && !cancelled() {
		p.take(p.pop())
	}
}

// pop removes and returns the oldest queued job.
func (p *yamlPipeline) pop() *yamlJob {
	j := p.queue[0]
	p.queue[0] = nil
	p.queue = p.queue[1:]
	return j
}

// close stops the workers: they skip the documents not yet parsed (the
// reading was cancelled, or they were all taken) and exit.
func (p *yamlPipeline) close() {
	if p.work != nil {
		p.stop.Store(true)
		close(p.work)
		p.work = nil
	}
}
