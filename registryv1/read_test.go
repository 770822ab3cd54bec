package registryv1

import (
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"sigs.k8s.io/yaml"

	"github.com/sextantdev/sextant/crd"
	"github.com/sextantdev/sextant/internal/golden"
	"github.com/sextantdev/sextant/internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the want files of testdata/read")

// archiveFS is the files of a txtar archive under prefix, as a file
// system.
func archiveFS(a *txtar.Archive, prefix string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for _, f := range a.Files {
		if name, ok := strings.CutPrefix(f.Name, prefix); ok {
			fsys[name] = &fstest.MapFile{Data: f.Data}
		}
	}
	return fsys
}

// describe writes what was read of a bundle, and the problems, as the
// want files hold it.
func describe(b *Bundle, problems []error) string {
	var w strings.Builder
	if b == nil {
		w.WriteString("no bundle\n")
	} else {
		c := b.CSV
		fmt.Fprintf(&w, "csv %s version %q package %q\n", c.Name, c.Version, b.Package)
		fmt.Fprintf(&w, "  installModes %v owned %v deployments %v webhooks %d\n", c.InstallModes, c.OwnedCRDs, c.Deployments, len(c.Webhooks))
		for _, p := range c.Permissions {
			fmt.Fprintf(&w, "  permissions %s %v\n", p.ServiceAccountName, p.Rules)
		}
		for _, p := range c.ClusterPermissions {
			fmt.Fprintf(&w, "  clusterPermissions %s %v\n", p.ServiceAccountName, p.Rules)
		}
		for _, r := range b.CRDs {
			fmt.Fprintf(&w, "crd %s:%d %s %s", r.File, r.Line, r.APIVersion, r.Digest.String()[:15])
			if d, _, err := r.Parse(); err != nil {
				fmt.Fprintf(&w, ": %v\n", err)
			} else {
				fmt.Fprintf(&w, " %s\n", d.Name)
			}
		}
		for _, o := range b.Objects {
			fmt.Fprintf(&w, "object %s:%d %s %s %s/%s\n", o.File, o.Line, o.APIVersion, o.Kind, o.Namespace, o.Name)
			if o.Rules != nil {
				fmt.Fprintf(&w, "  rules %v\n", o.Rules)
			}
			if o.RoleRef != nil {
				fmt.Fprintf(&w, "  roleRef %s %s\n", o.RoleRef.Kind, o.RoleRef.Name)
			}
		}
	}
	for _, p := range problems {
		var pr *Problem
		if !errors.As(p, &pr) {
			fmt.Fprintf(&w, "problem (not a *Problem): %v\n", p)
			continue
		}
		fmt.Fprintf(&w, "problem %v\n", p)
	}
	return w.String()
}

// TestReadFS reads each bundle of testdata/read (the files under bundle/
// of the archive) and compares what was read with the archive's want
// (-update rewrites it).
func TestReadFS(t *testing.T) {
	files, _ := filepath.Glob("testdata/read/*.txtar")
	if len(files) == 0 {
		t.Fatal("no cases")
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			a := txtar.Parse(data)
			fsys := archiveFS(a, "bundle/")
			b, problems := Loader{MaxDocument: 4096}.ReadFS(fsys, Source{Kind: FromFolder, Path: "b"})
			got := describe(b, problems)
			checkCRDs(t, b, fsys)
			if *update {
				a.Set("want", []byte(got))
				golden.Check(t, f, txtar.Format(a), true)
				return
			}
			want, _ := a.Get("want")
			if d, ok := golden.FirstDiff(want, []byte(got)); ok {
				t.Errorf("%s: read differs (-update rewrites it):\n%s", f, d)
			}
		})
	}
}

// checkCRDs holds each CRD of b, kept by digest, to its manifest read
// whole as Kubernetes reads YAML (sigs.k8s.io/yaml, then crd.Decode): the
// same definition or the same error.
func checkCRDs(t *testing.T, b *Bundle, fsys fstest.MapFS) {
	t.Helper()
	if b == nil {
		return
	}
	for _, r := range b.CRDs {
		text := r.text
		if text == nil {
			var err error
			if text, err = r.read(); err != nil {
				t.Fatalf("%s: %v", r.Where(), err)
			}
		}
		if got := Digest(sha256.Sum256(text)); got != r.Digest {
			t.Errorf("%s: digest %s, the text's %s", r.Where(), r.Digest, got)
		}
		got, _, gotErr := r.Parse()
		var m map[string]any
		want, wantErr := (*crd.Definition)(nil), error(nil)
		if err := yaml.Unmarshal(text, &m); err != nil {
			wantErr = err
		} else if m["kind"] != crd.Kind {
			wantErr = errors.New("not a CustomResourceDefinition")
		} else {
			want, _, wantErr = crd.Decode(m)
		}
		if (gotErr == nil) != (wantErr == nil) {
			t.Errorf("%s: error %v, read whole %v", r.Where(), gotErr, wantErr)
			continue
		}
		if gotErr == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v, read whole %+v", r.Where(), got, want)
		}
	}
}
