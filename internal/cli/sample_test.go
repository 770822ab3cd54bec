package cli

import (
	"strings"
	"testing"
)

// realCatalogs are the shipped real catalogs: each command that reads one
// spends about a second decoding it, three under the race detector.
var realCatalogs = []string{"community-operators-prod", "certified-operators"}

// raceSample is how many of the commands that read a real catalog run
// under -race -short: one in raceSample.
const raceSample = 8

// sampleUnderRace skips the i-th command that reads a real catalog under
// -race -short, but for one in raceSample. The race detector looks for
// concurrent access, which every such command exercises the same way
// (the catalog decoder's goroutines, the manifest pipeline); the plain
// run has already run them all and compared their output. Commands that
// read no real catalog always run.
func sampleUnderRace(t *testing.T, args string, i *int) {
	t.Helper()
	if !raceEnabled || !testing.Short() {
		return
	}
	real := false
	for _, c := range realCatalogs {
		real = real || strings.Contains(args, c)
	}
	if !real {
		return
	}
	*i++
	if (*i-1)%raceSample != 0 {
		t.Skipf("reads a real catalog: under -race -short one in %d such commands runs", raceSample)
	}
}
