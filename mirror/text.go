package mirror

import (
	"fmt"
	"io"
	"strings"
)

// WriteText writes the set as a report for a person: a title with the
// counts, the rollouts simulated and the check, then per catalog and
// package the kept bundles, each with its version, the channels it heads
// and every reason it is kept, and what a mirror of the whole channels
// would take instead.
func (s *Set) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "mirror set: %s of %s, %s\n", plural(s.Kept.Bundles, "bundle"), plural(s.packages(), "package"), plural(s.Kept.Images, "image"))
	b.WriteString("rolled out:")
	for i, r := range s.Rollouts {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, " %s (%s, %s", r.Name, plural(r.Rounds, "round"), plural(r.Steps, "step"))
		if r.Cycles {
			b.WriteString("; the last returns to an earlier state, and the rollout goes round for ever")
		}
		b.WriteByte(')')
	}
	if len(s.Rollouts) == 0 {
		b.WriteString(" nothing (no subscription, installed CSV or package asked for)")
	}
	b.WriteString("\nchecked: the filtered catalog passes the structural check, and every rollout takes the same rounds against it as against the full catalog\n")
	for _, c := range s.Catalogs {
		fmt.Fprintf(&b, "\ncatalog %s: %d of its %s\n", c.Catalog, c.kept(), plural(c.FullBundles, "bundle"))
		for _, p := range c.Packages {
			fmt.Fprintf(&b, "  package %s (%s %s; default %s): %d of the %s in %s\n", p.Name, pluralWord(len(p.Channels), "channel"), strings.Join(p.Channels, ", "), p.DefaultChannel, len(p.Bundles), plural(p.WholeChannels.Bundles, "bundle"), pluralWord(len(p.Channels), "that channel"))
			for _, kb := range p.Bundles {
				fmt.Fprintf(&b, "    %s (%s", kb.Name, kb.Version)
				if len(kb.Heads) > 0 {
					fmt.Fprintf(&b, ", head of %s", strings.Join(kb.Heads, ", "))
				}
				b.WriteString(")\n")
				for _, r := range kb.Reasons {
					fmt.Fprintf(&b, "      %s\n", r)
				}
			}
		}
	}
	fmt.Fprintf(&b, "\na whole-channel mirror of the same packages would take %s and %s (this set: %s, %s)\n",
		plural(s.WholeChannels.Bundles, "bundle"), plural(s.WholeChannels.Images, "image"), plural(s.Kept.Bundles, "bundle"), plural(s.Kept.Images, "image"))
	_, err := io.WriteString(w, b.String())
	return err
}

// packages counts the packages of the set.
func (s *Set) packages() int {
	n := 0
	for _, c := range s.Catalogs {
		n += len(c.Packages)
	}
	return n
}

// kept counts the catalog's kept bundles.
func (c *CatalogSet) kept() int {
	n := 0
	for _, p := range c.Packages {
		n += len(p.Bundles)
	}
	return n
}

// plural returns "1 bundle", "2 bundles".
func plural(n int, word string) string {
	return fmt.Sprintf("%d %s", n, pluralWord(n, word))
}

// pluralWord returns word, or its plural for n != 1 ("that channel" →
// "those channels").
func pluralWord(n int, word string) string {
	if n == 1 {
		return word
	}
	if rest, ok := strings.CutPrefix(word, "that "); ok {
		return "those " + rest + "s"
	}
	return word + "s"
}
