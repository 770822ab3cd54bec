package cluster

import (
	"runtime"
	"slices"
	"sync/atomic"

	"github.com/sextantdev/sextant/internal/docstream"
	"github.com/sextantdev/sextant/internal/fastyaml"
)

// yamlJob is one document of a YAML stream (or the stream's error at that
// place) and, for a YAML document, its value once parsed.
type yamlJob struct {
	err  error
	doc  docstream.Doc
	v    any
	verr error
	// items are items of a List document instead, parsed from their lines
	// into vs and verrs: a few at a time, so that the handing over costs
	// little beside the parsing. index is the first one's in its List.
	items []fastyaml.ListItem
	index int
	vs    []any
	verrs []error
	// skim checks the items that are plainly objects without a kind
	// without building their values (readItem).
	skim bool
	// done receives once the job is parsed (a job may be parsed again,
	// its memory reused); nil: nothing to parse.
	done chan struct{}
}

// wait waits until the job's document is parsed. It is called once for
// each time the job is parsed.
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
	// wholeLists parses List documents whole (Loader.wholeLists).
	wholeLists bool
}

// pipelineWindow is the most documents a yamlPipeline holds: read, being
// parsed or parsed and waiting to be taken.
const pipelineWindow = 16

// start hands j's document to a worker, starting the workers on first use.
func (p *yamlPipeline) start(j *yamlJob) {
	if j.done == nil {
		j.done = make(chan struct{}, 1)
	}
	if p.work == nil {
		p.work, p.stop = make(chan *yamlJob, pipelineWindow), new(atomic.Bool)
		for range min(runtime.GOMAXPROCS(0), 4) {
			go func(work <-chan *yamlJob, stop *atomic.Bool, wholeLists bool) {
				var r itemReader
				for j := range work {
					switch {
					case stop.Load():
					case j.items != nil:
						j.vs, j.verrs = slices.Grow(j.vs[:0], len(j.items))[:len(j.items)], slices.Grow(j.verrs[:0], len(j.items))[:len(j.items)]
						for k := range j.items {
							j.vs[k], j.verrs[k] = r.read(&j.items[k], j.skim)
						}
					default:
						j.v, j.verr = parseDocument(j.doc.Text, j.doc.TextLine, wholeLists)
					}
					j.doc.Text = nil
					j.done <- struct{}{}
				}
			}(p.work, p.stop, p.wholeLists)
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
