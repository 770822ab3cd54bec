package predict

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

// Note is what a Predictor could not check (Predictor.Notes, Plan.Notes):
// Code says which, Text says it in words. Its JSON form is the text alone
// (a JSON string), and a note read back from JSON has no code.
type Note struct {
	Code NoteCode
	Text string
}

// NoteCode says what a Note is about.
type NoteCode string

// The codes of the notes a Predictor gives.
const (
	// NoteAssumedOperatorGroup: the state holds no OperatorGroup at all
	// and a CSV's install modes could not be checked: one plain
	// OperatorGroup is assumed (DESIGN §1), its target namespaces unknown.
	// A program that already says the group is assumed (package sextant
	// does, in a note of the world) may leave this note out.
	NoteAssumedOperatorGroup NoteCode = "operatorgroup-assumed"
	// NoteTargetsUnknown: the namespace's OperatorGroup's target
	// namespaces are unknown (a selector): install modes and API
	// conflicts are not checked.
	NoteTargetsUnknown NoteCode = "targets-unknown"
	// NoteRivalTargetsUnknown: another OperatorGroup's target namespaces
	// are unknown: API conflicts with it are not checked.
	NoteRivalTargetsUnknown NoteCode = "rival-targets-unknown"
	// NoteInstallModesUnknown: bundles or installed CSVs whose install
	// modes are unknown, not checked.
	NoteInstallModesUnknown NoteCode = "install-modes-unknown"
)

// assumedGroupText is the text of the NoteAssumedOperatorGroup note.
const assumedGroupText = "no OperatorGroup in the manifests: install modes and API conflicts between OperatorGroups are not checked (the namespace's group is assumed, its target namespaces unknown)"

// String returns the note's text.
func (n Note) String() string { return n.Text }

// MarshalJSON writes the note's text as a JSON string.
func (n Note) MarshalJSON() ([]byte, error) { return json.Marshal(n.Text) }

// UnmarshalJSON reads a note's text from a JSON string; the code is not
// in JSON and stays empty.
func (n *Note) UnmarshalJSON(b []byte) error {
	*n = Note{}
	return json.Unmarshal(b, &n.Text)
}

// A Predictor predicts what OLM does with the CSVs a plan installs or
// keeps in one namespace of a cluster state: it reads the state's
// OperatorGroups and installed CSVs once, then answers per CSV, and
// gathers notes on what it could not check. It is not safe for concurrent
// use; it does not modify the state, which must not change while the
// Predictor is used.
type Predictor struct {
	ns       string
	plat     Platform
	group    *cluster.OperatorGroup // the namespace's one group; nil: none or several
	targets  Targets                // of group
	own      *groupSurface          // of group; nil when the namespace has not exactly one
	surfaces []*groupSurface        // every group of the state, by namespace and name
	rivals   []*groupSurface        // the groups but own whose targets intersect own's
	// rivalGroups lists, per API group, the rivals that provide an API of
	// it: a CSV whose APIs are of other groups meets no rival, and the
	// others are searched in those rivals only.
	rivalGroups map[string][]*groupSurface
	// missing, when group is nil, says why the group checks are not made;
	// it becomes a note once a CSV with install modes meets it.
	missing Note
	notes   []Note
	// unknownModes lists, by kind of object, the CSVs whose install modes
	// are unknown (see Notes).
	unknownModes map[string][]string
	// crds are the state's CRDs, indexed in crdIdx the first time a
	// step asks.
	crds    []cluster.CRD
	crdIdx  cluster.CRDIndex
	indexed bool
	// state is the cluster state, whose custom resources a step's new
	// CRDs are checked against (crIdx indexes them by group and kind the
	// first time a step asks); bundleCRDs finds those CRDs, and unchecked
	// lists the bundles whose CRDs it could not find.
	state      *cluster.State
	crIdx      map[[2]string][]cluster.CustomResource
	bundleCRDs BundleCRDs
	ctx        context.Context
	memo       *CRMemo
	unchecked  []string
}

// New returns the Predictor of namespace ns of state on platform plat.
// planned holds the APIs that plans of namespaces resolved before this one
// install (nil: none).
func New(ns string, plat Platform, state *cluster.State, planned Planned) *Predictor {
	pr := &Predictor{ns: ns, plat: plat, crds: state.CRDs, state: state}
	if !state.ListsOperatorGroups() && len(state.OperatorGroupsIn(ns)) == 0 {
		// No group listed, none read from the CSVs' annotations.
		pr.missing = Note{NoteAssumedOperatorGroup, assumedGroupText}
		return pr
	}
	var mine []*cluster.OperatorGroup
	pr.surfaces, mine = surfaces(ns, state, planned)
	if len(mine) != 1 {
		// OLM fails every CSV of such a namespace (NoOperatorGroup,
		// TooManyOperatorGroups); resolution reports it.
		return pr
	}
	for _, s := range pr.surfaces {
		if s.g == mine[0] {
			pr.own = s
		}
	}
	pr.group, pr.targets = mine[0], pr.own.targets
	pr.findRivals()
	if !pr.targets.Known {
		pr.missing = Note{NoteTargetsUnknown, pr.targets.Why + ": install modes and API conflicts are not checked"}
		pr.group = nil
	}
	for _, s := range pr.surfaces {
		if s != pr.own && !s.targets.Known {
			pr.note(Note{NoteRivalTargetsUnknown, s.targets.Why + ": API conflicts with it are not checked"})
		}
	}
	return pr
}

// surfaces returns the surface of every OperatorGroup of state, in state
// order, and the groups of namespace ns.
func surfaces(ns string, state *cluster.State, planned Planned) ([]*groupSurface, []*cluster.OperatorGroup) {
	csvAll, csvOK := csvAPIs(state)
	var mine []*cluster.OperatorGroup
	all := make([]groupSurface, len(state.OperatorGroups))
	out := make([]*groupSurface, 0, len(all))
	for i := range state.OperatorGroups {
		g := &state.OperatorGroups[i]
		s := &all[i]
		*s = groupSurface{g: g, targets: TargetsOf(g)}
		if _, ok := g.Annotations[cluster.ProvidedAPIsAnnotation]; ok {
			s.apis, _ = g.ProvidedAPIs()
			if !g.StaticProvidedAPIs {
				s.apis = intersectGVKs(s.apis, csvAll[g.Namespace])
			}
		} else {
			s.apis, s.fromCSVs = csvOK[g.Namespace], true
		}
		if p := planned[s.key()]; len(p) > 0 {
			s.apis = unionGVKs(s.apis, p)
		}
		out = append(out, s)
		if g.Namespace == ns {
			mine = append(mine, g)
		}
	}
	return out, mine
}

// csvAPIs returns the installed CSVs' APIs per namespace that has an
// OperatorGroup, sorted: all of them (OLM prunes from a group's
// olm.providedAPIs the APIs no CSV of its namespace provides any more),
// and those of CSVs not failed (a group without the annotation is taken to
// provide them).
func csvAPIs(state *cluster.State) (all, ok map[string][]graph.GVK) {
	groupNS := make(map[string]bool, len(state.OperatorGroups))
	for i := range state.OperatorGroups {
		groupNS[state.OperatorGroups[i].Namespace] = true
	}
	all = map[string][]graph.GVK{}
	anyFailed := false
	merged := map[string]bool{}
	for i := range state.CSVs {
		c := &state.CSVs[i]
		if c.Copied || !groupNS[c.Namespace] || len(c.Provides) == 0 {
			continue
		}
		anyFailed = anyFailed || c.Phase == cluster.CSVPhaseFailed
		// A CSV's Provides is sorted: a namespace with one CSV shares it;
		// one with several gets a copy, sorted below.
		if prev, ok := all[c.Namespace]; !ok {
			all[c.Namespace] = c.Provides
		} else {
			if !merged[c.Namespace] {
				prev = slices.Clone(prev)
				merged[c.Namespace] = true
			}
			all[c.Namespace] = append(prev, c.Provides...)
		}
	}
	for ns := range merged {
		all[ns] = sortedSet(all[ns])
	}
	if !anyFailed {
		return all, all
	}
	ok = map[string][]graph.GVK{}
	for i := range state.CSVs {
		if c := &state.CSVs[i]; !c.Copied && groupNS[c.Namespace] && c.Phase != cluster.CSVPhaseFailed {
			ok[c.Namespace] = append(ok[c.Namespace], c.Provides...)
		}
	}
	for ns, apis := range ok {
		ok[ns] = sortedSet(apis)
	}
	return all, ok
}

// findRivals finds the groups whose targets meet the namespace's group's,
// and the APIs they provide: most CSVs provide none of them, which one
// binary search per API tells.
func (pr *Predictor) findRivals() {
	for _, s := range pr.surfaces {
		if s != pr.own && pr.own.intersects(s) && len(s.apis) > 0 {
			pr.rivals = append(pr.rivals, s)
		}
	}
	pr.rivalGroups = make(map[string][]*groupSurface)
	for _, s := range pr.rivals {
		for i, g := range s.apis {
			if i == 0 || s.apis[i-1].Group != g.Group {
				pr.rivalGroups[g.Group] = append(pr.rivalGroups[g.Group], s)
			}
		}
	}
}

// The kinds of objects whose install modes may be unknown, as the notes
// name them, in the order the notes come.
const (
	unknownBundles = "bundles without olm.csv.metadata"
	unknownCSVs    = "installed CSVs without spec.installModes"
)

// Notes returns what the predictions so far could not check, in a fixed
// order: notes on the OperatorGroups as they were met, then, one per kind
// of object, the CSVs whose install modes are unknown. The caller owns the
// slice; the Predictor should not be used after.
func (pr *Predictor) Notes() []Note {
	for _, what := range []string{unknownBundles, unknownCSVs} {
		if names := pr.unknownModes[what]; len(names) > 0 {
			slices.Sort(names)
			pr.note(Note{NoteInstallModesUnknown, fmt.Sprintf("install modes not checked for %s: %s", what, strings.Join(slices.Compact(names), ", "))})
		}
	}
	if len(pr.unchecked) > 0 {
		pr.note(uncheckedNote(pr.unchecked))
		pr.unchecked = nil
	}
	return pr.notes
}

func (pr *Predictor) note(n Note) {
	if !slices.Contains(pr.notes, n) {
		pr.notes = append(pr.notes, n)
	}
}

// operatorGroup returns the checks that need the namespace's group: install
// modes (hasModes false: unknown, noted under what) and API intersection.
func (pr *Predictor) operatorGroup(name string, modes []graph.InstallMode, hasModes bool, what string, apis []graph.GVK) []Prediction {
	if pr.group == nil {
		if hasModes && pr.missing.Text != "" {
			pr.note(pr.missing)
		}
		return nil
	}
	var out []Prediction
	if !hasModes {
		if pr.unknownModes == nil {
			pr.unknownModes = map[string][]string{}
		}
		pr.unknownModes[what] = append(pr.unknownModes[what], name)
	} else if p := InstallModes(name, modes, pr.ns, pr.group, pr.targets); p != nil {
		// OLM stops at the first failure of a CSV.
		return append(out, *p)
	}
	rival := pr.meetsRival(apis)
	if !rival && !pr.own.g.StaticProvidedAPIs {
		return out
	}
	rivals := pr.rivals
	if !rival {
		rivals = nil
	}
	if !slices.IsSortedFunc(apis, graph.GVK.Compare) {
		apis = unionGVKs(apis, nil)
	}
	if p := apiPrediction(name, apis, pr.own, rivals); p != nil {
		out = append(out, *p)
	}
	return out
}

// meetsRival reports whether a rival group provides one of apis.
func (pr *Predictor) meetsRival(apis []graph.GVK) bool {
	for _, g := range apis {
		for _, s := range pr.rivalGroups[g.Group] {
			if _, ok := slices.BinarySearchFunc(s.apis, g, graph.GVK.Compare); ok {
				return true
			}
		}
	}
	return false
}

// Bundle predicts what OLM does with the CSV of bundle b, which a plan
// installs in the Predictor's namespace: its install modes as the catalog
// records them (graph.Bundle.CSVRecord: the CSV manifest, else
// olm.csv.metadata), its minKubeVersion from olm.csv.metadata; and what
// OLM's catalog operator does with the CRDs b brings that the cluster
// has: the existing custom resources validated against the new schemas
// (SetBundleCRDs), then the stored versions. The caller owns the result.
func (pr *Predictor) Bundle(b *graph.Bundle) []Prediction {
	rec, _ := b.CSVRecord() // a manifest that does not decode: the modes of what did, else the metadata's
	var minKube string
	if m := b.CSVMetadata; m != nil {
		minKube = m.MinKubeVersion
	}
	out := pr.operatorGroup(b.Name, rec.InstallModes, rec.ModesKnown, unknownBundles, b.Provides)
	out = pr.platform(out, b.Name, minKube, b.MaxOpenShiftVersion)
	out, failing := pr.customResources(out, b)
	return pr.storedVersions(out, b, failing)
}

// storedVersions appends to out the predictions of the CRDs of the cluster
// that the step installing b would update while dropping a stored version,
// but those of the CRDs named in failing, whose update fails before OLM
// checks the stored versions.
func (pr *Predictor) storedVersions(out []Prediction, b *graph.Bundle, failing []string) []Prediction {
	if len(pr.crds) == 0 {
		return out
	}
	if !pr.indexed {
		pr.crdIdx, pr.indexed = cluster.IndexCRDs(pr.crds), true
	}
	for _, l := range pr.crdIdx.StoredVersionLosses(b.Provides) {
		if slices.Contains(failing, l.CRD.Name) {
			continue
		}
		out = append(out, StoredVersion(b.Name, l))
	}
	return out
}

// CSV predicts what OLM does with installed CSV c of the Predictor's
// namespace when it stays. Its APIs are its spec's owned definitions, or,
// without any, those of its properties annotation; its
// olm.maxOpenShiftVersion is the annotation's. The caller owns the result.
func (pr *Predictor) CSV(c *cluster.CSV) []Prediction {
	props := c.Properties.Typed()
	apis := c.Provides
	if len(apis) == 0 {
		apis = props.Provides
	}
	out := pr.operatorGroup(c.Name, c.InstallModes, c.InstallModes != nil, unknownCSVs, apis)
	return pr.platform(out, c.Name, c.MinKubeVersion, props.MaxOpenShiftVersion)
}

// platform appends to out, the predictions of the CSV name so far, those
// of the platform versions given: its minKubeVersion against the
// Kubernetes server version (unless out already fails) and its
// olm.maxOpenShiftVersion against the OpenShift version.
func (pr *Predictor) platform(out []Prediction, name, minKube string, maxOpenShift *graph.MaxOpenShiftVersion) []Prediction {
	if pr.plat.Kube != nil && !Failing(out) {
		if p := MinKube(name, minKube, *pr.plat.Kube); p != nil {
			out = append(out, *p)
		}
	}
	if pr.plat.OpenShift != nil {
		if p := MaxOpenShift(name, maxOpenShift, *pr.plat.OpenShift); p != nil {
			out = append(out, *p)
		}
	}
	return out
}
