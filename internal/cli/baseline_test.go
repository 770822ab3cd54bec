package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/internal/testcatalog"
)

// communityIndex is the shipped community index (what OpenShift 4.20
// clusters get).
const communityIndex = "testdata/catalogs/community-operators-prod.v4.20-index.json.gz"

// squash collapses runs of white space, so that tests need not follow the
// text output's column widths.
func squash(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.Join(lines, "\n")
}

// editCommunity writes a copy of the shipped community index to dir with
// edit applied to each blob (one JSON object per line); edit returns false
// to drop the blob.
func editCommunity(t *testing.T, dir string, edit func(m map[string]any) bool) string {
	t.Helper()
	zr := testcatalog.Open(t, filepath.Base(communityIndex))
	out := filepath.Join(dir, "community-edited.json")
	w, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	bw := bufio.NewWriter(w)
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		if !edit(m) {
			continue
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		bw.Write(b)
		bw.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBaselineCommunity is the acceptance case: a copy of the
// community index without etcd's channel head and with cert-manager's
// default channel changed, checked against the original (exit 1, both
// reported); the original against itself (no regression, no new finding,
// exit 0 with --fail-on-new); and the Markdown comment.
func TestBaselineCommunity(t *testing.T) {
	if testing.Short() {
		t.Skip("the community catalog three times: skipped in -short mode")
	}
	const head = "etcdoperator.v0.9.4"
	edited := editCommunity(t, t.TempDir(), func(m map[string]any) bool {
		switch m["schema"] {
		case "olm.bundle":
			return !(m["package"] == "etcd" && m["name"] == head)
		case "olm.channel":
			if m["package"] == "etcd" {
				entries, _ := m["entries"].([]any)
				m["entries"] = slices.DeleteFunc(entries, func(e any) bool { return e.(map[string]any)["name"] == head })
			}
		case "olm.package":
			if m["name"] == "cert-manager" {
				m["defaultChannel"] = "candidate"
			}
		}
		return true
	})

	stdout, stderr, code := run("", "check", "--full", "--baseline", communityIndex, "--fail-on-new", edited)
	if code != 1 {
		t.Fatalf("edited against the original: exit %d, want 1; stderr:\n%s", code, stderr)
	}
	for _, want := range []string{
		"error new head-removed singlenamespace-alpha etcdoperator.v0.9.4: \"etcdoperator.v0.9.4\" (0.9.4), the head of channel \"singlenamespace-alpha\" in the baseline, is gone from it",
		"error new channel-head-lowered singlenamespace-alpha etcdoperator.v0.9.2:",
		"warning new default-channel-changed candidate: the default channel of \"cert-manager\" is \"candidate\", was \"stable\"",
		"against the baseline: 3 new findings (3 regressions)",
	} {
		if !strings.Contains(squash(stdout), want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("output:\n%s", stdout)
	}

	stdout, stderr, code = run("", "check", "--baseline", communityIndex, "--fail-on-new", "--fail-on", "warning", communityIndex)
	if code != 0 {
		t.Fatalf("the original against itself: exit %d, want 0; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "against the baseline: 0 new findings (0 regressions),") || strings.Contains(squash(stdout), "\nnew ") {
		t.Errorf("the original against itself reports something new:\n%s", stdout[max(0, len(stdout)-2000):])
	}

	stdout, _, code = run("", "check", "--baseline", communityIndex, "-o", "markdown", edited)
	if code != 1 {
		t.Fatalf("-o markdown: exit %d, want 1", code)
	}
	for _, want := range []string{
		"### Sextant check: `" + edited + "`",
		"| error | `head-removed` | **1** | 0 |",
		"#### New findings (3)",
		"<details><summary>Existing findings (",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
	if n := len([]rune(stdout)); n > 65536 {
		t.Errorf("markdown: %d characters, more than a GitHub comment takes", n)
	}
}
