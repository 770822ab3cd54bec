package cli

import (
	"os"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/internal/imagetest"
)

// TestClusterUpgradeImages: the catalogs of the later minors given as
// images (NAME@MINOR=IMAGE) are read from a registry over its real
// protocol (an in-process one on loopback) and give the plan the files
// give; offline, an empty cache names every image the plan needs in one
// error (exit 2), and a cache that holds them answers.
func TestClusterUpgradeImages(t *testing.T) {
	reg := imagetest.NewRegistry(t)
	refs := map[string]string{}
	for _, m := range []string{"4.17", "4.18"} {
		data, err := os.ReadFile("testdata/ocp/community-v" + m + ".json.gz")
		if err != nil {
			t.Fatal(err)
		}
		refs[m], _ = reg.Push(t, "redhat/community-operator-index:v"+m, imagetest.CatalogImage(t, map[string][]byte{"catalog.json.gz": data}))
	}
	files := []string{"cluster-upgrade", "--to", "4.18", "--via", "4.17", "-f", "testdata/ocp/cluster-4.16.json",
		"--catalog", "community-operators=testdata/ocp/community-v4.16.json.gz"}
	want, _, wantCode := run("", append(files,
		"--catalog", "community-operators@4.17=testdata/ocp/community-v4.17.json.gz",
		"--catalog", "community-operators@4.18=testdata/ocp/community-v4.18.json.gz")...)
	images := append(files, "--catalog", "community-operators@4.17="+refs["4.17"], "--catalog", "community-operators@4.18="+refs["4.18"])
	cache := t.TempDir()
	// The plan names each catalog where it was given: the image, not the file.
	same := func(s string) string {
		for _, m := range []string{"4.17", "4.18"} {
			s = strings.ReplaceAll(s, refs[m], "testdata/ocp/community-v"+m+".json.gz")
		}
		return s
	}
	got, stderr, code := run("", append(images, "--cache-dir", cache, "--insecure", reg.Host)...)
	if code != wantCode || same(got) != want || !strings.Contains(got, refs["4.17"]) {
		t.Fatalf("exit %d (want %d), stdout:\n%s\nstderr:\n%s", code, wantCode, got, stderr)
	}
	got, stderr, code = run("", append(images, "--cache-dir", t.TempDir(), "--insecure", reg.Host, "--offline")...)
	if code != ExitBadInput || got != "" || strings.Count(stderr, "offline: would pull") != 2 ||
		!strings.Contains(stderr, "needed at 4.17: "+refs["4.17"]) || !strings.Contains(stderr, "needed at 4.18: "+refs["4.18"]) {
		t.Errorf("offline, empty cache: exit %d, stdout %q, stderr:\n%s", code, got, stderr)
	}
	if got, stderr, code = run("", append(images, "--cache-dir", cache, "--offline")...); code != wantCode || same(got) != want {
		t.Errorf("offline from the cache: exit %d\n%s", code, stderr)
	}
}
