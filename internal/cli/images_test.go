package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	v1 "github.com/google/go-containerregistry/pkg/v1"

	"github.com/sextantdev/sextant/internal/imagetest"
	"github.com/sextantdev/sextant/internal/testcatalog"
)

// communityImage returns a catalog image holding the shipped community
// catalog as configs/catalog.json.
func communityImage(t testing.TB) v1.Image {
	return imagetest.CatalogImage(t, map[string][]byte{"catalog.json": testcatalog.Read(t, filepath.Base(communityIndex))})
}

// TestImageForms is the "done when": the README's plan, from the
// community catalog as an OCI layout, a docker archive and an image in a
// registry by tag and by digest, is the plan of the plain file.
func TestImageForms(t *testing.T) {
	img := communityImage(t)
	dir := t.TempDir()
	const name = "community-operators-prod.v4.20-index"
	layout := imagetest.WriteLayout(t, filepath.Join(dir, name), "v4.20", img)
	archive := imagetest.WriteArchive(t, filepath.Join(dir, name+".tar"), img)
	reg := imagetest.NewRegistry(t)
	byTag, digest := reg.Push(t, "olm/"+name+":v4.20", img)
	byDigest := reg.Host + "/olm/" + name + "@" + digest.String()

	want, stderr, code := run("", "resolve", "--catalog", communityIndex, "-f", "testdata/examples/cluster.yaml")
	if code != ExitNo || !strings.Contains(want, "steps") { // the example predicts a failure: exit 1
		t.Fatalf("from the file: exit %d\n%s%s", code, want, stderr)
	}
	cache := t.TempDir()
	for _, tc := range []struct{ name, catalog string }{
		{"oci layout", "oci:" + layout},
		{"oci layout by tag", "oci:" + layout + ":v4.20"},
		{"docker archive", "docker-archive:" + archive},
		{"registry by tag", byTag},
		{"registry by digest", byDigest},
		{"registry by tag, cached", byTag},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if raceEnabled && testing.Short() && (strings.Contains(tc.name, "archive") || strings.Contains(tc.name, "digest")) {
				t.Skip("under -race -short, the OCI layout and the registry by tag stand for every form")
			}
			got, stderr, code := run("", "resolve", "--catalog", tc.catalog, "-f", "testdata/examples/cluster.yaml", "--cache-dir", cache, "--insecure", reg.Host)
			if code != ExitNo || got != want {
				t.Errorf("exit %d, stdout:\n%s\nwant:\n%s\nstderr:\n%s", code, got, want, stderr)
			}
		})
	}
	// Every command that takes a catalog takes an image.
	for _, args := range [][]string{
		{"graph", "oci:" + layout, "--package", "etcd"},
		{"provides", "--catalog", "oci:" + layout, "EtcdCluster"},
		{"check", "--check", "structure", "oci:" + layout},
	} {
		if raceEnabled && testing.Short() && args[0] != "graph" {
			continue // under -race -short, graph stands for every command
		}
		fromFile := append([]string{}, args...)
		for i, a := range fromFile {
			if a == "oci:"+layout {
				fromFile[i] = communityIndex
			}
		}
		want, _, wantCode := run("", fromFile...)
		got, stderr, code := run("", append(args, "--cache-dir", cache)...)
		if code != wantCode || got != want {
			t.Errorf("%s: exit %d (want %d), stdout:\n%s\nwant:\n%s\nstderr:\n%s", args[0], code, wantCode, got, want, stderr)
		}
	}
}

// TestCatalogSourceImage: a subscription whose CatalogSource names an image
// resolves with no --catalog; offline, the image is named and the exit is 2.
func TestCatalogSourceImage(t *testing.T) {
	reg := imagetest.NewRegistry(t)
	ref, _ := reg.Push(t, "olm/catalog:v4.20", communityImage(t))
	manifests, err := os.ReadFile("testdata/examples/cluster.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// The example's CatalogSource names the catalog's image on
	// registry.redhat.io: name the in-process registry's instead.
	const shipped = "image: registry.redhat.io/redhat/community-operator-index:v4.20"
	if !strings.Contains(string(manifests), shipped) {
		t.Fatalf("testdata/examples/cluster.yaml lacks %q", shipped)
	}
	file := filepath.Join(t.TempDir(), "cluster.yaml")
	if err := os.WriteFile(file, []byte(strings.Replace(string(manifests), shipped, "image: "+ref, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	want, _, _ := run("", "resolve", "--catalog", communityIndex, "-f", "testdata/examples/cluster.yaml")
	cache := t.TempDir()
	got, stderr, code := run("", "resolve", "-f", file, "--cache-dir", cache, "--insecure", reg.Host)
	if code != ExitNo || got != want { // the example predicts a failure: exit 1
		t.Fatalf("exit %d, stdout:\n%s\nwant:\n%s\nstderr:\n%s", code, got, want, stderr)
	}
	note := regexp.MustCompile(`(?m)^sextant resolve: note: read the catalog images of the CatalogSources that no catalog given stands for: olm/community-operators-prod.v4.20-index ` + regexp.QuoteMeta(ref) + ` sha256:[0-9a-f]{64}$`)
	if !note.MatchString(stderr) {
		t.Errorf("stderr lacks the note of the image read:\n%s", stderr)
	}

	got, stderr, code = run("", "resolve", "-f", file, "--cache-dir", t.TempDir(), "--insecure", reg.Host, "--offline")
	wantErr := file + `: CatalogSource "olm/community-operators-prod.v4.20-index": spec.image: ` + ref + " (registry image): offline: would pull " + ref + " (not in the cache)"
	if code != ExitBadInput || got != "" || !strings.Contains(stderr, wantErr) {
		t.Errorf("offline: exit %d, stdout %q, stderr:\n%s\nwant %s", code, got, stderr, wantErr)
	}
	// Offline, a cache that holds the image answers.
	if got, stderr, code = run("", "resolve", "-f", file, "--cache-dir", cache, "--offline"); code != ExitNo || got != want {
		t.Errorf("offline from the cache: exit %d\n%s", code, stderr)
	}
}

// TestCatalogArgument: a path that exists is a path, even with a colon;
// what does not exist is an image only in one of the image forms, and the
// error says which form was understood.
func TestCatalogArgument(t *testing.T) {
	dir := t.TempDir()
	colon := filepath.Join(dir, "oci:x")
	if err := os.WriteFile(colon, testcatalog.Read(t, filepath.Base(communityIndex)), 0o644); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	for _, tc := range []struct {
		name, path, want string
	}{
		{"a file named like an image form", colon, ""},
		{"missing file", "testdata/nothere.json", "testdata/nothere.json: no such file or directory"},
		{"missing oci layout", "oci:" + dir + "/none", "oci:" + dir + "/none (OCI layout " + dir + "/none): no such file or directory"},
		{"oci layout tag", "oci:" + dir + ":v1", "oci:" + dir + ":v1 (OCI layout " + dir + " (tag v1)): not an OCI image layout"},
		{"missing archive", "docker-archive:" + dir + "/none.tar", "(docker archive " + dir + "/none.tar): no such file or directory"},
		{"registry without tag", "quay.io/operatorhubio/catalog", `"quay.io/operatorhubio/catalog": registry image with no tag or digest`},
		{"registry-less shorthand", "operatorhubio/catalog:latest", `"operatorhubio/catalog:latest": no such file or folder, and not an image reference: a registry image is written with its registry, as in quay.io/operatorhubio/catalog:latest or docker.io/operatorhubio/catalog:latest`},
		{"upper-case repository", "127.0.0.1:5000/Catalog:latest", `"127.0.0.1:5000/Catalog:latest": registry image: a repository name is lower case (127.0.0.1:5000/catalog:latest)`},
		{"plain HTTP not named", "127.0.0.1:1/olm/catalog:v1", "plain HTTP to 127.0.0.1:1 refused: only registries named insecure are reached without TLS; --insecure 127.0.0.1:1 allows it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := run("", "graph", tc.path, "--package", "etcd", "--cache-dir", cache)
			if tc.want == "" {
				if code != ExitOK {
					t.Errorf("exit %d: %s", code, stderr)
				}
				return
			}
			if code != ExitBadInput || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant %q", code, stderr, tc.want)
			}
		})
	}
}

// TestMirrorCatalogSourceImage: mirror reads a CatalogSource's image as
// resolve does (no --catalog), and -o imageset names that catalog by the
// image the cluster pulls; offline with no cache, the error names the
// image and the --catalog NAME=PATH that stands for it, and nothing is
// pulled.
func TestMirrorCatalogSourceImage(t *testing.T) {
	reg := imagetest.NewRegistry(t)
	ref, _ := reg.Push(t, "olm/catalog:v4.20", communityImage(t))
	manifests, err := os.ReadFile("testdata/examples/cluster.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const shipped = "image: registry.redhat.io/redhat/community-operator-index:v4.20"
	file := filepath.Join(t.TempDir(), "cluster.yaml")
	if err := os.WriteFile(file, []byte(strings.Replace(string(manifests), shipped, "image: "+ref, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	want, _, _ := run("", "mirror", "--catalog", communityIndex, "-f", "testdata/examples/cluster.yaml", "-o", "imageset")
	want = strings.Replace(want, "registry.redhat.io/redhat/community-operator-index:v4.20", ref, 1)
	got, stderr, code := run("", "mirror", "-f", file, "-o", "imageset", "--cache-dir", t.TempDir(), "--insecure", reg.Host)
	if code != ExitOK || got != want {
		t.Fatalf("exit %d, stdout:\n%s\nwant:\n%s\nstderr:\n%s", code, got, want, stderr)
	}
	reg.Requests("manifests") // resets the count
	got, stderr, code = run("", "mirror", "-f", file, "--cache-dir", t.TempDir(), "--offline")
	wantErr := "offline: would pull " + ref + " (not in the cache); give its catalog with --catalog community-operators-prod.v4.20-index=PATH"
	if code != ExitBadInput || got != "" || !strings.Contains(stderr, wantErr) {
		t.Errorf("offline: exit %d, stdout %q, stderr:\n%s\nwant %s", code, got, stderr, wantErr)
	}
	if n := reg.Requests("manifests"); n != 0 {
		t.Errorf("offline: %d registry requests", n)
	}
}

// TestSQLiteIndexAdvice: an SQLite-based index image is refused (exit 2)
// with opm migrate's advice, and each command adds only advice it can
// follow: resolve's --catalog, check's catalog argument (check has no
// --catalog).
func TestSQLiteIndexAdvice(t *testing.T) {
	layer := imagetest.Layer(t, imagetest.File{Name: "database/index.db", Data: []byte("SQLite format 3\x00")})
	dir := imagetest.WriteLayout(t, t.TempDir(), "", imagetest.Image(t, map[string]string{"operators.operatorframework.io.index.database.v1": "/database/index.db"}, layer))
	const refused = "an SQLite-based index image (label operators.operatorframework.io.index.database.v1), not a File-Based Catalog: convert it with opm migrate (then build and push the catalog image it writes)"
	cache := t.TempDir()
	for _, tc := range []struct {
		args   []string
		advice string
	}{
		{[]string{"check", "oci:" + dir}, ", or give the FBC (a file or folder) instead"},
		{[]string{"resolve", "--catalog", "community-operators-prod.v4.20-index=oci:" + dir, "-f", "testdata/examples/cluster.yaml"}, ", or give the FBC with --catalog"},
	} {
		t.Run(tc.args[0], func(t *testing.T) {
			_, stderr, code := run("", append(tc.args, "--cache-dir", cache)...)
			if code != ExitBadInput || !strings.Contains(stderr, refused+tc.advice+"\n") {
				t.Errorf("exit %d, stderr:\n%s\nwant %q", code, stderr, refused+tc.advice)
			}
			if tc.args[0] == "check" && strings.Contains(stderr, "--catalog") {
				t.Errorf("check advises --catalog, a flag it does not have:\n%s", stderr)
			}
		})
	}
}
