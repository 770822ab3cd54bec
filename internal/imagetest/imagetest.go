// Package imagetest builds catalog images for tests: layers from files,
// images with labels, OCI layouts and docker archives on disk, and an
// in-process registry on loopback (go-containerregistry's pkg/registry)
// that counts what it serves and may ask for basic auth.
package imagetest

import (
	"archive/tar"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// TB is what the builders need of a test: testing.TB has it, and so has
// a command that stops at the first error.
type TB interface {
	Helper()
	Fatal(args ...any)
}

// ConfigsLabel is the label of a catalog image.
const ConfigsLabel = "operators.operatorframework.io.index.configs.v1"

// File is one entry of a layer. Type 0 is a regular file.
type File struct {
	Name string
	Data []byte
	Type byte
}

// Layer returns a gzip-compressed layer holding files, in order.
func Layer(tb TB, files ...File) v1.Layer {
	tb.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, f := range files {
		typ := f.Type
		if typ == 0 {
			typ = tar.TypeReg
		}
		hdr := &tar.Header{Name: f.Name, Typeflag: typ, Mode: 0o644, Size: int64(len(f.Data))}
		switch typ {
		case tar.TypeDir:
			hdr.Mode, hdr.Size = 0o755, 0
		case tar.TypeSymlink, tar.TypeLink:
			hdr.Linkname, hdr.Size = string(f.Data), 0
		}
		if err := tw.WriteHeader(hdr); err != nil {
			tb.Fatal(err)
		}
		if hdr.Size > 0 {
			if _, err := tw.Write(f.Data); err != nil {
				tb.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		tb.Fatal(err)
	}
	data := buf.Bytes()
	l, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil })
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

// Image returns an image of layers (bottom first) with labels.
func Image(tb TB, labels map[string]string, layers ...v1.Layer) v1.Image {
	tb.Helper()
	img, err := mutate.AppendLayers(empty.Image, layers...)
	if err != nil {
		tb.Fatal(err)
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		tb.Fatal(err)
	}
	cfg = cfg.DeepCopy()
	cfg.Config.Labels = labels
	cfg.Architecture, cfg.OS = "amd64", "linux"
	img, err = mutate.ConfigFile(img, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return img
}

// CatalogImage returns a catalog image with its label naming /configs: a
// first layer with a stand-in for opm, then one with fbc, each file under
// configs/ (e.g. "etcd/catalog.json").
func CatalogImage(tb TB, fbc map[string][]byte) v1.Image {
	tb.Helper()
	base := Layer(tb, File{Name: "bin/", Type: tar.TypeDir}, File{Name: "bin/opm", Data: []byte("#!/bin/sh\n")})
	var files []File
	files = append(files, File{Name: "configs/", Type: tar.TypeDir})
	for _, name := range sortedKeys(fbc) {
		files = append(files, File{Name: "configs/" + name, Data: fbc[name]})
	}
	return Image(tb, map[string]string{ConfigsLabel: "/configs"}, base, Layer(tb, files...))
}

// WriteLayout writes img into a new OCI layout at dir, tagged tag (when
// not empty), and returns dir.
func WriteLayout(tb TB, dir, tag string, img v1.Image) string {
	tb.Helper()
	p, err := layout.FromPath(dir)
	if err != nil {
		if p, err = layout.Write(dir, empty.Index); err != nil {
			tb.Fatal(err)
		}
	}
	var opts []layout.Option
	if tag != "" {
		opts = append(opts, layout.WithAnnotations(map[string]string{"org.opencontainers.image.ref.name": tag}))
	}
	if err := p.AppendImage(img, opts...); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// WriteArchive writes img as a tarball (crane pull's format) to file.
func WriteArchive(tb TB, file string, img v1.Image) string {
	tb.Helper()
	tag, err := name.NewTag("example.com/catalog:latest")
	if err != nil {
		tb.Fatal(err)
	}
	if err := tarball.WriteToFile(file, tag, img); err != nil {
		tb.Fatal(err)
	}
	return file
}

// Registry is an in-process registry on loopback, over plain HTTP.
type Registry struct {
	// Host is its host:port.
	Host string
	// User and Password, when set, are required (basic auth).
	User, Password string

	srv *httptest.Server
	mu  sync.Mutex
	// requests counts the GET and HEAD requests by kind: "manifests",
	// "blobs".
	requests map[string]int
	// Tamper, when set, may replace the body of a blob it is given.
	tamper func(digest string, body []byte) []byte
}

// NewRegistry starts a registry, stopped when the test ends.
func NewRegistry(tb testing.TB) *Registry {
	r := &Registry{requests: map[string]int{}}
	h := registry.New(registry.Logger(log.New(io.Discard, "", 0)))
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if r.User != "" {
			u, p, ok := req.BasicAuth()
			if !ok || u != r.User || p != r.Password {
				w.Header().Set("WWW-Authenticate", `Basic realm="imagetest"`)
				http.Error(w, "unauthorized", http.StatusUnauthorized)
				return
			}
		}
		if req.Method == http.MethodGet || req.Method == http.MethodHead {
			for _, kind := range []string{"manifests", "blobs"} {
				if strings.Contains(req.URL.Path, "/"+kind+"/") {
					r.mu.Lock()
					r.requests[kind]++
					tamper := r.tamper
					r.mu.Unlock()
					if kind == "blobs" && tamper != nil && req.Method == http.MethodGet {
						rec := httptest.NewRecorder()
						h.ServeHTTP(rec, req)
						digest := req.URL.Path[strings.LastIndex(req.URL.Path, "/")+1:]
						body := tamper(digest, rec.Body.Bytes())
						for k, v := range rec.Header() {
							w.Header()[k] = v
						}
						w.WriteHeader(rec.Code)
						w.Write(body)
						return
					}
				}
			}
		}
		h.ServeHTTP(w, req)
	}))
	tb.Cleanup(r.srv.Close)
	r.Host = strings.TrimPrefix(r.srv.URL, "http://")
	return r
}

// Push pushes img as repo:tag (repo without the host) and returns the full
// reference by tag and the image's digest.
func (r *Registry) Push(tb testing.TB, repoTag string, img v1.Image) (string, v1.Hash) {
	tb.Helper()
	ref, err := name.ParseReference(r.Host + "/" + repoTag)
	if err != nil {
		tb.Fatal(err)
	}
	var opts []remote.Option
	if r.User != "" {
		opts = append(opts, remote.WithAuth(&authn.Basic{Username: r.User, Password: r.Password}))
	}
	if err := remote.Write(ref, img, opts...); err != nil {
		tb.Fatal(err)
	}
	d, err := img.Digest()
	if err != nil {
		tb.Fatal(err)
	}
	return ref.Name(), d
}

// Requests returns how many GET and HEAD requests of kind ("manifests" or
// "blobs") the registry served, and resets the count.
func (r *Registry) Requests(kind string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.requests[kind]
	r.requests[kind] = 0
	return n
}

// SetTamper sets a function that may change the bodies of the blobs served.
func (r *Registry) SetTamper(f func(digest string, body []byte) []byte) {
	r.mu.Lock()
	r.tamper = f
	r.mu.Unlock()
}

// DockerConfig writes a Docker config file with the credentials of the
// registry into a new folder and returns the folder (for DOCKER_CONFIG).
func DockerConfig(tb testing.TB, host, user, password string) string {
	tb.Helper()
	dir := tb.TempDir()
	cfg := map[string]any{"auths": map[string]any{host: map[string]string{"auth": base64.StdEncoding.EncodeToString([]byte(user + ":" + password))}}}
	data, err := json.Marshal(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), data, 0o600); err != nil {
		tb.Fatal(err)
	}
	return dir
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// WriteDockerSave writes img to file as docker save writes it: the
// config, manifest.json and each layer uncompressed as ID/layer.tar.
func WriteDockerSave(tb TB, file string, img v1.Image) string {
	tb.Helper()
	f, err := os.Create(file)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	tw := tar.NewWriter(f)
	add := func(name string, data []byte) {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			tb.Fatal(err)
		}
		if _, err := tw.Write(data); err != nil {
			tb.Fatal(err)
		}
	}
	cfg, err := img.RawConfigFile()
	if err != nil {
		tb.Fatal(err)
	}
	cfgName, err := img.ConfigName()
	if err != nil {
		tb.Fatal(err)
	}
	add(cfgName.Hex+".json", cfg)
	layers, err := img.Layers()
	if err != nil {
		tb.Fatal(err)
	}
	var names []string
	for _, l := range layers {
		d, err := l.DiffID()
		if err != nil {
			tb.Fatal(err)
		}
		rc, err := l.Uncompressed()
		if err != nil {
			tb.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			tb.Fatal(err)
		}
		name := d.Hex + "/layer.tar"
		add(name, data)
		names = append(names, name)
	}
	manifest, err := json.Marshal([]map[string]any{{"Config": cfgName.Hex + ".json", "RepoTags": []string{"example.com/catalog:latest"}, "Layers": names}})
	if err != nil {
		tb.Fatal(err)
	}
	add("manifest.json", manifest)
	if err := tw.Close(); err != nil {
		tb.Fatal(err)
	}
	return file
}
