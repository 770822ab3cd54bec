package check

import (
	"fmt"
	"slices"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver/predict"
)

// The codes of the Platform check: what OLM's olm-operator checks after
// resolution, read from the bundles' olm.csv.metadata (DESIGN §8).
const (
	// CodeInstallModeDropped (warning): an upgrade edge — replaces or
	// skips, or a skipRange match — whose target supports fewer install
	// modes than its source. A cluster that runs the source under an
	// OperatorGroup only the dropped mode serves upgrades into a CSV OLM
	// fails with UnsupportedOperatorGroup.
	CodeInstallModeDropped = "install-mode-dropped"
	// CodeNoInstallMode (error): a bundle whose olm.csv.metadata supports
	// no install mode (or lists one twice, which OLM rejects as
	// InvalidInstallModes): OLM fails it under every OperatorGroup.
	CodeNoInstallMode = "no-install-mode"
	// CodeInvalidMinKubeVersion (error): a minKubeVersion OLM cannot parse
	// (it wants major.minor.patch): OLM never meets the bundle's
	// requirements (RequirementsNotMet), on any cluster.
	CodeInvalidMinKubeVersion = "invalid-min-kube-version"
	// CodeMinKubeVersionRaised (info): an upgrade edge whose target needs a
	// newer Kubernetes than its source: clusters between the two versions
	// upgrade into a CSV OLM holds with RequirementsNotMet.
	CodeMinKubeVersionRaised = "min-kube-version-raised"
)

// platform reports the Platform findings of package p: per bundle, no
// install mode and an unparsable minKubeVersion; per upgrade edge (as
// apiDrops walks them), a dropped install mode and a raised
// minKubeVersion. Bundles without olm.csv.metadata are not checked.
func platform(catalog string, p *graph.Package, es *edgeSet) []Finding {
	var fs []Finding
	for _, b := range p.Bundles {
		fs = append(fs, everywhere(catalog, p, b)...)
	}
	for _, k := range es.keys {
		from, to := p.Bundle(k.From), p.Bundle(k.To)
		in := es.infos[k]
		if from == nil || to == nil || from.CSVMetadata == nil || to.CSVMetadata == nil {
			continue
		}
		by := kindNames(in.kinds)
		if lost := lostModes(from.CSVMetadata, to.CSVMetadata); len(lost) > 0 {
			fs = append(fs, Finding{
				Severity: graph.SeverityWarning, Code: CodeInstallModeDropped, Catalog: catalog,
				Package: p.Name, Channel: in.channels[0], Bundle: to.Name, Pos: to.Pos,
				Message: fmt.Sprintf("the upgrade from %q (%s) to %q (%s) by %s%s drops %s: a cluster running %q under an OperatorGroup that needs %s upgrades into a CSV OLM fails (UnsupportedOperatorGroup)",
					from.Name, from.VersionText, to.Name, to.VersionText, by, inChannels(in.channels), modeWords(lost), from.Name, itThem(lost)),
				Brief: fmt.Sprintf("from %s drops %s", from.VersionText, modesBrief(lost, to.CSVMetadata)),
			})
		}
		if f, ok := minKubeRaised(catalog, p, from, to, by, in.channels); ok {
			fs = append(fs, f)
		}
	}
	// Edges that only a target's skipRange makes are reported once per
	// target, listing their sources, as apiDrops does.
	withMetadata := func(from, to *graph.Bundle) bool { return from.CSVMetadata != nil && to.CSVMetadata != nil }
	raises := func(from, to *graph.Bundle) bool {
		if !withMetadata(from, to) {
			return false
		}
		_, ok := raisedKube(from, to)
		return ok
	}
	es.ranged(raises, func(to *graph.Bundle, e graph.Entry, channels []string, sources []*graph.Bundle) {
		parts := make([]string, min(len(sources), 3))
		for i, from := range sources[:len(parts)] {
			was := from.CSVMetadata.MinKubeVersion
			if was == "" {
				was = "none"
			}
			parts[i] = fmt.Sprintf("%q (%s, minKubeVersion %s)", from.Name, from.VersionText, was)
		}
		m := to.CSVMetadata.MinKubeVersion
		fs = append(fs, Finding{
			Severity: graph.SeverityInfo, Code: CodeMinKubeVersionRaised, Catalog: catalog,
			Package: p.Name, Channel: channels[0], Bundle: to.Name, Pos: to.Pos,
			Message: fmt.Sprintf("skipRange %q of %q (%s)%s makes %s that raise minKubeVersion to %s: clusters older than %s upgrade into a CSV OLM holds (RequirementsNotMet); from %s",
				e.SkipRange.String(), to.Name, to.VersionText, inChannels(channels), plural(len(sources), "upgrade", "upgrades"), m, m, joinFirst(parts, len(sources), ", ")),
			Brief: rangedBrief(sources, "raises minKubeVersion to "+m, func(a, b *graph.Bundle) bool { return true }),
		})
	})
	dropsModes := func(from, to *graph.Bundle) bool {
		return withMetadata(from, to) && len(lostModes(from.CSVMetadata, to.CSVMetadata)) > 0
	}
	es.ranged(dropsModes, func(to *graph.Bundle, e graph.Entry, channels []string, sources []*graph.Bundle) {
		parts := make([]string, min(len(sources), 3))
		for i, from := range sources[:len(parts)] {
			parts[i] = fmt.Sprintf("from %q (%s), %s", from.Name, from.VersionText, modeWords(lostModes(from.CSVMetadata, to.CSVMetadata)))
		}
		fs = append(fs, Finding{
			Severity: graph.SeverityWarning, Code: CodeInstallModeDropped, Catalog: catalog,
			Package: p.Name, Channel: channels[0], Bundle: to.Name, Pos: to.Pos,
			Message: fmt.Sprintf("skipRange %q of %q (%s)%s makes %s that drop install modes, which OLM then fails under the OperatorGroups that need them (UnsupportedOperatorGroup): %s",
				e.SkipRange.String(), to.Name, to.VersionText, inChannels(channels), plural(len(sources), "upgrade", "upgrades"), joinFirst(parts, len(sources), "; ")),
			Brief: rangedBrief(sources, "drops "+modesBrief(lostModes(sources[0].CSVMetadata, to.CSVMetadata), to.CSVMetadata), func(a, b *graph.Bundle) bool {
				return slices.Equal(a.CSVMetadata.Modes().Supported(), b.CSVMetadata.Modes().Supported())
			}),
		})
	})
	return fs
}

// everywhere reports the failures OLM gives bundle b of p on every
// cluster (predict.Everywhere) as findings: no install mode (or one listed
// twice) and a minKubeVersion OLM cannot parse.
func everywhere(catalog string, p *graph.Package, b *graph.Bundle) []Finding {
	var fs []Finding
	for _, pr := range predict.Everywhere(b) {
		var code, msg, brief string
		switch pr.Reason {
		case predict.ReasonInvalidInstallModes:
			rec, _ := b.CSVRecord() // Everywhere read the modes there
			dup := modeWords(graph.ReadInstallModes(rec.InstallModes).Duplicates())
			code, msg = CodeNoInstallMode, fmt.Sprintf("bundle %q lists %s more than once: OLM rejects the list (InvalidInstallModes) and fails the CSV under every OperatorGroup", b.Name, dup)
			brief = fmt.Sprintf("lists %s more than once (InvalidInstallModes)", dup)
		case predict.ReasonUnsupportedOperatorGroup:
			code, msg = CodeNoInstallMode, fmt.Sprintf("bundle %q supports no install mode: OLM fails it under every OperatorGroup (UnsupportedOperatorGroup)", b.Name)
			brief = "supports no install mode (UnsupportedOperatorGroup)"
		case predict.ReasonRequirementsNotMet:
			code, msg = CodeInvalidMinKubeVersion, fmt.Sprintf("bundle %q has minKubeVersion %q, which OLM cannot parse (it wants major.minor.patch): its requirements are never met (RequirementsNotMet)", b.Name, b.CSVMetadata.MinKubeVersion)
			brief = fmt.Sprintf("minKubeVersion %q does not parse: OLM wants major.minor.patch", b.CSVMetadata.MinKubeVersion)
		default:
			continue
		}
		f := bundleFinding(catalog, p, b, graph.SeverityError, code, msg)
		f.Brief = brief
		fs = append(fs, f)
	}
	return fs
}

// bundleFinding is a finding about bundle b of p, on its first channel.
func bundleFinding(catalog string, p *graph.Package, b *graph.Bundle, sev graph.Severity, code, msg string) Finding {
	ch := ""
	if len(b.Channels) > 0 {
		ch = b.Channels[0]
	}
	return Finding{Severity: sev, Code: code, Catalog: catalog, Package: p.Name, Channel: ch, Bundle: b.Name, Message: msg, Pos: b.Pos}
}

// lostModes returns the install modes from supports that to does not.
func lostModes(from, to *graph.CSVMetadata) []graph.InstallModeType {
	have := to.Modes()
	var out []graph.InstallModeType
	for _, m := range from.Modes().Supported() {
		if !have.Supports(m) {
			out = append(out, m)
		}
	}
	return out
}

// modeWords names install modes: "install mode A", "install modes A, B
// and C".
func modeWords(modes []graph.InstallModeType) string {
	if len(modes) == 1 {
		return "install mode " + string(modes[0])
	}
	return "install modes " + graph.InstallModeWords(modes)
}

// modesBrief names the install modes an upgrade to a bundle with metadata
// to loses, in brief: "A", "A and B", or for three or more, which leaves
// to at most one, "3 install modes: all but A".
func modesBrief(lost []graph.InstallModeType, to *graph.CSVMetadata) string {
	if len(lost) > 2 {
		if kept := to.Modes().Supported(); len(kept) > 0 {
			return fmt.Sprintf("%d install modes: all but %s", len(lost), graph.InstallModeWords(kept))
		}
		return fmt.Sprintf("all %d install modes", len(lost))
	}
	return graph.InstallModeWords(lost)
}

// kubeBrief says in brief that the upgrade from version from raises
// minKubeVersion from was ("none" when from has none) to to.
func kubeBrief(from, was, to string) string {
	if was == "none" {
		return fmt.Sprintf("from %s sets minKubeVersion %s", from, to)
	}
	return fmt.Sprintf("from %s raises minKubeVersion %s to %s", from, was, to)
}

func itThem(modes []graph.InstallModeType) string {
	if len(modes) == 1 {
		return "it"
	}
	return "one of them"
}

// minKubeRaised reports an upgrade edge whose target's minKubeVersion is
// above its source's (or the source has none).
func minKubeRaised(catalog string, p *graph.Package, from, to *graph.Bundle, by string, channels []string) (Finding, bool) {
	was, ok := raisedKube(from, to)
	if !ok {
		return Finding{}, false
	}
	tm := to.CSVMetadata.MinKubeVersion
	return Finding{
		Severity: graph.SeverityInfo, Code: CodeMinKubeVersionRaised, Catalog: catalog,
		Package: p.Name, Channel: channels[0], Bundle: to.Name, Pos: to.Pos,
		Message: fmt.Sprintf("the upgrade from %q (%s) to %q (%s) by %s%s raises minKubeVersion from %s to %s: clusters older than %s upgrade into a CSV OLM holds (RequirementsNotMet)",
			from.Name, from.VersionText, to.Name, to.VersionText, by, inChannels(channels), was, tm, tm),
		Brief: kubeBrief(from.VersionText, was, tm),
	}, true
}

// raisedKube reports whether to's minKubeVersion is above from's (or from
// has none), and from's ("none" when it has none). Both have metadata.
func raisedKube(from, to *graph.Bundle) (was string, ok bool) {
	fm, tm := from.CSVMetadata.MinKubeVersion, to.CSVMetadata.MinKubeVersion
	tv, terr := graph.ParseKubeVersion(tm, false)
	if terr != nil {
		return "", false
	}
	if fm == "" {
		return "none", true
	}
	fv, ferr := graph.ParseKubeVersion(fm, false)
	if ferr != nil || tv.Compare(fv) <= 0 {
		return "", false
	}
	return fm, true
}
