package cli

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/fileerr"
	"github.com/sextantdev/sextant/internal/words"
)

// gitBaselinePrefix starts a --baseline that names a git revision.
const gitBaselinePrefix = "git:"

// maxGitArchive bounds what is read of git's archive of a baseline.
const maxGitArchive = 1 << 30

// loadGitBaseline reads a catalog as a git revision had it: spec is
// "REF" or "REF:PATH" (what follows "git:"), PATH defaulting to catalog,
// the catalog argument. PATH is a file or a folder, relative to the
// current directory like the argument. The git command reads it from the
// repository that holds PATH (git archive of that path at REF); nothing is
// checked out. Positions name the files by their path in the repository.
func (e *env) loadGitBaseline(spec, catalog string) (*graph.Catalog, error) {
	ref, path, hasPath := strings.Cut(spec, ":")
	if ref == "" {
		return nil, usageErrorf("--baseline %s%s: no revision (want git:REF or git:REF:PATH, e.g. git:HEAD~1 or git:origin/main:catalog)", gitBaselinePrefix, spec)
	}
	if !hasPath {
		if catalog == "-" {
			return nil, usageErrorf("--baseline %s%s: the catalog is standard input; name its path in the repository: git:%s:PATH", gitBaselinePrefix, spec, ref)
		}
		path = catalog
	}
	if path == "" {
		return nil, usageErrorf("--baseline %s%s: empty path", gitBaselinePrefix, spec)
	}
	top, rel, err := repoPath(path)
	if err != nil {
		return nil, fmt.Errorf("--baseline %s%s: %w", gitBaselinePrefix, spec, err)
	}
	args := []string{"-C", top, "archive", "--format=zip", ref}
	if rel != "." {
		args = append(args, "--", rel)
	}
	data, err := runGit(e, args...)
	if err != nil {
		return nil, fmt.Errorf("--baseline %s%s: %w", gitBaselinePrefix, spec, err)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("--baseline %s%s: reading git's archive: %w", gitBaselinePrefix, spec, err)
	}
	if err := archiveComplete(e, top, ref, rel, zr); err != nil {
		return nil, fmt.Errorf("--baseline %s%s: %w", gitBaselinePrefix, spec, err)
	}
	e.gitBaselineFiles = map[string]bool{}
	for _, f := range zr.File {
		e.gitBaselineFiles[f.Name] = true // positions name them so
	}
	cat, err := e.limits.catalogLoader().LoadFS(e.context(), zr, rel)
	name := fmt.Sprintf("%s at %s", rel, ref)
	if err != nil {
		return nil, fileerr.Name(err, name)
	}
	if len(cat.Packages()) == 0 && len(cat.Others()) == 0 {
		return nil, fmt.Errorf("%s: no catalog there (no .json, .yaml or .yml file, plain or .gz, with a blob)", name)
	}
	return cat, nil
}

// archiveComplete checks that git's archive of rel at ref holds every
// catalog file git's tree has there: git archive leaves out the paths a
// .gitattributes marks export-ignore, and a baseline without some of its
// files would call their packages added and their findings new.
func archiveComplete(e *env, top, ref, rel string, zr *zip.Reader) error {
	args := []string{"-C", top, "ls-tree", "-r", "-z", "--full-name", ref}
	if rel != "." {
		args = append(args, "--", rel)
	}
	out, err := runGit(e, args...)
	if err != nil {
		return err
	}
	inArchive := make(map[string]bool, len(zr.File))
	for _, f := range zr.File {
		inArchive[f.Name] = true
	}
	var missing []string
	for _, rec := range strings.Split(string(out), "\x00") {
		meta, name, ok := strings.Cut(rec, "\t")
		mode, _, _ := strings.Cut(meta, " ")
		if ok && (mode == "100644" || mode == "100755") && graph.IsCatalogFile(name) && !inArchive[name] {
			missing = append(missing, name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	shown := missing[:min(len(missing), 3)]
	more := ""
	if len(missing) > len(shown) {
		more = fmt.Sprintf(" and %d more", len(missing)-len(shown))
	}
	return fmt.Errorf("git archive leaves out %s at %s (export-ignore in .gitattributes): %s%s; "+
		"give the baseline as a path instead (git worktree add, or git show %s:FILE)",
		words.Plural(len(missing), "catalog file"), ref, strings.Join(shown, ", "), more, ref)
}

// repoPath returns the top folder of the git work tree that holds path
// and path relative to it, slash-separated ("." for the top itself). path
// need not exist any more: git runs in the nearest folder above it that
// does.
func repoPath(path string) (top, rel string, err error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", "", err
	}
	dir, rest := abs, ""
	for {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", "", fmt.Errorf("%s: no folder of it exists", path)
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
	out, err := exec.Command("git", "-C", dir, "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return "", "", gitError(err, fmt.Sprintf("%s is not in a git work tree", path))
	}
	top = strings.TrimSpace(string(out))
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", "", err
	}
	realTop, err := filepath.EvalSymlinks(top)
	if err != nil {
		return "", "", err
	}
	r, err := filepath.Rel(realTop, filepath.Join(real, rest))
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", "", fmt.Errorf("%s is outside the git work tree %s", path, top)
	}
	return top, filepath.ToSlash(r), nil
}

// runGit runs git with args and returns its standard output, at most
// maxGitArchive bytes; an error carries git's own message.
func runGit(e *env, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(e.context(), "git", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, gitError(err, "")
	}
	data, rerr := io.ReadAll(io.LimitReader(out, maxGitArchive+1))
	if len(data) > maxGitArchive {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("git archive is larger than %d bytes", maxGitArchive)
	}
	if err := cmd.Wait(); err != nil {
		return nil, gitError(err, strings.TrimSpace(stderr.String()))
	}
	if rerr != nil {
		return nil, rerr
	}
	return data, nil
}

// gitError says what went wrong running git: that it is not installed, or
// git's message.
func gitError(err error, msg string) error {
	if errors.Is(err, exec.ErrNotFound) {
		return errors.New("the git command is not installed (needed for a git: baseline)")
	}
	var xe *exec.ExitError
	if errors.As(err, &xe) && msg == "" {
		msg = strings.TrimSpace(string(xe.Stderr))
	}
	if msg != "" {
		return errors.New("git: " + msg)
	}
	return fmt.Errorf("git: %w", err)
}
