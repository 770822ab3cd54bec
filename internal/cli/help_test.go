package cli

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// maxHelpLines is the most lines a command's --help may have: one screen.
const maxHelpLines = 50

// TestHelpFits: the --help of every command fits in one screen (at most
// maxHelpLines lines of at most helpWidth characters, flags included) and
// ends by naming its help topics, each of which exists; every topic is
// named by some command, and its lines fit the width too.
func TestHelpFits(t *testing.T) {
	root := newRootCmd(&env{images: &imageFlags{}})
	named := map[string]bool{}
	cmds := [][]string{{"--help"}}
	for _, c := range root.Commands() {
		if c.Runnable() && !c.Hidden && c.Name() != "help" {
			cmds = append(cmds, []string{c.Name(), "--help"})
		}
	}
	if len(cmds) < 9 {
		t.Fatalf("found %d commands; the listing is broken", len(cmds))
	}
	for _, args := range cmds {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			out, stderr, code := run("", args...)
			if code != ExitOK || stderr != "" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if len(lines) > maxHelpLines {
				t.Errorf("%d lines, want at most %d:\n%s", len(lines), maxHelpLines, out)
			}
			checkWidth(t, lines)
			if args[0] == "--help" || args[0] == "version" {
				return // the root lists every topic; version needs none
			}
			// The last lines name the topics: "Help topics: a, b (sextant help TOPIC)".
			tail := strings.Join(lines[max(0, len(lines)-3):], " ")
			_, list, ok := strings.Cut(tail, "Help topics: ")
			list, _, ok2 := strings.Cut(list, " (sextant help TOPIC)")
			if !ok || !ok2 || !strings.HasSuffix(out, "(sextant help TOPIC)\n") {
				t.Fatalf("does not end by naming its help topics:\n%s", out)
			}
			for _, topic := range strings.Split(list, ", ") {
				named[topic] = true
				if c, _, err := root.Find([]string{topic}); err != nil || c == root || !c.IsAdditionalHelpTopicCommand() {
					t.Errorf("names help topic %q, which does not exist", topic)
				}
			}
		})
	}
	for _, c := range root.Commands() {
		if !c.IsAdditionalHelpTopicCommand() {
			continue
		}
		t.Run("help "+c.Name(), func(t *testing.T) {
			out, stderr, code := run("", "help", c.Name())
			if code != ExitOK || stderr != "" || len(out) < 200 {
				t.Fatalf("exit %d, stderr %q, stdout %q", code, stderr, out)
			}
			checkWidth(t, strings.Split(strings.TrimSuffix(out, "\n"), "\n"))
			if c.Name() != globalFlagsTopic && !named[c.Name()] {
				t.Errorf("help topic %q is named by no command's --help", c.Name())
			}
		})
	}
}

// checkWidth reports the lines wider than helpWidth characters.
func checkWidth(t *testing.T, lines []string) {
	t.Helper()
	for i, l := range lines {
		if n := utf8.RuneCountInString(l); n > helpWidth {
			t.Errorf("line %d is %d characters wide, want at most %d: %s", i+1, n, helpWidth, l)
		}
	}
}

// TestHelpUnknownTopic: "sextant help" with a name that is no command or
// topic is a usage error with the nearest name.
func TestHelpUnknownTopic(t *testing.T) {
	out, stderr, code := run("", "help", "catalog")
	if code != ExitBadInput || out != "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	if !strings.Contains(stderr, `unknown help topic "catalog" (did you mean "catalogs"?); commands and topics: bundles, cache, catalogs, check,`) {
		t.Errorf("stderr: %s", stderr)
	}
	for _, args := range [][]string{{"help"}, {"help", "resolve"}} {
		out, _, code := run("", args...)
		want, _, _ := run("", append(args[1:], "--help")...)
		if code != ExitOK || out != want || !slices.Contains(strings.Split(out, "\n"), "Usage:") {
			t.Errorf("sextant %s: exit %d, output differs from --help", strings.Join(args, " "), code)
		}
	}
}
