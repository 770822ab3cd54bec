package sextant_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestRootDependencies: the root package compiles no registry client and
// no CEL: images come through Options.Images, cel rules through
// Options.CEL, so that a program that needs neither links neither.
func TestRootDependencies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, heavy := range []string{"github.com/google/go-containerregistry", "github.com/google/cel-go", "github.com/sextantdev/sextant/catalogimage", "github.com/sextantdev/sextant/celrule", "github.com/spf13/cobra"} {
			if strings.HasPrefix(pkg, heavy) {
				t.Errorf("the root package depends on %s", pkg)
			}
		}
	}
}
