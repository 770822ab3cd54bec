package resolver

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/cluster"
)

// InFlightKind is the kind of an [InFlight] entry.
type InFlightKind string

// What can be in flight in a namespace.
const (
	// InFlightInstallPlan: an InstallPlan of the namespace has not finished
	// (InstallPlan, Phase; CSVs it installs in Text). It may wait for
	// approval (Waiting).
	InFlightInstallPlan InFlightKind = "install-plan"
	// InFlightFailedInstallPlan: the InstallPlan a subscription's pending
	// upgrade belongs to failed; the operator group allows failing
	// forward, so OLM resolves the subscription again (Subscription,
	// InstallPlan, CSV).
	InFlightFailedInstallPlan InFlightKind = "install-plan-failed"
	// InFlightPendingUpgrade: a subscription's currentCSV (CSV) is not
	// installed yet; it is its installedCSV's upgrade in progress
	// (Subscription, InstallPlan when the subscription names one).
	InFlightPendingUpgrade InFlightKind = "pending-upgrade"
	// InFlightCurrentCSV: a subscription's currentCSV (CSV) exists but its
	// installedCSV (Replaces) still names the previous CSV; OLM records
	// currentCSV as installed at its next sync, and resolution goes on
	// from it (Subscription).
	InFlightCurrentCSV InFlightKind = "current-csv"
	// InFlightReplaced: an installed CSV (CSV, Phase) is being replaced by
	// the CSV at the end of its replacement chain (ReplacedBy). OLM deletes
	// it once the replacement succeeds, so resolution leaves it out; with
	// fail-forward, the replacement failed and OLM leaves it out at once.
	InFlightReplaced InFlightKind = "replaced"
	// InFlightInstalling: a CSV (CSV, Phase) is Pending, InstallReady or
	// Installing; resolution counts it as installed.
	InFlightInstalling InFlightKind = "installing"
	// InFlightFailedCSV: a CSV (CSV) that replaces nothing failed;
	// resolution counts it as installed and, as OLM, may upgrade it.
	InFlightFailedCSV InFlightKind = "failed-csv"
)

// InFlight is something a resolution found under way in the namespace: an
// InstallPlan not finished, an upgrade between two CSVs, a CSV not yet
// Succeeded. Fields that do not apply to the kind are empty.
type InFlight struct {
	Kind         InFlightKind `json:"kind"`
	Subscription string       `json:"subscription,omitempty"`
	InstallPlan  string       `json:"installPlan,omitempty"`
	CSV          string       `json:"csv,omitempty"`
	// Replaces is the CSV an upgrade in flight replaces; ReplacedBy the
	// CSV that replaces CSV.
	Replaces   string `json:"replaces,omitempty"`
	ReplacedBy string `json:"replacedBy,omitempty"`
	// Phase is the CSV's status.phase, or the InstallPlan's.
	Phase string `json:"phase,omitempty"`
	// Waiting reports an InstallPlan that waits for approval.
	Waiting bool `json:"waiting,omitempty"`
	// Text says it in words.
	Text string `json:"text"`
}

// String returns e.Text.
func (e InFlight) String() string { return e.Text }

// IncompleteError reports subscriptions whose status says a CSV is
// installed that the input does not hold: resolving them would plan a
// fresh install of an operator that is in fact installed, so Resolve
// refuses.
type IncompleteError struct {
	Namespace string
	// Missing lists the subscriptions and the CSVs they name, by
	// subscription name.
	Missing []MissingCSV
}

// MissingCSV is a subscription whose installed CSV is not in the input.
type MissingCSV struct {
	Subscription string
	CSV          string
}

// Error names every subscription and its missing CSV.
func (e *IncompleteError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "namespace %q: the input is incomplete:", e.Namespace)
	for i, m := range e.Missing {
		if i > 0 {
			b.WriteString(";")
		}
		fmt.Fprintf(&b, " subscription %q says CSV %q is installed (status.installedCSV), but no CSV of that name is given", m.Subscription, m.CSV)
	}
	fmt.Fprintf(&b, "; give the namespace's ClusterServiceVersions too (kubectl get csv,sub,ip,og -n %s -o yaml)", e.Namespace)
	return b.String()
}

// StuckError reports an upgrade that failed where OLM does not go on: the
// namespace's OperatorGroup does not allow failing forward
// (spec.upgradeStrategy TechPreviewUnsafeFailForward), so OLM's resolution
// of the namespace fails until a person acts. Resolve returns it instead of
// a plan.
type StuckError struct {
	Namespace    string
	Subscription string // the subscription whose upgrade failed, if known
	// CSV is the failed CSV, or the CSV the failed InstallPlan was to
	// install; Replaces the CSV that keeps running.
	CSV      string
	Replaces string
	// InstallPlan names the failed InstallPlan, when that is what failed.
	InstallPlan string
	// Strategy is the upgrade strategy in force ("Default").
	Strategy string
}

// Error says what failed, why OLM stops and what a person can do.
func (e *StuckError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "namespace %q is stuck: ", e.Namespace)
	if e.Subscription != "" {
		fmt.Fprintf(&b, "the upgrade of subscription %q", e.Subscription)
	} else {
		b.WriteString("an upgrade")
	}
	if e.Replaces != "" {
		fmt.Fprintf(&b, " from %s", e.Replaces)
	}
	fmt.Fprintf(&b, " to %s failed", e.CSV)
	if e.InstallPlan != "" {
		fmt.Fprintf(&b, " (InstallPlan %s phase Failed)", e.InstallPlan)
	} else {
		b.WriteString(" (CSV phase Failed)")
	}
	fmt.Fprintf(&b, ", and OLM goes on from a failed upgrade only when the namespace's OperatorGroup has spec.upgradeStrategy %s (here: %s); fix what made it fail", cluster.UpgradeStrategyUnsafeFailForward, e.Strategy)
	if e.InstallPlan == "" {
		fmt.Fprintf(&b, " (kubectl describe csv %s -n %s)", e.CSV, e.Namespace)
	} else {
		fmt.Fprintf(&b, " (kubectl describe ip %s -n %s)", e.InstallPlan, e.Namespace)
	}
	b.WriteString(", or set that upgrade strategy to let OLM upgrade past it")
	return b.String()
}

// flight is what a resolution found in flight in its namespace.
type flight struct {
	// gone holds the installed CSVs being replaced: resolution leaves them
	// out (nil when there are none).
	gone map[string]bool
	// installed holds, per subscription (in the resolution's order), the
	// installed CSV resolution goes on from.
	installed []string
	notes     []InFlight
	// plans are the namespace's InstallPlans that have not finished, by
	// name.
	plans []*cluster.InstallPlan
}

// failForward reports whether the namespace's one OperatorGroup allows
// failing forward, and the strategy in force.
func failForward(ns string, state *cluster.State) (bool, string) {
	var groups []*cluster.OperatorGroup
	for i := range state.OperatorGroups {
		if g := &state.OperatorGroups[i]; g.Namespace == ns {
			groups = append(groups, g)
		}
	}
	if len(groups) != 1 {
		return false, cluster.UpgradeStrategyDefault
	}
	s := groups[0].Strategy()
	return s == cluster.UpgradeStrategyUnsafeFailForward, s
}

// readFlight works out what is in flight in the namespace, as OLM's
// catalog operator reads it before it resolves: a subscription whose
// currentCSV exists is taken as installed at currentCSV; a CSV that another
// CSV replaces goes away (OLM deletes it once its replacement succeeds);
// a replacement chain that ends in a Failed CSV, or a pending upgrade whose
// InstallPlan failed, stops the namespace unless the OperatorGroup allows
// failing forward — then OLM leaves the replaced CSVs out and upgrades from
// the failed one, or resolves the subscription again. subs are the
// namespace's subscriptions in resolution order, csvs its installed CSVs
// (copies excluded) sorted by name.
func readFlight(ns string, state *cluster.State, subs []*cluster.Subscription, csvs []*cluster.CSV) (*flight, error) {
	fr := newFlightReader(ns, state, subs, csvs)
	endOf, err := fr.replacements()
	if err != nil {
		return nil, err
	}
	plans := fr.installPlans()
	if err := fr.subscriptions(endOf, plans); err != nil {
		return nil, err
	}
	fr.planNotes(plans)
	fr.csvNotes()
	return fr.f, nil
}

// flightReader holds what readFlight reads, phase after phase, into f.
type flightReader struct {
	ns       string
	state    *cluster.State
	subs     []*cluster.Subscription
	csvs     []*cluster.CSV
	f        *flight
	ff       bool   // the OperatorGroup allows failing forward
	strategy string // the OperatorGroup's upgrade strategy
	byName   map[string]*cluster.CSV
	// replacedBy holds the CSV that replaces each CSV, the first by name
	// when several do. It and the maps below stay nil (and cost nothing)
	// when nothing is in flight, the usual case.
	replacedBy map[string]*cluster.CSV
	// ends and known remember end's answers.
	ends  map[string]*cluster.CSV
	known map[string]bool
}

func newFlightReader(ns string, state *cluster.State, subs []*cluster.Subscription, csvs []*cluster.CSV) *flightReader {
	fr := &flightReader{ns: ns, state: state, subs: subs, csvs: csvs, f: &flight{installed: make([]string, len(subs))}}
	fr.ff, fr.strategy = failForward(ns, state)
	fr.byName = make(map[string]*cluster.CSV, len(csvs))
	for _, c := range csvs {
		if fr.byName[c.Name] == nil {
			fr.byName[c.Name] = c
		}
	}
	for _, c := range csvs {
		if c.Replaces != "" && c.Replaces != c.Name && fr.byName[c.Replaces] != nil && fr.replacedBy[c.Replaces] == nil {
			if fr.replacedBy == nil {
				fr.replacedBy = map[string]*cluster.CSV{}
			}
			fr.replacedBy[c.Replaces] = c
		}
	}
	return fr
}

// end follows a CSV's replacement chain to its last CSV (nil when the
// chain runs into a cycle: no CSV of it is leaving), remembering the
// answer for every CSV on the way so that the walks of all CSVs together
// are linear.
func (fr *flightReader) end(c *cluster.CSV) *cluster.CSV {
	var path []string
	onPath := map[string]bool{}
	var last *cluster.CSV
	for cur := c; ; {
		if fr.known[cur.Name] {
			last = fr.ends[cur.Name]
			break
		}
		path = append(path, cur.Name)
		onPath[cur.Name] = true
		next := fr.replacedBy[cur.Name]
		if next == nil {
			last = cur
			break
		}
		if onPath[next.Name] {
			break // a cycle: last stays nil
		}
		cur = next
	}
	if fr.ends == nil {
		fr.ends, fr.known = map[string]*cluster.CSV{}, map[string]bool{}
	}
	for _, name := range path {
		fr.ends[name], fr.known[name] = last, true
	}
	return last
}

// ownerOf names the subscription whose installed or current CSV is one of
// names.
func (fr *flightReader) ownerOf(names ...string) string {
	for _, s := range fr.subs {
		for _, n := range names {
			if n != "" && (s.InstalledCSV == n || s.CurrentCSV == n) {
				return s.Name
			}
		}
	}
	return ""
}

// replacements reads the replacement chains: every CSV that another
// replaces is gone, noted, and endOf maps it to its chain's last CSV; a
// chain that ends in a failed CSV stops the namespace unless it may fail
// forward.
func (fr *flightReader) replacements() (endOf map[string]*cluster.CSV, err error) {
	f := fr.f
	if fr.replacedBy != nil {
		endOf, f.gone = map[string]*cluster.CSV{}, map[string]bool{}
	}
	for _, c := range fr.csvs {
		if fr.replacedBy[c.Name] == nil {
			continue
		}
		last := fr.end(c)
		if last == nil {
			continue // a replacement cycle: nothing is leaving
		}
		endOf[c.Name] = last
		if last.Phase == cluster.CSVPhaseFailed {
			if !fr.ff {
				return nil, &StuckError{Namespace: fr.ns, Subscription: fr.ownerOf(last.Name, c.Name), CSV: last.Name, Replaces: c.Name, Strategy: fr.strategy}
			}
			f.gone[c.Name] = true
			f.notes = append(f.notes, InFlight{Kind: InFlightReplaced, CSV: c.Name, ReplacedBy: last.Name, Phase: string(c.Phase),
				Text: fmt.Sprintf("CSV %s%s was being replaced by %s, which failed; the OperatorGroup allows failing forward (%s), so OLM leaves %s out and upgrades from %s",
					c.Name, phaseWords(c.Phase), last.Name, cluster.UpgradeStrategyUnsafeFailForward, c.Name, last.Name)})
			continue
		}
		f.gone[c.Name] = true
		f.notes = append(f.notes, InFlight{Kind: InFlightReplaced, CSV: c.Name, ReplacedBy: last.Name, Phase: string(c.Phase),
			Text: fmt.Sprintf("CSV %s%s is being replaced by %s%s; OLM deletes it once %s succeeds, so resolution goes on from %s",
				c.Name, phaseWords(c.Phase), last.Name, phaseWords(last.Phase), last.Name, last.Name)})
	}
	return endOf, nil
}

// installPlans returns the namespace's InstallPlans by name; nil when
// there are none.
func (fr *flightReader) installPlans() map[string]*cluster.InstallPlan {
	var plans map[string]*cluster.InstallPlan
	for i := range fr.state.InstallPlans {
		if p := &fr.state.InstallPlans[i]; p.Namespace == fr.ns {
			if plans == nil {
				plans = map[string]*cluster.InstallPlan{}
			}
			plans[p.Name] = p
		}
	}
	return plans
}

// subscriptions sets the installed CSV each subscription goes on from and
// notes what is pending; a subscription whose installed CSV is missing
// makes an IncompleteError, a failed InstallPlan that may not fail forward
// a StuckError.
func (fr *flightReader) subscriptions(endOf map[string]*cluster.CSV, plans map[string]*cluster.InstallPlan) error {
	f := fr.f
	var missing []MissingCSV
	for i, s := range fr.subs {
		inst := s.InstalledCSV
		if cur := s.CurrentCSV; cur != "" && cur != inst && fr.byName[cur] != nil {
			f.notes = append(f.notes, InFlight{Kind: InFlightCurrentCSV, Subscription: s.Name, CSV: cur, Replaces: inst,
				Text: fmt.Sprintf("subscription %s: currentCSV %s exists while installedCSV is %q; OLM records %s as installed, and resolution goes on from it", s.Name, cur, inst, cur)})
			inst = cur
		}
		if last := endOf[inst]; last != nil {
			inst = last.Name
		}
		if inst != "" && fr.byName[inst] == nil {
			missing = append(missing, MissingCSV{Subscription: s.Name, CSV: inst})
			continue
		}
		f.installed[i] = inst
		cur := s.CurrentCSV
		if cur == "" || cur == inst || fr.byName[cur] != nil {
			continue
		}
		if err := fr.pending(s, inst, cur, plans[s.InstallPlanRef]); err != nil {
			return err
		}
	}
	if len(missing) > 0 {
		return &IncompleteError{Namespace: fr.ns, Missing: missing}
	}
	return nil
}

// pending notes the upgrade (or install) of subscription s from inst to
// its currentCSV cur, not installed yet, whose InstallPlan is p (nil: not
// in the input); a failed one that may not fail forward is a StuckError.
func (fr *flightReader) pending(s *cluster.Subscription, inst, cur string, p *cluster.InstallPlan) error {
	f := fr.f
	switch {
	case p != nil && p.Phase == cluster.PhaseFailed && !fr.ff:
		return &StuckError{Namespace: fr.ns, Subscription: s.Name, CSV: cur, Replaces: inst, InstallPlan: p.Name, Strategy: fr.strategy}
	case p != nil && p.Phase == cluster.PhaseFailed:
		f.notes = append(f.notes, InFlight{Kind: InFlightFailedInstallPlan, Subscription: s.Name, InstallPlan: p.Name, CSV: cur,
			Text: fmt.Sprintf("subscription %s: InstallPlan %s for %s failed; the OperatorGroup allows failing forward (%s), so OLM resolves the subscription again", s.Name, p.Name, cur, cluster.UpgradeStrategyUnsafeFailForward)})
	case p != nil:
		// The InstallPlan's own entry says it.
	default:
		ref := "its InstallPlan is not in the input"
		if s.InstallPlanRef != "" {
			ref = fmt.Sprintf("its InstallPlan %s is not in the input", s.InstallPlanRef)
		}
		what := "the install of " + cur
		if inst != "" {
			what = "the upgrade from " + inst + " to " + cur
		}
		f.notes = append(f.notes, InFlight{Kind: InFlightPendingUpgrade, Subscription: s.Name, CSV: cur, Replaces: inst, InstallPlan: s.InstallPlanRef,
			Text: fmt.Sprintf("subscription %s: %s is pending (status.currentCSV); %s", s.Name, what, ref)})
	}
	return nil
}

// planNotes keeps the InstallPlans not done, by name, and notes each.
func (fr *flightReader) planNotes(plans map[string]*cluster.InstallPlan) {
	f := fr.f
	names := make([]string, 0, len(plans))
	for name, p := range plans {
		if !p.Done() {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		p := plans[name]
		f.plans = append(f.plans, p)
		e := InFlight{Kind: InFlightInstallPlan, InstallPlan: p.Name, Phase: string(p.Phase), Waiting: p.Waiting()}
		what := "installs"
		if len(p.CSVNames) == 0 {
			what = "installs no CSV"
		}
		switch {
		case e.Waiting:
			e.Text = fmt.Sprintf("InstallPlan %s (Manual, not approved) waits for approval; it %s %s", p.Name, what, strings.Join(p.CSVNames, ", "))
		case p.Phase == cluster.PhaseInstalling:
			e.Text = fmt.Sprintf("InstallPlan %s is installing %s", p.Name, strings.Join(p.CSVNames, ", "))
		default:
			e.Text = fmt.Sprintf("InstallPlan %s (%s, approved) runs next; it %s %s", p.Name, cmp.Or(string(p.Approval), string(cluster.ApprovalAutomatic)), what, strings.Join(p.CSVNames, ", "))
		}
		f.notes = append(f.notes, e)
	}
}

// csvNotes notes the CSVs that stay and are installing or failed.
func (fr *flightReader) csvNotes() {
	f := fr.f
	for _, c := range fr.csvs {
		if f.gone[c.Name] {
			continue
		}
		switch c.Phase {
		case cluster.CSVPhasePending, cluster.CSVPhaseInstallReady, cluster.CSVPhaseInstalling:
			f.notes = append(f.notes, InFlight{Kind: InFlightInstalling, CSV: c.Name, Phase: string(c.Phase),
				Text: fmt.Sprintf("CSV %s is %s; resolution counts it as installed", c.Name, c.Phase)})
		case cluster.CSVPhaseFailed:
			if fr.replacedBy[c.Name] == nil && c.Replaces != "" && fr.byName[c.Replaces] != nil {
				continue // the end of a chain, said with the CSV it replaces
			}
			f.notes = append(f.notes, InFlight{Kind: InFlightFailedCSV, CSV: c.Name, Phase: string(c.Phase),
				Text: fmt.Sprintf("CSV %s failed; resolution counts it as installed and, as OLM, may upgrade it", c.Name)})
		}
	}
}

// phaseWords returns " (phase P)", or "" for no phase.
func phaseWords(phase cluster.CSVPhase) string {
	if phase == "" {
		return ""
	}
	return " (" + string(phase) + ")"
}

// planFor returns the InstallPlan in flight that installs csv, or nil.
func (f *flight) planFor(csv string) *cluster.InstallPlan {
	for _, p := range f.plans {
		if slices.Contains(p.CSVNames, csv) {
			return p
		}
	}
	return nil
}
