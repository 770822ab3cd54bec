// Package olmv1 resolves OLM v1 ClusterExtensions exactly as
// operator-controller does, and says what operator-controller never says.
//
// It is the v1 entry point beside resolver.Resolver (OLM v0): it reads
// the same catalog model (package graph) and cluster state (package
// cluster), with no SAT solver — OLM v1 installs one package per
// ClusterExtension and resolves no dependencies.
//
// # The choice
//
// The reference is operator-controller's own resolver (its
// internal/operator-controller/resolve package and the filters it uses):
//
//   - the catalogs are the ClusterCatalogs the extension's label selector
//     selects (every catalog carries olm.operatorframework.io/metadata.name;
//     no selector selects all), less those whose availabilityMode is
//     Unavailable; a selected catalog that is not served stops the
//     resolution;
//   - in each, the candidates are the bundles of the package in one of the
//     channels named (all bundles when none is named) whose version is in
//     the version range (Masterminds semver syntax: a pre-release version
//     is in a range only when a bound has a pre-release) and, for an
//     upgrade under the CatalogProvided policy, that follow the installed
//     bundle: a channel entry for it replaces or skips the installed
//     bundle, or its skipRange (blang syntax) holds the installed version,
//     or it has the installed version and release itself;
//   - within a catalog, deprecated bundles (olm.deprecations entries of
//     schema olm.bundle) rank last, then the highest version, then the
//     highest release (registry+v1 bundles keep it in their version's
//     build metadata); equal ones keep their order (by name here);
//   - across catalogs a pick that is not deprecated beats deprecated
//     ones, then the highest catalog priority wins; equal top priority is
//     an error;
//   - a chosen bundle that declares a dependency (olm.package.required,
//     olm.gvk.required, olm.constraint) is refused.
//
// Errors are operator-controller's messages, word for word.
//
// # Beyond v1
//
// [Resolver.Resolve] also returns, for each extension, every bundle passed
// over and the filter that excluded it, the upgrades that will follow on
// the next catalog polls, predictions of what operator-controller refuses
// at install — in its own words (Prediction.V1Message) beside Sextant's:
// owned API services, webhooks without a certificate provider, install
// modes, spec.config.inline against the configuration schema it derives
// from them, the renderer's checks of a CSV manifest the catalog carries, a
// CRD of the state whose stored version the bundle drops (its CRD upgrade
// safety check) — or never checks (minKubeVersion,
// olm.maxOpenShiftVersion), and which of two extensions that install the
// same package or the same API fails. [Outcome.WriteText] renders it;
// its JSON form is documented on [Outcome].
package olmv1
