package check

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/docstream"
	"github.com/sextantdev/sextant/internal/suggest"
)

// CodeStaleSuppression (warning): an entry of the suppressions file that
// matches no finding: the problem it accepted is gone, or the entry names
// it wrongly. It points at the entry.
const CodeStaleSuppression = "stale-suppression"

// Suppression accepts the findings of one code about one package, or one
// channel or bundle of it, for a stated reason: Run moves the findings it
// matches to Report.Suppressed, where every output still lists them.
type Suppression struct {
	// Code is the finding code; it must be a documented one (Codes).
	Code string `json:"code"`
	// Package is the package the findings are about; required.
	Package string `json:"package"`
	// Channel and Bundle narrow the entry to the findings about that
	// channel or bundle of the package; empty: any.
	Channel string `json:"channel,omitempty"`
	Bundle  string `json:"bundle,omitempty"`
	// Reason says why the findings are accepted; required.
	Reason string `json:"reason"`
	// Pos is where the entry is in its file.
	Pos graph.Position `json:"-"`
}

// matches reports whether s suppresses f.
func (s *Suppression) matches(f Finding) bool {
	return f.Code == s.Code && f.Package == s.Package &&
		(s.Channel == "" || f.Channel == s.Channel) && (s.Bundle == "" || f.Bundle == s.Bundle)
}

// String returns "code package/channel bundle".
func (s *Suppression) String() string {
	obj := s.Package
	if s.Channel != "" {
		obj += "/" + s.Channel
	}
	if s.Bundle != "" {
		obj += " " + s.Bundle
	}
	return s.Code + " " + obj
}

// maxConfig bounds the size of a suppressions file.
const maxConfig = 4 << 20

// ReadConfig reads a Sextant configuration file (.sextant.yaml) and
// returns its suppressions, in file order. The file is YAML (or JSON):
//
//	suppressions:
//	  - code: no-upgrade-path        # a documented finding code
//	    package: etcd                # required
//	    channel: alpha               # optional: only this channel
//	    bundle: etcdoperator.v0.6.1  # optional: only this bundle
//	    reason: clusters pinned it; they upgrade by hand
//
// Decoding is strict: an unknown field, a missing code, package or reason,
// an unknown code or a value of the wrong kind is an error naming the file
// and line; every problem of the file is reported (errors.Join). name
// names the file in positions and errors.
func ReadConfig(r io.Reader, name string) ([]Suppression, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxConfig+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > maxConfig {
		return nil, fmt.Errorf("%s: larger than %d bytes", name, maxConfig)
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil // an empty file: no suppressions
		}
		if line, msg, ok := docstream.YAMLErrorLine(err, 1, docstream.LastLine(data, 1)); ok {
			return nil, fmt.Errorf("%s:%d: invalid YAML: %s", name, line, msg)
		}
		return nil, fmt.Errorf("%s: invalid YAML: %w", name, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s:%d: one YAML document expected", name, extra.Line)
	}
	c := configReader{name: name}
	out := c.read(&doc)
	slices.SortStableFunc(c.errs, func(a, b lineError) int { return a.line - b.line })
	errs := make([]error, len(c.errs))
	for i, e := range c.errs {
		errs[i] = e.err
	}
	return out, errors.Join(errs...)
}

// configReader collects the problems of one configuration file.
type configReader struct {
	name string
	errs []lineError
}

// lineError is a problem of a configuration file at a line.
type lineError struct {
	line int
	err  error
}

func (c *configReader) errorf(n *yaml.Node, format string, args ...any) {
	c.errs = append(c.errs, lineError{n.Line, fmt.Errorf("%s:%d: %s", c.name, n.Line, fmt.Sprintf(format, args...))})
}

// fields calls f for each key of mapping n, refusing keys not in known.
func (c *configReader) fields(n *yaml.Node, what string, known []string, f func(key string, v *yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		c.errorf(n, "%s: a mapping expected", what)
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch {
		case !slices.Contains(known, k.Value):
			if near := suggest.Nearest(k.Value, known); near != "" {
				c.errorf(k, "%s: unknown field %q (did you mean %q?)", what, k.Value, near)
			} else {
				c.errorf(k, "%s: unknown field %q (known: %s)", what, k.Value, strings.Join(known, ", "))
			}
		case seen[k.Value]:
			c.errorf(k, "%s: field %q given twice", what, k.Value)
		default:
			seen[k.Value] = true
			f(k.Value, v)
		}
	}
}

func (c *configReader) read(doc *yaml.Node) []Suppression {
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	var out []Suppression
	c.fields(root, "configuration", []string{"suppressions"}, func(_ string, v *yaml.Node) {
		if v.Kind != yaml.SequenceNode {
			c.errorf(v, "suppressions: a list expected")
			return
		}
		for i, item := range v.Content {
			if s, ok := c.suppression(item, i); ok {
				out = append(out, s)
			}
		}
	})
	return out
}

// suppression reads entry i of the list.
func (c *configReader) suppression(n *yaml.Node, i int) (Suppression, bool) {
	s := Suppression{Pos: graph.Position{File: c.name, Line: n.Line, Column: n.Column}}
	what := fmt.Sprintf("suppression %d", i+1)
	before := len(c.errs)
	codeNode := n
	c.fields(n, what, []string{"code", "package", "channel", "bundle", "reason"}, func(key string, v *yaml.Node) {
		if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
			c.errorf(v, "%s: %s: a string expected", what, key)
			return
		}
		val := strings.TrimSpace(v.Value)
		switch key {
		case "code":
			s.Code, codeNode = val, v
		case "package":
			s.Package = val
		case "channel":
			s.Channel = val
		case "bundle":
			s.Bundle = val
		case "reason":
			s.Reason = val
		}
	})
	if n.Kind != yaml.MappingNode {
		return s, false
	}
	for _, req := range []struct{ key, val string }{{"code", s.Code}, {"package", s.Package}, {"reason", s.Reason}} {
		if req.val == "" {
			c.errorf(n, "%s: %q is required", what, req.key)
		}
	}
	if _, ok := CodeDocOf(s.Code); s.Code != "" && !ok {
		codes := make([]string, 0, len(codeDocs))
		for _, d := range codeDocs {
			codes = append(codes, d.Code)
		}
		if near := suggest.Nearest(s.Code, codes); near != "" {
			c.errorf(codeNode, "%s: unknown finding code %q (did you mean %q?)", what, s.Code, near)
		} else {
			c.errorf(codeNode, "%s: unknown finding code %q (CHECKS.md lists them)", what, s.Code)
		}
	}
	return s, len(c.errs) == before
}

// suppress moves the findings of rep that a suppression matches to
// rep.Suppressed (each with its Suppression), adds a stale-suppression
// finding for each entry that matches nothing, and recomputes the counts.
func (rep *Report) suppress(sups []Suppression, order *findingOrder) {
	if len(sups) == 0 {
		return
	}
	used := make([]bool, len(sups))
	kept := rep.Findings[:0:0]
	for _, f := range rep.Findings {
		i := slices.IndexFunc(sups, func(s Suppression) bool { return s.matches(f) })
		if i < 0 {
			kept = append(kept, f)
			continue
		}
		used[i] = true
		f.Suppression = &sups[i]
		rep.Suppressed = append(rep.Suppressed, f)
	}
	// An entry matching a finding that an earlier entry already took is
	// not stale either.
	for i := range sups {
		if !used[i] && slices.ContainsFunc(rep.Suppressed, func(f Finding) bool { return sups[i].matches(f) }) {
			used[i] = true
		}
	}
	catalog := ""
	if len(rep.Catalogs) > 0 {
		catalog = rep.Catalogs[0].Name
	}
	for i, s := range sups {
		if used[i] {
			continue
		}
		f := Finding{
			Severity: graph.SeverityWarning, Code: CodeStaleSuppression, Catalog: catalog,
			Package: s.Package, Channel: s.Channel, Bundle: s.Bundle, Pos: s.Pos,
			Message: fmt.Sprintf("the suppression of %s matches no finding: remove it (reason given: %q)", s.String(), s.Reason),
			Brief:   fmt.Sprintf("the suppression of %s matches no finding: remove it", s.Code),
		}
		if len(rep.Catalogs) > 0 && rep.Catalogs[0].Baseline != nil {
			f.Status = StatusNew
		}
		kept = append(kept, f)
	}
	byCatalog := map[string]int{}
	for i, c := range rep.Catalogs {
		byCatalog[c.Name] = i
	}
	slices.SortStableFunc(kept, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(byCatalog[a.Catalog], byCatalog[b.Catalog]), order.compare(a, b))
	})
	rep.Findings = kept
	rep.recount()
}

// recount recomputes the counts of every catalog and its baseline
// comparison from the findings.
func (rep *Report) recount() {
	for i := range rep.Catalogs {
		s := &rep.Catalogs[i]
		var fs []Finding
		for _, f := range rep.Findings {
			if f.Catalog == s.Name {
				fs = append(fs, f)
			}
		}
		s.Counts = countCodes(fs)
		if s.Baseline == nil {
			continue
		}
		b := *s.Baseline
		b.New, b.Existing = 0, 0
		for _, f := range fs {
			if f.Status == StatusNew {
				b.New++
			} else {
				b.Existing++
			}
		}
		s.Baseline = &b
	}
}
