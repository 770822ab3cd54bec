package olmv1

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// TextOptions shape [Outcome.WriteText]. The zero value writes the
// short form.
type TextOptions struct {
	// Why lists every bundle passed over, each with its reason; the short
	// form lists the default channel's head and the few highest others,
	// then counts the rest by reason.
	Why bool
}

// shortPassed is how many passed-over bundles the short form lists.
const shortPassed = 3

// WriteText writes the resolution as text, one block per extension in
// name order:
//
//	clusterextension NAME: ACTION BUNDLE VERSION (package P, catalog C)
//	  why: ...
//	  passed over: BUNDLE VERSION (catalog C): REASON: DETAIL
//	  next: BUNDLE VERSION (catalog C) → ... | next: stays
//	  will fail: Reason: message | warning: Reason: message
//
// or, when operator-controller finds no bundle,
//
//	clusterextension NAME: error: MESSAGE
//
// followed by why each bundle of the package was passed over.
func (r *Outcome) WriteText(w io.Writer, opts TextOptions) error {
	bw := bufio.NewWriter(w)
	for i := range r.Extensions {
		if i > 0 {
			bw.WriteString("\n")
		}
		r.Extensions[i].writeText(bw, opts)
	}
	return bw.Flush()
}

func (x *ExtensionOutcome) writeText(w *bufio.Writer, opts TextOptions) {
	if x.Error != "" {
		fmt.Fprintf(w, "clusterextension %s: error: %s\n", x.Name, x.Error)
		if x.Installed != nil {
			fmt.Fprintf(w, "  installed: %s %s\n", x.Installed.Name, versionWords(x.Installed.Version, x.Installed.Release))
		}
	} else {
		what := fmt.Sprintf("%s %s %s", x.Action, x.Bundle, versionWords(x.Version, x.Release))
		if x.Action == ActionStay {
			what = fmt.Sprintf("stay at %s %s", x.Bundle, versionWords(x.Version, x.Release))
		}
		fmt.Fprintf(w, "clusterextension %s: %s (package %s, catalog %s)\n", x.Name, what, x.Package, x.Catalog)
		if x.Installed != nil && x.Action != ActionStay {
			fmt.Fprintf(w, "  installed: %s %s\n", x.Installed.Name, versionWords(x.Installed.Version, x.Installed.Release))
		}
		fmt.Fprintf(w, "  why: %s\n", x.Reason)
	}
	for _, s := range x.SkippedCatalogs {
		fmt.Fprintf(w, "  catalog %s not searched: %s\n", s.Catalog, s.Reason)
	}
	x.writePassed(w, opts)
	for _, d := range x.Deprecations {
		fmt.Fprintf(w, "  deprecated: %s\n", d)
	}
	for _, m := range x.Remedies {
		word := "fix"
		if m.Kind == RemedyDependency {
			word = "dependency"
		}
		fmt.Fprintf(w, "  %s: %s: gets %s %s (catalog %s)\n", word, m.Change, m.Bundle, m.Version, m.Catalog)
	}
	for _, p := range x.Predictions {
		word := "will fail"
		if p.Severity == SeverityWarning {
			word = "warning"
		}
		fmt.Fprintf(w, "  %s: %s: %s\n", word, p.Reason, p.Message)
		if p.V1Message != "" {
			fmt.Fprintf(w, "    operator-controller: %s\n", strings.ReplaceAll(p.V1Message, "\n", "\n      "))
		}
	}
	if x.Error == "" {
		x.writeNext(w)
	}
}

// Unlisted returns how many bundles passed over WriteText with opts counts
// by reason without listing them (0 with Why, which lists every one).
func (r *Outcome) Unlisted(opts TextOptions) int {
	n := 0
	for i := range r.Extensions {
		n += r.Extensions[i].unlisted(opts)
	}
	return n
}

// unlisted is Unlisted of one extension: the bundles passed over past the
// default channel's head and the shortPassed others listed.
func (x *ExtensionOutcome) unlisted(opts TextOptions) int {
	if opts.Why || len(x.PassedOver) <= shortPassed+1 {
		return 0
	}
	others := len(x.PassedOver)
	if x.DefaultHead != nil {
		others -= count(x.PassedOver, func(p PassedOver) bool { return p.Bundle == x.DefaultHead.Bundle })
	}
	return max(others-shortPassed, 0)
}

// count returns how many elements of s f holds for.
func count[T any](s []T, f func(T) bool) int {
	n := 0
	for _, x := range s {
		if f(x) {
			n++
		}
	}
	return n
}

// writePassed writes the bundles passed over: all of them with Why, else
// the default head and the few highest, then a count by reason.
func (x *ExtensionOutcome) writePassed(w *bufio.Writer, opts TextOptions) {
	line := func(p PassedOver, note string) {
		fmt.Fprintf(w, "  passed over: %s %s (catalog %s%s): %s: %s\n", p.Bundle, p.Version, p.Catalog, note, p.Reason, p.Detail)
	}
	head := ""
	if x.DefaultHead != nil {
		head = x.DefaultHead.Bundle
	}
	headNote := func(p PassedOver) string {
		if p.Bundle == head {
			return "; head of the default channel " + x.DefaultHead.Channel + ", what OLM v0 installs"
		}
		return ""
	}
	if opts.Why || len(x.PassedOver) <= shortPassed+1 {
		for _, p := range x.PassedOver {
			line(p, headNote(p))
		}
		return
	}
	for _, p := range x.PassedOver {
		if p.Bundle == head {
			line(p, headNote(p))
		}
	}
	// Cut short, the bundles inside the asked channels and range come
	// first: the ones a change of policy or of the installed bundle could
	// give (an extension's error most often hides among the others).
	inside := func(p PassedOver) bool { return p.Reason != ExcludedChannel && p.Reason != ExcludedRange }
	ordered := make([]PassedOver, 0, len(x.PassedOver))
	for _, p := range x.PassedOver {
		if inside(p) {
			ordered = append(ordered, p)
		}
	}
	for _, p := range x.PassedOver {
		if !inside(p) {
			ordered = append(ordered, p)
		}
	}
	rest := map[Exclusion]int{}
	var order []Exclusion
	listed := 0
	for _, p := range ordered {
		if p.Bundle == head {
			continue
		}
		if listed < shortPassed {
			line(p, "")
			listed++
			continue
		}
		if rest[p.Reason] == 0 {
			order = append(order, p.Reason)
		}
		rest[p.Reason]++
	}
	parts := make([]string, len(order))
	total := 0
	for i, r := range order {
		parts[i] = fmt.Sprintf("%d %s", rest[r], r)
		total += rest[r]
	}
	if total > 0 {
		fmt.Fprintf(w, "  passed over: %d more (%s), not listed\n", total, strings.Join(parts, ", "))
	}
}

// writeNext writes the next upgrades on one line.
func (x *ExtensionOutcome) writeNext(w *bufio.Writer) {
	if len(x.Next) == 0 {
		fmt.Fprintf(w, "  next: stays (no upgrade from %s)\n", x.Bundle)
		return
	}
	parts := make([]string, 0, len(x.Next))
	for _, h := range x.Next {
		if h.Error != "" {
			parts = append(parts, "error: "+h.Error)
			continue
		}
		part := fmt.Sprintf("%s %s (catalog %s)", h.Bundle, versionWords(h.Version, h.Release), h.Catalog)
		for _, p := range h.Predictions {
			word := "will fail"
			if p.Severity == SeverityWarning {
				word = "warning"
			}
			part += fmt.Sprintf(" [%s: %s]", word, p.Reason)
		}
		parts = append(parts, part)
	}
	fmt.Fprintf(w, "  next: %s\n", strings.Join(parts, " → "))
}

// versionWords writes a version recorded with its release apart (with
// BundleReleaseSupport) as "1.1.0 release 3"; without one, the version.
func versionWords(version string, release *string) string {
	if release == nil {
		return version
	}
	return fmt.Sprintf("%s release %q", version, *release)
}
