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
	// From names the bundle an upgrade edge starts at, for a finding about
	// the edge (from From to Bundle); CRD names the CustomResourceDefinition
	// a finding is about. Empty otherwise.
	From string
	CRD  string
	// Message says what is wrong, on one line — except for installability
	// findings whose explanation has several facts: then a first line ending
	// in ":" is followed by one line "- fact" per fact. It stands on its
	// own: it names the package, channel and bundle it is about.
	Message string
	// Brief says what is wrong in a few words and on one line, for a line
	// that shows the package, channel and bundle already (WriteText's short
	// form, WriteMarkdown): the facts that set the finding apart — the name
	// a replaces dangles on, the versions an upgrade goes from and to, the
	// unmet requirement — with the other bundles of the package named by
	// their version. Every finding of Run has one; the check that makes a
	// finding writes both.
	Brief string
	// Pos is where the object is in its source, when known.
	Pos graph.Position
	// Explanation says why a bundle cannot be installed (installability
	// findings only); nil otherwise.
	Explanation *Explanation
	// Status says, when the catalog was compared with a baseline, whether
	// the change introduced the finding; StatusNone otherwise.
	Status Status
	// Suppression is the entry of the suppressions file that accepts the
	// finding (Report.Suppressed only); nil otherwise.
	Suppression *Suppression
}

// String formats the finding on one line: "severity code package/channel
// bundle: message" ("from FROM" after the bundle for an upgrade edge's).
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
	if f.From != "" {
		obj += " from " + f.From
	}
	return fmt.Sprintf("%s %s %s: %s", f.Severity.String(), f.Code, obj, f.Message)
}

// findingJSON is a Finding's JSON form, the `sextant check -o json`
// contract: the object named by package, channel and bundle (each "" when
// the finding is not about one), and for a finding about an upgrade edge
// or a CRD from and crd (left out otherwise), the position as file, line, column (in
// characters) and byte offset (each left out when unknown); brief, the
// message in a few words, is left out when empty.
type findingJSON struct {
	Severity    graph.Severity `json:"severity"`
	Code        string         `json:"code"`
	Catalog     string         `json:"catalog"`
	Package     string         `json:"package"`
	Channel     string         `json:"channel"`
	Bundle      string         `json:"bundle"`
	From        string         `json:"from,omitempty"`
	CRD         string         `json:"crd,omitempty"`
	Message     string         `json:"message"`
	Brief       string         `json:"brief,omitempty"`
	File        string         `json:"file,omitempty"`
	Line        int            `json:"line,omitempty"`
	Column      int            `json:"column,omitempty"`
	Offset      int64          `json:"offset,omitempty"`
	Explanation *Explanation   `json:"explanation,omitempty"`
	Status      Status         `json:"status,omitempty"`
	Suppression *Suppression   `json:"suppression,omitempty"`
}

// MarshalJSON writes the finding in its JSON form (see findingJSON).
func (f Finding) MarshalJSON() ([]byte, error) {
	return json.Marshal(findingJSON{
		Severity: f.Severity, Code: f.Code, Catalog: f.Catalog,
		Package: f.Package, Channel: f.Channel, Bundle: f.Bundle, From: f.From, CRD: f.CRD, Message: f.Message, Brief: f.Brief,
		File: f.Pos.File, Line: f.Pos.Line, Column: f.Pos.Column, Offset: f.Pos.Offset, Explanation: f.Explanation, Status: f.Status, Suppression: f.Suppression,
	})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (f *Finding) UnmarshalJSON(b []byte) error {
	var j findingJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*f = Finding{
		Severity: j.Severity, Code: j.Code, Catalog: j.Catalog,
		Package: j.Package, Channel: j.Channel, Bundle: j.Bundle, From: j.From, CRD: j.CRD, Message: j.Message, Brief: j.Brief,
		Pos: graph.Position{File: j.File, Line: j.Line, Column: j.Column, Offset: j.Offset}, Explanation: j.Explanation, Status: j.Status, Suppression: j.Suppression,
	}
	return nil
}
