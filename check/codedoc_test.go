package check

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// parseCodeTables reads the code tables of CHECKS.md: every table whose
// header starts with "code | severity" and ends with a "what ..." column,
// one row per code. The severity is the cell's first word; the check
// column, when there is one, names the check, else it is "baseline".
func parseCodeTables(t *testing.T, md []byte) []CodeDoc {
	t.Helper()
	var out []CodeDoc
	in := false
	checkCol := false
	for _, line := range strings.Split(string(md), "\n") {
		if !strings.HasPrefix(line, "|") {
			in = false
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if len(cells) >= 3 && cells[0] == "code" && cells[1] == "severity" && strings.HasPrefix(cells[len(cells)-1], "what ") {
			in, checkCol = true, len(cells) == 4
			continue
		}
		if !in || strings.HasPrefix(cells[0], "---") {
			continue
		}
		code, ok := strings.CutPrefix(cells[0], "`")
		code, ok2 := strings.CutSuffix(code, "`")
		if !ok || !ok2 || strings.ContainsAny(code, "` *") {
			t.Fatalf("CHECKS.md: a code table row does not start with one `code`: %q", line)
		}
		d := CodeDoc{Code: code, Help: cells[len(cells)-1]}
		sev, _, _ := strings.Cut(cells[1], " ")
		if err := d.Severity.UnmarshalText([]byte(sev)); err != nil {
			t.Fatalf("CHECKS.md: code %s: severity %q: %v", code, cells[1], err)
		}
		d.Check = "baseline" // the regressions of a baseline comparison
		if checkCol {
			d.Check = cells[2]
		}
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b CodeDoc) int { return strings.Compare(a.Code, b.Code) })
	return out
}

// codeConstants returns the values of the constants named Code... in the
// non-test Go files of dir.
func codeConstants(t *testing.T, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if !strings.HasPrefix(n.Name, "Code") || i >= len(vs.Values) {
						continue
					}
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						s, _ := strconv.Unquote(lit.Value)
						out = append(out, s)
					}
				}
			}
		}
	}
	return out
}

// TestCodeDocs checks that codedocs.go is what CHECKS.md says (go test
// -run CodeDocs -update rewrites it) and that every code constant of
// graph and check is documented there, and nothing else.
func TestCodeDocs(t *testing.T) {
	md, err := os.ReadFile(filepath.Join("..", "CHECKS.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs := parseCodeTables(t, md)
	var b bytes.Buffer
	b.WriteString("// Code generated from the code tables of CHECKS.md by TestCodeDocs (go test ./check -run CodeDocs -update); DO NOT EDIT.\n\npackage check\n\nimport \"github.com/sextantdev/sextant/graph\"\n\nvar codeDocs = []CodeDoc{\n")
	sevNames := map[string]string{"error": "graph.SeverityError", "warning": "graph.SeverityWarning", "info": "graph.SeverityInfo"}
	for _, d := range docs {
		fmt.Fprintf(&b, "\t{Code: %q, Severity: %s, Check: %q, Help: %q},\n", d.Code, sevNames[d.Severity.String()], d.Check, d.Help)
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("codedocs.go", src, 0o644); err != nil {
			t.Fatal(err)
		}
	} else if have, err := os.ReadFile("codedocs.go"); err != nil || !bytes.Equal(have, src) {
		t.Errorf("codedocs.go is not what CHECKS.md says (go test ./check -run CodeDocs -update rewrites it; err %v)", err)
	}
	var documented []string
	for i, d := range docs {
		if i > 0 && docs[i-1].Code == d.Code {
			t.Errorf("CHECKS.md documents %s twice", d.Code)
		}
		documented = append(documented, d.Code)
	}
	consts := append(codeConstants(t, "."), codeConstants(t, filepath.Join("..", "graph"))...)
	slices.Sort(consts)
	consts = slices.Compact(consts)
	for _, c := range consts {
		if !slices.Contains(documented, c) {
			t.Errorf("code %s has no row in a code table of CHECKS.md", c)
		}
	}
	for _, c := range documented {
		if !slices.Contains(consts, c) {
			t.Errorf("CHECKS.md documents %s, which no Code constant of graph or check has", c)
		}
	}
}
