package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant/catalogimage"
	"github.com/sextantdev/sextant/internal/docstream"
	"github.com/sextantdev/sextant/internal/words"
)

// defaultUnusedFor is how long prune keeps an image no run has read.
const defaultUnusedFor = 30 * 24 * time.Hour

// newCacheCmd is the cache command: list and prune the image cache.
func newCacheCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cache",
		Short: "List or prune the catalog image cache",
		Long: `The catalogs of the images read from registries are kept in the cache by digest (--cache-dir;
by default sextant in the user's cache folder, ~/.cache/sextant on Linux), so that a digest is
downloaded once. The cache holds at most --cache-max-size (default ` + docstream.Size(catalogimage.DefaultCacheMaxBytes) + `): once an image is
written, the images read least recently are removed until it fits, and a note names them.

cache list names each image: its digest, size, when a run last read it, the reference it was
first read by and the tags that resolved to it, the most recently read first.
cache prune removes the images no run has read for --unused-for (default 30 days), then the
least recently read until the cache holds --max-size (default: --cache-max-size); --all empties
it. A tag whose image is removed is resolved again by the next run that reads it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.AddCommand(withTopics(newCacheListCmd(e), "global-flags"), withTopics(newCachePruneCmd(e), "global-flags"))
	return withTopics(cmd, "global-flags")
}

func newCacheListCmd(e *env) *cobra.Command {
	var output *choice
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the images in the cache",
		Args:  cobra.NoArgs,
	}
	output = addOutputFlag(cmd, "text", "json", "yaml")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		dir, err := e.cacheDir()
		if err != nil {
			return err
		}
		entries, err := catalogimage.ListCache(dir)
		if err != nil {
			return err
		}
		if output.value != "text" {
			if entries == nil {
				entries = []catalogimage.CacheEntry{}
			}
			return writeEncoded(e.stdout, output.value, struct {
				Dir     string                    `json:"dir"`
				Entries []catalogimage.CacheEntry `json:"entries"`
			}{dir, entries})
		}
		return writeCacheText(e.stdout, dir, entries, e.cacheLimit())
	}
	return cmd
}

func newCachePruneCmd(e *env) *cobra.Command {
	var all bool
	var unused time.Duration
	var maxSize sizeFlag
	cmd := &cobra.Command{
		Use:   "prune",
		Short: "Remove the images not read lately, or all",
		Args:  cobra.NoArgs,
	}
	cmd.Flags().BoolVar(&all, "all", false, "remove every image")
	cmd.Flags().DurationVar(&unused, "unused-for", defaultUnusedFor, "remove the images no run has read for this `DURATION` (0: keep them)")
	cmd.Flags().Var(&maxSize, "max-size", "then remove the least recently read until the cache holds this `SIZE` (default: --cache-max-size; -1: no limit)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		dir, err := e.cacheDir()
		if err != nil {
			return err
		}
		limit := int64(maxSize)
		if limit == 0 {
			limit = e.cacheLimit()
		}
		res, err := catalogimage.PruneCache(dir, catalogimage.PruneOptions{All: all, UnusedFor: unused, MaxBytes: limit})
		if err != nil && res == nil {
			return err
		}
		// With an error too: what could be removed was.
		for _, r := range res.Removed {
			fmt.Fprintf(e.stdout, "removed %s\n", cacheLine(r))
		}
		var kept int64
		for _, k := range res.Kept {
			kept += k.Size
		}
		fmt.Fprintf(e.stdout, "cache %s: removed %s (%s), kept %s (%s)\n", dir,
			words.Plural(len(res.Removed), "image"), docstream.Size(res.Freed), words.Plural(len(res.Kept), "image"), docstream.Size(kept))
		return err
	}
	return cmd
}

// cacheDir is the cache folder of the run (--cache-dir, else the
// default).
func (e *env) cacheDir() (string, error) {
	if e.images != nil && e.images.cacheDir != "" {
		return e.images.cacheDir, nil
	}
	return catalogimage.DefaultCacheDir()
}

// cacheLimit is the cache's size limit of the run (--cache-max-size):
// bytes, or 0 for none.
func (e *env) cacheLimit() int64 {
	limit := int64(catalogimage.DefaultCacheMaxBytes)
	if e.images != nil && e.images.cacheMax != 0 {
		limit = int64(e.images.cacheMax)
	}
	return max(limit, 0)
}

// writeCacheText writes the cache's entries for people: a heading with
// their count, size and the limit, then one line each.
func writeCacheText(w io.Writer, dir string, entries []catalogimage.CacheEntry, limit int64) error {
	var total int64
	for _, e := range entries {
		total += e.Size
	}
	lim := "no limit"
	if limit > 0 {
		lim = "limit " + docstream.Size(limit)
	}
	if _, err := fmt.Fprintf(w, "cache %s: %s, %s (%s)\n", dir, words.Plural(len(entries), "image"), docstream.Size(total), lim); err != nil {
		return err
	}
	for _, e := range entries {
		if _, err := fmt.Fprintf(w, "  %s\n", cacheLine(e)); err != nil {
			return err
		}
	}
	return nil
}

// cacheLine describes an entry on one line: "DIGEST SIZE last read TIME
// REFERENCE (tags: …)", "(bundle)" after a bundle image's.
func cacheLine(e catalogimage.CacheEntry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  %9s  read %s  %s", e.Digest, docstream.Size(e.Size), e.LastUsed.UTC().Format("2006-01-02 15:04 UTC"), e.Reference)
	var other []string
	for _, t := range e.Tags {
		if t != e.Reference {
			other = append(other, t)
		}
	}
	if len(other) > 0 {
		fmt.Fprintf(&b, " (tags: %s)", strings.Join(other, ", "))
	}
	if e.Kind != "" {
		fmt.Fprintf(&b, " (%s)", e.Kind)
	}
	return b.String()
}
