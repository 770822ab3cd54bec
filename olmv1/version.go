package olmv1

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	mmsemver "github.com/Masterminds/semver/v3"
	"github.com/blang/semver/v4"

	"github.com/sextantdev/sextant/graph"
)

// versionRelease is a bundle's version as OLM v1 reads it: a strict semver
// version and a release. A registry+v1 bundle's release is the build
// metadata of its version when that metadata reads as a release (dotted
// identifiers, at most 20 characters, no leading zeros); the version then
// loses its build metadata.
type versionRelease struct {
	v   semver.Version
	rel []semver.PRVersion
	// explicit: the release was given apart from the version (an
	// olm.package release field read with BundleReleaseSupport, or an
	// installed bundle's status.install.bundle.release), even empty.
	explicit bool
}

// compare orders versions, then releases: no release is below any release,
// releases compare as semver pre-release identifiers.
func (a versionRelease) compare(b versionRelease) int {
	if c := a.v.Compare(b.v); c != 0 {
		return c
	}
	switch {
	case len(a.rel) == 0 && len(b.rel) > 0:
		return -1
	case len(b.rel) == 0 && len(a.rel) > 0:
		return 1
	}
	return semver.Version{Pre: a.rel}.Compare(semver.Version{Pre: b.rel})
}

// String writes the version with its release as build metadata, as
// operator-controller records an installed bundle's version.
func (a versionRelease) String() string {
	v := a.v
	if len(a.rel) > 0 {
		v.Build = make([]string, len(a.rel))
		for i, p := range a.rel {
			v.Build[i] = p.String()
		}
	}
	return v.String()
}

// maxReleaseLength is the longest release text OLM accepts.
const maxReleaseLength = 20

// parseRelease reads a release: "" is none; otherwise dot-separated
// identifiers, each a semver pre-release identifier.
func parseRelease(s string) ([]semver.PRVersion, error) {
	if s == "" {
		return nil, nil
	}
	if len(s) > maxReleaseLength {
		return nil, fmt.Errorf("invalid release %q: exceeds maximum length of %d characters", s, maxReleaseLength)
	}
	var rel []semver.PRVersion
	var errs []error
	for i, seg := range strings.Split(s, ".") {
		p, err := semver.NewPRVersion(seg)
		if err != nil {
			errs = append(errs, fmt.Errorf("segment %d: %v", i, err))
			continue
		}
		rel = append(rel, p)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("invalid release %q: %v", s, err)
	}
	return rel, nil
}

// parseLegacyVersion reads a registry+v1 version: strict semver, whose
// build metadata is the release when it reads as one.
func parseLegacyVersion(s string) (versionRelease, error) {
	v, err := semver.Parse(s)
	if err != nil {
		return versionRelease{}, err
	}
	vr := versionRelease{v: v}
	if rel, err := parseRelease(strings.Join(v.Build, ".")); err == nil && len(rel) > 0 {
		vr.rel, vr.v.Build = rel, nil
	}
	return vr, nil
}

// parseExplicitRelease reads a version and a release given apart (an
// installed bundle's status.install.bundle.release): the version keeps its
// build metadata.
func parseExplicitRelease(version, release string) (versionRelease, error) {
	v, err := semver.Parse(version)
	if err != nil {
		return versionRelease{}, fmt.Errorf("error parsing version %q: %w", version, err)
	}
	rel, err := parseRelease(release)
	if err != nil {
		return versionRelease{}, fmt.Errorf("error parsing release %q: %w", release, err)
	}
	return versionRelease{v: v, rel: rel, explicit: true}, nil
}

// recorded returns the version and release as operator-controller records
// them in status.install.bundle: without BundleReleaseSupport, the release
// as the version's build metadata and no release; with it, the version
// (with its own build metadata) and the release apart, nil when there is
// none.
func (a versionRelease) recorded(bundleRelease bool) (version string, release *string) {
	if !bundleRelease {
		return a.String(), nil
	}
	if len(a.rel) > 0 || a.explicit {
		parts := make([]string, len(a.rel))
		for i, p := range a.rel {
			parts[i] = p.String()
		}
		r := strings.Join(parts, ".")
		release = &r
	}
	return a.v.String(), release
}

// bundleVersion reads a bundle's version as OLM v1 does: from its first
// olm.package property, strictly (graph reads it tolerantly). With
// bundleRelease (BundleReleaseSupport), a release field, even empty, is the
// release and the version keeps its build metadata; otherwise the build
// metadata is the release when it reads as one.
func bundleVersion(b *graph.Bundle, bundleRelease bool) (versionRelease, error) {
	for _, p := range b.Properties {
		if p.Type != graph.SchemaPackage {
			continue
		}
		// Package is the olm.package property as OLM v1 decodes it: the
		// type's name is part of encoding/json's errors, which v1 reports.
		type Package struct {
			PackageName string `json:"packageName"`
			Version     string `json:"version"`
			Release     string `json:"release,omitzero"`
		}
		var pkg Package
		if err := json.Unmarshal(p.Value, &pkg); err != nil {
			return versionRelease{}, fmt.Errorf("error unmarshalling package property: %w", err)
		}
		var rel struct {
			Release *string `json:"release"`
		}
		if err := json.Unmarshal(p.Value, &rel); err != nil {
			return versionRelease{}, fmt.Errorf("error unmarshalling package release field: %w", err)
		}
		if bundleRelease && rel.Release != nil {
			return parseExplicitRelease(pkg.Version, *rel.Release)
		}
		return parseLegacyVersion(pkg.Version)
	}
	return versionRelease{}, fmt.Errorf("no package property found in bundle %q", b.Name)
}

// Range is a ClusterExtension's version range: Masterminds semver syntax,
// as OLM v1 reads spec.source.catalog.version. The zero value contains
// every version.
type Range struct {
	text string
	c    *mmsemver.Constraints
}

// ParseRange parses a version range in Masterminds syntax (">=1.2, <2",
// "~1.2", "1.x", "1.2.3 || 2.0.0"); its error is the library's.
func ParseRange(s string) (Range, error) {
	c, err := mmsemver.NewConstraint(s)
	if err != nil {
		return Range{text: s}, err
	}
	return Range{text: s, c: c}, nil
}

// String returns the range as written.
func (r Range) String() string { return r.text }

// contains reports whether vr's version is in the range, as v1 checks it:
// the version (its build metadata included unless it was read as a
// release) converted to a Masterminds version. A pre-release version is in
// a range only when a bound of the range has a pre-release.
func (r Range) contains(vr versionRelease) bool {
	if r.c == nil {
		return true
	}
	pre := make([]string, len(vr.v.Pre))
	for i, p := range vr.v.Pre {
		pre[i] = p.String()
	}
	m := mmsemver.New(vr.v.Major, vr.v.Minor, vr.v.Patch, strings.Join(pre, "."), strings.Join(vr.v.Build, "."))
	return r.c.Check(m)
}
