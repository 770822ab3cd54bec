package sextant_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/internal/cli"
)

// TestResolveMatchesCLI: the world's answer is `sextant resolve -o json`'s,
// byte for byte, with the same exit status.
func TestResolveMatchesCLI(t *testing.T) {
	tests := []struct {
		name      string
		catalogs  []string
		manifests []string
		ns        string
	}{
		{"readme", []string{"testdata/catalogs/community-operators-prod.v4.20-index.json.gz"}, []string{"testdata/examples/cluster.yaml"}, ""},
		{"catalogsources", []string{cliCatalogs + "app.yaml", cliCatalogs + "db.json"}, []string{cliManifests + "app.yaml", cliManifests + "catalogsource.yaml"}, ""},
		{"heldback", []string{cliCatalogs + "heldback.yaml"}, []string{cliManifests + "heldback.yaml"}, ""},
		{"deprecated", []string{cliCatalogs + "deprecated.yaml"}, []string{cliManifests + "deprecated.yaml"}, ""},
		{"v1 and v0", []string{"etcd=" + cliCatalogs + "etcd.yaml"}, []string{cliManifests + "v1/mixed.yaml"}, ""},
		{"v1", []string{"etcd=" + cliCatalogs + "etcd.yaml"}, []string{cliManifests + "v1/extensions.yaml"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"resolve", "-o", "json"}
			for _, c := range tt.catalogs {
				args = append(args, "--catalog", c)
			}
			for _, m := range tt.manifests {
				args = append(args, "-f", m)
			}
			var stdout, stderr bytes.Buffer
			code := cli.Run(context.Background(), args, nil, &stdout, &stderr)
			w, err := load(t, sextant.Input{Manifests: files(tt.manifests...), Namespace: tt.ns}, tt.catalogs...)
			if err != nil {
				t.Fatalf("%v (the command line: exit %d, %s)", err, code, stderr.String())
			}
			a, err := w.Resolve(context.Background(), sextant.AnswerOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			enc := json.NewEncoder(&got)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(a); err != nil {
				t.Fatal(err)
			}
			if got.String() != stdout.String() {
				t.Errorf("the world's answer:\n%s\nsextant resolve -o json (exit %d, %s):\n%s", got.String(), code, stderr.String(), stdout.String())
			}
			if want := map[bool]int{false: cli.ExitOK, true: cli.ExitNo}[a.No()]; code != want {
				t.Errorf("exit %d, the world says no: %v", code, a.No())
			}
		})
	}
}
