package cli

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sextantdev/sextant/catalogimage"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

// TestFlagAdvice checks the CLI's advice for the library's typed errors:
// found through wrapping and joins, per command, and only for a flag the
// command has.
func TestFlagAdvice(t *testing.T) {
	invalid := fmt.Errorf("subscription %q: %w", "a", &resolver.CatalogError{
		Catalog: resolver.CatalogKey{Namespace: "olm", Name: "c"}, Package: "a",
		Err: &resolver.InvalidPackageError{Finding: graph.Finding{Package: "a", Code: "multiple-heads", Message: "two heads"}},
	})
	sqlite := &catalogimage.Error{Reference: catalogimage.Reference{Text: "quay.io/x/index:v1", Image: "quay.io/x/index:v1"}, Err: &catalogimage.NotCatalogError{SQLite: true}}
	notCatalog := &catalogimage.Error{Reference: catalogimage.Reference{Text: "quay.io/x/y:v1", Image: "quay.io/x/y:v1"}, Err: &catalogimage.NotCatalogError{}}
	plain := fmt.Errorf("pulling: %w", &catalogimage.PlainHTTPError{Registry: "127.0.0.1:5000"})
	tests := []struct {
		name   string
		cmd    string
		err    error
		want   string
		reason string
	}{
		{"invalid resolve", "resolve", invalid, "; resolve with --allow-invalid to leave the package out", ""},
		{"invalid rollout", "rollout", invalid, "; resolve with --allow-invalid to leave the package out", ""},
		{"invalid migrate", "migrate", invalid, "; resolve with --allow-invalid to leave the package out", ""},
		{"invalid mirror", "mirror", invalid, "", "mirror has no --allow-invalid: no advice it cannot follow"},
		{"sqlite resolve", "resolve", sqlite, ", or give the FBC with --catalog", ""},
		{"sqlite check", "check", sqlite, ", or give the FBC (a file or folder) instead", "check takes its catalogs as arguments, not --catalog"},
		{"not a catalog", "resolve", notCatalog, "", "only an SQLite index has an FBC to give instead"},
		{"plain HTTP", "resolve", plain, "; --insecure 127.0.0.1:5000 allows it", ""},
		{"plain HTTP check", "check", plain, "; --insecure 127.0.0.1:5000 allows it", "--insecure is a flag of every command"},
		{"untyped", "resolve", errors.New("x.json: bad"), "", "no type, no advice"},
	}
	root := newRootCmd(&env{images: &imageFlags{}})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd, _, err := root.Find([]string{tt.cmd})
			if err != nil || cmd.Name() != tt.cmd {
				t.Fatalf("no command %q: %v", tt.cmd, err)
			}
			if got := flagAdvice(cmd, tt.err); got != tt.want {
				t.Errorf("flagAdvice(%s, %v) = %q, want %q (%s)", tt.cmd, tt.err, got, tt.want, tt.reason)
			}
		})
	}
	// In a report, each line of a joined error gets its own advice.
	cmd, _, _ := root.Find([]string{"resolve"})
	lines := errorLines(errors.Join(invalid, errors.New("y.json: bad")), func(e error) string { return flagAdvice(cmd, e) })
	if len(lines) != 2 || lines[1] != "y.json: bad" || lines[0] != invalid.Error()+"; resolve with --allow-invalid to leave the package out" {
		t.Errorf("errorLines = %q", lines)
	}
}

// TestLibraryNamesNoFlag scans the string literals of every library
// package (everything but the CLI, its main package and the examples) for
// a flag of any sextant command, by its name (--full) or its shorthand as
// a word of its own (-A; a string naming kubectl is kubectl's advice): the
// library's messages state facts, and the CLI adds the advice that names
// a flag (flagAdvice, the notes).
func TestLibraryNamesNoFlag(t *testing.T) {
	flags := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		add := func(f *pflag.Flag) {
			flags["--"+f.Name] = true
			if f.Shorthand != "" {
				flags["-"+f.Shorthand] = true
			}
		}
		c.Flags().VisitAll(add)
		c.PersistentFlags().VisitAll(add)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(&env{images: &imageFlags{}}))
	delete(flags, "--help") // "kubectl --help" and the like are not advice about sextant
	delete(flags, "-h")
	flagRE := regexp.MustCompile(`--[a-z][a-z0-9-]*`)
	// A shorthand (-n, -A, -f) is a word of its own; one in a string that
	// names kubectl (kubectl get csv -n NS -o yaml) is kubectl's.
	shortRE := regexp.MustCompile("(?:^|[\\s(`'\"])(-[a-zA-Z])(?:[\\s)`'\"]|$)")
	top := "." // TestMain runs the tests from the module root
	skip := map[string]bool{"internal/cli": true, "cmd": true, "examples": true, "testdata": true, ".git": true,
		"internal/schemagen": true, "internal/genscale": true, "internal/fuzzall": true, "internal/imagetest": true}
	fset := token.NewFileSet()
	err := filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(top, path)
		if d.IsDir() {
			if skip[filepath.ToSlash(rel)] {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				for _, m := range flagRE.FindAllString(lit.Value, -1) {
					if flags[m] {
						t.Errorf("%s: a library string names the flag %s: %s", fset.Position(lit.Pos()), m, lit.Value)
					}
				}
				if v, err := strconv.Unquote(lit.Value); err == nil && !strings.Contains(v, "kubectl") {
					for _, m := range shortRE.FindAllStringSubmatch(v, -1) {
						if flags[m[1]] {
							t.Errorf("%s: a library string names the flag %s: %s", fset.Position(lit.Pos()), m[1], lit.Value)
						}
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
