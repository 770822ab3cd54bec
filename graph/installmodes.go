package graph

import (
	"slices"

	"github.com/sextantdev/sextant/internal/words"
)

// InstallModeSet is a CSV's list of install modes as OLM reads it: which
// types it supports, and which types it lists more than once. OLM v0.28's
// olm-operator builds the set with operator-framework/api's
// NewInstallModeSet, which records each listing in turn (so the last
// listing of a type is the one that stands) and rejects a list that names
// a type twice, failing the CSV with InvalidInstallModes.
//
// The zero value is the empty list: no mode supported, none repeated. An
// InstallModeSet is a value; its methods return new slices.
type InstallModeSet struct {
	four  [4]bool           // OLM's four types, in installModeOrder
	other []InstallModeType // other supported types, in listing order
	dup   []InstallModeType // types listed more than once, first repeat first
}

// installModeOrder is OLM's four install mode types, in the order they
// are named.
var installModeOrder = [4]InstallModeType{InstallModeOwnNamespace, InstallModeSingleNamespace, InstallModeMultiNamespace, InstallModeAllNamespaces}

// installModeIndex returns the index of t in installModeOrder, or -1 for
// a type OLM does not know.
func installModeIndex(t InstallModeType) int {
	for i, m := range installModeOrder {
		if m == t {
			return i
		}
	}
	return -1
}

// ReadInstallModes reads a CSV's installModes list (spec.installModes, or
// olm.csv.metadata's) as OLM does: the last listing of a type stands, and
// every type listed more than once is recorded (see Duplicates).
func ReadInstallModes(modes []InstallMode) InstallModeSet {
	var s InstallModeSet
	var seen [4]bool
	var seenOther []InstallModeType
	for _, m := range modes {
		dup := false
		if i := installModeIndex(m.Type); i >= 0 {
			dup, seen[i] = seen[i], true
			s.four[i] = m.Supported
		} else {
			dup = slices.Contains(seenOther, m.Type)
			seenOther = append(seenOther, m.Type)
			s.other = slices.DeleteFunc(s.other, func(t InstallModeType) bool { return t == m.Type })
			if m.Supported {
				s.other = append(s.other, m.Type)
			}
		}
		if dup && !slices.Contains(s.dup, m.Type) {
			s.dup = append(s.dup, m.Type)
		}
	}
	return s
}

// Supports reports whether the list supports install mode t (its last
// listing of t).
func (s InstallModeSet) Supports(t InstallModeType) bool {
	if i := installModeIndex(t); i >= 0 {
		return s.four[i]
	}
	return slices.Contains(s.other, t)
}

// Supported returns the supported types: OLM's four first, in the order
// OwnNamespace, SingleNamespace, MultiNamespace, AllNamespaces, then any
// other type by name. Nil when none is supported.
func (s InstallModeSet) Supported() []InstallModeType {
	var out []InstallModeType
	for i, t := range installModeOrder {
		if s.four[i] {
			out = append(out, t)
		}
	}
	other := slices.Clone(s.other)
	slices.Sort(other)
	return append(out, other...)
}

// Duplicates returns the types the list names more than once, in the
// order of their first repeat; nil when there are none. OLM rejects a
// list with duplicates (InvalidInstallModes).
func (s InstallModeSet) Duplicates() []InstallModeType { return slices.Clone(s.dup) }

// Valid reports whether OLM accepts the list as a set: no type is listed
// twice.
func (s InstallModeSet) Valid() bool { return len(s.dup) == 0 }

// InstallModeWords names install mode types in prose, in the order given:
// "OwnNamespace", "OwnNamespace and SingleNamespace", "A, B and C";
// "nothing" for none.
func InstallModeWords(types []InstallModeType) string {
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = string(t)
	}
	return words.Join(names, "and")
}

// SupportedWords says which types the set supports, in the order of
// Supported: "only OwnNamespace and SingleNamespace", or "no install mode".
func (s InstallModeSet) SupportedWords() string {
	sup := s.Supported()
	if len(sup) == 0 {
		return "no install mode"
	}
	return "only " + InstallModeWords(sup)
}
