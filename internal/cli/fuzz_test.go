package cli

import (
	"encoding/json"
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
	seedFiles(f, "catalogs", "*.*")
	f.Add(`{"schema":"olm.package","name":"p","defaultChannel":"c"}`)
	f.Fuzz(func(t *testing.T, catalog string) {
		for _, args := range [][]string{{"check", "-"}, {"graph", "-", "--package", "p", "-o", "mermaid"}} {
			stdout, stderr, code := run(catalog, args...)
			switch code {
			case ExitOK, ExitNo:
				if stdout == "" || stderr != "" {
					t.Fatalf("%q: exit %d with stdout %q, stderr %q", args, code, stdout, stderr)
				}
				if args[0] == "graph" && code != ExitOK && !strings.Contains(stdout, `no package "p" in the catalog`) {
					t.Fatalf("%q: exit %d with stdout %q", args, code, stdout)
				}
			case ExitBadInput:
				checkBadInput(t, args, stdout, stderr, "name "+stdinName, func(line string) bool {
					return strings.Contains(line, stdinName)
				})
			default:
				t.Fatalf("%q: exit %d", args, code)
			}
		}
	})
}

// FuzzResolveStdin feeds arbitrary manifests to `sextant resolve -f -` (and
// rollout) on two small catalogs and checks the command-line contract: the
// exit status is 0, 1 or 2; bad input (2) prints nothing on stdout and
// lines prefixed with the command on stderr; an answer prints JSON on stdout
// and nothing on stderr — a plan with steps (0) or an error with a message
// (1); and the same input gives the same output.
func FuzzResolveStdin(f *testing.F) {
	seedFiles(f, "manifests", "*.yaml")
	f.Add(`{"apiVersion":"operators.coreos.com/v1alpha1","kind":"Subscription","metadata":{"name":"app","namespace":"shop"},"spec":{"name":"app","channel":"stable"}}`)
	f.Fuzz(func(t *testing.T, manifests string) {
		for _, cmd := range []string{"resolve", "rollout"} {
			args := []string{cmd, "--catalog", "testdata/cli/catalogs/app.yaml", "--catalog", "testdata/cli/catalogs/db.json", "-f", "-", "-o", "json", "--max-rounds", "3"}
			if cmd == "resolve" {
				args = args[:len(args)-2]
			}
			stdout, stderr, code := run(manifests, args...)
			switch code {
			case ExitOK, ExitNo:
				for _, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
					if line != "" && !strings.HasPrefix(line, "sextant "+cmd+": note: ") {
						t.Fatalf("%s: exit %d with stderr %q, want only notes", cmd, code, stderr)
					}
				}
				var out struct {
					Namespace string          `json:"namespace"`
					Steps     json.RawMessage `json:"steps"`
					Rounds    json.RawMessage `json:"rounds"`
					Error     *struct {
						Message string `json:"message"`
					} `json:"error"`
				}
				if err := json.Unmarshal([]byte(stdout), &out); err != nil {
					t.Fatalf("%s: exit %d with stdout that is not JSON: %v\n%s", cmd, code, err, stdout)
				}
				if out.Namespace == "" || (code == ExitNo) != (out.Error != nil) || (out.Error != nil && out.Error.Message == "") {
					t.Fatalf("%s: exit %d with output\n%s", cmd, code, stdout)
				}
				if cmd == "resolve" && code == ExitOK && out.Steps == nil || cmd == "rollout" && out.Rounds == nil {
					t.Fatalf("%s: exit %d with output\n%s", cmd, code, stdout)
				}
			case ExitBadInput:
				prefix := "sextant " + cmd + ": "
				checkBadInput(t, cmd, stdout, stderr, `start with "`+prefix+`"`, func(line string) bool {
					return strings.HasPrefix(line, prefix)
				})
			default:
				t.Fatalf("%s: exit %d", cmd, code)
			}
			stdout2, stderr2, code2 := run(manifests, args...)
			if stdout2 != stdout || stderr2 != stderr || code2 != code {
				t.Fatalf("%s: a second run differs:\n%s%s\n---\n%s%s", cmd, stdout, stderr, stdout2, stderr2)
			}
		}
	})
}

// seedFiles adds to f's corpus the contents of the files matching pattern
// in testdata/cli/dir.
func seedFiles(f *testing.F, dir, pattern string) {
	files, _ := filepath.Glob(filepath.Join("testdata", "cli", dir, pattern))
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(string(data))
		}
	}
}

// checkBadInput checks the output of a run (named by what: its arguments
// or its command) that exited with ExitBadInput: nothing on stdout, and on
// stderr at least one line, each of which lineOK accepts (want says what a
// line must do).
func checkBadInput(t *testing.T, what any, stdout, stderr, want string, lineOK func(string) bool) {
	t.Helper()
	if stdout != "" || stderr == "" {
		t.Fatalf("%q: exit 2 with stdout %q, stderr %q", what, stdout, stderr)
	}
	for _, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
		if !lineOK(line) {
			t.Fatalf("%q: error line does not %s: %q", what, want, line)
		}
	}
}
