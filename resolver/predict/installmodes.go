package predict

import (
	"errors"
	"fmt"
	"slices"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/words"
)

// Targets is the set of namespaces an OperatorGroup's operators watch, as
// OLM computes it for the olm.targetNamespaces annotation of its CSVs.
type Targets struct {
	// Known is false when the manifests do not say (a label selector and
	// no status.namespaces); Why says so.
	Known bool
	// Namespaces is the list OLM checks install modes against, sorted
	// without repeats: [""] for all namespaces. It may be shared and must
	// not be modified.
	Namespaces []string
	// From says where the list comes from, in words
	// ("spec.targetNamespaces").
	From string
	Why  string
}

// AllNamespaces returns the targets of a group that watches every
// namespace, from says why.
func AllNamespaces(from string) Targets {
	return Targets{Known: true, Namespaces: allNamespaces, From: from}
}

// allNamespaces is the target list of all namespaces; never modified.
var allNamespaces = []string{""}

// All reports whether t is all namespaces.
func (t Targets) All() bool { return len(t.Namespaces) == 1 && t.Namespaces[0] == "" }

// Words describes the target namespaces of a group in namespace own: "all
// namespaces", "only its own namespace ops", "namespace team-a",
// "namespaces a, b and c".
func (t Targets) Words(own string) string {
	switch {
	case !t.Known:
		return "unknown namespaces"
	case t.All():
		return "all namespaces"
	case len(t.Namespaces) == 1 && t.Namespaces[0] == own:
		return "only its own namespace " + own
	case len(t.Namespaces) == 1:
		return "namespace " + t.Namespaces[0]
	}
	ns := make([]string, len(t.Namespaces))
	for i, n := range t.Namespaces {
		if n == "" {
			n = `"" (all)`
		}
		ns[i] = n
	}
	return "namespaces " + words.Join(ns, "and")
}

// TargetsOf returns the target namespaces of g: status.namespaces when
// OLM has written them, else spec.targetNamespaces; neither and no
// selector (or an empty one) means all namespaces; a selector that selects
// by label without status.namespaces leaves them unknown.
func TargetsOf(g *cluster.OperatorGroup) Targets {
	switch {
	case len(g.StatusNamespaces) > 0:
		return Targets{Known: true, Namespaces: sortedStrings(g.StatusNamespaces), From: "status.namespaces"}
	case len(g.TargetNamespaces) > 0:
		if slices.Contains(g.TargetNamespaces, "") {
			return Targets{Why: fmt.Sprintf("OperatorGroup %s/%s lists the empty namespace in spec.targetNamespaces, which OLM rejects", g.Namespace, g.Name)}
		}
		return Targets{Known: true, Namespaces: sortedStrings(g.TargetNamespaces), From: "spec.targetNamespaces"}
	case g.Selector == nil || (len(g.Selector.MatchLabels) == 0 && len(g.Selector.MatchExpressions) == 0):
		return AllNamespaces("no spec.targetNamespaces and no selector")
	}
	return Targets{Why: fmt.Sprintf("OperatorGroup %s/%s selects its target namespaces by label and has no status.namespaces", g.Namespace, g.Name)}
}

// sortedStrings returns ss sorted without repeats: ss itself when it
// already is, else a sorted copy (ss is not modified).
func sortedStrings(ss []string) []string {
	for i := 1; i < len(ss); i++ {
		if ss[i-1] >= ss[i] {
			return slices.Compact(slices.Sorted(slices.Values(ss)))
		}
	}
	return ss
}

// modesNeeded returns the install modes OLM requires of a CSV in namespace
// own for the target namespaces ns, in the order it checks them, or an
// error when no install mode can serve them (the group itself is invalid).
func modesNeeded(own string, ns []string) ([]graph.InstallModeType, error) {
	switch {
	case len(ns) == 0:
		return nil, errors.New("it selects no namespace")
	case len(ns) == 1 && ns[0] == own:
		return needOwn, nil
	case len(ns) == 1 && ns[0] == "":
		return needAll, nil
	case len(ns) == 1:
		return needSingle, nil
	}
	need := needMulti
	for _, n := range ns {
		if n == "" {
			return nil, errors.New(`it lists "" (all namespaces) beside other namespaces`)
		}
		if n == own {
			need = needMultiOwn
		}
	}
	return need, nil
}

// The install modes modesNeeded returns; never modified.
var (
	needOwn      = []graph.InstallModeType{graph.InstallModeOwnNamespace}
	needAll      = []graph.InstallModeType{graph.InstallModeAllNamespaces}
	needSingle   = []graph.InstallModeType{graph.InstallModeSingleNamespace}
	needMulti    = []graph.InstallModeType{graph.InstallModeMultiNamespace}
	needMultiOwn = []graph.InstallModeType{graph.InstallModeMultiNamespace, graph.InstallModeOwnNamespace}
)

// InstallModes predicts what OLM does with CSV name, of install modes
// modes, in namespace ns whose OperatorGroup is g with targets t (known):
// InvalidInstallModes for a list that names a type twice, else
// UnsupportedOperatorGroup when the modes do not serve the targets. It
// returns nil when OLM accepts the CSV.
func InstallModes(name string, modes []graph.InstallMode, ns string, g *cluster.OperatorGroup, t Targets) *Prediction {
	og := g.Namespace + "/" + g.Name
	set := graph.ReadInstallModes(modes)
	if dup := set.Duplicates(); len(dup) > 0 {
		p := invalidModes(name, og, dup)
		return &p
	}
	need, err := modesNeeded(ns, t.Namespaces)
	if err != nil {
		return &Prediction{Reason: ReasonUnsupportedOperatorGroup, Severity: SeverityFailure, OperatorGroup: og,
			Message: fmt.Sprintf("OperatorGroup %s targets %s (%s): no install mode can serve it, because %v", og, t.Words(ns), t.From, err)}
	}
	for _, m := range need {
		if set.Supports(m) {
			continue
		}
		return &Prediction{Reason: ReasonUnsupportedOperatorGroup, Severity: SeverityFailure, OperatorGroup: og,
			Message: fmt.Sprintf("OperatorGroup %s targets %s, which needs install mode %s, and %s supports %s", og, t.Words(ns), m, name, set.SupportedWords())}
	}
	return nil
}

// invalidModes is the prediction of CSV name whose install modes list the
// types dup more than once, under OperatorGroup og ("" when none).
func invalidModes(name, og string, dup []graph.InstallModeType) Prediction {
	return Prediction{Reason: ReasonInvalidInstallModes, Severity: SeverityFailure, OperatorGroup: og,
		Message: fmt.Sprintf("%s lists install mode %s more than once, and OLM rejects such a list", name, graph.InstallModeWords(dup))}
}
