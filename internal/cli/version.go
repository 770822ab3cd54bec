package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// readBuildInfo is debug.ReadBuildInfo, replaced in tests.
var readBuildInfo = debug.ReadBuildInfo

// versionInfo is what `sextant version` reports.
type versionInfo struct {
	Version  string `json:"version"`            // module version, or "(devel)"
	Revision string `json:"revision,omitempty"` // VCS revision, when built from a checkout
	Modified bool   `json:"modified,omitempty"` // the checkout had local changes
	Go       string `json:"go"`                 // Go version that built the binary
}

// buildVersion reads the version of the main module from the build
// information.
func buildVersion() versionInfo {
	v := versionInfo{Version: "(devel)", Go: runtime.Version()}
	bi, ok := readBuildInfo()
	if !ok {
		return v
	}
	if bi.Main.Version != "" {
		v.Version = bi.Main.Version
	}
	if bi.GoVersion != "" {
		v.Go = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

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
		fmt.Fprintf(e.stdout, "sextant %s\n", v.Version)
		if v.Revision != "" {
			mod := ""
			if v.Modified {
				mod = " (modified)"
			}
			fmt.Fprintf(e.stdout, "revision %s%s\n", v.Revision, mod)
		}
		fmt.Fprintf(e.stdout, "go %s\n", v.Go)
		return nil
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
