// Package cli implements the sextant command line: the commands, their
// flags, their output formats and their exit status. cmd/sextant is a thin
// main around [Run]; tests run the same code in-process.
//
// Conventions shared by every command:
//   - -f/--filename is repeatable and "-" reads standard input (which may be
//     read once per invocation); catalog paths given as arguments accept "-"
//     too.
//   - -n/--namespace names the namespace, -o/--output the output format
//     where a command has several.
//   - Errors go to standard error, one line per problem, naming the file and
//     what is wrong; results go to standard output.
//   - The exit status is [ExitOK], [ExitNo] (the answer is no: checks failed,
//     no plan) or [ExitBadInput] (bad input or usage).
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/internal/safetext"
)

// Exit statuses of [Run].
const (
	ExitOK       = 0 // success
	ExitNo       = 1 // the answer is no: checks failed, no plan
	ExitBadInput = 2 // bad input or usage
)

// PrepareHeap, when set (by the command's main, before Run), is called
// once per process just before the first catalog is read: a command that
// reads none does not pay for it. cmd/sextant sets it to hold the
// collector off while the catalogs fill the heap.
var PrepareHeap func()

var prepareHeapOnce sync.Once

// prepareHeap calls PrepareHeap the first time it is called.
func prepareHeap() {
	prepareHeapOnce.Do(func() {
		if PrepareHeap != nil {
			PrepareHeap()
		}
	})
}

// Run runs the sextant command line with args (without the program name)
// and returns the exit status. It reads stdin only for inputs named "-" and
// writes results to stdout and errors to stderr. Run keeps no state between
// calls (but that PrepareHeap is called once per process) and may be
// called concurrently with distinct writers.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if ctx == nil {
		ctx = context.Background()
	}
	stderr = safeText{stderr} // errors and notes are text for a person
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr, images: &imageFlags{}}
	root := newRootCmd(e)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return ExitOK
	}
	if cmd == nil {
		cmd = root
	}
	return report(stderr, cmd, err)
}

// env is what the commands of one Run share: the standard streams and
// whether standard input was consumed.
type env struct {
	ctx            context.Context
	limits         limits
	images         *imageFlags // shared by the copies of an env
	stdin          io.Reader
	stdout, stderr io.Writer
	stdinUsedBy    string // the input that read standard input, if any
	cmdPath        string // the running command, "sextant resolve"
	// gitBaselineFiles are the files of a baseline read from git, named
	// by their path in the repository.
	gitBaselineFiles map[string]bool
}

// notef writes a note on standard error: something the user should know
// that is neither an error nor the answer (input that was not used). A note
// is one line, prefixed like the command's errors: "sextant resolve: note: …".
func (e *env) notef(format string, args ...any) {
	prefix := e.cmdPath
	if prefix == "" {
		prefix = "sextant"
	}
	fmt.Fprintf(e.stderr, "%s: note: %s\n", prefix, fmt.Sprintf(format, args...))
}

// takeStdin returns standard input for the input named what, or an error if
// another input already read it.
func (e *env) takeStdin(what string) (io.Reader, error) {
	if e.stdinUsedBy != "" {
		return nil, usageErrorf("%s: standard input is already read by %s; \"-\" may be given once", what, e.stdinUsedBy)
	}
	e.stdinUsedBy = what
	if e.stdin == nil {
		return strings.NewReader(""), nil
	}
	return e.stdin, nil
}

// commands lists the constructors of the subcommands, in help order.
//
// To add a command: write newXCmd(e *env) that sets
// RunE and add it here. Declare flags with addOutputFlag, addFilenameFlag,
// addNamespaceFlag and addChoiceFlag (addResolveFlags and
// e.loadResolveInput for a command that resolves); read catalogs with
// e.loadCatalog and manifests through the world (e.worldInput; both honour "-"); write
// results to e.stdout.
// Return errNo after printing a "no" answer (exit 1), or noErrorf to have
// a one-line "no" printed on standard output (exit 1), usageErrorf for a
// wrong command line (exit 2 with a pointer to --help), and any other error
// for bad input (exit 2): every line of it must name the file.
var commands = []func(*env) *cobra.Command{
	newResolveCmd,
	newRolloutCmd,
	newCheckCmd,
	newGraphCmd,
	newProvidesCmd,
	newMirrorCmd,
	newMigrateCmd,
	newClusterUpgradeCmd,
	newCacheCmd,
	newVersionCmd,
}

// newRootCmd builds the root command and its subcommands.
func newRootCmd(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:   "sextant",
		Short: "Resolve, check and draw Kubernetes operator (OLM) catalogs",
		Long: `sextant resolves and checks File-Based Catalogs of Kubernetes operators (OLM).

Exit status, for every command: 0 success; 1 the answer is no (no plan,
including a package or channel the catalog lacks; checks failed; a rollout
that did not settle); 2 input the tool cannot use (missing or malformed
file, invalid catalog, unknown flag or value).`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return nil
			}
			msg := fmt.Sprintf("unknown command %q", args[0])
			if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
				msg += fmt.Sprintf(" (did you mean %q?)", s[0])
			}
			return &exitError{code: ExitBadInput, usage: true, err: errors.New(msg)}
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmd.Help()
		},
		SilenceErrors:              true,
		SilenceUsage:               true,
		DisableSuggestions:         true,
		SuggestionsMinimumDistance: 2,
	}
	// --version prints the first line of "sextant version".
	root.Version = buildVersion().Version
	root.SetVersionTemplate("sextant {{.Version}}\n")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &exitError{code: ExitBadInput, usage: true, err: err}
	})
	root.CompletionOptions.HiddenDefaultCmd = true
	addLimitFlags(root, &e.limits)
	addImageFlags(root, e.images)
	for _, newCmd := range commands {
		cmd := newCmd(e)
		e.wrapRun(cmd)
		root.AddCommand(cmd)
	}
	addHelpTopics(root)
	return root
}

// wrapRun gives the RunE of cmd and of its subcommands the exit statuses
// and text safety every command has: errors of a command's own work are
// bad input, not usage errors (only cobra's errors, of arguments and
// flags, point at --help).
func (e *env) wrapRun(cmd *cobra.Command) {
	for _, sub := range cmd.Commands() {
		e.wrapRun(sub)
	}
	if run := cmd.RunE; run != nil {
		// Errors of a command's own work are bad input, not usage
		// errors: only cobra's errors (arguments, flags) point at --help.
		cmd.RunE = func(cmd *cobra.Command, args []string) error {
			e.cmdPath = cmd.CommandPath()
			if f := cmd.Flags().Lookup("output"); f == nil || !machineFormats[f.Value.String()] {
				// Text for a person: names from catalogs and manifests
				// cannot send terminal escapes (JSON and YAML stay as
				// their encoders write them).
				out := e.stdout
				e.stdout = safeText{out}
				defer func() { e.stdout = out }()
			}
			err := run(cmd, args)
			var no *noError
			if errors.As(err, &no) {
				fmt.Fprintln(e.stdout, no.msg)
				return errNo
			}
			var xe *exitError
			var og *cluster.OperatorGroupError
			switch {
			case err == nil || errors.As(err, &xe):
			case errors.As(err, &og):
				// OLM does not resolve the namespace: no plan.
				err = &exitError{code: ExitNo, err: err}
			default:
				err = &exitError{code: ExitBadInput, err: err}
			}
			return err
		}
	}
}

// exitError is an error with an exit status. With a nil err it carries only
// the status (the command already printed its answer).
type exitError struct {
	code  int
	usage bool // a usage error: point at --help
	err   error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// errNo is returned by a command whose answer is no and that has printed it.
var errNo = &exitError{code: ExitNo}

// noError is an answer "no" that a command returns instead of printing
// it: Run prints the message on standard output, as the answer, and exits
// with status 1. It is for answers of one line, such as a package the
// catalog does not have.
type noError struct{ msg string }

func (e *noError) Error() string { return e.msg }

// noErrorf returns a "no" answer (exit status 1) with its message.
func noErrorf(format string, args ...any) error {
	return &noError{msg: fmt.Sprintf(format, args...)}
}

// usageErrorf returns a usage error (exit status 2).
func usageErrorf(format string, args ...any) error {
	return &exitError{code: ExitBadInput, usage: true, err: fmt.Errorf(format, args...)}
}

// report prints err on stderr, one line per problem prefixed with the
// command's path, and returns the exit status. Errors that are not an
// exitError come from cobra itself (unknown command or flag, wrong number of
// arguments, missing required flag): usage errors, exit status 2. A usage
// error's line ends with a pointer to --help.
func report(stderr io.Writer, cmd *cobra.Command, err error) int {
	code, usage := ExitBadInput, true
	var xe *exitError
	if errors.As(err, &xe) {
		code, usage = xe.code, xe.usage
		if xe.err == nil {
			return code
		}
	}
	lines := boundLines(errorLines(err, func(e error) string { return flagAdvice(cmd, e) }))
	if usage && len(lines) > 0 {
		lines[len(lines)-1] += fmt.Sprintf(" (see %q)", cmd.CommandPath()+" --help")
	}
	for _, line := range lines {
		fmt.Fprintf(stderr, "%s: %s\n", cmd.CommandPath(), line)
	}
	return code
}

// errorLines flattens err into one line per problem: the errors joined
// (errors.Join, at any depth of joins) each get a line, and a newline left inside a message
// becomes "; " so that every line still names its file. A line ends with
// what advise (when not nil) returns for its error.
func errorLines(err error, advise func(error) string) []string {
	var xe *exitError
	if errors.As(err, &xe) && xe.err != nil {
		err = xe.err
	}
	// Joined errors, nested or not (a command that joins the joined errors
	// of each catalog), each get their own lines.
	errs := appendErrors(nil, err)
	var lines []string
	for _, e := range errs {
		var parts []string
		for _, part := range strings.Split(e.Error(), "\n") {
			if part = strings.TrimSpace(part); part != "" {
				parts = append(parts, part)
			}
		}
		if len(parts) > 0 {
			line := strings.Join(parts, "; ")
			if advise != nil {
				line += advise(e)
			}
			lines = append(lines, line)
		}
	}
	return lines
}

// machineFormats are the -o values whose output is for programs: written as
// their encoders write it, byte for byte.
var machineFormats = map[string]bool{"json": true, "yaml": true, "installplan": true, "installplan-json": true, "fbc": true, "imageset": true, "images": true}

// safeText writes text for a terminal: every character that
// [safetext.Hidden] names (control characters other than line feed and tab,
// bidi overrides, zero-width characters) is written escaped as %q would
// write it (\x1b, \r, \u202e), so that a name in a catalog or manifest
// cannot move the cursor, recolour the terminal, overwrite a line or
// reorder what is shown.
type safeText struct{ w io.Writer }

func (s safeText) Write(p []byte) (int, error) {
	if safetext.Clean(p) {
		return s.w.Write(p)
	}
	if _, err := s.w.Write(safetext.Append(nil, p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// textName returns a name from a catalog or manifest as text output prints
// it (see [safetext.Name]).
func textName(s string) string { return safetext.Name(s) }

// appendErrors appends err to errs, or the errors it joins, so that every
// problem keeps a line of its own; a usage error stays whole.
func appendErrors(errs []error, err error) []error {
	if xe, ok := err.(*exitError); ok && xe.usage {
		return append(errs, err)
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			errs = appendErrors(errs, e)
		}
		return errs
	}
	return append(errs, err)
}
