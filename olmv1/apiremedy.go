package olmv1

import (
	"cmp"
	"slices"

	"github.com/blang/semver/v4"
	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

// maxAPIChannels bounds the channel remedies of one package for one API;
// the others are counted (APIExtension.OtherChannels).
const maxAPIChannels = 3

// apiRemedies returns the confirmed changes to a ClusterExtension naming
// only package pkg whose bundle then provides api (the bundle it installs
// without them does not): a channel, then a version range. Each is
// resolved with operator-controller's choice and kept only when the
// bundle chosen provides api. It also returns how many more channels
// would provide api than the remedies list.
func (r *Resolver) apiRemedies(api graph.GVK, pkg string) ([]Remedy, int) {
	type found struct {
		ch  string
		rem Remedy
		vr  versionRelease
	}
	try := func(ext cluster.ClusterExtension) (Remedy, versionRelease, bool) {
		c := r.choose(&ext, nil, false)
		if c.err != nil || !slices.Contains(c.bundle.Provides, api) {
			return Remedy{}, versionRelease{}, false
		}
		version, _ := c.facts.vr.recorded(r.opts.BundleRelease)
		return Remedy{Package: pkg, Bundle: c.bundle.Name, Version: version, Catalog: c.catalog.Name, Extension: &ext}, c.facts.vr, true
	}
	base := cluster.ClusterExtension{Name: pkg, Namespace: pkg, SourceType: "Catalog", Package: pkg}

	// The channels of the package in every catalog, the default channels
	// first.
	var defaults, channels []string
	var providing []semver.Version // versions of the bundles providing api
	var all []semver.Version       // versions of every bundle
	for i := range r.catalogs {
		c := &r.catalogs[i]
		if c.Content == nil {
			continue
		}
		p := c.Content.Package(pkg)
		if p == nil {
			continue
		}
		if p.DefaultChannel != "" {
			defaults = append(defaults, p.DefaultChannel)
		}
		for _, ch := range p.Channels {
			channels = append(channels, ch.Name)
		}
		for j, f := range r.packageFacts(p) {
			if f.vrErr != nil {
				continue
			}
			all = append(all, f.vr.v)
			if slices.Contains(p.Bundles[j].Provides, api) {
				providing = append(providing, f.vr.v)
			}
		}
	}
	slices.Sort(channels)
	channels = slices.Compact(channels)
	var got []found
	for _, ch := range channels {
		ext := base
		ext.Channels = []string{ch}
		if rem, vr, ok := try(ext); ok {
			rem.Kind, rem.Change = RemedyChannel, "channel: "+ch
			got = append(got, found{ch, rem, vr})
		}
	}
	// The default channel first, then the channel whose bundle is highest.
	slices.SortStableFunc(got, func(a, b found) int {
		da, db := slices.Contains(defaults, a.ch), slices.Contains(defaults, b.ch)
		if da != db {
			if da {
				return -1
			}
			return 1
		}
		return cmp.Or(b.vr.compare(a.vr), cmp.Compare(a.ch, b.ch))
	})
	var out []Remedy
	for i, f := range got {
		if i == maxAPIChannels {
			break
		}
		out = append(out, f.rem)
	}
	more := max(len(got)-maxAPIChannels, 0)

	// The highest range: below the lowest version above the highest
	// bundle providing api; else at most that bundle's version.
	if len(providing) > 0 {
		top := slices.MaxFunc(providing, semver.Version.Compare)
		var ranges []string
		var next *semver.Version
		for i := range all {
			if all[i].GT(top) && (next == nil || all[i].LT(*next)) {
				next = &all[i]
			}
		}
		if next != nil {
			ranges = append(ranges, "<"+next.String())
		}
		ranges = append(ranges, "<="+top.String())
		for _, rng := range ranges {
			ext := base
			ext.Version = rng
			if rem, _, ok := try(ext); ok {
				rem.Kind, rem.Change = RemedyVersion, "version: \""+rng+"\""
				out = append(out, rem)
				break
			}
		}
	}
	return out, more
}
