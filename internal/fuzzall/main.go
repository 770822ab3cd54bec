// Command fuzzall runs every fuzz target of the module for a given time
// each, a few at a time, and prints per target the time it ran, the inputs
// it executed and whether it failed:
//
//	nice go run ./internal/fuzzall -fuzztime 5m -jobs 2
//
// It finds the targets by reading the test files (every func FuzzXxx(*testing.F)
// in a package of this module; -run narrows them by a regular expression
// on "package.FuzzXxx"), runs each as
//
//	go test ./pkg -run '^$' -fuzz '^FuzzXxx$' -fuzztime T -parallel P -fuzzminimizetime M
//
// and exits 1 when any fails. A failing input is written by go test under
// the package's testdata/fuzz/FuzzXxx/ and from then on runs with the
// tests; fuzzall names the file. It is not part of CI: a campaign takes
// the time given times the number of targets, divided by -jobs.
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

func main() {
	fuzztime := flag.Duration("fuzztime", time.Minute, "how long each target runs")
	jobs := flag.Int("jobs", 2, "how many targets run at once")
	parallel := flag.Int("parallel", 1, "the -parallel of each go test (fuzzing workers per target)")
	minimize := flag.Duration("fuzzminimizetime", 10*time.Second, "the time go test may spend minimising a failing input")
	run := flag.String("run", "", "only the targets whose package.FuzzName matches this regular expression")
	list := flag.Bool("list", false, "list the targets and exit")
	flag.Parse()
	if flag.NArg() != 0 || *jobs < 1 || *parallel < 1 {
		flag.Usage()
		os.Exit(2)
	}
	targets, err := findTargets(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "fuzzall:", err)
		os.Exit(2)
	}
	if *run != "" {
		re, err := regexp.Compile(*run)
		if err != nil {
			fmt.Fprintln(os.Stderr, "fuzzall: -run:", err)
			os.Exit(2)
		}
		targets = filter(targets, re)
	}
	if len(targets) == 0 {
		fmt.Fprintln(os.Stderr, "fuzzall: no fuzz target")
		os.Exit(2)
	}
	if *list {
		for _, t := range targets {
			fmt.Println(t)
		}
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cfg := config{fuzztime: *fuzztime, parallel: *parallel, minimize: *minimize}
	results := runAll(ctx, targets, *jobs, cfg)
	failed := printResults(os.Stdout, results)
	if failed {
		os.Exit(1)
	}
}

// target is one fuzz function: the package's directory relative to the
// module root ("cluster", "internal/cli") and the function's name.
type target struct{ dir, name string }

func (t target) String() string { return t.dir + "." + t.name }

// findTargets returns the fuzz targets of the module rooted at root, sorted
// by directory and name; directories holding a module of their own,
// testdata and hidden ones are not part of it.
func findTargets(root string) ([]target, error) {
	var ts []target
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || exists(filepath.Join(path, "go.mod"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv == nil && isFuzzName(fn.Name.Name) && takesF(fn) {
				ts = append(ts, target{filepath.ToSlash(filepath.Dir(path)), fn.Name.Name})
			}
		}
		return nil
	})
	sort.Slice(ts, func(i, j int) bool {
		if ts[i].dir != ts[j].dir {
			return ts[i].dir < ts[j].dir
		}
		return ts[i].name < ts[j].name
	})
	return ts, err
}

func exists(path string) bool { _, err := os.Stat(path); return err == nil }

// isFuzzName reports whether name is a fuzz target's name to go test:
// Fuzz, then nothing or a character that is not a lower-case letter.
func isFuzzName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Fuzz")
	return ok && (rest == "" || !(rest[0] >= 'a' && rest[0] <= 'z'))
}

// takesF reports whether fn takes one *testing.F.
func takesF(fn *ast.FuncDecl) bool {
	ps := fn.Type.Params.List
	if len(ps) != 1 || len(ps[0].Names) > 1 {
		return false
	}
	star, ok := ps[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "F"
}

func filter(ts []target, re *regexp.Regexp) []target {
	var out []target
	for _, t := range ts {
		if re.MatchString(t.String()) {
			out = append(out, t)
		}
	}
	return out
}

type config struct {
	fuzztime, minimize time.Duration
	parallel           int
}

// result is what one target's run gave.
type result struct {
	target
	elapsed time.Duration // the wall time of go test, building included
	fuzzed  string        // the fuzzing time go test last reported ("5m0s")
	execs   int64         // the inputs executed, as go test last reported them
	err     error
	input   string // the failing input go test wrote, if any
	output  []byte // go test's output, kept when it failed
}

// runAll runs the targets, jobs at a time, and returns their results in
// the targets' order; each finished one is announced on standard error.
func runAll(ctx context.Context, ts []target, jobs int, cfg config) []result {
	results := make([]result, len(ts))
	sem := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i, t := range ts {
		sem <- struct{}{} // in the targets' order
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			r := runOne(ctx, t, cfg)
			results[i] = r
			mu.Lock()
			fmt.Fprintf(os.Stderr, "fuzzall: %s: %s, %d execs, %s\n", t, r.fuzzed, r.execs, status(r))
			if r.err != nil {
				fmt.Fprintf(os.Stderr, "%s", r.output) // now, not only at the end
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	return results
}

// fuzzLine matches go test's progress lines: "fuzz: elapsed: 1m3s, execs: 1234 (…".
var fuzzLine = regexp.MustCompile(`^fuzz: elapsed: (\S+), execs: (\d+)`)

// failingInput matches the line naming a failing input go test wrote.
var failingInput = regexp.MustCompile(`Failing input written to (\S+)`)

func runOne(ctx context.Context, t target, cfg config) result {
	cmd := exec.CommandContext(ctx, "go", "test", "./"+t.dir, "-run", "^$", "-fuzz", "^"+t.name+"$",
		"-fuzztime", cfg.fuzztime.String(), "-parallel", strconv.Itoa(cfg.parallel),
		"-fuzzminimizetime", cfg.minimize.String())
	start := time.Now()
	out, err := cmd.CombinedOutput()
	r := result{target: t, elapsed: time.Since(start), err: err}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if m := fuzzLine.FindStringSubmatch(line); m != nil {
			r.fuzzed = m[1]
			r.execs, _ = strconv.ParseInt(m[2], 10, 64)
		}
		if m := failingInput.FindStringSubmatch(line); m != nil {
			r.input = filepath.Join(t.dir, m[1])
		}
	}
	if err != nil {
		r.output = out
	}
	return r
}

func status(r result) string {
	switch {
	case r.err == nil:
		return "ok"
	case r.input != "":
		return "FAIL, input " + r.input
	}
	return "FAIL"
}

// printResults writes one line per target, then the output of each that
// failed; it reports whether any did.
func printResults(w *os.File, rs []result) (failed bool) {
	var total int64
	fmt.Fprintf(w, "%-45s %10s %12s %12s  %s\n", "target", "fuzzed", "execs", "wall", "result")
	for _, r := range rs {
		total += r.execs
		fmt.Fprintf(w, "%-45s %10s %12d %12s  %s\n", r.target, r.fuzzed, r.execs, r.elapsed.Round(time.Second), status(r))
	}
	fmt.Fprintf(w, "%d targets, %d execs\n", len(rs), total)
	for _, r := range rs {
		if r.err != nil {
			failed = true
			fmt.Fprintf(w, "\n--- %s: %v\n%s", r.target, r.err, r.output)
		}
	}
	return failed
}
