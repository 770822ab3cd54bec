package catalogimage_test

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	v1 "github.com/google/go-containerregistry/pkg/v1"

	"github.com/sextantdev/sextant/catalogimage"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/imagetest"
)

// fbc returns a one-bundle File-Based Catalog of package pkg.
func fbc(pkg, version string) []byte {
	return fmt.Appendf(nil, `{"schema":"olm.package","name":%[1]q,"defaultChannel":"stable"}
{"schema":"olm.channel","package":%[1]q,"name":"stable","entries":[{"name":"%[1]s.v%[2]s"}]}
{"schema":"olm.bundle","package":%[1]q,"name":"%[1]s.v%[2]s","image":"example.com/%[1]s:%[2]s","properties":[{"type":"olm.package","value":{"packageName":%[1]q,"version":%[2]q}}]}
`, pkg, version)
}

// packages returns the catalog's packages as "name version" of the head
// of their default channel, sorted.
func packages(t *testing.T, cat *graph.Catalog) []string {
	t.Helper()
	var out []string
	for _, p := range cat.Packages() {
		for _, b := range p.Bundles {
			out = append(out, p.Name+" "+b.Version.String())
		}
	}
	slices.Sort(out)
	return out
}

func twoPackages(t *testing.T) v1.Image {
	return imagetest.CatalogImage(t, map[string][]byte{"a/catalog.json": fbc("a", "1.0.0"), "b/catalog.json": fbc("b", "2.0.0")})
}

func mustRef(t *testing.T, s string) catalogimage.Reference {
	t.Helper()
	ref, err := catalogimage.ParseReference(s)
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

// reader returns a Reader with a cache of its own that reaches reg over
// plain HTTP.
func reader(t *testing.T, reg *imagetest.Registry, o catalogimage.Options) *catalogimage.Reader {
	if o.CacheDir == "" && !o.NoCache {
		o.CacheDir = t.TempDir()
	}
	if reg != nil {
		o.Insecure = append(o.Insecure, reg.Host)
	}
	return catalogimage.New(o)
}

func TestForms(t *testing.T) {
	img := twoPackages(t)
	dir := t.TempDir()
	layoutDir := imagetest.WriteLayout(t, filepath.Join(dir, "layout"), "v1", img)
	imagetest.WriteLayout(t, filepath.Join(dir, "single"), "", img)
	archive := imagetest.WriteArchive(t, filepath.Join(dir, "catalog.tar"), img)
	saved := imagetest.WriteDockerSave(t, filepath.Join(dir, "saved.tar"), img)
	reg := imagetest.NewRegistry(t)
	byTag, digest := reg.Push(t, "olm/catalog:v1", img)
	want := []string{"a 1.0.0", "b 2.0.0"}
	for _, tc := range []struct{ name, ref string }{
		{"oci layout by tag", "oci:" + layoutDir + ":v1"},
		{"oci layout of one image", "oci:" + filepath.Join(dir, "single")},
		{"docker archive (crane pull)", "docker-archive:" + archive},
		{"docker archive (docker save)", "docker-archive:" + saved},
		{"registry by tag", byTag},
		{"registry by digest", reg.Host + "/olm/catalog@" + digest.String()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cat, info, err := reader(t, reg, catalogimage.Options{}).Load(context.Background(), mustRef(t, tc.ref))
			if err != nil {
				t.Fatal(err)
			}
			if got := packages(t, cat); !slices.Equal(got, want) {
				t.Errorf("packages %v, want %v", got, want)
			}
			if info.Dir != "/configs" || info.Cached || info.Digest == "" || info.CacheErr != nil {
				t.Errorf("info %+v", info)
			}
		})
	}
}

func TestWhiteouts(t *testing.T) {
	labels := map[string]string{imagetest.ConfigsLabel: "/configs"}
	lower := imagetest.Layer(t,
		imagetest.File{Name: "configs/a/catalog.json", Data: fbc("a", "1.0.0")},
		imagetest.File{Name: "configs/b/catalog.json", Data: fbc("b", "1.0.0")},
		imagetest.File{Name: "configs/c/catalog.json", Data: fbc("c", "1.0.0")},
		imagetest.File{Name: "configs/c/old.json", Data: fbc("old", "1.0.0")},
		imagetest.File{Name: "configs/d/catalog.json", Data: fbc("d", "1.0.0")},
		imagetest.File{Name: "elsewhere/catalog.json", Data: fbc("elsewhere", "1.0.0")},
	)
	upper := imagetest.Layer(t,
		imagetest.File{Name: "configs/b/.wh.catalog.json"},                      // b's file deleted
		imagetest.File{Name: "configs/c/.wh..wh..opq"},                          // c's folder emptied…
		imagetest.File{Name: "configs/c/catalog.json", Data: fbc("c", "2.0.0")}, // …and written again
		imagetest.File{Name: "configs/d/catalog.json", Data: fbc("d", "2.0.0")}, // replaced
		imagetest.File{Name: "configs/link.json", Data: []byte("a/catalog.json"), Type: tar.TypeSymlink},
		imagetest.File{Name: "configs/f.source", Data: fbc("f", "1.0.0")},                                    // not a catalog file name…
		imagetest.File{Name: "configs/f/catalog.json", Data: []byte("configs/f.source"), Type: tar.TypeLink}, // …but this hard link to it is
		imagetest.File{Name: "configs/h.json", Data: []byte("elsewhere/catalog.json"), Type: tar.TypeLink},   // to a file not kept
	)
	top := imagetest.Layer(t, imagetest.File{Name: "configs/e/catalog.json", Data: fbc("e", "1.0.0")})
	img := imagetest.Image(t, labels, lower, upper, top)
	dir := imagetest.WriteLayout(t, t.TempDir(), "", img)
	reg := imagetest.NewRegistry(t)
	ref, _ := reg.Push(t, "olm/whiteouts:v1", img)
	r := reader(t, reg, catalogimage.Options{})
	for _, run := range []string{"layout", "read", "cached"} {
		s := ref
		if run == "layout" {
			s = "oci:" + dir
		}
		cat, info, err := r.Load(context.Background(), mustRef(t, s))
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"a 1.0.0", "c 2.0.0", "d 2.0.0", "e 1.0.0", "f 1.0.0"}
		if got := packages(t, cat); !slices.Equal(got, want) {
			t.Errorf("%s: packages %v, want %v", run, got, want)
		}
		if info.Cached != (run == "cached") {
			t.Errorf("%s: Cached %v", run, info.Cached)
		}
		if run != "cached" && info.Skipped != 2 {
			t.Errorf("Skipped %d, want 2 (the symbolic link, the hard link to a file not kept)", info.Skipped)
		}
	}
}

func TestNotCatalog(t *testing.T) {
	layer := imagetest.Layer(t, imagetest.File{Name: "configs/a/catalog.json", Data: fbc("a", "1.0.0")})
	for _, tc := range []struct {
		name   string
		labels map[string]string
		want   string
	}{
		{"no label", map[string]string{"maintainer": "x"}, "not a catalog image: no label operators.operatorframework.io.index.configs.v1 naming the catalog folder (labels: maintainer)"},
		{"sqlite index", map[string]string{catalogimage.DatabaseLabel: "/database/index.db"}, "an SQLite-based index image (label operators.operatorframework.io.index.database.v1), not a File-Based Catalog: convert it with opm migrate"},
		{"label naming the root", map[string]string{imagetest.ConfigsLabel: "/"}, `names "/", not a folder inside the image`},
		{"empty folder", map[string]string{imagetest.ConfigsLabel: "/other"}, "the catalog folder /other (label operators.operatorframework.io.index.configs.v1) holds no file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := imagetest.WriteLayout(t, t.TempDir(), "", imagetest.Image(t, tc.labels, layer))
			_, _, err := reader(t, nil, catalogimage.Options{}).Load(context.Background(), mustRef(t, "oci:"+dir))
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "oci:"+dir+" (OCI layout "+dir+", sha256:") {
				t.Fatalf("error %v, want it to name the layout and say %q", err, tc.want)
			}
		})
	}
}

// blobFile returns the file of the blob of the top layer of img in the
// layout dir.
func blobFile(t *testing.T, dir string, img v1.Image) (string, string) {
	layers, err := img.Layers()
	if err != nil {
		t.Fatal(err)
	}
	d, err := layers[len(layers)-1].Digest()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "blobs", d.Algorithm, d.Hex), d.String()
}

func TestDamagedLayer(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func([]byte) []byte
		want   string
	}{
		{"truncated", func(b []byte) []byte { return b[:len(b)/2] }, "the layer is truncated or corrupted"},
		{"corrupted", func(b []byte) []byte {
			b = slices.Clone(b)
			b[len(b)/2] ^= 0xff
			return b
		}, "layer 2 of 2"},
		{"checksum", func(b []byte) []byte {
			b = slices.Clone(b)
			b[len(b)-8] ^= 0xff // the gzip trailer's CRC-32
			return b
		}, "gzip: invalid checksum (the layer is corrupted)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			img := twoPackages(t)
			dir := imagetest.WriteLayout(t, t.TempDir(), "", img)
			file, digest := blobFile(t, dir, img)
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, tc.damage(data), 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err = reader(t, nil, catalogimage.Options{}).Load(context.Background(), mustRef(t, "oci:"+dir))
			var ie *catalogimage.Error
			if !errors.As(err, &ie) || ie.Layer != 2 || ie.LayerDigest != digest {
				t.Fatalf("error %v, want layer 2 (%s) named", err, digest)
			}
			msg := err.Error()
			if !strings.Contains(msg, "oci:"+dir) || !strings.Contains(msg, "layer 2 of 2 ("+digest+")") || !strings.Contains(msg, tc.want) {
				t.Errorf("error %q, want the image, the layer and %q", msg, tc.want)
			}
		})
	}
	t.Run("registry", func(t *testing.T) {
		reg := imagetest.NewRegistry(t)
		img := twoPackages(t)
		ref, _ := reg.Push(t, "olm/catalog:v1", img)
		_, digest := blobFile(t, "", img)
		reg.SetTamper(func(d string, body []byte) []byte {
			if d == digest {
				body = slices.Clone(body)
				body[len(body)/2] ^= 0xff
			}
			return body
		})
		_, _, err := reader(t, reg, catalogimage.Options{}).Load(context.Background(), mustRef(t, ref))
		if err == nil || !strings.Contains(err.Error(), ref) || !strings.Contains(err.Error(), "layer 2 of 2 ("+digest+")") {
			t.Fatalf("error %v, want the image and layer 2 named", err)
		}
	})
}

func TestLayerPastLimit(t *testing.T) {
	big := imagetest.Layer(t, imagetest.File{Name: "bin/opm", Data: make([]byte, 1<<20)})
	img := imagetest.Image(t, map[string]string{imagetest.ConfigsLabel: "/configs"},
		imagetest.Layer(t, imagetest.File{Name: "configs/a/catalog.json", Data: fbc("a", "1.0.0")}), big)
	dir := imagetest.WriteLayout(t, t.TempDir(), "", img)
	_, _, err := reader(t, nil, catalogimage.Options{Loader: graph.Loader{MaxBytes: 64 << 10}}).Load(context.Background(), mustRef(t, "oci:"+dir))
	if err == nil || !strings.Contains(err.Error(), "layer 2 of 2") || !strings.Contains(err.Error(), "uncompressed, the layer is larger than the limit of 64 KiB") {
		t.Fatalf("error %v, want layer 2 over the 64KiB limit", err)
	}
}

func TestBasicAuth(t *testing.T) {
	reg := imagetest.NewRegistry(t)
	reg.User, reg.Password = "alice", "s3cret"
	ref, _ := reg.Push(t, "private/catalog:v1", twoPackages(t))
	t.Setenv("DOCKER_CONFIG", t.TempDir()) // no credentials
	t.Setenv("REGISTRY_AUTH_FILE", filepath.Join(t.TempDir(), "none.json"))
	_, _, err := reader(t, reg, catalogimage.Options{}).Load(context.Background(), mustRef(t, ref))
	if err == nil || !strings.Contains(err.Error(), ref) || !strings.Contains(strings.ToLower(err.Error()), "unauthorized") {
		t.Fatalf("without credentials: error %v, want unauthorized naming %s", err, ref)
	}
	t.Setenv("DOCKER_CONFIG", imagetest.DockerConfig(t, reg.Host, "alice", "s3cret"))
	cat, _, err := reader(t, reg, catalogimage.Options{}).Load(context.Background(), mustRef(t, ref))
	if err != nil {
		t.Fatal(err)
	}
	if got := packages(t, cat); len(got) != 2 {
		t.Errorf("packages %v", got)
	}
}

func TestPlainHTTPOnlyWhenNamed(t *testing.T) {
	reg := imagetest.NewRegistry(t)
	ref, _ := reg.Push(t, "olm/catalog:v1", twoPackages(t))
	_, _, err := catalogimage.New(catalogimage.Options{CacheDir: t.TempDir()}).Load(context.Background(), mustRef(t, ref))
	if err == nil || !strings.Contains(err.Error(), "plain HTTP to "+reg.Host+" refused") {
		t.Fatalf("error %v, want plain HTTP refused", err)
	}
	// The refusal is typed, through go-containerregistry's wrapping, so
	// that a caller (the CLI) can say how to allow it.
	var pe *catalogimage.PlainHTTPError
	if !errors.As(err, &pe) || pe.Registry != reg.Host {
		t.Errorf("errors.As(%v) = %+v, want a *PlainHTTPError for %s", err, pe, reg.Host)
	}
}

func TestTagMovesAndCache(t *testing.T) {
	reg := imagetest.NewRegistry(t)
	cache := t.TempDir()
	opts := catalogimage.Options{CacheDir: cache}
	v1img := imagetest.CatalogImage(t, map[string][]byte{"a/catalog.json": fbc("a", "1.0.0")})
	v2img := imagetest.CatalogImage(t, map[string][]byte{"a/catalog.json": fbc("a", "2.0.0")})
	ref, d1 := reg.Push(t, "olm/catalog:latest", v1img)
	load := func(r *catalogimage.Reader, s string) (string, catalogimage.Info) {
		t.Helper()
		cat, info, err := r.Load(context.Background(), mustRef(t, s))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(packages(t, cat), ","), info
	}
	requests := func(wantManifests, wantBlobs int, when string) {
		t.Helper()
		if m, b := reg.Requests("manifests"), reg.Requests("blobs"); m != wantManifests || b != wantBlobs {
			t.Errorf("%s: %d manifest and %d blob requests, want %d and %d", when, m, b, wantManifests, wantBlobs)
		}
	}

	r1 := reader(t, reg, opts)
	if got, _ := load(r1, ref); got != "a 1.0.0" {
		t.Fatalf("first run: %s", got)
	}
	reg.Requests("manifests")
	reg.Requests("blobs")
	if got, info := load(r1, ref); got != "a 1.0.0" || !info.Cached {
		t.Errorf("same run again: %s cached %v", got, info.Cached)
	}
	requests(0, 0, "the tag again in the same run")

	if got, info := load(reader(t, reg, opts), reg.Host+"/olm/catalog@"+d1.String()); got != "a 1.0.0" || !info.Cached {
		t.Errorf("by digest: %s cached %v", got, info.Cached)
	}
	requests(0, 0, "a digest already read")

	_, d2 := reg.Push(t, "olm/catalog:latest", v2img)
	reg.Requests("manifests")
	reg.Requests("blobs")
	missing := opts
	missing.Pull = catalogimage.PullMissing
	if got, info := load(reader(t, reg, missing), ref); got != "a 1.0.0" || info.Digest != d1.String() {
		t.Errorf("pull missing after the tag moved: %s %s, want the cached 1.0.0", got, info.Digest)
	}
	requests(0, 0, "pull missing, tag in the cache")

	r2 := reader(t, reg, opts)
	if got, info := load(r2, ref); got != "a 2.0.0" || info.Digest != d2.String() || info.Cached {
		t.Errorf("pull always after the tag moved: %s %s cached %v, want 2.0.0 read", got, info.Digest, info.Cached)
	}
	if m := reg.Requests("manifests"); m != 1 {
		t.Errorf("the moved tag: %d manifest requests, want 1", m)
	}
	reg.Requests("blobs")

	offline := opts
	offline.Offline = true
	if got, _ := load(reader(t, reg, offline), ref); got != "a 2.0.0" {
		t.Errorf("offline, tag in the cache: %s", got)
	}
	requests(0, 0, "offline")
}

func TestOffline(t *testing.T) {
	reg := imagetest.NewRegistry(t)
	ref, d := reg.Push(t, "olm/catalog:v1", twoPackages(t))
	byDigest := reg.Host + "/olm/catalog@" + d.String()
	for _, tc := range []struct {
		name string
		opts catalogimage.Options
		want string
	}{
		{"offline", catalogimage.Options{Offline: true}, "offline: would pull "},
		{"pull never", catalogimage.Options{Pull: catalogimage.PullNever}, "pull policy never: would pull "},
	} {
		for _, s := range []string{ref, byDigest} {
			_, _, err := reader(t, reg, tc.opts).Load(context.Background(), mustRef(t, s))
			var oe *catalogimage.OfflineError
			if !errors.As(err, &oe) || oe.Image != s || !strings.Contains(err.Error(), tc.want+s+" (not in the cache)") {
				t.Errorf("%s %s: error %v", tc.name, s, err)
			}
		}
	}
	if m, b := reg.Requests("manifests"), reg.Requests("blobs"); m+b != 2 { // the pushes' checks only
		t.Logf("requests while offline: %d manifests, %d blobs", m, b)
	}
}

func TestConcurrentRunsShareTheCache(t *testing.T) {
	reg := imagetest.NewRegistry(t)
	ref, _ := reg.Push(t, "olm/catalog:v1", twoPackages(t))
	cache := t.TempDir()
	// A run interrupted while writing left a temporary folder behind.
	if err := os.MkdirAll(filepath.Join(cache, "catalogs", ".tmp-123", "fs", "configs"), 0o755); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, info, err := reader(t, reg, catalogimage.Options{CacheDir: cache}).Load(context.Background(), mustRef(t, ref))
			errs[i] = errors.Join(err, info.CacheErr)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join(cache, "catalogs"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) != 2 || names[0] != ".tmp-123" || !strings.HasPrefix(names[1], "sha256-") {
		t.Errorf("cache holds %v, want the old temporary folder and one entry", names)
	}
	_, info, err := reader(t, reg, catalogimage.Options{CacheDir: cache, Pull: catalogimage.PullNever}).Load(context.Background(), mustRef(t, ref))
	if err != nil || !info.Cached {
		t.Errorf("from the cache: %v cached %v", err, info.Cached)
	}
}

func TestCancel(t *testing.T) {
	dir := imagetest.WriteLayout(t, t.TempDir(), "", twoPackages(t))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := reader(t, nil, catalogimage.Options{}).Load(ctx, mustRef(t, "oci:"+dir))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

func TestParseReference(t *testing.T) {
	dir := t.TempDir()
	colon := filepath.Join(dir, "a:b")
	if err := os.Mkdir(colon, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		in, want, err string
	}{
		{in: "quay.io/operatorhubio/catalog:latest", want: "registry image quay.io/operatorhubio/catalog:latest"},
		{in: "localhost:5000/cat@sha256:" + strings.Repeat("a", 64), want: "registry image localhost:5000/cat@sha256:" + strings.Repeat("a", 64)},
		{in: "quay.io/operatorhubio/catalog", err: "registry image with no tag or digest: add one"},
		{in: "oci:/srv/cat", want: "OCI layout /srv/cat"},
		{in: "oci:/srv/cat:v4.20", want: "OCI layout /srv/cat (tag v4.20)"},
		{in: "oci:" + colon, want: "OCI layout " + colon},
		{in: "oci:" + colon + ":v1", want: "OCI layout " + colon + " (tag v1)"},
		{in: "oci:", err: "OCI layout: no folder"},
		{in: "oci:/srv/cat:", err: "empty tag"},
		{in: "docker-archive:cat.tar", want: "docker archive cat.tar"},
		{in: "docker-archive:", err: "docker archive: no file"},
		{in: "catalog.json", err: "not an image reference"},
		{in: "testdata/catalogs/x.json.gz", err: "not an image reference"},
		{in: "my.dir/catalog.yaml", err: "not an image reference"},
		{in: "operatorhubio/catalog:latest", err: `"operatorhubio/catalog:latest": no such file or folder, and not an image reference: a registry image is written with its registry, as in quay.io/operatorhubio/catalog:latest or docker.io/operatorhubio/catalog:latest`},
		{in: "operatorhubio/catalog", err: "not an image reference"},
		{in: "127.0.0.1:5000/Catalog:latest", err: `"127.0.0.1:5000/Catalog:latest": registry image: a repository name is lower case (127.0.0.1:5000/catalog:latest)`},
		{in: "quay.io/olm/catalog:v1!", err: `tag "v1!": a tag is letters`},
		{in: "quay.io/olm/catalog@sha256:abc", err: `digest "sha256:abc": a digest is sha256: and 64`},
	} {
		got, err := catalogimage.ParseReference(tc.in)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.in, err, tc.err)
			}
		case err != nil:
			t.Errorf("%q: %v", tc.in, err)
		case got.Describe() != tc.want:
			t.Errorf("%q: %s, want %s", tc.in, got.Describe(), tc.want)
		}
	}
}

func TestDockerSaveCorrupted(t *testing.T) {
	img := twoPackages(t)
	file := imagetest.WriteDockerSave(t, filepath.Join(t.TempDir(), "saved.tar"), img)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// Change one byte of a catalog file inside the second layer's tar.
	i := strings.LastIndex(string(data), `"schema":"olm.package","name":"b"`)
	if i < 0 {
		t.Fatal("no package b in the archive")
	}
	data[i+len(`"schema":"olm.package","name":"`)] = 'c'
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = reader(t, nil, catalogimage.Options{}).Load(context.Background(), mustRef(t, "docker-archive:"+file))
	if err == nil || !strings.Contains(err.Error(), "docker-archive:"+file+" (docker archive "+file+", sha256:") || !strings.Contains(err.Error(), "layer 2 of 2 (sha256:") || !strings.Contains(err.Error(), "does not match its diff ID") {
		t.Fatalf("error %v, want the archive, layer 2 and its diff ID named", err)
	}
}

func TestLocalFormsAreNotCached(t *testing.T) {
	img := twoPackages(t)
	dir := t.TempDir()
	layout := imagetest.WriteLayout(t, filepath.Join(dir, "layout"), "", img)
	archive := imagetest.WriteArchive(t, filepath.Join(dir, "catalog.tar"), img)
	cache := t.TempDir()
	r := reader(t, nil, catalogimage.Options{CacheDir: cache})
	for _, s := range []string{"oci:" + layout, "docker-archive:" + archive, "oci:" + layout} {
		if _, info, err := r.Load(context.Background(), mustRef(t, s)); err != nil || info.Cached {
			t.Fatalf("%s: %v, cached %v", s, err, info.Cached)
		}
	}
	if entries, _ := os.ReadDir(cache); len(entries) != 0 {
		t.Errorf("the cache holds %d entries, want none", len(entries))
	}
}

func TestCatalogPastLimit(t *testing.T) {
	img := imagetest.Image(t, map[string]string{imagetest.ConfigsLabel: "/configs"},
		imagetest.Layer(t, imagetest.File{Name: "configs/a/catalog.json", Data: fbc("a", "1.0.0")}),
		imagetest.Layer(t, imagetest.File{Name: "configs/b/catalog.json", Data: make([]byte, 48<<10)}))
	dir := imagetest.WriteLayout(t, t.TempDir(), "", img)
	_, _, err := reader(t, nil, catalogimage.Options{Loader: graph.Loader{MaxBytes: 32 << 10}}).Load(context.Background(), mustRef(t, "oci:"+dir))
	if err == nil || !strings.Contains(err.Error(), "layer 2 of 2") || !strings.Contains(err.Error(), "configs/b/catalog.json: the catalog is larger than the limit of 32 KiB") {
		t.Fatalf("error %v, want the file over the 32 KiB limit named", err)
	}
}
