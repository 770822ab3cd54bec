package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// readmeCommand is one command block of README.md or a page of docs/: the
// command line, its file and line, and the output shown under it.
type readmeCommand struct {
	file string
	line int
	cmd  string   // as written, without "$ "
	args []string // the arguments of sextant
	want []string // the lines shown; a line holding only "…" is an elision
}

// readmeCommands reads the command blocks of a page (file names it in
// errors): in a fenced block, a line starting "$ go run ./cmd/sextant " or
// "$ sextant " is a command, and the lines after it, up to the next "$ "
// line or the fence, its output. A fence indented in a list item indents
// its lines as much: that indentation is not part of them.
func readmeCommands(file, text string) ([]readmeCommand, error) {
	var cmds []readmeCommand
	var cur *readmeCommand
	inFence := false
	indent := ""
	for i, l := range strings.Split(text, "\n") {
		if t := strings.TrimLeft(l, " "); strings.HasPrefix(t, "```") {
			inFence, cur = !inFence, nil
			indent = l[:len(l)-len(t)]
			continue
		}
		if !inFence {
			continue
		}
		l = strings.TrimPrefix(l, indent)
		if strings.HasPrefix(l, "$ ") {
			cur = nil
			rest, ok := strings.CutPrefix(l, "$ go run ./cmd/sextant ")
			if !ok {
				rest, ok = strings.CutPrefix(l, "$ sextant ")
			}
			if !ok {
				continue // another program's command: not run
			}
			if strings.ContainsAny(rest, "|<>;&$`'\"\\*?") {
				return nil, fmt.Errorf("%s:%d: %q: shell syntax the README test does not run; show a plain command", file, i+1, l)
			}
			cmds = append(cmds, readmeCommand{file: file, line: i + 1, cmd: l[2:], args: strings.Fields(rest)})
			cur = &cmds[len(cmds)-1]
			continue
		}
		if cur != nil {
			cur.want = append(cur.want, l)
		}
	}
	return cmds, nil
}

// matchOutput reports whether got matches want, where a line of want
// holding only "…" stands for any number of lines; otherwise it returns
// the first line of want that does not match (1-based, in want) and what
// got has there.
func matchOutput(want, got []string) (ok bool, wantLine int, gotText string) {
	// Split want into runs of literal lines between elisions; each run
	// must appear in order, the first at the start unless want starts
	// with an elision, the last at the end unless want ends with one.
	type run struct {
		start int // index in want
		lines []string
	}
	var runs []run
	var cur *run
	for i, l := range want {
		if strings.TrimSpace(l) == "…" {
			cur = nil
			continue
		}
		if cur == nil {
			runs = append(runs, run{start: i})
			cur = &runs[len(runs)-1]
		}
		cur.lines = append(cur.lines, l)
	}
	elidedStart := len(want) > 0 && strings.TrimSpace(want[0]) == "…"
	elidedEnd := len(want) > 0 && strings.TrimSpace(want[len(want)-1]) == "…"
	at := 0
	for k, r := range runs {
		anchoredStart := k == 0 && !elidedStart
		anchoredEnd := k == len(runs)-1 && !elidedEnd
		found := -1
		switch {
		case anchoredEnd:
			if p := len(got) - len(r.lines); p >= at && (!anchoredStart || p == at) && equalLines(got[p:], r.lines) {
				found = p
			}
		case anchoredStart:
			if len(got)-at >= len(r.lines) && equalLines(got[at:at+len(r.lines)], r.lines) {
				found = at
			}
		default:
			for p := at; p+len(r.lines) <= len(got); p++ {
				if equalLines(got[p:p+len(r.lines)], r.lines) {
					found = p
					break
				}
			}
		}
		if found < 0 {
			// Say where: the first line of the run that differs from got
			// at the likeliest place (where the run should start).
			p := at
			if anchoredEnd && !anchoredStart {
				p = max(at, len(got)-len(r.lines))
			}
			for j, l := range r.lines {
				g := "(end of output)"
				if p+j < len(got) {
					g = got[p+j]
				}
				if g != l {
					return false, r.start + j + 1, g
				}
			}
			// The run matches where it starts, but more follows.
			g := "(end of output)"
			if p+len(r.lines) < len(got) {
				g = got[p+len(r.lines)]
			}
			return false, r.start + len(r.lines) + 1, g
		}
		at = found + len(r.lines)
	}
	if len(runs) == 0 || elidedEnd || at == len(got) {
		return true, 0, ""
	}
	return false, len(want) + 1, got[at]
}

func equalLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// readmePages are README.md and the pages of docs/, whose command blocks
// TestReadme runs.
func readmePages(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatal("no page in docs/: the test runs from the wrong folder")
	}
	return append([]string{"README.md"}, docs...)
}

// TestReadme runs every command block of README.md and of the pages of
// docs/ against the shipped data and compares its standard output with the
// lines the page shows (a line holding only "…" stands for any number of
// lines).
func TestReadme(t *testing.T) {
	var cmds []readmeCommand
	for _, page := range readmePages(t) {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		c, err := readmeCommands(filepath.ToSlash(page), string(data))
		if err != nil {
			t.Fatal(err)
		}
		if page == "README.md" && len(c) < 5 {
			t.Fatalf("found %d command blocks in README.md; the parser is broken", len(c))
		}
		cmds = append(cmds, c...)
	}
	heavy := 0
	for _, c := range cmds {
		t.Run(fmt.Sprintf("%s:%d", strings.TrimSuffix(c.file, ".md"), c.line), func(t *testing.T) {
			if testing.Short() && strings.Contains(c.cmd, "community-operators-prod.declared") {
				t.Skip("the 17 MB catalog's check: -short")
			}
			sampleUnderRace(t, c.cmd, &heavy)
			var out, errb bytes.Buffer
			Run(context.Background(), c.args, strings.NewReader(""), &out, &errb)
			got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			want := c.want
			for len(want) > 0 && want[len(want)-1] == "" {
				want = want[:len(want)-1]
			}
			if ok, line, g := matchOutput(want, got); !ok {
				w := "(nothing)"
				if line-1 < len(want) {
					w = want[line-1]
				}
				t.Errorf("%s:%d: the block of `%s` differs from what it prints, at %s:%d:\n  page:   %s\n  prints: %s\nthe whole output:\n%s\nstandard error:\n%s",
					c.file, c.line, c.cmd, c.file, c.line+line, w, g, out.String(), errb.String())
			}
		})
	}
}

// TestMatchOutput: elisions match any number of lines, literal lines
// match exactly, in order, from the start and to the end.
func TestMatchOutput(t *testing.T) {
	got := []string{"a", "b", "c", "d"}
	for _, tt := range []struct {
		want []string
		ok   bool
		line int
	}{
		{[]string{"a", "b", "c", "d"}, true, 0},
		{[]string{"a", "…", "d"}, true, 0},
		{[]string{"…", "c", "d"}, true, 0},
		{[]string{"a", "…"}, true, 0},
		{[]string{"…"}, true, 0},
		{[]string{"a", "…", "b", "…", "d"}, true, 0},
		{[]string{"a", "b"}, false, 3},
		{[]string{"a", "x", "…"}, false, 2},
		{[]string{"…", "x"}, false, 2},
		{[]string{"a", "…", "c"}, false, 3},
		{[]string{"b", "…"}, false, 1},
		{[]string{"a", "b", "c", "d", "e"}, false, 5},
	} {
		ok, line, _ := matchOutput(tt.want, got)
		if ok != tt.ok || (!ok && line != tt.line) {
			t.Errorf("matchOutput(%q) = %v at line %d, want %v at line %d", tt.want, ok, line, tt.ok, tt.line)
		}
	}
}

// TestReadmeFrontPage: README.md is a front page of at most 300 lines, and
// its test command is the one .ci/run runs.
func TestReadmeFrontPage(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if n := strings.Count(text, "\n"); n > 300 {
		t.Errorf("README.md has %d lines; a front page has at most 300 (the reference goes to docs/)", n)
	}
	_, block, ok := strings.Cut(text, "```sh\n")
	block, _, _ = strings.Cut(block, "```")
	lines := strings.Split(strings.TrimSpace(block), "\n")
	if !ok || len(lines) != 2 {
		t.Fatalf("README.md's first sh block should hold the two first-screen commands, not %q", block)
	}
	ci, err := os.ReadFile(filepath.Join(".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ci), "\n"+lines[1]+" || exit 1\n") {
		t.Errorf("README.md's test command %q is not the one .ci/run runs", lines[1])
	}
}

// TestDocLinks: every relative link of README.md and of the pages of docs/
// names a file of the repository, and a #fragment of a Markdown file one of
// its headings (as GitHub makes anchors of them).
func TestDocLinks(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	anchors := map[string]map[string]bool{}
	anchorsOf := func(file string) map[string]bool {
		if a, ok := anchors[file]; ok {
			return a
		}
		a := map[string]bool{}
		anchors[file] = a
		data, err := os.ReadFile(file)
		if err != nil {
			return a
		}
		inFence := false
		for _, l := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "```") {
				inFence = !inFence
			}
			if inFence || !strings.HasPrefix(l, "#") {
				continue
			}
			slug := githubAnchor(strings.TrimLeft(l, "# "))
			for i, s := 0, slug; ; i++ {
				if !a[s] {
					a[s] = true
					break
				}
				s = fmt.Sprintf("%s-%d", slug, i+1)
			}
		}
		return a
	}
	for _, page := range readmePages(t) {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(data), "\n") {
			for _, m := range link.FindAllStringSubmatch(l, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				file, frag, _ := strings.Cut(target, "#")
				if file == "" {
					file = page
				} else {
					file = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
				}
				if _, err := os.Stat(file); err != nil {
					t.Errorf("%s:%d: link %s: no such file %s", page, i+1, target, file)
					continue
				}
				if frag != "" && strings.HasSuffix(file, ".md") && !anchorsOf(file)[frag] {
					t.Errorf("%s:%d: link %s: %s has no heading #%s", page, i+1, target, file, frag)
				}
			}
		}
	}
}

// githubAnchor is the anchor GitHub gives a Markdown heading: lower case,
// letters, digits, spaces, hyphens and underscores kept, spaces made
// hyphens.
func githubAnchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}
