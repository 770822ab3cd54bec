// Package catalogci shows the test a catalog repository runs in CI so that
// it never publishes a catalog whose bundles cannot be installed or
// upgraded: catalog_test.go loads the catalog, runs every Sextant check
// (structure, upgrade reachability, edge direction, skipRanges,
// deprecations, installability) and fails with the findings grouped by
// package when any is a warning or an error.
//
// Copy catalog_test.go into the repository (any package will do), point
// -catalog at the catalog folder or file and run it in CI:
//
//	go test ./ci -catalog ../catalog
//
// Here it runs on a small consistent catalog, testdata/good. To see a
// failure, run it on the broken one:
//
//	go test ./examples/catalogci -run TestCatalog -catalog testdata/bad
//
// which fails with the findings of testdata/bad/catalog.yaml, as
// testdata/bad.golden shows (TestFailureReports keeps that file current).
//
// A catalog with known problems can still gate its pull requests on what
// each change introduces: give -baseline the catalog as the target branch
// has it, and the test fails only on the change's regressions (a channel,
// head or bundle removed, a default channel changed, an upgrade path lost,
// an upgrade that drops an API or an install mode, ...) and on findings the
// baseline had not:
//
//	git worktree add /tmp/base origin/main
//	go test ./ci -catalog ../catalog -baseline /tmp/base/catalog
//
// Here testdata/next is such a change of testdata/good:
//
//	go test ./examples/catalogci -run TestCatalog -catalog testdata/next -baseline testdata/good
//
// fails with the three findings of testdata/next.golden (TestFailureReports
// keeps that file current). sextant check --baseline OLD NEW --fail-on-new
// does the same from the command line, and -o markdown writes the report
// as a pull-request comment.
//
// workflow.yaml is the same gate as a GitHub Actions job that needs no Go
// test in the repository: sextant check --baseline git:origin/BRANCH reads
// the target branch's catalog through git, -o sarif feeds code scanning
// (github/codeql-action/upload-sarif), and --fail-on-new fails the job on
// what the pull request introduces. TestWorkflow runs its sextant commands
// on a repository made in the test.
package catalogci
