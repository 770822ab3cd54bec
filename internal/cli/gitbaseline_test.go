package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitRepo makes a git repository in a temporary folder with two commits of
// catalog/etcd.yaml: testdata/cli/catalogs/etcd.yaml, then etcd-next.yaml.
// It returns the repository's folder.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git command")
	}
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	put := func(from string) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join("testdata", "cli", "catalogs", from))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, "catalog"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "catalog", "etcd.yaml"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	put("etcd.yaml")
	git("add", ".")
	git("commit", "-q", "-m", "first")
	put("etcd-next.yaml")
	git("commit", "-q", "-a", "-m", "second")
	return dir
}

// TestGitBaseline: --baseline git:HEAD~1 reads the previous commit's
// catalog through git (the same report as a baseline from a file), for a
// folder and a file, with git:REF:PATH too; git's own errors are told.
func TestGitBaseline(t *testing.T) {
	dir := gitRepo(t)
	catalog := filepath.Join(dir, "catalog")
	fromFile, _, code := run("", "check", "--check", "structural,reachability", "--baseline", filepath.Join("testdata", "cli", "catalogs", "etcd.yaml"), "-o", "json", catalog)
	if code != 1 {
		t.Fatalf("baseline from a file: exit %d", code)
	}
	for _, tc := range []struct{ name, baseline, catalog string }{
		{"folder", "git:HEAD~1", catalog},
		{"file", "git:HEAD~1", filepath.Join(catalog, "etcd.yaml")},
		{"path", "git:HEAD~1:" + catalog, catalog},
		{"hash", "git:HEAD^:" + filepath.Join(catalog, "etcd.yaml"), catalog},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := run("", "check", "--check", "structural,reachability", "--baseline", tc.baseline, "-o", "json", tc.catalog)
			if code != 1 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			// The positions of the baseline's findings name the file in the
			// repository; the rest is the same as with the file.
			want := strings.ReplaceAll(fromFile, filepath.Join("testdata", "cli", "catalogs", "etcd.yaml"), "catalog/etcd.yaml")
			if tc.name == "file" {
				want = strings.ReplaceAll(want, `"`+catalog+`"`, `"`+filepath.Join(catalog, "etcd.yaml")+`"`)
			}
			if out != want {
				t.Errorf("report differs from the baseline read from a file:\n got %s\nwant %s", out, want)
			}
		})
	}
	out, _, _ := run("", "check", "--check", "structural", "--baseline", "git:HEAD~1", catalog)
	for _, want := range []string{"removed: channels etcd/stable; bundles etcd/etcdoperator.v0.9.4", "added: channels etcd/fast"} {
		if !strings.Contains(out, want) {
			t.Errorf("text report does not name %q:\n%s", want, out)
		}
	}
	for _, tc := range []struct{ baseline, want string }{
		{"git:no-such-ref", "git: fatal: not a valid object name"},
		{"git:HEAD~1:" + filepath.Join(dir, "nothing"), "git: fatal: pathspec 'nothing' did not match any files"},
		{"git:", "no revision"},
	} {
		_, errOut, code := run("", "check", "--baseline", tc.baseline, catalog)
		if code != 2 && code != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("--baseline %s: exit %d, stderr %q, want one containing %q", tc.baseline, code, errOut, tc.want)
		}
	}
	// A catalog file git archive leaves out (export-ignore) is an error,
	// not a baseline without it.
	attrs := filepath.Join(dir, ".gitattributes")
	if err := os.WriteFile(attrs, []byte("catalog/etcd.yaml export-ignore\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"add", ".gitattributes"}, {"commit", "-q", "-m", "attributes"}} {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	_, errOut, code := run("", "check", "--baseline", "git:HEAD", catalog)
	if want := "git archive leaves out 1 catalog file at HEAD (export-ignore in .gitattributes): catalog/etcd.yaml"; code != 2 || !strings.Contains(errOut, want) {
		t.Errorf("export-ignore: exit %d, stderr %q, want 2 and %q", code, errOut, want)
	}
	outside := t.TempDir()
	if _, errOut, _ := run("", "check", "--baseline", "git:HEAD", outside); !strings.Contains(errOut, "not in a git work tree") {
		t.Errorf("outside a repository: stderr %q", errOut)
	}
}
