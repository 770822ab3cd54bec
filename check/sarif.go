package check

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/safetext"
)

// SARIFSchema is the JSON schema WriteSARIF's output conforms to: SARIF
// 2.1.0, as published by OASIS (errata 01).
const SARIFSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// WriteSARIF writes the report as one SARIF 2.1.0 log, the format code
// scanning services read (GitHub's upload-sarif among them): one run of the
// tool "sextant" whose rules are every documented finding code (Codes),
// each with its help text from CHECKS.md and its default level, and one
// result per finding:
//
//   - ruleId the code; level error, warning or note (info);
//   - message the finding's message, with its further lines (a code
//     scanning alert shows it on its own, away from the package, channel
//     and bundle, so the message that names them is the one to show), and
//     the property "brief", the finding's Brief;
//   - a physical location (the file as a relative URI, the line and, when
//     known, the column) when the finding has a position, and always a
//     logical location "catalog/package/channel/bundle" (the catalog's
//     path relative to opts.Root when it is under it);
//   - partialFingerprints "sextant/object/v1", a hash of the code and the
//     object, so that a finding keeps its identity from one commit to the
//     next whatever its line or wording;
//   - with a baseline, baselineState "new" or "unchanged", and the
//     resolved findings as results with baselineState "absent";
//   - suppressed findings with a suppression of kind "external" whose
//     justification is the reason given in the suppressions file.
//
// With opts.Root (the top of the repository that holds the catalog), every
// file under it — positions and suppression entries alike — is a URI
// relative to it with uriBaseId "%SRCROOT%", which the run's
// originalUriBaseIds sets to the folder's file: URI, so that the same
// finding has the same location whatever folder the check ran in and
// however the catalog was named; a file outside it is an absolute file:
// URI. Without Root, a relative path is a relative URI and an absolute one
// a file: URI. opts.ToolVersion is tool.driver.version.
//
// The same report and options always give the same bytes. It returns the
// first write error.
func (r *Report) WriteSARIF(w io.Writer, opts SARIFOptions) error {
	docs := Codes()
	index := make(map[string]int, len(docs))
	rules := make([]sarifRule, 0, len(docs))
	for _, d := range docs {
		index[d.Code] = len(rules)
		rules = append(rules, d.sarifRule())
	}
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name: "sextant", InformationURI: "https://github.com/sextantdev/sextant", Rules: rules,
			Version: opts.ToolVersion, SemanticVersion: semanticVersion(opts.ToolVersion),
		}},
		ColumnKind:  "unicodeCodePoints",
		Results:     []sarifResult{},
		Invocations: []sarifInvocation{{ExecutionSuccessful: true}},
	}
	uris := newSARIFFiles(opts)
	if uris.root != "" {
		run.OriginalURIBaseIDs = map[string]sarifArtifact{sarifRootID: {URI: uris.rootURI(), Description: &sarifMessage{Text: "the top of the repository that holds the catalog"}}}
	}
	baseline := false
	for _, c := range r.Catalogs {
		baseline = baseline || c.Baseline != nil
	}
	add := func(f Finding, state string) {
		i, ok := index[f.Code]
		if !ok {
			// A code without documentation still gets a rule of its own.
			i = len(run.Tool.Driver.Rules)
			index[f.Code] = i
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, CodeDoc{Code: f.Code, Severity: f.Severity}.sarifRule())
		}
		run.Results = append(run.Results, f.sarifResult(i, state, uris))
	}
	// current is the baseline state of a finding still present: new or
	// unchanged against the baseline, none without one.
	current := func(f Finding) string {
		switch {
		case !baseline:
			return ""
		case f.Status == StatusNew:
			return "new"
		}
		return "unchanged"
	}
	// A change refused on several upgrade edges (a Group with Upgrades)
	// is one result, its edges listed; its other findings are not results
	// of their own.
	lead, member := map[int]*Group{}, map[int]bool{}
	groups := GroupFindings(r.Findings)
	for gi := range groups {
		if g := &groups[gi]; len(g.Upgrades) > 0 {
			for _, i := range g.Findings {
				member[i] = true
			}
			lead[slices.Min(g.Findings)] = g
		}
	}
	for i, f := range r.Findings {
		switch g := lead[i]; {
		case g != nil:
			first := r.Findings[g.Findings[0]]
			first.Message = g.Message
			add(first, current(first))
			res := &run.Results[len(run.Results)-1]
			res.Message.Text = sarifMessageText(g.Message) + "\n" + fmt.Sprintf("on %d upgrades: %s", g.Count, upgradeList(g.Package, g.Upgrades, sarifUpgrades))
			res.Properties.Upgrades = g.Upgrades
			obj := []string{g.Code, g.Package, g.CRD, g.Message}
			sum := sha256.Sum256([]byte(strings.Join(obj, "\x00")))
			res.PartialFingerprints = map[string]string{"sextant/object/v1": hex.EncodeToString(sum[:16])}
			res.Locations[0].LogicalLocations[0].FullyQualifiedName = strings.Join([]string{uris.name(first.Catalog), g.Package, g.CRD}, "/")
		case !member[i]:
			add(f, current(f))
		}
	}
	for _, f := range r.Resolved {
		add(f, "absent")
	}
	for _, f := range r.Suppressed {
		add(f, current(f))
	}
	log := sarifLog{Schema: SARIFSchema, Version: "2.1.0", Runs: []sarifRun{run}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(log)
}

// sarifLevel maps a severity to a SARIF level.
func sarifLevel(s graph.Severity) string {
	switch {
	case s >= graph.SeverityError:
		return "error"
	case s == graph.SeverityWarning:
		return "warning"
	}
	return "note"
}

func (d CodeDoc) sarifRule() sarifRule {
	help := d.Help
	if help == "" {
		help = "finding code " + d.Code
	}
	short, _, _ := strings.Cut(help, "; ")
	rl := sarifRule{
		ID:                   d.Code,
		ShortDescription:     sarifMessage{Text: plainHelp(short)},
		FullDescription:      sarifMessage{Text: plainHelp(help)},
		Help:                 &sarifHelp{Text: plainHelp(help), Markdown: help},
		DefaultConfiguration: sarifConfig{Level: sarifLevel(d.Severity)},
	}
	if d.Check != "" {
		rl.Properties = &sarifRuleProps{Check: d.Check, Tags: []string{d.Check}}
	}
	return rl
}

// plainHelp drops the Markdown code marks of a help text.
func plainHelp(s string) string { return strings.ReplaceAll(s, "`", "") }

func (f Finding) sarifResult(rule int, state string, uris *sarifFiles) sarifResult {
	res := sarifResult{
		RuleID:        f.Code,
		RuleIndex:     rule,
		Level:         sarifLevel(f.Severity),
		Message:       sarifMessage{Text: f.Message},
		BaselineState: state,
	}
	if f.Code == CodeCRDUpgradeUnsafe {
		res.Message.Text = sarifMessageText(f.Message)
	}
	if f.Brief != "" || f.From != "" || f.CRD != "" {
		res.Properties = &sarifResultProps{Brief: f.Brief, From: f.From, CRD: f.CRD}
	}
	obj := []string{uris.name(f.Catalog), f.Package, f.Channel, f.Bundle}
	loc := sarifLocation{LogicalLocations: []sarifLogical{{FullyQualifiedName: strings.Join(obj, "/")}}}
	if f.Pos.File != "" && f.Pos.Line > 0 {
		loc.PhysicalLocation = &sarifPhysical{
			ArtifactLocation: uris.artifact(f.Pos.File),
			Region:           &sarifRegion{StartLine: f.Pos.Line, StartColumn: f.Pos.Column},
		}
	}
	res.Locations = []sarifLocation{loc}
	sum := sha256.Sum256([]byte(strings.Join(append([]string{f.Code}, obj[1:]...), "\x00")))
	res.PartialFingerprints = map[string]string{"sextant/object/v1": hex.EncodeToString(sum[:16])}
	if s := f.Suppression; s != nil {
		res.Suppressions = []sarifSuppression{{Kind: "external", Justification: s.Reason, Location: s.sarifLocation(uris)}}
	}
	return res
}

// sarifLocation locates the suppressions file's entry, when known.
func (s *Suppression) sarifLocation(uris *sarifFiles) *sarifLocation {
	if s.Pos.File == "" || s.Pos.Line < 1 {
		return nil
	}
	return &sarifLocation{
		PhysicalLocation: &sarifPhysical{
			ArtifactLocation: uris.artifact(s.Pos.File),
			Region:           &sarifRegion{StartLine: s.Pos.Line, StartColumn: s.Pos.Column},
		},
		LogicalLocations: []sarifLogical{{FullyQualifiedName: s.String()}},
	}
}

// SARIFOptions tunes WriteSARIF. The zero value writes each file as it is
// named: a relative path as a relative URI, an absolute one as a file: URI.
type SARIFOptions struct {
	// Root is the folder the files' URIs are relative to, for code
	// scanning the top of the git repository that holds the catalog: an
	// absolute path; "" for none.
	Root string
	// Dir is the folder the relative file names of positions are relative
	// to, an absolute path; "": the current directory.
	Dir string
	// InRoot reports the file names that are relative to Root already, not
	// to Dir (a baseline read from git history names its files by their
	// path in the repository); nil: none.
	InRoot func(file string) bool
	// ToolVersion is the version of the tool (tool.driver.version, and
	// semanticVersion when it is one); "" leaves it out.
	ToolVersion string
}

// sarifRootID is the uriBaseId of the files under SARIFOptions.Root, the
// one CodeQL writes for the top of the source tree.
const sarifRootID = "%SRCROOT%"

// sarifFiles makes the artifact locations of files.
type sarifFiles struct {
	root, dir string
	inRoot    func(string) bool
}

func newSARIFFiles(o SARIFOptions) *sarifFiles {
	f := &sarifFiles{inRoot: o.InRoot}
	if o.Root == "" {
		return f
	}
	f.dir = o.Dir
	if f.dir == "" {
		f.dir, _ = os.Getwd()
	}
	f.root = filepath.Clean(o.Root)
	if !filepath.IsAbs(f.root) {
		f.root = filepath.Join(f.dir, f.root)
	}
	return f
}

// rootURI is Root as a file: URI ending in a slash, as a base URI must.
func (f *sarifFiles) rootURI() string {
	p := filepath.ToSlash(f.root)
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive letter
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// artifact locates file.
func (f *sarifFiles) artifact(file string) sarifArtifact {
	if rel, ok := f.rel(file); ok {
		return sarifArtifact{URI: relURI(rel), URIBaseID: sarifRootID}
	}
	if f.root != "" && !filepath.IsAbs(file) {
		return sarifArtifact{URI: fileURI(filepath.Join(f.dir, file))}
	}
	return sarifArtifact{URI: fileURI(file)}
}

// rel returns file as a slash-separated path relative to Root, and
// whether it is under it.
func (f *sarifFiles) rel(file string) (string, bool) {
	if f.root == "" {
		return "", false
	}
	if f.inRoot != nil && f.inRoot(file) && !filepath.IsAbs(file) {
		return filepath.ToSlash(filepath.Clean(file)), true
	}
	abs := file
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(f.dir, file)
	}
	rel, err := filepath.Rel(f.root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// name is a catalog's name as logical locations give it: the path of a
// catalog under Root relative to it (the same from any folder), else the
// name as it is.
func (f *sarifFiles) name(catalog string) string {
	if rel, ok := f.rel(catalog); ok && catalog != "" {
		return rel
	}
	return catalog
}

// relURI is a slash-separated relative path as a relative URI reference.
func relURI(p string) string { return (&url.URL{Path: p}).String() }

// semanticVersion is v without its "v" when it is a semantic version
// ("v1.2.3" → "1.2.3"), else "".
func semanticVersion(v string) string {
	t, ok := strings.CutPrefix(v, "v")
	if !ok {
		return ""
	}
	if _, err := semver.Parse(t); err != nil {
		return ""
	}
	return t
}

// fileURI returns a file path as a URI reference: a relative path stays
// relative (code scanning resolves it against the repository), an
// absolute one becomes a file: URI.
func fileURI(path string) string {
	p := filepath.ToSlash(path)
	if filepath.IsAbs(path) {
		if !strings.HasPrefix(p, "/") {
			p = "/" + p
		}
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	return relURI(p)
}

// The SARIF 2.1.0 objects WriteSARIF writes: only the properties it sets.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool               sarifTool                `json:"tool"`
		Invocations        []sarifInvocation        `json:"invocations"`
		OriginalURIBaseIDs map[string]sarifArtifact `json:"originalUriBaseIds,omitempty"`
		ColumnKind         string                   `json:"columnKind"`
		Results            []sarifResult            `json:"results"`
	}
	sarifInvocation struct {
		ExecutionSuccessful bool `json:"executionSuccessful"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name            string      `json:"name"`
		Version         string      `json:"version,omitempty"`
		SemanticVersion string      `json:"semanticVersion,omitempty"`
		InformationURI  string      `json:"informationUri"`
		Rules           []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string          `json:"id"`
		ShortDescription     sarifMessage    `json:"shortDescription"`
		FullDescription      sarifMessage    `json:"fullDescription"`
		Help                 *sarifHelp      `json:"help,omitempty"`
		DefaultConfiguration sarifConfig     `json:"defaultConfiguration"`
		Properties           *sarifRuleProps `json:"properties,omitempty"`
	}
	sarifRuleProps struct {
		Check string   `json:"check"`
		Tags  []string `json:"tags"`
	}
	sarifHelp struct {
		Text     string `json:"text"`
		Markdown string `json:"markdown"`
	}
	sarifConfig struct {
		Level string `json:"level"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID              string             `json:"ruleId"`
		RuleIndex           int                `json:"ruleIndex"`
		Level               string             `json:"level"`
		Message             sarifMessage       `json:"message"`
		Locations           []sarifLocation    `json:"locations"`
		PartialFingerprints map[string]string  `json:"partialFingerprints"`
		BaselineState       string             `json:"baselineState,omitempty"`
		Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
		Properties          *sarifResultProps  `json:"properties,omitempty"`
	}
	sarifResultProps struct {
		Brief    string    `json:"brief"`
		From     string    `json:"from,omitempty"`
		CRD      string    `json:"crd,omitempty"`
		Upgrades []Upgrade `json:"upgrades,omitempty"`
	}
	sarifLocation struct {
		PhysicalLocation *sarifPhysical `json:"physicalLocation,omitempty"`
		LogicalLocations []sarifLogical `json:"logicalLocations"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           *sarifRegion  `json:"region,omitempty"`
	}
	sarifArtifact struct {
		URI         string        `json:"uri,omitempty"`
		URIBaseID   string        `json:"uriBaseId,omitempty"`
		Description *sarifMessage `json:"description,omitempty"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
	}
	sarifLogical struct {
		FullyQualifiedName string `json:"fullyQualifiedName"`
	}
	sarifSuppression struct {
		Kind          string         `json:"kind"`
		Justification string         `json:"justification,omitempty"`
		Location      *sarifLocation `json:"location,omitempty"`
	}
)

// sarifUpgrades is how many upgrade edges a result's message names (its
// property "upgrades" has them all); sarifLines how many lines of an
// operator-controller CRD message it keeps, each shortened to
// sarifLine characters.
const (
	sarifUpgrades = 50
	sarifLines    = 40
	sarifLine     = 1000
)

// sarifMessageText bounds an operator-controller CRD message (a line per
// change, some of them a whole schema's difference): its first sarifLines
// lines, each shortened; the JSON report has it whole.
func sarifMessageText(msg string) string {
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		lines[i] = safetext.Shorten(l, sarifLine)
	}
	if len(lines) > sarifLines {
		lines = append(lines[:sarifLines], fmt.Sprintf("… and %d more lines (the JSON report has them all)", len(lines)-sarifLines))
	}
	return strings.Join(lines, "\n")
}
