package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/docstream"
	"github.com/sextantdev/sextant/internal/suggest"
)

// APIGroupV0 is the API group of OLM v0's kinds (its catalog and olm
// operators): ClusterServiceVersion, Subscription, CatalogSource and
// InstallPlan (v1alpha1), OperatorGroup (v1).
const APIGroupV0 = "operators.coreos.com"

// The kinds Decode reads.
const (
	KindCSV           = "ClusterServiceVersion"
	KindSubscription  = "Subscription"
	KindCatalogSource = "CatalogSource"
	KindInstallPlan   = "InstallPlan"
)

// Error is one problem in a manifest: where it is (file and line of the
// document), which object (kind, namespace, name — as far as they are
// known), which field (a path such as "spec.customresourcedefinitions.owned[0].name"),
// and what is wrong.
type Error struct {
	File string
	// Line is the 1-based line where the document (or, in a JSON stream,
	// the value) starts; 0 when unknown.
	Line      int
	Kind      string
	Namespace string
	Name      string
	// Field is the path of the field at fault, empty when the problem is
	// the object as a whole.
	Field string
	Err   error
}

// NotManifestsError reports a File-Based Catalog where manifests are
// read: its blobs have a "schema" (olm.package, olm.channel, …), not an
// apiVersion and a kind. It is the Err of an *Error at the first blob of
// the file, one per file.
type NotManifestsError struct {
	// Schema is the schema of the first blob.
	Schema string
}

// Error says what the input holds.
func (e *NotManifestsError) Error() string {
	return fmt.Sprintf("a File-Based Catalog (blobs of schema %s, …), not Kubernetes manifests", e.Schema)
}

// Error returns "file:line: Kind namespace/name: field path: message".
func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
	} else {
		b.WriteString("<input>")
	}
	if e.Line > 0 {
		b.WriteString(":")
		b.WriteString(strconv.Itoa(e.Line))
	}
	b.WriteString(": ")
	var fe *FieldError
	if errors.As(e.Err, &fe) && isV1Kind(e.Kind) {
		// The API server's words: the object, then the problem.
		b.WriteString(InvalidHeader(e.Kind, APIGroupV1, e.Name))
		b.WriteString(": ")
		if fe.Field == "" {
			b.WriteString(fe.Detail)
		} else {
			b.WriteString(fe.Error())
		}
		return b.String()
	}
	if e.Kind != "" || e.Name != "" {
		if e.Kind != "" {
			b.WriteString(e.Kind)
		} else {
			b.WriteString("object")
		}
		b.WriteString(" ")
		switch {
		case e.Namespace != "" && e.Name != "":
			fmt.Fprintf(&b, "%q", e.Namespace+"/"+e.Name)
		case e.Name != "":
			fmt.Fprintf(&b, "%q", e.Name)
		default:
			b.WriteString("(no name)")
		}
		b.WriteString(": ")
	}
	var nf interface{ namesField() }
	if e.Field != "" && !errors.As(e.Err, &nf) {
		b.WriteString("field ")
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Default limits of a Loader (and of Decode, DecodeKind, DecodeObjects and
// LoadFiles).
const (
	// DefaultMaxBytes limits the size of one manifest stream.
	DefaultMaxBytes = 1 << 30
	// DefaultMaxDocument limits the size of one YAML document or JSON
	// value (a kubectl List is one).
	DefaultMaxDocument = 64 << 20
)

// Loader reads manifests within size limits, honouring a context. The zero
// value reads with the default limits; a Loader may be copied and used
// concurrently.
type Loader struct {
	// MaxBytes limits the size of each stream; 0 means DefaultMaxBytes, a
	// negative value no limit.
	MaxBytes int64
	// MaxDocument limits the size of one YAML document or one top-level
	// JSON value; 0 means DefaultMaxDocument, a negative value no limit.
	MaxDocument int64

	// V1FeatureSet is operator-controller's feature set, whose CRDs the
	// ClusterExtensions and ClusterCatalogs are checked against; "" is
	// FeatureSetStandard.
	V1FeatureSet FeatureSet

	// wholeLists reads List documents whole instead of item by item
	// (tests hold the split to the whole reading).
	wholeLists bool
	// noSkim parses every item of a List read item by item, where the
	// items without a kind are otherwise only scanned (tests hold the scan
	// to the parse).
	noSkim bool
}

func (l Loader) limits() (maxBytes, maxDoc int64) {
	return docstream.Limit(l.MaxBytes, DefaultMaxBytes), docstream.Limit(l.MaxDocument, DefaultMaxDocument)
}

func (l Loader) decoder(ctx context.Context, name, kind string) *decoder {
	d := &decoder{ctx: ctx, file: name, kind: kind, seen: map[objectKey]int{}}
	d.maxBytes, d.maxDoc = l.limits()
	d.wholeLists, d.noSkim = l.wholeLists, l.noSkim
	d.featureSet = l.V1FeatureSet
	return d
}

// Decode is [Decode] within the loader's limits, honouring ctx: when ctx
// is done, reading stops and the error matches errors.Is(err, ctx.Err()).
func (l Loader) Decode(ctx context.Context, r io.Reader, name string) (*State, error) {
	return l.decodeStream(ctx, r, name, "")
}

// DecodeKind is [DecodeKind] within the loader's limits, honouring ctx.
func (l Loader) DecodeKind(ctx context.Context, r io.Reader, name, kind string) (*State, error) {
	if !slices.Contains(readKinds, kind) {
		return nil, fmt.Errorf("cluster.DecodeKind: kind %q is not one Decode reads (%s)", kind, strings.Join(readKinds, ", "))
	}
	return l.decodeStream(ctx, r, name, kind)
}

// LoadFiles is [LoadFiles] within the loader's limits, honouring ctx.
func (l Loader) LoadFiles(ctx context.Context, paths ...string) (*State, error) {
	d := l.decoder(ctx, "", "")
	files, errs := manifestFiles(paths)
	d.errs = append(d.errs, errs...)
	for _, p := range files {
		if d.cancelled() {
			break
		}
		f, err := os.Open(p)
		if err != nil {
			d.errs = append(d.errs, err)
			continue
		}
		d.file = p
		d.read(f)
		f.Close()
	}
	if err := d.finish(); err != nil {
		return nil, err
	}
	return &d.state, nil
}

func (l Loader) decodeStream(ctx context.Context, r io.Reader, name, kind string) (*State, error) {
	d := l.decoder(ctx, name, kind)
	d.read(r)
	if err := d.finish(); err != nil {
		return nil, err
	}
	return &d.state, nil
}

// Decode reads the ClusterServiceVersions, Subscriptions, CatalogSources,
// OperatorGroups and InstallPlans (operators.coreos.com, OLM v0), the
// ClusterExtensions and ClusterCatalogs (olm.operatorframework.io/v1, OLM
// v1) and the CustomResourceDefinitions (apiextensions.k8s.io/v1) of a
// manifest stream: a single object, multi-document YAML, a JSON value or
// a stream of JSON values, and `kind: List` (or a typed list such as
// SubscriptionList) with items, exactly as kubectl prints them. name names
// the stream in errors (usually the file name); a name ending in .json
// means JSON, and its errors say so, while any other stream is YAML whose
// documents may be JSON text.
//
// The stream is read one document at a time, never whole, within the
// default limits of a [Loader] (use one to set them, or a context):
// reading stops with an error naming the stream and the limit at input
// over a limit (a *graph.LimitError) or at binary data (a
// *graph.BinaryError: /dev/zero fails on its first byte).
//
// Every object is accounted for. An object without a kind is an error
// (typed client-go objects marshal without one: decode those with
// [DecodeKind]). Objects of the kinds that resolution does not read (a
// Deployment, a ConfigMap, a kind of another API group) are counted in
// [State.Ignored], never an error and never read. A kind of OLM's API
// group (operators.coreos.com) that OLM does not define is an error, as
// kubectl refuses it, with the nearest kind ("Subscribtion": did you mean
// "Subscription"?).
//
// Fields are checked as `kubectl apply --validate=strict` checks them:
// a field that the schema of an OLM v0 object (the CustomResourceDefinitions
// of operator-framework/api) does not have is an error naming it and the
// nearest known field; metadata is checked as the API server's ObjectMeta
// (managedFields not checked) and status not at all, since OLM writes it.
//
// Every problem is reported, not only the first: the error is an
// errors.Join of *Error values. The returned state is sorted (see
// [State.Sort]) and is nil when there is an error.
func Decode(r io.Reader, name string) (*State, error) {
	return Loader{}.Decode(context.Background(), r, name)
}

// DecodeKind reads objects that are all of one kind and may carry no kind
// of their own — what json.Marshal writes for a slice of typed objects
// from a client-go lister or informer, whose TypeMeta is empty. The input
// is a JSON array of objects, a stream of objects, a `kind: List`, or YAML
// documents, as for [Decode]; every object without a kind is taken to be
// of kind kind ([KindCSV], [KindSubscription], [KindCatalogSource], [KindOperatorGroup], [KindInstallPlan],
// [KindClusterExtension], [KindClusterCatalog], [KindCRD] or [KindClusterVersion]), and
// an object that names another kind is an error. Errors are those of
// Decode.
func DecodeKind(r io.Reader, name, kind string) (*State, error) {
	return Loader{}.DecodeKind(context.Background(), r, name, kind)
}

// v0Kinds are the kinds of OLM v0's API group (operators.coreos.com):
// those Decode reads, then otherKinds, which it counts as ignored.
var (
	v0Kinds    = []string{KindCSV, KindSubscription, KindCatalogSource, KindOperatorGroup, KindInstallPlan, "Operator", "OperatorCondition", "OLMConfig"}
	otherKinds = v0Kinds[5:]
)

// readKinds lists the kinds Decode reads, for DecodeKind's check.
var readKinds = []string{KindCSV, KindSubscription, KindCatalogSource, KindOperatorGroup, KindInstallPlan, KindClusterExtension, KindClusterCatalog, KindCRD, KindClusterVersion}

// LoadFiles decodes the named files (see [Decode]) into one state. A path
// that is a folder stands for every .yaml, .yml and .json regular file in
// it and its subfolders, in lexical order of path (a folder with none is an
// error). Every problem of every file is reported, as does Decode; an
// object defined twice (the same kind, namespace and name), in one file or
// across files, is an error.
func LoadFiles(paths ...string) (*State, error) {
	return Loader{}.LoadFiles(context.Background(), paths...)
}

func displayName(name string) string {
	if name == "" {
		return "<input>"
	}
	return name
}

type objectKey struct{ kind, namespace, name string }

type decoder struct {
	ctx      context.Context
	ctxErr   error
	maxBytes int64
	maxDoc   int64
	file     string
	kind     string // DecodeKind's kind: the kind of objects without one
	// featureSet picks the CRDs of the OLM v1 kinds (Loader.V1FeatureSet).
	featureSet FeatureSet
	state      State
	errs       []error
	seen       map[objectKey]int // object → line of its first definition
	files      map[objectKey]string
	// problems counts the problems of each kind, in problemOrder, so that
	// at most MaxSameErrors of one kind are reported (see over).
	problems     map[problemKey]*problemCount
	problemOrder []problemKey
	suppressed   int // the problems left out
	lastProblem  problemKey
	lastCount    *problemCount // of lastProblem (count)
	// shapeMemo, fieldMemo and keyMemo are the last kind of problem made
	// (object.problem): an object's shape and field, and its key.
	shapeMemo, fieldMemo string
	keyMemo              string
	// fbcFiles are the files found to hold a File-Based Catalog.
	fbcFiles map[string]bool
	// onObject, when set, receives every object that is not a list
	// instead of the kinds Decode reads (see DecodeObjects).
	onObject func(o *object, apiVersion, kind string, m map[string]any)
	// wholeLists reads List documents whole (Loader.wholeLists).
	wholeLists bool
	// noSkim parses every item of a List (Loader.noSkim).
	noSkim bool
}

func (d *decoder) finish() error {
	if d.cancelled() {
		return d.ctxErr
	}
	if d.nerrs() > 0 {
		return errors.Join(d.bounded()...)
	}
	d.state.Sort()
	return nil
}

// MaxSameErrors is how many problems of one kind — one message at one
// field, list indexes aside — Decode reports per input; the others are
// counted in one last error, "… and N more", so that a List of 300,000
// items without a kind answers in one screen.
const MaxSameErrors = 20

// problemKey identifies a kind of problem in one input.
type problemKey struct{ file, field, format string }

// problemCount counts the problems of one kind; the decoder keeps a
// pointer to the count asked last (decoder.count).
type problemCount struct {
	n int
}

// nerrs returns the number of problems found: those recorded and those
// left out (over). An object is kept only when it adds none.
func (d *decoder) nerrs() int { return len(d.errs) + d.suppressed }

// over counts a problem of kind k (object.problem) and reports whether
// MaxSameErrors of its kind were already recorded; then it counts it as
// left out, so that the object is not kept.
func (d *decoder) over(k problemKey) bool {
	c := d.count(k)
	if c == nil {
		c = &problemCount{}
		if d.problems == nil {
			d.problems = map[problemKey]*problemCount{}
		}
		d.problems[k] = c
		d.problemOrder = append(d.problemOrder, k)
		d.lastProblem, d.lastCount = k, c
	}
	c.n++
	if c.n <= MaxSameErrors {
		return false
	}
	d.suppressed++
	return true
}

// count returns the count of problems of kind k, nil before the first.
// The kind asked last is remembered: the items of a list repeat theirs.
func (d *decoder) count(k problemKey) *problemCount {
	if d.lastCount != nil && k == d.lastProblem {
		return d.lastCount
	}
	c := d.problems[k]
	if c != nil {
		d.lastProblem, d.lastCount = k, c
	}
	return c
}

// stripIndexes returns field with its list indexes left out:
// "items[3].spec.env[0]" → "items[].spec.env[]".
func stripIndexes(field string) string {
	i := strings.IndexByte(field, '[')
	if i < 0 {
		return field
	}
	b := make([]byte, 0, len(field))
	for i < len(field) {
		b = append(b, field[:i+1]...)
		field = field[i+1:]
		j := 0
		for j < len(field) && '0' <= field[j] && field[j] <= '9' {
			j++
		}
		if j > 0 && j < len(field) && field[j] == ']' {
			field = field[j:]
		}
		if i = strings.IndexByte(field, '['); i < 0 {
			break
		}
	}
	return string(append(b, field...))
}

// bounded returns d.errs and, for each kind of problem with some left
// out, how many and the total.
func (d *decoder) bounded() []error {
	if d.suppressed == 0 {
		return d.errs
	}
	out := slices.Clip(d.errs)
	for _, k := range d.problemOrder {
		if c := d.problems[k]; c.n > MaxSameErrors {
			out = append(out, &Error{File: k.file, Err: fmt.Errorf("… and %d more like the above at field %s (%d in all)", c.n-MaxSameErrors, k.field, c.n)})
		}
	}
	return out
}

// cancelled reports whether the context is done, keeping its error.
func (d *decoder) cancelled() bool {
	if d.ctxErr == nil && d.ctx != nil {
		d.ctxErr = d.ctx.Err()
	}
	return d.ctxErr != nil
}

// read reads one stream, document by document: JSON values when the file
// is named .json, else YAML documents (those that are JSON text read as
// JSON values).
func (d *decoder) read(r io.Reader) {
	size := streamSize(r)
	r = docstream.LimitReader(r, d.maxBytes)
	if strings.HasSuffix(d.file, ".json") {
		j := docstream.NewJSON(r, d.maxDoc, 0, 1)
		j.Expect(size)
		d.jsonValues(j)
		return
	}
	y := docstream.NewYAML(r, d.maxDoc, 0, 1)
	y.Expect(size)
	p := yamlPipeline{take: d.take, wholeLists: d.wholeLists}
	defer p.close()
	for !d.cancelled() {
		doc, err := y.Next()
		if err == io.EOF {
			break
		}
		// Only the parsing of YAML documents runs ahead, on other cores;
		// everything is taken in stream order.
		j := &yamlJob{err: err, doc: doc}
		j.doc.Text = y.Take() // Next reuses its buffer
		p.add(j, err == nil && !doc.JSON)
	}
	p.flush(d.cancelled)
}

// streamSize returns the size of what r holds when it is a regular file or
// text in memory (a *bytes.Reader, *strings.Reader), else 0.
func streamSize(r io.Reader) int64 {
	switch r := r.(type) {
	case interface{ Stat() (fs.FileInfo, error) }:
		if fi, err := r.Stat(); err == nil && fi.Mode().IsRegular() {
			return fi.Size()
		}
	case interface{ Len() int }:
		return int64(r.Len())
	}
	return 0
}

// take reads one document of a YAML stream, or records its stream error.
func (d *decoder) take(j *yamlJob) {
	switch {
	case j.err != nil:
		d.streamError(j.err)
	case j.doc.JSON:
		d.jsonValues(docstream.NewJSON(bytes.NewReader(j.doc.Text), 0, j.doc.TextOffset, j.doc.TextLine))
	default:
		j.wait()
		d.yamlDocument(j.v, j.verr, j.doc)
	}
}

// eachDoc calls f with each document next (a docstream splitter's Next)
// returns, until the stream ends, f returns false or the load is
// cancelled. The stream's errors are recorded; splitting goes on after
// each (next returns io.EOF after a fatal one).
func (d *decoder) eachDoc(next func() (docstream.Doc, error), f func(docstream.Doc) bool) {
	for !d.cancelled() {
		doc, err := next()
		if err == io.EOF {
			return
		}
		if err != nil {
			d.streamError(err)
			continue
		}
		if !f(doc) {
			return
		}
	}
}

// streamError records a problem of the stream itself: over a limit, binary
// data, a marker line, a read error.
func (d *decoder) streamError(err error) {
	line := 0
	var le *graph.LimitError
	var be *graph.BinaryError
	var se *docstream.SyntaxError
	switch {
	case errors.As(err, &le):
		line = le.Line
	case errors.As(err, &be):
		line = be.Line
	case errors.As(err, &se):
		line, err = se.Line, fmt.Errorf("invalid YAML: %w", err)
	default:
		err = fmt.Errorf("read %s: %w", displayName(d.file), err)
	}
	d.errs = append(d.errs, &Error{File: d.file, Line: line, Err: err})
}

// jsonValues reads a stream of JSON values, up to the first malformed one.
func (d *decoder) jsonValues(j *docstream.JSON) {
	d.eachDoc(j.Next, func(doc docstream.Doc) bool {
		if header, ok := jsonListItems(doc.Text, doc.Line); ok && !d.wholeLists {
			d.document(header, doc.Line)
			return true
		}
		dec := json.NewDecoder(bytes.NewReader(doc.Text))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			if err == io.ErrUnexpectedEOF || err == io.EOF {
				err = errors.New("unexpected end of JSON input")
			}
			d.errs = append(d.errs, &Error{File: d.file, Line: doc.Line, Err: fmt.Errorf("invalid JSON: %w", err)})
			return false
		}
		d.document(v, doc.Line)
		return true
	})
}

// yamlDocument reads the value of one YAML document, or records why it
// could not be parsed, at the line the YAML library names (its own line
// numbers count from the document's start).
func (d *decoder) yamlDocument(v any, err error, doc docstream.Doc) {
	// The document's text may be gone (parsed ahead): parseDocument placed
	// the error's line.
	line := doc.Line
	if err != nil {
		var le *yamlLineError
		if errors.As(err, &le) {
			err, line = errors.New(le.msg), le.line
		}
		d.errs = append(d.errs, &Error{File: d.file, Line: line, Err: fmt.Errorf("invalid YAML: %w", err)})
		return
	}
	if v == nil { // an empty document, or only comments
		return
	}
	d.document(v, line)
}

// object is the context of one manifest object, for errors.
type object struct {
	d    *decoder
	line int
	// at is where the object is in its document, the prefix of the fields
	// errors name.
	at                    path
	kind, namespace, name string
}

// path is where an object is in its document: outer, then, for an item of
// a list, list[index] ("items[3]." in a List); written out only for the
// errors reported.
type path struct {
	outer string // "" for a document's value
	list  string // "items"; "" for the items of a DecodeKind array
	index int    // -1: not an item
	// itemShape is, for an item, the shape of every item of its list:
	// "items[].".
	itemShape string
}

// top is the path of a document's value.
var top = path{index: -1}

// items returns the path of item i of the list at field list of the
// object at p, for each i.
func (p path) items(list string) func(i int) path {
	outer, shape := p.String(), p.shape()+list+"[]."
	return func(i int) path { return path{outer: outer, list: list, index: i, itemShape: shape} }
}

// String returns the path as the prefix of a field: "items[3].".
func (p path) String() string {
	if p.index < 0 {
		return p.outer
	}
	return p.outer + p.list + "[" + strconv.Itoa(p.index) + "]."
}

// shape is String with the list indexes left out (stripIndexes), without
// writing out the path: "items[].".
func (p path) shape() string {
	if p.index < 0 {
		return stripIndexes(p.outer)
	}
	return p.itemShape
}

// problem returns the kind of problem that a message of format at field f
// of the object is.
func (o *object) problem(f, format string) problemKey {
	d, shape := o.d, o.at.shape()
	if shape != d.shapeMemo || f != d.fieldMemo {
		// The items of a list have the same shape: their problems are
		// keyed without writing out the field each time.
		d.shapeMemo, d.fieldMemo, d.keyMemo = shape, f, field(shape, stripIndexes(f))
	}
	return problemKey{d.file, d.keyMemo, format}
}

// pastLimit reports whether MaxSameErrors problems of the kind that a
// message of format at field f is were recorded: another is only counted.
func (o *object) pastLimit(f, format string) bool {
	c := o.d.count(o.problem(f, format))
	return c != nil && c.n >= MaxSameErrors
}

// field returns prefix and field joined: the prefix alone (without its
// dot) when field is "".
func field(prefix, f string) string {
	if f == "" {
		return strings.TrimSuffix(prefix, ".")
	}
	return prefix + f
}

func (o *object) errorf(f, format string, args ...any) {
	// The kind of problem first: past MaxSameErrors of a kind, nothing is
	// written out.
	if o.d.over(o.problem(f, format)) {
		return
	}
	f = field(o.at.String(), f)
	o.d.errs = append(o.d.errs, &Error{
		File: o.d.file, Line: o.line,
		Kind: o.kind, Namespace: o.namespace, Name: o.name,
		Field: f, Err: fmt.Errorf(format, args...),
	})
}

// fail records err, a problem of field f (the API server's words, which
// name the field themselves).
func (o *object) fail(f string, err error) {
	if o.d.over(o.problem(f, fmt.Sprintf("%T", err))) {
		return
	}
	o.d.errs = append(o.d.errs, &Error{
		File: o.d.file, Line: o.line,
		Kind: o.kind, Namespace: o.namespace, Name: o.name,
		Field: f, Err: err,
	})
}

// note records a note about object o.
func (d *decoder) note(o *object, code NoteCode, text string) {
	d.state.Notes = append(d.state.Notes, Note{Code: code, File: d.file, Line: o.line,
		Object: Ref{Kind: o.kind, Namespace: o.namespace, Name: o.name}, Text: text})
}

// document reads one top-level value. For DecodeKind, a top-level array
// holds the objects.
func (d *decoder) document(v any, line int) {
	if items, ok := v.([]any); ok && d.kind != "" {
		at := top.items("")
		for i, item := range items {
			d.value(item, line, at(i), "", d.kind)
		}
		return
	}
	d.value(v, line, top, "", d.kind)
}

// value reads an object, or the items of a list. defaultAPIVersion and
// defaultKind come from a typed list (a SubscriptionList's items carry no
// kind).
func (d *decoder) value(v any, line int, at path, defaultAPIVersion, defaultKind string) {
	if s, ok := v.(skimmed); ok {
		if d.skimmedItem(line, at) {
			return
		}
		v = s.value()
	}
	o := &object{d: d, line: line, at: at}
	m, ok := v.(map[string]any)
	if !ok {
		o.errorf("", "value is %s, want an object", kindOf(v))
		return
	}
	apiVersion, kind, ok := d.typeMeta(o, m, defaultAPIVersion, defaultKind)
	if !ok || !d.wanted(o, m, kind) {
		return
	}
	if isListKind(kind, apiVersion) {
		d.listItems(o, m, apiVersion, kind)
		return
	}
	d.readObject(o, m, apiVersion, kind)
}

// typeMeta reads the object's apiVersion and kind, falling back to the
// defaults its list gives; ok is false when either is not a string.
func (d *decoder) typeMeta(o *object, m map[string]any, defaultAPIVersion, defaultKind string) (apiVersion, kind string, ok bool) {
	apiVersion, ok1 := o.str(m, "apiVersion", "apiVersion")
	kind, ok2 := o.str(m, "kind", "kind")
	if !ok1 || !ok2 {
		return "", "", false
	}
	if apiVersion == "" {
		apiVersion = defaultAPIVersion
	}
	if kind == "" {
		kind = defaultKind
	}
	if apiVersion == "" && d.kind != "" && (kind == KindClusterExtension || kind == KindClusterCatalog) {
		apiVersion = APIGroupV1 + "/v1" // DecodeKind of typed objects
	}
	if apiVersion == "" && d.kind != "" && kind == KindClusterVersion {
		apiVersion = APIGroupOpenShiftConfig + "/v1"
	}
	return apiVersion, kind, true
}

// wanted reports whether an object of kind is read at all, reporting the
// ones that are not: a File-Based Catalog's blob (once per file), an
// object with no kind, and, for DecodeKind, an object of another kind.
func (d *decoder) wanted(o *object, m map[string]any, kind string) bool {
	otherKind := d.kind != "" && kind != d.kind && !strings.HasSuffix(kind, "List")
	if kind == "" || otherKind {
		o.nameFrom(m)
	}
	if schema, _ := m["schema"].(string); kind == "" && d.kind == "" && strings.HasPrefix(schema, "olm.") {
		// A File-Based Catalog's blob: one line for the file, not one
		// per blob.
		if !d.fbcFiles[d.file] {
			if d.fbcFiles == nil {
				d.fbcFiles = map[string]bool{}
			}
			d.fbcFiles[d.file] = true
			d.errs = append(d.errs, &Error{File: d.file, Line: o.line, Err: &NotManifestsError{Schema: schema}})
		}
		return false
	}
	if kind == "" {
		o.errorf("kind", missingKind)
		return false
	}
	if otherKind {
		o.kind = kind
		o.errorf("kind", "is %q, want %q (the input is read as a list of %s objects)", kind, d.kind, d.kind)
		return false
	}
	return true
}

// missingKind is the problem of an object without a kind.
const missingKind = "missing: every object must say its kind, as kubectl get -o yaml writes it"

// skimmedItem reads an item of a List whose scan found it to be an object
// without a kind (skimmed): past MaxSameErrors of that problem it counts
// it and reports true; before, false, and the item is read from its value,
// which names it in the error.
func (d *decoder) skimmedItem(line int, at path) bool {
	o := object{d: d, line: line, at: at}
	if !o.pastLimit("kind", missingKind) {
		return false
	}
	o.errorf("kind", missingKind)
	return true
}

// nameFrom names the object, for errors, as far as its metadata allows
// (without reporting anything about the metadata).
func (o *object) nameFrom(m map[string]any) {
	if meta, ok := m["metadata"].(map[string]any); ok {
		o.name, _ = meta["name"].(string)
		o.namespace, _ = meta["namespace"].(string)
	}
}

// listItems reads the items of a list of kind.
func (d *decoder) listItems(o *object, m map[string]any, apiVersion, kind string) {
	o.kind = kind
	raw, present := m["items"]
	if !present || raw == nil {
		return
	}
	// A typed list (SubscriptionList) gives its items their kind and
	// apiVersion; a plain List gives them nothing (but DecodeKind's
	// kind).
	itemAPIVersion, itemKind := "", d.kind
	if kind != "List" {
		itemAPIVersion, itemKind = apiVersion, strings.TrimSuffix(kind, "List")
	}
	line, at := o.line, o.at.items("items")
	// Each item at its own line, when known (a List read item by item).
	read := func(i, itemLine int, item any) {
		if itemLine <= 0 {
			itemLine = line
		}
		d.value(item, itemLine, at(i), itemAPIVersion, itemKind)
	}
	switch items := raw.(type) {
	case *streamedItems:
		d.readItems(items, itemKind == "" && !d.noSkim, read)
		return
	case *jsonItems:
		d.readJSONItems(items, itemKind == "" && !d.noSkim, read)
		return
	}
	items, ok := as[[]any](o, raw, "items")
	if !ok {
		return
	}
	for i, item := range items {
		read(i, 0, item)
	}
}

// readObject hands an object that is not a list to its reader: the caller's
// (onObject), OLM v1's, the CRD reader or OLM v0's; objects of other API
// groups are noted as ignored.
func (d *decoder) readObject(o *object, m map[string]any, apiVersion, kind string) {
	group, version, hasSlash := strings.Cut(apiVersion, "/")
	if !hasSlash {
		group = "" // the core group: "v1"
	}
	switch {
	case d.onObject != nil:
		d.onObject(o, apiVersion, kind, m)
	case group == APIGroupV1 && (kind == KindClusterExtension || kind == KindClusterCatalog):
		d.v1(o, apiVersion, kind, m, o.line)
	case kind == KindCRD && (group == crdAPIGroup || apiVersion == ""):
		d.crd(o, apiVersion, m, o.line)
	case kind == KindClusterVersion && group == APIGroupOpenShiftConfig:
		d.clusterVersion(o, apiVersion, m, o.line)
	case apiVersion != "" && group != APIGroupV0:
		// Counted as ignored all the same; a custom resource stops being
		// once claimed (State.ClaimCustomResources).
		d.customResource(o, m, group, version, kind)
		d.state.ignore(group, kind)
	default:
		d.v0(o, m, group, kind)
	}
}

// v0 reads an object of OLM's v0 API group (or with no apiVersion): the
// five kinds resolution uses, each by its own reader. Another kind of the
// group is refused as kubectl refuses it; a kind of no group is ignored.
func (d *decoder) v0(o *object, m map[string]any, group, kind string) {
	switch kind {
	case KindCSV, KindSubscription, KindCatalogSource, KindOperatorGroup, KindInstallPlan:
	default:
		if group == APIGroupV0 && !slices.Contains(otherKinds, kind) {
			// kubectl refuses it: no such kind in OLM's API group.
			o.kind = kind
			o.nameFrom(m)
			o.errorf("kind", "%q is not a kind of %s%s", kind, APIGroupV0, suggest.Message(kind, v0Kinds))
			return
		}
		d.state.ignore(group, kind)
		return
	}
	o.kind = kind
	n := d.nerrs()
	meta, ok := o.obj(m, "metadata", "metadata")
	if !ok {
		if _, present := m["metadata"]; !present {
			o.errorf("metadata", "missing")
		}
		return
	}
	o.name, _ = o.str(meta, "name", "metadata.name")
	o.namespace, _ = o.str(meta, "namespace", "metadata.namespace")
	if o.name == "" {
		o.errorf("metadata.name", "missing")
	}
	if o.namespace == "" {
		o.errorf("metadata.namespace", "missing")
	}
	if o.name != "" && o.namespace != "" && !d.define(o, objectKey{kind, o.namespace, o.name}, o.line) {
		return
	}
	o.checkSchema(APIGroupV0, kind, m)
	spec, _ := o.obj(m, "spec", "spec")
	status, _ := o.obj(m, "status", "status")
	switch kind {
	case KindCSV:
		d.csv(o, n, meta, spec, status)
	case KindSubscription:
		d.subscription(o, n, meta, spec, status)
	case KindCatalogSource:
		d.catalogSource(o, n, meta, spec)
	case KindOperatorGroup:
		d.operatorGroup(o, n, meta, spec, status)
	case KindInstallPlan:
		d.installPlan(o, n, spec, status)
	}
}

// define records the definition of the object key at line, or reports
// that it is defined twice and returns false.
func (d *decoder) define(o *object, key objectKey, line int) bool {
	if first, dup := d.seen[key]; dup {
		where := strconv.Itoa(first)
		if f := d.files[key]; f != "" {
			where = f + ":" + where
		}
		o.errorf("", "defined twice (first at line %s)", where)
		return false
	}
	d.seen[key] = line
	if d.files == nil {
		d.files = map[objectKey]string{}
	}
	d.files[key] = d.file
	return true
}

// csv reads a ClusterServiceVersion; n is the error count before the
// object, so that an object with errors is not kept.
func (d *decoder) csv(o *object, n int, meta, spec, status map[string]any) {
	c := CSV{Name: o.name, Namespace: o.namespace}
	var ok bool
	c.VersionText, ok = o.str(spec, "version", "spec.version")
	switch {
	case !ok:
	case c.VersionText == "":
		o.errorf("spec.version", "missing: a CSV must have a version (resolution compares it with the catalog's)")
	default:
		v, err := graph.ParseVersion(c.VersionText)
		if err != nil {
			o.errorf("spec.version", "invalid version %q: %v", c.VersionText, err)
		}
		c.Version = v
	}
	c.Replaces, _ = o.str(spec, "replaces", "spec.replaces")
	c.MinKubeVersion, _ = o.str(spec, "minKubeVersion", "spec.minKubeVersion")
	c.InstallModes = o.installModes(spec)
	phase, _ := o.str(status, "phase", "status.phase")
	c.Phase = CSVPhase(phase)
	if reason, _ := o.str(status, "reason", "status.reason"); reason == "Copied" {
		c.Copied = true
	}
	if labels, ok := o.obj(meta, "labels", "metadata.labels"); ok {
		if _, copied := labels["olm.copiedFrom"]; copied {
			c.Copied = true
		}
	}
	if crds, ok := o.obj(spec, "customresourcedefinitions", "spec.customresourcedefinitions"); ok {
		c.Provides = o.definitions(crds, "customresourcedefinitions", "owned", c.Provides)
		c.Requires = o.definitions(crds, "customresourcedefinitions", "required", c.Requires)
	}
	if apis, ok := o.obj(spec, "apiservicedefinitions", "spec.apiservicedefinitions"); ok {
		c.APIServices = sortGVKs(o.definitions(apis, "apiservicedefinitions", "owned", nil))
		c.Provides = append(c.Provides, c.APIServices...)
		c.Requires = o.definitions(apis, "apiservicedefinitions", "required", c.Requires)
	}
	c.Provides = sortGVKs(c.Provides)
	c.Requires = sortGVKs(c.Requires)
	if annotations, ok := o.obj(meta, "annotations", "metadata.annotations"); ok {
		c.Group.Namespace, _ = o.str(annotations, OperatorNamespaceAnnotation, `metadata.annotations["olm.operatorNamespace"]`)
		if c.Group.Namespace != "" && c.Group.Namespace != c.Namespace {
			c.Copied = true
		}
		c.Group.Name, _ = o.str(annotations, OperatorGroupAnnotation, `metadata.annotations["olm.operatorGroup"]`)
		if raw, present := annotations[TargetNamespacesAnnotation]; present && raw != nil {
			c.Group.Targets, c.Group.HasTargets = as[string](o, raw, `metadata.annotations["olm.targetNamespaces"]`)
		}
		if raw, present := annotations[PropertiesAnnotation]; present && raw != nil {
			field := "metadata.annotations[" + strconv.Quote(PropertiesAnnotation) + "]"
			if s, ok := as[string](o, raw, field); ok {
				props, err := parsePropertiesAnnotation(s)
				if err != nil {
					o.errorf(field, "%v", err)
				}
				c.Properties = props
			}
		}
	}
	if d.nerrs() == n {
		d.state.CSVs = append(d.state.CSVs, c)
	}
}

// definitions reads spec.<section>.<list>, where section is
// customresourcedefinitions (each item names its group in "name",
// plural.group) or apiservicedefinitions (each item has a "group"), and
// appends the APIs to gvks.
func (o *object) definitions(m map[string]any, section, list string, gvks []graph.GVK) []graph.GVK {
	crd := section == "customresourcedefinitions"
	groupKey := "group"
	if crd {
		groupKey = "name"
	}
	base := "spec." + section + "." + list
	items, _ := o.arr(m, list, base)
	for i, it := range items {
		field := fmt.Sprintf("%s[%d]", base, i)
		def, ok := as[map[string]any](o, it, field)
		if !ok {
			continue
		}
		group, ok1 := o.str(def, groupKey, field+"."+groupKey)
		version, ok2 := o.str(def, "version", field+".version")
		kind, ok3 := o.str(def, "kind", field+".kind")
		if !ok1 || !ok2 || !ok3 {
			continue
		}
		if crd {
			name := group
			_, group, ok = strings.Cut(name, ".")
			if !ok || group == "" {
				o.errorf(field+".name", "CRD name %q is not of the form plural.group", name)
				continue
			}
		}
		gvks = append(gvks, graph.GVK{Group: group, Version: version, Kind: kind})
	}
	return gvks
}

func (d *decoder) subscription(o *object, n int, meta, spec, status map[string]any) {
	s := Subscription{Name: o.name, Namespace: o.namespace}
	if annotations, ok := o.obj(meta, "annotations", "metadata.annotations"); ok {
		s.GeneratedBy, _ = o.str(annotations, "olm.generated-by", `metadata.annotations["olm.generated-by"]`)
	}
	s.Package, _ = o.str(spec, "name", "spec.name")
	s.Channel, _ = o.str(spec, "channel", "spec.channel")
	s.StartingCSV, _ = o.str(spec, "startingCSV", "spec.startingCSV")
	s.Source, _ = o.str(spec, "source", "spec.source")
	s.SourceNamespace, _ = o.str(spec, "sourceNamespace", "spec.sourceNamespace")
	s.InstalledCSV, _ = o.str(status, "installedCSV", "status.installedCSV")
	s.CurrentCSV, _ = o.str(status, "currentCSV", "status.currentCSV")
	approval, _ := o.str(spec, "installPlanApproval", "spec.installPlanApproval")
	s.InstallPlanApproval = o.approval(approval, "spec.installPlanApproval")
	state, _ := o.str(status, "state", "status.state")
	switch st := SubscriptionState(state); st {
	case "", StateUpgradeAvailable, StateUpgradePending, StateAtLatestKnown, StateUpgradeFailed:
		s.State = st
	default:
		o.errorf("status.state", "unknown subscription state %q (want %s, %s, %s or %s)", state,
			StateUpgradeAvailable, StateUpgradePending, StateAtLatestKnown, StateUpgradeFailed)
	}
	if ref, ok := o.obj(status, "installPlanRef", "status.installPlanRef"); ok {
		s.InstallPlanRef, _ = o.str(ref, "name", "status.installPlanRef.name")
		if ns, _ := o.str(ref, "namespace", "status.installPlanRef.namespace"); ns != "" && ns != s.Namespace {
			o.errorf("status.installPlanRef.namespace", "%q is not the subscription's namespace %q", ns, s.Namespace)
		}
	} else if ref, ok := o.obj(status, "installplan", "status.installplan"); ok {
		s.InstallPlanRef, _ = o.str(ref, "name", "status.installplan.name")
	}
	if d.nerrs() == n {
		if s.Package == "" {
			o.errorf("spec.name", "missing: a subscription must name a package")
		}
		switch {
		case s.Source != "" && s.SourceNamespace == "":
			o.errorf("spec.sourceNamespace", "missing: spec.source %q names a catalog but not its namespace", s.Source)
		case s.Source == "" && s.SourceNamespace != "":
			o.errorf("spec.source", "missing: spec.sourceNamespace %q names a namespace but no catalog", s.SourceNamespace)
		}
	}
	if d.nerrs() == n {
		d.state.Subscriptions = append(d.state.Subscriptions, s)
	}
}

func (d *decoder) catalogSource(o *object, n int, meta, spec map[string]any) {
	c := CatalogSource{Name: o.name, Namespace: o.namespace}
	if annotations, ok := o.obj(meta, "annotations", "metadata.annotations"); ok {
		c.ManagedBy, _ = o.str(annotations, ManagedByAnnotation, `metadata.annotations["`+ManagedByAnnotation+`"]`)
	}
	if raw, present := spec["priority"]; present && raw != nil {
		num, ok := raw.(json.Number)
		if !ok {
			o.errorf("spec.priority", "is %s, want an integer", kindOf(raw))
		} else if p, err := strconv.ParseInt(string(num), 10, 32); err != nil {
			o.errorf("spec.priority", "%s is not a 32-bit integer", num)
		} else {
			c.Priority = int(p)
		}
	}
	c.Image, _ = o.str(spec, "image", "spec.image")
	if d.nerrs() == n {
		d.state.CatalogSources = append(d.state.CatalogSources, c)
	}
}

// installPlan reads an InstallPlan.
func (d *decoder) installPlan(o *object, n int, spec, status map[string]any) {
	p := InstallPlan{Name: o.name, Namespace: o.namespace}
	approval, _ := o.str(spec, "approval", "spec.approval")
	p.Approval = o.approval(approval, "spec.approval")
	if raw, present := spec["approved"]; present && raw != nil {
		p.Approved, _ = as[bool](o, raw, "spec.approved")
	}
	names, _ := o.arr(spec, "clusterServiceVersionNames", "spec.clusterServiceVersionNames")
	for i, raw := range names {
		field := fmt.Sprintf("spec.clusterServiceVersionNames[%d]", i)
		name, ok := as[string](o, raw, field)
		if !ok {
			continue
		}
		if name == "" {
			o.errorf(field, "empty: want a CSV name")
			continue
		}
		p.CSVNames = append(p.CSVNames, name)
	}
	phase, _ := o.str(status, "phase", "status.phase")
	switch ph := InstallPlanPhase(phase); ph {
	case "", PhasePlanning, PhaseRequiresApproval, PhaseInstalling, PhaseComplete, PhaseFailed:
		p.Phase = ph
	default:
		o.errorf("status.phase", "unknown InstallPlan phase %q (want %s, %s, %s, %s or %s)", phase,
			PhasePlanning, PhaseRequiresApproval, PhaseInstalling, PhaseComplete, PhaseFailed)
	}
	if d.nerrs() == n {
		d.state.InstallPlans = append(d.state.InstallPlans, p)
	}
}

// approval checks an approval field: empty, Automatic or Manual.
func (o *object) approval(s, field string) Approval {
	switch a := Approval(s); a {
	case "", ApprovalAutomatic, ApprovalManual:
		return a
	}
	o.errorf(field, "unknown approval %q (want %s or %s)", s, ApprovalAutomatic, ApprovalManual)
	return ""
}

// str returns the string field key of m (absent or null: ""); another type
// is an error naming field.
func (o *object) str(m map[string]any, key, field string) (string, bool) {
	raw, present := m[key]
	if !present || raw == nil {
		return "", true
	}
	return as[string](o, raw, field)
}

// obj returns the object field key of m (absent or null: nil).
func (o *object) obj(m map[string]any, key, field string) (map[string]any, bool) {
	raw, present := m[key]
	if !present || raw == nil {
		return nil, false
	}
	return as[map[string]any](o, raw, field)
}

// arr returns the array field key of m (absent or null: nil).
func (o *object) arr(m map[string]any, key, field string) ([]any, bool) {
	raw, present := m[key]
	if !present || raw == nil {
		return nil, false
	}
	return as[[]any](o, raw, field)
}

// as returns v as a T (string, bool, []any or map[string]any: a decoded
// JSON value), or records that the field at field is of another type and
// returns false.
func as[T any](o *object, v any, field string) (T, bool) {
	t, ok := v.(T)
	if !ok {
		o.errorf(field, "is %s, want %s", kindOf(v), kindOf(t))
	}
	return t, ok
}

// installModes reads spec.installModes: a list of {type, supported}; nil
// when absent, an empty (non-nil) list when empty.
func (o *object) installModes(spec map[string]any) []graph.InstallMode {
	items, ok := o.arr(spec, "installModes", "spec.installModes")
	if !ok {
		return nil
	}
	out := make([]graph.InstallMode, 0, len(items))
	for i, raw := range items {
		f := fmt.Sprintf("spec.installModes[%d]", i)
		m, ok := as[map[string]any](o, raw, f)
		if !ok {
			continue
		}
		t, ok := o.str(m, "type", f+".type")
		if !ok {
			continue
		}
		if t == "" {
			o.errorf(f+".type", "missing")
			continue
		}
		im := graph.InstallMode{Type: graph.InstallModeType(t)}
		if raw, present := m["supported"]; present && raw != nil {
			b, ok := as[bool](o, raw, f+".supported")
			if !ok {
				continue
			}
			im.Supported = b
		}
		out = append(out, im)
	}
	return out
}

// kindOf names the JSON type of a decoded value.
func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number, float64:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// sortGVKs sorts gvks by group, version, kind and drops duplicates.
func sortGVKs(gvks []graph.GVK) []graph.GVK {
	slices.SortFunc(gvks, graph.GVK.Compare)
	return slices.Compact(gvks)
}

// manifestFiles expands the folders among paths into the manifest files
// they hold (see LoadFiles); files stay as given.
func manifestFiles(paths []string) ([]string, []error) {
	var files []string
	var errs []error
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil || !fi.IsDir() {
			files = append(files, p) // Open reports the error
			continue
		}
		n := len(files)
		err = filepath.WalkDir(p, func(path string, e fs.DirEntry, err error) error {
			switch {
			case err != nil:
				errs = append(errs, err)
			case e.Type().IsRegular() && slices.Contains([]string{".yaml", ".yml", ".json"}, filepath.Ext(path)):
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			errs = append(errs, err)
		}
		if len(files) == n {
			errs = append(errs, fmt.Errorf("%s: no manifest in the folder (no .yaml, .yml or .json file)", p))
		}
	}
	return files, errs
}
