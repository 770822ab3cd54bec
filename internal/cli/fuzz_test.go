package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzCheckStdin feeds arbitrary catalogs to `sextant check -` and
// `sextant graph -` and checks the command-line contract: the exit status is
// 0, 1 or 2; bad input (2) prints nothing on stdout and at least one line on
// stderr, each naming standard input; an answer (0 or 1) prints a report on
// stdout and nothing on stderr.
func FuzzCheckStdin(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "cli", "catalogs", "*.*"))
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(string(data))
		}
	}
	f.Add(`{"schema":"olm.package","name":"p","defaultChannel":"c"}`)
	f.Fuzz(func(t *testing.T, catalog string) {
		for _, args := range [][]string{{"check", "-"}, {"graph", "-", "--package", "p", "-o", "mermaid"}} {
			stdout, stderr, code := run(catalog, args...)
			switch code {
			case ExitOK, ExitNo:
				if stdout == "" || stderr != "" {
					t.Fatalf("%q: exit %d with stdout %q, stderr %q", args, code, stdout, stderr)
				}
				if args[0] == "graph" && code != ExitOK {
					t.Fatalf("%q: exit %d", args, code)
				}
			case ExitBadInput:
				if stdout != "" || stderr == "" {
					t.Fatalf("%q: exit 2 with stdout %q, stderr %q", args, stdout, stderr)
				}
				for _, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
					if !strings.Contains(line, stdinName) {
						t.Fatalf("%q: error line does not name %s: %q", args, stdinName, line)
					}
				}
			default:
				t.Fatalf("%q: exit %d", args, code)
			}
		}
	})
}
