// Package buildinfo says which sextant is running: its version, the
// revision it was built from and the Go toolchain that built it, as
// `sextant version` prints them.
package buildinfo

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// Info is what `sextant version` reports. Its JSON form (encoding/json) is
// what `sextant version -o json` prints.
type Info struct {
	// Version is the main module's version, or "(devel)".
	Version string `json:"version"`
	// Revision is the VCS revision, when built from a checkout, and
	// Modified reports that the checkout had local changes.
	Revision string `json:"revision,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	// Go is the Go version that built the binary.
	Go string `json:"go"`
}

// From reads an Info from build information (as debug.ReadBuildInfo
// returns it; ok false: none, the "(devel)" version and the running Go).
func From(bi *debug.BuildInfo, ok bool) Info {
	v := Info{Version: "(devel)", Go: runtime.Version()}
	if !ok || bi == nil {
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

// WriteText writes "sextant VERSION", the revision line when known
// ("revision R (modified)"), and "go VERSION".
func (v Info) WriteText(w io.Writer) error {
	mod := ""
	if v.Modified {
		mod = " (modified)"
	}
	rev := ""
	if v.Revision != "" {
		rev = fmt.Sprintf("revision %s%s\n", v.Revision, mod)
	}
	_, err := fmt.Fprintf(w, "sextant %s\n%sgo %s\n", v.Version, rev, v.Go)
	return err
}
