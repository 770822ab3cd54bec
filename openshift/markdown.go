package openshift

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/internal/safetext"
)

// WriteMarkdown writes the plan as a change request: the verdict, the
// actions as a checklist, then each hop's gates, lifts, catalogs and what
// OLM does, as GitHub-flavoured Markdown. Text from the catalogs and
// manifests is escaped so that it cannot change the document's shape.
func (p *Plan) WriteMarkdown(w io.Writer) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# OpenShift %s → %s with its operators\n\n", md(p.Current), p.Path.Target)
	fmt.Fprintf(&b, "Path: %s (from %s).\n\n", md(strings.ReplaceAll(pathWords(p.Path), "->", "→")), md(p.CurrentFrom))
	for _, w := range p.Path.Warnings {
		fmt.Fprintf(&b, "> **Warning:** %s\n\n", md(w))
	}
	fmt.Fprintf(&b, "**Verdict:** %s.\n\n", md(p.Verdict()))
	fmt.Fprintf(&b, "## Actions\n\n")
	for _, a := range p.Actions {
		tag := ""
		if a.Decision {
			tag = " **(decide)**"
		}
		fmt.Fprintf(&b, "- [ ] **%s**%s: %s\n", md(a.When), tag, md(a.Text))
		for _, o := range a.Options {
			fmt.Fprintf(&b, "  - or: %s\n", md(o))
		}
	}
	if len(p.At) > 0 || len(p.Extensions) > 0 {
		fmt.Fprintf(&b, "\n## Now, at %s\n\n", p.Now)
		mdNamespaces(&b, p.At)
		mdExtensions(&b, p.Extensions)
	}
	for i := range p.Hops {
		p.Hops[i].markdown(&b, i+1)
	}
	if len(p.Notes) > 0 {
		fmt.Fprintf(&b, "\n## Notes\n\n")
		for _, n := range p.Notes {
			fmt.Fprintf(&b, "- %s\n", md(n))
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

func (h *HopPlan) markdown(b *bytes.Buffer, n int) {
	cpo := ""
	if h.ControlPlaneOnly {
		cpo = ", Control Plane Only"
	}
	fmt.Fprintf(b, "\n## Hop %d: %s → %s (Kubernetes %s%s)\n\n", n, h.From, h.To, h.Kubernetes, cpo)
	for _, g := range h.Gates {
		if g.Open() {
			fmt.Fprintf(b, "- Gate (OLM %s at %s): open\n", g.Engine, h.From)
			continue
		}
		fmt.Fprintf(b, "- Gate (OLM %s at %s): `%s=False`, `%s`: %s\n", g.Engine, h.From, g.Condition, g.Reason, md(g.Message))
	}
	for _, a := range h.Ahead {
		fmt.Fprintf(b, "- Ahead (passed without stopping): %s\n", md(a.Message))
	}
	for _, l := range h.Lifts {
		var t bytes.Buffer
		l.text(&t)
		lines := strings.Split(strings.TrimRight(t.String(), "\n"), "\n")
		fmt.Fprintf(b, "- %s\n", md(strings.TrimSpace(lines[0])))
		for _, line := range lines[1:] {
			fmt.Fprintf(b, "  - %s\n", md(strings.TrimSpace(line)))
		}
	}
	if len(h.Lifts) > 0 {
		fmt.Fprintf(b, "- Gates open after the lifts: %s\n", yesNo(h.Open))
	}
	if len(h.Sources) > 0 {
		fmt.Fprintf(b, "\n| CatalogSource at %s | image | why |\n|---|---|---|\n", h.To)
		for _, s := range h.Sources {
			name := "ClusterCatalog " + s.Name
			if s.Namespace != "" {
				name = s.Namespace + "/" + s.Name
			}
			fmt.Fprintf(b, "| %s | %s | %s |\n", md(name), md(s.Image), md(s.Why))
		}
	}
	if h.Mirror != nil {
		mdMirror(b, h.To, h.Mirror)
	}
	fmt.Fprintf(b, "\n### At %s, OLM\n\n", h.To)
	if len(h.After) == 0 && len(h.Extensions) == 0 {
		fmt.Fprintf(b, "changes nothing.\n")
		return
	}
	mdNamespaces(b, h.After)
	mdExtensions(b, h.Extensions)
}

func mdNamespaces(b *bytes.Buffer, nss []Namespace) {
	for _, n := range nss {
		var t bytes.Buffer
		writeNamespaces(&t, "", []Namespace{n})
		lines := strings.Split(strings.TrimRight(t.String(), "\n"), "\n")
		fmt.Fprintf(b, "- %s\n", md(strings.TrimSuffix(lines[0], ":")))
		for _, line := range lines[1:] {
			depth := (len(line) - len(strings.TrimLeft(line, " "))) / 2
			fmt.Fprintf(b, "%s- %s\n", strings.Repeat("  ", depth), md(strings.TrimSpace(line)))
		}
	}
}

func mdExtensions(b *bytes.Buffer, moves []ExtensionMove) {
	var t bytes.Buffer
	writeExtensions(&t, "", moves)
	for _, line := range strings.Split(strings.TrimRight(t.String(), "\n"), "\n") {
		if line != "" {
			fmt.Fprintf(b, "- %s\n", md(line))
		}
	}
}

func yesNo(b bool) string {
	if b {
		return "yes (confirmed)"
	}
	return "no"
}

// md escapes text for a Markdown line: hidden characters as safetext
// escapes them, and the characters that would change the document's shape.
func md(s string) string {
	s = strings.ReplaceAll(string(safetext.Append(nil, []byte(s))), " -> ", " → ")
	return strings.NewReplacer("|", `\|`, "\n", " ", "*", `\*`, "_", `\_`, "<", "&lt;", ">", "&gt;", "`", "'", "[", `\[`, "]", `\]`).Replace(s)
}

// mdMirror writes the mirror set at minor to: its counts, what it assumes,
// why it is incomplete, and every image, one a line.
func mdMirror(b *bytes.Buffer, to Minor, m *Mirror) {
	fmt.Fprintf(b, "\nMirror at %s: %s, %s", to, countWord(len(m.Catalogs), "catalog image"), countWord(len(m.Images), "operator image"))
	if m.Assuming != "" {
		fmt.Fprintf(b, ", with %s", md(m.Assuming))
	}
	fmt.Fprintf(b, ".\n")
	if m.Error != "" {
		fmt.Fprintf(b, "\nIncomplete: %s\n", md(m.Error))
	}
	if len(m.Catalogs)+len(m.Images) == 0 {
		return
	}
	fmt.Fprintf(b, "\n```\n")
	for _, img := range append(slices.Clone(m.Catalogs), m.Images...) {
		// An image as the catalog names it cannot end the fence.
		fmt.Fprintf(b, "%s\n", strings.ReplaceAll(string(safetext.Append(nil, []byte(img))), "`", "'"))
	}
	fmt.Fprintf(b, "```\n")
}
