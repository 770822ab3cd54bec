package graph

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/internal/words"
)

// Finding codes of the structural checks. Every code is stable: tools may
// match on it. Error findings are the rules operator-registry's opm validate
// enforces (a catalog with one is rejected); warnings are Sextant's own.
const (
	// Packages.
	CodeMissingPackage       = "missing-package"         // channels or bundles name a package no olm.package declares
	CodeInvalidPackageName   = "invalid-package-name"    // empty, or not a DNS-1123 label
	CodeNoDefaultChannel     = "no-default-channel"      // olm.package without defaultChannel
	CodeUnknownDefault       = "unknown-default-channel" // defaultChannel names no channel
	CodeNoChannels           = "no-channels"             // a package with no channel
	CodeDuplicateVersion     = "duplicate-version"       // two bundles of a package share a version
	CodeMultipleDeprecations = "multiple-deprecations"   // more than one olm.deprecations blob
	CodeInvalidDeprecation   = "invalid-deprecation"     // a deprecation entry that refers to nothing valid

	// Channels.
	CodeMissingChannelName = "missing-channel-name" // olm.channel with no name
	CodeEmptyChannel       = "empty-channel"        // a channel with no entries
	CodeDuplicateEntry     = "duplicate-entry"      // one name listed twice in a channel
	CodeUnknownBundle      = "unknown-bundle"       // an entry names no bundle of the package
	CodeEmptySkip          = "empty-skip"           // an empty string in skips
	CodeNoHead             = "no-head"              // every entry is replaced or skipped
	CodeMultipleHeads      = "multiple-heads"       // more than one entry is neither replaced nor skipped
	CodeCycle              = "cycle"                // a cycle through replaces and skips
	CodeStrandedBundles    = "stranded-bundles"     // entries neither on the replaces chain nor skipped
	CodeInvalidSkipRange   = "invalid-skip-range"   // warning: a skipRange that does not parse
	CodeDanglingReplaces   = "dangling-replaces"    // warning: replaces names no entry of the channel
	CodeDanglingSkip       = "dangling-skip"        // warning: skips names no entry of the channel

	// Bundles.
	CodeMissingBundleName      = "missing-bundle-name"      // olm.bundle with no name
	CodeNotInChannel           = "bundle-not-in-channel"    // no channel lists the bundle
	CodeMissingImage           = "missing-image"            // olm.bundle with no image nor embedded objects
	CodeMissingPackageProperty = "missing-package-property" // no olm.package property
	CodeMultiplePackageProps   = "multiple-package-properties"
	CodePackageMismatch        = "package-property-mismatch" // olm.package names another package
	CodeInvalidProperty        = "invalid-property"          // a malformed value of a known property type
	CodeInvalidVersion         = "invalid-version"           // the version is not semver, even tolerantly
	CodeNonStrictVersion       = "non-strict-version"        // warning: semver only when parsed tolerantly (v1.2)

	// Keys and schemas: what a blob carries that opm does not read as
	// written. opm accepts them all, so none is an error.
	CodeUnknownKey    = "unknown-key"    // warning: a key opm does not read (a typo, most likely)
	CodeMiscasedKey   = "miscased-key"   // warning: a key opm reads as another, in another case
	CodeUnknownSchema = "unknown-schema" // warning (info outside olm.): a schema opm keeps without reading
)

// Validate runs the structural checks and returns their findings sorted by
// package, channel, bundle, code (then message). The result is freshly
// allocated; nil when the catalog is sound.
//
// Errors are what operator-registry v1.47's opm validate rejects (its
// declcfg.ConvertToModel and model.Validate), one finding per problem rather
// than the first of each package: a package with an error finding is one opm
// rejects. Warnings (dangling replaces and skips, unparsable skipRange,
// versions that are semver only when read tolerantly) are Sextant's own.
// Validate is safe for concurrent use.
func (c *Catalog) Validate() []Finding {
	var fs []Finding
	for _, p := range c.packages {
		fs = p.validate(fs)
	}
	for _, f := range c.keyFindings {
		if c.byName[f.Package] == nil {
			fs = append(fs, f) // about no package of the catalog
		}
	}
	slices.SortFunc(fs, CompareFindings)
	return fs
}

// Validate runs the structural checks of [Catalog.Validate] on the package
// alone and returns its findings, sorted as Catalog.Validate sorts them; nil
// when the package is sound. A package with an error finding is one that
// opm validate (and opm serve) rejects. Validate is safe for concurrent use.
func (p *Package) Validate() []Finding {
	fs := p.validate(nil)
	slices.SortFunc(fs, CompareFindings)
	return fs
}

// CompareFindings orders findings by package, channel, bundle, code, then
// message: the order of [Catalog.Validate] and [Package.Validate].
func CompareFindings(a, b Finding) int {
	return cmp.Or(
		strings.Compare(a.Package, b.Package),
		strings.Compare(a.Channel, b.Channel),
		strings.Compare(a.Bundle, b.Bundle),
		strings.Compare(a.Code, b.Code),
		strings.Compare(a.Message, b.Message),
	)
}

// validate appends the package's findings to fs.
func (p *Package) validate(fs []Finding) []Finding {
	perr := func(code, brief, format string, args ...any) {
		fs = append(fs, Finding{Severity: SeverityError, Code: code, Package: p.Name, Message: fmt.Sprintf(format, args...), Brief: brief, Pos: p.Pos})
	}
	if !p.declared {
		perr(CodeMissingPackage, fmt.Sprintf("no olm.package declares it; %s it", p.namedBy()),
			"no olm.package blob declares package %q, which %s", p.Name, p.namedBy())
	}
	if p.Name == "" {
		perr(CodeInvalidPackageName, "the package name is empty", "package name is empty")
	} else if msg := dns1123Label(p.Name); msg != "" {
		perr(CodeInvalidPackageName, "not a DNS-1123 label: "+msg, "package name %q is not a DNS-1123 label: %s", p.Name, msg)
	}
	if p.declared {
		switch {
		case p.DefaultChannel == "":
			perr(CodeNoDefaultChannel, "no default channel", "package %q has no default channel", p.Name)
		case p.Channel(p.DefaultChannel) == nil:
			perr(CodeUnknownDefault, fmt.Sprintf("default channel %q is not one of its channels", p.DefaultChannel),
				"default channel %q of package %q is not a channel of the package", p.DefaultChannel, p.Name)
		}
	}
	if len(p.Channels) == 0 {
		perr(CodeNoChannels, "no channel", "package %q has no channel", p.Name)
	}
	fs = p.validateVersions(fs)
	fs = p.validateDeprecations(fs)
	for _, ch := range p.Channels {
		fs = ch.validate(p, fs)
	}
	for _, b := range p.Bundles {
		fs = validateBundle(b, fs)
	}
	return append(fs, p.keyFindings...)
}

// namedBy says what refers to an undeclared package.
func (p *Package) namedBy() string {
	var what []string
	if len(p.Channels) > 0 {
		what = append(what, fmt.Sprintf("%d channel(s)", len(p.Channels)))
	}
	if len(p.Bundles) > 0 {
		what = append(what, fmt.Sprintf("%d bundle(s)", len(p.Bundles)))
	}
	if len(p.depBlobs) > 0 {
		what = append(what, "an olm.deprecations blob")
	}
	if len(what) == 0 {
		return "nothing names"
	}
	return strings.Join(what, " and ") + " name"
}

// validateVersions reports versions shared by several bundles. As opm does,
// versions are compared by their canonical text, build metadata included.
func (p *Package) validateVersions(fs []Finding) []Finding {
	bv := p.byVersion // sorted by precedence, then name
	for i := 0; i < len(bv); {
		j := i + 1
		for j < len(bv) && bv[j].Version.Compare(bv[i].Version) == 0 {
			j++
		}
		if j-i > 1 {
			byText := make(map[string][]string, j-i)
			var texts []string
			for _, b := range bv[i:j] {
				t := b.Version.String()
				if byText[t] == nil {
					texts = append(texts, t)
				}
				byText[t] = append(byText[t], b.Name)
			}
			slices.Sort(texts)
			for _, t := range texts {
				if names := byText[t]; len(names) > 1 {
					slices.Sort(names)
					fs = append(fs, Finding{
						Severity: SeverityError, Code: CodeDuplicateVersion, Package: p.Name,
						Message: fmt.Sprintf("bundles %s of package %q share version %s", quoteList(names), p.Name, t),
						Brief:   fmt.Sprintf("bundles %s share version %s", quoteFirst(names, 3), t),
						Pos:     p.Bundle(names[1]).Pos,
					})
				}
			}
		}
		i = j
	}
	return fs
}

// validateDeprecations checks the package's olm.deprecations as opm does.
func (p *Package) validateDeprecations(fs []Finding) []Finding {
	if len(p.depBlobs) == 0 {
		return fs
	}
	pos := p.depBlobs[0]
	derr := func(code, brief, format string, args ...any) {
		fs = append(fs, Finding{Severity: SeverityError, Code: code, Package: p.Name, Message: fmt.Sprintf(format, args...), Brief: brief, Pos: pos})
	}
	if len(p.depBlobs) > 1 {
		pos = p.depBlobs[1]
		derr(CodeMultipleDeprecations, fmt.Sprintf("%d olm.deprecations blobs; at most one is allowed", len(p.depBlobs)),
			"package %q has %d olm.deprecations blobs; at most one is allowed", p.Name, len(p.depBlobs))
		pos = p.depBlobs[0]
	}
	seen := make(map[DeprecationRef]bool, len(p.Deprecations))
	for i, d := range p.Deprecations {
		ref := d.Reference
		if seen[ref] {
			derr(CodeInvalidDeprecation, fmt.Sprintf("deprecation entry %d repeats {schema %q, name %q}", i, ref.Schema, ref.Name),
				"deprecation entry %d of package %q repeats reference {schema %q, name %q}", i, p.Name, ref.Schema, ref.Name)
			continue
		}
		seen[ref] = true
		switch ref.Schema {
		case "":
			derr(CodeInvalidDeprecation, fmt.Sprintf("deprecation entry %d has no schema", i),
				"deprecation entry %d of package %q has a reference with no schema", i, p.Name)
		case SchemaBundle:
			if p.Bundle(ref.Name) == nil {
				derr(CodeInvalidDeprecation, fmt.Sprintf("deprecation entry %d names bundle %q, not in the package", i, ref.Name),
					"deprecation entry %d of package %q names bundle %q, which the package does not have", i, p.Name, ref.Name)
			}
		case SchemaChannel:
			if p.Channel(ref.Name) == nil && ref.Name != p.DefaultChannel {
				derr(CodeInvalidDeprecation, fmt.Sprintf("deprecation entry %d names channel %q, not in the package", i, ref.Name),
					"deprecation entry %d of package %q names channel %q, which the package does not have", i, p.Name, ref.Name)
			}
		case SchemaPackage:
			if ref.Name != "" {
				derr(CodeInvalidDeprecation, fmt.Sprintf("deprecation entry %d: a package reference must have no name", i),
					"deprecation entry %d of package %q refers to the package with a name (%q); the name must be empty", i, p.Name, ref.Name)
			}
		default:
			derr(CodeInvalidDeprecation, fmt.Sprintf("deprecation entry %d has unknown schema %q", i, ref.Schema),
				"deprecation entry %d of package %q refers to unknown schema %q", i, p.Name, ref.Schema)
		}
	}
	return fs
}

// validate appends the channel's findings to fs.
func (c *Channel) validate(p *Package, fs []Finding) []Finding {
	cf := channelFindings{c: c, fs: fs, where: channelWhere{c}}
	if c.Name == "" {
		cf.add(SeverityError, CodeMissingChannelName, "", "a channel has no name", "package %q has a channel with no name", c.Package)
	}
	if len(c.Entries) == 0 {
		cf.add(SeverityError, CodeEmptyChannel, "", "no entries", "%s has no entries", cf.where)
		return cf.fs
	}
	for i := range c.Entries {
		cf.entry(i)
	}
	for _, cyc := range c.cycles() {
		cf.add(SeverityError, CodeCycle, "", cycleBrief(cyc),
			"%s has a cycle through replaces and skips: %s", cf.where, strings.Join(cyc, " -> "))
	}
	if cf.oneHead() {
		cf.stranded()
	}
	return cf.fs
}

// channelFindings are the findings of a channel being validated.
type channelFindings struct {
	c     *Channel
	fs    []Finding
	where channelWhere
}

// add adds a finding with its brief: about an entry, it points at the
// entry; others at the channel.
func (cf *channelFindings) add(sev Severity, code, bundle, brief, format string, args ...any) {
	c := cf.c
	pos := c.Pos
	if bundle != "" {
		pos = c.EntryPos(bundle)
	}
	cf.fs = append(cf.fs, Finding{Severity: sev, Code: code, Package: c.Package, Channel: c.Name, Bundle: bundle, Message: fmt.Sprintf(format, args...), Brief: brief, Pos: pos})
}

// entry checks entry i: listed once, naming a bundle, replacing and
// skipping entries of the channel, with a skipRange that parses.
func (cf *channelFindings) entry(i int) {
	c, where := cf.c, cf.where
	e := &c.Entries[i]
	if c.g.isDup(i) {
		cf.add(SeverityError, CodeDuplicateEntry, e.Name, "listed more than once", "%s lists entry %q more than once", where, e.Name)
		return
	}
	if c.g.bundle[i] < 0 {
		cf.add(SeverityError, CodeUnknownBundle, e.Name, "no olm.bundle of the package has this name", "entry %q of %s names no olm.bundle of the package", e.Name, where)
	}
	if e.Replaces != "" && c.entryIndex(e.Replaces) < 0 {
		cf.add(SeverityWarning, CodeDanglingReplaces, e.Name, fmt.Sprintf("replaces %q", e.Replaces),
			"entry %q of %s replaces %q, which is not an entry of the channel", e.Name, where, e.Replaces)
	}
	var dangling []string
	for k, s := range e.Skips {
		switch {
		case s == "":
			cf.add(SeverityError, CodeEmptySkip, e.Name, fmt.Sprintf("skips[%d] is empty", k), "entry %q of %s: skips[%d] is empty", e.Name, where, k)
		case c.entryIndex(s) < 0:
			dangling = append(dangling, s)
		}
	}
	switch len(dangling) {
	case 0:
	case 1:
		cf.add(SeverityWarning, CodeDanglingSkip, e.Name, fmt.Sprintf("skips %q", dangling[0]),
			"entry %q of %s skips %q, which is not an entry of the channel", e.Name, where, dangling[0])
	default:
		cf.add(SeverityWarning, CodeDanglingSkip, e.Name, fmt.Sprintf("skips %s", quoteFirst(dangling, 1)),
			"entry %q of %s skips %d names that are not entries of the channel: %s", e.Name, where, len(dangling), strings.Join(dangling, ", "))
	}
	if e.SkipRange.String() != "" && !e.SkipRange.Valid() {
		cf.add(SeverityWarning, CodeInvalidSkipRange, e.Name, fmt.Sprintf("skipRange %q is not a semver range", e.SkipRange.String()),
			"entry %q of %s has skipRange %q, which is not a semver range", e.Name, where, e.SkipRange.String())
	}
}

// oneHead reports whether the channel has exactly one head, adding a
// finding when it has none or several.
func (cf *channelFindings) oneHead() bool {
	heads := cf.c.g.heads
	switch len(heads) {
	case 0:
		cf.add(SeverityError, CodeNoHead, "", "no head: every entry is replaced or skipped", "%s has no head: every entry is replaced or skipped by another", cf.where)
	case 1:
		return true
	default:
		n := 1 // the first head, or both of two
		if len(heads) == 2 {
			n = 2
		}
		cf.add(SeverityError, CodeMultipleHeads, "", fmt.Sprintf("%d heads: %s", len(heads), words.First(heads, n)),
			"%s has %d heads (entries that nothing replaces or skips): %s", cf.where, len(heads), strings.Join(heads, ", "))
	}
	return false
}

// stranded adds a finding naming the stranded entries, as opm defines
// them: entries neither on the replaces chain from the head nor skipped by
// any entry of the channel. opm stops at a cycle on the chain; so do we
// (the cycle is reported on its own).
func (cf *channelFindings) stranded() {
	c, g := cf.c, &cf.c.g
	if last := g.chain[len(g.chain)-1]; slices.Contains(g.chain, c.Entries[g.ids.at(last)].Replaces) {
		return
	}
	var stranded []string
	onChain := make(map[string]bool, len(g.chain))
	for _, n := range g.chain {
		onChain[n] = true
	}
	for _, n := range g.order {
		if !onChain[n] && !c.IsSkipped(n) {
			stranded = append(stranded, n)
		}
	}
	if len(stranded) > 0 {
		slices.Sort(stranded)
		what := "stranded entries"
		if len(stranded) == 1 {
			what = "stranded entry"
		}
		cf.add(SeverityError, CodeStrandedBundles, "", fmt.Sprintf("%d %s: %s", len(stranded), what, words.First(stranded, 2)),
			"%s has %d stranded entries, neither on the replaces chain from head %q nor skipped: %s", cf.where, len(stranded), g.heads[0], strings.Join(stranded, ", "))
	}
}

// cycles returns the cycles of the channel's replaces and skips edges: one
// per strongly connected component with more than one entry or a self-edge,
// each as a closed walk starting at its smallest name (sorted, so the
// result is deterministic).
func (c *Channel) cycles() [][]string {
	// Edges: entry → the entries it replaces or skips, appended to buf.
	succ := func(i int, buf []int) []int {
		e := &c.Entries[i]
		if j := c.entryIndex(e.Replaces); e.Replaces != "" && j >= 0 {
			buf = append(buf, j)
		}
		for _, s := range e.Skips {
			if j := c.entryIndex(s); s != "" && j >= 0 {
				buf = append(buf, j)
			}
		}
		return buf
	}
	var out [][]string
	var buf []int
	components(len(c.Entries), c.g.isDup, succ, func(comp []int) {
		if len(comp) == 1 {
			if buf = succ(comp[0], buf[:0]); !slices.Contains(buf, comp[0]) {
				return // no self-edge
			}
		}
		out = append(out, c.cycleWalk(comp, succ))
	})
	slices.SortFunc(out, func(a, b []string) int { return slices.Compare(a, b) })
	return out
}

// components calls yield with each strongly connected component of the
// graph of n nodes whose edges succ appends to a list, as found by Tarjan's
// algorithm (iterative) from every node not yet visited that skip does
// not report, in the order the algorithm closes them; a component is
// valid only during the call.
func components(n int, skip func(int) bool, succ func(int, []int) []int, yield func(comp []int)) {
	t := tarjan{index: make([]int, n), low: make([]int, n), onStack: make([]bool, n), succ: succ, yield: yield}
	for i := range t.index {
		t.index[i] = -1
	}
	for root := 0; root < n; root++ {
		if t.index[root] < 0 && !skip(root) {
			t.visit(root)
		}
	}
}

// tarjan is the state of Tarjan's algorithm over a graph of numbered
// nodes.
type tarjan struct {
	index, low []int // per node: its visit number (-1 before), the lowest reached
	onStack    []bool
	stack      []int
	next       int
	succ       func(int, []int) []int
	yield      func([]int)
	frames     []tarjanFrame
	succs      []int // the successors of the frames' nodes, frame after frame
	comp       []int // the component being closed
}

// tarjanFrame is a node being visited: its successors are
// succs[lo:hi], those from k still to see.
type tarjanFrame struct{ v, lo, hi, k int }

// push starts the visit of v.
func (t *tarjan) push(v int) {
	t.index[v], t.low[v] = t.next, t.next
	t.next++
	t.stack = append(t.stack, v)
	t.onStack[v] = true
	lo := len(t.succs)
	t.succs = t.succ(v, t.succs)
	t.frames = append(t.frames, tarjanFrame{v: v, lo: lo, hi: len(t.succs), k: lo})
}

// visit visits everything reachable from root not yet visited, closing
// the components it completes.
func (t *tarjan) visit(root int) {
	t.push(root)
	for len(t.frames) > 0 {
		f := &t.frames[len(t.frames)-1]
		if f.k < f.hi {
			w := t.succs[f.k]
			f.k++
			if t.index[w] < 0 {
				t.push(w)
			} else if t.onStack[w] {
				t.low[f.v] = min(t.low[f.v], t.index[w])
			}
			continue
		}
		v := f.v
		t.succs = t.succs[:f.lo]
		t.frames = t.frames[:len(t.frames)-1]
		if len(t.frames) > 0 {
			u := t.frames[len(t.frames)-1].v
			t.low[u] = min(t.low[u], t.low[v])
		}
		if t.low[v] == t.index[v] {
			t.close(v)
		}
	}
}

// close pops the component whose root is v off the stack, and yields it.
func (t *tarjan) close(v int) {
	t.comp = t.comp[:0]
	for {
		w := t.stack[len(t.stack)-1]
		t.stack = t.stack[:len(t.stack)-1]
		t.onStack[w] = false
		t.comp = append(t.comp, w)
		if w == v {
			break
		}
	}
	t.yield(t.comp)
}

// cycleWalk returns a cycle inside the strongly connected component comp:
// from its smallest name, the shortest way back to it (edges taken in entry
// order), closed by repeating the start.
func (c *Channel) cycleWalk(comp []int, succ func(int, []int) []int) []string {
	in := make(map[int]bool, len(comp))
	start := comp[0]
	for _, v := range comp {
		in[v] = true
		if c.Entries[v].Name < c.Entries[start].Name {
			start = v
		}
	}
	parent := map[int]int{}
	queue := []int{start}
	found := false
	var ws []int
	for len(queue) > 0 && !found {
		v := queue[0]
		queue = queue[1:]
		ws = succ(v, ws[:0])
		for _, w := range ws {
			if !in[w] {
				continue
			}
			if w == start {
				parent[start] = v
				found = true
				break
			}
			if _, ok := parent[w]; !ok {
				parent[w] = v
				queue = append(queue, w)
			}
		}
	}
	// Walk back from start's parent to start.
	var rev []int
	for v := parent[start]; v != start; v = parent[v] {
		rev = append(rev, v)
	}
	walk := []string{c.Entries[start].Name}
	for i := len(rev) - 1; i >= 0; i-- {
		walk = append(walk, c.Entries[rev[i]].Name)
	}
	return append(walk, c.Entries[start].Name)
}

// channelWhere and bundleWhat name a channel or bundle in messages; they
// are formatted only when a finding is made.
type channelWhere struct{ c *Channel }

func (w channelWhere) String() string {
	return fmt.Sprintf("channel %q of package %q", w.c.Name, w.c.Package)
}

type bundleWhat struct{ b *Bundle }

func (w bundleWhat) String() string {
	return fmt.Sprintf("bundle %q of package %q", w.b.Name, w.b.Package)
}

// validateBundle appends the bundle's findings to fs.
func validateBundle(b *Bundle, fs []Finding) []Finding {
	add := func(sev Severity, code, brief, format string, args ...any) {
		fs = append(fs, Finding{Severity: sev, Code: code, Package: b.Package, Bundle: b.Name, Message: fmt.Sprintf(format, args...), Brief: brief, Pos: b.Pos})
	}
	what := bundleWhat{b}
	if b.Name == "" {
		add(SeverityError, CodeMissingBundleName, "a bundle has no name", "package %q has a bundle with no name", b.Package)
	}
	if len(b.Channels) == 0 {
		add(SeverityError, CodeNotInChannel, "in no channel", "%s is not an entry of any channel", what)
	}
	// As in opm, a bundle may do without an image when it embeds its
	// manifests (olm.bundle.object properties).
	if b.Image == "" && !slices.ContainsFunc(b.Properties, func(p Property) bool { return p.Type == TypeBundleObject }) {
		add(SeverityError, CodeMissingImage, "no image and no olm.bundle.object property", "%s has no image and no olm.bundle.object property", what)
	}
	if err := b.propErr; err != nil {
		add(SeverityError, CodeInvalidProperty, oneLine(err), "%s: %v", what, err)
	}
	npkg := 0
	for _, pr := range b.Properties {
		if pr.Type == TypePackage {
			npkg++
		}
	}
	if b.declaredOK && b.DeclaredPackage != b.Package {
		add(SeverityError, CodePackageMismatch, fmt.Sprintf("its olm.package property names package %q", b.DeclaredPackage),
			"%s has an olm.package property for package %q", what, b.DeclaredPackage)
	}
	switch {
	case npkg == 0:
		add(SeverityError, CodeMissingPackageProperty, "no olm.package property", "%s has no olm.package property", what)
		return fs
	case npkg > 1:
		add(SeverityError, CodeMultiplePackageProps, fmt.Sprintf("%d olm.package properties; exactly one is allowed", npkg),
			"%s has %d olm.package properties; exactly one is allowed", what, npkg)
	}
	if _, err := semver.Parse(b.VersionText); err != nil {
		if b.versionOK {
			add(SeverityWarning, CodeNonStrictVersion, fmt.Sprintf("version %q is semver only when read tolerantly (as %s)", b.VersionText, b.Version),
				"%s has version %q, which is semver only when read tolerantly (as %s); opm rejects it", what, b.VersionText, b.Version)
		} else {
			add(SeverityError, CodeInvalidVersion, fmt.Sprintf("version %q is not semver: %v", b.VersionText, err),
				"%s has version %q, which is not semver: %v", what, b.VersionText, err)
		}
	}
	return fs
}

// dns1123Label returns why s is not a DNS-1123 label (lower-case letters,
// digits and '-', starting and ending with a letter or digit, at most 63
// characters), or "" when it is one.
func dns1123Label(s string) string {
	if len(s) > 63 {
		return fmt.Sprintf("longer than 63 characters (%d)", len(s))
	}
	alnum := func(r byte) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' }
	// The position counts characters (runes) from 0, and %q shows the
	// real character, escaped when it is a hidden one.
	pos := -1
	for _, r := range s {
		pos++
		if r >= utf8.RuneSelf || (!alnum(byte(r)) && r != '-') {
			return fmt.Sprintf("character %q at %d is not a lower-case letter, digit or '-'", r, pos)
		}
	}
	if !alnum(s[0]) || !alnum(s[len(s)-1]) {
		return "must start and end with a lower-case letter or digit"
	}
	return ""
}

// quoteList returns names quoted and joined with ", ".
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// quoteFirst returns the first n names quoted, joined with ", ", and how
// many more there are: `"a", "b" and 3 more` (words.First).
func quoteFirst(names []string, n int) string {
	q := make([]string, len(names))
	for i, s := range names {
		q[i] = fmt.Sprintf("%q", s)
	}
	return words.First(q, n)
}

// oneLine returns err's text on one line: the errors it joins separated
// by "; ".
func oneLine(err error) string {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		parts := make([]string, len(j.Unwrap()))
		for i, e := range j.Unwrap() {
			parts[i] = oneLine(e)
		}
		return strings.Join(parts, "; ")
	}
	return strings.ReplaceAll(err.Error(), "\n", " ")
}

// cycleBrief writes a cycle (a closed walk) as "a -> b -> a", or with more
// than four entries its first three and their number: "a -> b -> c -> …
// (7 entries)".
func cycleBrief(cyc []string) string {
	if n := len(cyc) - 1; n > 4 {
		return strings.Join(cyc[:3], " -> ") + fmt.Sprintf(" -> … (%d entries)", n)
	}
	return strings.Join(cyc, " -> ")
}
