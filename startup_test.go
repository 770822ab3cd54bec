package sextant_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestNothingCompiledAtStartup holds the module's packages to issue 41's
// "commands pay only for what they use at start-up": no package-level
// variable of a library or command file is initialised by compiling a
// regular expression (regexp.MustCompile or regexp.Compile), since Go
// runs every linked package's initialisers for every command. Compile on
// first use (sync.OnceValue) instead. Test files and the repository's
// own tools under internal/fuzzall (a program run by hand) are exempt.
func TestNothingCompiledAtStartup(t *testing.T) {
	fset := token.NewFileSet()
	for p, f := range moduleGoFiles(t, fset) {
		slash := filepath.ToSlash(p)
		if strings.HasSuffix(p, "_test.go") || strings.HasPrefix(slash, "internal/fuzzall/") {
			continue
		}
		for _, where := range startupCompiles(fset, f) {
			t.Errorf("%s: a regular expression compiled at package initialisation; compile it on first use", where)
		}
	}
}

// startupCompiles returns the places in f where a package-level var's
// value calls regexp.MustCompile or regexp.Compile directly (not inside a
// function literal, which runs later).
func startupCompiles(fset *token.FileSet, f *ast.File) []string {
	var out []string
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, spec := range g.Specs {
			for _, v := range spec.(*ast.ValueSpec).Values {
				ast.Inspect(v, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.FuncLit:
						return false
					case *ast.CallExpr:
						if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
							if id, ok := sel.X.(*ast.Ident); ok && id.Name == "regexp" &&
								(sel.Sel.Name == "MustCompile" || sel.Sel.Name == "Compile") {
								out = append(out, fset.Position(n.Pos()).String())
							}
						}
					}
					return true
				})
			}
		}
	}
	return out
}

// TestStartupCompilesFound keeps TestNothingCompiledAtStartup able to
// fail: it finds the forms it must find and leaves the lazy ones alone.
func TestStartupCompilesFound(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want int
	}{
		{"eager", "package p\nimport \"regexp\"\nvar rx = regexp.MustCompile(`a`)\n", 1},
		{"eager in a block", "package p\nimport \"regexp\"\nvar (\n\ta = 1\n\trx, _ = regexp.Compile(`a`)\n)\n", 1},
		{"eager in a map", "package p\nimport \"regexp\"\nvar m = map[string]*regexp.Regexp{\"a\": regexp.MustCompile(`a`)}\n", 1},
		{"lazy", "package p\nimport (\"regexp\"; \"sync\")\nvar rx = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`a`) })\n", 0},
		{"in a function", "package p\nimport \"regexp\"\nfunc f() { _ = regexp.MustCompile(`a`) }\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "p.go", tt.src, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got := startupCompiles(fset, f); len(got) != tt.want {
				t.Errorf("found %v, want %d", got, tt.want)
			}
		})
	}
}
