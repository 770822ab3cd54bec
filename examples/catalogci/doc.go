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
// testdata/bad.golden shows (TestBadCatalog keeps that file current).
package catalogci
