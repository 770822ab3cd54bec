package resolver

import (
	"slices"
	"strconv"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/resolver/predict"
)

// planKeys tells apart the plans of candidate suggestions (Explain) and
// fixes (Fixes): two plans are one suggestion when their keys are equal.
// A key holds what the compact text of a plan shows (one line per step,
// as scenario files print it: resolvertest.FormatPlan) — the namespace;
// the approval; what is in flight or left out; each step's action,
// bundle, version, package, channel, catalog, replaced CSV, reason
// (as Reason.String words it), whether it creates a subscription, its
// approval, warnings, predictions and held-back reason; each unchanged
// operator's CSV, version, package, subscription, predictions,
// deprecations and held-back reason; the notes — each piece ended by a
// NUL byte and each list by its length, written without fmt into one
// buffer: it costs a few allocations per plan, where rendering the text
// cost some per line.
type planKeys struct {
	buf  []byte
	seen []string
}

// add reports whether p's key is new, and remembers it; prefix (a
// namespace, say) is part of the key.
func (k *planKeys) add(prefix string, p *Plan) bool {
	k.buf = appendPlanKey(append(append(k.buf[:0], prefix...), 0), p)
	if slices.Contains(k.seen, string(k.buf)) {
		return false
	}
	k.seen = append(k.seen, string(k.buf))
	return true
}

// appendPlanKey appends the key of p (see planKeys) to b.
func appendPlanKey(b []byte, p *Plan) []byte {
	b = keyString(b, p.Namespace)
	if p.Approval.Mode == cluster.ApprovalManual {
		b = keyStrings(append(b, 'M'), p.Approval.Subscriptions)
		b = strconv.AppendBool(b, p.Waits())
	}
	b = keyLen(b, len(p.InFlight))
	for _, e := range p.InFlight {
		b = keyString(b, e.Text)
	}
	b = keyLen(b, len(p.Excluded))
	for _, x := range p.Excluded {
		b = keyString(b, x.String())
	}
	b = keyLen(b, len(p.Steps))
	for i := range p.Steps {
		b = appendStepKey(b, &p.Steps[i])
	}
	b = keyLen(b, len(p.Unchanged))
	for i := range p.Unchanged {
		u := &p.Unchanged[i]
		b = keyString(b, u.CSV)
		b = keyString(b, u.Version)
		b = keyString(b, u.Package)
		b = keyString(b, u.Subscription)
		b = keyPredictions(b, u.Predictions)
		b = keyLen(b, len(u.Deprecations))
		for _, d := range u.Deprecations {
			b = keyString(b, d.String())
		}
		b = keyHeldBack(b, u.HeldBack)
	}
	b = keyLen(b, len(p.Notes))
	for _, n := range p.Notes {
		b = keyString(b, n.Text)
	}
	return b
}

// appendStepKey appends the key of one step of a plan.
func appendStepKey(b []byte, s *Step) []byte {
	b = keyString(b, string(s.Action))
	b = keyString(b, s.Bundle)
	b = keyString(b, s.Version)
	b = keyString(b, s.Package)
	b = keyString(b, s.Channel)
	b = keyString(b, s.Catalog.Namespace)
	b = keyString(b, s.Catalog.Name)
	b = keyString(b, s.Replaces)
	b = append(s.Reason.appendText(b), 0)
	b = strconv.AppendBool(b, s.Dependency)
	b = keyString(b, s.Approval.String())
	b = keyStrings(b, s.Warnings)
	b = keyPredictions(b, s.Predictions)
	return keyHeldBack(b, s.HeldBack)
}

// keyString appends s and a NUL byte.
func keyString(b []byte, s string) []byte { return append(append(b, s...), 0) }

// keyLen appends the length of a list.
func keyLen(b []byte, n int) []byte { return append(strconv.AppendInt(b, int64(n), 10), 0) }

// keyStrings appends a list of strings.
func keyStrings(b []byte, ss []string) []byte {
	b = keyLen(b, len(ss))
	for _, s := range ss {
		b = keyString(b, s)
	}
	return b
}

// keyPredictions appends predictions as the compact text shows them:
// failure or warning, reason, message.
func keyPredictions(b []byte, ps []predict.Prediction) []byte {
	b = keyLen(b, len(ps))
	for _, p := range ps {
		b = strconv.AppendBool(b, p.Severity == predict.SeverityFailure)
		b = keyString(b, string(p.Reason))
		b = keyString(b, p.Message)
	}
	return b
}

// keyHeldBack appends a held-back reason and the change that lets it
// move, if any.
func keyHeldBack(b []byte, h *HeldBack) []byte {
	if h == nil {
		return append(b, 0)
	}
	b = keyString(append(b, 'H'), h.Reason)
	if h.Change != nil {
		b = keyString(b, h.Change.String())
	}
	return append(b, 0)
}
