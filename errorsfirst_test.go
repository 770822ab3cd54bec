package sextant_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"iter"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestErrorsFirst holds every call site in the repository (library, CLI,
// examples, tests, olmapi) to the rule of resolver's package doc, "Errors
// first": a value that an exported function or method of the module
// returned with an error is not read before that error is checked.
//
// After `v, err := f(…)` (or `if v, err := f(…); cond`), the first later
// statement of the same block that names v or err must name err first
// (`if err != nil`, `switch { case errors.As(err, …) }`, `if err != nil &&
// v == nil`), or hand both on together: return them (`return v, err`,
// `return v, fmt.Errorf("…: %w", err)`) or pass them to one call
// (`CheckResult(t, res.Plan(), err, want)`). f is found from the syntax
// alone: pkg.F of one of the module's packages, F of the file's own
// package, or x.M where M is the name of an exported method of the module
// that returns an error last.
func TestErrorsFirst(t *testing.T) {
	const module = "github.com/sextantdev/sextant"
	fset := token.NewFileSet()
	var files []goFile
	for p, f := range moduleGoFiles(t, fset) {
		dir := path.Join(module, filepath.ToSlash(filepath.Dir(p)))
		files = append(files, goFile{dir, f, strings.HasSuffix(p, "_test.go")})
	}
	for _, p := range errorsFirst(fset, module, files) {
		t.Error(p)
	}
}

// moduleGoFiles parses every Go file of the module (olmapi included; not
// under testdata or folders starting with "." or "_") and yields each
// with its path; it fails t when one does not parse, or when fewer than
// 100 are found (the test is not run from the module root).
func moduleGoFiles(t *testing.T, fset *token.FileSet) iter.Seq2[string, *ast.File] {
	t.Helper()
	var paths []string
	var files []*ast.File
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		paths, files = append(paths, p), append(files, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Fatalf("%d Go files read: not the module root", len(files))
	}
	return func(yield func(string, *ast.File) bool) {
		for i, p := range paths {
			if !yield(p, files[i]) {
				return
			}
		}
	}
}

// goFile is one parsed Go file and the import path of its folder.
type goFile struct {
	dir  string
	ast  *ast.File
	test bool
}

// errorsFirst returns, sorted, the values of files read before their
// error is checked (see TestErrorsFirst); module is the module path.
func errorsFirst(fset *token.FileSet, module string, files []goFile) []string {
	// The module's API that returns an error last: functions by package
	// and name, methods by name.
	funcs := map[string]bool{}   // "import/path.Name"
	methods := map[string]bool{} // "Name"
	pkgName := map[string]string{}
	for _, f := range files {
		if f.test || f.ast.Name.Name == "main" {
			continue
		}
		pkgName[f.dir] = f.ast.Name.Name
		if strings.Contains(f.dir+"/", "/internal/") {
			continue
		}
		for _, d := range f.ast.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !fd.Name.IsExported() || !returnsError(fd.Type) {
				continue
			}
			if fd.Recv == nil {
				funcs[f.dir+"."+fd.Name.Name] = true
			} else if recvExported(fd.Recv) {
				methods[fd.Name.Name] = true
			}
		}
	}

	var problems []string
	for _, f := range files {
		imports := map[string]string{} // local name -> module package path
		for _, im := range f.ast.Imports {
			p := strings.Trim(im.Path.Value, `"`)
			if p != module && !strings.HasPrefix(p, module+"/") {
				continue
			}
			name := pkgName[p]
			if im.Name != nil {
				name = im.Name.Name
			}
			imports[name] = p
		}
		own := f.ast.Name.Name == pkgName[f.dir]
		callee := func(call *ast.CallExpr) string {
			switch fn := ast.Unparen(call.Fun).(type) {
			case *ast.Ident:
				if own && funcs[f.dir+"."+fn.Name] {
					return fn.Name
				}
			case *ast.SelectorExpr:
				if x, ok := fn.X.(*ast.Ident); ok {
					if p, ok := imports[x.Name]; ok {
						if funcs[p+"."+fn.Sel.Name] {
							return x.Name + "." + fn.Sel.Name
						}
						return ""
					}
				}
				if methods[fn.Sel.Name] {
					return "(…)." + fn.Sel.Name
				}
			}
			return ""
		}
		check := func(as *ast.AssignStmt, next []ast.Node) {
			if len(as.Lhs) < 2 || len(as.Rhs) != 1 {
				return
			}
			call, ok := as.Rhs[0].(*ast.CallExpr)
			if !ok {
				return
			}
			name := callee(call)
			errID, ok := as.Lhs[len(as.Lhs)-1].(*ast.Ident)
			if name == "" || !ok || errID.Name == "_" {
				return
			}
			vals := map[string]bool{}
			for _, l := range as.Lhs[:len(as.Lhs)-1] {
				if id, ok := l.(*ast.Ident); ok && id.Name != "_" && id.Name != errID.Name {
					vals[id.Name] = true
				}
			}
			if len(vals) == 0 {
				return
			}
			for _, n := range next {
				first := firstMention(n, errID.Name, vals)
				switch {
				case first == nil:
					continue
				case first.Name == errID.Name, handsOn(n, errID.Name, first):
					return
				}
				problems = append(problems, fmt.Sprintf("%s: %s (from %s) read before %s is checked", fset.Position(first.Pos()), first.Name, name, errID.Name))
				return
			}
		}
		ast.Inspect(f.ast, func(n ast.Node) bool {
			var list []ast.Stmt
			switch b := n.(type) {
			case *ast.BlockStmt:
				list = b.List
			case *ast.CaseClause:
				list = b.Body
			case *ast.CommClause:
				list = b.Body
			case *ast.IfStmt:
				if as, ok := b.Init.(*ast.AssignStmt); ok {
					check(as, []ast.Node{b.Cond})
				}
				return true
			default:
				return true
			}
			for i, st := range list {
				if as, ok := st.(*ast.AssignStmt); ok {
					var next []ast.Node
					for _, s := range list[i+1:] {
						next = append(next, s)
					}
					check(as, next)
				}
			}
			return true
		})
	}
	sort.Strings(problems)
	return problems
}

// returnsError reports whether a function type has two results or more,
// the last an error.
func returnsError(ft *ast.FuncType) bool {
	if ft.Results == nil {
		return false
	}
	n := 0
	for _, r := range ft.Results.List {
		n += max(len(r.Names), 1)
	}
	last, ok := ft.Results.List[len(ft.Results.List)-1].Type.(*ast.Ident)
	return n >= 2 && ok && last.Name == "error"
}

// recvExported reports whether a method's receiver type is exported.
func recvExported(recv *ast.FieldList) bool {
	typ := recv.List[0].Type
	for {
		switch x := typ.(type) {
		case *ast.StarExpr:
			typ = x.X
		case *ast.IndexExpr:
			typ = x.X
		case *ast.IndexListExpr:
			typ = x.X
		case *ast.Ident:
			return x.IsExported()
		default:
			return false
		}
	}
}

// firstMention returns the first identifier of n, in source order, that is
// the error or one of the values, or nil.
func firstMention(n ast.Node, errName string, vals map[string]bool) *ast.Ident {
	var first *ast.Ident
	ast.Inspect(n, func(m ast.Node) bool {
		if first != nil {
			return false
		}
		if sel, ok := m.(*ast.SelectorExpr); ok {
			ast.Inspect(sel.X, func(m ast.Node) bool {
				if first != nil {
					return false
				}
				if id, ok := m.(*ast.Ident); ok && (id.Name == errName || vals[id.Name]) {
					first = id
				}
				return true
			})
			return false // sel.Sel is a field or method name, not a variable
		}
		if id, ok := m.(*ast.Ident); ok && (id.Name == errName || vals[id.Name]) {
			first = id
		}
		return true
	})
	return first
}

// handsOn reports whether the statement n hands the value first read and
// the error on together: a return that names both, or a call or composite
// literal that takes the error as an argument or element and reads the
// value in another one.
func handsOn(n ast.Node, errName string, first *ast.Ident) bool {
	if ret, ok := n.(*ast.ReturnStmt); ok {
		for _, r := range ret.Results {
			if mentions(r, errName) {
				return true
			}
		}
		return false
	}
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		var args []ast.Expr
		switch x := m.(type) {
		case *ast.CallExpr:
			args = x.Args
		case *ast.CompositeLit:
			args = x.Elts // memoized together: cache[k] = result{v, err}
		default:
			return !found
		}
		hasErr, hasVal := false, false
		for _, a := range args {
			if kv, ok := a.(*ast.KeyValueExpr); ok {
				a = kv.Value
			}
			if id, ok := a.(*ast.Ident); ok && id.Name == errName {
				hasErr = true
			}
			if a.Pos() <= first.Pos() && first.End() <= a.End() {
				hasVal = true
			}
		}
		found = hasErr && hasVal
		return !found
	})
	return found
}

// mentions reports whether n names the identifier name.
func mentions(n ast.Node, name string) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if id, ok := m.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// TestErrorsFirstRule holds the rule's reading to small cases: what it
// reports and what it lets through.
func TestErrorsFirstRule(t *testing.T) {
	const api = `package r

type Resolver struct{}
type Resolution struct{ N int }

func (*Resolver) Resolve() (*Resolution, error) { return nil, nil }
func Load() (*Resolver, int, error)            { return nil, 0, nil }
func (*Resolution) Plan() *Resolution           { return nil }
`
	tests := []struct {
		name, body string
		want       string // the problem's "value (from callee)", "" for none
	}{
		{"value read first", "res, err := x.Resolve()\n_ = res.Plan()\nif err != nil {\n\treturn nil, nil\n}", "res (from (…).Resolve)"},
		{"nil check first", "res, err := x.Resolve()\nif res == nil {\n\treturn nil, nil\n}\n_ = err", "res (from (…).Resolve)"},
		{"package function", "w, n, err := r.Load()\n_ = n\n_, _ = w, err", "n (from r.Load)"},
		{"if with init", "if res, err := x.Resolve(); res != nil || err != nil {\n}", "res (from (…).Resolve)"},
		{"error first", "res, err := x.Resolve()\nif err != nil {\n\treturn nil, nil\n}\n_ = res.Plan()", ""},
		{"no value then", "res, err := x.Resolve()\nif err != nil && res == nil {\n\treturn nil, nil\n}\n_ = res.N", ""},
		{"returned together", "res, err := x.Resolve()\nreturn res.Plan(), err", ""},
		{"read in a closure", "res, err := x.Resolve()\n_ = func() int { return res.N }\n_ = err", "res (from (…).Resolve)"},
		{"handed on in one call", "res, err := x.Resolve()\ncheck(res.Plan(), err)", ""},
		{"kept in one value", "res, err := x.Resolve()\n_ = pair{res, err}", ""},
		{"field named like the value", "res, err := x.Resolve()\n_ = y.res\nif err != nil {\n}\n_ = res", ""},
		{"other package's call", "n, err := strconv.Atoi(\"1\")\n_ = n\n_ = err", ""},
		{"blank error", "res, _ := x.Resolve()\n_ = res", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "package c\n\nimport (\n\t\"strconv\"\n\n\t\"example.com/m/r\"\n)\n\nvar _ = strconv.Itoa\n\nfunc check(*r.Resolution, error) {}\n\ntype pair struct {\n\tv *r.Resolution\n\terr error\n}\n\nfunc f(x *r.Resolver, y struct{ res int }) (*r.Resolution, error) {\n" + tt.body + "\nreturn nil, nil\n}\n"
			fset := token.NewFileSet()
			var files []goFile
			for _, f := range []struct{ dir, src string }{{"example.com/m/r", api}, {"example.com/m/c", src}} {
				a, err := parser.ParseFile(fset, f.dir+"/x.go", f.src, parser.SkipObjectResolution)
				if err != nil {
					t.Fatalf("%v\n%s", err, f.src)
				}
				files = append(files, goFile{f.dir, a, false})
			}
			got := errorsFirst(fset, "example.com/m", files)
			switch {
			case tt.want == "" && len(got) > 0:
				t.Errorf("reported %q, want nothing", got)
			case tt.want != "" && (len(got) != 1 || !strings.Contains(got[0], ": "+tt.want+" read before err")):
				t.Errorf("reported %q, want one problem %q", got, tt.want)
			}
		})
	}
}
