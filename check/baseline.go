package check

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/words"
	"github.com/sextantdev/sextant/resolver"
)

// Status says, when Run compares a catalog with its baseline, whether a
// finding is one the change introduces or one the baseline already had.
type Status string

// The statuses of a finding.
const (
	// StatusNone: the catalog was checked without a baseline.
	StatusNone Status = ""
	// StatusNew: the baseline had no such finding — the change introduced
	// it. Regressions (the Regression codes) are always new.
	StatusNew Status = "new"
	// StatusExisting: the baseline had the same finding (same code and
	// object).
	StatusExisting Status = "existing"
)

// The codes of the regressions Run reports when an input has a baseline:
// what the change from the baseline to the input does to the clusters that
// use the catalog. Each names the objects of the new catalog (or, for what
// was removed, of the baseline). They are always new.
const (
	// CodePackageRemoved (error): a package of the baseline is gone;
	// its subscriptions no longer resolve.
	CodePackageRemoved = "package-removed"
	// CodeChannelRemoved (error): a channel of the baseline is gone from
	// its package (renaming a channel removes it); subscriptions to it no
	// longer resolve.
	CodeChannelRemoved = "channel-removed"
	// CodeDefaultChannelChanged (warning): the package's default channel is
	// another one; subscriptions that name no channel follow it. Not
	// reported when the baseline's default channel named no channel (the
	// change fixes it).
	CodeDefaultChannelChanged = "default-channel-changed"
	// CodeHeadRemoved (error): the entry that headed a channel of the
	// baseline is gone from the channel (its bundle from the catalog, or
	// only from the channel): clusters running it are ahead of the channel.
	CodeHeadRemoved = "head-removed"
	// CodeBundleRemoved (warning): an entry of a channel of the baseline,
	// other than its head, is gone from the channel; the message says
	// whether clusters running it can still upgrade. An entry whose
	// clusters lose their way to the head is an upgrade-path-lost
	// instead.
	CodeBundleRemoved = "bundle-removed"
	// CodeChannelHeadLowered (error): the channel's head has a lower
	// version than in the baseline: new subscriptions get an older bundle
	// and clusters at the former head have nowhere to go.
	CodeChannelHeadLowered = "channel-head-lowered"
	// CodeUpgradePathLost (error): a version that could reach its channel
	// head in the baseline cannot reach the channel's head in the new
	// catalog; the message names the new dead end. Versions removed from
	// the channel count too: a cluster still runs them.
	CodeUpgradePathLost = "upgrade-path-lost"
	// CodeNoLongerInstallable: a bundle installable on an empty cluster
	// from the baseline is not from the new catalog (error for a channel
	// head, warning otherwise). It carries the new catalog's explanation.
	CodeNoLongerInstallable = "no-longer-installable"
	// CodeRequirementNewlyUnmet (warning): a requirement of a bundle that
	// candidates of the baseline met and no candidate of the new catalog
	// meets.
	CodeRequirementNewlyUnmet = "requirement-newly-unmet"
	// CodeDeprecationAdded (warning): an olm.deprecations entry, or a
	// bundle's olm.deprecated property, that the baseline did not have.
	CodeDeprecationAdded = "deprecation-added"
)

// RegressionCodes returns the codes of the regressions, in documentation
// order. The caller owns the returned slice.
func RegressionCodes() []string {
	return []string{
		CodePackageRemoved, CodeChannelRemoved, CodeDefaultChannelChanged, CodeHeadRemoved,
		CodeBundleRemoved, CodeChannelHeadLowered, CodeUpgradePathLost, CodeNoLongerInstallable,
		CodeRequirementNewlyUnmet, CodeDeprecationAdded,
	}
}

// IsRegression reports whether code is one of the regression codes.
func IsRegression(code string) bool { return slices.Contains(RegressionCodes(), code) }

// BaselineSummary compares a catalog with its baseline.
type BaselineSummary struct {
	// Name is the baseline's Input.Name (the same as the catalog's).
	Name string `json:"name"`
	// New and Existing count the catalog's findings by status; Resolved
	// counts the baseline's findings the catalog no longer has.
	New      int `json:"new"`
	Existing int `json:"existing"`
	Resolved int `json:"resolved"`
	// What was added and removed, by count.
	PackagesAdded   int `json:"packagesAdded"`
	PackagesRemoved int `json:"packagesRemoved"`
	ChannelsAdded   int `json:"channelsAdded"`
	ChannelsRemoved int `json:"channelsRemoved"`
	BundlesAdded    int `json:"bundlesAdded"`
	BundlesRemoved  int `json:"bundlesRemoved"`
	// Added and Removed name them: what the catalog has and the baseline
	// has not, and the reverse.
	Added   Changes `json:"added"`
	Removed Changes `json:"removed"`
}

// Changes names packages, channels ("package/channel") and bundles
// ("package/bundle"), each list sorted; the channels and bundles of a
// package added or removed are named too.
type Changes struct {
	Packages []string `json:"packages,omitempty"`
	Channels []string `json:"channels,omitempty"`
	Bundles  []string `json:"bundles,omitempty"`
}

// describe names what c holds, at most n of each kind: "packages a, b;
// channels p/c; bundles p/b1, p/b2 and 3 more"; empty when nothing.
func (c Changes) describe(n int) string {
	var parts []string
	for _, k := range []struct {
		what  string
		names []string
	}{{"packages", c.Packages}, {"channels", c.Channels}, {"bundles", c.Bundles}} {
		if len(k.names) > 0 {
			parts = append(parts, k.what+" "+words.First(k.names, n))
		}
	}
	return strings.Join(parts, "; ")
}

// runBaseline runs the checks on the baselines of the inputs, marks the
// findings of rep new or existing, adds the regressions and records what
// the baselines had that the inputs no longer have (Report.Resolved).
func runBaseline(ctx context.Context, catalogs []Input, opts Options, rep *Report, order *findingOrder) error {
	byName := map[string]int{}
	for i, in := range catalogs {
		byName[in.Name] = i
	}
	seen := map[string]bool{}
	for _, b := range opts.Baseline {
		seen[b.Name] = true
	}
	// The baselines are checked together with the inputs that have none,
	// as they are, so that the Catalogs check compares the same set.
	bopts := opts
	bopts.Baseline, bopts.Suppressions = nil, nil
	before := slices.Clone(catalogs)
	for _, b := range opts.Baseline {
		before[byName[b.Name]] = b
	}
	old, err := Run(ctx, before, bopts)
	if err != nil {
		return fmt.Errorf("baseline: %w", err)
	}
	oldFindings := map[string][]Finding{}
	for _, f := range old.Findings {
		if seen[f.Catalog] {
			oldFindings[f.Catalog] = append(oldFindings[f.Catalog], f)
		}
	}
	var out []Finding
	rest := rep.Findings
	for ci := range rep.Catalogs {
		s := &rep.Catalogs[ci]
		n := 0
		for n < len(rest) && rest[n].Catalog == s.Name {
			n++
		}
		fs := rest[:n:n]
		rest = rest[n:]
		if !seen[s.Name] {
			out = append(out, fs...)
			continue
		}
		var base *graph.Catalog
		for _, b := range opts.Baseline {
			if b.Name == s.Name {
				base = b.Catalog
			}
		}
		sum := &BaselineSummary{Name: s.Name}
		resolved := markStatus(fs, oldFindings[s.Name])
		reg := regressions(s.Name, base, catalogs[byName[s.Name]].Catalog, fs, oldFindings[s.Name], sum, opts.CEL)
		for i := range reg {
			reg[i].Status = StatusNew
		}
		fs = append(fs, reg...)
		slices.SortFunc(fs, order.compare)
		for _, f := range fs {
			if f.Status == StatusNew {
				sum.New++
			} else {
				sum.Existing++
			}
		}
		sum.Resolved = len(resolved)
		rep.Resolved = append(rep.Resolved, resolved...)
		s.Counts = countCodes(fs)
		s.Baseline = sum
		out = append(out, fs...)
	}
	rep.Findings = out
	return nil
}

// checkBaselines reports a baseline without a catalog, naming no input or
// named twice.
func checkBaselines(catalogs []Input, baselines []Input) error {
	names := map[string]bool{}
	for _, in := range catalogs {
		names[in.Name] = true
	}
	seen := map[string]bool{}
	for i, b := range baselines {
		if b.Catalog == nil {
			return fmt.Errorf("baseline %d (%q): no catalog", i, b.Name)
		}
		if !names[b.Name] {
			return fmt.Errorf("baseline %d: %q names no input", i, b.Name)
		}
		if seen[b.Name] {
			return fmt.Errorf("baseline %d: duplicate baseline name %q", i, b.Name)
		}
		seen[b.Name] = true
	}
	return nil
}

// findingObject is what a finding is about, without its wording.
type findingObject struct {
	code, pkg, channel, bundle, from, crd string
}

func objectOf(f Finding) findingObject {
	return findingObject{f.Code, f.Package, f.Channel, f.Bundle, f.From, f.CRD}
}

// markStatus marks each finding of fs new or existing against the
// baseline's findings old and returns the findings of old that fs does not
// have (in the order of old). A finding is existing when old has one with
// the same code, object and message; the findings left over on both sides
// are then paired by code and object alone, in order (a message can change
// without the problem changing: a count, a list of names).
func markStatus(fs, old []Finding) []Finding {
	type exact struct {
		obj findingObject
		msg string
	}
	left := map[exact]int{}
	for _, f := range old {
		left[exact{objectOf(f), f.Message}]++
	}
	for i, f := range fs {
		fs[i].Status = StatusNew
		if k := (exact{objectOf(f), f.Message}); left[k] > 0 {
			left[k]--
			fs[i].Status = StatusExisting
		}
	}
	// What is left of old after the exact matches, in order and by object.
	var gone []Finding
	byObj := map[findingObject]int{}
	for _, f := range old {
		if k := (exact{objectOf(f), f.Message}); left[k] > 0 {
			left[k]--
			gone = append(gone, f)
			byObj[objectOf(f)]++
		}
	}
	paired := map[findingObject]int{}
	for i := range fs {
		if o := objectOf(fs[i]); fs[i].Status == StatusNew && byObj[o] > 0 {
			byObj[o]--
			paired[o]++
			fs[i].Status = StatusExisting
		}
	}
	var resolved []Finding
	for _, f := range gone {
		if o := objectOf(f); paired[o] > 0 {
			paired[o]--
			continue
		}
		resolved = append(resolved, f)
	}
	return resolved
}

// regressions compares catalog cur with its baseline old: what was
// removed, moved or broken. fs and oldFs are the findings of cur and old
// (for the installability comparison). It sets the added and removed counts
// of sum; cel evaluates cel rules.
func regressions(name string, old, cur *graph.Catalog, fs, oldFs []Finding, sum *BaselineSummary, cel resolver.CEL) []Finding {
	var out []Finding
	add := func(sev graph.Severity, code string, pkg, channel string, pos graph.Position, msg, brief string) {
		out = append(out, Finding{
			Severity: sev, Code: code, Catalog: name,
			Package: pkg, Channel: channel,
			Message: msg, Brief: brief, Pos: pos,
		})
	}
	sum.Added, sum.Removed = missingFrom(cur, old), missingFrom(old, cur)
	sum.PackagesAdded, sum.ChannelsAdded, sum.BundlesAdded = len(sum.Added.Packages), len(sum.Added.Channels), len(sum.Added.Bundles)
	sum.PackagesRemoved, sum.ChannelsRemoved, sum.BundlesRemoved = len(sum.Removed.Packages), len(sum.Removed.Channels), len(sum.Removed.Bundles)
	for _, op := range old.Packages() {
		np := cur.Package(op.Name)
		if np == nil {
			had := fmt.Sprintf("%s, %s in the baseline", plural(len(op.Channels), "channel", "channels"), plural(len(op.Bundles), "bundle", "bundles"))
			add(graph.SeverityError, CodePackageRemoved, op.Name, "", graph.Position{},
				fmt.Sprintf("package %q is gone (%s): its subscriptions no longer resolve", op.Name, had),
				fmt.Sprintf("gone (had %s, %s)", plural(len(op.Channels), "channel", "channels"), plural(len(op.Bundles), "bundle", "bundles")))
			continue
		}
		// A default channel that named no channel in the baseline was
		// broken there (unknown-default-channel): changing it is a fix.
		if op.DefaultChannel != np.DefaultChannel && op.Channel(op.DefaultChannel) != nil {
			msg := fmt.Sprintf("the default channel of %q is %q, was %q: subscriptions that name no channel follow %q", np.Name, np.DefaultChannel, op.DefaultChannel, np.DefaultChannel)
			brief := fmt.Sprintf("was %q", op.DefaultChannel)
			if oc, nc := op.Default(), np.Default(); oc != nil && nc != nil {
				oh, ok1 := channelHead(oc)
				nh, ok2 := channelHead(nc)
				if ok1 && ok2 {
					msg += fmt.Sprintf(" (head %s, was %s)", versionedName(np, nh), versionedName(op, oh))
					if nh == oh {
						brief += fmt.Sprintf(" (same head %s)", versionName(np, nh))
					} else {
						brief += fmt.Sprintf(" (head %s, now %s)", versionName(op, oh), versionName(np, nh))
					}
				}
			}
			add(graph.SeverityWarning, CodeDefaultChannelChanged, np.Name, np.DefaultChannel, np.Pos, msg, brief)
		}
		for _, oc := range op.Channels {
			nc := np.Channel(oc.Name)
			if nc == nil {
				had := plural(len(oc.Entries), "entry", "entries")
				msg := fmt.Sprintf("channel %q of %q is gone (%s in the baseline): subscriptions to it no longer resolve", oc.Name, op.Name, had)
				brief := fmt.Sprintf("gone (had %s)", had)
				if h, ok := channelHead(oc); ok {
					if b := np.Bundle(h); b != nil && len(b.Channels) > 0 {
						msg += fmt.Sprintf("; its head %q is in channel %s", h, strings.Join(b.Channels, ", "))
						brief += "; its head is in " + strings.Join(b.Channels, ", ")
					}
				}
				add(graph.SeverityError, CodeChannelRemoved, op.Name, oc.Name, oc.Pos, msg, brief)
				continue
			}
			out = append(out, channelRegressions(name, op, np, oc, nc)...)
		}
		out = append(out, deprecationsAdded(name, op, np)...)
	}
	out = append(out, installRegressions(fs, oldFs)...)
	out = append(out, unmetRequirements(name, old, cur, cel)...)
	return out
}

// missingFrom names the packages, channels and bundles of a that b does
// not have: the channels and bundles of a package b lacks count too.
func missingFrom(a, b *graph.Catalog) Changes {
	var c Changes
	for _, ap := range a.Packages() {
		bp := b.Package(ap.Name)
		if bp == nil {
			c.Packages = append(c.Packages, ap.Name)
		}
		for _, ch := range ap.Channels {
			if bp == nil || bp.Channel(ch.Name) == nil {
				c.Channels = append(c.Channels, ap.Name+"/"+ch.Name)
			}
		}
		for _, x := range ap.Bundles {
			if bp == nil || bp.Bundle(x.Name) == nil {
				c.Bundles = append(c.Bundles, ap.Name+"/"+x.Name)
			}
		}
	}
	return c
}

// versionedName returns `"name" (version)`.
func versionedName(p *graph.Package, name string) string {
	if b := p.Bundle(name); b != nil && b.VersionText != "" {
		return fmt.Sprintf("%q (%s)", name, b.VersionText)
	}
	return fmt.Sprintf("%q", name)
}

// channelRegressions compares one channel present in both catalogs:
// entries removed, a head lowered, versions that lost their way to the
// head.
func channelRegressions(name string, op, np *graph.Package, oc, nc *graph.Channel) []Finding {
	var out []Finding
	add := func(sev graph.Severity, code, bundle string, pos graph.Position, msg, brief string) {
		out = append(out, Finding{
			Severity: sev, Code: code, Catalog: name,
			Package: np.Name, Channel: nc.Name, Bundle: bundle,
			Message: msg, Brief: brief, Pos: pos,
		})
	}
	oh, oldOK := channelHead(oc)
	nh, newOK := channelHead(nc)
	var lost map[string]bool // removed entries reported as upgrade-path-lost
	if oldOK && newOK {
		ov, ok1 := bundleVersion(op, oh)
		nv, ok2 := bundleVersion(np, nh)
		if ok1 && ok2 && nv.LT(ov) {
			add(graph.SeverityError, CodeChannelHeadLowered, nh, bundlePos(np, nh),
				fmt.Sprintf("the head of channel %q is %s, lower than %s in the baseline: new subscriptions get an older version and clusters at %s have no upgrade", nc.Name, versionedName(np, nh), versionedName(op, oh), ov),
				"lowered from "+versionName(op, oh))
		}
		lost = lostPaths(op, np, oc, nc, oh, nh, add)
	}
	// Entries removed from the channel; those whose clusters lost their
	// way to the head are told once, as upgrade-path-lost.
	for _, e := range oc.Order() {
		if _, ok := nc.Entry(e); ok || lost[e] {
			continue
		}
		where, gone := "its bundle is gone from the catalog", "gone with its bundle"
		if b := np.Bundle(e); b != nil {
			where, gone = "its bundle is still in the catalog", "gone (its bundle stays)"
			if len(b.Channels) > 0 {
				where += fmt.Sprintf(" (channel %s)", strings.Join(b.Channels, ", "))
				gone = fmt.Sprintf("gone (still in %s)", strings.Join(b.Channels, ", "))
			}
		}
		if oldOK && e == oh {
			msg := fmt.Sprintf("%s, the head of channel %q in the baseline, is gone from it (%s)", versionedName(op, e), oc.Name, where)
			brief := gone
			if newOK {
				msg += fmt.Sprintf("; the head is now %s", versionedName(np, nh))
				brief += "; the head is now " + versionName(np, nh)
			}
			add(graph.SeverityError, CodeHeadRemoved, e, bundlePos(op, e), msg, brief)
			continue
		}
		msg := fmt.Sprintf("%s is gone from channel %q (%s)", versionedName(op, e), oc.Name, where)
		brief := gone
		if v, ok := bundleVersion(op, e); ok {
			if succ := nc.Successors(e, v); len(succ) > 0 {
				msg += fmt.Sprintf("; clusters running it can upgrade to %s", quoteList(succ, 3))
				brief += "; its clusters can upgrade to " + versionList(np, succ, 2)
			} else {
				msg += "; clusters running it have no upgrade: no entry replaces it, skips it or has a skipRange containing its version"
				brief += "; its clusters have no upgrade"
			}
		}
		add(graph.SeverityWarning, CodeBundleRemoved, e, bundlePos(op, e), msg, brief)
	}
	return out
}

// lostPaths reports the entries of oc that reached the head oh and cannot
// reach nh in nc — entries of both, and entries gone from nc, which
// clusters still run — and returns the set of the latter.
func lostPaths(op, np *graph.Package, oc, nc *graph.Channel, oh, nh string, add func(sev graph.Severity, code, bundle string, pos graph.Position, msg, brief string)) map[string]bool {
	lost := map[string]bool{}
	oldDist := oc.DistancesTo(oh)
	newDist := nc.DistancesTo(nh)
	for i, e := range oc.Order() {
		if e == oh || e == nh || oldDist[i] <= 0 {
			continue
		}
		if j := nc.Position(e); j >= 0 {
			if newDist[j] >= 0 {
				continue
			}
			r := nc.Reachable(e)
			ends := deadEnds(nc, r)
			add(graph.SeverityError, CodeUpgradePathLost, e, bundlePos(np, e),
				fmt.Sprintf("%s reached the channel head %q in the baseline (%s); it cannot reach the head %q: %s",
					versionedName(np, e), oh, plural(oldDist[i], "hop", "hops"), nh, deadEnd(r, ends)),
				fmt.Sprintf("no path to head %s any more (%s before): %s",
					versionName(np, nh), plural(oldDist[i], "hop", "hops"), deadEndBrief(np, r, ends)))
			continue
		}
		// Gone from the channel: a cluster running it upgrades to its
		// successors in the new channel, if any.
		v, ok := bundleVersion(op, e)
		if !ok {
			continue
		}
		reach := false
		var seen []string
		for _, s := range nc.Successors(e, v) {
			if newDist[nc.Position(s)] >= 0 {
				reach = true
				break
			}
			seen = append(seen, s)
			seen = append(seen, nc.Reachable(s)...)
		}
		if reach {
			continue
		}
		slices.Sort(seen)
		seen = slices.Compact(seen)
		lost[e] = true
		ends := deadEnds(nc, seen)
		add(graph.SeverityError, CodeUpgradePathLost, e, bundlePos(op, e),
			fmt.Sprintf("%s is gone from the channel; it reached the channel head %q in the baseline (%s), and a cluster running it cannot reach the head %q: %s",
				versionedName(op, e), oh, plural(oldDist[i], "hop", "hops"), nh, deadEnd(seen, ends)),
			fmt.Sprintf("gone; its clusters have no path to head %s (%s before): %s",
				versionName(np, nh), plural(oldDist[i], "hop", "hops"), deadEndBrief(np, seen, ends)))
	}
	return lost
}

// deadEnd says where the upgrades through the reached entries end (ends,
// their deadEnds): at the reached entries with no successor, round a cycle
// when every one has one, or that there is no upgrade at all.
func deadEnd(reached, ends []string) string {
	switch {
	case len(reached) == 0:
		return "no entry replaces it, skips it or has a skipRange containing its version"
	case len(ends) == 0:
		return fmt.Sprintf("its upgrades (%s) go round in a cycle", plural(len(reached), "reachable entry", "reachable entries"))
	}
	return fmt.Sprintf("its upgrades (%s) end at %s", plural(len(reached), "reachable entry", "reachable entries"), quoteList(ends, 5))
}

// deadEndBrief says deadEnd's facts in brief, the entries of p by version.
func deadEndBrief(p *graph.Package, reached, ends []string) string {
	switch {
	case len(reached) == 0:
		return "no upgrade from it"
	case len(ends) == 0:
		return "its upgrades go round in a cycle"
	}
	return "its upgrades end at " + versionList(p, ends, 2)
}

// deprecationsAdded reports the olm.deprecations entries of np that op did
// not have, and the bundles that gained the olm.deprecated property.
func deprecationsAdded(name string, op, np *graph.Package) []Finding {
	var out []Finding
	for _, d := range np.Deprecations {
		if op.DeprecationsOf(d.Reference.Schema, d.Reference.Name) != nil {
			continue
		}
		f := Finding{Severity: graph.SeverityWarning, Code: CodeDeprecationAdded, Catalog: name, Package: np.Name}
		var what string
		switch d.Reference.Schema {
		case graph.SchemaPackage:
			what = fmt.Sprintf("package %q", np.Name)
			f.Pos = np.Pos
		case graph.SchemaChannel:
			f.Channel = d.Reference.Name
			what = fmt.Sprintf("channel %q", d.Reference.Name)
		case graph.SchemaBundle:
			f.Bundle = d.Reference.Name
			f.Pos = bundlePos(np, d.Reference.Name)
			what = fmt.Sprintf("bundle %q", d.Reference.Name)
		default:
			continue // an invalid deprecation: reported by the structural checks
		}
		f.Message = fmt.Sprintf("%s is deprecated (olm.deprecations): %q", what, d.Message)
		f.Brief = fmt.Sprintf("deprecated: %q", d.Message)
		out = append(out, f)
	}
	for _, b := range np.Bundles {
		if ob := op.Bundle(b.Name); b.Deprecated && ob != nil && !ob.Deprecated {
			out = append(out, Finding{
				Severity: graph.SeverityWarning, Code: CodeDeprecationAdded, Catalog: name,
				Package: np.Name, Bundle: b.Name, Pos: b.Pos,
				Message: fmt.Sprintf("%q has the olm.deprecated property: the resolver never selects it", b.Name),
				Brief:   "has olm.deprecated: the resolver never selects it",
			})
		}
	}
	return out
}

// installRegressions reports the bundles whose installability finding fs
// has and oldFs has not, when the baseline had the bundle as an
// installability candidate (in a channel, not olm.deprecated).
func installRegressions(fs, oldFs []Finding) []Finding {
	failedBefore := map[graph.BundleRef]bool{}
	for _, f := range oldFs {
		if isInstallCode(f.Code) {
			failedBefore[graph.BundleRef{Package: f.Package, Name: f.Bundle}] = true
		}
	}
	var out []Finding
	for _, f := range fs {
		ref := graph.BundleRef{Package: f.Package, Name: f.Bundle}
		if !isInstallCode(f.Code) || failedBefore[ref] || f.Status != StatusNew {
			continue
		}
		g := f
		g.Code = CodeNoLongerInstallable
		g.Status = ""
		// The installability message is `WHAT cannot be installed ...
		// alone:` then the reason on the same line or one fact per line.
		what, reason, ok := strings.Cut(f.Message, installAlone)
		if !ok {
			what, reason, ok = strings.Cut(f.Message, installWithAll)
		}
		if !ok {
			what, reason = fmt.Sprintf("%q", f.Bundle), " "+f.Message
		}
		g.Message = what + " was installable on an empty cluster from the baseline and is not from this catalog:" + reason
		g.Brief = f.Brief // the code says it was installable
		out = append(out, g)
	}
	return out
}

// unmetRequirements reports the requirements of the bundles of cur that
// the baseline's candidates met and cur's do not, for bundles the baseline
// had with the same requirement; cel evaluates cel rules.
func unmetRequirements(name string, old, cur *graph.Catalog, cel resolver.CEL) []Finding {
	var oldSet, curSet candidateSet
	var out []Finding
	for _, p := range cur.Packages() {
		op := old.Package(p.Name)
		if op == nil {
			continue
		}
		for _, b := range p.Bundles {
			ob := op.Bundle(b.Name)
			if ob == nil || len(b.Channels) == 0 || b.Deprecated || !hasRequirements(b) {
				continue
			}
			oldReqs := requirements(ob, cel)
			for _, req := range requirements(b, cel) {
				k := slices.IndexFunc(oldReqs, func(r requirement) bool { return r.text == req.text })
				if k < 0 {
					continue
				}
				if curSet == nil {
					oldSet, curSet = newCandidateSet(old), newCandidateSet(cur)
				}
				if len(satisfiers(cur, curSet, b, req, cel)) > 0 {
					continue
				}
				before := satisfiers(old, oldSet, ob, oldReqs[k], cel)
				if len(before) == 0 {
					continue
				}
				names := make([]string, len(before))
				for i, x := range before {
					names[i] = x.Name
				}
				out = append(out, Finding{
					Severity: graph.SeverityWarning, Code: CodeRequirementNewlyUnmet, Catalog: name,
					Package: p.Name, Bundle: b.Name, Pos: b.Pos,
					Message: fmt.Sprintf("%q requires %s: the baseline met it (%s), no candidate of the catalog does",
						b.Name, req.text, quoteList(names, 3)),
					Brief: fmt.Sprintf("requires %s (met in the baseline by %s)", req.words(), words.First(names, 1)),
				})
			}
		}
	}
	return out
}
