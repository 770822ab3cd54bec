package catalogci

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/sextantdev/sextant/internal/cli"
)

// TestWorkflow runs the sextant commands of workflow.yaml as the job would
// on a pull request that changes testdata/good into testdata/next: in a
// repository made in the test, with the target branch as origin/main. The
// SARIF step writes a SARIF 2.1.0 log whose results carry a baseline
// state, and the last step fails (exit 1) on what the change introduces.
func TestWorkflow(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git command")
	}
	b, err := os.ReadFile("workflow.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Env  map[string]string `json:"env"`
		Jobs map[string]struct {
			Steps []struct {
				Uses string `json:"uses"`
				Run  string `json:"run"`
			} `json:"steps"`
		} `json:"jobs"`
	}
	if err := yaml.Unmarshal(b, &wf); err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	t.Setenv("HOME", repo)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	catalog := filepath.Join(repo, wf.Env["CATALOG"])
	put := func(from string) {
		t.Helper()
		os.RemoveAll(catalog)
		if err := os.CopyFS(catalog, os.DirFS(filepath.Join("testdata", from))); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	put("good")
	git("add", ".")
	git("commit", "-q", "-m", "target branch")
	git("update-ref", "refs/remotes/origin/main", "HEAD")
	put("next")
	git("add", "-A")
	git("commit", "-q", "-m", "pull request")

	var ran, uploads int
	for _, job := range wf.Jobs {
		for _, step := range job.Steps {
			if strings.HasPrefix(step.Uses, "github/codeql-action/upload-sarif") {
				uploads++
			}
			cmdline, ok := strings.CutPrefix(step.Run, "sextant ")
			if !ok {
				continue
			}
			cmdline, redirect, _ := strings.Cut(cmdline, " > ")
			cmdline = strings.NewReplacer("${{ github.base_ref }}", "main", `"$CATALOG"`, catalog, `"`, "").Replace(cmdline)
			var out, errb bytes.Buffer
			code := cli.Run(context.Background(), strings.Fields(cmdline), strings.NewReader(""), &out, &errb)
			ran++
			if code != 1 || errb.Len() > 0 {
				t.Fatalf("sextant %s: exit %d (want 1: the change has new findings), stderr %s", cmdline, code, errb.String())
			}
			if !strings.HasPrefix(redirect, "sextant.sarif") {
				continue
			}
			var log struct {
				Version string `json:"version"`
				Runs    []struct {
					Results []struct {
						BaselineState string `json:"baselineState"`
					} `json:"results"`
				} `json:"runs"`
			}
			if err := json.Unmarshal(out.Bytes(), &log); err != nil || log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Results) == 0 {
				t.Fatalf("the SARIF step wrote %d bytes (err %v): %s", out.Len(), err, out.String())
			}
			for _, r := range log.Runs[0].Results {
				if r.BaselineState == "" {
					t.Errorf("a result without a baseline state")
				}
			}
		}
	}
	if ran != 2 || uploads != 1 {
		t.Errorf("ran %d sextant commands and found %d SARIF uploads, want 2 and 1", ran, uploads)
	}
}
