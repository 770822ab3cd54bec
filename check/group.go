package check

import (
	"cmp"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/graph"
)

// Group is one cause found on several bundles: findings of one catalog,
// package, channel, code, severity and status (and, for suppressed
// findings, one suppression) whose messages, and whose briefs, are the same
// but for the name of the bundle each is about — eclipse-che's 78 bundles
// that each require devworkspace-operator >=0.11.0, which nothing
// satisfies. The findings stay findings; a group says which of them read as
// one. Its JSON form is
//
//	{"severity": "...", "code": "...", "package": "...", "channel": "...",
//	 "status": "...", "message": "...", "brief": "...", "count": N,
//	 "first": "...", "last": "...", "findings": [N...]}
//
// with status left out when empty; for findings about upgrade edges (a
// CRD change refused on each, crd-upgrade-unsafe) also
//
//	"crd": "...", "upgrades": [{"from": "...", "to": "..."}...]
//
// the edges in the order of Findings.
type Group struct {
	Severity graph.Severity `json:"severity"`
	Code     string         `json:"code"`
	Package  string         `json:"package"`
	Channel  string         `json:"channel"`
	Status   Status         `json:"status,omitempty"`
	// Message is the findings' message with each one's own bundle name
	// written "…".
	Message string `json:"message"`
	// Brief is the findings' Brief, the same way.
	Brief string `json:"brief"`
	// Count is the number of findings, two or more.
	Count int `json:"count"`
	// First and Last name the first and the last bundle in name order
	// (numbers in names compared by value: v7.44.0 before v7.120.0).
	First string `json:"first"`
	Last  string `json:"last"`
	// Findings indexes the findings in the slice the group was made from,
	// in name order of their bundles (then of the bundles their edges
	// start at).
	Findings []int `json:"findings"`
	// CRD is the findings' CRD, when they are about one.
	CRD string `json:"crd,omitempty"`
	// Upgrades are the findings' upgrade edges, when they are about
	// edges: one change refused on each.
	Upgrades []Upgrade `json:"upgrades,omitempty"`
}

// Upgrade is an upgrade edge a finding is about: from one bundle to
// another.
type Upgrade struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// groupPlaceholder stands in a group's message for each finding's bundle.
const groupPlaceholder = "…"

// GroupFindings returns the groups of fs: every set of two or more
// findings about different bundles — or different upgrade edges — that say
// the same thing of each (see Group), in the order of their first finding
// in fs. Findings about no bundle, and findings alone with their message,
// are in no group. The caller owns the returned slice.
func GroupFindings(fs []Finding) []Group {
	type key struct {
		catalog, pkg, channel, code string
		sev                         graph.Severity
		status                      Status
		suppression                 Suppression // the zero value for none
		edge                        bool
		crd                         string
		message, brief              string
	}
	byKey := map[key]int{}
	var members [][]int
	for i, f := range fs {
		if f.Bundle == "" {
			continue
		}
		k := key{f.Catalog, f.Package, f.Channel, f.Code, f.Severity, f.Status, Suppression{}, f.From != "", f.CRD, maskName(f.Message, f.Bundle), maskName(f.brief(), f.Bundle)}
		if s := f.Suppression; s != nil {
			k.suppression = *s
		}
		g, ok := byKey[k]
		if !ok {
			g = len(members)
			byKey[k] = g
			members = append(members, nil)
		}
		members[g] = append(members[g], i)
	}
	var out []Group
	for _, idx := range members {
		if len(idx) < 2 || hasDuplicateBundle(fs, idx) {
			continue
		}
		slices.SortStableFunc(idx, func(a, b int) int {
			return cmp.Or(compareNames(fs[a].Bundle, fs[b].Bundle), compareNames(fs[a].From, fs[b].From))
		})
		f := fs[idx[0]]
		g := Group{
			Severity: f.Severity, Code: f.Code, Package: f.Package, Channel: f.Channel, Status: f.Status,
			Message: maskName(f.Message, f.Bundle), Brief: maskName(f.brief(), f.Bundle), Count: len(idx),
			First: f.Bundle, Last: fs[idx[len(idx)-1]].Bundle, Findings: idx, CRD: f.CRD,
		}
		if f.From != "" {
			for _, i := range idx {
				g.Upgrades = append(g.Upgrades, Upgrade{From: fs[i].From, To: fs[i].Bundle})
			}
		}
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b Group) int { return cmp.Compare(slices.Min(a.Findings), slices.Min(b.Findings)) })
	return out
}

// groupLeads returns, for the groups of fs (GroupFindings), the group each
// one's first finding in fs leads, and which findings are in a group: a
// report writes a group once, at the place of its first finding.
func groupLeads(fs []Finding) (lead map[int]*Group, member map[int]bool) {
	lead, member = map[int]*Group{}, map[int]bool{}
	groups := GroupFindings(fs)
	for gi := range groups {
		g := &groups[gi]
		for _, i := range g.Findings {
			member[i] = true
		}
		lead[slices.Min(g.Findings)] = g
	}
	return lead, member
}

// hasDuplicateBundle reports whether two of the findings idx are about the
// same bundle (the same upgrade edge, for findings about edges): then they
// are different statements, not one cause.
func hasDuplicateBundle(fs []Finding, idx []int) bool {
	seen := make(map[Upgrade]bool, len(idx))
	for _, i := range idx {
		k := Upgrade{From: fs[i].From, To: fs[i].Bundle}
		if seen[k] {
			return true
		}
		seen[k] = true
	}
	return false
}

// maskName returns msg with every whole occurrence of name — not part of a
// longer name — written as groupPlaceholder.
func maskName(msg, name string) string {
	var b strings.Builder
	for {
		i := strings.Index(msg, name)
		if i < 0 {
			b.WriteString(msg)
			return b.String()
		}
		end := i + len(name)
		if (i > 0 && isNameByte(msg[i-1])) || (end < len(msg) && continuesName(msg[end:])) {
			b.WriteString(msg[:end])
		} else {
			b.WriteString(msg[:i])
			b.WriteString(groupPlaceholder)
		}
		msg = msg[end:]
	}
}

// isNameByte reports whether c can be part of a bundle name.
func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == '+'
}

// continuesName reports whether rest, the text after a name, goes on with
// the name: a name character, except a '.' that ends a sentence.
func continuesName(rest string) bool {
	if rest[0] == '.' {
		return len(rest) > 1 && isNameByte(rest[1])
	}
	return isNameByte(rest[0])
}

// compareNames orders names as people read versions in them: runs of
// digits by value, the rest byte by byte; names equal so (v01, v1) by
// their bytes.
func compareNames(a, b string) int {
	return cmp.Or(compareNatural(a, b), strings.Compare(a, b))
}

func compareNatural(a, b string) int {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := cmp.Or(cmp.Compare(len(na), len(nb)), strings.Compare(na, nb)); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

// digitRun returns the length of the run of ASCII digits s starts with.
func digitRun(s string) int {
	n := 0
	for n < len(s) && '0' <= s[n] && s[n] <= '9' {
		n++
	}
	return n
}
