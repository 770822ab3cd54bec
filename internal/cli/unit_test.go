package cli

import (
	"cmp"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/sextantdev/sextant/check"
	"github.com/sextantdev/sextant/graph"
)

func TestErrorLines(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		want   []string
		reason string
	}{
		{name: "plain", err: errors.New("a.json: bad"), want: []string{"a.json: bad"}},
		{
			name:   "joined",
			err:    errors.Join(errors.New("a.json: bad"), errors.New("b.json: worse")),
			want:   []string{"a.json: bad", "b.json: worse"},
			reason: "each problem gets its own line",
		},
		{
			name:   "wrapped multi-line",
			err:    fmt.Errorf("a.json: %w", errors.Join(errors.New("line 1: x"), errors.New("line 2: y"))),
			want:   []string{"a.json: line 1: x; line 2: y"},
			reason: "a wrapped multi-line message stays on the line that names the file",
		},
		{
			name: "exit error around joined",
			err:  &exitError{code: ExitBadInput, err: errors.Join(errors.New("a"), errors.New("b"))},
			want: []string{"a", "b"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := errorLines(tt.err, nil); !slices.Equal(got, tt.want) {
				t.Errorf("errorLines = %q, want %q (%s)", got, tt.want, tt.reason)
			}
		})
	}
}

func TestExitCodes(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want int
	}{
		{name: "no command shows help", args: nil, want: ExitOK},
		{name: "help flag", args: []string{"--help"}, want: ExitOK},
		{name: "command help", args: []string{"check", "--help"}, want: ExitOK},
		{name: "unknown command", args: []string{"nope"}, want: ExitBadInput},
		{name: "unknown root flag", args: []string{"--nope"}, want: ExitBadInput},
		{name: "version with argument", args: []string{"version", "extra"}, want: ExitBadInput},
		{name: "graph with two paths", args: []string{"graph", "a", "b", "--package", "p"}, want: ExitBadInput},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := run("", tt.args...)
			if code != tt.want {
				t.Errorf("sextant %q: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", tt.args, code, tt.want, stdout, stderr)
			}
			if code == ExitBadInput && (strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, " --help\")\n")) {
				t.Errorf("stderr should be one line ending with the usage hint, got:\n%s", stderr)
			}
		})
	}
}

func TestVersion(t *testing.T) {
	stdout, stderr, code := run("", "version")
	if code != ExitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.HasPrefix(stdout, "sextant ") || !strings.Contains(stdout, "go "+runtime.Version()+"\n") {
		t.Errorf("version output %q", stdout)
	}

	defer func(f func() (*debug.BuildInfo, bool)) { readBuildInfo = f }(readBuildInfo)
	readBuildInfo = func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{
			GoVersion: "go1.99.1",
			Main:      debug.Module{Path: "github.com/sextantdev/sextant", Version: "v1.2.3"},
			Settings:  []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.modified", Value: "true"}},
		}, true
	}
	stdout, _, _ = run("", "version")
	if want := "sextant v1.2.3\nrevision abc123 (modified)\ngo go1.99.1\n"; stdout != want {
		t.Errorf("version = %q, want %q", stdout, want)
	}
	stdout, _, _ = run("", "version", "-o", "json")
	if want := "{\n  \"version\": \"v1.2.3\",\n  \"revision\": \"abc123\",\n  \"modified\": true,\n  \"go\": \"go1.99.1\"\n}\n"; stdout != want {
		t.Errorf("version -o json = %q, want %q", stdout, want)
	}
	readBuildInfo = func() (*debug.BuildInfo, bool) { return nil, false }
	stdout, _, _ = run("", "version")
	if want := "sextant (devel)\ngo " + runtime.Version() + "\n"; stdout != want {
		t.Errorf("version without build info = %q, want %q", stdout, want)
	}
}

func TestAvailable(t *testing.T) {
	many := strings.Fields("alpha beta etcd etcd-operator gamma delta prometheus grafana loki tempo mimir")
	tests := []struct {
		name  string
		names []string
		asked string
		want  string
	}{
		{name: "none", names: nil, asked: "x", want: "it has no channels"},
		{name: "few", names: []string{"alpha", "stable"}, asked: "beta", want: "channels: alpha, stable"},
		{name: "ten", names: strings.Fields("a b c d e f g h i j"), asked: "k", want: "channels: a, b, c, d, e, f, g, h, i, j"},
		{name: "many", names: many, asked: "omega", want: "11 channels"},
		{name: "many similar", names: many, asked: "ETCD", want: `did you mean "etcd"? 11 channels; similar: etcd, etcd-operator`},
		{name: "a typo", names: many, asked: "prometeus", want: `did you mean "prometheus"? 11 channels`},
		{name: "contained", names: many, asked: "grafana-operator", want: "11 channels; similar: grafana"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := available("channels", tt.names, tt.asked); got != tt.want {
				t.Errorf("available(%q, %q) = %q, want %q", tt.names, tt.asked, got, tt.want)
			}
		})
	}
}

// checkGraphAgreesWithSuccessors checks that the edges drawn out of every
// entry with a version are exactly the channel's Successors of it.
func checkGraphAgreesWithSuccessors(t *testing.T, cat *graph.Catalog) {
	t.Helper()
	for _, pkg := range cat.Packages() {
		for _, ch := range pkg.Channels {
			nodes, edges, _ := channelGraph(pkg, ch, true)
			if !slices.IsSortedFunc(edges, func(a, b edgeView) int {
				return cmp.Or(a.To-b.To, int(a.Kind)-int(b.Kind), a.From-b.From)
			}) {
				t.Errorf("%s/%s: edges not sorted by target, kind and source", pkg.Name, ch.Name)
			}
			for i, n := range nodes {
				if n.Missing {
					continue
				}
				b := pkg.Bundle(n.Name)
				if b == nil {
					continue
				}
				v, ok := b.ValidVersion()
				if !ok {
					continue
				}
				var got []string
				for _, e := range edges {
					if e.From == i && e.To != i && !slices.Contains(got, nodes[e.To].Name) {
						got = append(got, nodes[e.To].Name)
					}
				}
				slices.SortFunc(got, func(a, b string) int { return ch.Position(a) - ch.Position(b) })
				if want := ch.Successors(n.Name, v); !slices.Equal(got, want) {
					t.Errorf("%s/%s: edges out of %s go to %q, Successors = %q", pkg.Name, ch.Name, n.Name, got, want)
				}
			}
		}
	}
}

func TestGraphAgreesWithSuccessors(t *testing.T) {
	for _, path := range []string{"testdata/cli/catalogs/etcd.yaml", "testdata/cli/catalogs/clean.json", "testdata/cli/catalogs/broken"} {
		t.Run(path, func(t *testing.T) {
			cat, err := graph.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			checkGraphAgreesWithSuccessors(t, cat)
		})
	}
	if testing.Short() {
		return
	}
	t.Run("community", func(t *testing.T) {
		cat, err := graph.Load(communityCatalog)
		if err != nil {
			t.Fatal(err)
		}
		checkGraphAgreesWithSuccessors(t, cat)
	})
}

// unescapeDot undoes dotText.
func unescapeDot(s string) (string, bool) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return "", false
	}
	var b strings.Builder
	s = s[1 : len(s)-1]
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			return "", false // an unescaped quote ends the string early
		}
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i == len(s) {
			return "", false
		}
		switch s[i] {
		case '\\', '"':
			b.WriteByte(s[i])
		case 'n':
			b.WriteByte('\n')
		default:
			return "", false
		}
	}
	return b.String(), true
}

// FuzzLabels checks that labels survive escaping: a dot string unescapes to
// its text, and a Mermaid label has no character that would end or break
// it.
func FuzzLabels(f *testing.F) {
	for _, s := range []string{"etcdoperator.v0.9.4", ">=0.9.0 <0.9.4", `a "quoted" \ name`, "#1 & co\nnext"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, ok := unescapeDot(dotText(s)); !ok || got != s {
			t.Errorf("dotText(%q) = %s, unescapes to %q, %v", s, dotText(s), got, ok)
		}
		m := mermaidText(s)
		if strings.ContainsAny(m, "\"<>`\r\n") {
			t.Errorf("mermaidText(%q) = %q keeps a quote, angle bracket, backtick or line break", s, m)
		}
		if strings.Count(m, "#") != strings.Count(m, ";")-strings.Count(s, ";") {
			t.Errorf("mermaidText(%q) = %q: every # must start an entity code", s, m)
		}
	})
}

func TestWriteCheckText(t *testing.T) {
	reports := &check.CatalogReports{Catalogs: []check.CatalogReport{{
		Path:     "cat.json",
		Packages: 3,
		Findings: []check.Finding{
			{Severity: graph.SeverityError, Code: "no-default-channel", Message: "a blob without package"},
			{Severity: graph.SeverityError, Code: "head-not-installable", Package: "app", Channel: "stable", Bundle: "app.v2.0.0",
				Message: "cannot be installed:\n  app.v2.0.0 requires db\n  no bundle provides db\n", Pos: graph.Position{File: "cat.json", Line: 7}},
			{Severity: graph.SeverityInfo, Code: "x", Package: "app", Message: "short"},
		},
	}}}
	for _, tt := range []struct {
		opts check.TextOptions
		want string
	}{
		{check.TextOptions{}, `catalog cat.json: 3 packages, 0 channels, 0 bundles
(catalog)
  error    no-default-channel    a blob without package
app
  error    head-not-installable  stable app.v2.0.0: cannot be installed: app.v2.0.0 requires db; no bundle provides db (line 7)
  info     x                     short
cat.json: 2 errors, 0 warnings, 1 info in 1 of 3 packages
`},
		{check.TextOptions{Full: true}, `catalog cat.json: 3 packages, 0 channels, 0 bundles
(catalog)
  error    no-default-channel    a blob without package
app
  error    head-not-installable  stable app.v2.0.0: cannot be installed: (cat.json:7)
                                   app.v2.0.0 requires db
                                   no bundle provides db
  info     x                     short
cat.json: 2 errors, 0 warnings, 1 info in 1 of 3 packages
`},
	} {
		var b strings.Builder
		if err := reports.WriteText(&b, tt.opts); err != nil {
			t.Fatal(err)
		}
		if got := b.String(); got != tt.want {
			t.Errorf("%+v: got:\n%s\nwant:\n%s", tt.opts, got, tt.want)
		}
	}
}

// TestSkipRangesAuto checks that --skip-ranges auto draws skipRange edges
// until a diagram would pass maxDiagramEdges, then writes labels.
func TestSkipRangesAuto(t *testing.T) {
	tests := []struct {
		name       string
		entries    int
		wantLabels bool
		reason     string
	}{
		{name: "small", entries: 10, wantLabels: false, reason: "45 skipRange edges, 9 of them replaced by replaces edges"},
		{name: "large", entries: 40, wantLabels: true, reason: "780 pairs: more than 500 edges"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := graph.NewBuilder()
			b.AddPackage("p", "stable")
			var entries []graph.Entry
			for i := 1; i <= tt.entries; i++ {
				name := fmt.Sprintf("p.v1.%d.0", i)
				if err := b.AddBundle(name, "p", "example.com/p:"+name, graph.PackageProperty("p", fmt.Sprintf("1.%d.0", i))); err != nil {
					t.Fatal(err)
				}
				en := graph.Entry{Name: name}
				if i > 1 {
					en.Replaces = fmt.Sprintf("p.v1.%d.0", i-1)
					r, err := graph.ParseRange(fmt.Sprintf(">=1.0.0 <1.%d.0", i))
					if err != nil {
						t.Fatal(err)
					}
					en.SkipRange = r
				}
				entries = append(entries, en)
			}
			b.AddChannel("p", "stable", entries...)
			cat, err := b.Build()
			if err != nil {
				t.Fatal(err)
			}
			v, err := buildGraphView(cat, "gen", "p", "")
			if err != nil {
				t.Fatal(err)
			}
			v.SkipRangeLabels = v.diagramEdges() > maxDiagramEdges
			if v.SkipRangeLabels != tt.wantLabels {
				t.Fatalf("%d edges: labels = %v, want %v (%s)", v.diagramEdges(), v.SkipRangeLabels, tt.wantLabels, tt.reason)
			}
			var out strings.Builder
			writeMermaid(&out, v)
			arrows := strings.Count(out.String(), "-->") + strings.Count(out.String(), "-.->")
			if tt.wantLabels {
				if arrows != tt.entries-1 || !strings.Contains(out.String(), "skipRange #62;=1.0.0 #60;1.40.0 (matches 39 entries)") {
					t.Errorf("with labels: %d arrows, want %d replaces edges, and a label per skipRange:\n%s", arrows, tt.entries-1, out.String())
				}
			} else if arrows != tt.entries*(tt.entries-1)/2 {
				t.Errorf("%d arrows, want one per pair (%d)", arrows, tt.entries*(tt.entries-1)/2)
			}
		})
	}
}

// TestPrepareHeap: PrepareHeap runs once, just before the first catalog
// is read, and never for a command that reads none.
func TestPrepareHeap(t *testing.T) {
	calls := 0
	old := PrepareHeap
	PrepareHeap = func() { calls++ }
	prepareHeapOnce = sync.Once{}
	t.Cleanup(func() { PrepareHeap, prepareHeapOnce = old, sync.Once{} })

	steps := []struct {
		args []string
		want int
	}{
		{[]string{"--version"}, 0},
		{[]string{"help", "resolve"}, 0},
		{[]string{"resolve", "--no-such-flag"}, 0},
		{[]string{"graph", "testdata/cli/catalogs/etcd.yaml"}, 0}, // refused: no --package
		{[]string{"graph", "testdata/cli/catalogs/etcd.yaml", "--package", "etcd"}, 1},
		{[]string{"resolve", "--catalog", "testdata/cli/catalogs/etcd.yaml", "-f", "testdata/examples/cluster.yaml"}, 1},
	}
	for _, s := range steps {
		run("", s.args...)
		if calls != s.want {
			t.Fatalf("after %v: PrepareHeap called %d times, want %d", s.args, calls, s.want)
		}
	}
}
