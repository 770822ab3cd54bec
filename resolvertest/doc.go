// Package resolvertest helps test operator resolution, as net/http/httptest
// helps test HTTP handlers: build catalogs and cluster state in code
// ([NewCatalog], [NewState]) and check table-driven [Case]s, or resolve
// them yourself ([NewResolver]), or run scenario files kept in testdata
// ([RunFile], [RunDir]). Results are compared as text
// — the plan as [resolver.Plan.String] prints it, a conflict one fact per
// line, a rollout round by round (see [FormatResult] and [FormatRollout]) —
// and a difference is reported as a line diff ([Diff]).
//
// # Scenario files
//
// A scenario is a txtar archive (the format of the Go toolchain's test
// scripts): a comment, then files each introduced by a line "-- name --".
//
//   - The comment says what the scenario proves and why. It is required.
//   - catalog/<namespace>/<name>.yaml (or .yml, .json): a File-Based
//     Catalog whose identity is namespace/name; or several files under
//     catalog/<namespace>/<name>/, read as one catalog folder. A catalog
//     that does not decode fails the test.
//   - cluster.yaml (or cluster.json), optional: Kubernetes manifests —
//     ClusterServiceVersion, Subscription, CatalogSource, OperatorGroup,
//     InstallPlan — as
//     `kubectl get -o yaml` prints them (several documents, or kind: List).
//     A CatalogSource gives its catalog a priority. A state that does not
//     decode is a result: its error is the text compared with want.
//   - options.yaml, optional: namespace (default "operators"),
//     globalNamespace (default "olm"), rollout (a maximum number of
//     rounds: simulate a rollout instead of resolving once), approve (in a
//     rollout, approve every plan that waits for approval),
//     semverUpgrades, semverAllowMajor, allowInvalid, noCEL (resolve without a cel
//     evaluator; by default cel rules are evaluated by package celrule,
//     as the sextant command does).
//   - want: the expected text. With the Update option it is rewritten.
//   - skip, optional: the reason the scenario is skipped (for a known bug).
//
// Any other file name is an error, so that a typo cannot silently drop an
// input.
//
// The helpers are safe to use from parallel tests as long as each test
// builds its own catalogs and states.
package resolvertest
