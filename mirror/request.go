package mirror

import (
	"fmt"
	"strings"

	"github.com/sextantdev/sextant/graph"
)

// Request is what a cluster yet to be built needs from the catalogs,
// beside the world's namespaces (the cluster that exists).
type Request struct {
	// Packages are the packages a cluster yet to be built will subscribe
	// to, each in a namespace of its own.
	Packages []PackageRequest
}

// PackageRequest is one package a cluster yet to be built subscribes to:
// in Channel (the package's default channel when empty), starting at the
// channel's head, or, with a Range, at any version of the channel in the
// range and upgrading from there as long as the upgrades stay in the
// range.
type PackageRequest struct {
	Package string
	Channel string
	// Range is the versions the cluster may run; the zero Range (not
	// Valid) means a new subscription, which installs the channel's head.
	Range graph.Range
}

// ParsePackageRequest reads NAME[:CHANNEL][@RANGE], the form of the
// command line's --package: "cert-manager", "cert-manager:stable",
// "cert-manager@>=1.16.0 <1.17.0", "cert-manager:stable@>=1.16.0". RANGE is
// a semver range as OLM writes skipRange and olm.package.required.
func ParsePackageRequest(s string) (PackageRequest, error) {
	var p PackageRequest
	rest, rng, hasRange := strings.Cut(s, "@")
	name, channel, hasChannel := strings.Cut(rest, ":")
	switch {
	case strings.TrimSpace(name) == "":
		return p, fmt.Errorf("package %q: no package name (want NAME[:CHANNEL][@RANGE])", s)
	case hasChannel && channel == "":
		return p, fmt.Errorf("package %q: empty channel after %q (want NAME[:CHANNEL][@RANGE])", s, name+":")
	case hasRange && strings.TrimSpace(rng) == "":
		return p, fmt.Errorf("package %q: empty version range after %q (want NAME[:CHANNEL][@RANGE])", s, rest+"@")
	}
	p.Package, p.Channel = name, channel
	if hasRange {
		r, err := graph.ParseRange(rng)
		if err != nil {
			return p, fmt.Errorf("package %q: %w", s, err)
		}
		p.Range = r
	}
	return p, nil
}

// String returns the request as ParsePackageRequest reads it.
func (p PackageRequest) String() string {
	s := p.Package
	if p.Channel != "" {
		s += ":" + p.Channel
	}
	if p.Range.Valid() {
		s += "@" + p.Range.String()
	}
	return s
}
