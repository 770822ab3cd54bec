package check

import (
	"encoding/json"
	"fmt"

	"github.com/sextantdev/sextant/graph"
)

// Finding is one problem a check found. It is JSON-serialisable; the
// severity is written by name ("info", "warning", "error").
type Finding struct {
	Severity graph.Severity
	// Code is stable and kebab-case; see CHECKS.md and the Code constants.
	Code string
	// Catalog is the Input.Name of the catalog the finding is about.
	Catalog string
	// Package, Channel and Bundle name the object the finding is about;
	// empty when the finding is not about one.
	Package string
	Channel string
	Bundle  string
	// Message says what is wrong, on one line — except for installability
	// findings whose explanation has several facts: then a first line ending
	// in ":" is followed by one line "- fact" per fact.
	Message string
	// Pos is where the object is in its source, when known.
	Pos graph.Position
	// Explanation says why a bundle cannot be installed (installability
	// findings only); nil otherwise.
	Explanation *Explanation
	// Status says, when the catalog was compared with a baseline, whether
	// the change introduced the finding; StatusNone otherwise.
	Status Status
}

// String formats the finding on one line: "severity code package/channel
// bundle: message".
func (f Finding) String() string {
	obj := f.Package
	if f.Channel != "" {
		obj += "/" + f.Channel
	}
	if f.Bundle != "" {
		if obj != "" {
			obj += " "
		}
		obj += f.Bundle
	}
	return fmt.Sprintf("%s %s %s: %s", SeverityName(f.Severity), f.Code, obj, f.Message)
}

type findingJSON struct {
	Severity    string          `json:"severity"`
	Code        string          `json:"code"`
	Catalog     string          `json:"catalog"`
	Package     string          `json:"package,omitempty"`
	Channel     string          `json:"channel,omitempty"`
	Bundle      string          `json:"bundle,omitempty"`
	Message     string          `json:"message"`
	Pos         *graph.Position `json:"pos,omitempty"`
	Explanation *Explanation    `json:"explanation,omitempty"`
	Status      Status          `json:"status,omitempty"`
}

// MarshalJSON writes the finding with its severity by name and without an
// unknown position.
func (f Finding) MarshalJSON() ([]byte, error) {
	j := findingJSON{
		Severity:    SeverityName(f.Severity),
		Code:        f.Code,
		Catalog:     f.Catalog,
		Package:     f.Package,
		Channel:     f.Channel,
		Bundle:      f.Bundle,
		Message:     f.Message,
		Explanation: f.Explanation,
		Status:      f.Status,
	}
	if f.Pos != (graph.Position{}) {
		p := f.Pos
		j.Pos = &p
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (f *Finding) UnmarshalJSON(b []byte) error {
	var j findingJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	s, err := ParseSeverity(j.Severity)
	if err != nil {
		return err
	}
	*f = Finding{
		Severity:    s,
		Code:        j.Code,
		Catalog:     j.Catalog,
		Package:     j.Package,
		Channel:     j.Channel,
		Bundle:      j.Bundle,
		Message:     j.Message,
		Explanation: j.Explanation,
		Status:      j.Status,
	}
	if j.Pos != nil {
		f.Pos = *j.Pos
	}
	return nil
}

// SeverityName returns "info", "warning" or "error", or "severity(N)" for a
// value outside the three.
func SeverityName(s graph.Severity) string {
	switch s {
	case graph.SeverityInfo:
		return "info"
	case graph.SeverityWarning:
		return "warning"
	case graph.SeverityError:
		return "error"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// ParseSeverity is the inverse of SeverityName for the three severities.
func ParseSeverity(s string) (graph.Severity, error) {
	switch s {
	case "info":
		return graph.SeverityInfo, nil
	case "warning":
		return graph.SeverityWarning, nil
	case "error":
		return graph.SeverityError, nil
	}
	return 0, fmt.Errorf("unknown severity %q (want info, warning or error)", s)
}
