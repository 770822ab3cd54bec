package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the expected exit, stdout and stderr of testdata/cli/cases/*.txtar")

// TestMain runs the tests from the module root, so that paths in the cases
// and in the golden output read as they would in the README.
func TestMain(m *testing.M) {
	flag.Parse()
	if err := os.Chdir(filepath.Join("..", "..")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// run runs sextant in-process.
func run(stdin string, args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = Run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

// TestCases runs every testdata/cli/cases/*.txtar: the comment says what
// the case shows, "args" holds the arguments (split at white space),
// optional "stdin" the standard input; "exit", "stdout" and "stderr" are
// the expected results, rewritten by -update.
func TestCases(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "cli", "cases", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no cases in testdata/cli/cases")
	}
	heavy := 0
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			a := txtar.Parse(data)
			argsText, ok := a.Get("args")
			if !ok {
				t.Fatalf("%s: no args file", file)
			}
			// A SARIF log names files relative to the top of the git work
			// tree; a copy of the module outside one writes other URIs.
			if strings.Contains(string(argsText), "-o sarif") && workTreeTop(".") == "" {
				t.Skip("not in a git work tree, which SARIF locations are relative to")
			}
			sampleUnderRace(t, string(argsText), &heavy)
			stdin, _ := a.Get("stdin")
			stdout, stderr, code := run(string(stdin), strings.Fields(string(argsText))...)
			// The repository's own folder, which a SARIF log names, is
			// written $REPO.
			if wd, err := os.Getwd(); err == nil {
				stdout = strings.ReplaceAll(stdout, "file://"+filepath.ToSlash(wd)+"/", "file://$REPO/")
			}
			got := map[string]string{"exit": strconv.Itoa(code) + "\n", "stdout": stdout, "stderr": stderr}
			if *update {
				for _, part := range []string{"exit", "stdout", "stderr"} {
					a.Set(part, []byte(got[part]))
				}
				if err := os.WriteFile(file, txtar.Format(a), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			for _, part := range []string{"exit", "stdout", "stderr"} {
				want, _ := a.Get(part)
				if got[part] != string(want) {
					t.Errorf("sextant %s: %s differs (run with -update to accept)\n--- got ---\n%s--- want ---\n%s",
						strings.TrimSpace(string(argsText)), part, got[part], want)
				}
			}
		})
	}
}
