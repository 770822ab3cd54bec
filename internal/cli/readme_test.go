package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
)

// readmeCommand is one command block of README.md: the command line, its
// line in the README, and the output shown under it.
type readmeCommand struct {
	line int
	cmd  string   // as written, without "$ "
	args []string // the arguments of sextant
	want []string // the lines shown; a line holding only "…" is an elision
}

// readmeCommands reads the command blocks of a README: in a fenced block, a
// line starting "$ go run ./cmd/sextant " or "$ sextant " is a command, and
// the lines after it, up to the next "$ " line or the fence, its output.
func readmeCommands(text string) ([]readmeCommand, error) {
	var cmds []readmeCommand
	var cur *readmeCommand
	inFence := false
	for i, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inFence, cur = !inFence, nil
			continue
		}
		if !inFence {
			continue
		}
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
				return nil, fmt.Errorf("README.md:%d: %q: shell syntax the README test does not run; show a plain command", i+1, l)
			}
			cmds = append(cmds, readmeCommand{line: i + 1, cmd: l[2:], args: strings.Fields(rest)})
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

// TestReadme runs every command block of README.md against the shipped
// data and compares its standard output with the lines the README shows
// (a line holding only "…" stands for any number of lines).
func TestReadme(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	cmds, err := readmeCommands(string(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) < 5 {
		t.Fatalf("found %d command blocks in README.md; the parser is broken", len(cmds))
	}
	heavy := 0
	for _, c := range cmds {
		t.Run(fmt.Sprintf("line%d", c.line), func(t *testing.T) {
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
				t.Errorf("README.md:%d: the block of `%s` differs from what it prints, at README.md:%d:\n  README: %s\n  prints: %s\nthe whole output:\n%s\nstandard error:\n%s",
					c.line, c.cmd, c.line+line, w, g, out.String(), errb.String())
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
