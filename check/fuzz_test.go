package check

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/testcatalog"
)

// genCatalog builds a small catalog of two packages from fuzz bytes: bundles
// with versions that may repeat, requirements on the other package or on
// two APIs, channels with replaces, skips and skipRange edges of every kind
// (dangling, cyclic, downward). It never fails.
func genCatalog(t *testing.T, data []byte) *graph.Catalog {
	next := testcatalog.FuzzBytes(data)
	gvks := []graph.GVK{{Group: "x.io", Version: "v1", Kind: "A"}, {Group: "x.io", Version: "v1", Kind: "B"}}
	b := graph.NewBuilder()
	for _, pkg := range []string{"p", "q"} {
		other := map[string]string{"p": "q", "q": "p"}[pkg]
		b.AddPackage(pkg, "a")
		n := 1 + next()%5
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("%s.%d", pkg, i)
			props := []graph.Property{graph.PackageProperty(pkg, fmt.Sprintf("1.%d.0", next()%4))}
			if k := next() % 3; k > 0 {
				props = append(props, graph.GVKProperty(gvks[k-1]))
			}
			if next()%4 == 0 {
				props = append(props, graph.RequiredPackageProperty(other, fmt.Sprintf(">=1.%d.0", next()%4)))
			}
			if next()%5 == 0 {
				props = append(props, graph.RequiredGVKProperty(gvks[next()%2]))
			}
			if next()%11 == 0 {
				props = append(props, graph.DeprecatedProperty())
			}
			if err := b.AddBundle(names[i], pkg, "img", props...); err != nil {
				t.Fatal(err)
			}
		}
		for _, ch := range []string{"a", "b"}[:1+next()%2] {
			var entries []graph.Entry
			for _, name := range names {
				if next()%3 == 0 {
					continue
				}
				e := graph.Entry{Name: name}
				if k := next() % (n + 2); k < n {
					e.Replaces = names[k]
				} else if k == n {
					e.Replaces = pkg + ".gone"
				}
				if k := next() % (n + 3); k < n {
					e.Skips = []string{names[k]}
				}
				switch next() % 4 {
				case 1:
					e.SkipRange, _ = graph.ParseRange(fmt.Sprintf("<1.%d.0", next()%4))
				case 2:
					e.SkipRange, _ = graph.ParseRange(">=1.0.0")
				}
				entries = append(entries, e)
			}
			b.AddChannel(pkg, ch, entries...)
		}
	}
	cat, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// FuzzChecks checks properties of Run on generated catalogs: the report
// does not depend on the number of workers nor on the installability fast
// path; path statistics add up; an entry is reported stranded exactly when
// graph.Channel.ShortestPath finds no path to its head; every finding names
// objects that exist; the text forms hold every finding (checkText).
func FuzzChecks(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{4, 1, 2, 0, 3, 1, 0, 9, 2, 1, 7, 3, 3, 1, 0, 0, 2, 5, 1, 1, 2, 4, 0, 1, 3, 2, 2, 8, 1, 0})
	f.Add([]byte("the quick brown fox jumps over the lazy dog, twice over the lazy dog"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cat := genCatalog(t, data)
		in := []Input{{Name: "fz", Catalog: cat}}
		var reports []string
		var rep *Report
		for _, opts := range []Options{{CEL: testCEL, Concurrency: 1}, {CEL: testCEL, Concurrency: 3}, {CEL: testCEL, Concurrency: 2, resolveAll: true}} {
			r, err := Run(t.Context(), in, opts)
			if err != nil {
				t.Fatalf("Run(%+v): %v", opts, err)
			}
			data, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			reports = append(reports, string(data))
			rep = r
		}
		for i := 1; i < len(reports); i++ {
			if reports[i] != reports[0] {
				t.Fatalf("report %d differs from report 0:\n%s\n%s", i, reports[i], reports[0])
			}
		}
		for _, ps := range rep.Paths {
			sum := ps.Stranded
			for _, l := range ps.Lengths {
				sum += l.Count
			}
			if sum != ps.Entries {
				t.Errorf("package %s: lengths and stranded add up to %d, want %d entries", ps.Package, sum, ps.Entries)
			}
		}
		stranded := map[[3]string]bool{}
		for _, f := range rep.Findings {
			p := cat.Package(f.Package)
			if p == nil {
				t.Fatalf("finding %s names no package", f)
			}
			if f.Channel != "" && p.Channel(f.Channel) == nil {
				t.Fatalf("finding %s names no channel", f)
			}
			if f.Code == CodeNoUpgradePath {
				stranded[[3]string{f.Package, f.Channel, f.Bundle}] = true
			}
		}
		checkText(t, rep)
		for _, p := range cat.Packages() {
			for _, c := range p.Channels {
				head, ok := channelHead(c)
				if !ok {
					continue
				}
				for _, name := range c.Order() {
					if name == head {
						continue
					}
					_, reach := c.ShortestPath(name, head)
					if got := stranded[[3]string{p.Name, c.Name, name}]; got == reach {
						t.Errorf("%s/%s %s: reported stranded %v, ShortestPath to %s finds a path %v", p.Name, c.Name, name, got, head, reach)
					}
				}
			}
		}
	})
}

// FuzzBaseline checks properties of the baseline comparison on pairs of
// generated catalogs: a catalog against itself has nothing new and
// resolves nothing; every finding has a brief (checkBriefs); against another, the findings other than regressions
// are those of a run without a baseline, every finding of the baseline is
// either matched (existing) or resolved, the report does not depend on the
// number of workers, and an entry of a channel in both catalogs is
// upgrade-path-lost exactly when graph's ShortestPath reaches the head in
// the baseline and not in the new catalog.
func FuzzBaseline(f *testing.F) {
	f.Add([]byte{}, []byte{1})
	f.Add([]byte{4, 1, 2, 0, 3, 1, 0, 9, 2, 1, 7, 3, 3, 1, 0, 0, 2, 5, 1, 1}, []byte{4, 1, 2, 0, 3, 1, 0, 9, 2, 1, 7, 3, 0, 1, 0, 0, 2, 5, 1, 1})
	f.Add([]byte("the quick brown fox"), []byte("jumps over the lazy dog"))
	f.Fuzz(func(t *testing.T, oldData, curData []byte) {
		old, cur := genCatalog(t, oldData), genCatalog(t, curData)
		self, err := Run(t.Context(), []Input{{Name: "fz", Catalog: old}}, Options{CEL: testCEL, Baseline: []Input{{Name: "fz", Catalog: old}}})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(self.OnlyNew().Findings); n > 0 || len(self.Resolved) > 0 {
			t.Fatalf("a catalog against itself: %d new, %d resolved", n, len(self.Resolved))
		}
		var reports []string
		var rep *Report
		for _, c := range []int{1, 3} {
			r, err := Run(t.Context(), []Input{{Name: "fz", Catalog: cur}}, Options{CEL: testCEL, Concurrency: c, Baseline: []Input{{Name: "fz", Catalog: old}}})
			if err != nil {
				t.Fatal(err)
			}
			js, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			reports = append(reports, string(js))
			rep = r
		}
		if reports[0] != reports[1] {
			t.Fatalf("the report depends on the workers:\n%s\n%s", reports[0], reports[1])
		}
		checkBriefs(t, rep.Findings)
		checkBriefs(t, rep.Resolved)
		plainCur, err := Run(t.Context(), []Input{{Name: "fz", Catalog: cur}}, Options{CEL: testCEL})
		if err != nil {
			t.Fatal(err)
		}
		plainOld, err := Run(t.Context(), []Input{{Name: "fz", Catalog: old}}, Options{CEL: testCEL})
		if err != nil {
			t.Fatal(err)
		}
		var rest []string
		existing := 0
		lost := map[[3]string]bool{}
		statuses := map[string][]Status{}
		for _, f := range rep.Findings {
			if f.Status != StatusNew && f.Status != StatusExisting {
				t.Fatalf("finding %s has status %q", f, f.Status)
			}
			if IsRegression(f.Code) {
				if f.Status != StatusNew {
					t.Fatalf("regression %s is not new", f)
				}
				if f.Code == CodeUpgradePathLost {
					lost[[3]string{f.Package, f.Channel, f.Bundle}] = true
				}
				continue
			}
			if f.Status == StatusExisting {
				existing++
			}
			rest = append(rest, f.String())
			statuses[f.String()] = append(statuses[f.String()], f.Status)
		}
		// The same findings in the same order, but the new ones first.
		var want, wantExisting []string
		for _, f := range plainCur.Findings {
			s := f.String()
			st := StatusNone
			if len(statuses[s]) > 0 {
				st, statuses[s] = statuses[s][0], statuses[s][1:]
			}
			if st == StatusExisting {
				wantExisting = append(wantExisting, s)
			} else {
				want = append(want, s)
			}
		}
		want = append(want, wantExisting...)
		if fmt.Sprint(rest) != fmt.Sprint(want) {
			t.Fatalf("findings with a baseline, regressions left out:\n%q\nwithout a baseline:\n%q", rest, want)
		}
		if existing+len(rep.Resolved) != len(plainOld.Findings) {
			t.Fatalf("%d existing and %d resolved findings, the baseline has %d", existing, len(rep.Resolved), len(plainOld.Findings))
		}
		for _, op := range old.Packages() {
			np := cur.Package(op.Name)
			if np == nil {
				continue
			}
			for _, oc := range op.Channels {
				nc := np.Channel(oc.Name)
				if nc == nil {
					continue
				}
				oh, ok1 := channelHead(oc)
				nh, ok2 := channelHead(nc)
				if !ok1 || !ok2 {
					continue
				}
				for _, e := range oc.Order() {
					if e == oh || e == nh || nc.Position(e) < 0 {
						continue
					}
					_, before := oc.ShortestPath(e, oh)
					_, after := nc.ShortestPath(e, nh)
					if got, want := lost[[3]string{op.Name, oc.Name, e}], before && !after; got != want {
						t.Errorf("%s/%s %s: upgrade-path-lost %v, want %v (reaches %s before: %v, %s after: %v)", op.Name, oc.Name, e, got, want, oh, before, nh, after)
					}
				}
			}
		}
	})
}
