package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFindTargets: the targets are read from the test files, with the
// go test rule for a fuzz target's name, and nested modules are skipped.
func TestFindTargets(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n")
	write("a/a_test.go", "package a\nimport \"testing\"\nfunc FuzzB(f *testing.F) {}\nfunc FuzzA(f *testing.F) {}\nfunc Fuzzy(f *testing.F) {}\nfunc FuzzT(t *testing.T) {}\nfunc Fuzz(f *testing.F) {}\n")
	write("a/a.go", "package a\nimport \"testing\"\nfunc FuzzNotATest(f *testing.F) {}\n")
	write("b/testdata/x_test.go", "package x\nimport \"testing\"\nfunc FuzzData(f *testing.F) {}\n")
	write("c/go.mod", "module example.com/c\n")
	write("c/c_test.go", "package c\nimport \"testing\"\nfunc FuzzOther(f *testing.F) {}\n")
	old, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(old)
	ts, err := findTargets(".")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tg := range ts {
		got = append(got, tg.String())
	}
	want := []string{"a.Fuzz", "a.FuzzA", "a.FuzzB"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("targets %q, want %q", got, want)
	}
}
