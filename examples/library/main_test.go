package main

import (
	"bytes"
	"context"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/internal/cli"
	"github.com/sextantdev/sextant/internal/txtar"
)

// codes counts the exit statuses seen.
var codes = map[int]int{}

// agree runs `sextant resolve -o json` and this program on the same
// arguments, from dir, and checks that they print the same answer with
// the same exit status.
func agree(t *testing.T, dir string, args []string) {
	t.Helper()
	var cliOut, cliErr, libOut, libErr bytes.Buffer
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	cliCode := cli.Run(context.Background(), append([]string{"resolve", "-o", "json"}, args...), nil, &cliOut, &cliErr)
	libCode := run(context.Background(), args, nil, &libOut, &libErr)
	codes[cliCode]++
	if cliCode != libCode || cliOut.String() != libOut.String() {
		t.Errorf("sextant resolve -o json %s: exit %d, %s\n%s\nthe library: exit %d, %s\n%s",
			strings.Join(args, " "), cliCode, cliErr.String(), cliOut.String(), libCode, libErr.String(), libOut.String())
	}
}

// TestAgreesOnREADME: the README's sample, through both doors.
func TestAgreesOnREADME(t *testing.T) {
	agree(t, filepath.Join("..", ".."), []string{"--catalog", "testdata/catalogs/community-operators-prod.v4.20-index.json.gz", "-f", "testdata/examples/cluster.yaml"})
}

// TestAgreesOnScenarios: every resolver scenario, written out as files,
// its catalogs named after their files (--catalog NAME=PATH) and its
// cluster state given with -f, through both doors: the same answer, or
// both refusing the input.
func TestAgreesOnScenarios(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "scenarios", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenario: %v", err)
	}
	checkScenarioCount(t, len(files))
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			var catalogs []string
			var args []string
			for _, f := range txtar.Parse(data).Files {
				p := filepath.Join(dir, filepath.FromSlash(f.Name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
				// catalog/NS/NAME.yaml, or catalog/NS/NAME/... a folder.
				parts := strings.Split(f.Name, "/")
				switch {
				case parts[0] == "catalog" && len(parts) == 3:
					catalogs = append(catalogs, strings.TrimSuffix(parts[2], path.Ext(parts[2]))+"="+f.Name)
				case parts[0] == "catalog" && len(parts) > 3:
					catalogs = append(catalogs, parts[2]+"="+path.Join(parts[:3]...))
				case f.Name == "cluster.yaml" || f.Name == "cluster.json":
					args = append(args, "-f", f.Name)
				}
			}
			slices.Sort(catalogs)
			for _, c := range slices.Compact(catalogs) {
				args = append(args, "--catalog", c)
			}
			agree(t, dir, args)
		})
	}
}

// scenarioCount is how the docs count the scenarios.
var scenarioCount = regexp.MustCompile(`(\d+) scenarios`)

// checkScenarioCount checks that the README and docs/ say how many
// scenarios there are (n), wherever they count them.
func checkScenarioCount(t *testing.T, n int) {
	t.Helper()
	docs, _ := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	for _, doc := range append([]string{filepath.Join("..", "..", "README.md")}, docs...) {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range scenarioCount.FindAllSubmatch(data, -1) {
			if string(m[1]) != strconv.Itoa(n) {
				t.Errorf("%s says %s; testdata/scenarios holds %d", doc, m[0], n)
			}
		}
	}
}

// TestMain reports how many runs gave each exit status.
func TestMain(m *testing.M) {
	code := m.Run()
	if testing.Verbose() {
		println("exit statuses:", codes[0], "plans,", codes[1], "no,", codes[2], "input refused")
	}
	os.Exit(code)
}
