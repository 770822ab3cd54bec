package openshift

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/sextantdev/sextant/internal/safetext"
	"github.com/sextantdev/sextant/resolver/predict"
)

// WriteText writes the plan for a person: the path, each hop (its gates
// and their lifts, the catalogs of the next minor, what OLM does there),
// the ordered actions, and the verdict. Characters that could hide text
// are escaped.
func (p *Plan) WriteText(w io.Writer) error {
	var b bytes.Buffer
	p.text(&b)
	_, err := w.Write(safetext.Append(nil, b.Bytes()))
	return err
}

func (p *Plan) text(b *bytes.Buffer) {
	fmt.Fprintf(b, "OpenShift %s (%s) -> %s: %s\n", p.Current, p.CurrentFrom, p.Path.Target, countWord(len(p.Hops), "hop"))
	fmt.Fprintf(b, "path: %s\n", pathWords(p.Path))
	for _, w := range p.Path.Warnings {
		fmt.Fprintf(b, "warning: %s\n", w)
	}
	if len(p.At) > 0 || len(p.Extensions) > 0 {
		fmt.Fprintf(b, "\nnow, at %s, OLM:\n", p.Now)
		writeNamespaces(b, "  ", p.At)
		writeExtensions(b, "  ", p.Extensions)
	}
	for i := range p.Hops {
		p.Hops[i].text(b, i+1)
	}
	fmt.Fprintf(b, "\nactions:\n")
	for i, a := range p.Actions {
		mark := ""
		if a.Decision {
			mark = " [decide]"
		}
		fmt.Fprintf(b, "%2d. %s:%s %s\n", i+1, a.When, mark, a.Text)
		for _, o := range a.Options {
			fmt.Fprintf(b, "      or: %s\n", o)
		}
	}
	for _, n := range p.Notes {
		fmt.Fprintf(b, "note: %s\n", n)
	}
	fmt.Fprintf(b, "\n%s\n", p.Verdict())
}

// Verdict says in one line whether the target is reached by the actions.
func (p *Plan) Verdict() string {
	n := 0
	for _, a := range p.Actions {
		if a.Decision {
			n++
		}
	}
	if n > 0 {
		return fmt.Sprintf("%s needs a person's decision (%s)", p.Path.Target, countWord(n, "decision"))
	}
	return fmt.Sprintf("%s is reached with the actions above", p.Path.Target)
}

func countWord(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// pathWords writes "4.16 -> 4.17 (control plane only) -> 4.18".
func pathWords(p *Path) string {
	var parts []string
	parts = append(parts, MinorOf(p.Current).String())
	for _, h := range p.Hops {
		s := h.To.String()
		if h.ControlPlaneOnly {
			s += " (Control Plane Only)"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " -> ")
}

func (h *HopPlan) text(b *bytes.Buffer, n int) {
	cpo := ""
	if h.ControlPlaneOnly {
		cpo = ", Control Plane Only"
	}
	fmt.Fprintf(b, "\nhop %d: %s -> %s (Kubernetes %s%s)\n", n, h.From, h.To, h.Kubernetes, cpo)
	for _, g := range h.Gates {
		if g.Open() {
			fmt.Fprintf(b, "  gate (OLM %s at %s): open\n", g.Engine, h.From)
			continue
		}
		fmt.Fprintf(b, "  gate (OLM %s at %s): %s=False, %s: %s\n", g.Engine, h.From, g.Condition, g.Reason, g.Message)
	}
	for _, a := range h.Ahead {
		fmt.Fprintf(b, "  ahead (passed without stopping): %s\n", a.Message)
	}
	for _, l := range h.Lifts {
		l.text(b)
	}
	if len(h.Lifts) > 0 {
		if h.Open {
			fmt.Fprintf(b, "  gates open after the lifts (confirmed)\n")
		} else {
			fmt.Fprintf(b, "  gates still closed after the lifts\n")
		}
	}
	if len(h.Sources) > 0 {
		fmt.Fprintf(b, "  catalogs at %s:\n", h.To)
		for _, s := range h.Sources {
			img := s.Image
			if img == "" {
				img = "(no image)"
			}
			name := "ClusterCatalog " + s.Name
			if s.Namespace != "" {
				name = s.Namespace + "/" + s.Name
			}
			fmt.Fprintf(b, "    %s: %s: %s\n", name, img, s.Why)
		}
	}
	if h.Mirror != nil {
		fmt.Fprintf(b, "  mirror at %s: %s, %s\n", h.To, countWord(len(h.Mirror.Catalogs), "catalog image"), countWord(len(h.Mirror.Images), "operator image"))
		if h.Mirror.Assuming != "" {
			fmt.Fprintf(b, "    with %s\n", h.Mirror.Assuming)
		}
		if h.Mirror.Error != "" {
			fmt.Fprintf(b, "    incomplete: %s\n", strings.ReplaceAll(h.Mirror.Error, "\n", "\n      "))
		}
	}
	if len(h.After) == 0 && len(h.Extensions) == 0 {
		fmt.Fprintf(b, "  at %s, OLM changes nothing\n", h.To)
		return
	}
	fmt.Fprintf(b, "  at %s, OLM:\n", h.To)
	writeNamespaces(b, "    ", h.After)
	writeExtensions(b, "    ", h.Extensions)
}

func (l *Lift) text(b *bytes.Buffer) {
	who := l.Blocker.Name
	if l.Blocker.Namespace != "" {
		who = l.Blocker.Namespace + "/" + l.Blocker.Name
	}
	max := "no olm.maxOpenShiftVersion"
	if l.Max != "" {
		max = "olm.maxOpenShiftVersion " + l.Max
	}
	switch l.Kind {
	case LiftUpgrade, LiftChannel:
		via := ""
		if l.Kind == LiftChannel {
			via = " on channel " + l.Channel
		}
		fmt.Fprintf(b, "  lift %s: subscription %s%s reaches %s (%s), supporting %s: %s, %s\n", who, l.Subscription, via, l.To, max, l.Need, countWord(len(l.Rounds), "InstallPlan"), countWord(l.Approvals, "approval"))
		for i, rd := range l.Rounds {
			how := "automatic"
			if rd.Approve {
				how = "approve"
			}
			fmt.Fprintf(b, "    %d. %s: %s\n", i+1, how, stepsText(rd.Steps))
		}
	case LiftV1Upgrade:
		fmt.Fprintf(b, "  lift %s: OLM v1 upgrades it to %s (%s) by itself\n", who, l.To, max)
	case LiftV1Version:
		fmt.Fprintf(b, "  lift %s: with spec.source.catalog.version %s, OLM v1 installs %s (%s)\n", who, l.Version, l.To, max)
	default:
		fmt.Fprintf(b, "  no lift for %s: %s\n", who, l.Why)
	}
}

func writeNamespaces(b *bytes.Buffer, ind string, nss []Namespace) {
	for _, n := range nss {
		fmt.Fprintf(b, "%snamespace %s:\n", ind, n.Namespace)
		in := ind + "  "
		for i, rd := range n.Automatic {
			fmt.Fprintf(b, "%supgrades by itself (InstallPlan %d): %s\n", in, i+1, stepsText(rd.Steps))
		}
		if len(n.Waiting) > 0 {
			fmt.Fprintf(b, "%swaits for approval: %s\n", in, stepsText(n.Waiting))
		}
		for _, f := range n.Failures {
			how := "will fail"
			if f.Prediction.Severity != predict.SeverityFailure {
				how = "warning"
			}
			fmt.Fprintf(b, "%s%s: %s: %s: %s\n", in, how, f.CSV, f.Prediction.Reason, f.Prediction.Message)
		}
		for _, s := range n.Stranded {
			fmt.Fprintf(b, "%sstranded: subscription %s: %s (OLM: %s)\n", in, s.Subscription, strandedWords(s), s.OLM)
			for _, f := range s.Fixes {
				fmt.Fprintf(b, "%s  fix (confirmed): %s\n", in, f.Text)
			}
		}
		for _, s := range n.Stuck {
			fmt.Fprintf(b, "%sstuck: %s\n", in, s.words())
			for _, f := range s.Fixes {
				fmt.Fprintf(b, "%s  fix (confirmed): %s\n", in, f.Text)
			}
		}
		if n.Failed != nil {
			fmt.Fprintf(b, "%sdoes not resolve: every subscription stops: %s\n", in, strings.Join(n.Failed.BlastRadius, ", "))
			if n.Failed.OLM != "" {
				fmt.Fprintf(b, "%s  OLM (ResolutionFailed on each): %s\n", in, n.Failed.OLM)
			} else {
				for _, line := range strings.Split(n.Failed.Explanation, "\n") {
					fmt.Fprintf(b, "%s  %s\n", in, strings.TrimSpace(line))
				}
			}
		}
		if n.Then != nil {
			fmt.Fprintf(b, "%sthen, with %s:\n", in, n.Then.Assuming)
			var sub bytes.Buffer
			writeNamespaces(&sub, in, []Namespace{*n.Then})
			lines := strings.SplitAfter(sub.String(), "\n")
			if rest := strings.Join(lines[1:], ""); rest != "" {
				b.WriteString(rest)
			} else {
				fmt.Fprintf(b, "%s  nothing else changes\n", in)
			}
		}
	}
}

func writeExtensions(b *bytes.Buffer, ind string, moves []ExtensionMove) {
	for _, m := range moves {
		if m.Error != "" {
			fmt.Fprintf(b, "%sclusterextension %s: error: %s\n", ind, m.Name, m.Error)
			continue
		}
		fmt.Fprintf(b, "%sclusterextension %s: %s -> %s (%s)\n", ind, m.Name, m.From, m.To, countWord(m.Hops, "hop"))
	}
}
