package cli

import (
	"encoding/json"
	"io"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant/internal/buildinfo"
)

// readBuildInfo is debug.ReadBuildInfo, replaced in tests.
var readBuildInfo = debug.ReadBuildInfo

// buildVersion reads the version of the main module from the build
// information.
func buildVersion() buildinfo.Info { return buildinfo.From(readBuildInfo()) }

func newVersionCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version of sextant and of the Go toolchain that built it",
		Args:  cobra.NoArgs,
	}
	output := addOutputFlag(cmd, "text", "json", "yaml")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		v := buildVersion()
		if output.value != "text" {
			return writeEncoded(e.stdout, output.value, v)
		}
		return v.WriteText(e.stdout)
	}
	return cmd
}

// writeJSON writes v as indented JSON with a final newline, without
// escaping <, > and & (version ranges read better as written).
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
