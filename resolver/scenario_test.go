package resolver_test

import (
	"flag"
	"testing"

	"github.com/sextantdev/sextant/resolvertest"
)

var update = flag.Bool("update", false, "rewrite the want file of every scenario in testdata/scenarios")

// TestScenario runs the scenario files of testdata/scenarios (format:
// testdata/README.md); -update rewrites their want files.
func TestScenario(t *testing.T) {
	resolvertest.RunDir(t, "../testdata/scenarios", resolvertest.Update(*update))
}
