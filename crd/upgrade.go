package crd

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Problem is one change of a CRD that OLM v1's CRD upgrade safety
// preflight refuses: one error of one of crdify's validations as
// operator-controller configures them.
type Problem struct {
	// Check is the validation's name: existingFieldRemoval, scope and
	// storedVersionRemoval for the whole CRD; default, enum, maximum,
	// maxItems, maxLength, maxProperties, minimum, minItems, minLength,
	// minProperties, required, type, pattern, nullable, oneOf and
	// unhandled (a change no other validation covers) for a property.
	Check string `json:"check"`
	// Version is the version compared: "v1" for a version both CRDs have,
	// "v1alpha1 -> v1" for two served versions of the new CRD whose
	// schemas disagree in a way the live CRD's did not; "" for the whole
	// CRD.
	Version string `json:"version,omitempty"`
	// Property is the property's path, "^.spec.replicas" ("^" is the
	// version's schema); "" for the whole CRD.
	Property string `json:"property,omitempty"`
	// Detail is the validation's words: "type changed : \"string\" ->
	// \"integer\"".
	Detail string `json:"detail"`
	// raw is crdify's own text where operator-controller shortens it (the
	// unhandled check's report): the served-version check subtracts the
	// live CRD's problems by it.
	raw string
}

// String is the problem's line in operator-controller's message.
func (p Problem) String() string {
	if p.Version == "" {
		return p.Check + ": " + p.Detail
	}
	return p.Version + ": " + p.Property + ": " + p.Check + ": " + p.Detail
}

// Upgrade is the preflight's verdict on replacing a live CRD with a new
// one.
type Upgrade struct {
	// CRD is the CRD's name.
	CRD string `json:"crd"`
	// Problems are what the preflight refuses, in a fixed order: those of
	// the whole CRD (existingFieldRemoval, scope, storedVersionRemoval),
	// then per version both CRDs have (in the live CRD's order) per
	// property (by path) per validation, then per pair of served versions.
	// operator-controller's order varies from run to run (crdify ranges
	// over maps); its lines are these.
	Problems []Problem `json:"problems,omitempty"`
}

// Safe reports whether the preflight lets the upgrade through.
func (u *Upgrade) Safe() bool { return len(u.Problems) == 0 }

// Message is operator-controller's text for the refusal,
// `validating upgrade for CRD "NAME": ` and one problem a line; "" when
// the upgrade is safe.
func (u *Upgrade) Message() string {
	if u.Safe() {
		return ""
	}
	lines := make([]string, len(u.Problems))
	for i, p := range u.Problems {
		lines[i] = p.String()
	}
	return fmt.Sprintf("validating upgrade for CRD %q: %s", u.CRD, strings.Join(lines, "\n"))
}

// CheckUpgrade runs OLM v1's CRD upgrade safety preflight on replacing
// live, the CRD as the cluster holds it (its status.storedVersions
// included: use [Definition.Live] for a CRD as a bundle writes it), with
// next, the CRD a new bundle brings (its ConversionStrategy "Webhook"
// when the bundle's CSV defines a conversion webhook for it, as
// operator-controller's renderer sets it). The rules are crdify's (at the
// commit operator-controller df2c201 pins) as operator-controller
// configures them: description changes ignored, enum values may be
// added, the served-version checks skipped when the new CRD converts
// through a webhook, and any other change crdify cannot classify an
// error. Neither argument is changed.
func CheckUpgrade(live, next *Definition) *Upgrade {
	var c Checker
	return c.CheckUpgrade(live, next)
}

// Checker runs [CheckUpgrade] on many pairs of CRDs, keeping what it has
// read of each schema (its nodes by path) from one call to the next: the
// CRDs of a package's upgrade edges, compared pair by pair, are each read
// once. It keeps what it read of the last schemas it was given (a
// bounded number) until dropped, and the definitions must not change
// while it is used: keep one per piece of
// work. A Checker is not safe for concurrent use; its zero value is
// ready.
type Checker struct {
	index  map[*Schema]*schemaIndex
	served map[*Version][]Problem // servedPairs by a definition's versions
	diffs  map[[32]byte]unhandled // unhandledDiff's reports by key
	key    []byte                 // unhandledDiff's buffer
}

// maxIndexed bounds the schemas a Checker keeps read: at that many it
// starts again, as the CRDs compared next are mostly those of the next
// edges.
const maxIndexed = 64

// schemaIndex is a schema's nodes: by path, and in path order.
type schemaIndex struct {
	flat  []flat
	nodes map[string]*Schema
}

// CheckUpgrade returns what the function CheckUpgrade returns.
func (c *Checker) CheckUpgrade(live, next *Definition) *Upgrade {
	u := &Upgrade{CRD: next.Name}
	u.Problems = append(u.Problems, c.crdWide(live, next)...)
	for _, ov := range live.Versions {
		nv := next.Version(ov.Name)
		if nv == nil {
			continue
		}
		u.Problems = append(u.Problems, c.compareVersions(ov.Name, ov.Schema, nv.Schema)...)
	}
	if next.ConversionStrategy != "Webhook" {
		u.Problems = append(u.Problems, c.servedProblems(live, next)...)
	}
	return u
}

// Forget drops what the Checker keeps of d's schemas (and of any copy of
// d sharing its versions, as Live and a rendering do): once no pair left
// to compare has d, its schemas need not be kept read, nor d itself kept
// reachable.
func (c *Checker) Forget(d *Definition) {
	if len(d.Versions) == 0 {
		return
	}
	for i := range d.Versions {
		delete(c.index, d.Versions[i].Schema)
	}
	delete(c.served, &d.Versions[0])
}

// schema returns s's nodes, walked once per Checker.
func (c *Checker) schema(s *Schema) *schemaIndex {
	if x := c.index[s]; x != nil {
		return x
	}
	nodes := map[string]*Schema{}
	walk(s, "^", func(path string, s *Schema) { nodes[path] = s })
	x := &schemaIndex{flat: make([]flat, 0, len(nodes)), nodes: nodes}
	for _, p := range sortedMapKeys(nodes) {
		x.flat = append(x.flat, flat{p, nodes[p]})
	}
	if c.index == nil || len(c.index) >= maxIndexed {
		c.index = map[*Schema]*schemaIndex{} // bounded: the oldest go
	}
	c.index[s] = x
	return x
}

// crdWide are the checks of the whole CRD.
func (c *Checker) crdWide(live, next *Definition) []Problem {
	var out []Problem
	for _, nv := range next.Versions {
		ov := live.Version(nv.Name)
		if ov == nil {
			continue
		}
		kept := c.schema(nv.Schema).nodes
		var removed []string
		for _, f := range c.schema(ov.Schema).flat {
			if kept[f.path] == nil {
				removed = append(removed, f.path)
			}
		}
		slices.Sort(removed)
		for _, f := range slices.Compact(removed) {
			out = append(out, Problem{Check: "existingFieldRemoval", Detail: fmt.Sprintf("removed field : %s.%s", nv.Name, f)})
		}
	}
	if live.Scope != next.Scope {
		out = append(out, Problem{Check: "scope", Detail: fmt.Sprintf("scope changed : %q -> %q", live.Scope, next.Scope)})
	}
	var dropped []string
	for _, s := range live.StoredVersions {
		if next.Version(s) == nil {
			dropped = append(dropped, s)
		}
	}
	if len(dropped) > 0 {
		out = append(out, Problem{Check: "storedVersionRemoval", Detail: fmt.Sprintf("stored versions removed : %v", dropped)})
	}
	return out
}

// flat is one node of a schema: its path and the schema there.
type flat struct {
	path   string
	schema *Schema
}

// walk visits every node of a schema by its simple path, as crdify's
// schema walk visits them: a node first, then its items, allOf, anyOf,
// oneOf, not, properties (by name), additionalProperties,
// patternProperties, additionalItems, definitions and dependencies.
// (Checker.schema keeps, of a path met twice, the node visited last, and
// sorts the nodes by path.)
func walk(s *Schema, path string, visit func(string, *Schema)) {
	if s == nil {
		return
	}
	visit(path, s)
	if s.Items != nil {
		walk(s.Items.Schema, path+".items", visit)
		for i := range s.Items.Schemas {
			walk(&s.Items.Schemas[i], path+".items["+strconv.Itoa(i)+"]", visit)
		}
	}
	for _, l := range [...]struct {
		name string
		list []Schema
	}{{"allOf", s.AllOf}, {"anyOf", s.AnyOf}, {"oneOf", s.OneOf}} {
		for i := range l.list {
			walk(&l.list[i], path+"."+l.name+"["+strconv.Itoa(i)+"]", visit)
		}
	}
	walk(s.Not, path+".not", visit)
	for _, k := range sortedMapKeys(s.Properties) {
		p := s.Properties[k]
		walk(&p, path+"."+k, visit)
	}
	if s.AdditionalProperties != nil {
		walk(s.AdditionalProperties.Schema, path+".additionalProperties", visit)
	}
	for _, k := range sortedMapKeys(s.PatternProperties) {
		p := s.PatternProperties[k]
		walk(&p, path+".patternProperties["+k+"]", visit)
	}
	if s.AdditionalItems != nil {
		walk(s.AdditionalItems.Schema, path+".additionalItems", visit)
	}
	for _, k := range sortedMapKeys(s.Definitions) {
		p := s.Definitions[k]
		walk(&p, path+".definitions["+k+"]", visit)
	}
	for _, k := range sortedMapKeys(s.Dependencies) {
		walk(s.Dependencies[k].Schema, path+".dependencies["+k+"]", visit)
	}
}

// compareVersions compares the schemas of one version (or of two served
// versions, named version) property by property: every property of old,
// against the same path of next (an empty schema where next has none).
func (c *Checker) compareVersions(version string, old, next *Schema) []Problem {
	newNodes := c.schema(next).nodes
	var out []Problem
	for _, f := range c.schema(old).flat {
		n := newNodes[f.path]
		if n == nil {
			n = &Schema{}
		}
		if shallowEqual(f.schema, n) {
			continue
		}
		a, b := f.schema.shallow(), n.shallow()
		for _, d := range c.compareProperty(a, b) {
			out = append(out, Problem{Check: d.check, Version: version, Property: f.path, Detail: d.detail, raw: d.raw})
		}
	}
	return out
}

// shallow copies s without its properties and items: each property is
// compared on its own.
func (s *Schema) shallow() *Schema {
	c := *s
	c.Properties = nil
	c.Items = nil
	return &c
}

type finding struct{ check, detail, raw string }

// compareProperty runs crdify's property validations on a and b in their
// registration order, each clearing the fields it handles, then reports
// what is left as unhandled (unhandledDiff). a and b are changed.
func (c *Checker) compareProperty(a, b *Schema) []finding {
	var out []finding
	add := func(check, format string, args ...any) {
		out = append(out, finding{check: check, detail: fmt.Sprintf(format, args...)})
	}
	switch {
	case a.Default == nil && b.Default != nil:
		add("default", "default added when there was none previously : %q", string(*b.Default))
	case a.Default != nil && b.Default == nil:
		add("default", "default value removed : %q", string(*a.Default))
	case a.Default != nil && *a.Default != *b.Default:
		add("default", "default value changed : %q -> %q", string(*a.Default), string(*b.Default))
	}
	a.Default, b.Default = nil, nil
	if d := enumChange(a.Enum, b.Enum); d != "" {
		add("enum", "%s", d)
	}
	a.Enum, b.Enum = nil, nil
	for _, m := range [...]struct {
		check string
		a, b  **int64
		f     *[2]*float64
	}{{"maximum", nil, nil, &[2]*float64{a.Maximum, b.Maximum}}, {"maxItems", &a.MaxItems, &b.MaxItems, nil},
		{"maxLength", &a.MaxLength, &b.MaxLength, nil}, {"maxProperties", &a.MaxProperties, &b.MaxProperties, nil}} {
		if d := limitChange(m.a, m.b, m.f, "maximum", func(older, newer float64) bool { return newer < older }, "decreased"); d != "" {
			add(m.check, "%s", d)
		}
	}
	a.Maximum, b.Maximum, a.MaxItems, b.MaxItems, a.MaxLength, b.MaxLength, a.MaxProperties, b.MaxProperties = nil, nil, nil, nil, nil, nil, nil, nil
	for _, m := range [...]struct {
		check string
		a, b  **int64
		f     *[2]*float64
	}{{"minimum", nil, nil, &[2]*float64{a.Minimum, b.Minimum}}, {"minItems", &a.MinItems, &b.MinItems, nil},
		{"minLength", &a.MinLength, &b.MinLength, nil}, {"minProperties", &a.MinProperties, &b.MinProperties, nil}} {
		if d := limitChange(m.a, m.b, m.f, "minimum", func(older, newer float64) bool { return newer > older }, "increased"); d != "" {
			add(m.check, "%s", d)
		}
	}
	a.Minimum, b.Minimum, a.MinItems, b.MinItems, a.MinLength, b.MinLength, a.MinProperties, b.MinProperties = nil, nil, nil, nil, nil, nil, nil, nil
	var added []string
	for _, r := range b.Required {
		if !slices.Contains(a.Required, r) && !slices.Contains(added, r) {
			added = append(added, r)
		}
	}
	if len(added) > 0 {
		slices.Sort(added)
		add("required", "new required fields: %v", added)
	}
	a.Required, b.Required = nil, nil
	if a.Type != b.Type {
		add("type", "type changed : %q -> %q", a.Type, b.Type)
	}
	a.Type, b.Type = "", ""
	a.Description, b.Description = "", ""
	switch {
	case a.Pattern == b.Pattern:
	case a.Pattern == "":
		add("pattern", "pattern added : %q -> %q", a.Pattern, b.Pattern)
	case b.Pattern == "":
		add("pattern", "pattern removed : %q -> %q", a.Pattern, b.Pattern)
	default:
		add("pattern", "pattern changed : %q -> %q", a.Pattern, b.Pattern)
	}
	a.Pattern, b.Pattern = "", ""
	switch {
	case !a.Nullable && b.Nullable:
		add("nullable", "nullable added : false -> true")
	case a.Nullable && !b.Nullable:
		add("nullable", "nullable removed : true -> false")
	}
	a.Nullable, b.Nullable = false, false
	if d := oneOfChange(a.OneOf, b.OneOf); d != "" {
		add("oneOf", "%s", d)
	}
	a.OneOf, b.OneOf = nil, nil
	if !semanticEqual(a, b) {
		u := c.unhandledDiff(a, b)
		out = append(out, finding{"unhandled", u.concise, u.raw})
	}
	return out
}

// enumChange is the enum validation with additions allowed.
func enumChange(a, b []JSON) string {
	oldSet, newSet := jsonSet(a), jsonSet(b)
	var removed []string
	for _, v := range oldSet {
		if !slices.Contains(newSet, v) {
			removed = append(removed, v)
		}
	}
	switch {
	case len(oldSet) == 0 && len(newSet) > 0:
		return fmt.Sprintf("enum constraint added when there was none previously : %v", newSet)
	case len(removed) > 0:
		return fmt.Sprintf("allowed enum values removed : %v", removed)
	}
	return ""
}

// jsonSet returns the distinct values of l, sorted.
func jsonSet(l []JSON) []string {
	out := make([]string, len(l))
	for i, v := range l {
		out[i] = string(v)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// limitChange is a maximum or minimum validation: a limit added where
// there was none, or one made stricter (stricter(older, newer)).
func limitChange(a, b **int64, f *[2]*float64, kind string, stricter func(older, newer float64) bool, verb string) string {
	var older, newer *float64
	var os, ns string
	if f != nil {
		older, newer = f[0], f[1]
		if older != nil {
			os = fmt.Sprint(*older)
		}
		if newer != nil {
			ns = fmt.Sprint(*newer)
		}
	} else {
		if *a != nil {
			v := float64(**a)
			older, os = &v, strconv.FormatInt(**a, 10)
		}
		if *b != nil {
			v := float64(**b)
			newer, ns = &v, strconv.FormatInt(**b, 10)
		}
	}
	switch {
	case older == nil && newer != nil:
		return fmt.Sprintf("%s constraint added when there was none previously : %s", kind, ns)
	case older != nil && newer != nil && stricter(*older, *newer):
		return fmt.Sprintf("%s %s : %s -> %s", kind, verb, os, ns)
	}
	return ""
}

// oneOfChange is the oneOf validation: entries compared by their String
// with description, title, example and externalDocs cleared; an entry
// added or removed, or a oneOf where there was none, is refused.
func oneOfChange(a, b []Schema) string {
	var addr addresser
	set := func(l []Schema) []string {
		out := make([]string, len(l))
		for i := range l {
			e := l[i]
			e.Description, e.Title, e.Example, e.ExternalDocs = "", "", nil, nil
			out[i] = e.gostring(&addr)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	oldSet, newSet := set(a), set(b)
	var removed, added []string
	for _, s := range oldSet {
		if !slices.Contains(newSet, s) {
			removed = append(removed, s)
		}
	}
	for _, s := range newSet {
		if !slices.Contains(oldSet, s) {
			added = append(added, s)
		}
	}
	switch {
	case len(oldSet) == 0 && len(newSet) > 0:
		return fmt.Sprintf("oneOf constraint added when there was none previously: %v", newSet)
	case len(removed) > 0:
		return fmt.Sprintf("allowed oneOf schemas removed: %v", removed)
	case len(added) > 0:
		return fmt.Sprintf("allowed oneOf schemas added: %v", added)
	}
	return ""
}

// servedProblems compares every pair of served versions of next, and
// keeps the problems the same pair of live did not have.
func (c *Checker) servedProblems(live, next *Definition) []Problem {
	known := map[Problem]bool{}
	for _, p := range c.servedPairs(live) {
		known[p] = true
	}
	var out []Problem
	for _, p := range c.servedPairs(next) {
		if !known[p] {
			out = append(out, p)
		}
	}
	return out
}

// servedPairs compares each pair of served versions of d, lower version
// first (Kubernetes' version order), in that order.
func (c *Checker) servedPairs(d *Definition) []Problem {
	if len(d.Versions) == 0 {
		return nil
	}
	// Copies of a definition (Live, a rendering) share its versions.
	key := &d.Versions[0]
	if out, ok := c.served[key]; ok {
		return out
	}
	out := c.comparePairs(d)
	if c.served == nil {
		c.served = map[*Version][]Problem{}
	}
	c.served[key] = out
	return out
}

// comparePairs is servedPairs, worked out.
func (c *Checker) comparePairs(d *Definition) []Problem {
	var served []Version
	for _, v := range d.Versions {
		if v.Served {
			served = append(served, v)
		}
	}
	slices.SortStableFunc(served, func(a, b Version) int { return compareKubeVersions(a.Name, b.Name) })
	var out []Problem
	for i, a := range served {
		for _, b := range served[i+1:] {
			out = append(out, c.compareVersions(a.Name+" -> "+b.Name, a.Schema, b.Schema)...)
		}
	}
	return out
}

var kubeVersion = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^v(\d+)(?:(alpha|beta)(\d+))?$`) })

// compareKubeVersions orders version names as Kubernetes does: names that
// are not of the form v1, v2beta1, v1alpha1 first (in reverse lexical
// order), then alpha, beta and GA versions, each by major then minor
// number.
func compareKubeVersions(a, b string) int {
	if a == b {
		return 0
	}
	am, at, an, aok := parseKubeVersion(a)
	bm, bt, bn, bok := parseKubeVersion(b)
	switch {
	case !aok && !bok:
		return strings.Compare(b, a)
	case !aok:
		return -1
	case !bok:
		return 1
	case at != bt:
		return at - bt
	case am != bm:
		return am - bm
	}
	return an - bn
}

func parseKubeVersion(v string) (major, typ, minor int, ok bool) {
	m := kubeVersion().FindStringSubmatch(v)
	if m == nil {
		return 0, 0, 0, false
	}
	typ = map[string]int{"alpha": 0, "beta": 1, "": 2}[m[2]]
	var err error
	if major, err = strconv.Atoi(m[1]); err != nil {
		return 0, 0, 0, false
	}
	if typ != 2 {
		if minor, err = strconv.Atoi(m[3]); err != nil {
			return 0, 0, 0, false
		}
	}
	return major, typ, minor, true
}

// Brief says what the preflight refuses in a few words, for a line that
// names the CRD: its one problem, or each problem's check and property
// (the first four, the others counted); "" when the upgrade is safe.
func (u *Upgrade) Brief() string {
	if len(u.Problems) == 1 {
		return u.Problems[0].String()
	}
	var parts []string
	for _, p := range u.Problems {
		part := p.Check + " " + p.Property
		switch {
		case p.Version == "":
			_, what, _ := strings.Cut(p.Detail, " : ")
			part = p.Check + " " + what
		case strings.Contains(p.Version, " -> "):
			part += " (" + p.Version + ")"
		}
		if !slices.Contains(parts, part) {
			parts = append(parts, part)
		}
	}
	if len(parts) > 4 {
		parts = append(parts[:4], fmt.Sprintf("and %d more", len(parts)-4))
	}
	return strings.Join(parts, ", ")
}
