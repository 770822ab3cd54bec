package migrate

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/internal/safetext"
)

// safe returns a name as text prints it (see [safetext.Name]).
func safe(s string) string { return safetext.Name(s) }

// WriteText writes the report as text: the ClusterCatalogs, then the
// subscriptions grouped by namespace, each with its verdict, blocks,
// changes, losses, the ClusterExtension it becomes and v1's choice beside
// v0's, then the notes and a summary line.
func (r *Report) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("ClusterCatalogs (one per CatalogSource in use, highest priority first):\n")
	for _, c := range r.ClusterCatalogs {
		fmt.Fprintf(bw, "  %s: image %s, priority %d\n", safe(c.Name), imageText(c.Image), c.Priority)
	}
	ns := ""
	for i := range r.Subscriptions {
		e := &r.Subscriptions[i]
		if e.Namespace != ns || i == 0 {
			ns = e.Namespace
			fmt.Fprintf(bw, "\nnamespace %s\n", safe(ns))
		}
		e.writeText(bw)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(bw, "\nnote: %s\n", safe(n))
	}
	fmt.Fprintf(bw, "\n%s\n", r.Summary)
	return bw.Flush()
}

// String returns "26 subscriptions: 9 ready, 6 ready with changes, 11
// blocked".
func (s Summary) String() string {
	return fmt.Sprintf("%d subscriptions: %d ready, %d ready with changes, %d blocked", s.Subscriptions, s.Ready, s.ReadyWithChanges, s.Blocked)
}

func imageText(image string) string {
	if image == "" {
		return "(none: write spec.source.image.ref)"
	}
	return safe(image)
}

// writeText writes one entry.
func (e *Entry) writeText(w *bufio.Writer) {
	fmt.Fprintf(w, "  %s: %s\n", safe(e.Name), e.Verdict)
	if e.Installed == "" {
		w.WriteString("    nothing installed")
	} else {
		fmt.Fprintf(w, "    installed %s", safe(e.Installed))
		if e.InstalledVersion != "" {
			fmt.Fprintf(w, " %s", safe(e.InstalledVersion))
		}
	}
	fmt.Fprintf(w, " (package %s, channel %s, catalog %s)\n", safe(e.Package), channelText(e.Channel), safe(e.Source))
	for _, b := range e.Blocks {
		fmt.Fprintf(w, "    block (%s): %s\n", b.Kind, safe(b.Message))
		if b.V1Reason != "" {
			fmt.Fprintf(w, "      v1 says: %s\n", safe(b.V1Reason))
		}
	}
	for _, c := range e.Changes {
		fmt.Fprintf(w, "    change (%s): %s\n", c.Kind, safe(c.Message))
	}
	for _, l := range e.Lost {
		fmt.Fprintf(w, "    lost (%s): %s\n", l.Kind, safe(l.Message))
	}
	fmt.Fprintf(w, "    v0 next: %s\n", e.V0Next.text())
	fmt.Fprintf(w, "    v1 now:  %s\n", e.V1Now.text())
	if e.V1Now.Error == "" {
		fmt.Fprintf(w, "    v1 next: %s\n", e.V1Next.text())
	}
	for _, d := range e.Differences {
		fmt.Fprintf(w, "    differs (%s): %s\n", d.Kind, safe(d.Message))
	}
	fmt.Fprintf(w, "    becomes %s\n", extensionText(&e.ClusterExtension))
	switch {
	case e.Installer != nil:
		fmt.Fprintf(w, "    installer (%s): %s\n", InstallerReleases, safe(e.Installer.Summary()))
		for _, n := range e.Installer.NotDerived {
			fmt.Fprintf(w, "      not derived: %s\n", safe(n))
		}
	case e.InstallerNotDerived != "" && e.InstallerNotDerived != NotDerivedNoContents:
		fmt.Fprintf(w, "    installer (%s): not derived: %s\n", InstallerReleases, safe(e.InstallerNotDerived))
	}
}

// text renders a pick with its catalog and predicted failures.
func (p Pick) text() string {
	s := safe(p.String())
	if p.Catalog != "" {
		s += " (catalog " + safe(p.Catalog) + ")"
	}
	for _, f := range p.Failures {
		s += "; will fail: " + safe(f)
	}
	return s
}

func channelText(c string) string {
	if c == "" {
		return "none (the default)"
	}
	return safe(c)
}

// extensionText renders a ClusterExtension on one line.
func extensionText(x *cluster.ClusterExtension) string {
	var b strings.Builder
	fmt.Fprintf(&b, "ClusterExtension %s: package %s", safe(x.Name), safe(x.Package))
	if len(x.Channels) > 0 {
		fmt.Fprintf(&b, ", channel %s", safe(strings.Join(x.Channels, ", ")))
	}
	if x.Version != "" {
		fmt.Fprintf(&b, ", version %q", x.Version)
	}
	if x.Selector != nil {
		fmt.Fprintf(&b, ", catalog %s", safe(x.Selector.MatchLabels[cluster.MetadataNameLabel]))
	}
	fmt.Fprintf(&b, ", namespace %s", safe(x.Namespace))
	if x.ServiceAccount != "" {
		fmt.Fprintf(&b, ", service account %s", safe(x.ServiceAccount))
	}
	if x.WatchNamespace != "" {
		fmt.Fprintf(&b, ", watchNamespace %s", safe(x.WatchNamespace))
	}
	return b.String()
}

// WriteMarkdown writes the report as Markdown for a change request: the
// summary, the ClusterCatalogs, then per namespace a table of the
// subscriptions and the details of each that is not ready.
func (r *Report) WriteMarkdown(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# Moving from OLM v0 to OLM v1\n\n%s.\n\n## ClusterCatalogs\n\n| name | image | priority |\n|---|---|---|\n", r.Summary)
	for _, c := range r.ClusterCatalogs {
		fmt.Fprintf(bw, "| %s | %s | %d |\n", md(c.Name), md(imageText(c.Image)), c.Priority)
	}
	ns := ""
	for i := range r.Subscriptions {
		e := &r.Subscriptions[i]
		if e.Namespace != ns || i == 0 {
			ns = e.Namespace
			fmt.Fprintf(bw, "\n## Namespace %s\n\n| subscription | verdict | installed | v0 next | v1 now |\n|---|---|---|---|---|\n", md(ns))
			for j := i; j < len(r.Subscriptions) && r.Subscriptions[j].Namespace == ns; j++ {
				x := &r.Subscriptions[j]
				fmt.Fprintf(bw, "| %s | %s | %s | %s | %s |\n", md(x.Name), x.Verdict, md(x.Installed), md(x.V0Next.String()), md(x.V1Now.String()))
			}
		}
		if e.Verdict != Ready {
			e.writeMarkdown(bw)
		}
	}
	header := false
	for i := range r.Subscriptions {
		e := &r.Subscriptions[i]
		if e.Installer == nil && (e.InstallerNotDerived == "" || e.InstallerNotDerived == NotDerivedNoContents) {
			continue
		}
		if !header {
			fmt.Fprintf(bw, "\n## Installer service accounts (%s)\n\n", InstallerReleases)
			header = true
		}
		if e.Installer == nil {
			fmt.Fprintf(bw, "- %s/%s: not derived: %s\n", md(e.Namespace), md(e.Name), md(e.InstallerNotDerived))
			continue
		}
		fmt.Fprintf(bw, "- %s/%s (%s): %s\n", md(e.Namespace), md(e.Name), md(e.Installer.Bundle), md(e.Installer.Summary()))
		for _, n := range e.Installer.NotDerived {
			fmt.Fprintf(bw, "  - not derived: %s\n", md(n))
		}
	}
	if len(r.Notes) > 0 {
		bw.WriteString("\n## Notes\n\n")
		for _, n := range r.Notes {
			fmt.Fprintf(bw, "- %s\n", md(n))
		}
	}
	return bw.Flush()
}

// writeMarkdown writes the details of one entry.
func (e *Entry) writeMarkdown(w *bufio.Writer) {
	fmt.Fprintf(w, "\n### %s/%s: %s\n\n", md(e.Namespace), md(e.Name), e.Verdict)
	for _, b := range e.Blocks {
		fmt.Fprintf(w, "- **block (%s)**: %s", b.Kind, md(b.Message))
		if b.V1Reason != "" {
			fmt.Fprintf(w, " — v1: `%s`", strings.ReplaceAll(safe(b.V1Reason), "`", "'"))
		}
		w.WriteString("\n")
	}
	for _, c := range e.Changes {
		fmt.Fprintf(w, "- change (%s): %s\n", c.Kind, md(c.Message))
	}
	for _, l := range e.Lost {
		fmt.Fprintf(w, "- lost (%s): %s\n", l.Kind, md(l.Message))
	}
	for _, d := range e.Differences {
		fmt.Fprintf(w, "- differs (%s): %s\n", d.Kind, md(d.Message))
	}
	fmt.Fprintf(w, "- becomes %s\n", md(extensionText(&e.ClusterExtension)))
}

// md escapes the characters that would break a table cell or a list item.
func md(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "*", `\*`, "_", `\_`).Replace(safe(s))
}

// WriteYAML writes Objects as cluster.Encode writes a state: a kind: List
// ready to apply. With installers, for the operator-controller releases
// that install a ClusterExtension as its spec.serviceAccount
// (InstallerReleases), each ClusterExtension names its installer service
// account, and a List before it holds each derived Installer's objects
// (Installer.Manifests), to apply first; a comment at the top names the
// ClusterExtensions whose installer is not derived, and why.
func (r *Report) WriteYAML(w io.Writer, installers bool) error {
	objs := r.Objects()
	if !installers {
		return cluster.Encode(w, objs)
	}
	var items []any
	var missing []string
	for i := range r.Subscriptions {
		e := &r.Subscriptions[i]
		if e.Verdict == Blocked {
			continue
		}
		if e.Installer == nil {
			missing = append(missing, fmt.Sprintf("# %s: %s", safe(e.ClusterExtension.Name), safe(e.InstallerNotDerived)))
			continue
		}
		for _, m := range e.Installer.Manifests() {
			items = append(items, m)
		}
	}
	for i := range objs.ClusterExtensions {
		x := &objs.ClusterExtensions[i]
		x.ServiceAccount = x.Name + "-installer"
	}
	bw := bufio.NewWriter(w)
	if len(missing) > 0 {
		fmt.Fprintf(bw, "# For %s: installer permissions not derived for\n%s\n", InstallerReleases, strings.Join(missing, "\n"))
	}
	if len(items) > 0 {
		js, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items})
		if err != nil {
			return fmt.Errorf("encode installers: %w", err)
		}
		y, err := yaml.JSONToYAML(js)
		if err != nil {
			return fmt.Errorf("encode installers: %w", err)
		}
		bw.Write(y)
		bw.WriteString("---\n")
	}
	if err := cluster.Encode(bw, objs); err != nil {
		return err
	}
	return bw.Flush()
}

// Objects returns the ClusterCatalogs and ClusterExtensions to apply: the
// ClusterExtensions of the entries that are not blocked, and the
// ClusterCatalogs they select, as a cluster.State holding nothing else
// (cluster.Encode writes it as a kind: List). The state shares nothing
// with r.
func (r *Report) Objects() *cluster.State {
	s := &cluster.State{}
	used := map[string]bool{}
	for i := range r.Subscriptions {
		e := &r.Subscriptions[i]
		if e.Verdict == Blocked {
			continue
		}
		s.ClusterExtensions = append(s.ClusterExtensions, e.ClusterExtension)
		if e.ClusterExtension.Selector != nil {
			used[e.ClusterExtension.Selector.MatchLabels[cluster.MetadataNameLabel]] = true
		}
	}
	for _, c := range r.ClusterCatalogs {
		if used[c.Name] {
			s.ClusterCatalogs = append(s.ClusterCatalogs, c)
		}
	}
	return s.Clone()
}
