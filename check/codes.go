package check

// The codes of the findings this package adds to the structural ones of
// graph.Catalog.Validate. Codes are stable: tools may match on them.
const (
	// CodeNoUpgradePath (warning): a channel entry from which the channel
	// head cannot be reached along the channel's replaces, skips and
	// skipRange edges; a cluster running it is stranded. When a channel has
	// several heads, its head is the first head in the channel's order (the
	// one a new subscription gets).
	CodeNoUpgradePath = "no-upgrade-path"
	// CodeDowngradeEdge (warning): an upgrade edge — replaces, skips or a
	// skipRange match — that leads to a lower version.
	CodeDowngradeEdge = "downgrade-edge"
	// CodeSkipRangeMatchesNothing (info): a valid skipRange that contains
	// the version of no other entry of its channel, so it creates no edge
	// in this catalog.
	CodeSkipRangeMatchesNothing = "skip-range-matches-nothing"
	// CodeCrossPackageEdge (warning): replaces or skips naming a bundle that
	// is not in the entry's package but is a bundle of another package.
	CodeCrossPackageEdge = "cross-package-edge"
	// CodeDefaultChannelDeprecated (warning): the package is not
	// deprecated but its default channel is.
	CodeDefaultChannelDeprecated = "default-channel-deprecated"
	// CodeDefaultChannelHeadDeprecated (warning): the package is not
	// deprecated but the head of its default channel is (by olm.deprecations
	// or the olm.deprecated property): new subscriptions get a deprecated
	// bundle, or nothing.
	CodeDefaultChannelHeadDeprecated = "default-channel-head-deprecated"
	// CodeSatisfiedByOtherCatalog (info): with several catalogs, a
	// requirement of a bundle that no candidate of its own catalog meets and
	// another catalog's candidates do. Candidates are the bundles the
	// resolver may select: not deprecated, on the replacement chain of a
	// channel, skipped by no entry. The bundle's installability finding, if
	// any, says it cannot be installed from its catalog alone; this finding
	// says where the requirement can be met.
	CodeSatisfiedByOtherCatalog = "satisfied-by-other-catalog"
	// CodeHeadNotInstallable (error): the head of a channel cannot be
	// installed on an empty cluster from its catalog alone — with several
	// catalogs, nor from all of them, and the explanation is then theirs.
	// The finding carries the resolver's explanation. A bundle that heads
	// several channels gets one finding, on its first channel.
	CodeHeadNotInstallable = "head-not-installable"
	// CodeNotInstallable (warning): a channel entry that heads no channel
	// cannot be installed on an empty cluster from its catalog alone (for
	// example with a startingCSV). The finding carries the resolver's
	// explanation.
	CodeNotInstallable = "not-installable"
	// CodeEmptyCatalog (error, structural): a catalog with no blob at all
	// (an empty file, a folder with no catalog file, an image whose
	// catalog folder holds none). opm serve and catalogd accept it and
	// serve nothing, so clusters see no package of it; in CI it is almost
	// always a wrong path or a render that failed, hence an error of
	// Sextant's own.
	CodeEmptyCatalog = "empty-catalog"
)
