package resolver

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

// platform is the cluster's versions, parsed from Options: nil when not
// given (nothing is assumed).
type platform struct {
	kube      *semver.Version
	openShift *semver.Version
}

// parsePlatform reads Options.KubeVersion and Options.OpenShiftVersion.
func parsePlatform(opts Options) (platform, error) {
	var p platform
	var errs []error
	if opts.KubeVersion != "" {
		v, err := graph.ParseKubeVersion(opts.KubeVersion, true)
		if err != nil {
			errs = append(errs, fmt.Errorf("kube version: %w", err))
		} else {
			p.kube = &v
		}
	}
	if opts.OpenShiftVersion != "" {
		v, err := semver.ParseTolerant(opts.OpenShiftVersion)
		if err != nil {
			errs = append(errs, fmt.Errorf("openshift version %q: %w", opts.OpenShiftVersion, err))
		} else {
			p.openShift = &v
		}
	}
	if len(errs) > 0 {
		return platform{}, errors.Join(errs...)
	}
	return p, nil
}

// predictor holds what the predictions of one resolution read: the
// namespace's OperatorGroup and the surfaces of every group of the state.
type predictor struct {
	ns       string
	plat     platform
	group    *cluster.OperatorGroup // the namespace's one group; nil: none or several
	targets  targets                // of group
	own      *groupSurface          // of group; nil when group is nil
	surfaces []*groupSurface        // every group of the state, by namespace and name
	rivals   []*groupSurface        // the groups but own whose targets intersect own's
	// rivalGroups lists, per API group, the rivals that provide an API of
	// it: a step whose APIs are of other groups meets no rival, and the
	// others are searched in those rivals only.
	rivalGroups map[string][]*groupSurface
	// missing, when group is nil, says why the group checks are not made;
	// it becomes a note once a CSV with install modes meets it.
	missing string
	notes   []string
	// unknownModes lists, by kind of object, the CSVs whose install modes
	// are unknown (see unchecked).
	unknownModes map[string][]string
}

// NoteAssumedOperatorGroup is the note a plan carries (Plan.Notes) when the
// state holds no OperatorGroup at all and a CSV's install modes could not be
// checked: one plain OperatorGroup is assumed (DESIGN §1), its target
// namespaces unknown. A program that already says the group is assumed
// (the command line does, once, on standard error) may leave this note out.
const NoteAssumedOperatorGroup = "no OperatorGroup in the manifests: install modes and API conflicts between OperatorGroups are not checked (the namespace's group is assumed, its target namespaces unknown)"

// newPredictor reads the OperatorGroups of state. planned holds, per group
// ("namespace/name"), the APIs that plans of namespaces resolved before
// this one install (ResolveAll); nil for Resolve.
func newPredictor(ns string, plat platform, state *cluster.State, planned map[groupKey][]graph.GVK) *predictor {
	pr := &predictor{ns: ns, plat: plat}
	if len(state.OperatorGroups) == 0 {
		pr.missing = NoteAssumedOperatorGroup
		return pr
	}
	// The installed CSVs' APIs per namespace: all of them (OLM prunes from
	// a group's olm.providedAPIs the APIs no CSV of its namespace provides
	// any more), and those of CSVs not failed (a group without the
	// annotation is taken to provide them).
	groupNS := make(map[string]bool, len(state.OperatorGroups))
	for i := range state.OperatorGroups {
		groupNS[state.OperatorGroups[i].Namespace] = true
	}
	csvAll, csvOK := map[string][]graph.GVK{}, map[string][]graph.GVK{}
	anyFailed := false
	merged := map[string]bool{}
	for i := range state.CSVs {
		c := &state.CSVs[i]
		if c.Copied || !groupNS[c.Namespace] || len(c.Provides) == 0 {
			continue
		}
		anyFailed = anyFailed || c.Phase == "Failed"
		// A CSV's Provides is sorted: a namespace with one CSV shares it;
		// one with several gets a copy, sorted below.
		if prev, ok := csvAll[c.Namespace]; !ok {
			csvAll[c.Namespace] = c.Provides
		} else {
			if !merged[c.Namespace] {
				prev = slices.Clone(prev)
				merged[c.Namespace] = true
			}
			csvAll[c.Namespace] = append(prev, c.Provides...)
		}
	}
	for ns := range merged {
		csvAll[ns] = sortedSet(csvAll[ns])
	}
	if anyFailed {
		for i := range state.CSVs {
			if c := &state.CSVs[i]; !c.Copied && groupNS[c.Namespace] && c.Phase != "Failed" {
				csvOK[c.Namespace] = append(csvOK[c.Namespace], c.Provides...)
			}
		}
		for ns, apis := range csvOK {
			csvOK[ns] = sortedSet(apis)
		}
	} else {
		csvOK = csvAll
	}
	var mine []*cluster.OperatorGroup
	all := make([]groupSurface, len(state.OperatorGroups))
	pr.surfaces = make([]*groupSurface, 0, len(all))
	for i := range state.OperatorGroups {
		g := &state.OperatorGroups[i]
		s := &all[i]
		*s = groupSurface{g: g, targets: groupTargets(g)}
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
		pr.surfaces = append(pr.surfaces, s)
		if g.Namespace == ns {
			mine = append(mine, g)
			pr.own = s
		}
	}
	if len(mine) != 1 {
		// OLM fails every CSV of such a namespace (NoOperatorGroup,
		// TooManyOperatorGroups); resolution reports it.
		pr.own = nil
		return pr
	}
	pr.group, pr.targets = mine[0], pr.own.targets
	// The groups whose targets meet the namespace's group's, and the APIs
	// they provide: most steps provide none of them, which one binary
	// search per API tells.
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
	if !pr.targets.known {
		pr.missing = pr.targets.why + ": install modes and API conflicts are not checked"
		pr.group = nil
	}
	for _, s := range pr.surfaces {
		if s != pr.own && !s.targets.known {
			pr.note(s.targets.why + ": API conflicts with it are not checked")
		}
	}
	return pr
}

// finish adds the notes of the install modes not checked, one per kind
// of object, and returns every note.
func (pr *predictor) finish() []string {
	for _, what := range []string{"bundles without olm.csv.metadata", "installed CSVs without spec.installModes"} {
		if names := pr.unknownModes[what]; len(names) > 0 {
			slices.Sort(names)
			pr.note(fmt.Sprintf("install modes not checked for %s: %s", what, strings.Join(slices.Compact(names), ", ")))
		}
	}
	return pr.notes
}

func (pr *predictor) note(s string) {
	if !slices.Contains(pr.notes, s) {
		pr.notes = append(pr.notes, s)
	}
}

// operatorGroup returns the checks that need the namespace's group: install
// modes (hasModes false: unknown, noted) and API intersection.
func (pr *predictor) operatorGroup(name string, modes []graph.InstallMode, hasModes bool, what string, apis []graph.GVK) []Prediction {
	if pr.group == nil {
		if hasModes && pr.missing != "" {
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
	} else if p := installModePrediction(name, modes, pr.ns, pr.group, pr.targets); p != nil {
		// OLM stops at the first failure of a CSV.
		return append(out, *p)
	}
	rival := false
	for _, g := range apis {
		for _, s := range pr.rivalGroups[g.Group] {
			if _, ok := slices.BinarySearchFunc(s.apis, g, graph.GVK.Compare); ok {
				rival = true
				break
			}
		}
	}
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

// bundle predicts what OLM does with a bundle a step installs.
func (pr *predictor) bundle(b *graph.Bundle) []Prediction {
	m := b.CSVMetadata
	var modes []graph.InstallMode
	var minKube string
	if m != nil {
		modes, minKube = m.InstallModes, m.MinKubeVersion
	}
	out := pr.operatorGroup(b.Name, modes, m != nil, "bundles without olm.csv.metadata", b.Provides)
	return pr.platform(out, b.Name, minKube, b.MaxOpenShiftVersion)
}

// installed predicts what OLM does with an installed CSV that stays.
func (pr *predictor) installed(n *instNode) []Prediction {
	c := n.csv
	apis := c.Provides
	if len(apis) == 0 {
		apis = n.provides
	}
	out := pr.operatorGroup(c.Name, c.InstallModes, c.InstallModes != nil, "installed CSVs without spec.installModes", apis)
	return pr.platform(out, c.Name, c.MinKubeVersion, n.maxOpenShift)
}

// platform appends to out, the predictions of the CSV name so far, those
// of the platform versions given: its minKubeVersion against the
// Kubernetes server version (unless out already fails) and its
// olm.maxOpenShiftVersion against the OpenShift version.
func (pr *predictor) platform(out []Prediction, name, minKube string, maxOpenShift *graph.MaxOpenShiftVersion) []Prediction {
	if pr.plat.kube != nil && !failing(out) {
		if p := minKubePrediction(name, minKube, *pr.plat.kube); p != nil {
			out = append(out, *p)
		}
	}
	if pr.plat.openShift != nil {
		if p := maxOpenShiftPrediction(name, maxOpenShift, *pr.plat.openShift); p != nil {
			out = append(out, *p)
		}
	}
	return out
}
