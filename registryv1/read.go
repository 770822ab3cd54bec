package registryv1

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/sextantdev/sextant/crd"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/docstream"
	"github.com/sextantdev/sextant/internal/fastjson"
	"github.com/sextantdev/sextant/internal/fastyaml"
)

// The annotations of a bundle's metadata/annotations.yaml that are read.
const (
	AnnotationMediaType = "operators.operatorframework.io.bundle.mediatype.v1"
	AnnotationPackage   = "operators.operatorframework.io.bundle.package.v1"
	AnnotationManifests = "operators.operatorframework.io.bundle.manifests.v1"
	// MediaType is the media type of a registry+v1 bundle.
	MediaType = "registry+v1"
	// AnnotationsFile is the file that makes a folder a bundle.
	AnnotationsFile = "metadata/annotations.yaml"
)

// The kinds a bundle's manifests are sorted by.
const (
	kindCSV  = "ClusterServiceVersion"
	kindList = "List"
)

// Loader reads bundle contents within size limits; the zero value has the
// defaults of graph.Loader (1 GiB a file, 64 MiB a document). A Loader is
// a value and may be used concurrently.
type Loader struct {
	// MaxBytes limits one file; MaxDocument one YAML document. 0: the
	// default; a negative value: no limit.
	MaxBytes, MaxDocument int64
}

func (l Loader) limits() (maxBytes, maxDoc int64) {
	return docstream.Limit(l.MaxBytes, graph.DefaultMaxBytes), docstream.Limit(l.MaxDocument, graph.DefaultMaxBlob)
}

// ReadDirs reads every bundle folder in dirs, at any depth: a folder with
// a metadata/annotations.yaml (see [Loader.ReadFS] for what is read of
// it). A bundle folder's own subfolders are not searched, folders named
// .git are skipped, and symbolic links are not followed (each is a
// problem). A dir that cannot be read, or that holds no bundle folder, is
// an error, every one reported. A bundle folder with problems is kept as
// far as it was read, its problems in Set.Problems; one without a single
// ClusterServiceVersion is not a bundle of the set. Folders are read in
// parallel; the result does not depend on it.
func (l Loader) ReadDirs(ctx context.Context, dirs ...string) (*Set, error) {
	var folders []string
	var links []*Problem
	var errs []error
	for _, d := range dirs {
		found, lks, err := findBundles(ctx, d)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if len(found) == 0 {
			errs = append(errs, fmt.Errorf("%s: no bundle folder in it (a folder with %s)", d, AnnotationsFile))
		}
		folders = append(folders, found...)
		links = append(links, lks...)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	slices.Sort(folders)
	folders = slices.Compact(folders)
	results := make([][]error, len(folders))
	bundles := make([]*Bundle, len(folders))
	work := make(chan int)
	var wg sync.WaitGroup
	perms := new(permissionSets)
	for range min(runtime.GOMAXPROCS(0), len(folders)) {
		wg.Go(func() {
			for i := range work {
				bundles[i], results[i] = l.readFS(os.DirFS(folders[i]), Source{Kind: FromFolder, Path: folders[i]}, perms)
			}
		})
	}
	for i := range folders {
		if ctx.Err() != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s := NewSet()
	for _, p := range links {
		s.Problems = append(s.Problems, p)
	}
	for i, b := range bundles {
		s.Problems = append(s.Problems, results[i]...)
		if b != nil {
			s.Add(b)
		}
	}
	return s, nil
}

// findBundles lists the bundle folders under dir, and the symbolic links
// it did not follow.
func findBundles(ctx context.Context, dir string) (found []string, links []*Problem, err error) {
	st, err := os.Stat(dir)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return nil, nil, fmt.Errorf("%s: %w", dir, pe.Err) // not "stat DIR: …"
	}
	if err != nil {
		return nil, nil, err
	}
	if !st.IsDir() {
		return nil, nil, fmt.Errorf("%s: not a folder (a folder holding bundle folders is wanted)", dir)
	}
	err = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if e.Type()&fs.ModeSymlink != 0 {
			links = append(links, &Problem{Source: Source{Kind: FromFolder, Path: p}, Err: errors.New("a symbolic link, not followed")})
			return nil
		}
		if !e.IsDir() {
			return nil
		}
		if e.Name() == ".git" && p != dir {
			return filepath.SkipDir
		}
		if st, err := os.Lstat(filepath.Join(p, AnnotationsFile)); err == nil && st.Mode().IsRegular() {
			found = append(found, p)
			return filepath.SkipDir
		}
		return nil
	})
	return found, links, err
}

// ReadFS reads the bundle at the root of fsys (a bundle folder, or an
// image's files), from src: metadata/annotations.yaml, which must name
// the registry+v1 media type (a bundle's package and its manifests folder,
// manifests/ unless it names another, are read there too), then every
// file of the manifests folder in name order, each a stream of YAML or
// JSON documents. Each document is a manifest; a List's items are
// manifests too. The bundle is nil when it has no ClusterServiceVersion
// or several (a problem says which). Every problem is a *Problem.
func (l Loader) ReadFS(fsys fs.FS, src Source) (*Bundle, []error) {
	return l.readFS(fsys, src, nil)
}

// readFS is ReadFS, the CSV's permissions shared through perms (nil:
// not shared).
func (l Loader) readFS(fsys fs.FS, src Source, perms *permissionSets) (*Bundle, []error) {
	r := &bundleReader{l: l, b: &Bundle{Source: src}, fsys: fsys, perms: perms}
	ann, err := l.annotations(fsys)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			err = errors.New("no such file: not a bundle")
		}
		r.problem(AnnotationsFile, 0, "", err)
		return nil, r.problems
	}
	if mt := ann[AnnotationMediaType]; mt != MediaType {
		r.problem(AnnotationsFile, 0, "", fmt.Errorf("annotation %s is %q, not %q: not read", AnnotationMediaType, mt, MediaType))
		return nil, r.problems
	}
	r.b.Package = ann[AnnotationPackage]
	mdir := path.Clean(strings.Trim(ann[AnnotationManifests], "/"))
	if ann[AnnotationManifests] == "" {
		mdir = "manifests"
	}
	if !fs.ValidPath(mdir) || mdir == "." {
		r.problem(AnnotationsFile, 0, "", fmt.Errorf("annotation %s names %q, not a folder inside the bundle", AnnotationManifests, ann[AnnotationManifests]))
		return nil, r.problems
	}
	entries, err := fs.ReadDir(fsys, mdir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			err = errors.New("no such folder: not a bundle")
		}
		r.problem(mdir, 0, "", err)
		return nil, r.problems
	}
	for _, e := range entries {
		file := mdir + "/" + e.Name()
		if !e.Type().IsRegular() {
			what := "a folder"
			if !e.IsDir() {
				what = "not a regular file"
			}
			r.problem(file, 0, "", fmt.Errorf("%s: not read (the manifests folder holds manifest files)", what))
			continue
		}
		r.readFile(file)
	}
	switch {
	case len(r.csvs) == 0:
		r.problem(mdir, 0, "", errors.New("no ClusterServiceVersion: not a bundle"))
		return nil, r.problems
	case len(r.csvs) > 1:
		r.problem(mdir, 0, "", fmt.Errorf("%d ClusterServiceVersions (%s): a bundle has one", len(r.csvs), strings.Join(r.csvs, ", ")))
		return nil, r.problems
	case r.b.CSV == nil:
		return nil, r.problems // its CSV did not decode
	}
	return r.b, r.problems
}

// annotations reads the annotations of metadata/annotations.yaml that
// are read; the others may hold anything (a vendor's flags, the media
// types of the metrics or the tests).
func (l Loader) annotations(fsys fs.FS) (map[string]string, error) {
	maxBytes, _ := l.limits()
	data, err := readFile(fsys, AnnotationsFile, maxBytes)
	if err != nil {
		return nil, err
	}
	v, err := fastyaml.Value(data)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("is %s, want an object with annotations", jsonKind(v))
	}
	am, ok := m["annotations"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("field annotations: is %s, want an object", jsonKind(m["annotations"]))
	}
	out := make(map[string]string, 3)
	for _, k := range [...]string{AnnotationMediaType, AnnotationPackage, AnnotationManifests} {
		v, ok := am[k]
		if !ok {
			continue
		}
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("annotation %s: is %s, want a string", k, jsonKind(v))
		}
		out[k] = s
	}
	return out, nil
}

// readFile reads a file of fsys whole, within maxBytes, binary data
// refused.
func readFile(fsys fs.FS, name string, maxBytes int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return docstream.ReadAll(f, maxBytes)
}

// bundleReader reads one bundle.
type bundleReader struct {
	l        Loader
	b        *Bundle
	fsys     fs.FS // nil: the documents are held in memory
	perms    *permissionSets
	csvs     []string
	problems []error
}

func (r *bundleReader) problem(file string, line int, obj string, err error) {
	r.problems = append(r.problems, &Problem{Source: r.b.Source, File: file, Line: line, Object: obj, Err: err})
}

// buffers hold the files being read: a file's bytes are not kept (a CRD
// is read again when parsed), so one buffer serves every file.
var buffers = sync.Pool{New: func() any { return new([]byte) }}

// readFile reads one manifest file: its documents, each a manifest.
func (r *bundleReader) readFile(file string) {
	maxBytes, maxDoc := r.l.limits()
	buf := buffers.Get().(*[]byte)
	defer buffers.Put(buf)
	f, err := r.fsys.Open(file)
	if err == nil {
		*buf, err = docstream.ReadAllTo(*buf, f, maxBytes)
		f.Close()
	}
	if err != nil {
		var be *docstream.BinaryError
		line := 0
		if errors.As(err, &be) {
			line = be.Line
		}
		r.problem(file, line, "", err)
		return
	}
	data := *buf
	if one, ok := oneDocument(data, maxDoc); ok {
		if one.Text != nil {
			r.document(one.Text, docLoc{file: file, line: one.Line, textLine: 1, off: 0})
		}
		return
	}
	y := docstream.NewYAML(bytes.NewReader(data), maxDoc, 0, 1)
	for {
		d, err := y.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			var se *docstream.SyntaxError
			var tl *docstream.TooLargeError
			switch {
			case errors.As(err, &se):
				r.problem(file, se.Line, "", err)
				continue
			case errors.As(err, &tl):
				r.problem(file, tl.Line, "", err)
			default:
				r.problem(file, 0, "", err)
			}
			return
		}
		r.document(d.Text, docLoc{file: file, line: d.Line, textLine: d.TextLine, off: d.TextOffset})
	}
}

// oneDocument reads data, a whole file, as the one document it is when no
// line of it is a document marker ("---", "..."), it has no byte-order
// mark and it is within maxDoc: ok is false otherwise, for
// docstream.YAML to split. The document is data itself, its Line that
// of its first line with content; with no content (blank lines and
// comments only), Text is nil.
func oneDocument(data []byte, maxDoc int64) (d docstream.Doc, ok bool) {
	if maxDoc > 0 && int64(len(data)) > maxDoc || bytes.HasPrefix(data, []byte("\ufeff")) {
		return d, false
	}
	for _, m := range [...]string{"---", "..."} {
		if bytes.HasPrefix(data, []byte(m)) || bytes.Contains(data, []byte("\n"+m)) {
			return d, false
		}
	}
	line := 1
	for rest := data; len(rest) > 0; line++ {
		l, after, _ := bytes.Cut(rest, []byte("\n"))
		if t := bytes.TrimLeft(l, " \t\r"); len(t) > 0 && t[0] != '#' {
			return docstream.Doc{Text: data, Line: line, TextLine: 1}, true
		}
		rest = after
	}
	return d, true
}

// docLoc is where a document is: its file, the line of its first content
// and of its text's first byte, and the text's offset in the file (-1:
// the text is not the file's, as a List's item).
type docLoc struct {
	file           string
	line, textLine int
	off            int64
}

var scanners = sync.Pool{New: func() any { return fastyaml.NewScanner("apiVersion", "kind") }}

var converters = sync.Pool{New: func() any { return new(fastyaml.Converter) }}

// document reads one document, a manifest: a CRD is kept by its digest
// (the fast scan tells most of them without converting them), a CSV read,
// any other object named, a List's items read one by one.
func (r *bundleReader) document(text []byte, loc docLoc) {
	if av, ok := plainCRD(text); ok {
		r.addCRD(text, av, loc)
		return
	}
	sc := scanners.Get().(*fastyaml.Scanner)
	root, ok := sc.Scan(text)
	apiVersion, kind := sc.Field(0), sc.Field(1)
	isCRD := ok && root == fastyaml.Object && kind.Type == fastyaml.String && string(kind.Text) == crd.Kind
	av := ""
	if apiVersion.Type == fastyaml.String {
		av = string(apiVersion.Text)
	}
	scanners.Put(sc)
	if !ok {
		// Outside the fast subset (anchors, flow style, timestamps, …):
		// a CRD still says so on a line of its own, and is read whole
		// only when parsed.
		av, isCRD = topLevelCRD(text)
	}
	if isCRD {
		r.addCRD(text, av, loc)
		return
	}
	conv := converters.Get().(*fastyaml.Converter)
	defer converters.Put(conv)
	j, err := conv.Convert(text)
	if err != nil {
		line, msg := loc.line, err.Error()
		if l, m, ok := docstream.YAMLErrorLine(err, loc.textLine, docstream.LastLine(text, loc.textLine)); ok {
			line, msg = l, m
		}
		r.problem(loc.file, line, "", errors.New(msg))
		return
	}
	r.object(j, text, loc)
}

// object reads one manifest as JSON text j (text: its YAML, kept for a
// CRD's digest).
func (r *bundleReader) object(j, text []byte, loc docLoc) {
	i := fastjson.After(j, 0)
	if i >= len(j) || j[i] != '{' {
		r.problem(loc.file, loc.line, "", fmt.Errorf("is %s, want a Kubernetes object", jsonTextKind(j[i:])))
		return
	}
	top := members(j, i)
	apiVersion, avOK := jsonString(j, top["apiVersion"])
	kind, kindOK := jsonString(j, top["kind"])
	var name, namespace string
	if meta, ok := top["metadata"]; ok && j[meta.Start] == '{' {
		mm := members(j, meta.Start)
		name, _ = jsonString(j, mm["name"])
		namespace, _ = jsonString(j, mm["namespace"])
	}
	switch {
	case !avOK || !kindOK || apiVersion == "" || kind == "":
		r.problem(loc.file, loc.line, "", errors.New("no apiVersion or kind: a manifest has both"))
	case kind == crd.Kind:
		r.addCRD(text, apiVersion, loc)
	case kind == kindCSV:
		c, err := graph.DecodeCSVManifest(csvFields(j, top))
		if err != nil {
			r.csvs = append(r.csvs, name) // a CSV all the same
			r.problem(loc.file, loc.line, kindCSV+" "+name, err)
			return
		}
		if c.Name == "" {
			r.problem(loc.file, loc.line, kindCSV, errors.New("field metadata.name: missing"))
			return
		}
		r.csvs = append(r.csvs, c.Name)
		c.Permissions = r.perms.share(c.Permissions)
		c.ClusterPermissions = r.perms.share(c.ClusterPermissions)
		r.b.CSV = c
	case kind == kindList:
		it, ok := top["items"]
		if !ok || j[it.Start] != '[' {
			r.problem(loc.file, loc.line, kind, errors.New("field items: missing or not a list"))
			return
		}
		for k := fastjson.After(j, it.Start+1); j[k] != ']'; {
			// An item's text is its JSON: its digest, when a CRD, is that
			// of the JSON text.
			e := fastjson.End(j, k)
			r.object(j[k:e], j[k:e], docLoc{file: loc.file, line: loc.line, textLine: loc.line, off: -1})
			if k = fastjson.After(j, e); j[k] == ',' {
				k = fastjson.After(j, k+1)
			}
		}
	default:
		o := Object{APIVersion: apiVersion, Kind: kind, Name: name, Namespace: namespace, File: loc.file, Line: loc.line}
		if err := rbacFields(&o, j, top); err != nil {
			r.problem(loc.file, loc.line, kind+" "+name, err)
			return
		}
		r.b.Objects = append(r.b.Objects, o)
	}
}

// rbacFields reads the rules of a Role or ClusterRole and the roleRef of
// a RoleBinding or ClusterRoleBinding of rbac.authorization.k8s.io, whose
// top-level members in j are top; other objects are left as they are.
func rbacFields(o *Object, j []byte, top map[string]fastjson.Member) error {
	if group, _, _ := strings.Cut(o.APIVersion, "/"); group != rbacGroup {
		return nil
	}
	switch o.Kind {
	case "Role", "ClusterRole":
		mb, ok := top["rules"]
		if !ok {
			return nil
		}
		var rules []graph.PolicyRule
		if err := json.Unmarshal(j[mb.Start:mb.End], &rules); err != nil {
			return fmt.Errorf("field rules: %w", jsonFieldError(err))
		}
		o.Rules = rules
	case "RoleBinding", "ClusterRoleBinding":
		mb, ok := top["roleRef"]
		if !ok {
			return errors.New("field roleRef: missing")
		}
		var ref RoleRef
		if err := json.Unmarshal(j[mb.Start:mb.End], &ref); err != nil {
			return fmt.Errorf("field roleRef: %w", jsonFieldError(err))
		}
		if ref.Kind == "" || ref.Name == "" {
			return errors.New("field roleRef: kind and name are required")
		}
		o.RoleRef = &ref
	}
	return nil
}

// rbacGroup is the API group of Kubernetes RBAC.
const rbacGroup = "rbac.authorization.k8s.io"

// jsonFieldError says what encoding/json found wrong without its Go type
// names: "want a list, not a string".
func jsonFieldError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		where := ""
		if te.Field != "" {
			where = te.Field + ": "
		}
		article := "a "
		if strings.HasPrefix(te.Value, "a") || strings.HasPrefix(te.Value, "o") {
			article = "an "
		}
		return fmt.Errorf("%sis %s%s", where, article, te.Value)
	}
	return err
}

// plainCRD reports whether a document is a CRD's manifest as most are
// written, told from its lines alone (CRDs are most of a bundle's bytes,
// and a line's first bytes cost less than the fast scan of every line):
// its first line with content starts with a letter; one unindented line is
// "kind: CustomResourceDefinition" and one "apiVersion: GROUP/VERSION"
// (letters, digits, '.', '-', '_' and a '/', unquoted), each followed by
// an unindented line with content (or the end), so that neither value
// goes on. No other line starts with "kind:" or "apiVersion:". Such a
// document, when it is YAML the fast scan reads, has that kind and
// apiVersion for it too (FuzzPlainCRD); when it is not, topLevelCRD
// says the same. ok is false for any other document: the scan decides.
func plainCRD(text []byte) (apiVersion string, ok bool) {
	kinds, versions := 0, 0
	first := true
	after := false // the line after a kind or apiVersion line must be unindented content
	for rest := text; len(rest) > 0; {
		var l []byte
		l, rest, _ = bytes.Cut(rest, []byte("\n"))
		l = bytes.TrimRight(l, " \t\r")
		if after {
			if len(l) == 0 || l[0] == ' ' || l[0] == '\t' || l[0] == '#' {
				return "", false
			}
			after = false
		}
		if first {
			if t := bytes.TrimLeft(l, " \t"); len(t) == 0 || t[0] == '#' {
				continue
			}
			if !isLetter(l[0]) {
				return "", false
			}
			first = false
		}
		if v, found := bytes.CutPrefix(l, []byte("kind:")); found {
			if kinds++; string(v) != " "+crd.Kind {
				return "", false
			}
			after = true
		} else if v, found := bytes.CutPrefix(l, []byte("apiVersion:")); found {
			versions++
			v, found = bytes.CutPrefix(v, []byte(" "))
			if !found || !plainGroupVersion(v) {
				return "", false
			}
			apiVersion = string(v)
			after = true
		}
	}
	return apiVersion, kinds == 1 && versions == 1
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// plainGroupVersion reports whether v is GROUP/VERSION written plainly:
// a letter or digit first, then letters, digits, '.', '-', '_' and one
// '/'.
func plainGroupVersion(v []byte) bool {
	if len(v) == 0 || !isLetter(v[0]) && (v[0] < '0' || v[0] > '9') || bytes.Count(v, []byte("/")) != 1 {
		return false
	}
	for _, c := range v {
		if !isLetter(c) && (c < '0' || c > '9') && c != '.' && c != '-' && c != '_' && c != '/' {
			return false
		}
	}
	return true
}

// topLevelCRD reports whether a document is most likely a CRD's manifest
// (its parsing, CRDRef.Parse, tells for sure): a line of its own,
// unindented, that is "kind: CustomResourceDefinition", and no other
// unindented kind line. It returns the value of an unindented apiVersion
// line too. A line written otherwise (quoted, with a comment) is not
// read: the document is then converted, as any other.
func topLevelCRD(text []byte) (apiVersion string, ok bool) {
	kinds := 0
	for rest := text; len(rest) > 0; {
		var l []byte
		l, rest, _ = bytes.Cut(rest, []byte("\n"))
		l = bytes.TrimRight(l, " \t\r")
		if v, found := bytes.CutPrefix(l, []byte("kind:")); found {
			kinds++
			ok = string(bytes.TrimLeft(v, " \t")) == crd.Kind
		} else if v, found := bytes.CutPrefix(l, []byte("apiVersion:")); found {
			v = bytes.TrimLeft(v, " \t")
			if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
				v = v[1 : len(v)-1]
			}
			apiVersion = string(v)
		}
	}
	return apiVersion, ok && kinds == 1
}

// csvFields returns the JSON of the members of a CSV (whose top-level
// members are top) that graph.DecodeCSVManifest reads: metadata.name, and
// the members of spec it reads. A CSV's description, icon and examples
// (most of its bytes) are skipped, not decoded.
func csvFields(j []byte, top map[string]fastjson.Member) []byte {
	out := []byte(`{`)
	if meta, ok := top["metadata"]; ok && j[meta.Start] == '{' {
		out = append(out, `"metadata":{`...)
		if name, ok := members(j, meta.Start)["name"]; ok {
			out = append(append(out, `"name":`...), j[name.Start:name.End]...)
		}
		out = append(out, `},`...)
	}
	if spec, ok := top["spec"]; ok {
		out = append(out, `"spec":`...)
		if j[spec.Start] != '{' {
			out = append(out, j[spec.Start:spec.End]...) // an error to report
		} else {
			out = append(out, '{')
			n := 0
			for mb := range fastjson.Members(j, spec.Start) {
				switch fastjson.Key(mb.Key) {
				case "version", "installModes", "apiservicedefinitions", "webhookdefinitions", "install", "customresourcedefinitions":
					if n++; n > 1 {
						out = append(out, ',')
					}
					out = append(out, '"')
					out = append(out, mb.Key...)
					out = append(out, `":`...)
					out = append(out, j[mb.Start:mb.End]...)
				}
			}
			out = append(out, '}')
		}
	}
	out = bytes.TrimSuffix(out, []byte(","))
	return append(out, '}')
}

// addCRD keeps a CRD manifest by its digest: where it is in its file, or,
// for text not read from a file, the text itself.
func (r *bundleReader) addCRD(text []byte, apiVersion string, loc docLoc) {
	ref := CRDRef{Digest: sha256.Sum256(text), APIVersion: apiVersion, File: loc.file, Line: loc.line, src: r.b.Source}
	if r.fsys == nil || loc.off < 0 {
		ref.text = bytes.Clone(text)
	} else {
		ref.fsys, ref.off, ref.size = r.fsys, loc.off, len(text)
	}
	r.b.CRDs = append(r.b.CRDs, ref)
}

// ReadCatalogBundle reads the contents a catalog's bundle carries in its
// olm.bundle.object properties (each one manifest, base64 in "data");
// nil when it has none. A bundle without a ClusterServiceVersion among
// them is nil too (a problem says so). The manifests are held in memory.
func (l Loader) ReadCatalogBundle(b *graph.Bundle) (*Bundle, []error) {
	r := &bundleReader{l: l, b: &Bundle{Source: Source{Kind: FromCatalog, Bundle: b.Name}}}
	n := 0
	for i, p := range b.Properties {
		if p.Type != graph.TypeBundleObject {
			continue
		}
		n++
		file := fmt.Sprintf("property %d", i)
		var obj struct {
			Data []byte `json:"data"`
		}
		if err := json.Unmarshal(p.Value, &obj); err != nil {
			r.problem(file, 0, "", fmt.Errorf("value: %w", err))
			continue
		}
		if i := bytes.IndexFunc(obj.Data, func(c rune) bool { return c < 0x80 && docstream.IsBinary(byte(c)) }); i >= 0 {
			r.problem(file, 0, "", fmt.Errorf("data: binary data (byte %#02x at offset %d), not a manifest", obj.Data[i], i))
			continue
		}
		r.document(obj.Data, docLoc{file: file, off: -1})
	}
	switch {
	case n == 0:
		return nil, nil
	case len(r.csvs) == 0:
		r.problem("", 0, "", errors.New("no ClusterServiceVersion among them"))
		return nil, r.problems
	case len(r.csvs) > 1:
		r.problem("", 0, "", fmt.Errorf("%d ClusterServiceVersions (%s): a bundle has one", len(r.csvs), strings.Join(r.csvs, ", ")))
		return nil, r.problems
	case r.b.CSV == nil:
		return nil, r.problems
	}
	return r.b, r.problems
}

// members returns the members of the JSON object at data[i] by key (the
// last of a key written twice).
func members(data []byte, i int) map[string]fastjson.Member {
	m := map[string]fastjson.Member{}
	for mb := range fastjson.Members(data, i) {
		m[fastjson.Key(mb.Key)] = mb
	}
	return m
}

// jsonString decodes the JSON string of a member; false when it is absent
// or not a string.
func jsonString(data []byte, mb fastjson.Member) (string, bool) {
	if mb.End == 0 || data[mb.Start] != '"' {
		return "", false
	}
	var s string
	err := json.Unmarshal(data[mb.Start:mb.End], &s)
	return s, err == nil
}

// jsonKind names the JSON type of a decoded value.
func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	case nil:
		return "null"
	}
	return "a number"
}

// jsonTextKind names the JSON type of the value text starts with.
func jsonTextKind(text []byte) string {
	if len(text) == 0 {
		return "empty"
	}
	switch text[0] {
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case '[':
		return "a list"
	case 'n':
		return "null"
	}
	return "a number"
}

// permissionSets shares the permissions of the CSVs read by one ReadDirs:
// a package's versions mostly grant their operator the same rules, which
// are most of what a set keeps of its CSVs (community-operators-prod's
// 7,023 CSVs hold about 60 MB of them decoded). Two lists are one when
// the SHA-256 of their exact encoding is (as two CRD manifests are one
// CRD). The lists handed out are shared: the readers of a set do not
// change them. A nil *permissionSets shares nothing; it is safe for
// concurrent use.
type permissionSets struct {
	mu sync.Mutex
	m  map[[sha256.Size]byte][]graph.StrategyPermissions
}

// share returns the list of l's contents that ps holds, l itself the first
// time.
func (ps *permissionSets) share(l []graph.StrategyPermissions) []graph.StrategyPermissions {
	if ps == nil || len(l) == 0 {
		return l
	}
	var b []byte
	strs := func(l []string) {
		if l == nil {
			b = append(b, 0)
			return
		}
		b = binary.AppendUvarint(append(b, 1), uint64(len(l)))
		for _, s := range l {
			b = append(binary.AppendUvarint(b, uint64(len(s))), s...)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(l)))
	for _, p := range l {
		b = append(binary.AppendUvarint(b, uint64(len(p.ServiceAccountName))), p.ServiceAccountName...)
		if p.Rules == nil {
			b = append(b, 0)
		} else {
			b = binary.AppendUvarint(append(b, 1), uint64(len(p.Rules)))
		}
		for _, r := range p.Rules {
			strs(r.Verbs)
			strs(r.APIGroups)
			strs(r.Resources)
			strs(r.ResourceNames)
			strs(r.NonResourceURLs)
		}
	}
	k := sha256.Sum256(b)
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if have, ok := ps.m[k]; ok {
		return have
	}
	if ps.m == nil {
		ps.m = map[[sha256.Size]byte][]graph.StrategyPermissions{}
	}
	ps.m[k] = l
	return l
}
