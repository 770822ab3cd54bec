package catalogimage_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestCoreDoesNotCompileRegistryClient checks that a controller importing
// resolver, graph or cluster compiles no registry client: only this
// package (and the CLI) do.
func TestCoreDoesNotCompileRegistryClient(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "../resolver", "../graph", "../cluster").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, heavy := range []string{"github.com/google/go-containerregistry", "github.com/docker/", "github.com/opencontainers/", "github.com/klauspost/", "github.com/sextantdev/sextant/catalogimage"} {
			if strings.HasPrefix(pkg, heavy) {
				t.Errorf("resolver, graph or cluster depends on %s", pkg)
			}
		}
	}
}
